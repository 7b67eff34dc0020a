/* player.c - plays a lesson page by page (see player.h for the states). */
#include "player.h"

#include "render/camera.h"
#include "run_cache.h"
#include "view.h"
#include "core/scene.h"
#include "core/text.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const lesson_player_state_names[] = {
    [LESSON_RUNNING] = "running", [LESSON_WAITING] = "waiting",   [LESSON_ASKING] = "asking",
    [LESSON_PLAYING] = "playing", [LESSON_PAGE_END] = "page end", [LESSON_FINISHED] = "finished",
};

/* ------------------------------------------------------------ measures */

/* Solves L = 2 a sinh(S / 2a) for a by bisection (S < L): the catenary of a
 * cable of length L hung between points S apart at the same height. */
static double catenary_parameter(double span, double length)
{
    double lo = 1e-9, hi = 1e9;
    for (int k = 0; k < 200; k++) {
        double a = sqrt(lo * hi);
        if (2.0 * a * sinh(fmin(span / (2.0 * a), 700.0)) > length)
            lo = a;
        else
            hi = a;
    }
    return sqrt(lo * hi);
}

/* The first row's largest vertical distance from y = a cosh(x/a) through its
 * two ends with the row's own length (Weil 1986; README "Sources").
 * A row of point masses is not a continuous cable: expect millimetres. */
static double catenary_distance(const Cloth *c)
{
    int n = c->cols;
    if (n < 3)
        return 0.0;
    double length = 0.0;
    for (int i = 0; i + 1 < n; i++)
        length += hypot(c->x[i + 1] - c->x[i], c->y[i + 1] - c->y[i]);
    double span = fabs((double)c->x[n - 1] - c->x[0]);
    if (!(span > 0.0) || span >= length)
        return 0.0; /* taut or folded: no catenary to compare with */
    double a = catenary_parameter(span, length);
    double mid = 0.5 * ((double)c->x[0] + c->x[n - 1]), top = 0.5 * ((double)c->y[0] + c->y[n - 1]);
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        double expected = top - a * (cosh(0.5 * span / a) - cosh(((double)c->x[i] - mid) / a));
        worst = fmax(worst, fabs(c->y[i] - expected));
    }
    return worst;
}

/* How far `closest` looks: past it, it reports this range. */
#define LESSON_CLOSEST_RANGE 0.05f

double lesson_measure(const LessonPane *pane, int metric)
{
    const Solver *s = pane->solver;
    const Cloth *c = s->cloth;
    switch (metric) {
    case METRIC_TIME:
        return s->time;
    case METRIC_STEP:
        return (double)s->step;
    case METRIC_EXPLODED:
        return s->exploded;
    case METRIC_OMEGA_DT:
        return solver_omega_dt(s);
    case METRIC_HIGHEST:
    case METRIC_LOWEST: {
        double best = metric == METRIC_HIGHEST ? -DBL_MAX : DBL_MAX;
        for (int i = 0; i < c->count; i++)
            best = metric == METRIC_HIGHEST ? fmax(best, c->y[i]) : fmin(best, c->y[i]);
        return best;
    }
    case METRIC_CATENARY:
        return catenary_distance(c);
    case METRIC_CENTRE_X: {
        double sum = 0.0;
        for (int i = 0; i < c->count; i++)
            sum += c->x[i];
        return c->count ? sum / c->count : 0.0;
    }
    case METRIC_CLOSEST:
        return s->self_collision ? selfcollide_min_distance(s->self_collision, c, LESSON_CLOSEST_RANGE) : NAN;
    default:
        break;
    }
    Metrics m;
    metrics_compute(s, &m);
    switch (metric) {
    case METRIC_KINETIC:
        return m.kinetic;
    case METRIC_POTENTIAL:
        return m.potential;
    case METRIC_ELASTIC:
        return m.elastic;
    case METRIC_TOTAL:
        return m.total;
    case METRIC_MAX_STRAIN:
        return m.max_strain;
    case METRIC_MEAN_STRAIN:
        return m.mean_strain;
    case METRIC_RESIDUAL:
        return m.residual;
    case METRIC_PENETRATION:
        return m.penetration;
    case METRIC_TORN:
        return m.torn;
    case METRIC_CG_ITERATIONS:
        return m.cg_iterations;
    case METRIC_CG_RESIDUAL:
        return m.cg_residual;
    case METRIC_CG_UNCONVERGED:
        return (double)m.cg_unconverged;
    default:
        return NAN;
    }
}

static void record_start(LessonPane *pane)
{
    pane->trace_next = pane->trace_count = 0;
    pane->marks_substep = -1;
    for (int k = 0; k < METRIC_COUNT; k++)
        pane->start[k] = lesson_metric_on_screen(k) ? NAN : lesson_measure(pane, k);
    if (!camera_solver_box(pane->solver, pane->frame_lo, pane->frame_hi))
        for (int k = 0; k < 3; k++)
            pane->frame_lo[k] = -1.0f, pane->frame_hi[k] = 1.0f;
}

