/* solver.h - advances a cloth in time.
 *
 * One step is `substeps` substeps of length dt / substeps. What a substep does,
 * in order (the whole pipeline, readable in one place):
 */
#ifndef CLOTHSIM_SOLVER_H
#define CLOTHSIM_SOLVER_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cloth.h"
#include "collide.h"
#include "params.h"
#include "selfcollide.h"

typedef enum SolverStage {
    STAGE_KINEMATICS,   /* move the collider and any grabbed particle */
    STAGE_FORCES,       /* gravity, wind on triangles, springs (force-based only) */
    STAGE_SOLVE,        /* implicit only: the linear solve for the substep's change of velocity */
    STAGE_INTEGRATE,    /* euler / symplectic / verlet update, or the PBD prediction */
    STAGE_RELAX,        /* `iterations` passes over the links, collision inside each */
    STAGE_STRAIN_LIMIT, /* Provot: no structural link over 1 + strain_limit */
    STAGE_SELF_COLLIDE, /* unlinked particles at least `thickness` apart */
    STAGE_COLLIDE,      /* once more with friction: collider, edge samples, floor */
    STAGE_VELOCITY,     /* reconcile velocity with positions, apply damping */
    STAGE_CHECK,        /* detect an explosion; freeze on the last good state */
    STAGE_TEAR,         /* once per step: count steps over the limit, break links */
    STAGE_COUNT
} SolverStage;
/* The list drives the step: solver.c's run_stage dispatches on it and
 * next_stage gives the order (SOLVE for implicit only; RELAX `iterations`
 * times for the position-based integrators only; TEAR after a step's last
 * substep). The
 * per-particle stages (STAGE_INTEGRATE, STAGE_VELOCITY) are each one
 * function over a range of particles: the plain loop runs it over all
 * particles, the fast path over its chunks on the threads
 * (fast_table.h, range). */

/* Where the solver is inside a step, for the step-by-step modes. */
typedef enum SolverPhase {
    PHASE_BETWEEN_SUBSTEPS, /* nothing half done */
    PHASE_RELAXING,         /* predicted; `pass` of `iterations` passes done */
} SolverPhase;

#define SOLVER_MAX_ITERATIONS 500

/* Substeps shorter than this (s) keep the relaxation's corrections to
 * double precision (cloth.h's remainders; relax.c, project_links). */
#define SOLVER_KEEP_BELOW 1e-3

/* Pressure on a cloth facing the wind per m/s of wind along its normal,
 * kg/(m^2 s). The seed formula f = n (n^ . wind) is linear in the wind; this
 * constant gives it units and a size that lifts a light curtain by a few tens
 * of degrees in a 2 m/s breeze. */
#define SOLVER_WIND_DRAG 0.5f
#define SOLVER_TURBULENCE_WAVES 3

