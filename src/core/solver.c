/* solver.c - the step: a solver's lifetime and settings, and the stage
 * list (SolverStage, solver.h) that runs a substep: run_stage calls each
 * stage, next_stage says which follows, run_stages walks from one to the
 * next. The stages themselves live in the files named for them
 * (solver_internal.h lists them): forces.c, integrate.c, relax.c,
 * collide.c, checks.c; the state's save and load in state.c.
 */
#include "solver_internal.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "colour.h"
#include "implicit.h"
#include "scene.h"
#include "springs.h"
#include "strain_limit.h"

/* ------------------------------------------------------------ lifetime */

static void free_scratch(Solver *s)
{
    free(s->fx), free(s->fy), free(s->fz);
    free(s->jx), free(s->jy), free(s->jz), free(s->jacobi_count);
    free(s->limit_moved), free(s->limit_checked);
    free(s->pull_x), free(s->pull_y), free(s->pull_z), free(s->pulls);
    free(s->link_k), free(s->link_dashpot);
    springs_destroy(s->springs);
    s->springs = NULL;
    strain_limit_destroy(s->strain_limit);
    s->strain_limit = NULL;
    free(s->rope_order);
    s->rope_order = NULL;
    free(s->link_order), free(s->lambda);
    free(s->good_x), free(s->good_y), free(s->good_z);
    free(s->blown_x), free(s->blown_y), free(s->blown_z);
    free(s->wind_x_at), free(s->wind_z_at);
    free(s->wind_cell_x), free(s->wind_cell_y), free(s->wind_cell_z);
    free(s->wave_col_cos), free(s->wave_col_sin), free(s->wave_row_cos), free(s->wave_row_sin);
    free(s->wave_p), free(s->wave_q);
    selfcollide_destroy(s->self_collision);
    s->self_collision = NULL;
    implicit_destroy(s->implicit);
    s->implicit = NULL;
    if (s->fast)
        s->fast->destroy(s->relax_fast);
    s->relax_fast = NULL;
    free(s->colour_order);
    s->colour_order = NULL;
    s->fx = s->fy = s->fz = s->jx = s->jy = s->jz = NULL;
    s->jacobi_count = NULL;
    s->limit_moved = s->limit_checked = NULL;
    s->pull_x = s->pull_y = s->pull_z = NULL;
    s->pulls = NULL;
    s->link_k = s->link_dashpot = NULL;
    s->link_order = NULL;
    s->lambda = s->good_x = s->good_y = s->good_z = s->wind_x_at = s->wind_z_at = NULL;
    s->blown_x = s->blown_y = s->blown_z = NULL;
    s->wind_cell_x = s->wind_cell_y = s->wind_cell_z = NULL;
    s->wave_col_cos = s->wave_col_sin = s->wave_p = s->wave_q = NULL;
    s->wave_row_cos = s->wave_row_sin = NULL;
}

