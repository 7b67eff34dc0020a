/* relax_helix.h - the sequential order's passes, all five families of
 * links in one walk, a row a lane: sixteen rows a vector at the AVX-512
 * level, eight at AVX2, four at NEON and portable.
 *
 * Run family by family (as the AVX-512 kernels since removed did, see
 * src/fast/README.md), a pass must copy strips of rows into lanes and
 * back for each family that goes along the rows. Here the cloth is
 * copied once into a buffer where lane j holds rows j, j + L, j + 2 L ...
 * one after the other (L lanes) (a helix: each row two columns behind the
 * one above it), every family's links are walked
 * together through it, a period or two of keys apart, and the passes of a
 * substep (with the sphere's push after each) run in that buffer before
 * it is copied back; on one thread, two passes at once, the second some
 * three periods of keys behind the first; on several threads, each thread
 * walks a piece of every pass, the pieces of a pass one after the other.
 * relax_helix_walk.h is the walk, written once over relax_lanes.h's
 * vectors, and tells why the bits are the plain loop's; each level's file
 * (relax_helix_avx512.c, _avx2.c, _neon.c, _portable.c) builds it with its
 * own flags. Nothing here allocates after relax_helix_create.
 */
#ifndef CLOTHSIM_RELAX_HELIX_H
#define CLOTHSIM_RELAX_HELIX_H

#include "core/cloth.h"
#include "core/collide.h"
#include "relax_levels.h"
#include "relax_schedule.h"

typedef struct RelaxHelix RelaxHelix;

/* One level's walk (relax_helix_walk.h built for it): what the functions
 * below call. */
typedef struct RelaxHelixLevel {
    void *(*create)(const Cloth *cloth);
    void (*destroy)(void *walk);
    void (*run)(void *walk, Cloth *cloth, float *lambda, const RelaxPassConstants *pass, int passes,
                const Collider *sphere, float margin, int t, int threads, unsigned serial);
    void (*cut_anywhere)(void *walk, unsigned seed);
} RelaxHelixLevel;

/* The walk of a kernel level (relax_fast.h), NULL where this build has
 * none. Whether the processor runs it is the caller's to know
 * (relax_fast_cpu_has). */
const RelaxHelixLevel *relax_helix_level(RelaxFastKernels kernels);

/* The buffers for cloth's grid, walked by `level`'s kernels; NULL when out
 * of memory. Free with relax_helix_destroy. */
RelaxHelix *relax_helix_create(const Cloth *cloth, const RelaxHelixLevel *level);
void relax_helix_destroy(RelaxHelix *helix);

/* The level helix was made for. */
const RelaxHelixLevel *relax_helix_walks(const RelaxHelix *helix);

/* The most passes relax_helix_run takes at once, and the most threads. */
#define RELAX_HELIX_MAX_PASSES 512
#define RELAX_HELIX_MAX_THREADS 16

/* The least float whose correctly rounded square root is not below
 * 1e-12f, solver_link_correction's shortest length: sqrtf(s) < 1e-12f
 * exactly where s < this, for every s >= 0, infinity and NaN
 * (sqrtf is monotonic: fast/the_walk_asks_the_shortest_length_of_its_square
 * checks the float below it and it). */
#define RELAX_HELIX_SHORTEST_SQUARED 0x1.357c28p-80f

/* Thread t's share of `passes` passes of order=sequential over cloth
 * (pass->jacobi false; pass->kept: corrections kept as remainders, as
 * solver_relax_link keeps them) on `threads` threads, each of which
 * must call it with the same arguments and the same serial, a number that
 * grows by one a call. Each pass's walk is cut into one piece a thread:
 * thread t walks piece t of every pass, once thread t - 1 has finished
 * piece t - 1 of it and the pass before is some three periods of keys
 * ahead; the cuts follow how fast each thread was in the runs before.
 * After each pass, the push of `sphere` (NULL: none) with `margin` and no
 * friction, as sphere_push does it. The plain loop's bits on any number
 * of threads, wherever the cuts fall. lambda: xpbd's multipliers, by link.
 * The copies in and back are shared among the threads. */
void relax_helix_run(RelaxHelix *helix, Cloth *cloth, float *lambda, const RelaxPassConstants *pass, int passes,
                     const Collider *sphere, float margin, int t, int threads, unsigned serial);

/* Tests: from now on, cut each run's passes at places drawn from `seed`
 * (the families' first and last steps among them) instead of by speed;
 * 0 goes back. The bits must not change. */
void relax_helix_cut_anywhere(RelaxHelix *helix, unsigned seed);

#endif