typedef struct Solver {
    Params params; /* live copy: change with solver_set_params */
    Cloth *cloth;

    double time;  /* simulated time, s: the substeps' lengths added up (solver_time) */
    int64_t step; /* completed steps */
    int substep;  /* substeps completed in the current step */
    int pass;     /* relaxation passes completed in the current substep */
    SolverPhase phase;

    /* residual after each pass of the current or last substep: mean
     * |length - rest| / rest over the links that take part */
    float residual_trace[SOLVER_MAX_ITERATIONS];
    int residual_count;

    bool trace_residual; /* fill residual_trace after every pass (costs a pass) */

    /* implicit: the last substep's solve (conjugate gradients) */
    int cg_iterations;
    double cg_residual; /* |b - A dv| / |b| when it stopped */
    /* substeps since the build whose solve did not converge (implicit.h:
     * cg_max_iterations reached, or its linearisations), and the step the
     * last of them was in (-1: none) */
    int64_t cg_unconverged, cg_unconverged_step;

    bool exploded;
    double exploded_time;  /* s, when exploded */
    unsigned torn_counted; /* the cloth's torn_generation when torn_any was counted (checks.c, any_torn) */
    bool torn_any;
    int64_t exploded_step;
    /* No explosion check: the solver steps on past where it would have
     * frozen, into huge and then non-finite positions. Only for the
     * screen's copy that shows an explosion going on (app/tui_blast.c);
     * false from solver_create, and not part of the state. */
    bool unchecked;

    /* The clock: time was clock_time at substep clock_substep of step
     * clock_step, when dt and substeps last changed (all 0 from a build).
     * Since then every step has been dt long and every substep dt/substeps,
     * so time needs no running sum. step_start_time: time when the current
     * step began (an explosion goes back to it). */
    double clock_time, step_start_time;
    int64_t clock_step;
    int clock_substep;

    /* the collider now */
    double sphere_center[3];

    /* interaction */
    int grabbed; /* particle index, or -1 */
    float grab_start[3], grab_target[3];
    float grab_velocity[3];

    /* scratch, allocated once in solver_create: the hot loop allocates nothing */
    float *fx, *fy, *fz;    /* force accumulators, N */
    float *jx, *jy, *jz;    /* Jacobi corrections */
    uint16_t *jacobi_count; /* links touching each particle */
    /* the strain limit's bookkeeping (relax.c, stage_strain_limit): when
     * each particle last moved, and when each structural link was last
     * found within the limit, counted in the limit's moves */
    uint32_t *limit_moved, *limit_checked;
    int structural_end;              /* one past the last structural link (cloth_create lists them first) */
    float *pull_x, *pull_y, *pull_z; /* springs: each link's pull on its first particle, N */
    uint8_t *pulls;                  /* and whether it pulls at all */
    /* springs: each link's constant (N/m) and dashpot coefficient (kg/s),
     * from the family constants and damping ratio below and the masses;
     * stale after a build or a load */
    float *link_k, *link_dashpot;
    struct Springs *springs;          /* the fast path's springs, direction by direction (springs.h) */
    struct StrainLimit *strain_limit; /* the fast path's strain limit, eight rows at a time (strain_limit.h) */
    uint32_t *rope_order;             /* a rope's links in the order its passes visit them (relax.c), or NULL */
    float dashpot_spring[LINK_FAMILY_COUNT], dashpot_zeta;
    bool dashpots_stale;
    unsigned dashpot_version; /* goes up each time link_k and link_dashpot are worked out (implicit reads them then) */
    uint32_t *link_order;     /* the order links are visited in */
    float *lambda;            /* XPBD multipliers, one per link */
    float *good_x, *good_y, *good_z;                /* positions at the start of the step */
    float *blown_x, *blown_y, *blown_z;             /* once exploded: the positions the explosion was found at (the
                                                      cloth is put back to the last good step; these are drawn) */
    float *wind_x_at, *wind_z_at;                   /* wind at each particle this substep, m/s */
    float *wind_cell_x, *wind_cell_y, *wind_cell_z; /* wind force a cell gives each corner it pushes, N */
    /* turbulence (forces.c, forces_setup_turbulence): wave w's spatial phase at
     * column c is kx u, at row r ky v; the tables hold their cosines and
     * sines ([w * cols + c], [w * rows + r]), and wave_p / wave_q each
     * row's factors this substep (wave_factors) */
    float *wave_col_cos, *wave_col_sin;
    double *wave_row_cos, *wave_row_sin;
    float *wave_p, *wave_q;
    double wave_kx[2 * SOLVER_TURBULENCE_WAVES], wave_ky[2 * SOLVER_TURBULENCE_WAVES]; /* 1/m */
    double wave_omega[2 * SOLVER_TURBULENCE_WAVES];
    double wave_phase[2 * SOLVER_TURBULENCE_WAVES];
    double wave_amplitude[2 * SOLVER_TURBULENCE_WAVES];
    SelfCollision *self_collision; /* its spatial hash */
    struct Implicit *implicit;     /* implicit: the solve's scratch and its last answer (implicit.h) */
    /* the fast path's functions (fast_table.h; src/fast/), as installed
     * when the solver was made, and its state for this cloth; NULL, NULL:
     * the plain code */
    const struct FastTable *fast;
    struct RelaxFast *relax_fast;
    uint32_t *colour_order; /* order=colored: the links in that order (colour.h) */
    int threads;            /* threads the fast pass runs on: solver_set_threads */
    bool threads_adapt;     /* and as many as the idle cores: solver_start_threads */
    bool plain_relax;       /* the plain code even with a table: the reference tests and bench compare with */
    uint64_t rng;
    double rest_extent; /* largest rest span of the cloth, m */
} Solver;