/* ------------------------------------------------------------ marks and trace */

static void free_marks(LessonPane *pane)
{
    free(pane->pass_x), free(pane->pass_y), free(pane->pass_z), free(pane->marked);
    pane->pass_x = pane->pass_y = pane->pass_z = NULL;
    pane->marked = NULL;
    pane->pass_particles = pane->marked_links = 0;
    pane->marks_substep = -1;
}

/* Before a `pass` item's passes: a substep not begun yet is predicted, and
 * where its passes begin is kept. False when out of memory. */
static bool marks_begin(LessonPane *pane)
{
    Solver *s = pane->solver;
    if (s->phase != PHASE_BETWEEN_SUBSTEPS)
        return true; /* the passes go on in the substep they began */
    solver_predict(s);
    if (s->phase != PHASE_RELAXING) {
        pane->marks_substep = -1;
        return true;
    }
    const Cloth *c = s->cloth;
    if (pane->pass_particles != c->count || pane->marked_links != c->link_count) {
        free_marks(pane);
        size_t n = (size_t)c->count;
        pane->pass_x = malloc(n * sizeof(float)), pane->pass_y = malloc(n * sizeof(float));
        pane->pass_z = malloc(n * sizeof(float));
        pane->marked = calloc((size_t)c->link_count + 1, 1);
        if (!pane->pass_x || !pane->pass_y || !pane->pass_z || !pane->marked) {
            free_marks(pane);
            return false;
        }
        pane->pass_particles = c->count, pane->marked_links = c->link_count;
    }
    memcpy(pane->pass_x, c->x, (size_t)c->count * sizeof(float));
    memcpy(pane->pass_y, c->y, (size_t)c->count * sizeof(float));
    memcpy(pane->pass_z, c->z, (size_t)c->count * sizeof(float));
    pane->marks_step = s->step, pane->marks_substep = s->substep;
    return true;
}

/* After the passes: the links they moved. */
static void marks_end(LessonPane *pane)
{
    const Solver *s = pane->solver;
    const Cloth *c = s->cloth;
    if (pane->marks_substep < 0 || s->step != pane->marks_step || s->substep != pane->marks_substep)
        return;
    for (int l = 0; l < c->link_count; l++) {
        uint32_t ends[2] = {c->link_a[l], c->link_b[l]};
        double least = LESSON_MARK_MOVE * c->rest_length[l];
        int moved = 0, held = 0;
        for (int k = 0; k < 2; k++) {
            uint32_t i = ends[k];
            double d = hypot(hypot((double)c->x[i] - pane->pass_x[i], (double)c->y[i] - pane->pass_y[i]),
                             (double)c->z[i] - pane->pass_z[i]);
            moved += d > least;
            held += c->inv_mass[i] == 0.0f;
        }
        pane->marked[l] = c->family[l] == LINK_STRUCTURAL && moved > 0 && moved + held == 2;
    }
}

/* One step, and the trace's new point. */
static void pane_step(LessonPane *pane)
{
    Solver *s = pane->solver;
    solver_step(s);
    const Cloth *c = s->cloth;
    int last = c->count - 1;
    float point[3] = {c->x[last], c->y[last], c->z[last]};
    memcpy(pane->trace + 3 * pane->trace_next, point, sizeof point);
    memcpy(pane->trace + 3 * (pane->trace_next + LESSON_TRACE_POINTS), point, sizeof point);
    pane->trace_next = (pane->trace_next + 1) % LESSON_TRACE_POINTS;
    if (pane->trace_count < LESSON_TRACE_POINTS)
        pane->trace_count++;
}

/* ------------------------------------------------------------ panes */

static bool out_of_memory(LessonPlayer *p)
{
    p->failed = true;
    snprintf(p->err, sizeof p->err, T_("%s: out of memory"), p->lesson->name);
    return false;
}

int lesson_player_find_pane(const LessonPlayer *p, const char *name)
{
    for (int i = 0; i < p->pane_count; i++)
        if (strcmp(p->panes[i].name, name) == 0)
            return i;
    return -1;
}

static void close_all(LessonPlayer *p)
{
    for (int i = 0; i < p->pane_count; i++) {
        solver_destroy(p->panes[i].solver);
        free_marks(&p->panes[i]);
    }
    memset(p->panes, 0, sizeof p->panes);
    p->pane_count = 0;
}

/* Which panes an item acts on: [*from, *to). */
static void pane_range(const LessonPlayer *p, const LessonItem *item, int *from, int *to)
{
    *from = 0;
    *to = p->pane_count;
    if (item->pane) {
        int i = lesson_player_find_pane(p, item->pane);
        *from = i < 0 ? 0 : i;
        *to = i < 0 ? 0 : i + 1;
    }
}

