/* test_collide.c - colliders and contact: signed distances and normals of
 * the three shapes, point projection with margin and friction, edge sampling
 * against the box corner (seed 003), the floor bounce (seed 002). */
#include <criterion/criterion.h>
#include <math.h>

#include "../support.h"
#include "core/cloth.h"
#include "core/collide.h"
#include "core/rng.h"

static const Collider sphere = {.shape = SHAPE_SPHERE, .center = {0.2f, 1.0f, -0.3f}, .radius = 0.5f};
static const Collider box = {.shape = SHAPE_BOX, .center = {1.0f, 2.0f, 3.0f}, .size = 2.0f};
/* base radius 1 at y = 0.5, apex 1 m higher: the side is at 45 degrees */
static const Collider cone = {.shape = SHAPE_CONE, .center = {0.0f, 0.5f, 0.0f}, .radius = 1.0f, .height = 1.0f};

#define R2 0.70710678f /* 1 / sqrt(2) */

static void expect_distance(const Collider *c, float x, float y, float z, float distance, float nx, float ny, float nz)
{
    float n[3];
    float d = collider_distance(c, x, y, z, n);
    cr_expect_float_eq(d, distance, 1e-5, "distance at (%g, %g, %g): %g, expected %g", x, y, z, d, distance);
    cr_expect(fabsf(n[0] - nx) < 1e-5f && fabsf(n[1] - ny) < 1e-5f && fabsf(n[2] - nz) < 1e-5f,
              "normal at (%g, %g, %g): (%g, %g, %g), expected (%g, %g, %g)", x, y, z, n[0], n[1], n[2], nx, ny, nz);
}

/* ------------------------------------------------------------ distances */

Test(collide, sphere_distance_is_radial)
{
    expect_distance(&sphere, 0.2f, 1.8f, -0.3f, 0.3f, 0.0f, 1.0f, 0.0f);
    expect_distance(&sphere, 0.2f + 0.3f, 1.0f, -0.3f - 0.4f, 0.0f, 0.6f, 0.0f, -0.8f);
    expect_distance(&sphere, 0.2f, 1.0f, -0.3f + 0.1f, -0.4f, 0.0f, 0.0f, 1.0f);
}

Test(collide, inside_a_box_near_a_face_gives_that_faces_normal)
{
    /* the box spans x 0..2, y 1..3, z 2..4 */
    expect_distance(&box, 1.9f, 2.0f, 3.2f, -0.1f, 1.0f, 0.0f, 0.0f);
    expect_distance(&box, 1.3f, 2.95f, 3.0f, -0.05f, 0.0f, 1.0f, 0.0f);
    expect_distance(&box, 0.5f, 1.3f, 2.1f, -0.1f, 0.0f, 0.0f, -1.0f);
    expect_distance(&box, 0.2f, 2.5f, 3.5f, -0.2f, -1.0f, 0.0f, 0.0f);
    expect_distance(&box, 1.0f, 2.0f + 1.5f, 3.0f, 0.5f, 0.0f, 1.0f, 0.0f);
    /* beyond an edge the nearest point is on the edge */
    expect_distance(&box, 2.3f, 3.4f, 3.0f, 0.5f, 0.6f, 0.8f, 0.0f);
}

Test(collide, inside_the_cone_near_its_side_gives_the_side_normal)
{
    /* r = 0.45, 0.45 over the base: 0.1 / sqrt 2 from the side, 0.45 from the base */
    expect_distance(&cone, 0.0f, 0.95f, 0.45f, -0.1f * R2, 0.0f, R2, R2);
    expect_distance(&cone, -0.45f, 0.95f, 0.0f, -0.1f * R2, -R2, R2, 0.0f);
    /* outside the side, its foot on the side */
    expect_distance(&cone, 0.8f, 1.3f, 0.0f, 0.6f * R2, R2, R2, 0.0f);
    /* above the apex, the apex is nearest */
    expect_distance(&cone, 0.0f, 2.0f, 0.0f, 0.5f, 0.0f, 1.0f, 0.0f);
}

Test(collide, near_the_cone_base_gives_the_base_normal)
{
    expect_distance(&cone, 0.3f, 0.52f, 0.0f, -0.02f, 0.0f, -1.0f, 0.0f);
    expect_distance(&cone, 0.0f, 0.5f - 0.1f, -0.6f, 0.1f, 0.0f, -1.0f, 0.0f);
    /* below and beyond the rim, the rim is nearest */
    expect_distance(&cone, 1.3f, 0.1f, 0.0f, 0.5f, 0.6f, -0.8f, 0.0f);
}