static bool alloc_scratch(Solver *s)
{
    size_t n = (size_t)s->cloth->count, l = (size_t)(s->cloth->link_count > 0 ? s->cloth->link_count : 1);
    size_t waves = 2 * SOLVER_TURBULENCE_WAVES;
    bool ok = true;
    float **per_particle[] = {&s->fx,      &s->fy,      &s->fz,        &s->jx,       &s->jy,
                              &s->jz,      &s->good_x,  &s->good_y,    &s->good_z,   &s->blown_x,
                              &s->blown_y, &s->blown_z, &s->wind_x_at, &s->wind_z_at};
    for (size_t i = 0; i < sizeof per_particle / sizeof per_particle[0]; i++)
        ok &= (*per_particle[i] = calloc(n, sizeof(float))) != NULL;
    ok &= (s->jacobi_count = calloc(n, sizeof(uint16_t))) != NULL;
    ok &= (s->limit_moved = calloc(n, sizeof(uint32_t))) != NULL;
    ok &= (s->limit_checked = calloc(l, sizeof(uint32_t))) != NULL;
    ok &= (s->pull_x = calloc(l, sizeof(float))) != NULL;
    ok &= (s->pull_y = calloc(l, sizeof(float))) != NULL;
    ok &= (s->pull_z = calloc(l, sizeof(float))) != NULL;
    ok &= (s->pulls = calloc(l, 1)) != NULL;
    ok &= (s->link_k = calloc(l, sizeof(float))) != NULL;
    ok &= (s->link_dashpot = calloc(l, sizeof(float))) != NULL;
    s->dashpots_stale = true; /* new masses */
    ok &= (s->springs = springs_create(s->cloth)) != NULL;
    ok &= (s->strain_limit = strain_limit_create(s->cloth)) != NULL;
    ok &= (s->link_order = calloc(l, sizeof(uint32_t))) != NULL;
    ok &= (s->lambda = calloc(l, sizeof(float))) != NULL;
    size_t cells = (size_t)(s->cloth->cols - 1) * (size_t)(s->cloth->rows - 1);
    ok &= (s->wind_cell_x = calloc(cells > 0 ? cells : 1, sizeof(float))) != NULL;
    ok &= (s->wind_cell_y = calloc(cells > 0 ? cells : 1, sizeof(float))) != NULL;
    ok &= (s->wind_cell_z = calloc(cells > 0 ? cells : 1, sizeof(float))) != NULL;
    size_t cols = (size_t)s->cloth->cols, rows = (size_t)s->cloth->rows;
    ok &= (s->wave_col_cos = calloc(cols * waves, sizeof(float))) != NULL;
    ok &= (s->wave_col_sin = calloc(cols * waves, sizeof(float))) != NULL;
    ok &= (s->wave_row_cos = calloc(rows * waves, sizeof(double))) != NULL;
    ok &= (s->wave_row_sin = calloc(rows * waves, sizeof(double))) != NULL;
    ok &= (s->wave_p = calloc(rows * waves, sizeof(float))) != NULL;
    ok &= (s->wave_q = calloc(rows * waves, sizeof(float))) != NULL;
    ok &= (s->self_collision = selfcollide_create(s->cloth)) != NULL;
    ok &= (s->implicit = implicit_create(s->cloth)) != NULL;
    ok &= (s->colour_order = malloc(l * sizeof(uint32_t))) != NULL && colour_order(s->cloth, s->colour_order);
    if (s->fast) {
        ok &= (s->relax_fast = s->fast->create(s->cloth, s->threads)) != NULL;
        if (ok && s->threads_adapt)
            s->fast->adapt(s->relax_fast);
    }
    return ok;
}

static void compute_rest_extent(Solver *s)
{
    double w = (s->cloth->cols - 1) * s->params.spacing, h = (s->cloth->rows - 1) * s->params.spacing;
    s->rest_extent = w > h ? w : h;
}

static bool build(Solver *s)
{
    Cloth *cloth = scene_build(&s->params);
    if (!cloth)
        return false;
    Cloth *old = s->cloth;
    s->cloth = cloth;
    free_scratch(s);
    if (!alloc_scratch(s)) {
        free_scratch(s);
        cloth_destroy(cloth);
        s->cloth = old;
        if (old && !alloc_scratch(s)) {
            free_scratch(s);
            cloth_destroy(old);
            s->cloth = NULL;
        }
        if (old)
            forces_setup_turbulence(s);
        return false;
    }
    cloth_destroy(old);
    for (int l = 0; l < cloth->link_count; l++)
        s->link_order[l] = (uint32_t)l;
    relax_find_rope_order(s);
    s->structural_end = 0;
    for (int l = 0; l < cloth->link_count; l++)
        if (cloth->family[l] == LINK_STRUCTURAL)
            s->structural_end = l + 1;
    forces_setup_turbulence(s);
    compute_rest_extent(s);
    s->time = 0.0;
    s->clock_time = s->step_start_time = 0.0;
    s->clock_step = 0;
    s->clock_substep = 0;
    s->step = 0;
    s->substep = 0;
    s->pass = 0;
    s->phase = PHASE_BETWEEN_SUBSTEPS;
    s->residual_count = 0;
    s->torn_counted = s->cloth->torn_generation - 1u; /* counted at the first check */
    s->exploded = false;
    s->exploded_time = 0.0;
    s->exploded_step = 0;
    s->cg_iterations = 0, s->cg_residual = 0.0;
    s->cg_unconverged = 0, s->cg_unconverged_step = -1;
    s->grabbed = -1;
    s->rng = s->params.seed ^ 0x5DEECE66Dull;
    scene_sphere_center(&s->params, 0.0, s->sphere_center);
    return true;
}

Solver *solver_create(const Params *params)
{
    Solver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->params = *params;
    s->grabbed = -1;
    s->threads = 1;
    s->fast = fast_table_installed();
    if (!build(s)) {
        solver_destroy(s);
        return NULL;
    }
    return s;
}

void solver_destroy(Solver *solver)
{
    if (!solver)
        return;
    free_scratch(solver);
    cloth_destroy(solver->cloth);
    free(solver);
}

bool solver_reset(Solver *solver)
{
    return build(solver);
}