/* Plays set, pane, close or label on the stage and brings the solvers in line. */
static bool play_stage(LessonPlayer *p, const LessonItem *item)
{
    int closing = item->kind == LESSON_CLOSE ? lesson_player_find_pane(p, item->pane) : -1;
    unsigned changed;
    char message[TEXT_MESSAGE_SIZE];
    int col;
    if (!stage_play(&p->stage, item, &changed, message, sizeof message, &col))
        return true; /* only free play can get here (the parser checked the rest): keep going */
    switch (item->kind) {
    case LESSON_PANE: {
        int i = p->stage.pane_count - 1;
        LessonPane *pane = &p->panes[i];
        memset(pane, 0, sizeof *pane);
        pane->marks_substep = -1;
        pane->name = p->stage.names[i];
        pane->label = p->stage.labels[i];
        pane->view = p->base_view;
        pane->solver = solver_create(&p->stage.params[i]);
        if (!pane->solver)
            return out_of_memory(p);
        solver_start_threads(pane->solver);
        p->pane_count = i + 1;
        record_start(pane);
        return true;
    }
    case LESSON_CLOSE:
        if (closing >= 0) {
            solver_destroy(p->panes[closing].solver);
            free_marks(&p->panes[closing]);
            memmove(&p->panes[closing], &p->panes[closing + 1],
                    (size_t)(p->pane_count - closing - 1) * sizeof p->panes[0]);
            p->pane_count--;
            memset(&p->panes[p->pane_count], 0, sizeof p->panes[0]);
        }
        return true;
    case LESSON_LABEL:
        for (int i = 0; i < p->pane_count; i++)
            p->panes[i].label = p->stage.labels[i];
        return true;
    default:
        for (int i = 0; i < p->pane_count; i++) {
            if (!(changed & (1u << i)))
                continue;
            if (!solver_set_params(p->panes[i].solver, &p->stage.params[i]))
                return out_of_memory(p);
            if (p->panes[i].solver->step == 0)
                record_start(&p->panes[i]);
        }
        return true;
    }
}

/* ------------------------------------------------------------ expectations */

static bool compare(double value, LessonOp op, double reference)
{
    switch (op) {
    case OP_LT:
        return value < reference;
    case OP_LE:
        return value <= reference;
    case OP_GT:
        return value > reference;
    case OP_GE:
        return value >= reference;
    case OP_EQ:
        return value == reference;
    }
    return false;
}

/* Whether value holds against reference as e says. */
static bool holds(const LessonExpect *e, double value, double reference)
{
    if (e->kind == EXPECT_COMPARE)
        return compare(value, e->op, reference);
    double tolerance = e->tolerance_relative ? e->tolerance * fabs(reference) : e->tolerance;
    return fabs(value - reference) <= tolerance;
}

static void count_result(LessonPlayer *p, LessonResult *r)
{
    if (r->passed)
        p->expects_passed++;
    else
        p->expects_failed++;
}

/* The checker's line for an expect: the claim as the script writes it, and
 * what was seen, its numbers as the reader's language writes them. */
static void report_expect(LessonPlayer *p, const LessonItem *item, LessonResult *r, char *saw, size_t saw_size)
{
    text_decimals(saw, saw_size);
    if (r->passed)
        lesson_error(r->message, sizeof r->message, p->lesson->name, item->line, item->col, "expect held: %s (saw %s)",
                     item->expect.source, saw);
    else
        lesson_error(r->message, sizeof r->message, p->lesson->name, item->line, item->col,
                     "expect failed: %s (saw %s)", item->expect.source, saw);
}

/* A claim on what the screen shows: measured at every size a lesson is
 * played at, and held only if it holds at each. */