/* The squared length of a link and the moves of its ends are fused
 * multiply-adds (fmaf: one rounding, where a product then a sum round
 * twice). Every kernel of the fast path does the same (an FMA
 * instruction), so the bits stay the plain loop's; on AVX-512 that is 8
 * operations of some 38 a link fewer, and the sequential order's walk
 * shorter (src/fast/README.md). fmaf is
 * exact everywhere, in hardware or not, so the bits do not depend on the
 * machine.
 *
 * A function that calls fmaf in a loop: on x86, one copy for processors
 * with the FMA instructions (fmaf inline there) and one for the others
 * (fmaf a call to the C library, the same bits, slower), chosen at start. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define SOLVER_FUSED_LOOP __attribute__((target_clones("fma", "default")))
#else
#define SOLVER_FUSED_LOOP
#endif
/* The link functions below, inlined into both copies of such a loop. */
#ifdef __GNUC__
#define SOLVER_INLINE static inline __attribute__((always_inline))
#else
#define SOLVER_INLINE static inline
#endif

/* One link's correction in a relaxation pass (Jakobsen, PBD, XPBD): the
 * displacement of its first end per unit of inverse mass, along the vector
 * d from its first end to its second (the second end moves the other way).
 * k: the family's stiffness in this pass; xpbd: alpha (compliance / h^2)
 * and the link's multiplier, updated; share: the part of the multiplier's
 * step the link takes (1 but under order=jacobi, see project_links). False,
 * changing nothing, where the
 * link takes no part: torn, both ends fixed, or no length. The plain loop
 * and the fast path (src/fast/relax_fast_internal.h, relax_kernels_*.c) both call
 * this, or do its arithmetic operation for operation. */
SOLVER_INLINE bool solver_link_correction(const Cloth *c, uint32_t l, float k, float alpha, bool xpbd, float share,
                                          float *lambda, float *scale, float d[3])
{
    if (c->torn[l])
        return false;
    uint32_t a = c->link_a[l], b = c->link_b[l];
    float w = c->inv_mass[a] + c->inv_mass[b];
    if (w == 0.0f)
        return false;
    d[0] = c->x[b] - c->x[a], d[1] = c->y[b] - c->y[a], d[2] = c->z[b] - c->z[a];
    float length = sqrtf(fmaf(d[2], d[2], fmaf(d[1], d[1], d[0] * d[0]))); /* SOLVER_FUSED */
    if (length < 1e-12f)
        return false;
    float error = length - c->rest_length[l];
    if (xpbd) {
        float alpha_link = alpha * c->rest_length[l];
        float dlambda = share * ((-error - alpha_link * *lambda) / (w + alpha_link));
        *lambda += dlambda;
        *scale = -dlambda / length;
    } else {
        *scale = k * error / (length * w);
    }
    return true;
}

/* x + r + step as a float nx and its remainder nr. The step goes to the
 * remainder first: x + step in double would already round a step of 1e-13
 * at 1.5 m (double resolves 2e-16 there) by a quarter of a percent, the
 * same way step after step. */
#define ADD_KEPT(x, r, step, nx, nr)                                                                                   \
    do {                                                                                                               \
        double t_ = (double)(r) + (step);                                                                              \
        (nx) = (float)((double)(x) + t_);                                                                              \
        (nr) = ((double)(x) - (double)(nx)) + t_;                                                                      \
    } while (0)

/* Particle i moved by factor * d, kept as the integrators keep a step. */
SOLVER_INLINE void solver_move_kept(Cloth *c, uint32_t i, double factor, const float d[3])
{
    float x = c->x[i], y = c->y[i], z = c->z[i];
    ADD_KEPT(x, c->rx[i], factor * d[0], c->x[i], c->rx[i]);
    ADD_KEPT(y, c->ry[i], factor * d[1], c->y[i], c->ry[i]);
    ADD_KEPT(z, c->rz[i], factor * d[2], c->z[i], c->rz[i]);
}

/* Particle i moved by m d, each coordinate with one rounding (fmaf). */
SOLVER_INLINE void solver_move_fused(Cloth *c, uint32_t i, float m, const float d[3])
{
    c->x[i] = fmaf(m, d[0], c->x[i]), c->y[i] = fmaf(m, d[1], c->y[i]), c->z[i] = fmaf(m, d[2], c->z[i]);
}