/* A random point on the collider's surface. */
static void surface_point(const Collider *c, uint64_t *rng, float p[3])
{
    float u = (float)rng_uniform(rng), v = (float)rng_uniform(rng), w = (float)rng_uniform(rng);
    if (c->shape == SHAPE_SPHERE) {
        float y = 2.0f * u - 1.0f, a = 6.2831853f * v, s = sqrtf(1.0f - y * y);
        p[0] = c->center[0] + c->radius * s * cosf(a), p[1] = c->center[1] + c->radius * y;
        p[2] = c->center[2] + c->radius * s * sinf(a);
    } else if (c->shape == SHAPE_BOX) {
        int axis = (int)(w * 6.0f) % 3;
        float q[3] = {u - 0.5f, v - 0.5f, 0.0f};
        float face[3] = {q[0], q[1], q[2]};
        face[axis] = w < 0.5f ? -0.5f : 0.5f;
        face[(axis + 1) % 3] = q[0], face[(axis + 2) % 3] = q[1];
        for (int k = 0; k < 3; k++)
            p[k] = c->center[k] + c->size * face[k];
    } else {
        float a = 6.2831853f * v;
        if (w < 0.4f) { /* the base */
            float r = c->radius * sqrtf(u);
            p[0] = c->center[0] + r * cosf(a), p[1] = c->center[1], p[2] = c->center[2] + r * sinf(a);
        } else {
            float h = c->height * u, r = c->radius * (1.0f - u);
            p[0] = c->center[0] + r * cosf(a), p[1] = c->center[1] + h, p[2] = c->center[2] + r * sinf(a);
        }
    }
}

/* Independent of collider_distance: whether a point is inside the solid. */
static bool inside(const Collider *c, const float p[3])
{
    float dx = p[0] - c->center[0], dy = p[1] - c->center[1], dz = p[2] - c->center[2];
    if (c->shape == SHAPE_SPHERE)
        return dx * dx + dy * dy + dz * dz < c->radius * c->radius;
    if (c->shape == SHAPE_BOX)
        return fabsf(dx) < c->size / 2 && fabsf(dy) < c->size / 2 && fabsf(dz) < c->size / 2;
    float r = sqrtf(dx * dx + dz * dz);
    return dy > 0.0f && r < c->radius * (1.0f - dy / c->height);
}

/* Against a dense sampling of each surface: the distance has the right sign,
 * never exceeds the distance to any sampled surface point (so it is not an
 * over-estimate), and p - d n lies on the surface (so it is reached). */
Test(collide, distance_is_exact_against_a_sampled_surface_for_every_shape)
{
    const Collider *shapes[] = {&sphere, &box, &cone};
    enum { SURFACE = 20000, POINTS = 300 };
    static float surface[SURFACE][3];
    for (int s = 0; s < 3; s++) {
        const Collider *c = shapes[s];
        uint64_t rng = 42 + (uint64_t)s;
        for (int k = 0; k < SURFACE; k++)
            surface_point(c, &rng, surface[k]);
        float extent = c->shape == SHAPE_BOX ? c->size : 2.0f * c->radius;
        for (int k = 0; k < POINTS; k++) {
            float p[3], n[3];
            for (int a = 0; a < 3; a++)
                p[a] = c->center[a] + extent * (1.6f * (float)rng_uniform(&rng) - 0.8f);
            if (c->shape == SHAPE_CONE)
                p[1] += 0.5f * c->height;
            float d = collider_distance(c, p[0], p[1], p[2], n);
            float nearest = INFINITY;
            for (int j = 0; j < SURFACE; j++) {
                float ex = p[0] - surface[j][0], ey = p[1] - surface[j][1], ez = p[2] - surface[j][2];
                nearest = fminf(nearest, sqrtf(ex * ex + ey * ey + ez * ez));
            }
            cr_expect_eq(d < 0.0f, inside(c, p), "shape %d: sign at (%g, %g, %g), d = %g", s, p[0], p[1], p[2], d);
            cr_expect(fabsf(d) <= nearest + 1e-5f, "shape %d: |d| = %g > %g to a surface point", s, fabsf(d), nearest);
            cr_expect(fabsf(d) >= nearest - 0.05f * extent, "shape %d: |d| = %g far below %g", s, fabsf(d), nearest);
            cr_expect_float_eq(sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1.0f, 1e-5, "unit normal");
            float on = collider_distance(c, p[0] - d * n[0], p[1] - d * n[1], p[2] - d * n[2], NULL);
            cr_expect(fabsf(on) < 1e-5f, "shape %d: p - d n is %g off the surface", s, on);
        }
    }
}

