/* bench_node.c - seed 000's workload in JavaScript, timed in node beside
 * the solver (`clothsim bench`).
 *
 * Source document 000 (README, "Sources") closes with a JavaScript cloth:
 * one object a particle holding its position, previous position and
 * acceleration, one object a link with a satisfy() method, links listed
 * cell by cell (right, down, the two diagonals, the two bends), a Verlet
 * step with 0.99 damping, Jakobsen's passes moving both ends by half the
 * error, and a sphere that pushes particles out to its surface. The issue
 * that set the bench's targets timed that code in node at 12 to 16 ns a
 * link a pass on seed 000's workload: 40 x 40 particles, 10 passes a step,
 * one substep, a moving sphere.
 *
 * SCRIPT below is our own program of that design, written for this
 * measure (nothing of the document's text is in it): the same objects, the
 * same order of work and the same workload, so that node pays what the
 * document's code pays. It prints one line: the median, least and most ns
 * a link a pass over its repetitions, after a warm-up that lets node's
 * compiler settle. The bench runs it when `node` is on the PATH; without
 * node the figure is left out and the bench says why.
 */
#include "bench_node.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "i18n.h"

static const char SCRIPT[] =
    "'use strict';\n"
    "const COLS = 40, ROWS = 40, PASSES = 10, DT = 1 / 60, SPACING = 2 / 39;\n"
    "class Particle {\n"
    "  constructor(x, y, z) {\n"
    "    this.pos = {x: x, y: y, z: z};\n"
    "    this.prev = {x: x, y: y, z: z};\n"
    "    this.acc = {x: 0, y: 0, z: 0};\n"
    "    this.pinned = false;\n"
    "  }\n"
    "  step(dt) {\n"
    "    if (this.pinned) return;\n"
    "    const p = this.pos, q = this.prev, a = this.acc, keep = 0.99;\n"
    "    const vx = (p.x - q.x) * keep, vy = (p.y - q.y) * keep, vz = (p.z - q.z) * keep;\n"
    "    q.x = p.x; q.y = p.y; q.z = p.z;\n"
    "    p.x += vx + a.x * dt * dt; p.y += vy + a.y * dt * dt; p.z += vz + a.z * dt * dt;\n"
    "    a.x = 0; a.y = 0; a.z = 0;\n"
    "  }\n"
    "}\n"
    "class Link {\n"
    "  constructor(a, b) {\n"
    "    this.a = a; this.b = b;\n"
    "    const dx = b.pos.x - a.pos.x, dy = b.pos.y - a.pos.y, dz = b.pos.z - a.pos.z;\n"
    "    this.rest = Math.sqrt(dx * dx + dy * dy + dz * dz);\n"
    "    this.torn = false;\n"
    "  }\n"
    "  satisfy() {\n"
    "    if (this.torn) return;\n"
    "    const a = this.a, b = this.b;\n"
    "    const dx = b.pos.x - a.pos.x, dy = b.pos.y - a.pos.y, dz = b.pos.z - a.pos.z;\n"
    "    const length = Math.sqrt(dx * dx + dy * dy + dz * dz) || 1e-4;\n"
    "    const half = 0.5 * (length - this.rest) / length;\n"
    "    if (!a.pinned) { a.pos.x += dx * half; a.pos.y += dy * half; a.pos.z += dz * half; }\n"
    "    if (!b.pinned) { b.pos.x -= dx * half; b.pos.y -= dy * half; b.pos.z -= dz * half; }\n"
    "  }\n"
    "}\n"
    "const particles = [], links = [];\n"
    "for (let r = 0; r < ROWS; r++)\n"
    "  for (let c = 0; c < COLS; c++) {\n"
    "    const p = new Particle((c - (COLS - 1) / 2) * SPACING, 2 - r * SPACING, 0);\n"
    "    p.pinned = r === 0;\n"
    "    particles.push(p);\n"
    "  }\n"
    "const at = (r, c) => particles[r * COLS + c];\n"
    "for (let r = 0; r < ROWS; r++)\n"
    "  for (let c = 0; c < COLS; c++) {\n"
    "    if (c + 1 < COLS) links.push(new Link(at(r, c), at(r, c + 1)));\n"
    "    if (r + 1 < ROWS) links.push(new Link(at(r, c), at(r + 1, c)));\n"
    "    if (c + 1 < COLS && r + 1 < ROWS) {\n"
    "      links.push(new Link(at(r, c), at(r + 1, c + 1)));\n"
    "      links.push(new Link(at(r, c + 1), at(r + 1, c)));\n"
    "    }\n"
    "    if (c + 2 < COLS) links.push(new Link(at(r, c), at(r, c + 2)));\n"
    "    if (r + 2 < ROWS) links.push(new Link(at(r, c), at(r + 2, c)));\n"
    "  }\n"
    "let time = 0;\n"
    "function step() {\n"
    "  for (const p of particles) if (!p.pinned) p.acc.y += -9.81;\n"
    "  for (const p of particles) p.step(DT);\n"
    "  for (let i = 0; i < PASSES; i++) for (const l of links) l.satisfy();\n"
    "  const sx = 0, sy = 1, sz = -0.6 * Math.cos(2 * Math.PI * time / 4), radius = 0.5;\n"
    "  for (const p of particles) {\n"
    "    const dx = p.pos.x - sx, dy = p.pos.y - sy, dz = p.pos.z - sz;\n"
    "    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);\n"
    "    if (d < radius && d > 0) {\n"
    "      p.pos.x = sx + dx / d * radius; p.pos.y = sy + dy / d * radius; p.pos.z = sz + dz / d * radius;\n"
    "    }\n"
    "  }\n"
    "  time += DT;\n"
    "}\n"
    "const [reps, seconds] = process.argv.slice(-2).map(Number);\n"
    "const clock = () => Number(process.hrtime.bigint()) * 1e-9;\n"
    "let start = clock(), warm = 0;\n"
    "while (warm < 60 || clock() - start < 2 * seconds) { step(); warm++; }\n"
    "const perStep = (clock() - start) / warm;\n"
    "const steps = Math.max(1, Math.round(seconds / perStep));\n"
    "const ns = [];\n"
    "for (let r = 0; r < reps; r++) {\n"
    "  const t0 = clock();\n"
    "  for (let n = 0; n < steps; n++) step();\n"
    "  ns.push(1e9 * (clock() - t0) / (steps * PASSES * links.length));\n"
    "}\n"
    "ns.sort((x, y) => x - y);\n"
    "const median = reps % 2 ? ns[(reps - 1) / 2] : (ns[reps / 2 - 1] + ns[reps / 2]) / 2;\n"
    "console.log(median + ' ' + ns[0] + ' ' + ns[reps - 1] + ' ' + links.length);\n";

