/* test_fast.c - the fast relaxation path (relax_fast.h): order=colored's
 * colouring is valid, and in the colored and the sequential order
 * and jacobi (relax_schedule.h) it gives exactly the bits of the plain loop walking
 * the same order, for every position-based method, on one to four
 * threads, at every kernel level. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "fast/relax_fast.h"
#include "fast/relax_helix.h"
#include "fast/relax_schedule.h"

/* ------------------------------------------------------------ the colouring */

static void expect_valid_colouring(int cols, int rows)
{
    Cloth *cloth = cloth_create(cols, rows);
    cr_assert_not_null(cloth);
    RelaxFast *fast = relax_fast_create(cloth, 1);
    cr_assert_not_null(fast);
    const uint32_t *order = relax_fast_order(fast);
    const int *start = relax_fast_group_start(fast);
    int groups = relax_fast_group_count(fast);
    cr_assert_eq(start[0], 0);
    cr_assert_eq(start[groups], cloth->link_count, "%dx%d: every link is ordered", cols, rows);
    int *seen = calloc((size_t)cloth->link_count, sizeof *seen);
    int *owner = malloc((size_t)cloth->count * sizeof *owner);         /* last group that touched a particle */
    int *band_of = malloc((size_t)cloth->count * 2 * sizeof *band_of); /* per phase: the band that touched it */
    cr_assert(seen && owner && band_of);
    for (int i = 0; i < cloth->count; i++)
        owner[i] = -1, band_of[2 * i] = band_of[2 * i + 1] = -1;
    int last_phase = 0;
    for (int g = 0; g < groups; g++) {
        cr_assert_leq(start[g], start[g + 1]);
        int band = relax_fast_group_band(fast, g), phase = band % 2;
        cr_assert_geq(phase, last_phase, "%dx%d: the even bands come first", cols, rows);
        last_phase = phase;
        for (int n = start[g]; n < start[g + 1]; n++) {
            uint32_t l = order[n];
            cr_assert_lt(l, (uint32_t)cloth->link_count);
            seen[l]++;
            int ends[2] = {(int)cloth->link_a[l], (int)cloth->link_b[l]};
            cr_expect_eq(ends[0] / cols / relax_fast_band_rows(fast), band, "%dx%d: link %d is in band %d", cols, rows,
                         (int)l, band);
            for (int e = 0; e < 2; e++) {
                cr_expect_neq(owner[ends[e]], g, "%dx%d: group %d has two links on particle %d", cols, rows, g,
                              ends[e]);
                owner[ends[e]] = g;
                int *other = &band_of[2 * ends[e] + phase];
                cr_expect(*other < 0 || *other == band, "%dx%d: bands %d and %d of a phase share particle %d", cols,
                          rows, *other, band, ends[e]);
                *other = band;
            }
        }
    }
    for (int l = 0; l < cloth->link_count; l++)
        cr_expect_eq(seen[l], 1, "%dx%d: link %d is in %d groups", cols, rows, l, seen[l]);
    free(seen);
    free(owner);
    free(band_of);
    relax_fast_destroy(fast);
    cloth_destroy(cloth);
}

Test(fast, no_two_links_of_a_group_or_two_bands_of_a_phase_share_a_particle_and_every_link_has_one_group)
{
    /* odd and even sides, a rope, a column, sides below and above a vector */
    const int sizes[][2] = {{40, 40}, {37, 23}, {1, 1},  {2, 2},   {3, 3},  {41, 1},  {1, 30},
                            {9, 17},  {64, 5},  {12, 9}, {20, 16}, {5, 33}, {90, 90}, {77, 101}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        expect_valid_colouring(sizes[k][0], sizes[k][1]);
}

/* relax_schedule_create checks with asserts that no particle is twice in
 * a group, that every link comes after the last link before it at either
 * end (in an earlier group of its thread, or behind a wait for the other
 * thread), and that every wait is for a group that cannot wait back. */
Test(fast, sequential_schedules_keep_their_invariants_at_any_size_and_thread_count)
{
    const int sizes[][2] = {{40, 40}, {37, 23}, {1, 1}, {2, 2}, {3, 3}, {41, 1}, {1, 30}, {9, 17}, {5, 33}, {80, 80}};
    const int threads[] = {1, 2, 3, 4, 7, 16};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        Cloth *c = cloth_create(sizes[k][0], sizes[k][1]);
        cr_assert(c);
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            RelaxSchedule *s = relax_schedule_create(c, threads[t]);
            cr_assert(s, "%dx%d on %d threads", sizes[k][0], sizes[k][1], threads[t]);
            int most = relax_schedule_threads(s);
            cr_expect(most >= 1 && most <= threads[t]);
            relax_schedule_destroy(s);
        }
        /* a rope of 41 particles: 40 horizontal links, one after the other */
        if (sizes[k][0] == 41 && sizes[k][1] == 1) {
            RelaxSchedule *s = relax_schedule_create(c, 1);
            cr_expect_eq(relax_schedule_levels(s), 40, "a rope of 41: %d levels", relax_schedule_levels(s));
            relax_schedule_destroy(s);
        }
        cloth_destroy(c);
    }
}

/* ------------------------------------------------------------ same bits
 *
 * What the equality tests below cover, and where (a covering design: every
 * order x every method x every thread count, each kernel level at each
 * thread count somewhere, not every combination of all of them):
 *
 * - Below the 32768 links from which a pass is shared among threads
 *   (small_cloths_..., torn_links_...), a job runs on one thread whatever
 *   the thread count, so those compare each kernel level (AVX-512, AVX2,
 *   scalar, the widest the CPU has of each) with the plain loop, on one
 *   thread: the three methods, the three orders, a tear in gusty wind, the
 *   box with edge samples and the floor, a rope, no gravity.
 * - Above it (large_cloths_...), each of the 3 methods x 3 orders on a
 *   75 x 75 cloth (33002 links: just above the threshold) tearing in gusty
 *   wind, and in the box with the floor under it, at 1, 2, 3 and 4 threads:
 *   18 cases. The kernel level of each thread count turns with the case
 *   (case_kernels), so each level runs at each thread count in 6 of them.
 * - Substeps under a millisecond (sequential and jacobi keep their
 *   corrections as remainders there) on the same large cloth, tearing, for
 *   the 3 methods x those 2 orders at 1 to 4 threads.
 * - The sphere inside the passes of a large cloth holding many bands, in
 *   the 3 orders at 1 to 4 threads.
 * A mutation that breaks only the third thread (thread index 2 skipping
 * its waits or its last chunk) fails every large case. */

