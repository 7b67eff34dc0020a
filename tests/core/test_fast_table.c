/* test_fast_table.c - core without the fast path (fast_table.h): a solver
 * made with no table runs the plain code on one thread and gives the bits
 * of one made with src/fast/'s table, in every order the fast path serves;
 * the colored order core walks (colour.h) is the fast path's, link for
 * link. tests/support.c installs the table for the suite; these tests
 * take it away for the solvers they make without it. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "core/colour.h"
#include "core/fast_table.h"
#include "fast/relax_fast.h"

static Solver *make(const char *const *settings, const FastTable *table)
{
    Params p;
    params_default(&p, SCENE_CURTAIN);
    char err[256];
    for (int k = 0; settings[k]; k++)
        cr_assert(params_assign(&p, settings[k], err, sizeof err), "%s: %s", settings[k], err);
    fast_table_install(table);
    Solver *s = solver_create(&p);
    cr_assert_not_null(s);
    solver_start_threads(s); /* as the front ends do */
    fast_table_install(relax_fast_table());
    return s;
}

Test(fast_table, without_the_table_the_plain_code_runs_with_the_same_bits_in_every_order)
{
    /* 75 x 75: over COLOUR_BANDED_LINKS, so the colored order has bands
     * and the fast path two threads (threads=2 asks for them) */
    static const char *const sizes[][3] = {{"cols=40", "rows=40", "integrator=jakobsen"},
                                           {"cols=75", "rows=75", "integrator=xpbd"}};
    static const char *const orders[] = {"order=sequential", "order=jacobi", "order=colored"};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
            const char *settings[] = {sizes[z][0], sizes[z][1], sizes[z][2],    orders[o],
                                      "wind_x=2",  "threads=2", "iterations=6", NULL};
            Solver *plain = make(settings, NULL), *fast = make(settings, relax_fast_table());
            cr_assert_null(plain->relax_fast, "no table: no fast path");
            cr_expect_eq(plain->threads, 1, "no table: one thread");
            cr_assert_not_null(fast->relax_fast);
            cr_expect_eq(fast->threads, 2, "the table: the threads asked for");
            int steps = support_steps(z == 0 ? 10 : 3, z == 0 ? 40 : 10);
            for (int k = 0; k < steps; k++)
                solver_step(plain), solver_step(fast);
            cr_expect(support_same_particles(plain, fast), "%s %s: the same bits with and without the table",
                      sizes[z][2], orders[o]);
            solver_destroy(plain);
            solver_destroy(fast);
        }
}

Test(fast_table, cores_colored_order_is_the_fast_paths_link_for_link)
{
    /* one band, several bands (over COLOUR_BANDED_LINKS), odd sides, a rope */
    const int sizes[][2] = {{40, 40}, {37, 23}, {75, 75}, {90, 91}, {41, 1}, {1, 30}, {2, 2}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        Cloth *cloth = cloth_create(sizes[k][0], sizes[k][1]);
        cr_assert_not_null(cloth);
        uint32_t *order = malloc((size_t)(cloth->link_count + 1) * sizeof *order);
        cr_assert(order && colour_order(cloth, order));
        RelaxFast *fast = relax_fast_create(cloth, 1);
        cr_assert_not_null(fast);
        cr_expect_eq(relax_fast_band_rows(fast), colour_band_rows(cloth));
        cr_expect(memcmp(order, relax_fast_order(fast), (size_t)cloth->link_count * sizeof *order) == 0,
                  "%dx%d: the same order", sizes[k][0], sizes[k][1]);
        relax_fast_destroy(fast);
        free(order);
        cloth_destroy(cloth);
    }
}