static void evaluate_on_screen(LessonPlayer *p, const LessonItem *item, LessonResult *r)
{
    const LessonExpect *e = &item->expect;
    int i = lesson_player_find_pane(p, item->pane);
    int other = e->other_pane ? lesson_player_find_pane(p, e->other_pane) : -1;
    int ref = e->reference == REF_PANE ? lesson_player_find_pane(p, e->ref_pane) : -1;
    char saw[300] = "";
    size_t used = 0;
    r->passed = true;
    for (int k = 0; k < LESSON_SCREEN_SIZE_COUNT; k++) {
        int cols = lesson_screen_sizes[k][0], rows = lesson_screen_sizes[k][1];
        double value = lesson_view_measure(p, i, e->metric, other, cols, rows);
        double reference = e->value, seen_ref = NAN;
        if (ref >= 0) {
            seen_ref = lesson_view_measure(p, ref, e->metric, other, cols, rows);
            reference = e->value * seen_ref + e->offset;
        }
        bool ok = holds(e, value, reference);
        /* two drawings both cut off by their views can look alike, or
         * unlike, only by where the views cut them: such a claim fails */
        int second = ref >= 0 ? ref : other;
        bool clipped =
            second >= 0 && lesson_view_clipped(p, i, cols, rows) && lesson_view_clipped(p, second, cols, rows);
        ok = ok && !clipped;
        if (k == 0 || (!ok && r->passed))
            r->seen = value;
        r->passed = r->passed && ok;
        int n = ref >= 0
                    ? snprintf(saw + used, sizeof saw - used, T_("%s%.4g at %dx%d; %s %.4g"), k ? ", " : "", value,
                               cols, rows, e->ref_pane, seen_ref)
                    : snprintf(saw + used, sizeof saw - used, T_("%s%.4g at %dx%d"), k ? ", " : "", value, cols, rows);
        if (n > 0 && (size_t)n < sizeof saw - used)
            used += (size_t)n;
        if (clipped) {
            n = snprintf(saw + used, sizeof saw - used, T_(" (both cut off by their views: frame them whole)"));
            if (n > 0 && (size_t)n < sizeof saw - used)
                used += (size_t)n;
        }
    }
    count_result(p, r);
    report_expect(p, item, r, saw, sizeof saw);
}

static void evaluate(LessonPlayer *p, int index)
{
    const LessonItem *item = &p->lesson->items[index];
    const LessonExpect *e = &item->expect;
    LessonResult *r = &p->results[index];
    r->reached = true;
    int i = lesson_player_find_pane(p, item->pane);
    assert(i >= 0); /* the parser resolved every pane */
    const LessonPane *pane = &p->panes[i];
    const Solver *s = pane->solver;
    const char *unit = lesson_metrics[e->metric].unit[0] ? T_(lesson_metrics[e->metric].unit) : "";
    const char *space = unit[0] ? " " : "";
    char saw[200];
    if (lesson_metric_on_screen(e->metric)) {
        evaluate_on_screen(p, item, r);
        return;
    }
    r->seen = lesson_measure(pane, e->metric);
    if (e->kind == EXPECT_EXPLODED) {
        bool exploded = s->exploded;
        if (e->negate)
            r->passed = !exploded;
        else if (e->when == WHEN_BEFORE)
            r->passed = exploded && s->exploded_time < e->time;
        else if (e->when == WHEN_AFTER)
            r->passed = exploded && s->exploded_time > e->time;
        else
            r->passed = exploded;
        if (exploded)
            snprintf(saw, sizeof saw, T_("it exploded at t = %.4g s"), s->exploded_time);
        else
            snprintf(saw, sizeof saw, T_("no explosion by t = %.4g s"), s->time);
    } else {
        double reference = e->value;
        char against[120] = "";
        if (e->reference == REF_START) {
            reference = e->value * pane->start[e->metric] + e->offset;
            snprintf(against, sizeof against, T_("; start %.4g%s%s"), pane->start[e->metric], space, unit);
        } else if (e->reference == REF_PANE) {
            int j = lesson_player_find_pane(p, e->ref_pane);
            assert(j >= 0);
            double other = lesson_measure(&p->panes[j], e->metric);
            reference = e->value * other + e->offset;
            snprintf(against, sizeof against, "; %s %.4g%s%s", e->ref_pane, other, space, unit);
        }
        r->passed = holds(e, r->seen, reference);
        snprintf(saw, sizeof saw, "%.4g%s%s%s", r->seen, space, unit, against);
    }
    count_result(p, r);
    report_expect(p, item, r, saw, sizeof saw);
}

/* ------------------------------------------------------------ homework */

static int64_t steps_for(double seconds, double dt);

/* Whether the homework's condition holds for its pane's settings with its
 * key at value: a fresh solver run for the homework's time. -1 when the
 * value is outside the key's range or cannot be built (out of memory: failed). */
static int homework_holds(LessonPlayer *p, const LessonItem *item, const Params *base, long value)
{
    const ParamInfo *info = params_find(item->names[0]);
    if (!info || value < (long)info->min || value > (long)info->max)
        return -1;
    Params params = *base;
    char text[32], err[TEXT_MESSAGE_SIZE];
    snprintf(text, sizeof text, "%ld", value);
    if (!params_set(&params, info->name, text, err, sizeof err))
        return -1;
    LessonPane pane = {.solver = solver_create(&params)};
    if (!pane.solver) {
        out_of_memory(p);
        return -1;
    }
    record_start(&pane);
    int64_t steps = steps_for(item->seconds, params.dt);
    run_cache_steps(p->run_cache, pane.solver, steps);
    const LessonExpect *e = &item->expect;
    bool held;
    if (e->kind == EXPECT_EXPLODED)
        held = e->negate ? !pane.solver->exploded : pane.solver->exploded;
    else if (pane.solver->exploded)
        held = false; /* a cloth that blew apart holds no claim on its shape */
    else
        held = holds(e, lesson_measure(&pane, e->metric),
                     e->reference == REF_START ? e->value * pane.start[e->metric] + e->offset : e->value);
    solver_destroy(pane.solver);
    return held;
}