/* A fast path's kernels and threads, against the plain loop. */
typedef struct Variant {
    char name[48];
    bool plain;               /* the reference: the plain loop in the same order */
    RelaxFastKernels kernels; /* where the CPU has them; else the next below */
    int threads;
} Variant;

/* Not 0: the fast variants' sequential passes cut anywhere, drawn from
 * this and the thread count (relax_fast_cut_anywhere). */
static unsigned cut_seed;

/* The kernel levels this processor has, widest first: each is tested,
 * and variant_solver checks that it runs (no silent fall back to a level
 * below). Those it lacks are named by
 * every_kernel_level_the_processor_has_is_tested, not passed in silence. */
static int level_count;
static RelaxFastKernels levels[RELAX_FAST_LEVELS];

static void find_levels(void)
{
    if (level_count)
        return;
    const RelaxFastKernels widest_first[] = {RELAX_FAST_AVX512, RELAX_FAST_AVX2, RELAX_FAST_NEON, RELAX_FAST_PORTABLE};
    for (int k = 0; k < RELAX_FAST_LEVELS; k++)
        if (relax_fast_cpu_has(widest_first[k]))
            levels[level_count++] = widest_first[k];
}

/* Below the threshold: the plain loop, then each level on one thread
 * (level_variants()[1]: the widest). */
#define LEVEL_VARIANTS (1 + RELAX_FAST_LEVELS)
static const Variant *level_variants(int *count)
{
    static Variant variants[LEVEL_VARIANTS];
    find_levels();
    variants[0] = (Variant){"plain loop", true, RELAX_FAST_PORTABLE, 1};
    for (int k = 0; k < level_count; k++) {
        variants[1 + k] = (Variant){"", false, levels[k], 1};
        snprintf(variants[1 + k].name, sizeof variants[1 + k].name, "%s", relax_fast_kernel_name(levels[k]));
    }
    if (count)
        *count = 1 + level_count;
    return variants;
}

/* Above it: the plain loop and 1 to 4 threads. */
#define THREAD_VARIANTS 5

/* The kernel level of `threads` threads in large case number `which`: it
 * turns with the case, so each level meets each thread count. */
static RelaxFastKernels case_kernels(int which, int threads)
{
    find_levels();
    return levels[(which + threads) % level_count];
}

/* threads threads at `kernels`, named by both and `how` */
static Variant thread_variant(RelaxFastKernels kernels, int threads, const char *how)
{
    Variant v = {"", false, kernels, threads};
    snprintf(v.name, sizeof v.name, "%s, %d thread%s%s", relax_fast_kernel_name(kernels), threads,
             threads > 1 ? "s" : "", how);
    return v;
}

static void thread_variants(int which, Variant out[THREAD_VARIANTS])
{
    out[0] = (Variant){"plain loop", true, RELAX_FAST_PORTABLE, 1};
    for (int t = 1; t < THREAD_VARIANTS; t++)
        out[t] = thread_variant(case_kernels(which, t), t, "");
}

static Solver *variant_solver(const Variant *v, const char *const *settings)
{
    Solver *s = support_solver(SCENE_CURTAIN, settings);
    s->plain_relax = v->plain;
    if (v->threads > 1)
        cr_assert(solver_set_threads(s, v->threads), "%s: threads start", v->name);
    relax_fast_use_kernels(s->relax_fast, v->kernels);
    /* core's own loops at the level too (core/level.h): the plain loop's
     * at the baseline, so that each level's are held to its bits; where a
     * test steps two solvers in turn, both run at the last one's */
    core_level_set(relax_fast_core_level(v->kernels));
    if (!v->plain)
        cr_assert_eq(relax_fast_kernels(s->relax_fast), v->kernels, "%s: the level runs, not one below it", v->name);
    if (cut_seed && !v->plain)
        relax_fast_cut_anywhere(s->relax_fast, cut_seed + (unsigned)v->threads);
    return s;
}

/* The orders the fast path serves, each against the plain loop walking it. */
static const char *const fast_orders[] = {"order=colored", "order=sequential", "order=jacobi"};
#define FAST_ORDERS (int)(sizeof fast_orders / sizeof fast_orders[0])
static const char *const methods[] = {"integrator=jakobsen", "integrator=pbd", "integrator=xpbd"};
#define METHODS (int)(sizeof methods / sizeof methods[0])

/* settings with its "order=..." (or none) replaced by order, into out */
static void with_order(const char *const *settings, const char *order, const char **out, int size)
{
    int n = 0;
    for (int k = 0; settings[k] && n < size - 2; k++)
        if (strncmp(settings[k], "order=", 6) != 0)
            out[n++] = settings[k];
    out[n++] = order;
    out[n] = NULL;
}

/* Runs variants[0 .. count) for steps steps and compares the positions
 * (float and remainder) and the torn links of the others with the first's
 * (the plain loop's). */
static void expect_same_bits_of(const Variant *variants, int count, const char *const *settings, int steps,
                                const char *what, bool tears)
{
    Solver *solver[LEVEL_VARIANTS > THREAD_VARIANTS ? LEVEL_VARIANTS : THREAD_VARIANTS];
    cr_assert(count <= (int)(sizeof solver / sizeof solver[0]));
    for (int v = 0; v < count; v++) {
        solver[v] = variant_solver(&variants[v], settings);
        for (int n = 0; n < steps; n++)
            solver_step(solver[v]);
    }
    const Cloth *ref = solver[0]->cloth;
    size_t bytes = (size_t)ref->count * sizeof(float), double_bytes = (size_t)ref->count * sizeof(double);
    cr_expect(!solver[0]->exploded, "%s: the reference run stays sane", what);
    int torn = 0;
    for (int l = 0; l < ref->link_count; l++)
        torn += ref->torn[l];
    cr_expect(tears ? torn > 0 : torn == 0, "%s: %d links torn", what, torn);
    for (int v = 1; v < count; v++) {
        const Cloth *c = solver[v]->cloth;
        bool same =
            memcmp(ref->x, c->x, bytes) == 0 && memcmp(ref->y, c->y, bytes) == 0 && memcmp(ref->z, c->z, bytes) == 0;
        cr_expect(same, "%s, %s: the same bits as the plain loop", what, variants[v].name);
        bool same_rest = memcmp(ref->rx, c->rx, double_bytes) == 0 && memcmp(ref->ry, c->ry, double_bytes) == 0 &&
                         memcmp(ref->rz, c->rz, double_bytes) == 0;
        cr_expect(same_rest, "%s, %s: the same remainders as the plain loop", what, variants[v].name);
        cr_expect(memcmp(ref->torn, c->torn, (size_t)ref->link_count) == 0, "%s, %s: the same links torn", what,
                  variants[v].name);
    }
    /* and it did move: a comparison of two frozen cloths proves nothing */
    Solver *start = support_solver(SCENE_CURTAIN, settings);
    cr_expect(memcmp(start->cloth->z, ref->z, bytes) != 0, "%s: the cloth moved", what);
    solver_destroy(start);
    for (int v = 0; v < count; v++)
        solver_destroy(solver[v]);
}

