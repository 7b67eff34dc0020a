/* test_springs.c - the springs direction by direction (springs.h) give the
 * plain loop's bits: every force-based integrator, ropes and cloths of odd
 * sizes (so that no vector loop ends on a whole vector), wind, dashpots, a
 * family without springs, torn links of every family, pins and particles on
 * top of each other. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "core/rng.h"

/* The plain loop (plain_relax) and the fast path from the same settings. */
static void make_pair(SceneKind scene, const char *const *settings, Solver **plain, Solver **fast)
{
    *plain = support_solver(scene, settings);
    *fast = support_solver(scene, settings);
    (*plain)->plain_relax = true;
}

static void expect_same_run(SceneKind scene, const char *const *settings, int steps, const char *what)
{
    Solver *plain, *fast;
    make_pair(scene, settings, &plain, &fast);
    for (int n = 0; n < steps; n++) {
        solver_step(plain);
        solver_step(fast);
    }
    cr_expect(support_same_particles(plain, fast), "%s: the same bits as the plain loop", what);
    /* and it did move: two frozen cloths prove nothing */
    Solver *start = support_solver(scene, settings);
    size_t bytes = (size_t)start->cloth->count * sizeof(float);
    cr_expect(memcmp(start->cloth->y, plain->cloth->y, bytes) != 0, "%s: the cloth moved", what);
    solver_destroy(start);
    solver_destroy(plain);
    solver_destroy(fast);
}

Test(springs, every_force_based_integrator_gives_the_plain_loops_bits_at_odd_sizes)
{
    static const char *const integrators[] = {"integrator=euler", "integrator=symplectic", "integrator=verlet"};
    static const char *const sizes[][2] = {{"cols=2", "rows=2"},  {"cols=3", "rows=5"},   {"cols=17", "rows=9"},
                                           {"cols=9", "rows=33"}, {"cols=30", "rows=24"}, {"cols=2", "rows=13"},
                                           {"cols=23", "rows=3"}};
    for (size_t i = 0; i < sizeof integrators / sizeof integrators[0]; i++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            /* the curtain has wind and gusts; spring_damping gives the dashpots work */
            const char *settings[] = {integrators[i],       sizes[k][0],   sizes[k][1], "spring_k=8",
                                      "spring_damping=0.3", "substeps=20", NULL};
            char what[120];
            snprintf(what, sizeof what, "%s %s %s", integrators[i], sizes[k][0], sizes[k][1]);
            expect_same_run(SCENE_CURTAIN, settings, 40, what);
        }
}

Test(springs, ropes_and_families_without_springs_give_the_plain_loops_bits)
{
    const char *rope[] = {"integrator=verlet", "cols=41", "substeps=30", NULL};
    expect_same_run(SCENE_CHAIN, rope, 60, "a rope of 41");
    const char *short_rope[] = {"integrator=symplectic", "cols=3", "substeps=30", NULL};
    expect_same_run(SCENE_CHAIN, short_rope, 60, "a rope of 3");
    const char *no_bend[] = {"integrator=verlet", "cols=13", "rows=11", "bend_stiffness=0", NULL};
    expect_same_run(SCENE_CURTAIN, no_bend, 40, "no bend springs");
    const char *no_shear[] = {"integrator=verlet", "cols=13", "rows=11", "shear_stiffness=0", NULL};
    expect_same_run(SCENE_CURTAIN, no_shear, 40, "no shear springs");
    const char *net[] = {"integrator=verlet", "cols=15", "rows=7", NULL};
    expect_same_run(SCENE_NET, net, 40, "the net");
    const char *flag[] = {"integrator=symplectic", "cols=19", "rows=11", "substeps=10", NULL};
    expect_same_run(SCENE_FLAG, flag, 40, "the flag");
}

/* Links torn by hand in every family and direction, some particles pinned,
 * some put exactly on a neighbour (a link of no length pulls nothing), the
 * rest moved about: both solvers get the same changes, then run on. */
