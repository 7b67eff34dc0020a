/* collide.c - colliders, the floor, and positional contact (the step's
 * two contact stages that call them are contact.c's).
 *
 * References (the source documents, README "Sources"):
 * - Seed 001: collision runs inside every relaxation pass, and a point inside
 *   the sphere or closer than a margin (0.15 units in its demo) is projected
 *   radially onto the surface plus the margin. Here every shape works the
 *   same way through its signed distance: the box projects onto its nearest
 *   face, the cone onto its side or its base.
 * - Seed 003 measured why points alone are not enough: on a 2 m cloth of
 *   40 x 40 points (5 cm spacing) dropped on a box, a link whose ends lie on
 *   either side of an edge cuts the corner by 15.7 mm (32 mm at 24 x 24). A
 *   thicker margin brings that to 10 mm but floats the cloth 2.4 cm over
 *   every flat face. Sampling each link at 1/4, 1/2 and 3/4 and handing the
 *   correction to its two ends brought it to 0.34 mm at 40 x 40 with the
 *   flat faces untouched: collide_edges. (A plain PBD drape at 40 x 40 in
 *   tests/core/test_collide.c gives 16.9 mm points only and under 0.01 mm
 *   with edge sampling.) The limitation: samples lie a quarter link apart,
 *   so a link much longer than the corner's rounding by the margin can
 *   still cut it between two samples; the residual grows with the spacing.
 * - Seed 002: the floor clamps and reflects the stored previous position
 *   with restitution 0.3, so a point bounces instead of sticking.
 * Friction is position-based, as in PBD (Mueller et al. 2007): the
 * tangential part of the displacement over the substep is cut.
 */
#include "collide.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>

/* The distance reported by SHAPE_NONE: farther than any margin. */
#define FAR_AWAY 1e30f

/* Below this (m) a point is on an axis or a surface and a direction taken
 * from its offset would be noise: a fixed direction is used instead. */
#define TINY 1e-9f

static float sphere_distance(const Collider *c, float dx, float dy, float dz, float normal[3])
{
    float d = sqrtf(dx * dx + dy * dy + dz * dz);
    if (d > TINY)
        normal[0] = dx / d, normal[1] = dy / d, normal[2] = dz / d;
    else
        normal[0] = 0.0f, normal[1] = 1.0f, normal[2] = 0.0f; /* the centre: out through the top */
    return d - c->radius;
}

static float box_distance(const Collider *c, float dx, float dy, float dz, float normal[3])
{
    float half = 0.5f * c->size;
    float q[3] = {dx, dy, dz};
    float over[3]; /* per axis: how far past the face planes, negative inside the slab */
    for (int k = 0; k < 3; k++)
        over[k] = fabsf(q[k]) - half;
    if (over[0] <= 0.0f && over[1] <= 0.0f && over[2] <= 0.0f) {
        /* inside: the nearest face is the one with the least depth; on a tie
         * the first axis in x, y, z order wins, so the result is fixed */
        int k = 0;
        for (int j = 1; j < 3; j++)
            if (over[j] > over[k])
                k = j;
        normal[0] = normal[1] = normal[2] = 0.0f;
        normal[k] = q[k] < 0.0f ? -1.0f : 1.0f;
        return over[k];
    }
    /* outside: the nearest point is the clamp of the point onto the box */
    float out[3], d2 = 0.0f;
    for (int k = 0; k < 3; k++) {
        out[k] = over[k] > 0.0f ? (q[k] < 0.0f ? -over[k] : over[k]) : 0.0f;
        d2 += out[k] * out[k];
    }
    float d = sqrtf(d2);
    for (int k = 0; k < 3; k++)
        normal[k] = out[k] / d;
    return d;
}

/* The cone works in the half plane through its axis and the point: r the
 * distance from the axis, h the height over the base. There the solid is the
 * triangle (0,0) (R,0) (0,H) and its surface the base segment (0,0)-(R,0)
 * and the side segment (R,0)-(0,H). */