/* Whether a key differs: any key, or (shapes) one that rebuilds the cloth. */
static bool keys_differ(const Params *a, const Params *b, bool shapes)
{
    for (int i = 0; i < params_count; i++) {
        const ParamInfo *info = &params_table[i];
        if (shapes && info->effect != EFFECT_REBUILD)
            continue;
        size_t size = info->type == PARAM_REAL   ? sizeof(double)
                      : info->type == PARAM_SEED ? sizeof(uint64_t)
                                                 : sizeof(int);
        if (memcmp((const char *)a + info->offset, (const char *)b + info->offset, size) != 0)
            return true;
    }
    return false;
}

static void run_stages(Solver *s, bool one_pass);

bool solver_set_params(Solver *solver, const Params *params)
{
    /* settle a half-done substep under the settings it started with */
    if (solver->phase == PHASE_RELAXING)
        run_stages(solver, false);
    if (params->threads != solver->params.threads) {
        solver->params.threads = params->threads;
        solver_start_threads(solver);
        if (!keys_differ(&solver->params, params, false))
            return true; /* the same bits on any count: the motion goes on untouched */
    }
    if (keys_differ(&solver->params, params, true)) {
        Params old = solver->params;
        solver->params = *params;
        if (!build(solver)) {
            solver->params = old;
            return false;
        }
        return true;
    }
    if (params->dt != solver->params.dt || params->substeps != solver->params.substeps) {
        /* the time so far stays; from here on it runs at the new step */
        solver->clock_time = solver->time;
        solver->clock_step = solver->step;
        solver->clock_substep = solver->substep;
    }
    solver->params = *params;
    /* velocity is the state every integrator shares: re-derive the previous
     * positions from it so that a change of integrator or step is seamless */
    Cloth *c = solver->cloth;
    float h = (float)params_substep(params);
    for (int i = 0; i < c->count; i++) {
        c->px[i] = c->x[i] - c->vx[i] * h;
        c->py[i] = c->y[i] - c->vy[i] * h;
        c->pz[i] = c->z[i] - c->vz[i] * h;
        c->prx[i] = c->rx[i], c->pry[i] = c->ry[i], c->prz[i] = c->rz[i];
    }
    return true;
}

/* ------------------------------------------------------------ stages */

/* ------------------------------------------------------------ the step */

/* The stage list (SolverStage, solver.h) drives the step, as Box2D v3's
 * solver stages drive its: run_stage is the one place a stage is called,
 * next_stage the one place that says which follows, and run_stages walks
 * from one to the next. A substep is KINEMATICS, FORCES, SOLVE (implicit
 * only), INTEGRATE, then
 * for the position-based integrators RELAX `iterations` times, then
 * STRAIN_LIMIT, SELF_COLLIDE, COLLIDE, VELOCITY and CHECK; a step's last
 * substep is followed by TEAR. The step-by-step modes stop between two
 * passes (PHASE_RELAXING: RELAX comes next) or between two substeps
 * (KINEMATICS comes next), so the phase says where to go on from.
 *
 * A stage with a fast version tries it first, in one shape: fast_path(s)
 * and the fast function saying it did the work; where it did not, the
 * plain code, the readable reference, runs. The fast path may do more
 * than one stage as one job: COLLIDE, VELOCITY and CHECK over the
 * particles once (fast_table.h, finish), or the passes left of a substep in
 * the colored order; run_stage returns the last stage it did, s->pass
 * counts the passes. */

/* Before KINEMATICS: the bookkeeping of a new substep, and of a new step
 * on its first (the good state an explosion goes back to, the shuffled
 * order, the hand's velocity over the step). */
static void begin_substep(Solver *s)
{
    Cloth *c = s->cloth;
    const Params *p = &s->params;
    if (s->substep == 0) {
        s->step_start_time = s->time;
        memcpy(s->good_x, c->x, (size_t)c->count * sizeof(float));
        memcpy(s->good_y, c->y, (size_t)c->count * sizeof(float));
        memcpy(s->good_z, c->z, (size_t)c->count * sizeof(float));
        if (p->order == ORDER_SHUFFLED)
            relax_shuffle_links(s);
        if (s->grabbed >= 0) {
            int g = s->grabbed;
            s->grab_start[0] = c->x[g], s->grab_start[1] = c->y[g], s->grab_start[2] = c->z[g];
            for (int k = 0; k < 3; k++)
                s->grab_velocity[k] = (float)((s->grab_target[k] - s->grab_start[k]) / p->dt);
        }
    }
    s->pass = 0;
    s->residual_count = 0;
    if (p->integrator == INTEGRATOR_XPBD)
        memset(s->lambda, 0, (size_t)c->link_count * sizeof(float));
}