Test(collide, no_collider_is_far_from_everything)
{
    Collider none = {.shape = SHAPE_NONE};
    cr_expect(collider_distance(&none, 0.0f, 0.0f, 0.0f, NULL) > 1e6f);
    Cloth *c = support_free_cloth(3, 3);
    cr_expect_eq(collide_points(c, &none, 0.1f, 0.5f, true), 0);
    cr_expect_eq(collide_edges(c, &none, 0.1f), 0);
    cr_expect_eq(collide_penetration(c, &none, 5), 0.0f);
    cloth_destroy(c);
}

/* ------------------------------------------------------------ points */

Test(collide, points_leave_no_free_particle_closer_than_the_margin)
{
    const Collider *shapes[] = {&sphere, &box, &cone};
    const float margin = 0.03f;
    for (int s = 0; s < 3; s++) {
        const Collider *c = shapes[s];
        Cloth *cloth = support_free_cloth(30, 30);
        uint64_t rng = 7 + (uint64_t)s;
        float extent = c->shape == SHAPE_BOX ? c->size : 2.0f * c->radius;
        int near = 0;
        for (int i = 0; i < cloth->count; i++) {
            float p[3];
            for (int a = 0; a < 3; a++)
                p[a] = c->center[a] + 1.2f * extent * ((float)rng_uniform(&rng) - 0.5f);
            /* a particle moving in from somewhere, so that friction acts */
            if (c->shape == SHAPE_CONE)
                p[1] += 0.5f * c->height;
            support_place(cloth, i, p[0], p[1], p[2]);
            cloth->px[i] += 0.05f * ((float)rng_uniform(&rng) - 0.5f);
            near += collider_distance(c, p[0], p[1], p[2], NULL) < margin;
        }
        int pinned = 0;
        while (collider_distance(c, cloth->x[pinned], cloth->y[pinned], cloth->z[pinned], NULL) >= 0.0f)
            pinned++;
        cloth->inv_mass[pinned] = 0.0f;
        float pin[3] = {cloth->x[pinned], cloth->y[pinned], cloth->z[pinned]};
        cr_assert(near > 50, "shape %d: the cloud reaches into the collider (%d near)", s, near);

        int contacts = collide_points(cloth, c, margin, 0.4f, true);
        cr_expect_eq(contacts, near - 1, "shape %d: every free particle within the margin is in contact", s);
        for (int i = 0; i < cloth->count; i++) {
            if (i == pinned)
                continue;
            float d = collider_distance(c, cloth->x[i], cloth->y[i], cloth->z[i], NULL);
            cr_expect(d >= margin - 1e-5f, "shape %d: particle %d left at %g, margin %g", s, i, d, margin);
        }
        cr_expect(cloth->x[pinned] == pin[0] && cloth->y[pinned] == pin[1] && cloth->z[pinned] == pin[2],
                  "shape %d: a pinned particle is not moved", s);
        cloth_destroy(cloth);
    }
}

Test(collide, points_friction_cuts_the_tangential_motion_only)
{
    /* the box top is at y = 3; a particle slid 0.1 along x while sinking in */
    Cloth *c = support_free_cloth(1, 1);
    support_place(c, 0, 1.0f, 3.02f, 3.0f);
    c->x[0] = 1.1f, c->y[0] = 2.99f;
    c->vx[0] = 1.0f, c->vy[0] = -2.0f, c->vz[0] = 0.5f;
    cr_expect_eq(collide_points(c, &box, 0.01f, 0.5f, true), 1);
    cr_expect_float_eq(c->y[0], 3.01f, 1e-5, "projected onto the top face plus the margin");
    cr_expect_float_eq(c->x[0], 1.05f, 1e-5, "half the tangential displacement taken back");
    cr_expect_float_eq(c->z[0], 3.0f, 1e-6);
    cr_expect_float_eq(c->vy[0], 0.0f, 1e-6, "no velocity into the face");
    cr_expect_float_eq(c->vx[0], 0.5f, 1e-6, "tangential velocity times 1 - friction");
    cr_expect_float_eq(c->vz[0], 0.25f, 1e-6);

    /* leaving the surface, the normal velocity is kept */
    support_place(c, 0, 1.0f, 2.99f, 3.0f);
    c->vx[0] = 0.0f, c->vy[0] = 1.0f, c->vz[0] = 0.0f;
    collide_points(c, &box, 0.01f, 0.5f, true);
    cr_expect_float_eq(c->vy[0], 1.0f, 1e-6);
    cloth_destroy(c);
}

