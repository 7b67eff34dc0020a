/* support.c - helpers shared by the test files. */
#include "support.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fast_table.h"
#include "fast/relax_fast.h"

/* The solvers of every test call the fast path through core's table, as
 * the program's do (app/main.c): filled before any test runs, in each
 * process Criterion starts. A test of the plain code without it installs
 * NULL for itself (tests/fast/test_fast.c). */
__attribute__((constructor)) static void suite_fast_path(void)
{
    fast_table_install(relax_fast_table());
}

/* The suite's own locale, set before any test runs: the end-to-end tests
 * expect what a UTF-8 locale draws (braille), and a fresh machine may have no
 * LANG at all. A UTF-8 locale the environment names (C.UTF-8, uk_UA.UTF-8)
 * is kept; otherwise C.UTF-8, which every glibc has. Tests that want
 * another locale set LANG and LC_ALL themselves. */
__attribute__((constructor)) static void suite_locale(void)
{
    const char *ok = setlocale(LC_CTYPE, "");
    const char *codeset = ok ? nl_langinfo(CODESET) : "";
    if (strcmp(codeset, "UTF-8") != 0)
        setenv("LC_ALL", "C.UTF-8", 1);
    setlocale(LC_CTYPE, "C");
    /* The tests written before the interface spoke Ukrainian read English
     * words and '.' decimals off what the children print. The suite runs in
     * uk_UA.UTF-8 too (.ci/run): the children keep that locale's characters
     * (LC_ALL becomes LANG) but speak English with C numbers. The tests of
     * the Ukrainian interface set LC_ALL=uk_UA.UTF-8 themselves. */
    const char *all = getenv("LC_ALL");
    if (all && all[0]) {
        setenv("LANG", all, 1);
        unsetenv("LC_ALL");
    }
    setenv("LC_MESSAGES", "C", 1);
    setenv("LC_NUMERIC", "C", 1);
    unsetenv("LANGUAGE");
}

Solver *support_solver(SceneKind scene, const char *const *settings)
{
    Params params;
    char err[320];
    params_default(&params, scene);
    for (int i = 0; settings && settings[i]; i++)
        if (!params_assign(&params, settings[i], err, sizeof err))
            cr_assert_fail("bad test setting %s: %s", settings[i], err);
    Solver *solver = solver_create(&params);
    cr_assert_not_null(solver);
    return solver;
}

Cloth *support_free_cloth(int cols, int rows)
{
    Cloth *c = cloth_create(cols, rows);
    cr_assert_not_null(c);
    for (int i = 0; i < c->count; i++)
        c->mass[i] = 1.0f, c->inv_mass[i] = 1.0f;
    return c;
}

void support_place(Cloth *c, int i, float x, float y, float z)
{
    c->x[i] = c->px[i] = x, c->y[i] = c->py[i] = y, c->z[i] = c->pz[i] = z;
}

void support_run_seconds(Solver *solver, double seconds)
{
    long steps = lround(seconds / solver->params.dt);
    for (long n = 0; n < steps && !solver->exploded; n++)
        solver_step(solver);
}

double support_max_strain(const Solver *solver)
{
    const Cloth *c = solver->cloth;
    double worst = -1.0;
    for (int l = 0; l < c->link_count; l++)
        if (c->family[l] == LINK_STRUCTURAL && !c->torn[l] && cloth_link_strain(c, l) > worst)
            worst = cloth_link_strain(c, l);
    return worst;
}

int support_grab_and_pull(Solver *s)
{
    int i = cloth_index(s->cloth, 15, 12);
    solver_grab(s, i);
    float x = s->cloth->x[i];
    solver_grab_move(s, x + 0.02f, s->cloth->y[i], s->cloth->z[i]);
    solver_step(s);
    cr_expect_float_eq(s->cloth->x[i], x + 0.02f, 1e-6, "the grabbed particle follows the hand");
    return i;
}

bool support_same_particles(const Solver *first, const Solver *second)
{
    const Cloth *a = first->cloth, *b = second->cloth;
    if (a->count != b->count)
        return false;
    size_t n = (size_t)a->count, f = n * sizeof(float), d = n * sizeof(double);
    const float *fa[] = {a->x, a->y, a->z, a->px, a->py, a->pz, a->vx, a->vy, a->vz, a->rvx, a->rvy, a->rvz};
    const float *fb[] = {b->x, b->y, b->z, b->px, b->py, b->pz, b->vx, b->vy, b->vz, b->rvx, b->rvy, b->rvz};
    const double *da[] = {a->rx, a->ry, a->rz, a->prx, a->pry, a->prz};
    const double *db[] = {b->rx, b->ry, b->rz, b->prx, b->pry, b->prz};
    bool same = first->exploded == second->exploded && first->step == second->step;
    for (size_t k = 0; k < sizeof fa / sizeof fa[0]; k++)
        same = same && memcmp(fa[k], fb[k], f) == 0;
    for (size_t k = 0; k < sizeof da / sizeof da[0]; k++)
        same = same && memcmp(da[k], db[k], d) == 0;
    return same;
}

double support_mean_x(const Solver *solver)
{
    double sum = 0.0;
    for (int i = 0; i < solver->cloth->count; i++)
        sum += solver->cloth->x[i];
    return sum / solver->cloth->count;
}

static void drain(int fd, char *buf, size_t cap)
{
    size_t used = 0;
    char scratch[4096];
    for (;;) {
        ssize_t n = read(fd, scratch, sizeof scratch);
        if (n <= 0)
            break;
        size_t keep = (size_t)n;
        if (cap > 0 && used + keep > cap - 1)
            keep = cap - 1 - used;
        memcpy(buf + used, scratch, keep);
        used += keep;
    }
    if (cap > 0)
        buf[used] = '\0';
}

int support_exec(const char *const *argv, char *out, size_t out_cap, char *err, size_t err_cap)
{
    char err_path[] = "/tmp/clothsim-test-err-XXXXXX";
    int err_fd = mkstemp(err_path);
    cr_assert(err_fd >= 0);
    unlink(err_path);
    int pipe_out[2];
    cr_assert(pipe(pipe_out) == 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int null_fd = open("/dev/null", O_RDONLY);
        dup2(null_fd, 0);
        dup2(pipe_out[1], 1);
        dup2(err_fd, 2);
        close(pipe_out[0]);
        int argc = 0;
        while (argv[argc])
            argc++;
        char **args = calloc((size_t)argc + 1, sizeof *args);
        args[0] = (char *)CLOTHSIM_BIN;
        for (int i = 1; i < argc; i++)
            args[i] = (char *)argv[i];
        execv(CLOTHSIM_BIN, args);
        _exit(127);
    }
    close(pipe_out[1]);
    drain(pipe_out[0], out, out_cap);
    close(pipe_out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    lseek(err_fd, 0, SEEK_SET);
    drain(err_fd, err, err_cap);
    close(err_fd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool support_long(void)
{
    const char *text = getenv("CLOTHSIM_TEST_LONG");
    return text && strcmp(text, "1") == 0;
}

int support_steps(int quick, int full)
{
    return support_long() ? full : quick;
}
