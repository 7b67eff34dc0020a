/* state.c - the solver's state as bytes: its size, a save and a load
 * (solver.h, solver_state_size), by one walk over every field.
 */
#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "implicit.h"
#include "solver_internal.h"

/* One walk over the state serves the three: it counts the bytes (no
 * buffer), copies each value out (save) or back in (load). */
typedef enum StateWay { STATE_SIZE, STATE_SAVE, STATE_LOAD } StateWay;

typedef struct StateWalk {
    StateWay way;
    unsigned char *bytes;
    size_t at;
} StateWalk;

static void state_field(StateWalk *w, void *value, size_t size)
{
    if (w->way == STATE_SAVE)
        memcpy(w->bytes + w->at, value, size);
    else if (w->way == STATE_LOAD)
        memcpy(value, w->bytes + w->at, size);
    w->at += size;
}

/* How the solver runs rather than where it is (its threads, the plain
 * loop, the residual trace): saved, so that states taken under different
 * ones never pass for each other, but left as they are by a load. */
static void state_setting(StateWalk *w, void *value, size_t size)
{
    if (w->way != STATE_LOAD)
        state_field(w, value, size);
    else
        w->at += size;
}

#define STATE_FIELD(w, field) state_field((w), &(field), sizeof(field))
#define STATE_ARRAY(w, array, count) state_field((w), (array), (size_t)(count) * sizeof *(array))

/* The settings key by key: the struct's padding bytes are not part of it. */
static void state_walk_settings(StateWalk *w, Solver *s)
{
    for (int i = 0; i < params_count; i++) {
        const ParamInfo *info = &params_table[i];
        size_t size = info->type == PARAM_REAL   ? sizeof(double)
                      : info->type == PARAM_SEED ? sizeof(uint64_t)
                                                 : sizeof(int);
        if (info->offset == offsetof(Params, threads))
            state_setting(w, &s->params.threads, size); /* as s->threads below: the same bits on any count */
        else
            state_field(w, (char *)&s->params + info->offset, size);
    }
}

/* The particles' and the links' arrays, then the solver's own per link
 * and per particle. */
static void state_walk_arrays(StateWalk *w, Solver *s)
{
    Cloth *c = s->cloth;
    int n = c->count, l = c->link_count;
    float *floats[] = {c->x,   c->y,   c->z,   c->px,   c->py,       c->pz,      c->vx,      c->vy,     c->vz,
                       c->rvx, c->rvy, c->rvz, c->mass, c->inv_mass, s->blown_x, s->blown_y, s->blown_z};
    for (size_t k = 0; k < sizeof floats / sizeof floats[0]; k++)
        STATE_ARRAY(w, floats[k], n);
    double *doubles[] = {c->rx, c->ry, c->rz, c->prx, c->pry, c->prz};
    for (size_t k = 0; k < sizeof doubles / sizeof doubles[0]; k++)
        STATE_ARRAY(w, doubles[k], n);
    STATE_ARRAY(w, c->pinned, n);
    STATE_ARRAY(w, c->rest_length, l);
    STATE_ARRAY(w, c->torn, l);
    STATE_ARRAY(w, c->over_limit, l);
    STATE_ARRAY(w, c->triangle_torn, c->triangle_count);
    STATE_ARRAY(w, s->link_order, l); /* order=shuffled shuffles it further each step */
    STATE_ARRAY(w, s->lambda, l);
    for (int k = 0; k < 3; k++) { /* implicit: the warm start of the next solve */
        STATE_ARRAY(w, implicit_dv(s->implicit, k), n);
        STATE_ARRAY(w, implicit_dv_before(s->implicit, k), n);
    }
}

/* Saving writes nothing into s; loading needs the same grid as the save
 * (its shape is the first bytes). */
static void state_walk(StateWalk *w, Solver *s)
{
    Cloth *c = s->cloth;
    int shape[4] = {c->cols, c->rows, c->link_count, c->triangle_count}, saved[4];
    memcpy(saved, shape, sizeof saved);
    STATE_FIELD(w, saved);
    assert(memcmp(saved, shape, sizeof shape) == 0); /* a load into another grid would overrun it */
    (void)saved;
    state_walk_settings(w, s);
    state_walk_arrays(w, s);
    STATE_FIELD(w, s->cg_iterations);
    STATE_FIELD(w, s->cg_residual);
    STATE_FIELD(w, s->cg_unconverged);
    STATE_FIELD(w, s->cg_unconverged_step);
    STATE_FIELD(w, s->time);
    STATE_FIELD(w, s->step);
    STATE_FIELD(w, s->substep);
    STATE_FIELD(w, s->pass);
    STATE_FIELD(w, s->phase);
    STATE_FIELD(w, s->residual_count);
    STATE_ARRAY(w, s->residual_trace, s->residual_count);
    state_setting(w, &s->trace_residual, sizeof s->trace_residual);
    STATE_FIELD(w, s->exploded);
    STATE_FIELD(w, s->exploded_time);
    STATE_FIELD(w, s->exploded_step);
    STATE_FIELD(w, s->clock_time);
    STATE_FIELD(w, s->step_start_time);
    STATE_FIELD(w, s->clock_step);
    STATE_FIELD(w, s->clock_substep);
    STATE_FIELD(w, s->sphere_center);
    STATE_FIELD(w, s->grabbed);
    STATE_FIELD(w, s->grab_start);
    STATE_FIELD(w, s->grab_target);
    STATE_FIELD(w, s->grab_velocity);
    state_setting(w, &s->threads, sizeof s->threads);
    state_setting(w, &s->plain_relax, sizeof s->plain_relax);
    STATE_FIELD(w, s->rng);
    STATE_FIELD(w, s->rest_extent);
    /* the turbulence's tables follow from the seed, the grid and the
     * spacing, all settings that rebuild the cloth: the settings above
     * stand for them */
}

size_t solver_state_size(const Solver *solver)
{
    StateWalk w = {STATE_SIZE, NULL, 0};
    state_walk(&w, (Solver *)solver); /* counting writes nothing */
    return w.at;
}

void solver_state_save(const Solver *solver, unsigned char *out)
{
    StateWalk w = {STATE_SAVE, out, 0};
    state_walk(&w, (Solver *)solver); /* saving writes nothing into the solver */
}

void solver_state_load(Solver *solver, const unsigned char *in)
{
    StateWalk w = {STATE_LOAD, (unsigned char *)in, 0}; /* loading only reads the bytes */
    state_walk(&w, solver);
    /* which links are torn may have changed under the fast path's copy of
     * it, the masses under the springs' coefficients */
    solver->cloth->torn_generation++;
    solver->dashpots_stale = true;
}
