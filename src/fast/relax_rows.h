/* relax_rows.h - the sequential order's pass, family by family, sixteen
 * rows or sixteen columns a vector (AVX-512). Since relax_helix.h walks
 * every family at once, this serves a single pass on several threads
 * (the step-by-step modes, a traced residual, contact the walk cannot
 * do: the floor, the box, the cone, edge samples).
 *
 * order=sequential visits the links as cloth_create lists them: every
 * horizontal structural link, row by row, then the vertical ones, the
 * shear links cell by cell, the horizontal bend links, the vertical ones.
 * Two links that share no particle can be visited in either order without
 * changing a bit, so any order that keeps every pair that does share one
 * gives the plain loop's bits. relax_schedule.c finds such an order for
 * any list; this one knows the grid, and lays each family out so that a
 * vector's sixteen lanes are sixteen links that share nothing:
 *
 * - vertical families: a row of links at a time, sixteen columns a vector,
 *   straight from the row-major particles (the rows one after the other);
 * - horizontal families: a row is a chain, but the rows are independent:
 *   a strip of sixteen rows is copied into a small buffer with the rows as
 *   lanes (a 16 x 16 transpose in registers), walked column by column, and
 *   copied back;
 * - shear: the same with each row shifted two columns right of the one
 *   above it (a skewed strip): a step then does cell (r, c) of every row r
 *   of the strip, with c two columns less a row down, which keeps each
 *   cell after the three cells above it that it shares particles with.
 *
 * relax_rows_run gives the plain loop's bits (solver.c, project_links,
 * sequential, corrections in float) on any number of threads (one takes
 * relax_helix.h instead); test_fast.c
 * compares them. Only where the processor has AVX-512 (relax_rows_usable);
 * elsewhere relax_schedule.c runs the pass. Nothing here allocates after
 * relax_rows_create.
 */
#ifndef CLOTHSIM_RELAX_ROWS_H
#define CLOTHSIM_RELAX_ROWS_H

#include <stdbool.h>

#include "core/cloth.h"
#include "relax_schedule.h"

typedef struct RelaxRows RelaxRows;

/* Whether this processor runs these kernels (AVX-512 F, DQ, BW and VL). */
bool relax_rows_usable(void);

/* The layouts of cloth's grid for up to `threads` threads (1 ..
 * RELAX_FAST_MAX_THREADS). NULL when out of memory or where the kernels
 * cannot run (relax_rows_usable). Free with relax_rows_destroy. */
RelaxRows *relax_rows_create(const Cloth *cloth, int threads);
void relax_rows_destroy(RelaxRows *rows);

/* Before a pass, on one thread: reads the rest lengths and which links are
 * torn if the links tore since the last call. */
void relax_rows_refresh(RelaxRows *rows, const Cloth *cloth);

/* Which of `threads` threads has `row` of the cloth in relax_rows_run
 * (its bands' rows: 32 to 48 of them, every other band on two threads). */
int relax_rows_owner(const RelaxRows *rows, int row, int threads);

/* Thread t's share of one pass on `threads` threads, 2 or more (each
 * must run it, with the same serial, a number that grows by one a pass;
 * the threads wait for each other where their rows meet, nowhere else). For the
 * passes relax_schedule_run would do with pass->kept and pass->jacobi
 * false. */
void relax_rows_run(RelaxRows *rows, Cloth *cloth, float *lambda, const RelaxPassConstants *pass, int t, int threads,
                    unsigned serial);

#endif
