/* test_selfcollide.c - self-collision: the spatial hash against brute force,
 * a folded cloth pushed back to its thickness, determinism, the exemption
 * rule and the anti-tunnelling clamp. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "core/cloth.h"
#include "core/rng.h"
#include "core/selfcollide.h"

/* Every non-exempt pair i < j closer than thickness, the O(n^2) way, in
 * (i, j) order. Returns the count; fills up to capacity. */
static int brute_force_pairs(const Cloth *c, float thickness, uint32_t (*pairs)[2], int capacity)
{
    int found = 0;
    for (int i = 0; i < c->count; i++)
        for (int j = i + 1; j < c->count; j++) {
            float dx = c->x[j] - c->x[i], dy = c->y[j] - c->y[i], dz = c->z[j] - c->z[i];
            /* written as !(<) so that a NaN distance is no pair, as in the hash */
            if (selfcollide_exempt(c, i, j) || !(dx * dx + dy * dy + dz * dz < thickness * thickness))
                continue;
            if (found < capacity)
                pairs[found][0] = (uint32_t)i, pairs[found][1] = (uint32_t)j;
            found++;
        }
    return found;
}

static float brute_force_min_distance(const Cloth *c)
{
    float closest = INFINITY;
    for (int i = 0; i < c->count; i++)
        for (int j = i + 1; j < c->count; j++) {
            float dx = c->x[j] - c->x[i], dy = c->y[j] - c->y[i], dz = c->z[j] - c->z[i];
            if (!selfcollide_exempt(c, i, j))
                closest = fminf(closest, sqrtf(dx * dx + dy * dy + dz * dz));
        }
    return closest;
}

static int compare_pairs(const void *pa, const void *pb)
{
    const uint32_t *a = pa, *b = pb;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    return a[1] < b[1] ? -1 : a[1] > b[1];
}

Test(selfcollide, exempt_pairs_are_those_within_two_grid_steps)
{
    Cloth *c = support_free_cloth(10, 10);
    int center = cloth_index(c, 5, 5);
    cr_expect(selfcollide_exempt(c, center, cloth_index(c, 6, 5)), "structural");
    cr_expect(selfcollide_exempt(c, center, cloth_index(c, 4, 6)), "shear");
    cr_expect(selfcollide_exempt(c, center, cloth_index(c, 5, 3)), "bend");
    cr_expect(selfcollide_exempt(c, center, cloth_index(c, 7, 7)), "two diagonal steps");
    cr_expect_not(selfcollide_exempt(c, center, cloth_index(c, 8, 5)), "three steps along a row");
    cr_expect_not(selfcollide_exempt(c, center, cloth_index(c, 5, 8)), "three steps along a column");
    /* the index difference alone would wrap around rows: column 9 of row 4
     * is next in memory to column 0 of row 5, but seven columns apart */
    cr_expect_not(selfcollide_exempt(c, cloth_index(c, 9, 4), cloth_index(c, 0, 5)));
    for (int l = 0; l < c->link_count; l++)
        cr_expect(selfcollide_exempt(c, (int)c->link_a[l], (int)c->link_b[l]), "link %d is exempt", l);
    cloth_destroy(c);
}

Test(selfcollide, hash_finds_the_same_pairs_as_brute_force_on_random_clouds)
{
    enum { CAPACITY = 20000 };
    static uint32_t hashed[CAPACITY][2], brute[CAPACITY][2];
    Cloth *c = support_free_cloth(30, 25);
    SelfCollision *sc = selfcollide_create(c);
    cr_assert_not_null(sc);
    const float thicknesses[] = {0.01f, 0.03f, 0.08f, 0.2f};
    for (uint64_t seed = 1; seed <= 3; seed++)
        for (int t = 0; t < 4; t++) {
            uint64_t rng = seed * 1000 + (uint64_t)t;
            for (int i = 0; i < c->count; i++) /* a cloud across the origin */
                support_place(c, i, (float)rng_uniform(&rng) - 0.5f, 0.6f * (float)rng_uniform(&rng) - 0.3f,
                              0.8f * (float)rng_uniform(&rng) - 0.2f);
            float thickness = thicknesses[t];
            int found = selfcollide_find_pairs(sc, c, thickness, hashed, CAPACITY);
            int expected = brute_force_pairs(c, thickness, brute, CAPACITY);
            cr_assert(expected > 0 && expected <= CAPACITY, "the cloud has close pairs (%d)", expected);
            cr_assert_eq(found, expected, "seed %d, thickness %g: %d pairs hashed, %d by brute force", (int)seed,
                         thickness, found, expected);
            qsort(hashed, (size_t)found, sizeof hashed[0], compare_pairs);
            cr_expect(memcmp(hashed, brute, (size_t)found * sizeof hashed[0]) == 0, "the same pairs");
            for (int k = 1; k < found; k++)
                cr_expect(compare_pairs(hashed[k - 1], hashed[k]) < 0, "each pair once");
            cr_expect_float_eq(selfcollide_min_distance(sc, c, thickness), brute_force_min_distance(c), 1e-6);
        }
    selfcollide_destroy(sc);
    cloth_destroy(c);
}

