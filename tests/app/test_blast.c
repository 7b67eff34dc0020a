/* test_blast.c - an explosion the class sees (src/app/tui_blast.h): the
 * ghost starts where the solver found the explosion, flies apart with only
 * finite positions shown, leaves the pane's solver as it was, and on screen
 * the exploded pane's drawing changes after the banner. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tmux_session.h"
#include "app/tui_blast.h"
#include "core/metrics.h"
#include "core/solver.h"
#include "render/canvas.h"
#include "render/render.h"

/* The sandbox's curtain under explicit Euler: it explodes at t = 0.08 s. */
static Solver *euler_curtain(void)
{
    Params p;
    char err[256];
    params_default(&p, SCENE_CURTAIN);
    cr_assert(params_assign(&p, "integrator=euler", err, sizeof err), "%s", err);
    Solver *s = solver_create(&p);
    cr_assert_not_null(s);
    return s;
}

/* Steps the solver two steps a frame, watching it at the end of each, as
 * the sandbox does, until it explodes. */
static void run_to_explosion(TuiBlast *blast, Solver *s)
{
    for (int frame = 0; frame < 600 && !s->exploded; frame++) {
        cr_assert(tui_blast_watch(blast, s));
        solver_step(s);
        if (!s->exploded)
            solver_step(s);
    }
    cr_assert(s->exploded, "euler did not explode");
    cr_assert(tui_blast_watch(blast, s));
}

/* The glyphs of a canvas, one per cell. */
static void glyphs(const Canvas *c, uint32_t *out)
{
    for (int i = 0; i < c->width * c->height; i++)
        out[i] = c->cells[i].glyph;
}

Test(blast, starts_where_the_solver_found_the_explosion)
{
    Solver *s = euler_curtain();
    TuiBlast blast = {0};
    run_to_explosion(&blast, s);
    cr_assert(tui_blast_flying(&blast), "no flight after the explosion");
    const Cloth *g = blast.ghost->cloth;
    size_t bytes = (size_t)g->count * sizeof(float);
    /* the ghost replays the same bits up to the substep the check fired at */
    cr_expect(memcmp(g->x, s->blown_x, bytes) == 0 && memcmp(g->y, s->blown_y, bytes) == 0 &&
                  memcmp(g->z, s->blown_z, bytes) == 0,
              "the flight does not start from the positions the explosion was found at");
    cr_expect_float_eq(tui_blast_time(&blast), s->exploded_time, 1e-12);
    tui_blast_clear(&blast);
    solver_destroy(s);
}

Test(blast, flies_apart_showing_only_finite_positions_and_leaves_the_solver_alone)
{
    Solver *s = euler_curtain();
    TuiBlast blast = {0};
    run_to_explosion(&blast, s);
    size_t size = solver_state_size(s);
    unsigned char *before = malloc(size), *after = malloc(size);
    cr_assert(before && after);
    solver_state_save(s, before);

    RenderOptions options;
    render_options_default(&options);
    Canvas *canvas = canvas_create(60, 20);
    cr_assert(canvas && render_reserve(canvas, s->cloth));
    Camera camera;
    camera_init(&camera, s->params.dim, canvas->width, canvas->height);
    camera_fit_solver(&camera, s);
    int cells = canvas->width * canvas->height;
    uint32_t *first = malloc((size_t)cells * sizeof *first), *last = malloc((size_t)cells * sizeof *last);
    cr_assert(tui_blast_render(&blast, canvas, &camera, s, &options));
    glyphs(canvas, first);

    int frames = 0, measured = 0;
    double start_time = tui_blast_time(&blast), energy = NAN;
    for (; frames < 200 && tui_blast_flying(&blast); frames++) {
        if (tui_blast_fly(&blast, 1.0 / 30.0) && isfinite(blast.energy)) {
            /* the plots go on with it: the energy climbs as the instability grows */
            cr_expect(!(blast.energy < energy / 2), "the flight's energy fell from %g J to %g J", energy, blast.energy);
            energy = blast.energy, measured++;
        }
        for (int i = 0; i < blast.count; i++)
            cr_assert(isfinite(blast.x[i]) && isfinite(blast.y[i]) && isfinite(blast.z[i]),
                      "particle %d shown at a position that is not finite (frame %d)", i, frames);
        cr_assert(tui_blast_watch(&blast, s), "watching again stops nothing");
    }
    cr_expect(!tui_blast_flying(&blast), "the flight never ends");
    cr_expect(frames >= 30 && frames <= 2 * TUI_BLAST_SECONDS * 30 + 1,
              "the flight took %d frames of 1/30 s: not seconds", frames);
    cr_expect(blast.spread >= TUI_BLAST_END * s->rest_extent || frames >= 2 * TUI_BLAST_SECONDS * 30,
              "held at a span of %g m, the cloth's rest size %g m", blast.spread, s->rest_extent);
    cr_expect(tui_blast_time(&blast) > start_time, "the time shown did not go on");
    cr_expect(measured >= 5, "only %d frames of the flight were measured for the plots", measured);
    Metrics at_explosion;
    metrics_compute_live(s, &at_explosion);
    cr_expect(energy > 100.0 * at_explosion.total, "the flight's energy reached only %g J", energy);

    /* the shape, not only the colour: most cells the cloth covered change glyph */
    cr_assert(tui_blast_render(&blast, canvas, &camera, s, &options));
    glyphs(canvas, last);
    int drawn = 0, changed = 0;
    for (int i = 0; i < cells; i++) {
        drawn += first[i] != ' ' || last[i] != ' ';
        changed += first[i] != last[i];
    }
    cr_expect(changed > drawn / 2, "%d of %d cells drawn changed glyph", changed, drawn);

    /* presentation only: the pane's solver is where it froze */
    solver_state_save(s, after);
    cr_expect(memcmp(before, after, size) == 0, "the flight changed the pane's solver");
    free(first), free(last), free(before), free(after);
    canvas_destroy(canvas);
    tui_blast_clear(&blast);
    solver_destroy(s);
}

