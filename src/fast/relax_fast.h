/* relax_fast.h - the fast path: the stages of a step (every order's
 * relaxation passes but shuffled's, the forces, integration, contact,
 * velocity, the explosion check) vectorised at the instruction-set level
 * the processor has and on several threads, with the plain code's bits.
 * The solver calls it through core's table (core/fast_table.h), which the
 * program fills from relax_fast_table at start; README.md beside this file
 * tells the design and the figures.
 *
 * The colored order (core/colour.h) splits the grid's links into
 * RELAX_FAST_COLOURS fixed colours (groups in which no two links share a
 * particle) and the rows into bands, and a relaxation pass visits them
 * band by band, colour by colour. relax_fast_order gives that order link
 * by link; the plain loop in relax.c (project_links) walking it is the
 * readable reference. relax_fast_pass does the same pass with the same float operations, eight
 * links at a time (AVX2) or sixteen (AVX-512), chosen at run time, with a
 * portable fallback, and on several threads: the results are the same bits
 * as the plain loop, whatever the thread count and whichever code path runs.
 * relax_fast.c opens with why that is and why it is faster.
 *
 * Nothing here allocates or prints after relax_fast_create; the worker
 * threads are started there and stopped in relax_fast_destroy.
 */
#ifndef CLOTHSIM_RELAX_FAST_H
#define CLOTHSIM_RELAX_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cloth.h"
#include "core/collide.h"
#include "core/colour.h"
#include "core/fast_table.h"
#include "core/level.h"
#include "relax_levels.h"

struct Solver;

/* The colored order's colours and bands (core/colour.h). */
#define RELAX_FAST_COLOURS COLOUR_COUNT
#define RELAX_FAST_BAND_ROWS COLOUR_BAND_ROWS

typedef struct RelaxFast RelaxFast;

/* Colours cloth's links and starts threads - 1 worker threads (threads is
 * clamped to 1..RELAX_FAST_MAX_THREADS; fewer run if the system refuses
 * some). NULL when out of memory. The cloth must keep its grid (it always
 * does: links are fixed at cloth_create). Free with relax_fast_destroy. */
RelaxFast *relax_fast_create(const Cloth *cloth, int threads);
void relax_fast_destroy(RelaxFast *fast);

/* Threads started, the caller's included: the most a pass runs on. */
int relax_fast_threads(const RelaxFast *fast);

/* From now on each job runs on no more of the threads than the cores that
 * other programs leave idle, measured ten times a second (relax_pool_watch;
 * one thread for the first 0.2 s): on a machine whose other cores are
 * busy, threads that wait for each other within microseconds would wait a
 * time slice each time instead. The results are the same bits whatever the
 * count. False if the watching thread cannot start (every job then takes
 * every thread). */
bool relax_fast_adapt(RelaxFast *fast);

/* Tests: from now on each job takes `threads` of the threads started (at
 * most all), as relax_fast_adapt's watcher may choose between any two
 * jobs; 0: as before. */
void relax_fast_take_threads(RelaxFast *fast, int threads);

/* The cores this process may run on (its affinity: taskset, a container's
 * cpuset), 1 to RELAX_FAST_MAX_THREADS: the threads worth starting. */
int relax_fast_usable_cores(void);

/* The colored order: every link index once, in groups. A group is one
 * colour of one band of relax_fast_band_rows rows (the links whose top
 * particle is in the band): group g is order[group_start[g] ..
 * group_start[g + 1]), and no two of its links share a particle, so within
 * a group the order does not matter. The groups go band by band, colour by
 * colour within a band, the even bands first, then the odd ones; two bands
 * of the same parity share no particle (a band's links reach two rows
 * below it at most), so they can run at the same time. */
const uint32_t *relax_fast_order(const RelaxFast *fast);
int relax_fast_group_count(const RelaxFast *fast);
const int *relax_fast_group_start(const RelaxFast *fast);
int relax_fast_group_band(const RelaxFast *fast, int group);
int relax_fast_band_rows(const RelaxFast *fast);

/* Whether this CPU runs the vectorised kernels (AVX2), and the wider pass
 * kernels (AVX-512: 16 links at a time). */
bool relax_fast_cpu_has_simd(void);
bool relax_fast_cpu_has_wide(void);

/* The widest this CPU runs; whether it runs a level; a level's name
 * ("portable", "neon", "avx2", "avx512", as CLOTHSIM_KERNELS spells it),
 * and the level of a name (false: no such level). */
RelaxFastKernels relax_fast_cpu_kernels(void);
bool relax_fast_cpu_has(RelaxFastKernels kernels);
const char *relax_fast_kernel_name(RelaxFastKernels kernels);
bool relax_fast_kernels_named(const char *name, RelaxFastKernels *kernels);

/* The level every RelaxFast made from now on uses (the default: the widest
 * the CPU has); one the CPU lacks is clamped to the widest it has. main
 * sets it once at start, from CLOTHSIM_KERNELS. It sets core's own loops'
 * level too (core/level.h: relax_fast_core_level of it), so that a forced
 * level reaches every vectorised loop of a step. */
void relax_fast_set_default_kernels(RelaxFastKernels kernels);
RelaxFastKernels relax_fast_default_kernels(void);
/* The level of core's own loops that goes with a fast path's level:
 * portable and NEON the baseline (core's loops have x86 builds only). */
CoreLevel relax_fast_core_level(RelaxFastKernels kernels);

