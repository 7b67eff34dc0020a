/* strain_limit.h - Provot's strain limit, eight rows or columns at a time.
 *
 * The plain loop (relax.c, stage_strain_limit) visits the structural links
 * in the listed order pass after pass: the right links row by row, then the
 * down links row by row. A right link shares particles only with the right
 * links of its own row, a down link only with the down links of its own
 * column, so what a pass does to one row (or column) does not depend on
 * the others: eight rows can go down their links side by side, one row a
 * lane, and then eight columns, each lane doing the plain loop's operations
 * on its links in their order. The same moves, so the same bits.
 *
 * The right links work on a copy of the particles kept column by column
 * (eight rows of one column are next to each other), the down links on
 * one kept row by row; between the phases the particles are turned from
 * one into the other.
 *
 * Nothing here allocates after strain_limit_create.
 */
#ifndef CLOTHSIM_STRAIN_LIMIT_H
#define CLOTHSIM_STRAIN_LIMIT_H

#include <stdbool.h>

#include "cloth.h"

typedef struct StrainLimit StrainLimit;

/* The copies for a cloth of this size. NULL when out of memory. */
StrainLimit *strain_limit_create(const Cloth *cloth);
void strain_limit_destroy(StrainLimit *limit);

/* The plain loop's passes: every structural link longer than limit times
 * its rest length pulled back to inside times that, both particles moved
 * by inverse mass and the moves added to j (jx, jy, jz), pass after pass
 * until no link was over by more than tolerance or passes have run.
 * False, changing nothing, where it cannot (no AVX2, or the links are not
 * cloth_create's grid): then the plain loop must run. */
bool strain_limit_run(StrainLimit *limit, Cloth *cloth, float *jx, float *jy, float *jz, float stretch, float inside,
                      float tolerance, int passes);

#endif
