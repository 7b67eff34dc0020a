/* tui_blast.c - an explosion the back row sees (tui_blast.h tells how). */
#include "tui_blast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"

/* Substeps the ghost may take in one frame: enough for a lesson's 70
 * substeps a step, few enough that a frame stays a frame. */
#define BLAST_SUBSTEPS_A_FRAME 400

static void drop_flight(TuiBlast *blast)
{
    solver_destroy(blast->ghost);
    blast->ghost = NULL;
    free(blast->x), free(blast->y), free(blast->z);
    blast->x = blast->y = blast->z = NULL;
    blast->count = 0;
    blast->samples = 0;
    blast->phase = BLAST_NONE;
}

void tui_blast_clear(TuiBlast *blast)
{
    drop_flight(blast);
    free(blast->before);
    *blast = (TuiBlast){0};
}

/* The largest extent of n particles along an axis, m. */
static double span_of(const float *x, const float *y, const float *z, int n)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; i++) {
        float p[3] = {x[i], y[i], z[i]};
        for (int k = 0; k < 3; k++)
            lo[k] = fminf(lo[k], p[k]), hi[k] = fmaxf(hi[k], p[k]);
    }
    double span = 0.0;
    for (int k = 0; k < 3; k++)
        span = fmax(span, (double)hi[k] - (double)lo[k]);
    return n > 0 ? span : 0.0;
}

/* A distance r from the centre as the picture shows it: as it is up to
 * near (half the rest size), logarithmic beyond (near (1 + ln(r / near)),
 * the same value and slope at near), so that a particle a hundred rest
 * sizes out is still on screen, and the cloth's own shape is not shrunk to
 * a dot by the few that fly furthest: the view's log scale, as the energy
 * plot's. */
static float shown_distance(float r, float near)
{
    return r <= near ? r : near * (1.0f + logf(r / near));
}

/* The ghost's positions become the ones shown if every one is finite and
 * within TUI_BLAST_LIMIT rest sizes of where the cloth was; false, showing
 * what was shown before, if not. */
static bool take(TuiBlast *blast)
{
    const Cloth *c = blast->ghost->cloth;
    float reach = (float)(TUI_BLAST_LIMIT * blast->rest_span), near = (float)(0.5 * blast->rest_span), centre[3];
    for (int k = 0; k < 3; k++)
        centre[k] = 0.5f * (blast->start_lo[k] + blast->start_hi[k]);
    for (int i = 0; i < c->count; i++)
        if (!(fabsf(c->x[i] - centre[0]) <= reach && fabsf(c->y[i] - centre[1]) <= reach &&
              fabsf(c->z[i] - centre[2]) <= reach)) /* also false for NaN */
            return false;
    blast->spread = span_of(c->x, c->y, c->z, c->count);
    blast->shown_time = blast->ghost->time;
    for (int i = 0; i < c->count; i++) {
        float d[3] = {c->x[i] - centre[0], c->y[i] - centre[1], c->z[i] - centre[2]};
        float r = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        float f = r > near ? shown_distance(r, near) / r : 1.0f;
        blast->x[i] = centre[0] + f * d[0], blast->y[i] = centre[1] + f * d[1], blast->z[i] = centre[2] + f * d[2];
    }
    return true;
}

/* The flight is over: its last frame stays, the ghost goes. */
static void hold(TuiBlast *blast)
{
    solver_destroy(blast->ghost);
    blast->ghost = NULL;
    blast->phase = BLAST_HELD;
}

/* The ghost from the state kept before the explosion, stepped to the
 * substep it was found at. Allocates: once, when the explosion is seen. */
static bool begin(TuiBlast *blast, const Solver *solver)
{
    blast->phase = BLAST_HELD; /* with nothing to show, unless the flight starts below */
    if (!blast->before_valid ||
        (solver->exploded_step - blast->before_step + 1) * solver->params.substeps > TUI_BLAST_MAX_REPLAY)
        return true;
    int n = solver->cloth->count;
    blast->ghost = solver_create(&solver->params);
    blast->x = malloc((size_t)n * sizeof(float));
    blast->y = malloc((size_t)n * sizeof(float));
    blast->z = malloc((size_t)n * sizeof(float));
    if (!blast->ghost || !blast->x || !blast->y || !blast->z) {
        drop_flight(blast);
        blast->phase = BLAST_HELD;
        return false;
    }
    if (solver_state_size(blast->ghost) != blast->before_size || blast->ghost->cloth->count != n) {
        drop_flight(blast); /* settings that shape the cloth changed since the state was kept */
        blast->phase = BLAST_HELD;
        return true;
    }
    blast->count = n;
    solver_state_load(blast->ghost, blast->before);
    blast->ghost->unchecked = true;
    blast->rest_span = solver->rest_extent > 0.0 ? solver->rest_extent : 1.0;
    /* where the cloth was: its last good step, the collider, and the positions it was found at */
    if (!camera_solver_box(solver, blast->start_lo, blast->start_hi))
        for (int k = 0; k < 3; k++)
            blast->start_lo[k] = INFINITY, blast->start_hi[k] = -INFINITY;
    for (int i = 0; solver->blown_x && i < n; i++) {
        float p[3] = {solver->blown_x[i], solver->blown_y[i], solver->blown_z[i]};
        for (int k = 0; k < 3; k++)
            if (isfinite(p[k]))
                blast->start_lo[k] = fminf(blast->start_lo[k], p[k]),
                blast->start_hi[k] = fmaxf(blast->start_hi[k], p[k]);
    }
    /* the same bits as the pane's solver, up to the substep the explosion was found at */
    double h = params_substep(&solver->params);
    int64_t most = (solver->exploded_step - blast->before_step + 1) * solver->params.substeps + 1;
    for (int64_t k = 0; k < most && blast->ghost->time < solver->exploded_time - 0.5 * h; k++)
        solver_substep(blast->ghost);
    if (!take(blast)) {
        drop_flight(blast); /* found not finite: the frame the solver kept is shown */
        blast->phase = BLAST_HELD;
        return true;
    }
    blast->spread_start = blast->spread;
    blast->flown = 0.0;
    blast->phase = BLAST_FLYING;
    return true;
}