/* Below the threshold: every kernel level in one order. */
static void expect_same_bits_in(const char *const *settings, int steps, const char *what, bool tears)
{
    int count;
    const Variant *variants = level_variants(&count);
    expect_same_bits_of(variants, count, settings, steps, what, tears);
}

/* expect_same_bits_in for every order the fast path serves. */
static void expect_same_bits(const char *const *settings, int steps, const char *what, bool tears)
{
    for (int o = 0; o < FAST_ORDERS; o++) {
        const char *ordered[32];
        with_order(settings, fast_orders[o], ordered, 32);
        char label[160];
        snprintf(label, sizeof label, "%s, %s", what, fast_orders[o]);
        expect_same_bits_in(ordered, steps, label, tears);
    }
}

/* Above the threshold: large case number `which`, at 1 to 4 threads. */
static void expect_same_bits_threaded(int which, const char *const *settings, int steps, const char *what, bool tears)
{
    Variant variants[THREAD_VARIANTS];
    thread_variants(which, variants);
    expect_same_bits_of(variants, THREAD_VARIANTS, settings, steps, what, tears);
}

/* Which levels the equality tests below run here, said in make test's
 * output; each the processor has is used as asked, and one it lacks is
 * never taken for run (it falls to one the processor has). */
Test(fast, every_kernel_level_the_processor_has_is_tested)
{
    find_levels();
    char ran[80] = "", skipped[80] = "";
    int has_count = 0;
    Cloth *cloth = cloth_create(20, 20);
    RelaxFast *f = relax_fast_create(cloth, 1);
    cr_assert_not_null(f);
    for (int k = 0; k < RELAX_FAST_LEVELS; k++) {
        bool has = relax_fast_cpu_has((RelaxFastKernels)k);
        has_count += has;
        char *list = has ? ran : skipped;
        snprintf(list + strlen(list), 80 - strlen(list), "%s%s", *list ? ", " : "", relax_fast_kernel_name(k));
        relax_fast_use_kernels(f, (RelaxFastKernels)k);
        RelaxFastKernels used = relax_fast_kernels(f);
        if (has)
            cr_expect_eq(used, k, "%s: runs as asked", relax_fast_kernel_name(k));
        else
            cr_expect((int)used != k && relax_fast_cpu_has(used), "%s: not on this processor, %s instead",
                      relax_fast_kernel_name(k), relax_fast_kernel_name(used));
    }
    cr_expect(relax_fast_cpu_has(RELAX_FAST_PORTABLE), "every processor runs the portable level");
    cr_expect_eq(level_count, has_count, "the equality tests take every level the processor has");
    /* on standard error, so that make test's output says it */
    fprintf(stderr, "fast path: the equality tests run the kernel levels %s; skipped, not on this processor: %s\n", ran,
            *skipped ? skipped : "none");
    relax_fast_destroy(f);
    cloth_destroy(cloth);
}

Test(fast, small_cloths_give_the_plain_loops_bits_at_every_kernel_level)
{
    const char *jakobsen[] = {"integrator=jakobsen", "cols=37", "rows=29", "iterations=10", NULL};
    expect_same_bits(jakobsen, support_steps(10, 25), "jakobsen 37x29, sphere", false);
    const char *pbd[] = {"integrator=pbd", "cols=30", "rows=26", "iterations=10", NULL};
    expect_same_bits(pbd, support_steps(10, 25), "pbd 30x26, sphere", false);
    const char *xpbd[] = {"integrator=xpbd", "cols=33", "rows=20", "iterations=10", NULL};
    expect_same_bits(xpbd, support_steps(12, 30), "xpbd 33x20, sphere", false);
}

Test(fast, torn_links_pins_and_other_colliders_give_the_same_bits_too)
{
    /* tearing while it runs, the box with edge samples and the floor, a rope */
    /* wind on the tear scene: a torn triangle's force is left out */
    const char *tear[] = {"scene=tear", "cols=20",  "rows=14",        "pull_speed=2",
                          "tear=naive", "wind_x=3", "turbulence=0.5", NULL};
    expect_same_bits(tear, support_steps(15, 30), "tear scene", true);
    const char *box[] = {"scene=drape", "cols=17", "rows=17", "edge_samples=3", "floor=on", NULL};
    expect_same_bits(box, support_steps(15, 35), "drape on the box", false);
    /* (jacobi's chain at these settings blows up: a frozen cloth proves nothing) */
    const char *rope[] = {"scene=chain", "order=colored", "cols=41", NULL};
    expect_same_bits_in(rope, support_steps(20, 40), "chain, colored", false);
    const char *rope_sequential[] = {"scene=chain", "order=sequential", "cols=41", NULL};
    expect_same_bits_in(rope_sequential, support_steps(20, 40), "chain, sequential", false);
    /* no gravity: forces start at -0, which adding a skipped +0 would change */
    const char *weightless[] = {"gravity=0", "cols=19", "rows=21", "integrator=xpbd", NULL};
    expect_same_bits(weightless, support_steps(10, 20), "weightless curtain", false);
}

/* The large cloth: 75 x 75 is 33002 links, just above the 32768 from
 * which a pass is shared among threads (relax_fast.c), a metre square. */
#define LARGE "cols=75", "rows=75", "spacing=0.0133"

