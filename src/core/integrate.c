/* integrate.c - the integrators' updates: SOLVE (implicit's linear solve
 * for the change of velocity), INTEGRATE (each particle's step: euler,
 * symplectic, verlet, implicit's, or the position-based prediction) and
 * VELOCITY (the velocity from the substep's motion, damped). The
 * position-based integrators' passes over the links are relax.c's.
 *
 * Force-based (links are Hooke springs with a dashpot):
 *   euler       x += v h;  v += a h                    (explicit: gains energy)
 *   symplectic  v += a h;  x += v h                    (semi-implicit Euler)
 *   verlet      x' = x + (x - x_prev) d + a h^2         (Stormer; d = damping)
 * Position-based (links are constraints, projected `iterations` times):
 *   jakobsen    Verlet, then Gauss-Seidel passes moving each end by
 *               stiffness * (len - rest) / len * d, shared by inverse mass
 *               (Jakobsen 2001, seeds 000 and 001)
 *   pbd         v += g h; x_p = x + v h; project with k' = 1 - (1 - k)^(1/N)
 *               so that stiffness does not depend on N; v = (x_p - x) / h
 *               (Mueller et al. 2007, seed 002)
 *   xpbd        PBD with a compliance per family and an accumulated
 *               multiplier per link: stiffness depends neither on the
 *               iteration count nor on the step once the passes converge
 *               (Macklin et al. 2016; at the default step the stiffer
 *               materials need hundreds: README). Like every position
 *               step it ends where the links hold at the new positions:
 *               backward Euler's equation, so it damps as `implicit` does
 *
 * Every integrator sees the same cloth, forces and step, so they can be
 * compared side by side. Damping is a rate: velocities shrink by
 * exp(-damping h) per substep, the same decay per second whatever dt and
 * substeps are. No clock is read here; the same inputs give the same bits.
 */
#include <math.h>
#include <string.h>

#include "implicit.h"
#include "level.h"
#include "solver_internal.h"

/* Why double and remainders: positions and velocities are float32, which
 * at 1 m resolves 6e-8 m. A step moves a particle by about v h + a h^2; at
 * the smallest steps the ranges allow (dt = 1e-5 in 100 substeps, h = 1e-7)
 * g h^2 is 1e-13 m, and a float position would never move, nor a velocity
 * that gains g h = 1e-6 m/s on 5 m/s see more than a rounded quarter of it.
 * So each coordinate is a float plus a remainder (cloth.h; a double for
 * positions, a float for velocities): an integrator's step is added to the
 * remainder in double, and the sum split back into its nearest float and
 * what that rounds off. Every integrator's fall is then
 * its exact discrete sum at every step size.
 *
 * The loops below are written one integrator and one coordinate at a time,
 * without branches (a pinned particle keeps its values through a select),
 * so that the compiler runs them several particles at a time: the same
 * operations in every lane, the same bits as one at a time. */

/* GCC on x86-64 vectorises these loops once per level (core/level.h): a
 * build for AVX-512 (eight doubles at a time), one for AVX2 (four) and
 * one for any x86-64 (two); each call runs the build of the level the
 * program chose at start (CLOTHSIM_KERNELS, or the widest the processor
 * has). Without FMA
 * and with -std=c17's -ffp-contract=off, each lane does the scalar loop's
 * operations: the same bits whichever runs (clothsim run --dump of every
 * scene and integrator, 120 steps, read the same with and without the
 * AVX-512 one). The wider builds pay because the doubles' conversions,
 * not only the memory, hold these loops. */

/* One coordinate of particles from .. to - 1: x, its remainder r, the
 * previous position px (remainder pr), the velocity v (remainder rv); f the
 * force, w the inverse mass (0: moved by kinematics only). */
typedef struct Coordinate {
    float *restrict x;
    double *restrict r;
    float *restrict px;
    double *restrict pr;
    float *restrict v, *restrict rv;
    const float *restrict f, *restrict w;
} Coordinate;

/* a where mask is all ones, b where it is 0: a select written in bits, which
 * the vectoriser takes (a branch or ?: in the loop it does not); pick for
 * floats, pick_double for doubles, with a mask of their width. */