/* The end of a substep of a position-based integrator as one job on the
 * fast path, where it can: COLLIDE, VELOCITY (its loop; the hand's
 * velocity after) and CHECK. */
static bool finish_fast(Solver *s)
{
    if (!solver_is_position_based(s->params.integrator) || !fast_path(s))
        return false;
    int exploded = s->fast->finish(s->relax_fast, s, checks_explode_allowed(s), checks_explode_stretch(s));
    if (exploded < 0)
        return false;
    integrate_keep_grab_velocity(s);
    if (exploded && !s->unchecked)
        checks_freeze_on_last_good(s);
    return true;
}

/* Runs `stage` (through more stages where the fast path does several as
 * one job) and returns the last stage done. */
static SolverStage run_stage(Solver *s, SolverStage stage, bool whole_substep)
{
    const Params *p = &s->params;
    switch (stage) {
    case STAGE_KINEMATICS:
        stage_kinematics(s, s->time + params_substep(p));
        break;
    case STAGE_FORCES:
        stage_forces(s, s->time);
        break;
    case STAGE_SOLVE:
        stage_solve(s);
        break;
    case STAGE_INTEGRATE:
        stage_integrate(s);
        break;
    case STAGE_RELAX:
        stage_relax(s, whole_substep);
        break;
    case STAGE_STRAIN_LIMIT:
        if (p->strain_limit > 0.0)
            stage_strain_limit(s);
        break;
    case STAGE_SELF_COLLIDE:
        stage_self_collide(s);
        break;
    case STAGE_COLLIDE:
        if (finish_fast(s))
            return STAGE_CHECK;
        stage_collide(s, true, !solver_is_position_based(p->integrator));
        break;
    case STAGE_VELOCITY:
        stage_velocity(s);
        break;
    case STAGE_CHECK:
        stage_check(s);
        break;
    case STAGE_TEAR:
        if (p->tear != TEAR_OFF)
            stage_tear(s);
        break;
    case STAGE_COUNT:
        assert(!"not a stage");
        break;
    }
    return stage;
}

/* After CHECK: the substep counted and the clock read. Whether it was the
 * step's last. */
static bool end_substep(Solver *s)
{
    s->substep++;
    s->time = clock_reading(s, s->step, s->substep);
    return s->substep >= s->params.substeps;
}

/* After TEAR: the step counted. */
static void end_step(Solver *s)
{
    double end = clock_reading(s, s->step, s->substep);
    s->substep = 0;
    s->step++;
    if (s->clock_substep != 0) {
        /* the step changed inside a step: from the next, whole steps */
        s->clock_time = end;
        s->clock_step = s->step;
        s->clock_substep = 0;
    }
    s->time = clock_reading(s, s->step, 0);
}

/* The stage after `done`. */
static SolverStage next_stage(Solver *s, SolverStage done)
{
    switch (done) {
    case STAGE_FORCES:
        return s->params.integrator == INTEGRATOR_IMPLICIT ? STAGE_SOLVE : STAGE_INTEGRATE;
    case STAGE_INTEGRATE:
        return solver_is_position_based(s->params.integrator) ? STAGE_RELAX : STAGE_STRAIN_LIMIT;
    case STAGE_RELAX:
        return s->pass < s->params.iterations ? STAGE_RELAX : STAGE_STRAIN_LIMIT;
    case STAGE_CHECK:
        if (s->exploded) /* frozen on the step's start: the next step begins afresh */
            return STAGE_KINEMATICS;
        return end_substep(s) ? STAGE_TEAR : STAGE_KINEMATICS;
    case STAGE_TEAR:
        end_step(s);
        return STAGE_KINEMATICS;
    default:
        return (SolverStage)(done + 1);
    }
}

/* Runs stages from where the solver stands to the end of the substep, or
 * (one_pass) to the end of the next relaxation pass if one comes first. */
static void run_stages(Solver *s, bool one_pass)
{
    if (s->exploded)
        return;
    SolverStage stage = s->phase == PHASE_RELAXING ? STAGE_RELAX : STAGE_KINEMATICS;
    if (stage == STAGE_KINEMATICS)
        begin_substep(s);
    for (;;) {
        SolverStage done = run_stage(s, stage, !one_pass);
        stage = next_stage(s, done);
        if (stage == STAGE_KINEMATICS || (one_pass && done == STAGE_RELAX && stage == STAGE_RELAX))
            break;
    }
    s->phase = stage == STAGE_RELAX ? PHASE_RELAXING : PHASE_BETWEEN_SUBSTEPS;
}