/* The large cloth in one of three settings (0 the tear scene, 1 the box,
 * 2 the floor) for every method and order, each case its own kernel
 * levels (which). Three tests, so that the suite's workers share them.
 * make test runs three cases of each: every method and every order once,
 * and the three settings together every pair of them; make check-long all
 * nine. A thread count's level turns with the setting, not the case: it
 * runs the same levels either way. */
static void large_cloth_case(int kind)
{
    for (int m = 0; m < METHODS; m++)
        for (int o = 0; o < FAST_ORDERS; o++) {
            if (!support_long() && o != (m + kind) % FAST_ORDERS)
                continue;
            int which = (m * FAST_ORDERS + o) * 3 + kind;
            char what[128];
            if (kind == 0) {
                const char *tear[] = {
                    "scene=tear", LARGE,          "pull_speed=3", "tear=naive",   "wind_x=3", "turbulence=0.5",
                    "substeps=2", "iterations=6", methods[m],     fast_orders[o], NULL};
                snprintf(what, sizeof what, "tear scene 75x75, %s, %s", methods[m], fast_orders[o]);
                expect_same_bits_threaded(which, tear, support_steps(3, 6), what, true);
            } else if (kind == 1) {
                /* a box round the curtain's lowest 5 cm: contact from the first step */
                const char *box[] = {LARGE,        "collider=box", "box_size=0.5", "box_y=0.3",    "box_z=0",
                                     "substeps=2", "iterations=6", methods[m],     fast_orders[o], NULL};
                snprintf(what, sizeof what, "curtain 75x75 in the box, %s, %s", methods[m], fast_orders[o]);
                expect_same_bits_threaded(which, box, support_steps(3, 6), what, false);
            } else {
                /* the curtain's lowest rows start under a floor at 0.9 m */
                const char *floor[] = {LARGE,          "floor=on", "floor_y=0.9",  "substeps=2",
                                       "iterations=6", methods[m], fast_orders[o], NULL};
                snprintf(what, sizeof what, "curtain 75x75 on the floor, %s, %s", methods[m], fast_orders[o]);
                expect_same_bits_threaded(which, floor, support_steps(3, 6), what, false);
            }
        }
}

Test(fast, a_large_cloth_tears_with_the_same_bits_on_one_to_four_threads, .timeout = 240)
{
    large_cloth_case(0);
}

Test(fast, a_large_cloth_meets_the_box_with_the_same_bits_on_one_to_four_threads, .timeout = 240)
{
    large_cloth_case(1);
}

Test(fast, a_large_cloth_meets_the_floor_with_the_same_bits_on_one_to_four_threads, .timeout = 240)
{
    large_cloth_case(2);
}

/* The sequential order's walk cut among 1 to 4 threads on tall, narrow
 * cloths above the threshold (26 x 230 and 35 x 200: narrower and wider
 * than the walk's period of 32 keys at AVX-512, many periods down), each
 * family switched off in turn, which changes the steps a family waits for
 * the one before it and so where a piece of one thread meets the next. */
Test(fast, the_sequential_walk_on_one_to_four_threads_keeps_the_bits_on_tall_cloths_with_a_family_off, .timeout = 240)
{
    find_levels();
    const Variant variants[] = {
        {"plain loop", true, RELAX_FAST_PORTABLE, 1},
        thread_variant(levels[0], 1, ""),
        thread_variant(levels[0], 2, ""),
        thread_variant(levels[0], 3, ""),
        thread_variant(levels[0], 4, ""),
    };
    const int sizes[][2] = {{26, 230}, {35, 200}};
    const char *const off[] = {"stiffness=0.9", "stiffness=0", "shear_stiffness=0", "bend_stiffness=0"};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (size_t o = 0; o < sizeof off / sizeof off[0]; o++) {
            char cols[32], rows[32], what[128];
            snprintf(cols, sizeof cols, "cols=%d", sizes[k][0]);
            snprintf(rows, sizeof rows, "rows=%d", sizes[k][1]);
            const char *settings[] = {"order=sequential", cols, rows, "spacing=0.005", "iterations=3", off[o], NULL};
            snprintf(what, sizeof what, "curtain %dx%d, %s, sequential", sizes[k][0], sizes[k][1], off[o]);
            expect_same_bits_of(variants, 5, settings, support_steps(3, 5), what, false);
        }
}

/* On several threads the sequential order's walk (relax_helix.h) cuts
 * each pass into one piece a thread, where the threads' speeds say; the
 * bits must not depend on where. Here the cuts fall anywhere, often at
 * the steps where a family starts or ends, different ones each substep,
 * in the first, the middle and the last passes: with 2 passes (no middle
 * ones), 6, and below 1 ms substeps (remainders), for every method, with
 * tearing and the moving sphere; and with the floor, whose contact runs
 * between the passes, so that each pass is a job of its own (below 1 ms:
 * the floor's passes keep remainders too). make test walks each of the
 * four in one method (3 methods in turn), make check-long in all three. */
Test(fast, the_sequential_walk_cut_anywhere_among_two_to_four_threads_keeps_the_bits, .timeout = 240)
{
    const char *const passes[] = {"iterations=2", "iterations=6", "iterations=3", "iterations=3"};
    for (int m = 0; m < METHODS; m++)
        for (int k = 0; k < 4; k++) {
            if (!support_long() && m != k % METHODS)
                continue;
            /* below 1 ms: 4 ms steps of 8 substeps */
            const char *substeps = k >= 2 ? "substeps=8" : "substeps=2";
            const char *settings[] = {"scene=tear",
                                      LARGE,
                                      "pull_speed=3",
                                      "tear=naive",
                                      "wind_x=3",
                                      "order=sequential",
                                      substeps,
                                      passes[k],
                                      methods[m],
                                      k == 3 ? "floor=on" : "floor=off",
                                      k >= 2 ? "dt=0.004" : NULL,
                                      NULL};
            /* each level the processor has walks on several threads */
            const Variant variants[] = {
                {"plain loop", true, RELAX_FAST_PORTABLE, 1},
                thread_variant(case_kernels(m + k, 2), 2, ", cut anywhere"),
                thread_variant(case_kernels(m + k, 3), 3, ", cut anywhere"),
                thread_variant(case_kernels(m + k, 4), 4, ", cut anywhere"),
            };
            char what[128];
            snprintf(what, sizeof what, "tear scene 75x75, %s, %s, %s%s, sequential", methods[m], passes[k], substeps,
                     k == 3 ? ", the floor" : "");
            cut_seed = (unsigned)(100 * m + 10 * k + 1);
            expect_same_bits_of(variants, 4, settings, support_steps(3, 6), what, true);
            cut_seed = 0;
        }
}