#define DEFINE_PICK(name, type, bits)                                                                                  \
    static inline type name(bits mask, type a, type b)                                                                 \
    {                                                                                                                  \
        bits ua, ub;                                                                                                   \
        memcpy(&ua, &a, sizeof ua);                                                                                    \
        memcpy(&ub, &b, sizeof ub);                                                                                    \
        bits u = (ua & mask) | (ub & ~mask);                                                                           \
        type out;                                                                                                      \
        memcpy(&out, &u, sizeof out);                                                                                  \
        return out;                                                                                                    \
    }
DEFINE_PICK(pick, float, uint32_t)
DEFINE_PICK(pick_double, double, uint64_t)

/* A value as a float and its remainder. */
#define SPLIT(sum, x, r) ((x) = (float)(sum), (r) = (float)((sum) - (double)(x)))

/* Where particle i moved since the substep began, in double: the floats'
 * difference (exact for the small moves of one substep) plus the
 * remainders'. */
#define MOVED(c, i) (((double)(c).x[i] - (c).px[i]) + ((double)(c).r[i] - (c).pr[i]))

/* euler: x with the old velocity, then v */
LEVEL_BODY static void integrate_euler_body(Coordinate c, double h, int from, int to)
{
    for (int i = from; i < to; i++) {
        uint32_t moves = -(uint32_t)(c.w[i] != 0.0f); /* all ones unless pinned or grabbed */
        uint64_t moves2 = -(uint64_t)(c.w[i] != 0.0f);
        double a = (double)c.f[i] * c.w[i];
        float x0 = c.x[i], nx, nv, nrv;
        double r0 = c.r[i], nr;
        ADD_KEPT(x0, r0, ((double)c.v[i] + c.rv[i]) * h, nx, nr);
        ADD_KEPT(c.v[i], c.rv[i], a * h, nv, nrv);
        c.px[i] = pick(moves, x0, c.px[i]), c.pr[i] = pick_double(moves2, r0, c.pr[i]);
        c.x[i] = pick(moves, nx, x0), c.r[i] = pick_double(moves2, nr, r0);
        c.v[i] = pick(moves, nv, c.v[i]), c.rv[i] = pick(moves, nrv, c.rv[i]);
    }
}
LEVEL_LOOPS(CORE_LOOPS_INTEGRATE, integrate_euler, (Coordinate c, double h, int from, int to), (c, h, from, to))

/* symplectic, and the prediction of pbd and xpbd: v first, then x with the new one */
LEVEL_BODY static void integrate_symplectic_body(Coordinate c, double h, int from, int to)
{
    for (int i = from; i < to; i++) {
        uint32_t moves = -(uint32_t)(c.w[i] != 0.0f); /* all ones unless pinned or grabbed */
        uint64_t moves2 = -(uint64_t)(c.w[i] != 0.0f);
        double a = (double)c.f[i] * c.w[i];
        float nv, nrv, nx, x0 = c.x[i];
        double nr, r0 = c.r[i];
        ADD_KEPT(c.v[i], c.rv[i], a * h, nv, nrv);
        ADD_KEPT(x0, r0, ((double)nv + nrv) * h, nx, nr);
        c.px[i] = pick(moves, x0, c.px[i]), c.pr[i] = pick_double(moves2, r0, c.pr[i]);
        c.x[i] = pick(moves, nx, x0), c.r[i] = pick_double(moves2, nr, r0);
        c.v[i] = pick(moves, nv, c.v[i]), c.rv[i] = pick(moves, nrv, c.rv[i]);
    }
}
LEVEL_LOOPS(CORE_LOOPS_INTEGRATE, integrate_symplectic, (Coordinate c, double h, int from, int to), (c, h, from, to))

/* verlet and jakobsen: x' = x + (x - x_prev) decay + a h^2 */
LEVEL_BODY static void integrate_verlet_body(Coordinate c, double h, double decay, int from, int to)
{
    for (int i = from; i < to; i++) {
        uint32_t moves = -(uint32_t)(c.w[i] != 0.0f); /* all ones unless pinned or grabbed */
        uint64_t moves2 = -(uint64_t)(c.w[i] != 0.0f);
        double a = (double)c.f[i] * c.w[i];
        float nx, x0 = c.x[i];
        double nr, r0 = c.r[i];
        ADD_KEPT(x0, r0, MOVED(c, i) * decay + a * h * h, nx, nr);
        c.px[i] = pick(moves, x0, c.px[i]), c.pr[i] = pick_double(moves2, r0, c.pr[i]);
        c.x[i] = pick(moves, nx, x0), c.r[i] = pick_double(moves2, nr, r0);
    }
}
LEVEL_LOOPS(CORE_LOOPS_INTEGRATE, integrate_verlet, (Coordinate c, double h, double decay, int from, int to),
            (c, h, decay, from, to))

