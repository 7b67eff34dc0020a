/* test_strain_limit.c - the strain limit eight rows or columns at a time
 * (strain_limit.h) gives the plain loop's bits: every force-based
 * integrator, sizes that fill no vector and sizes that fill them exactly,
 * ropes, torn links, pins and a cloth in the plane. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "core/rng.h"

/* The particles (support_same_particles) and the limit's moves, bit for bit. */
static bool same_particles(const Solver *first, const Solver *second)
{
    size_t f = (size_t)first->cloth->count * sizeof(float);
    return support_same_particles(first, second) && memcmp(first->jx, second->jx, f) == 0 &&
           memcmp(first->jy, second->jy, f) == 0 && memcmp(first->jz, second->jz, f) == 0;
}

/* Whether the limit moved some particle in the last substep. */
static bool limit_moved(const Solver *s)
{
    for (int i = 0; i < s->cloth->count; i++)
        if (s->jx[i] != 0.0f || s->jy[i] != 0.0f || s->jz[i] != 0.0f)
            return true;
    return false;
}

/* Runs the plain loop (plain_relax) and the fast path side by side; tear
 * and pin, when set, change both alike after a few steps. */
static void expect_same_run(SceneKind scene, const char *const *settings, int steps, bool tear_and_pin,
                            const char *what)
{
    Solver *solver[2] = {support_solver(scene, settings), support_solver(scene, settings)};
    solver[0]->plain_relax = true;
    for (int n = 0; n < steps; n++) {
        if (tear_and_pin && n == steps / 3)
            for (int v = 0; v < 2; v++) {
                Cloth *c = solver[v]->cloth;
                uint64_t rng = 11;
                for (int l = 0; l < c->link_count; l++)
                    if (rng_below(&rng, 10) == 0)
                        cloth_tear_link(c, l);
                for (int p = 0; p < c->count; p++)
                    if (rng_below(&rng, 15) == 0)
                        cloth_pin(c, p, true);
            }
        solver_step(solver[0]);
        solver_step(solver[1]);
    }
    cr_expect(same_particles(solver[0], solver[1]), "%s: the same bits as the plain loop", what);
    cr_expect(!solver[0]->exploded, "%s: it did not explode (both would go back to a step's start)", what);
    cr_expect(limit_moved(solver[0]), "%s: the limit had work to do", what);
    solver_destroy(solver[0]);
    solver_destroy(solver[1]);
}

Test(strain_limit, every_force_based_integrator_gives_the_plain_loops_bits_at_every_size)
{
    static const char *const integrators[] = {"integrator=symplectic", "integrator=verlet", "integrator=euler"};
    static const char *const sizes[][2] = {{"cols=2", "rows=3"},  {"cols=3", "rows=5"},   {"cols=9", "rows=17"},
                                           {"cols=17", "rows=9"}, {"cols=30", "rows=24"}, {"cols=33", "rows=10"},
                                           {"cols=8", "rows=8"},  {"cols=16", "rows=41"}, {"cols=2", "rows=19"}};
    for (size_t i = 0; i < sizeof integrators / sizeof integrators[0]; i++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            /* euler holds a short while only, at many substeps */
            bool euler = i == 2;
            const char *settings[] = {integrators[i],
                                      sizes[k][0],
                                      sizes[k][1],
                                      "spring_k=1",
                                      "pin=corners",
                                      "strain_limit=0.01",
                                      euler ? "substeps=60" : "substeps=5",
                                      NULL};
            char what[120];
            snprintf(what, sizeof what, "%s %s %s", integrators[i], sizes[k][0], sizes[k][1]);
            expect_same_run(SCENE_CURTAIN, settings, euler ? support_steps(2, 6) : support_steps(6, 20), false, what);
        }
}

Test(strain_limit, torn_links_pins_ropes_and_the_plane_give_the_plain_loops_bits)
{
    const char *torn[] = {"integrator=verlet", "cols=19", "rows=13", "spring_k=3", "strain_limit=0.05", NULL};
    expect_same_run(SCENE_CURTAIN, torn, 40, true, "torn links and pins");
    const char *rope[] = {"integrator=verlet", "cols=41", "spring_k=3", "strain_limit=0.02", NULL};
    expect_same_run(SCENE_CHAIN, rope, 40, false, "a rope");
    const char *net[] = {"integrator=symplectic", "cols=11", "rows=9", "spring_k=2", "strain_limit=0.05", NULL};
    expect_same_run(SCENE_NET, net, 40, false, "the net, in the plane");
    const char *tear[] = {"integrator=verlet", "cols=21", "rows=14", "strain_limit=0.2", NULL};
    expect_same_run(SCENE_TEAR, tear, 60, false, "the tear scene");
    /* held by its two top corners, the curtain's top edge sags between them:
     * the right links of the last column stretch past the limit too (pinned
     * along the top, it stretches mostly down) */
    const char *corners[] = {"integrator=verlet", "cols=19",           "rows=13", "pin=corners",
                             "spring_k=1",        "strain_limit=0.01", NULL};
    expect_same_run(SCENE_CURTAIN, corners, 20, false, "held by its corners");
}
