/* relax.c - the position-based integrators' link corrections: RELAX (a
 * pass over the links in the chosen order, the contact inside it, or the
 * fast path's passes) and STRAIN_LIMIT (Provot's limit on the structural
 * links), and the orders a pass visits the links in.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "level.h"
#include "rng.h"
#include "solver_internal.h"
#include "strain_limit.h"

/* Provot's strain limiting repeats its pass until no link is over the limit
 * by more than this fraction, or STRAIN_LIMIT_PASSES passes have run. */
#define STRAIN_LIMIT_TOLERANCE 1e-4f
#define STRAIN_LIMIT_PASSES 1000
/* An over-long link is pulled back to this fraction of its longest: a hair
 * inside the limit, so that rounding cannot leave it over. */
#define STRAIN_LIMIT_INSIDE (1.0f - 1e-5f)

/* ------------------------------------------------------------ orders */

/* A rope's links (one row or one column) visited level by level: a
 * link's level is one more than the highest of the links listed before it
 * that share a particle with it (as src/fast/relax_schedule.h's levels). Every
 * pair of links that share a particle keeps its listed order, so a pass
 * in this order gives the listed order's bits; but the bend links, which
 * the list puts after all the threads, now come each a few links after
 * the threads it waits for, and the processor works on both chains at
 * once instead of one after the other. NULL for a cloth that is not a
 * rope (the fast path's schedule takes those). */
void relax_find_rope_order(Solver *s)
{
    const Cloth *c = s->cloth;
    int links = c->link_count;
    if (!(c->rows == 1 || c->cols == 1) || links == 0)
        return;
    int *level = calloc((size_t)links, sizeof *level), *last = calloc((size_t)c->count, sizeof *last);
    int *start = calloc((size_t)links + 2, sizeof *start);
    s->rope_order = malloc((size_t)links * sizeof *s->rope_order);
    if (level && last && start && s->rope_order) {
        for (int l = 0; l < links; l++) {
            uint32_t a = c->link_a[l], b = c->link_b[l];
            level[l] = 1 + (last[a] > last[b] ? last[a] : last[b]);
            last[a] = last[b] = level[l];
        }
        /* counting sort by level, in listed order within a level */
        for (int l = 0; l < links; l++)
            start[level[l] + 1]++;
        for (int k = 1; k <= links + 1; k++)
            start[k] += start[k - 1];
        for (int l = 0; l < links; l++)
            s->rope_order[start[level[l]]++] = (uint32_t)l;
    } else {
        free(s->rope_order); /* the listed order then: the same bits, slower */
        s->rope_order = NULL;
    }
    free(level), free(last), free(start);
}

/* order=shuffled: the links' order shuffled (each step). */
void relax_shuffle_links(Solver *s)
{
    uint32_t *order = s->link_order;
    for (int l = s->cloth->link_count - 1; l > 0; l--) {
        uint32_t j = rng_below(&s->rng, (uint32_t)l + 1);
        uint32_t tmp = order[l];
        order[l] = order[j];
        order[j] = tmp;
    }
}

/* ------------------------------------------------------------ passes */

/* Per family: the stiffness a pass applies (pbd: k' = 1 - (1 - k)^(1/N)) and
 * the xpbd compliance over h^2. */
static void link_constants(const Solver *s, float h, float k[LINK_FAMILY_COUNT], float alpha[LINK_FAMILY_COUNT])
{
    for (int f = 0; f < LINK_FAMILY_COUNT; f++) {
        k[f] = solver_family_stiffness(s, f);
        if (s->params.integrator == INTEGRATOR_PBD && k[f] > 0.0f)
            k[f] = 1.0f - powf(1.0f - k[f], 1.0f / (float)s->params.iterations);
        alpha[f] = solver_family_compliance(s, f) / (h * h);
    }
}

/* order=jacobi, before the pass: the sums cleared, and the links that take
 * part counted at each particle. Inlined into project_links' builds. */
