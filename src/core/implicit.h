/* implicit.h - backward Euler's linear solve (Baraff and Witkin 1998).
 *
 * integrator=implicit moves the cloth by the velocity it will have at the
 * end of the substep, not the one it has at the start:
 *
 *   v1 = v0 + dv,  x1 = x0 + h v1,  with  M dv = h f(x1, v1)
 *
 * Taking the forces to first order about (x0, v0) gives one linear system a
 * substep,
 *
 *   (M - h D - h^2 K) dv = h (f0 + h K v0),
 *
 * K = df/dx and D = df/dv the springs' and dashpots' Jacobians. M - h D -
 * h^2 K is symmetric and, with K's part for compressed links left out
 * (implicit.c says why), positive definite, so conjugate gradients solve it,
 * preconditioned by each particle's 3 x 3 block of the matrix (block
 * Jacobi); they start from the last two substeps' dv (warm start), and stop
 * once the residual is below `tolerance` times the right-hand side or after
 * `max_iterations`. Particles with no inverse mass (pinned, held) keep
 * dv = 0: their rows are taken out of the system (Baraff and Witkin's
 * filter).
 *
 * One linearisation is Baraff and Witkin's step; it is backward Euler only
 * as far as the springs are linear over the substep. A link at its rest
 * length has no stiffness across it (its J's sideways part, k (1 - rest /
 * |d|), is 0), so a first linear solve lets a gust carry a row of particles
 * sideways past its pinned neighbours as if the links were not there: at
 * dt = 0.1 s the curtain's top links came out 48 % long. Newton's method
 * goes on: the springs are linearised again where the answer puts the
 * particles (there the links are stretched and do pull across) and solved
 * again, up to `linearisations` times, until the springs' linear model gets
 * no link's length at the answer wrong by more than IMPLICIT_MODEL_ERROR of
 * its rest length (each later system's b - A dv is backward Euler's own
 * residual h f(x1, v1) - M dv at the last answer).
 *
 * Nothing here allocates after implicit_create.
 */
#ifndef CLOTHSIM_IMPLICIT_H
#define CLOTHSIM_IMPLICIT_H

#include <stdbool.h>
#include <stdint.h>

#include "cloth.h"

typedef struct Implicit Implicit;

/* Scratch for the cloth's grid (its links' particles and rest lengths are
 * read here once: they never change). NULL when out of memory. */
Implicit *implicit_create(const Cloth *cloth);
void implicit_destroy(Implicit *im);

/* The last solve's answer, one array a coordinate (m/s): each particle's
 * dv (a saved state writes it back). Zero from implicit_create, and after
 * a substep with nothing to solve (no force, no motion). */
double *implicit_dv(Implicit *im, int coordinate);
/* The substep's before that: the warm start goes on from the two. */
double *implicit_dv_before(Implicit *im, int coordinate);

/* The links' springs and dashpots. */
typedef struct ImplicitLinks {
    const uint8_t *torn;  /* 1 where the link has broken (it takes no part) */
    const float *k;       /* spring constant, N/m (0: no spring) */
    const float *dashpot; /* dashpot coefficient, kg/s */
    /* change whenever torn, k or dashpot do (the cloth's torn_generation
     * and the solver's count of its springs' constants): the solve reads
     * the three arrays again only then */
    unsigned torn_generation, constants_version;
} ImplicitLinks;

typedef struct ImplicitResult {
    int iterations;     /* conjugate-gradient iterations taken, over every linearisation */
    double residual;    /* |b - A dv| / |b| of the last linear system at the end (0 when b is 0) */
    int linearisations; /* linear systems solved (1: Baraff and Witkin's step alone) */
    bool converged;     /* the last linear solve reached the tolerance, and (linearisations
                           > 1 allowed) the springs' model was within IMPLICIT_MODEL_ERROR */
} ImplicitResult;

/* Newton's steps a substep at most (implicit_solve's linearisations), and
 * the strain the springs' linear model may get wrong at the answer before
 * one more is taken (0.1 %: the solve's answer strains each link to
 * within that of what the springs at its answer would say). */
#define IMPLICIT_LINEARISATIONS 16
#define IMPLICIT_MODEL_ERROR 1e-3

/* Solves the system above for cloth c, the forces f other than the links'
 * (N, per particle: gravity and wind) and substep h, linearised up to
 * `linearisations` times (>= 1). The springs' and dashpots' forces are
 * added here, in double, from the same lengths and directions as their
 * Jacobians. */
ImplicitResult implicit_solve(Implicit *im, const Cloth *c, const float *const f[3], const ImplicitLinks *links,
                              double h, double tolerance, int max_iterations, int linearisations);

/* A spring's stiffness block J = d f_a / d x_b for the vector d from a to
 * b, rest length rest and constant k: k (n n^T + (1 - rest / |d|) (I -
 * n n^T)), n = d / |d|, written as along n n^T + across I. The force on a
 * is k (|d| - rest) n, so J is also -d f_a / d x_a, and f_b's are the
 * opposite. definite: the sideways term only where the link is stretched
 * (what the solve uses); false: the exact derivative. */
typedef struct ImplicitSpring {
    double n[3];
    double along, across;
    double tension;    /* k (|d| - rest) / |d|: the spring's force on a is tension d (0 for no length) */
    double inv_length; /* 1 / |d| (0 for no length) */
} ImplicitSpring;
ImplicitSpring implicit_spring(const double d[3], double rest, double k, bool definite);

#endif
