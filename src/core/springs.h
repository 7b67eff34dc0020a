/* springs.h - the force-based integrators' springs, direction by direction.
 *
 * The plain loop (forces.c, add_springs) works out each link's pull, then
 * adds it to its two particles link after link in the listed order. Its
 * first half fetches both particles of every link from wherever they are
 * (eight at a time, but by gather), its second half adds to them one link
 * at a time: about 70 instructions a link, most of a substep's work.
 *
 * The grid's links come in six directions (cloth_create): right, down, the
 * two diagonals, and right and down skipping one particle. Keyed by its
 * first particle, a direction's links are one array the size of the cloth,
 * and the second particles are that array moved by a fixed offset, so a
 * direction's pulls are worked out with plain vector loads. Each particle
 * then collects its pulls itself, in the listed order: the list holds the
 * families in blocks and each family row by row, so for any particle the
 * order is fixed (springs.c spells it out). The same operations on the same
 * numbers in the same order as the plain loop: the same bits.
 *
 * Nothing here allocates after springs_create.
 */
#ifndef CLOTHSIM_SPRINGS_H
#define CLOTHSIM_SPRINGS_H

#include <stdbool.h>

#include "cloth.h"

typedef struct Springs Springs;

/* The arrays for a cloth of this size. NULL when out of memory. */
Springs *springs_create(const Cloth *cloth);
void springs_destroy(Springs *springs);

/* The links' constants changed (link_k, link_dashpot: new settings, new
 * masses, a loaded state): springs_add takes them again before its next
 * sum. Torn links it notices itself (the cloth's torn_generation). */
void springs_stale(Springs *springs);

/* Adds every spring's pull to f (fx, fy, fz), as the plain loop does:
 * link_k and link_dashpot are each link's constant and dashpot coefficient
 * (forces.c, link_dashpots). False, changing nothing, if the cloth's links
 * are not cloth_create's grid (then the plain loop must run). */
bool springs_add(Springs *springs, const Cloth *cloth, const float *link_k, const float *link_dashpot, float *fx,
                 float *fy, float *fz);

#endif