LEVEL_FUSED_BODY static void jacobi_begin(Solver *s, const float k[LINK_FAMILY_COUNT])
{
    Cloth *c = s->cloth;
    memset(s->jx, 0, (size_t)c->count * sizeof(float));
    memset(s->jy, 0, (size_t)c->count * sizeof(float));
    memset(s->jz, 0, (size_t)c->count * sizeof(float));
    memset(s->jacobi_count, 0, (size_t)c->count * sizeof(uint16_t));
    /* the links that take part at each particle */
    for (int l = 0; l < c->link_count; l++) {
        uint32_t a = c->link_a[l], b = c->link_b[l];
        if (c->torn[l] || k[c->family[l]] <= 0.0f || c->inv_mass[a] + c->inv_mass[b] == 0.0f)
            continue;
        s->jacobi_count[a]++, s->jacobi_count[b]++;
    }
}

/* order=jacobi, after the pass: each particle takes the sum of its links'
 * shares (kept: as remainders, project_links). */
LEVEL_FUSED_BODY static void jacobi_end(Solver *s, bool kept)
{
    Cloth *c = s->cloth;
    for (int i = 0; i < c->count; i++) {
        if (s->jacobi_count[i] == 0)
            continue;
        if (kept) {
            float move[3] = {s->jx[i], s->jy[i], s->jz[i]};
            solver_move_kept(c, (uint32_t)i, 1.0, move);
        } else {
            c->x[i] += s->jx[i], c->y[i] += s->jy[i], c->z[i] += s->jz[i];
        }
    }
}

/* One relaxation pass over every link. For jakobsen and pbd each link moves
 * its ends by k * C / (w_a + w_b) along the link, shared by inverse mass; for
 * xpbd by the multiplier step (-C - alpha~ lambda) / (w_a + w_b + alpha~) with
 * alpha~ = compliance * rest / h^2.
 *
 * order=jacobi computes every link's correction from the positions the pass
 * started with, and each link takes 1 / n of it, n the larger of its free
 * ends' link counts, into the full move of both ends (and for xpbd into its
 * multiplier): no particle moves more than the mean of its links'
 * corrections. Each particle taking the mean of the corrections its own
 * links gave it instead (jakobsen and pbd did) breaks a link's balance
 * where its ends have different counts (a grid's edge and corner particles
 * have fewer links than its interior ones): its ends moved by m v that no
 * longer cancelled, and a free cloth with no gravity and no air lost 4 % of
 * its momentum in 2 s (jakobsen; pbd 2.8 %) where the sequential order lost
 * 0.07 % (test_solver.c). A share per link keeps it as Gauss-Seidel does
 * (the inverse-mass weights cancel pair by pair). xpbd needs the share for
 * a second reason: its multiplier is the link's tension (times h^2), and a
 * particle that moves by a fraction of what the multiplier's step stands
 * for leaves the multiplier counting force that never acted (the hanging
 * rope then settled 2.95 times too long). */
/* fast: the loop over the links on the fast path's schedule
 * (fast_table.h, sequential), sequential and jacobi: the same bits. */