/* The checker's proof of a homework's answer: the condition holds at the
 * answer and not one step past it (below the smallest, above the largest). */
static void verify_homework(LessonPlayer *p, int index)
{
    const LessonItem *item = &p->lesson->items[index];
    LessonResult *r = &p->results[index];
    r->reached = true;
    int i = lesson_player_find_pane(p, item->pane);
    assert(i >= 0);
    Params base = p->panes[i].solver->params;
    long beyond = (long)item->answer + item->seek; /* smallest: one less; largest: one more */
    int at = homework_holds(p, item, &base, item->answer), past = homework_holds(p, item, &base, beyond);
    const char *which = item->seek < 0 ? "smallest" : "largest";
    r->seen = item->answer;
    r->passed = at == 1 && past != 1;
    if (at != 1)
        lesson_error(r->message, sizeof r->message, p->lesson->name, item->line, item->col,
                     "homework failed: %s %s %d: '%s' does not hold after %g s at %d", item->names[0], which,
                     item->answer, item->expect.source, item->seconds, item->answer);
    else if (past == 1)
        lesson_error(r->message, sizeof r->message, p->lesson->name, item->line, item->col,
                     "homework failed: %s %s %d: '%s' holds at %ld too, so %d is not the %s", item->names[0], which,
                     item->answer, item->expect.source, beyond, item->answer, which);
    else if (past == 0)
        lesson_error(r->message, sizeof r->message, p->lesson->name, item->line, item->col,
                     "homework held: %s %s %d: '%s' holds after %g s at %d, not at %ld", item->names[0], which,
                     item->answer, item->expect.source, item->seconds, item->answer, beyond);
    else
        lesson_error(r->message, sizeof r->message, p->lesson->name, item->line, item->col,
                     "homework held: %s %s %d: '%s' holds after %g s at %d, the end of the range", item->names[0],
                     which, item->answer, item->expect.source, item->seconds, item->answer);
    count_result(p, r);
}

bool lesson_player_homework_answer(LessonPlayer *p, const char *given, bool *right, bool *first)
{
    const LessonItem *item = lesson_player_pause(p);
    if (!item || item->kind != LESSON_HOMEWORK)
        return false;
    char *end;
    long value = strtol(given, &end, 10);
    while (*end == ' ')
        end++;
    if (end == given || *end)
        return false;
    int index = (int)(item - p->lesson->items);
    *first = p->first_answers[index] < 0;
    if (*first)
        p->first_answers[index] = 1;
    *right = value == item->answer;
    return true;
}

/* ------------------------------------------------------------ the walk */

static int page_end(const LessonPlayer *p)
{
    const LessonPage *page = &p->lesson->pages[p->page];
    return page->first_item + page->item_count;
}

/* Whole steps of dt that cover seconds, as `clothsim run --seconds` counts. */
static int64_t steps_for(double seconds, double dt)
{
    int64_t steps = (int64_t)(seconds / dt);
    if ((double)steps * dt < seconds - 1e-9 * dt)
        steps++;
    return steps;
}

static void start_run(LessonPlayer *p, const LessonItem *item)
{
    for (int i = 0; i < p->pane_count; i++) {
        Solver *s = p->panes[i].solver;
        int64_t steps = item->steps ? item->steps : steps_for(item->seconds, s->params.dt);
        p->panes[i].run_from = s->step;
        p->panes[i].run_target = s->step + steps;
        p->panes[i].clock = 0.0;
    }
}

static bool pane_running(const LessonPane *pane)
{
    return pane->solver->step < pane->run_target && !pane->solver->exploded;
}

static bool run_done(const LessonPlayer *p)
{
    for (int i = 0; i < p->pane_count; i++)
        if (pane_running(&p->panes[i]))
            return false;
    return true;
}

static void finish_run(LessonPlayer *p)
{
    for (int i = 0; i < p->pane_count; i++) {
        LessonPane *pane = &p->panes[i];
        if (!pane_running(pane))
            continue;
        /* a traced pane's last steps one by one: the trace keeps them */
        int64_t left = pane->run_target - pane->solver->step, traced = pane->view.trace ? LESSON_TRACE_POINTS : 0;
        run_cache_steps(p->run_cache, pane->solver, left > traced ? left - traced : 0);
        while (pane_running(pane))
            pane_step(pane);
    }
}