static float cone_distance(const Collider *c, float dx, float dy, float dz, float normal[3])
{
    float radius = c->radius, height = c->height;
    float slant = sqrtf(radius * radius + height * height);
    float r = sqrtf(dx * dx + dz * dz), h = dy;
    float ux = 1.0f, uz = 0.0f; /* outward radial direction; any one on the axis */
    if (r > TINY)
        ux = dx / r, uz = dz / r;
    /* outward normal of the side in the half plane: (H, R) / slant */
    float side_r = height / slant, side_h = radius / slant;

    bool inside = h >= 0.0f && r * height + h * radius <= radius * height;
    if (inside) {
        float to_base = h;
        float to_side = (radius * height - r * height - h * radius) / slant;
        if (to_side < to_base) {
            normal[0] = side_r * ux, normal[1] = side_h, normal[2] = side_r * uz;
            return -to_side;
        }
        normal[0] = 0.0f, normal[1] = -1.0f, normal[2] = 0.0f;
        return -to_base;
    }

    /* outside: the nearer of the two segments */
    float base_r = fminf(fmaxf(r, 0.0f), radius);
    float base_d2 = (r - base_r) * (r - base_r) + h * h;
    float t = ((r - radius) * -radius + h * height) / (slant * slant);
    t = fminf(fmaxf(t, 0.0f), 1.0f);
    float foot_r = radius - t * radius, foot_h = t * height;
    float side_d2 = (r - foot_r) * (r - foot_r) + (h - foot_h) * (h - foot_h);
    float near_r, near_h, face_r, face_h, d2;
    if (side_d2 < base_d2)
        near_r = foot_r, near_h = foot_h, face_r = side_r, face_h = side_h, d2 = side_d2;
    else
        near_r = base_r, near_h = 0.0f, face_r = 0.0f, face_h = -1.0f, d2 = base_d2;
    float d = sqrtf(d2);
    float nr = face_r, nh = face_h;
    if (d > TINY)
        nr = (r - near_r) / d, nh = (h - near_h) / d;
    normal[0] = nr * ux, normal[1] = nh, normal[2] = nr * uz;
    return d;
}

float collider_distance(const Collider *c, float x, float y, float z, float normal[3])
{
    float unused[3];
    if (!normal)
        normal = unused;
    float dx = x - c->center[0], dy = y - c->center[1], dz = z - c->center[2];
    switch (c->shape) {
    case SHAPE_SPHERE:
        return sphere_distance(c, dx, dy, dz, normal);
    case SHAPE_BOX:
        return box_distance(c, dx, dy, dz, normal);
    case SHAPE_CONE:
        return cone_distance(c, dx, dy, dz, normal);
    case SHAPE_NONE:
        break;
    }
    normal[0] = 0.0f, normal[1] = 1.0f, normal[2] = 0.0f;
    return FAR_AWAY;
}

/* Whether collider_distance(c, x, y, z) is surely margin or more, found
 * without the square root and divisions it takes: for the box, a point
 * margin or more past one of its face planes (the same over as
 * box_distance). Its distance is at least that far: outside it is the
 * square root of a float sum of squares holding over * over, and
 * sqrtf(over * over) is over again, and a sum of non-negative floats is
 * no smaller than any of its terms. So a point found clear here is one
 * collider_distance puts at margin or more: the contact loops pass it by
 * with the same outcome, faster (most samples of a cloth on a box are
 * well clear of it). false: measure it. */
static inline bool surely_clear(const Collider *c, float x, float y, float z, float margin)
{
    if (c->shape != SHAPE_BOX)
        return false;
    float half = 0.5f * c->size;
    return fabsf(x - c->center[0]) - half >= margin || fabsf(y - c->center[1]) - half >= margin ||
           fabsf(z - c->center[2]) - half >= margin;
}