/* A step that would put a particle at infinity (here one is put there by
 * hand) ends the flight: the frame before it stays. */
Test(blast, a_position_gone_infinite_is_never_shown)
{
    Solver *s = euler_curtain();
    TuiBlast blast = {0};
    run_to_explosion(&blast, s);
    cr_assert(tui_blast_flying(&blast));
    blast.ghost->cloth->vx[7] = INFINITY;
    for (int frame = 0; frame < 10 && tui_blast_flying(&blast); frame++)
        tui_blast_fly(&blast, 1.0 / 30.0);
    cr_expect(!tui_blast_flying(&blast), "the flight went on with a particle at infinity");
    for (int i = 0; i < blast.count; i++)
        cr_assert(isfinite(blast.x[i]) && isfinite(blast.y[i]) && isfinite(blast.z[i]),
                  "particle %d shown at a position that is not finite", i);
    tui_blast_clear(&blast);
    solver_destroy(s);
}

Test(blast, a_reset_ends_the_flight)
{
    Solver *s = euler_curtain();
    TuiBlast blast = {0};
    run_to_explosion(&blast, s);
    cr_assert(tui_blast_shown(&blast));
    cr_assert(solver_reset(s));
    cr_assert(tui_blast_watch(&blast, s));
    cr_expect(!tui_blast_shown(&blast) && !tui_blast_flying(&blast), "the flight outlived a reset");
    cr_expect(isnan(tui_blast_time(&blast)));
    tui_blast_clear(&blast);
    solver_destroy(s);
}

/* ---------------------------------------------------------------- on screen */

/* The cells inside the exploded pane's broken frame (between the two heavy
 * bars of a row), rows of text left out: the share whose glyph differs
 * between screens a and b. */
static double frame_change(const char *a, const char *b)
{
    int counted = 0, changed = 0;
    const char *pa = a, *pb = b;
    while (*pa && *pb) {
        const char *ea = strchr(pa, '\n'), *eb = strchr(pb, '\n');
        size_t la = ea ? (size_t)(ea - pa) : strlen(pa), lb = eb ? (size_t)(eb - pb) : strlen(pb);
        /* a row as code points */
        uint32_t ra[512], rb[512];
        int na = 0, nb = 0;
        for (size_t i = 0; i < la && na < 512;)
            i += (size_t)canvas_utf8_decode(pa + i, &ra[na++]);
        for (size_t i = 0; i < lb && nb < 512;)
            i += (size_t)canvas_utf8_decode(pb + i, &rb[nb++]);
        int left = -1, right = -1;
        for (int i = 0; i < na; i++)
            if (ra[i] == 0x2503) {
                if (left < 0)
                    left = i;
                else if (right < 0)
                    right = i;
            }
        bool text = false;
        for (int i = left + 1; left >= 0 && i < right; i++)
            text = text || (ra[i] < 128 && ra[i] != ' ') || (i < nb && rb[i] < 128 && rb[i] != ' ');
        if (right > left + 1 && !text)
            for (int i = left + 1; i < right && i < nb; i++) {
                counted++;
                changed += ra[i] != rb[i];
            }
        pa += la + (ea ? 1 : 0), pb += lb + (eb ? 1 : 0);
    }
    return counted ? (double)changed / counted : 0.0;
}