/* Plays one item that takes no time. */
static bool play_now(LessonPlayer *p, const LessonItem *item)
{
    int from, to;
    pane_range(p, item, &from, &to);
    switch (item->kind) {
    case LESSON_SET:
    case LESSON_PANE:
    case LESSON_CLOSE:
    case LESSON_LABEL:
        return play_stage(p, item);
    case LESSON_RESET:
        for (int i = from; i < to; i++) {
            if (!solver_reset(p->panes[i].solver))
                return out_of_memory(p);
            record_start(&p->panes[i]);
        }
        return true;
    case LESSON_STEP:
    case LESSON_SUBSTEP:
    case LESSON_PASS:
        for (int i = from; i < to; i++) {
            if (item->kind == LESSON_PASS && !marks_begin(&p->panes[i]))
                return out_of_memory(p);
            for (int64_t k = 0; k < item->steps; k++) {
                if (item->kind == LESSON_STEP)
                    pane_step(&p->panes[i]);
                else if (item->kind == LESSON_SUBSTEP)
                    solver_substep(p->panes[i].solver);
                else
                    solver_pass(p->panes[i].solver);
            }
            if (item->kind == LESSON_PASS)
                marks_end(&p->panes[i]);
        }
        return true;
    case LESSON_HIGHLIGHT:
        for (int i = from; i < to; i++) {
            LessonPane *pane = &p->panes[i];
            pane->highlight_count = item->name_count;
            for (int k = 0; k < item->name_count; k++)
                pane->highlights[k] = item->names[k];
        }
        return true;
    case LESSON_EXPECT:
        evaluate(p, (int)(item - p->lesson->items));
        return true;
    case LESSON_VIEW:
        if (!item->pane)
            lesson_view_merge(&p->base_view, &item->view);
        for (int i = from; i < to; i++)
            lesson_view_merge(&p->panes[i].view, &item->view);
        return true;
    default:
        return true;
    }
}

static void clear_page_state(LessonPlayer *p)
{
    p->question = -1;
    p->answer = -1;
    p->unlocked_count = 0;
    p->unlocked_pane = NULL;
    for (int i = 0; i < p->pane_count; i++)
        p->panes[i].highlight_count = 0;
}

/* Plays the current page's items from p->item until one waits or the page
 * ends. With fast, nothing waits: runs finish, the rest is passed. */
static bool walk(LessonPlayer *p, bool fast)
{
    while (!p->failed) {
        if (p->item >= page_end(p)) {
            p->state = LESSON_PAGE_END;
            return true;
        }
        const LessonItem *item = &p->lesson->items[p->item];
        switch (item->kind) {
        case LESSON_RUN:
            start_run(p, item);
            if (fast) {
                finish_run(p);
                break;
            }
            if (run_done(p))
                break;
            p->state = LESSON_RUNNING;
            return true;
        case LESSON_PAUSE:
        case LESSON_EXPLAIN:
            if (fast)
                break;
            p->state = LESSON_WAITING;
            return true;
        case LESSON_HOMEWORK:
            if (p->verify_homework && !p->results[p->item].reached)
                verify_homework(p, p->item);
            if (fast)
                break;
            p->state = LESSON_WAITING;
            return true;
        case LESSON_QUESTION:
            p->question = p->item;
            p->answer = -1;
            if (fast)
                break;
            p->state = LESSON_ASKING;
            return true;
        case LESSON_PLAY:
            if (fast)
                break;
            p->unlocked_count = item->name_count < 64 ? item->name_count : 64;
            for (int k = 0; k < p->unlocked_count; k++)
                p->unlocked[k] = item->names[k];
            p->unlocked_pane = item->pane;
            for (int i = 0; i < p->pane_count; i++) {
                p->panes[i].run_from = p->panes[i].solver->step;
                p->panes[i].clock = 0.0;
            }
            p->state = LESSON_PLAYING;
            return true;
        default:
            if (!play_now(p, item))
                return false;
            break;
        }
        p->item++;
    }
    return false;
}

static bool open_page(LessonPlayer *p, int page, bool fast)
{
    p->page = page;
    clear_page_state(p);
    if (page >= p->lesson->page_count) {
        p->state = LESSON_FINISHED;
        return true;
    }
    p->item = p->lesson->pages[page].first_item;
    return walk(p, fast);
}

/* Back to before the header: no pane, no result. */
static bool restart(LessonPlayer *p)
{
    close_all(p);
    stage_init(&p->stage);
    lesson_view_default(&p->base_view);
    memset(p->results, 0, (size_t)(p->lesson->item_count ? p->lesson->item_count : 1) * sizeof *p->results);
    p->expects_failed = p->expects_passed = 0;
    p->failed = false;
    p->err[0] = '\0';
    p->page = 0;
    clear_page_state(p);
    for (p->item = 0; p->item < p->lesson->setup_count; p->item++)
        if (!play_now(p, &p->lesson->items[p->item]))
            return false;
    return true;
}