/* Use the kernels of this level, or where the CPU lacks it the widest
 * below it that it has (NEON: portable); the default is
 * relax_fast_default_kernels. Every level gives the same bits; tests and
 * the benchmark compare them. May allocate (the sequential walk's buffers
 * are laid out for a level's lanes). */
void relax_fast_use_kernels(RelaxFast *fast, RelaxFastKernels kernels);

/* The level fast uses (what relax_fast_use_kernels made of its request). */
RelaxFastKernels relax_fast_kernels(const RelaxFast *fast);

/* Tests: the sequential order's passes on several threads cut at places
 * drawn from `seed` (relax_helix_cut_anywhere); 0: as fast as can be. */
void relax_fast_cut_anywhere(RelaxFast *fast, unsigned seed);

/* One relaxation pass of solver's cloth in the colored order, then contact:
 * the same arithmetic, in effect the same order, as project_links followed
 * by stage_collide(solver, false, false) in collide.c. k and alpha are
 * project_links' per-family stiffness and compliance / h^2. */
void relax_fast_pass(RelaxFast *fast, struct Solver *solver, const float k[LINK_FAMILY_COUNT],
                     const float alpha[LINK_FAMILY_COUNT]);

/* relax_fast_pass `passes` times, as one job: no thread waits for all the
 * others between passes, only for the bands next to the one it takes.
 * Returns false, doing nothing, where the contact cannot run inside the
 * job (the floor, or a collider other than the sphere): then call
 * relax_fast_pass. */
bool relax_fast_passes(RelaxFast *fast, struct Solver *solver, const float k[LINK_FAMILY_COUNT],
                       const float alpha[LINK_FAMILY_COUNT], int passes);

/* The loop over the links of a relaxation pass in the sequential order,
 * or jacobi's (project_links in relax.c, which does the rest): a
 * sequential pass in one walk as relax_helix.h does (on one thread, or cut
 * among several), jacobi's on the schedule relax_schedule.h describes: the
 * plain loop's bits on any number of threads and at every kernel level.
 * kept: corrections kept as remainders (below SOLVER_KEEP_BELOW); jacobi:
 * the corrections go to the solver's jx / jy / jz. */
void relax_fast_sequential(RelaxFast *fast, struct Solver *solver, const float k[LINK_FAMILY_COUNT],
                           const float alpha[LINK_FAMILY_COUNT], bool kept, bool jacobi);

/* `passes` passes of the sequential order, each followed by contact, as
 * project_links and stage_collide(solver, false, false) do them (kept:
 * corrections kept as remainders), through relax_helix.h's buffer (copied in once and back once; on
 * several threads each pass cut into a piece a thread). Returns false,
 * doing nothing, where it cannot: contact other than the sphere's (then
 * pass by pass), or no walk (out of memory). */
bool relax_fast_sequential_passes(RelaxFast *fast, struct Solver *solver, const float k[LINK_FAMILY_COUNT],
                                  const float alpha[LINK_FAMILY_COUNT], int passes, bool kept);

/* stage_forces (forces.c) but the springs: every particle's gravity and,
 * if windy, the wind field (solver_wind_field, from the rows' factors of
 * this substep) and the wind's force: solver_wind_cells, then
 * solver_wind_to_particles, on the threads' rows, so the bits are
 * add_wind's. Returns false, doing nothing, where it cannot (no AVX2, or
 * not the grid's triangles). */
bool relax_fast_forces(RelaxFast *fast, struct Solver *solver, float gravity, bool windy);

/* blew_up's verdict (checks.c) eight coordinates and eight links at a time:
 * a coordinate not finite, a bounding box side over allowed (m), or a
 * structural link over stretch times its rest length. 1 or 0, or -1 when it
 * cannot tell (no AVX2): then ask blew_up. */
int relax_fast_blew_up(RelaxFast *fast, const Cloth *cloth, float allowed, float stretch);

/* collide_points (collide.c) for a sphere, eight particles at a time, same
 * bits: the contact with friction at the end of a substep. Returns false,
 * doing nothing, where it cannot (no AVX2, another shape, or fix_velocity). */
bool relax_fast_sphere(RelaxFast *fast, Cloth *cloth, const Collider *sphere, float margin, float friction,
                       bool fix_velocity);

/* A per-particle stage of integrate.c (stage_range there): one function over
 * particles [from, to) that reads and writes only those particles. */
typedef FastRange RelaxFastRange;

/* range over every particle of solver's cloth, in chunks that the threads
 * take as they come (or by their bands of rows: relax_fast.c): the bits of
 * range(solver, 0, count). Returns false,
 * doing nothing, where the fast path does not run the stages (no AVX2, or a
 * force-based integrator): then the caller runs range over all. */
bool relax_fast_range(RelaxFast *fast, struct Solver *solver, RelaxFastRange range);

/* The end of a substep of jakobsen, pbd or xpbd as one job: the sphere
 * contact with friction (stage_collide), the loop of stage_velocity and
 * the explosion check (relax_fast_blew_up's verdict), chunk by chunk, so
 * that the threads go over the particles once instead of three times.
 * -1, doing nothing, where it cannot (no AVX2, another integrator, the
 * floor, edge samples, or a collider other than the sphere). */
int relax_fast_finish(RelaxFast *fast, struct Solver *solver, float allowed, float stretch);

/* The table of the functions above that the solver calls through
 * (core/fast_table.h): the program installs it once at start,
 * fast_table_install(relax_fast_table()). relax_table.c. */
const FastTable *relax_fast_table(void);

#endif