Test(selfcollide, far_and_non_finite_positions_do_not_break_the_hash)
{
    Cloth *c = support_free_cloth(8, 8);
    SelfCollision *sc = selfcollide_create(c);
    for (int i = 0; i < c->count; i++)
        support_place(c, i, 0.01f * (float)(i % 5), 0.0f, 0.001f * (float)i);
    support_place(c, 3, 1e20f, -1e20f, 0.0f);
    support_place(c, 40, NAN, 0.0f, INFINITY);
    support_place(c, 20, 1e9f, 0.0f, 0.0f);
    support_place(c, 60, 1e9f, 0.0f, 0.0f); /* coincident, so no direction: left alone */
    uint32_t pairs[4096][2];
    int found = selfcollide_find_pairs(sc, c, 0.02f, pairs, 4096);
    cr_expect_eq(found, brute_force_pairs(c, 0.02f, pairs, 0));
    selfcollide_apply(sc, c, 0.02f, 0.0f);
    cr_expect_eq(c->x[60], 1e9f);
    cr_expect_eq(c->x[20], 1e9f);
    selfcollide_destroy(sc);
    cloth_destroy(c);
}

/* A cols x rows cloth in the y = 0 plane, folded along the middle row
 * onto itself: the second half lies `gap` above the first, shifted by
 * `shift` along x, the rows mirrored. */
static Cloth *folded_cloth(int cols, int rows, float spacing, float gap, float shift)
{
    Cloth *c = support_free_cloth(cols, rows);
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < cols; k++) {
            bool upper = r >= rows / 2;
            float z = spacing * (float)(upper ? rows - 1 - r : r);
            support_place(c, cloth_index(c, k, r), spacing * (float)k + (upper ? shift : 0.0f), upper ? gap : 0.0f, z);
        }
    return c;
}

Test(selfcollide, a_folded_cloth_ends_with_its_layers_a_thickness_apart)
{
    const float spacing = 0.05f, thickness = 0.06f;
    Cloth *c = folded_cloth(12, 12, spacing, 0.4f * thickness, 0.3f * spacing);
    SelfCollision *sc = selfcollide_create(c);
    cr_assert_not_null(sc);
    cr_assert(brute_force_min_distance(c) < 0.5f * thickness, "the layers start too close");
    int first = selfcollide_apply(sc, c, thickness, 0.0f);
    cr_expect_gt(first, 12 * 4, "every column has overlapping pairs (%d corrected)", first);
    for (int pass = 0; pass < 20; pass++)
        selfcollide_apply(sc, c, thickness, 0.0f);
    float closest = brute_force_min_distance(c);
    cr_expect(closest >= 0.995f * thickness, "closest unlinked pair %g m, thickness %g m", closest, thickness);
    cr_expect(selfcollide_min_distance(sc, c, thickness) >= 0.995f * thickness);
    /* the layers were pushed apart vertically, not scattered; the two rows
     * of the crease are exempt from each other and stay as they were */
    float lower = 0.0f, upper = 0.0f;
    for (int r = 0; r < 5; r++)
        for (int k = 0; k < 12; k++) {
            lower += c->y[cloth_index(c, k, r)] / 60.0f;
            upper += c->y[cloth_index(c, k, 11 - r)] / 60.0f;
        }
    cr_expect(upper - lower > 0.8f * thickness, "upper layer over the lower one: gap %g m", upper - lower);
    selfcollide_destroy(sc);
    cloth_destroy(c);
}

