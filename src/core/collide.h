/* collide.h - solid colliders (sphere, box, cone), the floor, and contact.
 *
 * Contact is positional, as in every seed: a particle found inside a collider
 * (or closer to it than a margin) is projected onto the surface plus the
 * margin, inside each relaxation pass (seed 001: radial projection onto the
 * sphere with a margin of 0.15 units). Points alone are not enough: a link
 * whose two ends lie on either side of a box edge cuts the corner, so links
 * can also be sampled at 1/4, 1/2 and 3/4 (seed 003, collide_edges). The
 * floor bounces with restitution (seed 002, 0.3). See collide.c for the
 * measured numbers these remedies answer.
 *
 * Units: metres; y points up. Nothing here allocates or does I/O.
 */
#ifndef CLOTHSIM_COLLIDE_H
#define CLOTHSIM_COLLIDE_H

#include <stdbool.h>

#include "cloth.h"

typedef enum ColliderShape { SHAPE_NONE, SHAPE_SPHERE, SHAPE_BOX, SHAPE_CONE } ColliderShape;

/* One solid. Fields a shape does not use are ignored.
 *   sphere: center, radius (m).
 *   box:    an axis-aligned cube of edge `size` (m) centred at center.
 *   cone:   vertical axis through center; base disc of `radius` (m) at
 *           y = center[1], apex at center[1] + height (m, > 0). Solid,
 *           base included.
 *   none:   no solid: every point is far outside. */
typedef struct Collider {
    ColliderShape shape;
    float center[3]; /* m */
    float radius;    /* m: sphere, cone base */
    float size;      /* m: box edge */
    float height;    /* m: cone */
} Collider;

/* Signed distance (m) from (x, y, z) to the collider's surface: negative
 * inside. normal (may be NULL) receives the unit outward normal at the
 * nearest surface point: for a box the nearest face's, for a cone its side's
 * or its base's, whichever is nearer. Exact inside and, for these three
 * shapes, outside too. SHAPE_NONE gives a huge distance and normal +y. */
float collider_distance(const Collider *c, float x, float y, float z, float normal[3]);

/* A 2D cloth (dim = 2) lives in the plane z = 0 and meets only the section
 * of a sphere by that plane: a sphere becomes that disc, centred at z = 0 so
 * that its normals there have no z (none if it does not reach the plane).
 * Other shapes are left as they are. */
void collider_plane_section(Collider *c);

/* Projects every free particle (inv_mass > 0) closer than margin (m, >= 0)
 * to the surface, or inside it, out along the normal to exactly margin.
 * friction (0..1) removes that fraction of the tangential part of its
 * displacement since the substep start (x - px): position-based friction,
 * as in PBD. Called once per relaxation pass its effect compounds; pass a
 * per-pass value. With fix_velocity (integrators that carry velocity), the
 * velocity into the surface is removed and the tangential velocity scaled
 * by 1 - friction. Returns the number of particles in contact. */
int collide_points(Cloth *cloth, const Collider *c, float margin, float friction, bool fix_velocity);

/* Edge sampling (seed 003): the points at t = 1/4, 1/2, 3/4 of every intact
 * structural and shear link are tested too; a point inside margin (m) is
 * pushed out by d, which is handed to the link's ends weighted by t and by
 * inverse mass so that the sampled point moves by exactly d. Links with both
 * ends pinned are skipped. Positions only: the velocity follows from them in
 * the position-based integrators. Returns the number of samples pushed. */
int collide_edges(Cloth *cloth, const Collider *c, float margin);

/* The floor, a horizontal plane at floor_y (m). Free particles below
 * floor_y + margin are lifted onto it. One falling since the substep start is
 * reflected (seed 002): py is mirrored so that y - py is -restitution (0..1)
 * times the incoming y - py, and vy is set to -restitution times the
 * incoming vy. friction (0..1) removes that fraction of the horizontal
 * displacement since the substep start and of the horizontal velocity.
 * Returns the number of particles in contact. */
int collide_floor(Cloth *cloth, float floor_y, float margin, float restitution, float friction);

/* Penetration metric (m, >= 0): the deepest point of any intact structural
 * or shear link inside the collider's true surface (no margin), sampled at
 * samples_per_link (>= 2) evenly spaced points, the two ends included. */
float collide_penetration(const Cloth *cloth, const Collider *c, int samples_per_link);

/* The part of link l of cloth inside the collider's true surface (no
 * margin), for drawing where links cut it: returns the deepest of
 * samples_per_link (>= 2) evenly spaced points, the ends included (m, 0 when
 * none is inside, or the link is torn or a bend link, as
 * collide_penetration leaves them out), and writes into t0, t1 where along
 * the link (0 at link_a, 1 at link_b) the inside part begins and ends: the
 * first and last sample inside, each moved a few halvings towards the
 * surface. The colliders are convex, so the inside part is one piece. */
float collide_link_inside(const Cloth *cloth, const Collider *c, int l, int samples_per_link, float *t0, float *t1);

/* The same for the floor (m, >= 0): a plane, so the deepest point of a link
 * is one of its ends; every particle is measured. */
float collide_floor_penetration(const Cloth *cloth, float floor_y);

/* Pushes particle i of cloth out along the unit normal n by push (m), and
 * takes away friction times its sliding since the substep began. The one
 * contact response: collide_points and the fast path's sphere both use it,
 * so that they give the same bits. */
static inline void collide_push_out(Cloth *cloth, int i, const float n[3], float push, float friction)
{
    cloth->x[i] += push * n[0], cloth->y[i] += push * n[1], cloth->z[i] += push * n[2];
    if (friction > 0.0f) {
        float mx = cloth->x[i] - cloth->px[i], my = cloth->y[i] - cloth->py[i], mz = cloth->z[i] - cloth->pz[i];
        float along = mx * n[0] + my * n[1] + mz * n[2];
        cloth->x[i] -= friction * (mx - along * n[0]);
        cloth->y[i] -= friction * (my - along * n[1]);
        cloth->z[i] -= friction * (mz - along * n[2]);
    }
}

#endif
