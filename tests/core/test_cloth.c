/* test_cloth.c - the grid: link families, lumped masses, triangles. */
#include <criterion/criterion.h>
#include <math.h>

#include "core/cloth.h"
#include "core/scene.h"

Test(cloth, grid_has_the_three_link_families)
{
    Cloth *c = cloth_create(5, 4);
    int count[LINK_FAMILY_COUNT] = {0};
    for (int l = 0; l < c->link_count; l++)
        count[c->family[l]]++;
    cr_expect_eq(count[LINK_STRUCTURAL], 4 * 4 + 5 * 3);
    cr_expect_eq(count[LINK_SHEAR], 2 * 4 * 3);
    cr_expect_eq(count[LINK_BEND], 3 * 4 + 5 * 2);
    cr_expect_eq(c->triangle_count, 2 * 4 * 3);
    cloth_destroy(c);
}

Test(cloth, lumped_masses_follow_the_area_each_point_stands_for)
{
    Params p;
    params_default(&p, SCENE_CURTAIN);
    Cloth *c = scene_build(&p);
    double cell = p.density * p.spacing * p.spacing, total = 0.0;
    cr_expect_float_eq(c->mass[cloth_index(c, 0, 0)], cell / 4, 1e-9, "corner: a quarter cell");
    cr_expect_float_eq(c->mass[cloth_index(c, 5, 0)], cell / 2, 1e-9, "edge: half a cell");
    cr_expect_float_eq(c->mass[cloth_index(c, 0, 7)], cell / 2, 1e-9, "edge: half a cell");
    cr_expect_float_eq(c->mass[cloth_index(c, 5, 7)], cell, 1e-9, "interior: a whole cell");
    for (int i = 0; i < c->count; i++)
        total += c->mass[i];
    double area = (p.cols - 1) * p.spacing * (p.rows - 1) * p.spacing;
    cr_expect_float_eq(total, p.density * area, 1e-6, "the masses add up to the cloth's");
    cr_expect_eq(c->inv_mass[cloth_index(c, 3, 0)], 0.0f, "pinned: inverse mass 0");
    cr_expect_float_eq(c->inv_mass[cloth_index(c, 3, 1)], 1.0 / c->mass[cloth_index(c, 3, 1)], 1e-3);
    cloth_destroy(c);
}

Test(cloth, flat_cloth_triangles_face_plus_z)
{
    Params p;
    params_default(&p, SCENE_NET);
    Cloth *c = scene_build(&p);
    for (int t = 0; t < c->triangle_count; t++) {
        uint32_t a = c->triangle[t][0], b = c->triangle[t][1], d = c->triangle[t][2];
        float e1x = c->x[b] - c->x[a], e1y = c->y[b] - c->y[a];
        float e2x = c->x[d] - c->x[a], e2y = c->y[d] - c->y[a];
        cr_assert(e1x * e2y - e1y * e2x > 0.0f, "triangle %d", t);
    }
    cloth_destroy(c);
}

Test(cloth, scenes_start_with_every_link_at_rest)
{
    for (SceneKind scene = 0; scene < SCENE_COUNT; scene++) {
        Params p;
        params_default(&p, scene);
        Cloth *c = scene_build(&p);
        for (int l = 0; l < c->link_count; l++)
            if (scene != SCENE_CHAIN || c->family[l] == LINK_STRUCTURAL) /* a rope's bend rest is straight */
                cr_assert(fabsf(cloth_link_strain(c, l)) < 1e-5f, "%s link %d strain %g", scene_names[scene], l,
                          cloth_link_strain(c, l));
        cloth_destroy(c);
    }
}

Test(cloth, chain_hangs_between_pins_a_span_apart)
{
    Params p;
    params_default(&p, SCENE_CHAIN);
    Cloth *c = scene_build(&p);
    double length = (p.cols - 1) * p.spacing;
    cr_expect_float_eq(c->x[p.cols - 1] - c->x[0], p.span * length, 1e-5);
    cr_expect_float_eq(c->y[p.cols - 1], c->y[0], 1e-6);
    cr_expect(c->pinned[0] && c->pinned[p.cols - 1] && !c->pinned[1]);
    cloth_destroy(c);
}

Test(cloth, sizes_past_the_limit_are_refused)
{
    cr_expect_null(cloth_create(0, 5));
    cr_expect_null(cloth_create(1001, 5));
    cr_expect_null(cloth_create(1000, 251));
}

Test(cloth, link_index_arithmetic_matches_the_build_order)
{
    Cloth *c = cloth_create(6, 5);
    for (int r = 0; r < 5; r++)
        for (int col = 0; col < 6; col++) {
            int i = cloth_index(c, col, r);
            if (col + 1 < 6) {
                int l = cloth_link_right(c, col, r);
                cr_expect(c->link_a[l] == (uint32_t)i && c->link_b[l] == (uint32_t)i + 1 &&
                          c->family[l] == LINK_STRUCTURAL);
            }
            if (r + 1 < 5) {
                int l = cloth_link_below(c, col, r);
                cr_expect(c->link_a[l] == (uint32_t)i && c->link_b[l] == (uint32_t)(i + 6) &&
                          c->family[l] == LINK_STRUCTURAL);
            }
            if (col + 1 < 6 && r + 1 < 5) {
                int l0 = cloth_link_shear(c, col, r, 0), l1 = cloth_link_shear(c, col, r, 1);
                cr_expect(c->link_a[l0] == (uint32_t)i && c->link_b[l0] == (uint32_t)(i + 7) &&
                          c->family[l0] == LINK_SHEAR);
                cr_expect(c->link_a[l1] == (uint32_t)(i + 1) && c->link_b[l1] == (uint32_t)(i + 6));
            }
            if (col + 2 < 6) {
                int l = cloth_link_bend_right(c, col, r);
                cr_expect(c->link_a[l] == (uint32_t)i && c->link_b[l] == (uint32_t)(i + 2) &&
                          c->family[l] == LINK_BEND);
            }
            if (r + 2 < 5) {
                int l = cloth_link_bend_below(c, col, r);
                cr_expect(c->link_a[l] == (uint32_t)i && c->link_b[l] == (uint32_t)(i + 12) &&
                          c->family[l] == LINK_BEND);
            }
        }
    cloth_destroy(c);
}

Test(cloth, a_torn_thread_takes_its_bend_links_and_triangles_with_it)
{
    Cloth *c = cloth_create(5, 5);
    int l = cloth_link_below(c, 2, 2); /* (2,2)-(2,3) */
    cr_expect(cloth_tear_link(c, l));
    cr_expect(!cloth_tear_link(c, l), "tearing twice reports nothing new");
    cr_expect(c->torn[cloth_link_bend_below(c, 2, 1)] && c->torn[cloth_link_bend_below(c, 2, 2)]);
    cr_expect(!c->torn[cloth_link_bend_below(c, 2, 0)] && !c->torn[cloth_link_bend_right(c, 1, 2)]);
    int torn = 0;
    for (int t = 0; t < c->triangle_count; t++)
        torn += c->triangle_torn[t];
    cr_expect_eq(torn, 2, "one triangle on each side of the thread");
    cr_expect(c->triangle_torn[2 * (2 * 4 + 1) + 1] && c->triangle_torn[2 * (2 * 4 + 2)]);
    cloth_destroy(c);
}
