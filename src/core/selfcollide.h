/* selfcollide.h - the cloth against itself: particles keep a thickness apart.
 *
 * Source document 000, section 6 (README, "Sources"): naive pair tests cost
 * O(n^2); a spatial hash finds the close pairs in expected O(n); limiting
 * each point's displacement per step to a fraction of the thickness keeps a
 * point from jumping through the cloth between two tests.
 *
 * Which pairs are exempt: two particles within two grid steps of each other
 * (|column difference| <= 2 and |row difference| <= 2). That covers every
 * pair a link joins (structural 1, shear 1+1, bend 2), whose distance the
 * links already govern: pushing them apart too would fight the links and
 * stop the cloth from wrinkling. It is decided from the indices alone, so it
 * costs no memory; the price is that a few unlinked near neighbours (e.g.
 * one column and two rows apart) are exempt as well, and that neighbours
 * stay exempt after the link between them tears. The nearest pairs that are
 * not exempt lie three grid steps apart at rest, so thickness must stay well
 * under three spacings (about one spacing is the useful range).
 *
 * Units: metres.
 */
#ifndef CLOTHSIM_SELFCOLLIDE_H
#define CLOTHSIM_SELFCOLLIDE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "cloth.h"

/* The spatial hash and its scratch, sized once for one cloth's particle
 * count: the per-call functions allocate nothing. */
typedef struct SelfCollision SelfCollision;

/* Allocates the hash for cloth (the table holds the smallest power of two
 * >= 2 * particles). NULL when out of memory. Free with selfcollide_destroy;
 * it stays valid for any cloth of the same particle count. */
SelfCollision *selfcollide_create(const Cloth *cloth);
void selfcollide_destroy(SelfCollision *sc);

/* Whether particles i and j are never pushed apart (see above). */
static inline bool selfcollide_exempt(const Cloth *cloth, int i, int j)
{
    int dc = i % cloth->cols - j % cloth->cols, dr = i / cloth->cols - j / cloth->cols;
    return abs(dc) <= 2 && abs(dr) <= 2;
}

/* Rebuilds the hash (cell size = thickness, m, > 0), then pushes every pair
 * of non-exempt particles closer than thickness apart to exactly thickness
 * along their separation, shared by inverse mass (a pair of pinned particles
 * stays; an exactly coincident pair has no direction and is left). Pairs are
 * visited in a fixed order (by the lower index, then by cell), each
 * correction seen by the next: the same input gives the same bits. Returns
 * the number of pairs corrected. Positions only, like the links. friction
 * (0 to 1): the fraction of each corrected pair's sliding (its relative move
 * since px, across their separation) taken away too, shared by inverse
 * mass; 0 for none. */
int selfcollide_apply(SelfCollision *sc, Cloth *cloth, float thickness, float friction);

/* Rebuilds the hash and lists the non-exempt pairs closer than thickness
 * without moving anything: up to capacity pairs (lower index first) go to
 * pairs, which may be NULL when capacity is 0. Returns how many pairs there
 * are in all. */
int selfcollide_find_pairs(SelfCollision *sc, const Cloth *cloth, float thickness, uint32_t (*pairs)[2], int capacity);

/* The smallest distance (m) between two non-exempt particles, searched up to
 * `range` (m, > 0): `range` when no pair is closer. The self-collision
 * metric: the distance rule holds when this is at least the thickness. */
float selfcollide_min_distance(SelfCollision *sc, const Cloth *cloth, float range);

/* Anti-tunnelling clamp: shortens the displacement since the substep start
 * (x - px) of every free particle to at most max_step (m), e.g. half the
 * thickness, so that no particle crosses a layer between two tests. */
void selfcollide_clamp_displacement(Cloth *cloth, float max_step);

#endif