void collider_plane_section(Collider *c)
{
    if (c->shape != SHAPE_SPHERE)
        return;
    float cz = c->center[2], r = c->radius;
    if (fabsf(cz) >= r) {
        c->shape = SHAPE_NONE;
        return;
    }
    c->radius = sqrtf(r * r - cz * cz);
    c->center[2] = 0.0f;
}

int collide_points(Cloth *cloth, const Collider *c, float margin, float friction, bool fix_velocity)
{
    if (c->shape == SHAPE_NONE)
        return 0;
    int contacts = 0;
    for (int i = 0; i < cloth->count; i++) {
        if (cloth->inv_mass[i] == 0.0f || surely_clear(c, cloth->x[i], cloth->y[i], cloth->z[i], margin))
            continue;
        float n[3];
        float d = collider_distance(c, cloth->x[i], cloth->y[i], cloth->z[i], n);
        if (d >= margin)
            continue;
        contacts++;
        collide_push_out(cloth, i, n, margin - d, friction);
        if (fix_velocity) {
            float vn = cloth->vx[i] * n[0] + cloth->vy[i] * n[1] + cloth->vz[i] * n[2];
            float kept = 1.0f - friction;
            /* the normal part: kept if it leaves the surface, dropped if not */
            float normal_part = vn > 0.0f ? vn : 0.0f;
            cloth->vx[i] = (cloth->vx[i] - vn * n[0]) * kept + normal_part * n[0];
            cloth->vy[i] = (cloth->vy[i] - vn * n[1]) * kept + normal_part * n[1];
            cloth->vz[i] = (cloth->vz[i] - vn * n[2]) * kept + normal_part * n[2];
        }
    }
    return contacts;
}

static bool link_collides(const Cloth *cloth, int l)
{
    return !cloth->torn[l] && (cloth->family[l] == LINK_STRUCTURAL || cloth->family[l] == LINK_SHEAR);
}

int collide_edges(Cloth *cloth, const Collider *c, float margin)
{
    static const float sample_t[3] = {0.25f, 0.5f, 0.75f};
    if (c->shape == SHAPE_NONE)
        return 0;
    int pushed = 0;
    for (int l = 0; l < cloth->link_count; l++) {
        if (!link_collides(cloth, l))
            continue;
        uint32_t a = cloth->link_a[l], b = cloth->link_b[l];
        float wa = cloth->inv_mass[a], wb = cloth->inv_mass[b];
        if (wa == 0.0f && wb == 0.0f)
            continue;
        for (int s = 0; s < 3; s++) {
            float t = sample_t[s];
            float x = cloth->x[a] + t * (cloth->x[b] - cloth->x[a]);
            float y = cloth->y[a] + t * (cloth->y[b] - cloth->y[a]);
            float z = cloth->z[a] + t * (cloth->z[b] - cloth->z[a]);
            if (surely_clear(c, x, y, z, margin))
                continue;
            float n[3];
            float d = collider_distance(c, x, y, z, n);
            if (d >= margin)
                continue;
            pushed++;
            /* the sample is (1 - t) a + t b: moving a by wa (1-t) lambda push
             * and b by wb t lambda push moves it by exactly push */
            float push = margin - d;
            float lambda = push / (wa * (1.0f - t) * (1.0f - t) + wb * t * t);
            float move_a = wa * (1.0f - t) * lambda, move_b = wb * t * lambda;
            cloth->x[a] += move_a * n[0], cloth->y[a] += move_a * n[1], cloth->z[a] += move_a * n[2];
            cloth->x[b] += move_b * n[0], cloth->y[b] += move_b * n[1], cloth->z[b] += move_b * n[2];
        }
    }
    return pushed;
}