/* Below SOLVER_KEEP_BELOW (1 ms substeps) the sequential order and jacobi
 * keep their corrections as remainders (cloth.h); the fast path must keep
 * the same ones, on a cloth large enough for threads, tearing in wind.
 * make test: each method in one of the two orders, both orders met, each
 * case every kernel level at 1 to 4 threads; make check-long: all six. */
Test(fast, substeps_under_a_millisecond_keep_the_plain_loops_remainders_on_one_to_four_threads, .timeout = 240)
{
    const char *kept_orders[] = {"order=sequential", "order=jacobi"};
    for (int m = 0; m < METHODS; m++)
        for (int o = 0; o < 2; o++) {
            int which = 2 * m + o;
            if (!support_long() && (m + o) % 2 != 0)
                continue;
            const char *tear[] = {"scene=tear", LARGE,          "pull_speed=3", "tear=naive",   "wind_x=3", "dt=0.004",
                                  "substeps=8", "iterations=3", methods[m],     kept_orders[o], NULL};
            char what[128];
            snprintf(what, sizeof what, "tear scene 75x75, 0.5 ms substeps, %s, %s", methods[m], kept_orders[o]);
            expect_same_bits_threaded(which, tear, support_steps(3, 6), what, true);
        }
}

Test(fast, the_sphere_holds_many_bands_of_a_large_cloth_with_the_same_bits_on_one_to_four_threads)
{
    /* over 32768 links: bands of RELAX_FAST_BAND_ROWS rows; with the
     * colored order each band's contact is done by the thread that
     * finishes the odd band next to it */
    const char *settings[] = {"scene=drape",    "collider=sphere", "floor=off",    "cols=75", "rows=75",
                              "spacing=0.0267", "substeps=2",      "iterations=4", NULL};
    const int steps = support_steps(18, 40);
    for (int o = 0; o < FAST_ORDERS; o++) {
        const char *ordered[32];
        with_order(settings, fast_orders[o], ordered, 32);
        char what[96];
        snprintf(what, sizeof what, "drape on the sphere, 75x75, %s", fast_orders[o]);
        expect_same_bits_threaded(o, ordered, steps, what, false);
    }
    /* and it does, at the last of those steps */
    Solver *s = variant_solver(&level_variants(NULL)[0], settings);
    for (int n = 0; n < steps; n++)
        solver_step(s);
    Collider sphere;
    solver_collider(s, &sphere);
    const Cloth *c = s->cloth;
    int band_rows = relax_fast_band_rows(s->relax_fast), bands_touching = 0;
    cr_assert_lt(band_rows, c->rows, "the cloth is more than one band");
    for (int band = 0; band * band_rows < c->rows; band++) {
        bool touches = false;
        for (int i = band * band_rows * c->cols; i < (band + 1) * band_rows * c->cols && i < c->count; i++) {
            float dx = c->x[i] - sphere.center[0], dy = c->y[i] - sphere.center[1], dz = c->z[i] - sphere.center[2];
            touches |= sqrtf(dx * dx + dy * dy + dz * dz) < sphere.radius + 2.0f * (float)s->params.margin;
        }
        bands_touching += touches;
    }
    cr_expect(bands_touching >= 3, "the sphere holds particles of %d bands: too few", bands_touching);
    solver_destroy(s);
}

/* The threads setting (solver_start_threads): threads=2, threads=1 set to
 * 2 after a step (solver_set_params), three threads of which the jobs take
 * one, two and three by turns from step to step (as relax_fast_adapt's
 * watcher may choose between any two jobs), and threads=0 (the watcher's
 * own choice, whatever this machine's load): each the bits of threads=1. */
Test(fast, the_threads_setting_and_a_count_that_changes_between_steps_keep_the_bits, .timeout = 240)
{
    static const char *const orders[] = {"order=sequential", "order=colored"};
    find_levels(); /* the two widest this processor has, each checked to run */
    /* TURNS: the sequential order's schedule (avx2) is cut for all three
     * threads or for one, so two take it as one */
    enum { ONE, TWO, LATER, TURNS, IDLE, RUNS };
    static const char *const names[RUNS] = {"threads=1", "threads=2", "threads=1 then 2", "1, 2 and 3 of 3 by turns",
                                            "threads=0"};
    for (int l = 0; l < (level_count < 2 ? level_count : 2); l++)
        for (int o = 0; o < 2; o++) {
            const char *one[] = {LARGE, "substeps=2", "iterations=6", "wind_x=3", orders[o], "threads=1", NULL};
            const char *two[] = {LARGE, "substeps=2", "iterations=6", "wind_x=3", orders[o], "threads=2", NULL};
            const char *three[] = {LARGE, "substeps=2", "iterations=6", "wind_x=3", orders[o], "threads=3", NULL};
            const char *idle[] = {LARGE, "substeps=2", "iterations=6", "wind_x=3", orders[o], "threads=0", NULL};
            const char *const *settings[RUNS] = {one, two, one, three, idle};
            Solver *s[RUNS];
            for (int r = 0; r < RUNS; r++) {
                s[r] = support_solver(SCENE_CURTAIN, settings[r]);
                solver_start_threads(s[r]);
                relax_fast_use_kernels(s[r]->relax_fast, levels[l]);
                cr_assert_eq(relax_fast_kernels(s[r]->relax_fast), levels[l], "the level runs as asked");
            }
            const char *level = relax_fast_kernel_name(levels[l]);
            cr_assert_eq(s[ONE]->threads, 1);
            cr_assert(s[TWO]->threads == 2 && !s[TWO]->threads_adapt, "threads=2: 2 threads, always");
            int cores = relax_fast_usable_cores();
            cr_assert(s[IDLE]->threads == cores && s[IDLE]->threads_adapt == (cores > 1),
                      "threads=0: the %d cores, as many as are idle", cores);
            cr_assert_eq(s[TURNS]->threads, 3);
            int steps = support_steps(6, 9);
            for (int n = 0; n < steps; n++) {
                if (n == 1) {
                    Params p = s[LATER]->params;
                    p.threads = 2;
                    cr_assert(solver_set_params(s[LATER], &p));
                    cr_assert_eq(s[LATER]->threads, 2, "the setting changed in a run starts its threads");
                    relax_fast_use_kernels(s[LATER]->relax_fast, levels[l]);
                }
                relax_fast_take_threads(s[TURNS]->relax_fast, 1 + n % 3);
                for (int r = 0; r < RUNS; r++)
                    solver_step(s[r]);
            }
            const Cloth *ref = s[ONE]->cloth;
            size_t bytes = (size_t)ref->count * sizeof(float), wide = (size_t)ref->count * sizeof(double);
            for (int r = TWO; r < RUNS; r++) {
                const Cloth *c = s[r]->cloth;
                cr_expect(memcmp(ref->x, c->x, bytes) == 0 && memcmp(ref->y, c->y, bytes) == 0 &&
                              memcmp(ref->z, c->z, bytes) == 0 && memcmp(ref->rx, c->rx, wide) == 0 &&
                              memcmp(ref->ry, c->ry, wide) == 0 && memcmp(ref->rz, c->rz, wide) == 0,
                          "%s, %s, %s: the bits of threads=1", level, orders[o], names[r]);
            }
            Solver *start = support_solver(SCENE_CURTAIN, one);
            cr_expect(memcmp(start->cloth->z, ref->z, bytes) != 0, "the cloth moved");
            solver_destroy(start);
            for (int r = 0; r < RUNS; r++)
                solver_destroy(s[r]);
        }
}