/* The sandbox's curtain under Euler explodes at once; the pane's drawing
 * (glyphs, colour aside) changes in the seconds after the banner: before
 * the flight, 0.0 % at both sizes. */
Test(blast, the_exploded_pane_flies_apart_on_screen, .timeout = 60)
{
    if (system("tmux -V >/dev/null 2>&1") != 0)
        cr_skip_test("tmux is not installed");
    static const int sizes[][2] = {{80, 24}, {110, 34}};
    for (int k = 0; k < 2; k++) {
        snprintf(server, sizeof server, "clothsim-blast-%d", (int)getpid());
        snprintf(exit_path, sizeof exit_path, "/tmp/clothsim-blast-%d.exit", (int)getpid());
        snprintf(stty_path, sizeof stty_path, "/tmp/clothsim-blast-%d.stty", (int)getpid());
        cr_assert_eq(tmux_new_session("-d -s t -x %d -y %d \"%s --set integrator=euler; sleep 60\"", sizes[k][0],
                                      sizes[k][1], CLOTHSIM_BIN),
                     0);
        cr_assert(wait_for("EXPLODED at t = "), "no explosion at %dx%d:\n%s", sizes[k][0], sizes[k][1], screen);
        static char first[SCREEN_BYTES];
        memcpy(first, screen, sizeof first);
        pause_ms(2500);
        cr_assert(capture());
        double change = frame_change(first, screen);
        cr_expect(change > 0.10, "at %dx%d only %.1f %% of the exploded pane changed glyph:\n%s\n%s", sizes[k][0],
                  sizes[k][1], 100.0 * change, first, screen);
        stop();
    }
}

/* The same in a lesson: lesson 3's right pane (Verlet at dt = 1/30 s)
 * explodes at once in a run at 0.25x; the flight goes on in the lesson's
 * frames. Before the flight, 0.0 %. */
Test(blast, a_lesson_pane_flies_apart_on_screen, .timeout = 60)
{
    if (system("tmux -V >/dev/null 2>&1") != 0)
        cr_skip_test("tmux is not installed");
    snprintf(server, sizeof server, "clothsim-blast-lesson-%d", (int)getpid());
    snprintf(exit_path, sizeof exit_path, "/tmp/clothsim-blast-lesson-%d.exit", (int)getpid());
    snprintf(stty_path, sizeof stty_path, "/tmp/clothsim-blast-lesson-%d.stty", (int)getpid());
    cr_assert_eq(tmux_new_session("-d -s t -x 80 -y 24 \"XDG_STATE_HOME=/tmp/clothsim-blast-lesson-%d %s "
                                  "%s/lessons/03-verlets-limit.lesson; sleep 60\"",
                                  (int)getpid(), CLOTHSIM_BIN, CLOTHSIM_SRCDIR),
                 0);
    cr_assert(wait_for("What will the right pane do?"), "the lesson did not open:\n%s", screen);
    tmux("send-keys -t t 2");
    cr_assert(wait_for("EXPLODED"), "no explosion:\n%s", screen);
    static char first[SCREEN_BYTES];
    memcpy(first, screen, sizeof first);
    pause_ms(2500);
    cr_assert(capture());
    double change = frame_change(first, screen);
    cr_expect(change > 0.10, "only %.1f %% of the exploded pane changed glyph:\n%s\n%s", 100.0 * change, first, screen);
    tmux("send-keys -t t q"); /* the lesson writes its progress as it ends */
    pause_ms(300);
    stop();
    char command[128];
    snprintf(command, sizeof command, "rm -rf /tmp/clothsim-blast-lesson-%d", (int)getpid());
    if (system(command) != 0)
        fprintf(stderr, "could not remove /tmp/clothsim-blast-lesson-%d\n", (int)getpid());
}
