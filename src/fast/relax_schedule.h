/* relax_schedule.h - the sequential order, many links at a time.
 *
 * order=sequential visits the links as they are listed (cloth_create: the
 * families in blocks, each block row by row). Two links that share no
 * particle can be visited in either order, or at once, without changing a
 * bit of the result. A schedule keeps every pair that does share a particle
 * in its listed order and runs the rest together:
 *
 * - levels: a link's level is one more than the highest level of the
 *   links listed before it that share a particle with it. No two links of
 *   a level share a particle, and visiting the levels in turn keeps every
 *   such pair in its order. (The horizontal links of a row form a chain,
 *   one level each, the rows side by side; the vertical links of a row
 *   are one level, the next row the next; the shear links a wavefront.)
 * - threads: the rows are cut into one band per thread, and a link goes
 *   to the band of its top particle. A thread takes its links level by
 *   level; before a level it waits only where one of its links follows a
 *   link of another thread sharing a particle, and only until that thread
 *   is past that link's level. Every wait is for a lower level, so no two
 *   threads wait for each other.
 *
 * order=jacobi keeps the same pairs in order: its links read the positions
 * the pass began with and add to each particle's sum, in the listed order.
 *
 * relax_schedule_run gives the plain loop's bits (relax.c, project_links,
 * sequential and jacobi) whatever the thread count and the kernel level; test_fast.c
 * compares them. Nothing here allocates after relax_schedule_create. A
 * sequential pass goes through relax_helix.h's walk instead (the same
 * bits, faster: it knows the grid), at every level and thread count; this
 * schedule serves jacobi, and the sequential order where the walk's
 * buffers could not be had.
 */
#ifndef CLOTHSIM_RELAX_SCHEDULE_H
#define CLOTHSIM_RELAX_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cloth.h"
#include "relax_levels.h"

typedef struct RelaxSchedule RelaxSchedule;

/* The schedule of cloth's links in their listed order for `threads`
 * threads (1..RELAX_FAST_MAX_THREADS). NULL when out of memory. Free with
 * relax_schedule_destroy. */
RelaxSchedule *relax_schedule_create(const Cloth *cloth, int threads);
void relax_schedule_destroy(RelaxSchedule *schedule);

int relax_schedule_threads(const RelaxSchedule *schedule);
/* Levels: the longest chain of links that share particles, one after the
 * other, in the listed order. */
int relax_schedule_levels(const RelaxSchedule *schedule);

/* What a pass needs: the per-family stiffness and compliance / h^2 of
 * project_links, whether it is xpbd, whether corrections are kept as
 * remainders (substeps below SOLVER_KEEP_BELOW), and the kernel level. */
typedef struct RelaxPassConstants {
    float k[LINK_FAMILY_COUNT], alpha[LINK_FAMILY_COUNT];
    bool xpbd, kept;
    /* order=jacobi: corrections from the positions the pass began with,
     * added to jx / jy / jz (solver_jacobi_link) */
    bool jacobi;
    const uint16_t *jacobi_count;
    float *jx, *jy, *jz;
    RelaxFastKernels kernels;
} RelaxPassConstants;

/* Before a pass: reads which links are torn if they changed since the last
 * call (one thread, before the threads start). */
void relax_schedule_refresh(RelaxSchedule *schedule, const Cloth *cloth);

/* Thread t's share of one pass (all `threads` threads must run it, each
 * with its own t, and the same serial, a number that grows by one a pass). */
void relax_schedule_run(RelaxSchedule *schedule, Cloth *cloth, float *lambda, const RelaxPassConstants *pass, int t,
                        unsigned serial);

#endif