int collide_floor(Cloth *cloth, float floor_y, float margin, float restitution, float friction)
{
    float top = floor_y + margin, kept = 1.0f - friction;
    int contacts = 0;
    for (int i = 0; i < cloth->count; i++) {
        if (cloth->inv_mass[i] == 0.0f || cloth->y[i] >= top)
            continue;
        contacts++;
        float incoming = cloth->y[i] - cloth->py[i];
        cloth->y[i] = top;
        /* only a point still moving down is reflected: one already bounced
         * this substep (and pushed back under by a link) keeps its bounce */
        if (incoming < 0.0f)
            cloth->py[i] = top + restitution * incoming;
        if (cloth->vy[i] < 0.0f)
            cloth->vy[i] = -restitution * cloth->vy[i];
        cloth->x[i] -= friction * (cloth->x[i] - cloth->px[i]);
        cloth->z[i] -= friction * (cloth->z[i] - cloth->pz[i]);
        cloth->vx[i] *= kept, cloth->vz[i] *= kept;
    }
    return contacts;
}

float collide_penetration(const Cloth *cloth, const Collider *c, int samples_per_link)
{
    assert(samples_per_link >= 2);
    if (c->shape == SHAPE_NONE)
        return 0.0f;
    float deepest = 0.0f;
    for (int l = 0; l < cloth->link_count; l++) {
        if (!link_collides(cloth, l))
            continue;
        uint32_t a = cloth->link_a[l], b = cloth->link_b[l];
        for (int s = 0; s < samples_per_link; s++) {
            float t = (float)s / (float)(samples_per_link - 1);
            float x = cloth->x[a] + t * (cloth->x[b] - cloth->x[a]);
            float y = cloth->y[a] + t * (cloth->y[b] - cloth->y[a]);
            float z = cloth->z[a] + t * (cloth->z[b] - cloth->z[a]);
            float depth = -collider_distance(c, x, y, z, NULL);
            if (depth > deepest)
                deepest = depth;
        }
    }
    return deepest;
}

/* Signed distance of the point at t along link a-b to the collider. */
static float along_distance(const Cloth *cloth, const Collider *c, uint32_t a, uint32_t b, float t)
{
    return collider_distance(c, cloth->x[a] + t * (cloth->x[b] - cloth->x[a]),
                             cloth->y[a] + t * (cloth->y[b] - cloth->y[a]),
                             cloth->z[a] + t * (cloth->z[b] - cloth->z[a]), NULL);
}

/* Between t_in (inside) and t_out (outside), the surface, to 1/64 of the gap. */
static float surface_between(const Cloth *cloth, const Collider *c, uint32_t a, uint32_t b, float t_in, float t_out)
{
    for (int k = 0; k < 6; k++) {
        float mid = 0.5f * (t_in + t_out);
        if (along_distance(cloth, c, a, b, mid) < 0.0f)
            t_in = mid;
        else
            t_out = mid;
    }
    return 0.5f * (t_in + t_out);
}

float collide_link_inside(const Cloth *cloth, const Collider *c, int l, int samples_per_link, float *t0, float *t1)
{
    assert(samples_per_link >= 2);
    *t0 = *t1 = 0.0f;
    if (c->shape == SHAPE_NONE || !link_collides(cloth, l))
        return 0.0f;
    uint32_t a = cloth->link_a[l], b = cloth->link_b[l];
    float deepest = 0.0f, step = 1.0f / (float)(samples_per_link - 1);
    int first = -1, last = -1;
    for (int s = 0; s < samples_per_link; s++) {
        float depth = -along_distance(cloth, c, a, b, (float)s * step);
        if (depth > 0.0f) {
            first = first < 0 ? s : first;
            last = s;
            deepest = depth > deepest ? depth : deepest;
        }
    }
    if (first < 0)
        return 0.0f;
    *t0 = first == 0 ? 0.0f : surface_between(cloth, c, a, b, (float)first * step, (float)(first - 1) * step);
    *t1 = last == samples_per_link - 1 ? 1.0f
                                       : surface_between(cloth, c, a, b, (float)last * step, (float)(last + 1) * step);
    return deepest;
}

float collide_floor_penetration(const Cloth *cloth, float floor_y)
{
    float deepest = 0.0f;
    for (int i = 0; i < cloth->count; i++)
        if (floor_y - cloth->y[i] > deepest)
            deepest = floor_y - cloth->y[i];
    return deepest;
}
