/* checks.c - what the step checks at the end of a substep (CHECK: has the
 * cloth exploded?) and of a step (TEAR: which links break), and the
 * measures of how far the links are from rest (solver_residual,
 * solver_omega_dt).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver_internal.h"

/* A cloth has exploded when a coordinate is not finite, when its bounding box
 * grows past EXPLODE_FACTOR times its rest size (plus EXPLODE_SLACK metres),
 * or when a structural link is longer than EXPLODE_STRETCH times its rest
 * length: no honest motion of a cloth does any of these, and an unstable
 * integrator does all of them within a few substeps. */
#define EXPLODE_FACTOR 20.0f
#define EXPLODE_SLACK 10.0f
#define EXPLODE_STRETCH 10.0f

/* Whether any link is torn, counted again only when the cloth's torn
 * links changed (a tear, a copy, a load). */
static bool any_torn(Solver *s)
{
    const Cloth *c = s->cloth;
    if (s->torn_counted != c->torn_generation) {
        s->torn_counted = c->torn_generation;
        s->torn_any = false;
        for (int l = 0; l < c->link_count && !s->torn_any; l++)
            s->torn_any = c->torn[l] != 0;
    }
    return s->torn_any;
}

/* How far the cloth may spread (m) before it counts as exploded. A torn
 * cloth may spread as far as its pieces fall: a piece torn off the tear
 * scene's hands falls 10 m in 1.4 s, and was once taken for an explosion
 * (under every force-based integrator at 5.2 s). There only the other
 * signs count: a coordinate not finite, a link stretched tenfold. */
float checks_explode_allowed(Solver *s)
{
    return any_torn(s) ? INFINITY : EXPLODE_FACTOR * (float)s->rest_extent + EXPLODE_SLACK;
}

/* How far a structural link may stretch (times its rest length) before the
 * cloth counts as exploded. With the structural stiffness at 0 the threads
 * correct nothing (every integrator skips a family whose stiffness is 0),
 * so their length says nothing: lesson 1's cloth without them parts into
 * two checkerboard nets, each hanging from a corner, its energy kept, and
 * was once called exploded at 0.6 s. */
float checks_explode_stretch(const Solver *s)
{
    return solver_family_stiffness(s, LINK_STRUCTURAL) > 0.0f ? EXPLODE_STRETCH : INFINITY;
}

/* Exploded: a coordinate is not finite, the cloth spread over far more
 * space than its rest size allows, or a structural link over
 * EXPLODE_STRETCH times its rest length. */
static bool blew_up(Solver *s)
{
    const Cloth *c = s->cloth;
    float allowed = checks_explode_allowed(s);
    int verdict = fast_path(s) ? s->fast->blew_up(s->relax_fast, c, allowed, checks_explode_stretch(s)) : -1;
    if (verdict >= 0)
        return verdict;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < c->count; i++) {
        float p[3] = {c->x[i], c->y[i], c->z[i]};
        for (int k = 0; k < 3; k++) {
            if (!(p[k] > -1e30f && p[k] < 1e30f)) /* also false for NaN */
                return true;
            lo[k] = p[k] < lo[k] ? p[k] : lo[k];
            hi[k] = p[k] > hi[k] ? p[k] : hi[k];
        }
    }
    for (int k = 0; k < 3; k++)
        if (hi[k] - lo[k] > allowed)
            return true;
    return solver_overstretched(c, checks_explode_stretch(s));
}

bool solver_overstretched(const Cloth *c, float stretch)
{
    for (int l = 0; l < c->link_count; l++) {
        if (c->family[l] != LINK_STRUCTURAL || c->torn[l])
            continue;
        uint32_t a = c->link_a[l], b = c->link_b[l];
        float dx = c->x[b] - c->x[a], dy = c->y[b] - c->y[a], dz = c->z[b] - c->z[a];
        float longest = stretch * c->rest_length[l];
        if (dx * dx + dy * dy + dz * dz > longest * longest)
            return true;
    }
    return false;
}