LessonPlayer *lesson_player_create(const Lesson *lesson)
{
    LessonPlayer *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->lesson = lesson;
    size_t items = (size_t)(lesson->item_count ? lesson->item_count : 1);
    p->results = calloc(items, sizeof *p->results);
    p->first_answers = malloc(items * sizeof *p->first_answers);
    if (p->first_answers)
        for (size_t k = 0; k < items; k++)
            p->first_answers[k] = -1;
    if (!p->results || !p->first_answers || !restart(p) || !open_page(p, 0, false)) {
        lesson_player_destroy(p);
        return NULL;
    }
    return p;
}

void lesson_player_destroy(LessonPlayer *p)
{
    if (!p)
        return;
    close_all(p);
    free(p->results);
    free(p->first_answers);
    free(p);
}

bool lesson_player_goto(LessonPlayer *p, int page)
{
    if (page < 0)
        page = 0;
    if (page > p->lesson->page_count)
        page = p->lesson->page_count;
    if (!restart(p))
        return false;
    for (int k = 0; k < page; k++)
        if (!open_page(p, k, true))
            return false;
    return open_page(p, page, false);
}

bool lesson_player_previous(LessonPlayer *p)
{
    return lesson_player_goto(p, p->page - 1);
}

bool lesson_player_replay(LessonPlayer *p)
{
    return lesson_player_goto(p, p->page);
}

bool lesson_player_next(LessonPlayer *p)
{
    if (p->failed)
        return false;
    /* a homework the first page stopped at before the checker asked for proofs */
    if (p->state == LESSON_WAITING && p->lesson->items[p->item].kind == LESSON_HOMEWORK && p->verify_homework &&
        !p->results[p->item].reached)
        verify_homework(p, p->item);
    switch (p->state) {
    case LESSON_RUNNING:
        return lesson_player_finish(p);
    case LESSON_WAITING:
    case LESSON_ASKING:
    case LESSON_PLAYING:
        p->unlocked_count = 0;
        p->unlocked_pane = NULL;
        p->item++;
        return walk(p, false);
    case LESSON_PAGE_END:
        return open_page(p, p->page + 1, false);
    case LESSON_FINISHED:
        return true;
    }
    return true;
}

bool lesson_player_answer(LessonPlayer *p, int choice)
{
    if (p->state != LESSON_ASKING)
        return false;
    const LessonItem *q = &p->lesson->items[p->question];
    if (choice < 0 || choice >= q->choice_count)
        return false;
    p->answer = choice;
    if (p->first_answers[p->question] < 0)
        p->first_answers[p->question] = choice;
    p->item++;
    walk(p, false);
    return true;
}

const char *lesson_player_feedback(const LessonPlayer *p)
{
    if (p->question < 0 || p->answer < 0)
        return NULL;
    return p->lesson->items[p->question].choices[p->answer].feedback;
}

bool lesson_player_feedback_ready(const LessonPlayer *p)
{
    if (p->question < 0 || p->answer < 0)
        return false;
    if (p->state == LESSON_PAGE_END || p->state == LESSON_FINISHED)
        return true;
    /* the first run after the question shows the answer: feedback waits for its end */
    for (int k = p->question + 1; k < page_end(p); k++)
        if (p->lesson->items[k].kind == LESSON_RUN)
            return p->item > k;
    return true;
}

bool lesson_player_answer_correct(const LessonPlayer *p)
{
    return p->question >= 0 && p->answer >= 0 && p->lesson->items[p->question].answer == p->answer;
}

void lesson_player_score(const LessonPlayer *p, int *right, int *answered, int *graded)
{
    *right = *answered = *graded = 0;
    for (int k = 0; k < p->lesson->item_count; k++) {
        const LessonItem *item = &p->lesson->items[k];
        if (item->kind != LESSON_QUESTION || item->answer < 0)
            continue;
        ++*graded;
        *answered += p->first_answers[k] >= 0;
        *right += p->first_answers[k] == item->answer;
    }
}

bool lesson_player_tick(LessonPlayer *p, double seconds)
{
    if (p->failed)
        return false;
    if (p->state != LESSON_RUNNING && p->state != LESSON_PLAYING)
        return true;
    double speed = p->state == LESSON_RUNNING ? p->lesson->items[p->item].speed : 1.0;
    for (int i = 0; i < p->pane_count; i++) {
        LessonPane *pane = &p->panes[i];
        Solver *s = pane->solver;
        pane->clock += seconds * speed;
        /* counted from the start, so that rounding does not pile up */
        int64_t due = pane->run_from + (int64_t)(pane->clock / s->params.dt + 1e-6);
        if (p->state == LESSON_RUNNING && due > pane->run_target)
            due = pane->run_target;
        while (s->step < due && !s->exploded)
            pane_step(pane);
    }
    if (p->state == LESSON_RUNNING && run_done(p)) {
        p->item++;
        return walk(p, false);
    }
    return true;
}