/* One link's turn in a Gauss-Seidel pass (sequential, shuffled, colored):
 * its correction, both ends moved by their share, in float or, with kept
 * (substeps below SOLVER_KEEP_BELOW), as x + r. Nothing where the family's
 * stiffness k is 0 or the link takes no part. The plain loop and the
 * fast path's sequential schedule (src/fast/relax_schedule.c) both call this. */
SOLVER_INLINE void solver_relax_link(Cloth *c, uint32_t l, float k, float alpha, bool xpbd, bool kept, float *lambda)
{
    float scale, d[3];
    if (k <= 0.0f || !solver_link_correction(c, l, k, alpha, xpbd, 1.0f, lambda, &scale, d))
        return;
    uint32_t a = c->link_a[l], b = c->link_b[l];
    float wa = c->inv_mass[a], wb = c->inv_mass[b];
    if (kept) {
        solver_move_kept(c, a, wa * (double)scale, d);
        solver_move_kept(c, b, -wb * (double)scale, d);
        return;
    }
    solver_move_fused(c, a, wa * scale, d);
    solver_move_fused(c, b, -(wb * scale), d);
}

/* One link's turn in an order=jacobi pass: its share of its correction
 * from the positions the pass began with, 1 / n of it, n the larger of its
 * free ends' counts of links (jacobi_count, the links that take part at
 * each particle), added to the particles' sums jx / jy / jz (relax.c,
 * project_links, tells why). The plain loop and the fast path's schedule
 * both call this. */
SOLVER_INLINE void solver_jacobi_link(const Cloth *c, uint32_t l, float k, float alpha, bool xpbd,
                                      const uint16_t *jacobi_count, float *lambda, float *jx, float *jy, float *jz)
{
    uint32_t a = c->link_a[l], b = c->link_b[l];
    float wa = c->inv_mass[a], wb = c->inv_mass[b];
    int most = wa > 0.0f ? jacobi_count[a] : 0;
    if (wb > 0.0f && jacobi_count[b] > most)
        most = jacobi_count[b];
    float share = most > 0 ? 1.0f / (float)most : 1.0f;
    float scale, d[3];
    if (k <= 0.0f || !solver_link_correction(c, l, k, alpha, xpbd, share, lambda, &scale, d))
        return;
    if (!xpbd)
        scale *= share; /* xpbd's multiplier step took it already */
    jx[a] += wa * scale * d[0], jy[a] += wa * scale * d[1], jz[a] += wa * scale * d[2];
    jx[b] -= wb * scale * d[0], jy[b] -= wb * scale * d[1], jz[b] -= wb * scale * d[2];
}

/* The explosion check's link half (checks.c, blew_up): whether a
 * structural link not torn is over stretch times its rest length. The fast
 * path (src/fast/, fast_table.h's blew_up) does the same eight links at a time. */
bool solver_overstretched(const Cloth *cloth, float stretch);

/* The wind at particles from .. to - 1 into wind_x_at / wind_z_at: the
 * mean wind plus the gusts, from the rows' factors of this substep
 * (wave_p, wave_q). The fast path (src/fast/relax_fast.c) does the same eight at a
 * time. */
void solver_wind_field(Solver *solver, int from, int to);

/* The wind's force (forces.c tells the model): solver_wind_cells computes
 * it for cells from .. to - 1 (cell (col, row) is row * (cols - 1) + col)
 * into wind_cell_*, from wind_*_at and the velocities;
 * solver_wind_to_particles then adds to fx / fy / fz of particles from ..
 * to - 1 the share of each cell they are a corner of, always in the same
 * order. The plain loop calls both over everything; the fast path on the
 * threads' chunks of rows, all cells before any particle, eight at a time
 * where no triangle is torn with the same operations: the same bits. */
void solver_wind_cells(Solver *solver, int from, int to);
void solver_wind_to_particles(Solver *solver, int from, int to);

/* The integration and the velocity stages (the pipeline above) for
 * particles from .. to - 1: the plain loop runs them over every particle,
 * the fast path over its chunks, so each is written once. */
void solver_integrate_range(Solver *solver, int from, int to);
void solver_velocity_range(Solver *solver, bool strain_limited, int from, int to);

/* Builds the scene params describe and a solver for it. NULL when out of
 * memory or when the grid is too large (params_set refuses such values
 * already). Free with solver_destroy. */
