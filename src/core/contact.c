/* contact.c - the step's two contact stages, COLLIDE and SELF_COLLIDE:
 * the solver's collider (the scene's, cut to the plane in 2D) and the calls
 * into collide.c and selfcollide.c, or the fast path's sphere. Apart from
 * collide.c so that the contact there stays below the solver (scene.c and
 * the fast path use it too). */
#include <stddef.h>

#include "collide.h"
#include "scene.h"
#include "selfcollide.h"
#include "solver_internal.h"

/* Passes of the self-collision push per substep: a few settle a heap. */
#define SELF_COLLISION_PASSES 3

void solver_collider(const Solver *s, Collider *out)
{
    scene_collider(&s->params, s->sphere_center, out);
}

void solver_contact_collider(const Solver *s, Collider *out)
{
    solver_collider(s, out);
    if (s->params.dim == 2)
        collider_plane_section(out);
}

/* Contact, inside every relaxation pass (seed 001) and once more at the end
 * of the substep: particles pushed out of the collider to its surface plus
 * the margin (radially for the sphere, onto the nearest face of the box,
 * onto the side or base of the cone), optionally the points at 1/4, 1/2, 3/4
 * of every link too (seed 003), and the floor with its bounce (seed 002).
 * Friction is applied once a substep (with_friction): applied in every pass
 * it would compound into glue. fix_velocity: the integrator carries its own
 * velocity (euler, symplectic), which must lose its inward part too. */
void stage_collide(Solver *s, bool with_friction, bool fix_velocity)
{
    const Params *p = &s->params;
    Cloth *c = s->cloth;
    float margin = (float)p->margin, friction = with_friction ? (float)p->friction : 0.0f;
    Collider collider;
    solver_contact_collider(s, &collider);
    if (collider.shape != SHAPE_NONE) {
        if (!fast_path(s) || !s->fast->sphere(s->relax_fast, c, &collider, margin, friction, fix_velocity))
            collide_points(c, &collider, margin, friction, fix_velocity);
        if (p->edge_samples == 3)
            collide_edges(c, &collider, margin);
    }
    if (p->floor)
        collide_floor(c, (float)p->floor_y, margin, (float)p->restitution, friction);
    if (p->dim == 2) /* a box face or cone side may still push along z: the plane wins */
        for (int i = 0; i < c->count; i++)
            c->z[i] = 0.0f, c->pz[i] = 0.0f, c->vz[i] = 0.0f;
}

/* Self-collision (seed 000 section 6): no particle moves more than the
 * thickness in a substep (so none can jump through a layer), then unlinked
 * particles closer than the thickness are pushed apart through a spatial
 * hash, with the contacts' friction in the first push (selfcollide.c says
 * why: the layers of a heap slid apart without it). */
void stage_self_collide(Solver *s)
{
    if (!s->params.self_collision || !s->self_collision)
        return;
    float thickness = (float)s->params.thickness;
    selfcollide_clamp_displacement(s->cloth, thickness);
    float friction = (float)s->params.self_friction;
    for (int k = 0; k < SELF_COLLISION_PASSES; k++)
        if (selfcollide_apply(s->self_collision, s->cloth, thickness, k == 0 ? friction : 0.0f) == 0)
            break;
}