/* ------------------------------------------------------------ edges */

/* A two-particle cloth whose link lies across the box's top edge at
 * x = 2, y = 3: both ends 2 cm out of the faces, the middle 9 cm in. */
static Cloth *link_over_edge(void)
{
    Cloth *c = support_free_cloth(2, 1);
    support_place(c, 0, 1.8f, 3.02f, 3.0f);
    support_place(c, 1, 2.02f, 2.8f, 3.0f);
    cloth_set_rest_from_positions(c);
    return c;
}

static float midpoint_distance(const Cloth *c, const Collider *collider)
{
    return collider_distance(collider, 0.5f * (c->x[0] + c->x[1]), 0.5f * (c->y[0] + c->y[1]),
                             0.5f * (c->z[0] + c->z[1]), NULL);
}

Test(collide, a_link_across_a_box_edge_is_caught_by_edges_not_by_points)
{
    const float margin = 0.01f;
    Cloth *c = link_over_edge();
    cr_assert(midpoint_distance(c, &box) < -0.05f, "the link cuts the corner");
    cr_expect_eq(collide_points(c, &box, margin, 0.0f, false), 0, "both ends are outside the margin");
    cr_expect(midpoint_distance(c, &box) < -0.05f, "points alone leave the corner cut");

    cr_expect_gt(collide_edges(c, &box, margin), 0);
    float d = midpoint_distance(c, &box);
    cr_expect(d >= margin - 1e-5f, "after edge sampling the midpoint is %g from the box", d);
    cloth_destroy(c);
}

Test(collide, edge_push_moves_the_sample_exactly_and_spares_pinned_ends)
{
    /* a link along x pushed up through the box's top face at y = 3 */
    Cloth *c = support_free_cloth(2, 1);
    support_place(c, 0, 0.5f, 2.9f, 3.0f);
    support_place(c, 1, 1.5f, 2.9f, 3.0f);
    c->inv_mass[0] = 0.0f;
    cloth_set_rest_from_positions(c);
    collide_edges(c, &box, 0.0f);
    cr_expect_eq(c->y[0], 2.9f, "the pinned end stays");
    /* the 1/4 sample lifts b by 0.1 / 0.25 = 0.4; the 1/2 and 3/4 samples
     * are then out already */
    cr_expect_float_eq(c->y[1], 2.9f + 0.4f, 1e-5);
    cr_expect_float_eq(0.75f * c->y[0] + 0.25f * c->y[1], 3.0f, 1e-5, "the sample moved by exactly d");

    /* both ends pinned: nothing moves */
    support_place(c, 1, 1.5f, 2.9f, 3.0f);
    c->inv_mass[1] = 0.0f;
    cr_expect_eq(collide_edges(c, &box, 0.0f), 0);
    cr_expect_eq(c->y[1], 2.9f);
    cloth_destroy(c);
}

Test(collide, edges_skip_torn_and_bend_links)
{
    Cloth *c = link_over_edge();
    c->torn[0] = 1;
    cr_expect_eq(collide_edges(c, &box, 0.01f), 0, "a torn link takes no contact");
    cr_expect_eq(collide_penetration(c, &box, 9), 0.0f, "and does not count as penetrating");
    c->torn[0] = 0;
    c->family[0] = LINK_BEND;
    cr_expect_eq(collide_edges(c, &box, 0.01f), 0, "bend links are not cloth surface");
    cloth_destroy(c);
}