static Coordinate coordinate(Solver *s, int k)
{
    Cloth *c = s->cloth;
    switch (k) {
    case 0:
        return (Coordinate){c->x, c->rx, c->px, c->prx, c->vx, c->rvx, s->fx, c->inv_mass};
    case 1:
        return (Coordinate){c->y, c->ry, c->py, c->pry, c->vy, c->rvy, s->fy, c->inv_mass};
    default:
        return (Coordinate){c->z, c->rz, c->pz, c->prz, c->vz, c->rvz, s->fz, c->inv_mass};
    }
}

/* implicit: v += dv, the solve's answer, then x with the new v */
LEVEL_BODY static void integrate_implicit_body(Coordinate c, const double *restrict dv, double h, int from, int to)
{
    for (int i = from; i < to; i++) {
        uint32_t moves = -(uint32_t)(c.w[i] != 0.0f); /* all ones unless pinned or grabbed */
        uint64_t moves2 = -(uint64_t)(c.w[i] != 0.0f);
        float nv, nrv, nx, x0 = c.x[i];
        double nr, r0 = c.r[i];
        ADD_KEPT(c.v[i], c.rv[i], dv[i], nv, nrv);
        ADD_KEPT(x0, r0, ((double)nv + nrv) * h, nx, nr);
        c.px[i] = pick(moves, x0, c.px[i]), c.pr[i] = pick_double(moves2, r0, c.pr[i]);
        c.x[i] = pick(moves, nx, x0), c.r[i] = pick_double(moves2, nr, r0);
        c.v[i] = pick(moves, nv, c.v[i]), c.rv[i] = pick(moves, nrv, c.rv[i]);
    }
}
LEVEL_LOOPS(CORE_LOOPS_INTEGRATE, integrate_implicit,
            (Coordinate c, const double *restrict dv, double h, int from, int to), (c, dv, h, from, to))

void solver_integrate_range(Solver *s, int from, int to)
{
    const double h = params_substep(&s->params), decay = exp(-s->params.damping * h);
    for (int k = 0; k < 3; k++) {
        Coordinate c = coordinate(s, k);
        switch (s->params.integrator) {
        case INTEGRATOR_IMPLICIT:
            integrate_implicit(c, implicit_dv(s->implicit, k), h, from, to);
            break;
        case INTEGRATOR_EULER:
            integrate_euler(c, h, from, to);
            break;
        case INTEGRATOR_SYMPLECTIC:
        case INTEGRATOR_PBD:
        case INTEGRATOR_XPBD:
            integrate_symplectic(c, h, from, to);
            break;
        case INTEGRATOR_VERLET:
        case INTEGRATOR_JAKOBSEN:
            integrate_verlet(c, h, decay, from, to);
            break;
        }
    }
}

/* The per-particle stages (INTEGRATE, VELOCITY), each one function over a
 * range of particles that reads and writes only those: the plain loop runs
 * it over all of them, the fast path over its chunks on the threads
 * (fast_table.h, range), with the same bits. As in Box2D v3's solver, one
 * function serves one worker or many. */
static void integrate_range(Solver *s, int from, int to)
{
    solver_integrate_range(s, from, to);
}

static void velocity_range(Solver *s, int from, int to)
{
    solver_velocity_range(s, s->params.strain_limit > 0.0, from, to);
}

/* A per-particle stage, on the fast path's threads where it runs. */
static void stage_range(Solver *s, FastRange range)
{
    if (!fast_path(s) || !s->fast->range(s->relax_fast, s, range))
        range(s, 0, s->cloth->count);
}

/* INTEGRATE: each particle's step, on the fast path's threads where it runs. */
void stage_integrate(Solver *s)
{
    stage_range(s, integrate_range);
}