Test(selfcollide, pushes_share_the_correction_by_inverse_mass)
{
    Cloth *c = support_free_cloth(4, 1);
    SelfCollision *sc = selfcollide_create(c);
    support_place(c, 0, 0.0f, 0.0f, 0.0f);
    support_place(c, 3, 0.01f, 0.0f, 0.0f);
    support_place(c, 1, 5.0f, 0.0f, 0.0f);
    support_place(c, 2, 9.0f, 0.0f, 0.0f);
    c->inv_mass[0] = 3.0f;
    cr_expect_eq(selfcollide_apply(sc, c, 0.05f, 0.0f), 1);
    cr_expect_float_eq(c->x[3] - c->x[0], 0.05f, 1e-6, "pushed to the thickness");
    cr_expect_float_eq(c->x[0], -0.03f, 1e-6, "the lighter particle moves three times as far");
    cr_expect_float_eq(c->x[3], 0.02f, 1e-6);
    c->inv_mass[0] = c->inv_mass[3] = 0.0f;
    support_place(c, 3, 0.01f, 0.0f, 0.0f);
    support_place(c, 0, 0.0f, 0.0f, 0.0f);
    cr_expect_eq(selfcollide_apply(sc, c, 0.05f, 0.0f), 0, "two pinned particles stay");
    cr_expect_eq(c->x[3], 0.01f);
    selfcollide_destroy(sc);
    cloth_destroy(c);
}

Test(selfcollide, the_same_input_gives_the_same_bits)
{
    Cloth *a = support_free_cloth(20, 20), *b = support_free_cloth(20, 20);
    uint64_t rng = 99;
    for (int i = 0; i < a->count; i++) {
        float x = 0.3f * (float)rng_uniform(&rng), y = 0.1f * (float)rng_uniform(&rng);
        float z = 0.3f * (float)rng_uniform(&rng);
        support_place(a, i, x, y, z), support_place(b, i, x, y, z);
    }
    SelfCollision *sa = selfcollide_create(a), *sb = selfcollide_create(b);
    int ca = 0, cb = 0;
    /* one hash serves every call, whatever the thickness */
    for (int pass = 0; pass < 5; pass++) {
        ca += selfcollide_apply(sa, a, 0.02f + 0.005f * (float)pass, 0.0f);
        cb += selfcollide_apply(sb, b, 0.02f + 0.005f * (float)pass, 0.0f);
    }
    cr_expect_eq(ca, cb);
    cr_expect_gt(ca, 0);
    size_t bytes = (size_t)a->count * sizeof(float);
    cr_expect(memcmp(a->x, b->x, bytes) == 0 && memcmp(a->y, b->y, bytes) == 0 && memcmp(a->z, b->z, bytes) == 0);
    selfcollide_destroy(sa), selfcollide_destroy(sb);
    cloth_destroy(a), cloth_destroy(b);
}

Test(selfcollide, clamp_limits_the_displacement_and_keeps_its_direction)
{
    Cloth *c = support_free_cloth(3, 1);
    support_place(c, 0, 1.0f, 2.0f, 3.0f);
    c->x[0] = 1.3f, c->y[0] = 2.4f; /* moved 0.5 */
    support_place(c, 1, 0.0f, 0.0f, 0.0f);
    c->y[1] = 0.005f; /* moved less than the limit */
    support_place(c, 2, 0.0f, 0.0f, 0.0f);
    c->x[2] = 1.0f;
    c->inv_mass[2] = 0.0f; /* a grabbed particle goes where the hand takes it */
    selfcollide_clamp_displacement(c, 0.01f);
    cr_expect_float_eq(c->x[0], 1.0f + 0.006f, 1e-6);
    cr_expect_float_eq(c->y[0], 2.0f + 0.008f, 1e-6);
    cr_expect_float_eq(c->z[0], 3.0f, 1e-6);
    cr_expect_eq(c->y[1], 0.005f);
    cr_expect_eq(c->x[2], 1.0f);
    cloth_destroy(c);
}