Test(collide, penetration_of_a_link_over_a_box_corner_drops_after_edge_collision)
{
    /* a 5 cm link (the seed 003 spacing) across the corner x = 2, y = 3,
     * z = 4 of the box, its ends 5 mm out of the top and side faces */
    Cloth *c = support_free_cloth(2, 1);
    support_place(c, 0, 1.975f, 3.005f, 3.975f);
    support_place(c, 1, 2.005f, 2.975f, 4.005f);
    cloth_set_rest_from_positions(c);
    float before = collide_penetration(c, &box, 17);
    cr_expect(before > 0.008f, "the link cuts the corner by %g m", before);
    cr_expect_eq(collide_penetration(c, &box, 2), 0.0f, "its ends are outside");
    for (int pass = 0; pass < 10; pass++)
        collide_edges(c, &box, 0.005f);
    float after = collide_penetration(c, &box, 17);
    cr_expect(after < before / 10.0f, "penetration %g m, before %g m", after, before);
    cloth_destroy(c);
}

/* The seed 003 experiment in miniature: a cols x cols cloth, 2 m square,
 * dropped flat onto a 1 m box from 10 cm over its top, projected by plain
 * PBD (stiffness 1, 10 passes, 120 steps/s) with contact inside every pass.
 * Returns the penetration after 1.5 s; *lowest gets the height over the
 * top face of the lowest particle above its middle, *resting the fraction
 * of those within 0.5 mm of the margin (the rest lie in wrinkles). */
static float drape(int cols, bool edges, float *lowest, float *resting)
{
    const Collider table = {.shape = SHAPE_BOX, .center = {0.0f, 0.5f, 0.0f}, .size = 1.0f};
    const float spacing = 2.0f / (float)(cols - 1), h = 1.0f / 120.0f, margin = 0.005f;
    Cloth *c = cloth_create(cols, cols);
    cr_assert_not_null(c);
    for (int r = 0; r < cols; r++)
        for (int k = 0; k < cols; k++) {
            int i = cloth_index(c, k, r);
            /* a slight tilt, so the fall is not perfectly symmetric */
            support_place(c, i, -1.0f + spacing * k, 1.1f + 0.01f * spacing * r, -1.0f + spacing * r);
        }
    cloth_set_lumped_mass(c, 0.2f, spacing);
    cloth_set_rest_from_positions(c);
    for (int step = 0; step < 180; step++) {
        for (int i = 0; i < c->count; i++) {
            c->px[i] = c->x[i], c->py[i] = c->y[i], c->pz[i] = c->z[i];
            c->vy[i] -= 9.81f * h;
            c->x[i] += c->vx[i] * h, c->y[i] += c->vy[i] * h, c->z[i] += c->vz[i] * h;
        }
        for (int pass = 0; pass < 10; pass++) {
            for (int l = 0; l < c->link_count; l++) {
                uint32_t a = c->link_a[l], b = c->link_b[l];
                float dx = c->x[b] - c->x[a], dy = c->y[b] - c->y[a], dz = c->z[b] - c->z[a];
                float len = sqrtf(dx * dx + dy * dy + dz * dz);
                float wa = c->inv_mass[a], wb = c->inv_mass[b];
                float k = (len - c->rest_length[l]) / (len * (wa + wb));
                c->x[a] += wa * k * dx, c->y[a] += wa * k * dy, c->z[a] += wa * k * dz;
                c->x[b] -= wb * k * dx, c->y[b] -= wb * k * dy, c->z[b] -= wb * k * dz;
            }
            collide_points(c, &table, margin, 0.1f, false);
            if (edges)
                collide_edges(c, &table, margin);
        }
        for (int i = 0; i < c->count; i++) {
            /* PBD velocity, with a little damping so the cloth settles */
            c->vx[i] = 0.99f * (c->x[i] - c->px[i]) / h;
            c->vy[i] = 0.99f * (c->y[i] - c->py[i]) / h;
            c->vz[i] = 0.99f * (c->z[i] - c->pz[i]) / h;
        }
    }
    int over = 0, near = 0;
    *lowest = INFINITY;
    for (int i = 0; i < c->count; i++)
        if (fabsf(c->x[i]) < 0.4f && fabsf(c->z[i]) < 0.4f) {
            over++;
            near += c->y[i] - 1.0f < margin + 0.0005f;
            *lowest = fminf(*lowest, c->y[i] - 1.0f);
        }
    *resting = (float)near / (float)over;
    float penetration = collide_penetration(c, &table, 17);
    cloth_destroy(c);
    return penetration;
}