bool tui_blast_watch(TuiBlast *blast, const Solver *solver)
{
    if (solver != blast->owner) {
        tui_blast_clear(blast);
        blast->owner = solver;
    }
    if (!solver)
        return true;
    if (solver->exploded) {
        if (blast->phase != BLAST_NONE)
            return true;
        return begin(blast, solver);
    }
    if (blast->phase != BLAST_NONE)
        drop_flight(blast); /* reset: a new run */
    if (solver->phase != PHASE_BETWEEN_SUBSTEPS || solver->substep != 0)
        return true; /* inside a step the state is not whole: the last whole one stays */
    size_t size = solver_state_size(solver);
    if (size > blast->before_capacity) {
        /* the first frame, or a larger cloth: not in the step or the drawing */
        unsigned char *more = realloc(blast->before, size);
        if (!more) {
            blast->before_valid = false;
            return false;
        }
        blast->before = more;
        blast->before_capacity = size;
    }
    solver_state_save(solver, blast->before);
    blast->before_size = size;
    blast->before_step = solver->step;
    blast->before_valid = true;
    return true;
}

/* The plots' figures for the positions shown: the ghost's, which are
 * those positions before the view's log scale. */
static void measure(TuiBlast *blast)
{
    Metrics m;
    metrics_compute_live(blast->ghost, &m);
    blast->energy = isfinite(m.total) ? m.total : NAN;
    blast->max_strain = isfinite(m.max_strain) ? m.max_strain : NAN;
}

bool tui_blast_fly(TuiBlast *blast, double seconds)
{
    if (blast->phase != BLAST_FLYING)
        return false;
    blast->flown += seconds > 0.0 ? seconds : 0.0;
    double end = TUI_BLAST_END * blast->rest_span;
    double part = fmin(blast->flown / TUI_BLAST_SECONDS, 1.0);
    double target = blast->spread_start < end ? blast->spread_start * pow(end / blast->spread_start, part) : end;
    bool took = false;
    blast->energy = blast->max_strain = NAN;
    for (int k = 0; k < BLAST_SUBSTEPS_A_FRAME && blast->spread < target; k++) {
        solver_substep(blast->ghost);
        if (!take(blast)) {
            hold(blast); /* the next substep is off the chart: the last one shown stays */
            return took;
        }
        took = true;
    }
    if (took)
        measure(blast);
    /* grown as far as it goes, or not growing (a position-based cloth may pull itself together) */
    if (blast->spread >= end || blast->flown >= 2.0 * TUI_BLAST_SECONDS)
        hold(blast);
    return took;
}

bool tui_blast_shown(const TuiBlast *blast)
{
    return blast->phase != BLAST_NONE && blast->count > 0;
}

bool tui_blast_flying(const TuiBlast *blast)
{
    return blast->phase == BLAST_FLYING;
}

double tui_blast_time(const TuiBlast *blast)
{
    return tui_blast_shown(blast) ? blast->shown_time : NAN;
}

bool tui_blast_render(TuiBlast *blast, Canvas *canvas, const Camera *camera, const Solver *solver,
                      const RenderOptions *options)
{
    if (!tui_blast_shown(blast) || solver != blast->owner || solver->cloth->count != blast->count)
        return false;
    Cloth shown = *solver->cloth;
    shown.x = blast->x, shown.y = blast->y, shown.z = blast->z;
    Camera wide = *camera;
    camera_fit(&wide, &shown, blast->start_lo, blast->start_hi);
    render_begin(canvas, options);
    render_draw_colliders(canvas, &wide, solver, options);
    render_draw_cloth(canvas, &wide, &shown, options);
    render_end(canvas, options);
    if (options->mode == RENDER_STRAIN && options->legend && canvas->height > 0)
        render_legend(canvas, 0, canvas->height - 1, options);
    return true;
}