void solver_pass(Solver *s)
{
    run_stages(s, true);
}

void solver_predict(Solver *s)
{
    if (s->exploded || s->phase != PHASE_BETWEEN_SUBSTEPS || !solver_is_position_based(s->params.integrator))
        return;
    begin_substep(s);
    for (SolverStage stage = STAGE_KINEMATICS; stage != STAGE_RELAX; stage = next_stage(s, stage))
        run_stage(s, stage, false);
    s->phase = PHASE_RELAXING;
}

void solver_substep(Solver *s)
{
    run_stages(s, false);
}

void solver_step(Solver *s)
{
    do {
        solver_substep(s);
    } while (s->substep != 0 && !s->exploded);
}

void solver_start_threads(Solver *s)
{
    /* a cloth too small for threads keeps to one all the same (src/fast/) */
    int wanted = s->params.threads;
    solver_set_threads(s, wanted > 0 ? wanted : s->fast ? s->fast->usable_cores() : 1);
    s->threads_adapt = wanted == 0 && s->threads > 1 && s->fast->adapt(s->relax_fast);
}

bool solver_set_threads(Solver *s, int threads)
{
    if (s->phase == PHASE_RELAXING)
        run_stages(s, false); /* the fast pass keeps multipliers of its own */
    if (!s->fast) {           /* the plain code runs on one */
        s->threads = 1;
        s->threads_adapt = false;
        return threads == 1;
    }
    struct RelaxFast *fast = s->fast->create(s->cloth, threads);
    if (!fast)
        return false;
    s->fast->destroy(s->relax_fast);
    s->relax_fast = fast;
    s->threads = s->fast->threads(fast);
    s->threads_adapt = false;
    return s->threads == threads;
}

/* ------------------------------------------------------------ interaction */

void solver_pin(Solver *s, int particle, bool pinned)
{
    if (particle < 0 || particle >= s->cloth->count)
        return;
    cloth_pin(s->cloth, particle, pinned);
    if (particle == s->grabbed)
        s->cloth->inv_mass[particle] = 0.0f;
}

void solver_grab(Solver *s, int particle)
{
    if (particle < 0 || particle >= s->cloth->count)
        return;
    if (s->grabbed >= 0)
        solver_release(s);
    Cloth *c = s->cloth;
    s->grabbed = particle;
    c->inv_mass[particle] = 0.0f;
    s->grab_start[0] = s->grab_target[0] = c->x[particle];
    s->grab_start[1] = s->grab_target[1] = c->y[particle];
    s->grab_start[2] = s->grab_target[2] = c->z[particle];
    s->grab_velocity[0] = s->grab_velocity[1] = s->grab_velocity[2] = 0.0f;
}

void solver_grab_move(Solver *s, float x, float y, float z)
{
    if (s->grabbed < 0)
        return;
    s->grab_target[0] = x, s->grab_target[1] = y, s->grab_target[2] = s->params.dim == 2 ? 0.0f : z;
}

void solver_release(Solver *s)
{
    if (s->grabbed < 0)
        return;
    Cloth *c = s->cloth;
    int g = s->grabbed;
    s->grabbed = -1;
    c->inv_mass[g] = c->pinned[g] ? 0.0f : 1.0f / c->mass[g];
    /* a throw: keep the velocity of the last move */
    float h = (float)params_substep(&s->params);
    c->vx[g] = c->pinned[g] ? 0.0f : s->grab_velocity[0];
    c->vy[g] = c->pinned[g] ? 0.0f : s->grab_velocity[1];
    c->vz[g] = c->pinned[g] ? 0.0f : s->grab_velocity[2];
    c->px[g] = c->x[g] - c->vx[g] * h, c->py[g] = c->y[g] - c->vy[g] * h, c->pz[g] = c->z[g] - c->vz[g] * h;
    c->prx[g] = c->rx[g], c->pry[g] = c->ry[g], c->prz[g] = c->rz[g];
    c->rvx[g] = c->rvy[g] = c->rvz[g] = 0.0f;
}

int solver_nearest_particle(const Solver *s, float x, float y, float z)
{
    const Cloth *c = s->cloth;
    int best = -1;
    float best_d2 = INFINITY;
    for (int i = 0; i < c->count; i++) {
        float dx = c->x[i] - x, dy = c->y[i] - y, dz = c->z[i] - z;
        float d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < best_d2)
            best_d2 = d2, best = i;
    }
    return best;
}