Test(collide, edge_sampling_cuts_the_corner_penetration_of_a_drape_tenfold)
{
    float lowest_points, lowest_edges, resting_points, resting_edges;
    float points_only = drape(40, false, &lowest_points, &resting_points);
    float sampled = drape(40, true, &lowest_edges, &resting_edges);
    cr_log_info("drape 40 x 40: points only %.2f mm, edges %.3f mm (seed 003: 15.7 and 0.34 mm)", 1e3 * points_only,
                1e3 * sampled);
    cr_expect(points_only > 0.005f, "points only: the edges cut in by %g m (seed 003: 15.7 mm)", points_only);
    cr_expect(sampled < points_only / 10.0f, "with edge sampling %g m, points only %g m (seed 003: 0.34 mm)", sampled,
              points_only);
    /* and the flat top is untouched: the cloth rests on it at the margin */
    cr_expect_float_eq(lowest_points, 0.005f, 5e-5);
    cr_expect_float_eq(lowest_edges, 0.005f, 5e-5);
    cr_expect(resting_points > 0.5f && resting_edges > 0.5f, "resting on the top: %.0f%% and %.0f%%",
              100 * resting_points, 100 * resting_edges);
}

/* ------------------------------------------------------------ floor */

Test(collide, floor_bounce_leaves_at_restitution_times_the_incoming_speed)
{
    const float h = 0.01f, margin = 0.002f;
    Cloth *c = support_free_cloth(1, 1);
    /* falling at 1 m/s: 1 cm over the substep, ending 5 mm under the floor */
    support_place(c, 0, 0.3f, margin + 0.005f, 0.0f);
    c->y[0] = margin - 0.005f;
    c->vy[0] = -1.0f;
    cr_expect_eq(collide_floor(c, 0.0f, margin, 0.3f, 0.0f), 1);
    cr_expect_float_eq(c->y[0], margin, 1e-7, "clamped onto the floor plus the margin");
    cr_expect_float_eq((c->y[0] - c->py[0]) / h, 0.3f, 1e-4, "the implied velocity leaves at 0.3 m/s");
    cr_expect_float_eq(c->vy[0], 0.3f, 1e-6, "and so does the stored velocity");

    /* called again within the substep (say a link pulled it under), it
     * keeps its bounce and is not reflected a second time */
    c->y[0] = margin - 0.001f;
    collide_floor(c, 0.0f, margin, 0.3f, 0.0f);
    cr_expect_float_eq((c->y[0] - c->py[0]) / h, 0.3f, 1e-4);
    cr_expect_float_eq(c->vy[0], 0.3f, 1e-6);
    cloth_destroy(c);
}

Test(collide, floor_friction_slows_the_horizontal_motion_only)
{
    Cloth *c = support_free_cloth(2, 1);
    support_place(c, 0, 0.0f, 0.0f, 0.0f);
    c->x[0] = 0.02f, c->z[0] = -0.04f, c->y[0] = -0.01f;
    c->vx[0] = 2.0f, c->vz[0] = -4.0f, c->vy[0] = -1.0f;
    support_place(c, 1, 0.0f, 0.5f, 0.0f);
    c->x[1] = 0.02f;
    cr_expect_eq(collide_floor(c, 0.0f, 0.0f, 0.0f, 0.25f), 1, "the particle above the floor is free");
    cr_expect_float_eq(c->x[0], 0.015f, 1e-6);
    cr_expect_float_eq(c->z[0], -0.03f, 1e-6);
    cr_expect_float_eq(c->vx[0], 1.5f, 1e-6);
    cr_expect_float_eq(c->vz[0], -3.0f, 1e-6);
    cr_expect_float_eq(c->vy[0], 0.0f, 1e-6, "restitution 0: it stops");
    cr_expect_float_eq(c->y[0] - c->py[0], 0.0f, 1e-6);
    cr_expect_eq(c->x[1], 0.02f, "untouched above the floor");
    cloth_destroy(c);
}

Test(collide, floor_penetration_is_the_deepest_particle)
{
    Cloth *c = support_free_cloth(3, 1);
    support_place(c, 0, 0.0f, 0.1f, 0.0f);
    support_place(c, 1, 0.0f, -0.02f, 0.0f);
    support_place(c, 2, 0.0f, -0.05f, 0.0f);
    cr_expect_float_eq(collide_floor_penetration(c, 0.0f), 0.05f, 1e-6);
    cr_expect_float_eq(collide_floor_penetration(c, -0.1f), 0.0f, 1e-6);
    collide_floor(c, 0.0f, 0.0f, 0.3f, 0.0f);
    cr_expect_eq(collide_floor_penetration(c, 0.0f), 0.0f);
    cloth_destroy(c);
}