/* Exploded: back to the step's start, frozen there (solver.h, exploded). */
void checks_freeze_on_last_good(Solver *s)
{
    Cloth *c = s->cloth;
    s->exploded = true;
    s->exploded_time = clock_reading(s, s->step, s->substep + 1);
    s->exploded_step = s->step;
    s->time = s->step_start_time; /* back to the start of the step */
    if (s->clock_step == s->step) {
        s->clock_time = s->step_start_time;
        s->clock_substep = 0;
    }
    s->substep = 0;
    s->phase = PHASE_BETWEEN_SUBSTEPS;
    /* what the screen keeps showing: the cloth as it was found blown apart */
    memcpy(s->blown_x, c->x, (size_t)c->count * sizeof(float));
    memcpy(s->blown_y, c->y, (size_t)c->count * sizeof(float));
    memcpy(s->blown_z, c->z, (size_t)c->count * sizeof(float));
    memcpy(c->x, s->good_x, (size_t)c->count * sizeof(float));
    memcpy(c->y, s->good_y, (size_t)c->count * sizeof(float));
    memcpy(c->z, s->good_z, (size_t)c->count * sizeof(float));
    memcpy(c->px, c->x, (size_t)c->count * sizeof(float));
    memcpy(c->py, c->y, (size_t)c->count * sizeof(float));
    memcpy(c->pz, c->z, (size_t)c->count * sizeof(float));
    memset(c->vx, 0, (size_t)c->count * sizeof(float));
    memset(c->vy, 0, (size_t)c->count * sizeof(float));
    memset(c->vz, 0, (size_t)c->count * sizeof(float));
    double *remainders[] = {c->rx, c->ry, c->rz, c->prx, c->pry, c->prz};
    for (int k = 0; k < 6; k++)
        memset(remainders[k], 0, (size_t)c->count * sizeof(double));
    memset(c->rvx, 0, (size_t)c->count * sizeof(float));
    memset(c->rvy, 0, (size_t)c->count * sizeof(float));
    memset(c->rvz, 0, (size_t)c->count * sizeof(float));
}

/* CHECK: an explosion found freezes the cloth on the step's start. */
void stage_check(Solver *s)
{
    if (!s->unchecked && blew_up(s))
        checks_freeze_on_last_good(s);
}

/* Tearing (seed 003): a structural or shear link over tear_limit counts the
 * consecutive steps it has been over; `naive` breaks it on the first,
 * `hysteresis` after tear_hold. The limit is a strain the method must be
 * able to resolve: at about 10 passes an impact spikes the stretch for a step
 * or two, which hysteresis rides out and a naive limit does not. */
void stage_tear(Solver *s)
{
    Cloth *c = s->cloth;
    int hold = s->params.tear == TEAR_NAIVE ? 1 : s->params.tear_hold;
    float limit = 1.0f + (float)s->params.tear_limit;
    for (int l = 0; l < c->link_count; l++) {
        if (c->torn[l] || c->family[l] == LINK_BEND)
            continue;
        uint32_t a = c->link_a[l], b = c->link_b[l];
        float dx = c->x[b] - c->x[a], dy = c->y[b] - c->y[a], dz = c->z[b] - c->z[a];
        float longest = c->rest_length[l] * limit;
        if (dx * dx + dy * dy + dz * dz <= longest * longest) {
            c->over_limit[l] = 0;
            continue;
        }
        if (c->over_limit[l] < UINT16_MAX)
            c->over_limit[l]++;
        if (c->over_limit[l] >= hold)
            cloth_tear_link(c, l);
    }
}

/* ------------------------------------------------------------ measures */

double solver_residual(const Solver *s)
{
    const Cloth *c = s->cloth;
    double sum = 0.0;
    int counted = 0;
    for (int l = 0; l < c->link_count; l++) {
        if (c->torn[l] || solver_family_stiffness(s, c->family[l]) <= 0.0f)
            continue;
        sum += fabs((double)cloth_link_length(c, l) / c->rest_length[l] - 1.0);
        counted++;
    }
    return counted ? sum / counted : 0.0;
}

/* Gershgorin: every eigenvalue of M^-1 K lies below the largest row sum
 * 2 sum_j k_ij / m_i, so omega_max <= sqrt of that. */
double solver_omega_dt(const Solver *s)
{
    const Cloth *c = s->cloth;
    double worst = 0.0;
    double *sum = calloc((size_t)c->count, sizeof(double));
    if (!sum)
        return NAN;
    for (int l = 0; l < c->link_count; l++) {
        if (c->torn[l])
            continue;
        double k = solver_family_spring(s, c->family[l]);
        sum[c->link_a[l]] += k;
        sum[c->link_b[l]] += k;
    }
    for (int i = 0; i < c->count; i++)
        if (c->inv_mass[i] > 0.0f && 2.0 * sum[i] / c->mass[i] > worst)
            worst = 2.0 * sum[i] / c->mass[i];
    free(sum);
    return sqrt(worst) * params_substep(&s->params);
}