Solver *solver_create(const Params *params);
void solver_destroy(Solver *solver);

/* Applies new settings. Live keys take effect at once; if a key that shapes
 * the cloth changed, the scene is rebuilt (as solver_reset). Returns false
 * when out of memory, leaving the old state. */
bool solver_set_params(Solver *solver, const Params *params);

/* Rebuilds the scene from the current params; time and step go back to 0. */
bool solver_reset(Solver *solver);

/* Advance one whole step (finishing any half-done substep first), one substep,
 * or one relaxation pass. With a force-based integrator a pass is a substep.
 * Nothing happens once exploded. */
void solver_step(Solver *solver);
void solver_substep(Solver *solver);
void solver_pass(Solver *solver);

/* A position-based integrator between substeps: starts the next substep up
 * to its prediction (KINEMATICS, FORCES, INTEGRATE), no pass yet (phase
 * PHASE_RELAXING, pass 0), so that what the passes move can be told from
 * what the prediction moved. solver_pass then runs pass 1, the same bits
 * as without it. Does nothing otherwise (mid-substep, force-based,
 * exploded). */
void solver_predict(Solver *solver);

/* Threads the fast path runs on (1..RELAX_FAST_MAX_THREADS, src/fast/; 1 with no table);
 * the results do not depend on it. Finishes a half-done substep first.
 * Returns false when threads or memory ran short (fewer threads then run). */
bool solver_set_threads(Solver *solver, int threads);
/* The threads the threads setting asks for: N, N threads; 0, as many as
 * this process has cores (fast_table.h, usable_cores), of which each job takes
 * no more than other programs leave idle (adapt). A large
 * cloth's passes are then shared among them. The results are the same bits
 * on any count; if threads cannot start, fewer run. solver_set_params
 * calls it again when the setting changes. */
void solver_start_threads(Solver *solver);

/* The solver's state as bytes: every value a step reads that an earlier
 * step or setting left behind (the settings, the cloth's particles and
 * links, the clock, the explosion, the shuffled order and its generator,
 * the grab), and nothing a step rewrites before it reads it (forces,
 * corrections, the wind). Two solvers whose states are the same bytes
 * step to the same bits, so a state can stand for its solver: the
 * checker remembers runs by them (lesson/run_cache.h). The state is whole
 * between steps (phase PHASE_BETWEEN_SUBSTEPS, substep 0): inside a step,
 * part of it is in scratch left out here. solver_state_size is how many
 * bytes solver_state_save writes; solver_state_load puts saved bytes back
 * into a solver whose cloth was built from the same settings that rebuild
 * it (params.h, EFFECT_REBUILD: the grid, the spacing, the seed of its
 * gusts), the live settings included. No allocation in any of the three. */
size_t solver_state_size(const Solver *solver);
void solver_state_save(const Solver *solver, unsigned char *out);
void solver_state_load(Solver *solver, const unsigned char *in);

/* The collider params describe, where it is now. */
void solver_collider(const Solver *solver, Collider *out);
/* The collider the cloth meets: solver_collider, or with dim = 2 the sphere's
 * section by the plane z = 0 (none when it does not reach the plane). */
void solver_contact_collider(const Solver *solver, Collider *out);

/* Mean |length - rest| / rest over the links that take part now. */
double solver_residual(const Solver *solver);

/* Whether the integrator projects constraints (jakobsen, pbd, xpbd). */
bool solver_is_position_based(int integrator);

/* Effective per-family values the solver uses now. */
float solver_family_stiffness(const Solver *solver, int family);  /* [0,1] */
float solver_family_spring(const Solver *solver, int family);     /* N/m */
float solver_family_compliance(const Solver *solver, int family); /* 1/N */

/* Estimated largest angular frequency of the springs times the substep:
 * Verlet and symplectic Euler are stable below 2 (Gershgorin bound). */
double solver_omega_dt(const Solver *solver);

/* Interaction (the front end's mouse and keys). */
void solver_pin(Solver *solver, int particle, bool pinned);
void solver_grab(Solver *solver, int particle);
void solver_grab_move(Solver *solver, float x, float y, float z); /* reached over the next step */
void solver_release(Solver *solver);                              /* keeps the velocity of the last move */
int solver_nearest_particle(const Solver *solver, float x, float y, float z);

#endif