Test(fast, grabbing_a_particle_mid_step_keeps_the_bits_equal)
{
    const char *settings[] = {"integrator=pbd", "order=colored", "cols=24", "rows=24", NULL};
    Solver *plain = variant_solver(&level_variants(NULL)[0], settings),
           *fast = variant_solver(&level_variants(NULL)[1], settings);
    Solver *both[2] = {plain, fast};
    for (int k = 0; k < 2; k++) {
        for (int n = 0; n < 10; n++)
            solver_step(both[k]);
        solver_pass(both[k]); /* half a substep */
        solver_grab(both[k], 300);
        solver_grab_move(both[k], 0.3f, 1.0f, 0.4f);
        for (int n = 0; n < 20; n++)
            solver_step(both[k]);
    }
    size_t bytes = (size_t)plain->cloth->count * sizeof(float);
    cr_expect(memcmp(plain->cloth->x, fast->cloth->x, bytes) == 0 &&
              memcmp(plain->cloth->y, fast->cloth->y, bytes) == 0 &&
              memcmp(plain->cloth->z, fast->cloth->z, bytes) == 0);
    solver_destroy(plain);
    solver_destroy(fast);
}

/* The sequential walk leaves out, once a run, the links whose two ends
 * are fixed (Helix.live): pinning, grabbing and letting go between runs
 * must reach it. Here two neighbours pinned, a particle grabbed beside a
 * pinned one (links with both ends fixed: a stale mask divides by a zero
 * mass and the cloth turns to NaN), then all let go (a stale mask leaves
 * their links out), at every level, on one thread and on two. */
Test(fast, pinning_grabbing_and_letting_go_between_runs_reach_the_walk)
{
    const char *settings[] = {"order=sequential", "integrator=jakobsen", "cols=30", "rows=26", NULL};
    int count;
    const Variant *variants = level_variants(&count);
    for (int v = 1; v < count; v++)
        for (int threads = 1; threads <= 2; threads++) {
            Variant fast_variant = variants[v];
            fast_variant.threads = threads;
            Solver *plain = variant_solver(&variants[0], settings), *fast = variant_solver(&fast_variant, settings);
            Solver *both[2] = {plain, fast};
            for (int k = 0; k < 2; k++) {
                Solver *s = both[k];
                Cloth *c = s->cloth;
                const int a = cloth_index(c, 12, 14), b = cloth_index(c, 13, 14), g = cloth_index(c, 20, 9),
                          beside = cloth_index(c, 21, 9);
                core_level_set(relax_fast_core_level(k ? fast_variant.kernels : RELAX_FAST_PORTABLE));
                for (int n = 0; n < 6; n++)
                    solver_step(s);
                solver_pin(s, a, true);
                solver_pin(s, b, true);
                solver_pin(s, beside, true);
                solver_grab(s, g);
                solver_grab_move(s, 0.1f, 1.1f, 0.2f);
                for (int n = 0; n < 8; n++)
                    solver_step(s);
                solver_pin(s, a, false);
                solver_pin(s, b, false);
                solver_pin(s, beside, false);
                solver_release(s);
                for (int n = 0; n < 8; n++)
                    solver_step(s);
            }
            size_t bytes = (size_t)plain->cloth->count * sizeof(float);
            cr_expect(memcmp(plain->cloth->x, fast->cloth->x, bytes) == 0 &&
                          memcmp(plain->cloth->y, fast->cloth->y, bytes) == 0 &&
                          memcmp(plain->cloth->z, fast->cloth->z, bytes) == 0,
                      "%s, %d thread%s: the same bits as the plain loop", fast_variant.name, threads,
                      threads > 1 ? "s" : "");
            solver_destroy(plain);
            solver_destroy(fast);
        }
}

/* The walk asks whether a link is shorter than solver_link_correction's
 * 1e-12f of its squared length, before the root: the threshold is the
 * least float whose root is not shorter. sqrtf rounds correctly and so is
 * monotonic; a threshold one float off either way fails here (checked
 * once over every float, the same). */
Test(fast, the_walk_asks_the_shortest_length_of_its_square)
{
    const float t = RELAX_HELIX_SHORTEST_SQUARED, below = nextafterf(t, 0.0f);
    cr_expect(!(sqrtf(t) < 1e-12f), "the root of %a is not below 1e-12", (double)t);
    cr_expect(sqrtf(below) < 1e-12f, "the root of the float below, %a, is", (double)below);
}