/* Backward Euler's linear solve (implicit.h) for the substep's change of
 * velocity, from gravity and the wind (stage_forces) and the links'
 * springs and dashpots at the substep's start, which the solve works out
 * with their Jacobians; INTEGRATE then applies it. */
void stage_solve(Solver *s)
{
    forces_refresh_link_constants(s);
    const float *f[3] = {s->fx, s->fy, s->fz};
    ImplicitLinks links = {s->cloth->torn, s->link_k, s->link_dashpot, s->cloth->torn_generation, s->dashpot_version};
    ImplicitResult result =
        implicit_solve(s->implicit, s->cloth, f, &links, params_substep(&s->params), s->params.cg_tolerance,
                       s->params.cg_max_iterations, IMPLICIT_LINEARISATIONS);
    s->cg_iterations = result.iterations;
    s->cg_residual = result.residual;
    if (!result.converged)
        s->cg_unconverged++, s->cg_unconverged_step = s->step;
}

/* A grabbed particle keeps the velocity of the hand's last move. */
void integrate_keep_grab_velocity(Solver *s)
{
    if (s->grabbed >= 0) {
        Cloth *c = s->cloth;
        int g = s->grabbed;
        c->vx[g] = s->grab_velocity[0], c->vy[g] = s->grab_velocity[1], c->vz[g] = s->grab_velocity[2];
    }
}

/* velocity from the move: (x - x_prev) / h times factor (pbd, xpbd: the
 * damping; verlet, jakobsen: 1, theirs was in the update) */
LEVEL_BODY static void velocity_from_move_body(Coordinate c, double inv_h, int from, int to)
{
    for (int i = from; i < to; i++) {
        double v = MOVED(c, i) * inv_h;
        SPLIT(v, c.v[i], c.rv[i]);
    }
}
LEVEL_LOOPS(CORE_LOOPS_VELOCITY, velocity_from_move, (Coordinate c, double inv_h, int from, int to),
            (c, inv_h, from, to))

/* euler, symplectic: the damping */
LEVEL_BODY static void velocity_damped_body(Coordinate c, double decay, int from, int to)
{
    for (int i = from; i < to; i++) {
        double v = ((double)c.v[i] + c.rv[i]) * decay;
        SPLIT(v, c.v[i], c.rv[i]);
    }
}
LEVEL_LOOPS(CORE_LOOPS_VELOCITY, velocity_damped, (Coordinate c, double decay, int from, int to), (c, decay, from, to))

/* ... after the strain limit's move (limit) as a velocity */
LEVEL_BODY static void velocity_limited_body(Coordinate c, const float *restrict limit, double inv_h, double decay,
                                             int from, int to)
{
    for (int i = from; i < to; i++) {
        double v = ((double)c.v[i] + c.rv[i] + (double)limit[i] * inv_h) * decay;
        SPLIT(v, c.v[i], c.rv[i]);
    }
}
LEVEL_LOOPS(CORE_LOOPS_VELOCITY, velocity_limited,
            (Coordinate c, const float *restrict limit, double inv_h, double decay, int from, int to),
            (c, limit, inv_h, decay, from, to))

void solver_velocity_range(Solver *s, bool strain_limited, int from, int to)
{
    const double h = params_substep(&s->params), decay = exp(-s->params.damping * h);
    const float *limits[3] = {s->jx, s->jy, s->jz};
    for (int k = 0; k < 3; k++) {
        Coordinate c = coordinate(s, k);
        switch (s->params.integrator) {
        case INTEGRATOR_EULER:
        case INTEGRATOR_SYMPLECTIC:
        case INTEGRATOR_IMPLICIT:
            if (strain_limited)
                velocity_limited(c, limits[k], 1.0 / h, decay, from, to);
            else
                velocity_damped(c, decay, from, to);
            break;
        case INTEGRATOR_VERLET:
        case INTEGRATOR_JAKOBSEN:
            velocity_from_move(c, 1.0 / h, from, to);
            break;
        case INTEGRATOR_PBD:
        case INTEGRATOR_XPBD:
            velocity_from_move(c, decay / h, from, to);
            break;
        }
    }
}

/* Velocity from the substep's motion (or the strain limit's), damped. */
void stage_velocity(Solver *s)
{
    stage_range(s, velocity_range);
    integrate_keep_grab_velocity(s);
}
