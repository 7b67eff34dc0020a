/* test_level.c - the level core's own vectorised loops run at (level.h)
 * is the one the program set, not the widest the processor has: a run
 * forced to a level (CLOTHSIM_KERNELS) runs core's loops at it as it runs
 * the fast path's, and so measures what a processor of that level gets. */
#include <criterion/criterion.h>

#include "../support.h"
#include "core/level.h"

/* A few steps of `settings` (the plain loop where plain); then whether
 * the build of `loops` that ran last was the one of `level`. */
static void expect_ran(CoreLevel level, CoreLoops loops, const char *what, bool plain, const char *const *settings)
{
    Solver *s = support_solver(SCENE_CURTAIN, settings);
    s->plain_relax = plain;
    core_level_forget();
    for (int n = 0; n < 3; n++)
        solver_step(s);
    cr_expect_eq(core_level_ran(loops), (int)level, "level %d: %s ran the build of level %d", (int)level, what,
                 core_level_ran(loops));
    solver_destroy(s);
}

Test(level, starts_at_the_widest_the_processor_has)
{
    cr_expect_eq(core_level(), core_level_cpu());
}

Test(level, a_forced_level_reaches_every_family_of_core_loops)
{
    static const char *const integrators[] = {"integrator=euler", "integrator=symplectic", "integrator=verlet",
                                              "integrator=implicit"};
    for (int l = CORE_LEVEL_BASELINE; l <= (int)core_level_cpu(); l++) {
        CoreLevel level = (CoreLevel)l;
        cr_assert_eq(core_level_set(level), level, "the processor has level %d", l);
        for (int i = 0; i < 4; i++) {
            const char *settings[] = {"cols=20", "rows=20", "substeps=10", integrators[i], NULL};
            expect_ran(level, CORE_LOOPS_INTEGRATE, integrators[i], false, settings);
        }
        const char *euler[] = {"cols=20", "rows=20", "substeps=10", "integrator=euler", NULL};
        /* springs.c and implicit.c: AVX2's build at avx512 too */
        CoreLevel avx2 = level > CORE_LEVEL_AVX2 ? CORE_LEVEL_AVX2 : level;
        expect_ran(avx2, CORE_LOOPS_SPRINGS, "springs.c", false, euler);
        expect_ran(level, CORE_LOOPS_SPRING_LINKS, "spring_links", true, euler);
        const char *implicit[] = {"cols=20", "rows=20", "integrator=implicit", NULL};
        expect_ran(avx2, CORE_LOOPS_IMPLICIT, "implicit.c", false, implicit);
        const char *xpbd[] = {"cols=20", "rows=20", "integrator=xpbd", NULL};
        expect_ran(level, CORE_LOOPS_VELOCITY, "velocity_from_move", false, xpbd);
        /* project_links: one build with FMA (AVX2 and up), one without */
        expect_ran(avx2, CORE_LOOPS_FUSED, "project_links", true, xpbd);
    }
}