Test(fast, colored_settles_the_curtain_like_sequential)
{
    /* a different order is a different Gauss-Seidel sweep, not a different
     * model: after two seconds the two hang within millimetres */
    const char *seq[] = {"order=sequential", "turbulence=0", NULL}, *col[] = {"order=colored", "turbulence=0", NULL};
    Solver *a = support_solver(SCENE_CURTAIN, seq), *b = support_solver(SCENE_CURTAIN, col);
    support_run_seconds(a, 2.0);
    support_run_seconds(b, 2.0);
    double worst = 0.0;
    for (int i = 0; i < a->cloth->count; i++) {
        double dy = a->cloth->y[i] - b->cloth->y[i];
        worst = dy * dy > worst ? dy * dy : worst;
    }
    cr_expect_lt(worst, 0.01 * 0.01, "largest height difference %.4f m", sqrt(worst));
    solver_destroy(a);
    solver_destroy(b);
}

/* ------------------------------------------------------------ the sequential order's strips
 *
 * order=sequential walks every family through relax_helix.h's buffer:
 * sixteen rows a vector at AVX-512 (a row a lane, each row two columns
 * behind the one above it), eight at AVX2, four at NEON and portable,
 * whose period is the width or 32. These shapes meet its edges: a side of
 * one or two, a side of 16 or 17 (a vector's rows and the row below
 * them), 33 and 49 (the next period's first row alone), widths that leave
 * a block part empty, a width of 32 (a lane's row above is in the same
 * key), 33 and 34 (one or two keys from it). */
Test(fast, sequential_strips_give_the_plain_loops_bits_at_every_edge_of_a_strip_or_block)
{
    const int sizes[][2] = {{2, 30},  {30, 2}, {2, 2},  {3, 18},  {16, 16}, {17, 17}, {16, 33},
                            {33, 16}, {5, 49}, {48, 3}, {21, 34}, {32, 18}, {34, 35}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int m = 0; m < METHODS; m++) {
            char cols[32], rows[32], what[96];
            snprintf(cols, sizeof cols, "cols=%d", sizes[k][0]);
            snprintf(rows, sizeof rows, "rows=%d", sizes[k][1]);
            const char *settings[] = {"order=sequential", cols, rows, methods[m], "iterations=4", NULL};
            snprintf(what, sizeof what, "curtain %dx%d, %s, sequential", sizes[k][0], sizes[k][1], methods[m]);
            expect_same_bits_in(settings, support_steps(6, 12), what, false);
        }
}

/* On one thread the sequential walk does two passes at once, the second
 * d_push + 3 steps behind the first (relax_helix_walk.h, walk_two): a
 * draped cloth in contact with the sphere, whose push ends each pass, with
 * an even and an odd number of passes, with and without remainders. Four
 * times the earth's gravity brings it onto the sphere in half the time:
 * from about step 14, where it took 28. */
Test(fast, two_passes_walked_at_once_on_one_thread_keep_the_bits_where_the_sphere_pushes)
{
    const char *passes[] = {"iterations=1", "iterations=2", "iterations=3", "iterations=5"};
    const char *substeps[] = {"substeps=1", "substeps=20"}; /* 20: 0.8 ms, remainders */
    for (int n = 0; n < 4; n++)
        for (int k = 0; k < 2; k++) {
            const char *settings[] = {"scene=drape",      "collider=sphere", "floor=off", "cols=26",   "rows=21",
                                      "order=sequential", "gravity=40",      passes[n],   substeps[k], NULL};
            char what[96];
            snprintf(what, sizeof what, "drape 26x21 on the sphere, %s, %s", passes[n], substeps[k]);
            /* 8 and 6 steps of contact (make check-long: 36 and 26) */
            expect_same_bits_in(settings, k == 0 ? support_steps(22, 50) : support_steps(20, 40), what, false);
        }
}

/* The same edges below 1 ms substeps, where the corrections keep
 * remainders in double (the helix shifts them between lanes as it shifts
 * the positions): widths under, at and over the period of 32. make test:
 * each size in one method (in turn), make check-long: in all three. */
Test(fast, sequential_strips_keep_the_plain_loops_remainders_at_the_edges_of_a_period)
{
    const int sizes[][2] = {{30, 24}, {32, 18}, {33, 16}, {34, 35}, {5, 49}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int m = 0; m < METHODS; m++) {
            if (!support_long() && m != (int)k % METHODS)
                continue;
            char cols[32], rows[32], what[96];
            snprintf(cols, sizeof cols, "cols=%d", sizes[k][0]);
            snprintf(rows, sizeof rows, "rows=%d", sizes[k][1]);
            const char *settings[] = {"order=sequential", cols, rows, methods[m], "iterations=4", "substeps=40", NULL};
            snprintf(what, sizeof what, "curtain %dx%d, %s, 0.4 ms substeps", sizes[k][0], sizes[k][1], methods[m]);
            expect_same_bits_in(settings, support_steps(2, 6), what, false);
        }
}

/* A link of every family torn by hand mid-run (cloth_tear_link also tears
 * the bend links over a structural one), a particle pinned and one grabbed
 * between two passes: the strips' live lanes and inverse masses follow. */
Test(fast, sequential_strips_follow_torn_links_of_every_family_pins_and_grabs)
{
    for (int m = 0; m < METHODS; m++) {
        const char *settings[] = {"order=sequential", "cols=37", "rows=35", methods[m], "iterations=5", NULL};
        Solver *plain = variant_solver(&level_variants(NULL)[0], settings),
               *fast = variant_solver(&level_variants(NULL)[1], settings);
        Solver *both[2] = {plain, fast};
        for (int k = 0; k < 2; k++) {
            Solver *s = both[k];
            Cloth *c = s->cloth;
            for (int n = 0; n < 8; n++)
                solver_step(s);
            cloth_tear_link(c, cloth_link_right(c, 20, 17));
            cloth_tear_link(c, cloth_link_below(c, 5, 30));
            cloth_tear_link(c, cloth_link_shear(c, 16, 16, 0));
            cloth_tear_link(c, cloth_link_shear(c, 31, 2, 1));
            cloth_tear_link(c, cloth_link_bend_right(c, 0, 33));
            cloth_tear_link(c, cloth_link_bend_below(c, 36, 12));
            solver_pin(s, cloth_index(c, 18, 20), true);
            solver_pass(s); /* part of a substep */
            solver_grab(s, cloth_index(c, 33, 31));
            solver_grab_move(s, 0.2f, 0.9f, 0.3f);
            for (int n = 0; n < 12; n++)
                solver_step(s);
        }
        size_t bytes = (size_t)plain->cloth->count * sizeof(float);
        cr_expect(memcmp(plain->cloth->x, fast->cloth->x, bytes) == 0 &&
                      memcmp(plain->cloth->y, fast->cloth->y, bytes) == 0 &&
                      memcmp(plain->cloth->z, fast->cloth->z, bytes) == 0,
                  "%s: the same bits as the plain loop", methods[m]);
        cr_expect(memcmp(plain->cloth->torn, fast->cloth->torn, (size_t)plain->cloth->link_count) == 0);
        solver_destroy(plain);
        solver_destroy(fast);
    }
}