LEVEL_FUSED_BODY static void project_links_body(Solver *s, float h, bool fast)
{
    Cloth *c = s->cloth;
    const int integrator = s->params.integrator;
    const int order = s->params.order;
    const bool jacobi = order == ORDER_JACOBI;
    float k[LINK_FAMILY_COUNT], alpha[LINK_FAMILY_COUNT];
    link_constants(s, h, k, alpha);
    /* colored: colour by colour (colour.h); stage_relax normally hands
     * this order to the fast path, which gives the same bits */
    const uint32_t *visit = order == ORDER_SHUFFLED  ? s->link_order
                            : order == ORDER_COLORED ? s->colour_order
                                                     : s->rope_order; /* NULL but for a rope */
    const bool xpbd = integrator == INTEGRATOR_XPBD;
    /* Below SOLVER_KEEP_BELOW a correction moves x + r (cloth.h), as the
     * integrators do: at small steps a pass's corrections are a few units
     * of a float's last place, and rounding each adds noise of that size / h
     * to the velocity, which heats a cloth (a chain at dt = 2e-5 gained 7 %
     * of its energy in 0.05 s). Above it the noise is under 6e-5 m/s and
     * the corrections stay in float, which is twice as fast. Every order
     * keeps them: the colored order's fast path (src/fast/relax_fast.c) works in
     * float32 only, so below SOLVER_KEEP_BELOW that order runs here
     * (stage_relax). Without them a chain at dt = 1e-4 in the colored
     * order gained 31 % of its energy in 1 s. */
    const bool kept = h < SOLVER_KEEP_BELOW;
    if (jacobi)
        jacobi_begin(s, k);
    if (fast) {
        assert(!visit);
        s->fast->sequential(s->relax_fast, s, k, alpha, kept, jacobi);
    }
    for (int n = 0; n < c->link_count && !fast; n++) {
        int l = visit ? (int)visit[n] : n;
        int f = c->family[l];
        if (jacobi)
            solver_jacobi_link(c, (uint32_t)l, k[f], alpha[f], xpbd, s->jacobi_count, &s->lambda[l], s->jx, s->jy,
                               s->jz);
        else
            solver_relax_link(c, (uint32_t)l, k[f], alpha[f], xpbd, kept, &s->lambda[l]);
    }
    if (jacobi)
        jacobi_end(s, kept);
}
LEVEL_FUSED_LOOPS(CORE_LOOPS_FUSED, project_links, (Solver * s, float h, bool fast), (s, h, fast))

/* The passes left of a substep of the sequential order (below
 * SOLVER_KEEP_BELOW keeping remainders), with their contact, as one job on the fast path where it can (AVX-512, the
 * sphere or no collider, in 3D; src/fast/relax_helix.h, on every thread): the same
 * bits as project_links and stage_collide pass after pass. */
static bool sequential_passes(Solver *s, float h, int passes)
{
    if (s->params.order != ORDER_SEQUENTIAL || s->params.dim != 3)
        return false;
    float k[LINK_FAMILY_COUNT], alpha[LINK_FAMILY_COUNT];
    link_constants(s, h, k, alpha);
    /* project_links' kept: corrections as remainders below SOLVER_KEEP_BELOW */
    return s->fast->sequential_passes(s->relax_fast, s, k, alpha, passes, h < SOLVER_KEEP_BELOW);
}

/* One relaxation pass, the contact inside it, or on the fast path in the
 * colored or the sequential order with whole_substep every pass left as
 * one job (the same bits as pass after pass; no residual can be traced
 * between them). */
void stage_relax(Solver *s, bool whole_substep)
{
    float h = (float)params_substep(&s->params);
    int passes = 1;
    const bool colored = s->params.order == ORDER_COLORED;
    if (fast_path(s) && colored && h >= SOLVER_KEEP_BELOW) {
        /* the link loop and the contact, vectorised and threaded */
        float k[LINK_FAMILY_COUNT], alpha[LINK_FAMILY_COUNT];
        link_constants(s, h, k, alpha);
        int left = s->params.iterations - s->pass;
        if (whole_substep && !s->trace_residual && s->fast->passes(s->relax_fast, s, k, alpha, left))
            passes = left;
        else
            s->fast->pass(s->relax_fast, s, k, alpha);
    } else {
        /* sequential and jacobi: the link loop on the fast path's
         * schedule, but for a rope. A rope's links are one chain, each
         * sharing a particle with the one before, so the schedule finds no
         * two to run side by side and spends a level on every link; the
         * plain loop (the same bits) takes half the time there (lessons 5
         * and 11's chains), less still in rope_order (relax_find_rope_order).
         * colored below SOLVER_KEEP_BELOW: the plain loop, which keeps
         * the corrections' remainders (project_links). */
        bool fast = fast_path(s) && s->rope_order == NULL && !colored;
        int left = s->params.iterations - s->pass;
        if (fast && whole_substep && !s->trace_residual && sequential_passes(s, h, left)) {
            passes = left;
        } else {
            project_links(s, h, fast);
            stage_collide(s, false, false);
        }
    }
    s->pass += passes;
    if (s->trace_residual && s->residual_count < SOLVER_MAX_ITERATIONS)
        s->residual_trace[s->residual_count++] = (float)solver_residual(s);
}