bool bench_node_seed(int reps, double rep_seconds, BenchNodeFigure *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->why, sizeof out->why, _("node is not on the PATH (Debian: apt-get install nodejs)"));
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0) {
        snprintf(out->why, sizeof out->why, _("no pipe to node: %s"), strerror(errno));
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(pipe_fd[0]), close(pipe_fd[1]);
        snprintf(out->why, sizeof out->why, _("could not start node: %s"), strerror(errno));
        return false;
    }
    if (pid == 0) {
        char reps_text[16], seconds_text[32];
        snprintf(reps_text, sizeof reps_text, "%d", reps);
        snprintf(seconds_text, sizeof seconds_text, "%g", rep_seconds);
        dup2(pipe_fd[1], STDOUT_FILENO);
        close(pipe_fd[0]), close(pipe_fd[1]);
        /* `node -e SCRIPT A B`: A and B are the last two of process.argv */
        execlp("node", "node", "-e", SCRIPT, reps_text, seconds_text, (char *)NULL);
        _exit(127);
    }
    close(pipe_fd[1]);
    FILE *from = fdopen(pipe_fd[0], "r");
    char line[256] = "";
    bool read = from && fgets(line, sizeof line, from) != NULL;
    if (from)
        fclose(from);
    else
        close(pipe_fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return false; /* the message set above */
    int links = 0;
    if (!read || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        sscanf(line, "%lf %lf %lf %d", &out->median, &out->min, &out->max, &links) != 4 || links <= 0) {
        snprintf(out->why, sizeof out->why, _("node ran but gave no figure (exit status %d)"),
                 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        return false;
    }
    out->links = links;
    out->why[0] = '\0';
    return true;
}