Test(springs, torn_links_pins_and_particles_on_top_of_each_other_give_the_plain_loops_bits)
{
    static const char *const integrators[] = {"integrator=euler", "integrator=symplectic", "integrator=verlet"};
    for (size_t i = 0; i < sizeof integrators / sizeof integrators[0]; i++) {
        const char *settings[] = {integrators[i], "cols=21", "rows=14", "spring_damping=0.2", "substeps=20", NULL};
        Solver *solver[2];
        make_pair(SCENE_CURTAIN, settings, &solver[0], &solver[1]);
        for (int n = 0; n < 5; n++)
            solver_step(solver[0]), solver_step(solver[1]);
        for (int v = 0; v < 2; v++) {
            Cloth *c = solver[v]->cloth;
            uint64_t rng = 7;
            for (int l = 0; l < c->link_count; l++)
                if (rng_below(&rng, 9) == 0)
                    cloth_tear_link(c, l);
            for (int p = 0; p < c->count; p++) {
                uint32_t what = rng_below(&rng, 12);
                if (what == 0)
                    cloth_pin(c, p, true);
                else if (what == 1 && p % c->cols + 1 < c->cols)
                    c->x[p] = c->x[p + 1], c->y[p] = c->y[p + 1], c->z[p] = c->z[p + 1];
                else if (what == 2 && p >= c->cols)
                    c->x[p] = c->x[p - c->cols], c->y[p] = c->y[p - c->cols], c->z[p] = c->z[p - c->cols];
                else
                    c->z[p] += 0.01f * (float)rng_uniform(&rng);
                /* moved, not thrown: the previous position comes along */
                c->px[p] = c->x[p], c->py[p] = c->y[p], c->pz[p] = c->z[p];
            }
        }
        int torn = 0;
        for (int l = 0; l < solver[0]->cloth->link_count; l++)
            torn += solver[0]->cloth->torn[l];
        cr_assert_gt(torn, 10);
        for (int n = 0; n < 20; n++)
            solver_step(solver[0]), solver_step(solver[1]);
        cr_expect(support_same_particles(solver[0], solver[1]), "%s: the same bits as the plain loop", integrators[i]);
        cr_expect(!solver[0]->exploded, "%s: it did not explode (then both would go back to a step's start)",
                  integrators[i]);
        solver_destroy(solver[0]);
        solver_destroy(solver[1]);
    }
}

/* A setting changed mid-run and a state loaded from another solver reach
 * the springs' copies of the constants and the torn links. */
Test(springs, a_changed_setting_and_a_loaded_state_reach_the_directions)
{
    const char *settings[] = {"integrator=verlet", "cols=12", "rows=10", "spring_k=10", NULL};
    Solver *plain, *fast;
    make_pair(SCENE_CURTAIN, settings, &plain, &fast);
    for (int n = 0; n < 10; n++)
        solver_step(plain), solver_step(fast);
    Params params = fast->params;
    char err[200];
    cr_assert(params_set(&params, "spring_damping", "0.7", err, sizeof err), "%s", err);
    cr_assert(params_set(&params, "spring_k", "20", err, sizeof err), "%s", err);
    cr_assert(solver_set_params(plain, &params) && solver_set_params(fast, &params));
    for (int n = 0; n < 10; n++)
        solver_step(plain), solver_step(fast);
    cr_expect(support_same_particles(plain, fast), "a changed setting: the same bits");
    /* another solver's state, with links torn that these have whole */
    Solver *other = support_solver(SCENE_CURTAIN, settings);
    cr_assert(solver_set_params(other, &params));
    for (int l = 0; l < other->cloth->link_count; l += 7)
        cloth_tear_link(other->cloth, l);
    solver_step(other);
    size_t size = solver_state_size(other);
    unsigned char *bytes = malloc(size);
    cr_assert_not_null(bytes);
    solver_state_save(other, bytes);
    solver_state_load(plain, bytes);
    solver_state_load(fast, bytes);
    plain->plain_relax = true, fast->plain_relax = false; /* the state carries the other's */
    for (int n = 0; n < 10; n++)
        solver_step(plain), solver_step(fast);
    cr_expect(support_same_particles(plain, fast), "a loaded state: the same bits");
    free(bytes);
    solver_destroy(other);
    solver_destroy(plain);
    solver_destroy(fast);
}