bool lesson_player_finish(LessonPlayer *p)
{
    if (p->failed)
        return false;
    if (p->state != LESSON_RUNNING)
        return true;
    finish_run(p);
    p->item++;
    return walk(p, false);
}

bool lesson_player_finish_some(LessonPlayer *p, int64_t steps, bool *done)
{
    *done = true;
    if (p->failed)
        return false;
    if (p->state != LESSON_RUNNING)
        return true;
    for (int i = 0; i < p->pane_count; i++)
        for (int64_t k = 0; k < steps && pane_running(&p->panes[i]); k++)
            pane_step(&p->panes[i]);
    if (!run_done(p)) {
        *done = false;
        return true;
    }
    p->item++;
    return walk(p, false);
}

bool lesson_player_play_to_end(LessonPlayer *p)
{
    while (p->state != LESSON_FINISHED)
        if (!lesson_player_next(p))
            return false;
    return true;
}

bool lesson_player_reset_panes(LessonPlayer *p)
{
    if (p->state != LESSON_PLAYING)
        return true;
    for (int i = 0; i < p->pane_count; i++) {
        if (!solver_reset(p->panes[i].solver))
            return out_of_memory(p);
        record_start(&p->panes[i]);
        p->panes[i].run_from = 0;
        p->panes[i].clock = 0.0;
    }
    return true;
}

bool lesson_player_adjust(LessonPlayer *p, int pane, const char *key, const char *value, char *err, size_t err_size)
{
    if (p->state != LESSON_PLAYING) {
        snprintf(err, err_size, T_("%s: the lesson unlocks no setting here"), key);
        return false;
    }
    bool unlocked = false;
    for (int k = 0; k < p->unlocked_count; k++)
        unlocked = unlocked || strcmp(p->unlocked[k], key) == 0;
    if (!unlocked) {
        snprintf(err, err_size, T_("%s: locked in this part of the lesson"), key);
        return false;
    }
    int from = pane < 0 ? 0 : pane, to = pane < 0 ? p->pane_count : pane + 1;
    if (pane >= p->pane_count || (p->unlocked_pane && (pane < 0 || strcmp(p->panes[pane].name, p->unlocked_pane)))) {
        snprintf(err, err_size, T_("%s: locked in this pane"), key);
        return false;
    }
    Params changed[LESSON_MAX_PANES];
    for (int i = from; i < to; i++) {
        changed[i] = p->stage.params[i];
        if (!params_set(&changed[i], key, value, err, err_size) || !scene_validate(&changed[i], err, err_size))
            return false;
    }
    for (int i = from; i < to; i++) {
        p->stage.params[i] = changed[i];
        if (!solver_set_params(p->panes[i].solver, &changed[i]))
            return out_of_memory(p), snprintf(err, err_size, T_("out of memory")), false;
        if (p->panes[i].solver->step == 0)
            record_start(&p->panes[i]);
    }
    return true;
}

const char *lesson_player_heading(const LessonPlayer *p)
{
    if (p->page >= p->lesson->page_count)
        return NULL;
    return p->lesson->pages[p->page].heading;
}

int lesson_player_paragraphs(const LessonPlayer *p, const char **out, int max)
{
    if (p->page >= p->lesson->page_count)
        return 0;
    int count = 0;
    int end = p->state == LESSON_PAGE_END ? page_end(p) : p->item;
    for (int k = p->lesson->pages[p->page].first_item; k < end && count < max; k++)
        if (p->lesson->items[k].kind == LESSON_SAY)
            out[count++] = p->lesson->items[k].text;
    return count;
}

const LessonItem *lesson_player_question(const LessonPlayer *p)
{
    return p->question >= 0 ? &p->lesson->items[p->question] : NULL;
}

const LessonItem *lesson_player_pause(const LessonPlayer *p)
{
    return p->state == LESSON_WAITING ? &p->lesson->items[p->item] : NULL;
}

void lesson_player_run_progress(const LessonPlayer *p, double *done, double *total)
{
    *done = *total = 0.0;
    if (p->state != LESSON_RUNNING)
        return;
    const LessonItem *item = &p->lesson->items[p->item];
    /* the run lasts as long as its longest pane, and is as far as its
     * slowest: an exploded pane has nothing left, the others still run */
    double remaining = 0.0;
    for (int i = 0; i < p->pane_count; i++) {
        const Solver *s = p->panes[i].solver;
        int64_t steps = item->steps ? item->steps : steps_for(item->seconds, s->params.dt);
        int64_t left = pane_running(&p->panes[i]) ? p->panes[i].run_target - s->step : 0;
        *total = fmax(*total, (double)steps * s->params.dt);
        remaining = fmax(remaining, (double)left * s->params.dt);
    }
    *done = *total - remaining;
}