/* Tall cloths whose strips make several groups (sides not multiples of
 * 16) on one thread, each family switched off in turn: the families
 * around it then meet without it between them. make test: each size and
 * family off in one method (in turn), make check-long: in all three. */
Test(fast, sequential_strips_in_several_groups_with_each_family_switched_off)
{
    const int sizes[][2] = {{19, 83}, {67, 66}, {96, 50}, {100, 40}};
    const char *const off[] = {"stiffness=0.9", "stiffness=0", "shear_stiffness=0", "bend_stiffness=0"};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (size_t o = 0; o < sizeof off / sizeof off[0]; o++)
            for (int m = 0; m < METHODS; m++) {
                if (!support_long() && m != (int)(k + o) % METHODS)
                    continue;
                char cols[32], rows[32], what[128];
                snprintf(cols, sizeof cols, "cols=%d", sizes[k][0]);
                snprintf(rows, sizeof rows, "rows=%d", sizes[k][1]);
                const char *settings[] = {"order=sequential", cols, rows, methods[m], "iterations=3", off[o], NULL};
                snprintf(what, sizeof what, "curtain %dx%d, %s, %s, sequential", sizes[k][0], sizes[k][1], methods[m],
                         off[o]);
                /* the plain loop and the widest level */
                expect_same_bits_of(level_variants(NULL), 2, settings, support_steps(3, 6), what, false);
            }
}

/* ------------------------------------------------------------ the explosion check */

/* The fast path's check reads the structural links row by row: each link
 * alone over (its rest length cut to a twentieth), across or down, inside
 * a vector or among a row's last few, on the last row too, is found, also
 * with the links beside it torn (a lane reads its own torn flag, not its
 * neighbour's); torn, it is not. Widths with and without a remainder of
 * eight; one thread, and two on a cloth large enough to share the work;
 * at every level the processor has. */
Test(fast, the_explosion_check_finds_each_overstretched_structural_link)
{
    const int sizes[3][3] = {{37, 21, 1}, {16, 9, 1}, {200, 170, 2}};
    for (int z = 0; z < 3; z++) {
        Cloth *c = cloth_create(sizes[z][0], sizes[z][1]);
        cr_assert_not_null(c);
        for (int i = 0; i < c->count; i++) /* a sheet 5 cm a side, a little crumpled */
            c->x[i] = 0.05f * (float)(i % c->cols), c->y[i] = -0.05f * (float)(i / c->cols),
            c->z[i] = 0.01f * (float)(i % 3);
        cloth_set_rest_from_positions(c);
        RelaxFast *f = relax_fast_create(c, sizes[z][2]);
        cr_assert_not_null(f);
        for (int k = 0; k < RELAX_FAST_LEVELS; k++) {
            if (!relax_fast_cpu_has((RelaxFastKernels)k))
                continue;
            relax_fast_use_kernels(f, (RelaxFastKernels)k);
            const char *level = relax_fast_kernel_name(k);
            if (relax_fast_blew_up(f, c, INFINITY, 10.0f) < 0) /* no vector kernels here */
                continue;
            cr_expect_eq(relax_fast_blew_up(f, c, INFINITY, 10.0f), 0, "%s, %dx%d at rest", level, c->cols, c->rows);
            /* links to try on the large cloth: a spread (make check-long: more) */
            int step = c->link_count > 5000 ? support_steps(263, 89) : 1;
            for (int l = 0; l < c->link_count; l += step) {
                if (c->family[l] != LINK_STRUCTURAL)
                    continue;
                float rest = c->rest_length[l];
                c->rest_length[l] = rest / 20.0f;
                int a = (int)c->link_a[l], b = (int)c->link_b[l];
                cr_expect(solver_overstretched(c, 10.0f), "%dx%d, link %d: the plain check finds it over", c->cols,
                          c->rows, l);
                cr_expect_eq(relax_fast_blew_up(f, c, INFINITY, 10.0f), 1, "%s, %dx%d, link %d (%d to %d) over", level,
                             c->cols, c->rows, l, a, b);
                for (int n = l - 1; n <= l + 1; n += 2)
                    if (n >= 0 && n < c->link_count)
                        c->torn[n] = 1;
                cr_expect_eq(relax_fast_blew_up(f, c, INFINITY, 10.0f), 1,
                             "%s, %dx%d, link %d (%d to %d) over, the links beside it torn", level, c->cols, c->rows, l,
                             a, b);
                for (int n = l - 1; n <= l + 1; n += 2)
                    if (n >= 0 && n < c->link_count)
                        c->torn[n] = 0;
                c->torn[l] = 1;
                cr_expect_eq(relax_fast_blew_up(f, c, INFINITY, 10.0f), 0,
                             "%s, %dx%d, link %d (%d to %d) over and torn", level, c->cols, c->rows, l, a, b);
                c->torn[l] = 0, c->rest_length[l] = rest;
            }
        }
        relax_fast_destroy(f);
        cloth_destroy(c);
    }
    /* a cloth whose structural links are not cloth_create's (one link's ends
     * swapped): the fast check declines, and blew_up does it plainly */
    Cloth *c = cloth_create(9, 7);
    cr_assert_not_null(c);
    uint32_t a = c->link_a[3];
    c->link_a[3] = c->link_b[3], c->link_b[3] = a;
    RelaxFast *f = relax_fast_create(c, 1);
    cr_assert_not_null(f);
    cr_expect_eq(relax_fast_blew_up(f, c, INFINITY, 10.0f), -1, "a cloth not laid out as the grid is left to blew_up");
    relax_fast_destroy(f);
    cloth_destroy(c);
}