/* Provot 1995: no structural link may end longer than (1 + strain_limit)
 * times its rest length. Over-long links are pulled back to exactly that
 * length, pass after pass, until every one is within the limit. The moves
 * are summed into jx/jy/jz so velocity-carrying integrators can follow.
 *
 * A soft cloth takes a couple of hundred passes a substep, and most links
 * are within the limit in most of them: a link found within it whose two
 * particles have not moved since is within it still, and is passed over
 * without measuring it again (the same outcome, so the same bits). Moves
 * are counted (tick); limit_moved holds the count at each particle's last
 * move, limit_checked the count when each link was last found within. */
void stage_strain_limit(Solver *s)
{
    Cloth *c = s->cloth;
    float limit = 1.0f + (float)s->params.strain_limit;
    memset(s->jx, 0, (size_t)c->count * sizeof(float));
    memset(s->jy, 0, (size_t)c->count * sizeof(float));
    memset(s->jz, 0, (size_t)c->count * sizeof(float));
    /* the fast path: the same moves eight rows or columns at a time */
    if (fast_path(s) && strain_limit_run(s->strain_limit, c, s->jx, s->jy, s->jz, limit, STRAIN_LIMIT_INSIDE,
                                         STRAIN_LIMIT_TOLERANCE, STRAIN_LIMIT_PASSES))
        return;
    uint32_t *moved = s->limit_moved, *checked = s->limit_checked;
    memset(moved, 0, (size_t)c->count * sizeof *moved);
    memset(checked, 0, (size_t)s->structural_end * sizeof *checked);
    uint32_t tick = 1; /* above every stamp: nothing counts as checked yet */
    for (int pass = 0; pass < STRAIN_LIMIT_PASSES; pass++) {
        float worst = 0.0f;
        for (int l = 0; l < s->structural_end; l++) {
            if (c->family[l] != LINK_STRUCTURAL || c->torn[l])
                continue;
            uint32_t a = c->link_a[l], b = c->link_b[l];
            if (checked[l] > moved[a] && checked[l] > moved[b])
                continue; /* within the limit when last measured, and neither end has moved since */
            float wa = c->inv_mass[a], wb = c->inv_mass[b], w = wa + wb;
            if (w == 0.0f)
                continue;
            float dx = c->x[b] - c->x[a], dy = c->y[b] - c->y[a], dz = c->z[b] - c->z[a];
            float length = sqrtf(dx * dx + dy * dy + dz * dz);
            float longest = c->rest_length[l] * limit;
            if (length <= longest) {
                checked[l] = tick;
                continue;
            }
            /* worst only decides whether another pass runs: once a link of
             * this pass is past the tolerance, the others' need no division */
            if (worst <= STRAIN_LIMIT_TOLERANCE) {
                float over = length / longest - 1.0f;
                if (over > worst)
                    worst = over;
            }
            float scale = (length - longest * STRAIN_LIMIT_INSIDE) / (length * w);
            float ax = wa * scale * dx, ay = wa * scale * dy, az = wa * scale * dz;
            float bx = wb * scale * dx, by = wb * scale * dy, bz = wb * scale * dz;
            c->x[a] += ax, c->y[a] += ay, c->z[a] += az;
            c->x[b] -= bx, c->y[b] -= by, c->z[b] -= bz;
            s->jx[a] += ax, s->jy[a] += ay, s->jz[a] += az;
            s->jx[b] -= bx, s->jy[b] -= by, s->jz[b] -= bz;
            moved[a] = moved[b] = tick++;
        }
        if (worst <= STRAIN_LIMIT_TOLERANCE)
            break;
    }
}
