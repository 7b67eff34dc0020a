/* test_bench.c - what bench measures without a terminal: the bytes the
 * sandbox's frames send to a pseudo-terminal of bench's own; and how its
 * report checks its targets and prints its tables, from results made here.
 * The target table, the columns and their printers are bench.c's own
 * (static), so bench.c is compiled into this file, its two public
 * functions renamed so as not to meet the library's. First: it sets
 * _GNU_SOURCE before any header. */
#define bench_main bench_main_under_test
#define bench_frame_bytes bench_frame_bytes_under_test
#include "app/bench.c"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/bench.h"
#include "app/bench_course.h"
#include "app/bench_node.h"
#include "core/cloth.h"

/* A few frames: enough to see the drawing, short enough for make test. */
static FrameBytes measure(int cols, int rows)
{
    FrameBytes fb = {.cols = cols, .rows = rows, .settle_frames = 10, .frames = 10, .reps = 2};
    cr_assert(bench_frame_bytes(&fb), "%dx%d: %s", cols, rows, fb.how);
    return fb;
}

Test(bench, frame_bytes_are_plausible_and_grow_with_the_terminal, .timeout = 20)
{
    FrameBytes small = measure(80, 24);
    FrameBytes large = measure(200, 60);
    for (int r = 0; r < small.reps; r++) {
        /* the cloth moves every frame: some cells change, far from all of them */
        cr_expect_gt(small.per_frame[r], 50.0, "80x24, run %d: %.0f bytes a frame", r, small.per_frame[r]);
        cr_expect_lt(small.per_frame[r], 80 * 24 * 12.0, "80x24, run %d: %.0f bytes a frame", r, small.per_frame[r]);
        cr_expect_gt(large.per_frame[r], small.per_frame[r], "200x60 %.0f, 80x24 %.0f bytes a frame",
                     large.per_frame[r], small.per_frame[r]);
    }
    /* the first frame paints the whole screen */
    cr_expect_gt(small.first_frame, small.per_frame[0]);
    cr_expect_gt(large.first_frame, small.first_frame);
    cr_expect(strstr(small.how, "ncurses into") != NULL, "%s", small.how);
}

/* Every byte goes to bench's own pseudo-terminal: none to standard output
 * (which may be a file, or the terminal bench runs in). */
Test(bench, frame_bytes_write_nothing_to_standard_output, .init = cr_redirect_stdout, .timeout = 20)
{
    FrameBytes fb = {.cols = 80, .rows = 24, .settle_frames = 2, .frames = 2, .reps = 1};
    cr_assert(bench_frame_bytes(&fb), "%s", fb.how);
    fflush(stdout);
    cr_assert_stdout_eq_str("");
}

Test(bench, frame_bytes_refuse_a_size_the_sandbox_does_not_draw)
{
    FrameBytes fb = {.cols = 20, .rows = 5, .settle_frames = 1, .frames = 1, .reps = 1};
    cr_expect_not(bench_frame_bytes(&fb));
    cr_expect(strncmp(fb.how, "n/a", 3) == 0, "%s", fb.how);
}

/* Seed 000's workload in node: the script builds the links our cloth has
 * (cloth_create's count at 40 x 40) and gives a time in the range a
 * JavaScript engine can take; without node, no figure and the reason. */
Test(bench, node_times_seed_000s_workload_or_says_why_not, .timeout = 60)
{
    BenchNodeFigure fig;
    if (system("node --version >/dev/null 2>&1") == 0) {
        cr_assert(bench_node_seed(3, 0.02, &fig), "%s", fig.why);
        Cloth *cloth = cloth_create(40, 40);
        cr_assert_not_null(cloth);
        cr_expect_eq(fig.links, cloth->link_count);
        cloth_destroy(cloth);
        cr_expect(fig.min > 0.5 && fig.min <= fig.median && fig.median <= fig.max && fig.max < 1000.0, "%g %g %g ns",
                  fig.min, fig.median, fig.max);
    }
    const char *path = getenv("PATH");
    char *saved = path ? strdup(path) : NULL;
    setenv("PATH", "/nonexistent", 1);
    bool ok = bench_node_seed(1, 0.01, &fig);
    if (saved)
        setenv("PATH", saved, 1);
    free(saved);
    cr_expect_not(ok);
    cr_expect(strstr(fig.why, "node is not on the PATH") != NULL, "%s", fig.why);
}

/* check --run over the course the menu finds, timed in a child: here a
 * course of one short lesson that holds, then one whose claim fails. */
Test(bench, the_course_check_is_timed_and_a_failed_claim_is_said, .timeout = 60)
{
    char folder[128], path[256], old[4096];
    snprintf(folder, sizeof folder, "/tmp/clothsim-bench-course-%d", (int)getpid());
    snprintf(path, sizeof path, "%s/01-short.lesson", folder);
    cr_assert(getcwd(old, sizeof old));
    cr_assert_eq(mkdir(folder, 0700), 0);
    cr_assert_eq(chdir(folder), 0); /* no ./lessons here */
    setenv("CLOTHSIM_LESSONS", folder, 1);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("title Short\nsummary s\nduration 1 min\nset cols=6 rows=4 collider=none\npage One\n> Words.\n"
          "run 0.5s\nexpect time > 0.4s\n",
          f);
    fclose(f);
    BenchCourseFigure fig;
    cr_expect(bench_course_check(CLOTHSIM_BIN, &fig), "%s", fig.why);
    cr_expect_eq(fig.lessons, 1);
    cr_expect(fig.passed, "%s", fig.why);
    cr_expect(fig.cpu_seconds >= 0.0 && fig.cpu_seconds < 20.0 && fig.wall_seconds > 0.0, "%g s, %g s", fig.cpu_seconds,
              fig.wall_seconds);
    f = fopen(path, "w");
    cr_assert(f);
    fputs("title Short\nsummary s\nduration 1 min\nset cols=6 rows=4 collider=none\npage One\n> Words.\n"
          "run 0.5s\nexpect time > 9s\n",
          f);
    fclose(f);
    cr_expect(bench_course_check(CLOTHSIM_BIN, &fig), "%s", fig.why);
    cr_expect_not(fig.passed);
    cr_expect(strstr(fig.why, "check --run failed") != NULL, "%s", fig.why);
    unlink(path);
    unsetenv("CLOTHSIM_LESSONS");
    cr_expect_eq(chdir(old), 0);
    rmdir(folder);
}

/* bench --levels times each row with core's loops (the integration) at the
 * row's level too, as CLOTHSIM_KERNELS=LEVEL runs them: a row whose walk
 * is AVX2 beside 512-bit integration is no processor's (and on an AVX-512
 * Xeon 13 % slower than AVX2 alone, its clock lowered). Node kept off the
 * PATH: its figure is not needed here. */
Test(bench, each_level_row_runs_cores_loops_at_its_level, .timeout = 90)
{
#ifdef __SANITIZE_ADDRESS__
    /* the bench's 200 x 200 rows and sandbox frames at three levels take
     * minutes there; make test and make check-long run it */
    cr_skip_test("the sanitizer build runs bench --levels too slowly for this test's timeout");
#endif
    char command[512], out[16384];
    snprintf(command, sizeof command, "PATH=/nonexistent %s bench --levels --quick --json 2>/dev/null", CLOTHSIM_BIN);
    FILE *f = popen(command, "r");
    cr_assert(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    cr_expect_eq(pclose(f), 0, "%s", out);
    static const char *const rows[][2] = {
        {"portable", "baseline"}, {"neon", "baseline"}, {"avx2", "avx2"}, {"avx512", "avx512"}};
    char ran[64] = "";
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char row[64], want[96];
        snprintf(row, sizeof row, "{\"level\": \"%s\", \"core_loops\": [", rows[r][0]);
        const char *at = strstr(out, row);
        if (!at)
            continue;
        snprintf(want, sizeof want, "%s\"%s\", \"%s\"]", row, rows[r][1], rows[r][1]);
        cr_expect(strncmp(at, want, strlen(want)) == 0, "the %s row's core loops: %.*s (want %s)", rows[r][0],
                  (int)strlen(want) + 8, at, want);
        snprintf(ran + strlen(ran), sizeof ran - strlen(ran), " %s", rows[r][0]);
    }
    cr_expect(ran[0] != '\0', "bench --levels printed no row:\n%s", out);
    fprintf(stderr, "bench: the level rows checked here:%s\n", ran);
}

/* ------------------------------------------------------------ the targets */

/* Results where the levels' targets read: node's 16 ns a link a pass,
 * portable at 4 ns (4 times: met, on the line), AVX2 at 2 ns (8 times
 * against 11: missed) with the sandbox at 6 % of a core (against 5:
 * missed); AVX-512 not run (its rows left out), nor anything else. */
static Results *levels_results(void)
{
    Results *res = calloc(1, sizeof *res);
    cr_assert_not_null(res);
    res->node_ok = true, res->node.median = 16.0;
    res->level_count = 2;
    res->levels[0] = (LevelRow){.kernels = RELAX_FAST_PORTABLE, .seed = {.ok = true, .ns = {4.0, 3.9, 4.2}}};
    res->levels[1] = (LevelRow){.kernels = RELAX_FAST_AVX2,
                                .seed = {.ok = true, .ns = {2.0, 1.9, 2.2}},
                                .big = {.ok = true, .exploded = true, .ns = {12.25, 11.5, 13.0}},
                                .sandbox_ok = true,
                                .sandbox_cpu = {0.002, 0.0019, 0.0021}};
    return res;
}

/* The target table is checked row by row: a figure that misses its
 * threshold prints MISS with the row's text, one that meets it met, and a
 * row this run did not measure (no AVX-512 row) is left out. */
Test(bench, a_target_whose_figure_misses_prints_miss_with_its_text, .init = cr_redirect_stdout)
{
    Results *res = levels_results();
    Target t[TARGET_ROWS];
    int n = targets(target_table, TARGET_ROWS, res, 3, true, false, t);
    cr_assert_eq(n, 3, "%d targets measured", n);
    print_verdicts(t, n, 64);
    fflush(stdout);
    cr_expect_stdout_eq_str(
        "  met  seed 000's workload at portable, clothsim run over node's JavaScript     4.00 x (target >= 4.00)\n"
        "  MISS seed 000's workload at avx2, clothsim run over node's JavaScript     8.00 x (target >= 11.00)\n"
        "  MISS sandbox 80x24 at 30 fps at avx2 (all counted)                        6.00 % of a core (target <= "
        "5.00)\n");
    free(res);
}

/* Every row of the target table says what it measures in Ukrainian too,
 * reads a figure, has a positive threshold, a unit a person reads and the
 * issue that set it; a row for a level names the level in its text. */
Test(bench, every_target_row_has_a_ukrainian_text_a_threshold_and_its_issue)
{
    setenv("LC_ALL", "uk_UA.UTF-8", 1);
    i18n_init();
    if (strcmp(_("MISS"), "MISS") == 0)
        cr_skip_test("no Ukrainian catalogue (uk_UA.UTF-8 not generated, or build/locale missing)");
    for (size_t k = 0; k < TARGET_ROWS; k++) {
        const TargetRow *row = &target_table[k];
        cr_expect_str_neq(gettext(row->what), row->what, "row %zu: \"%s\" is not translated", k, row->what);
        cr_expect_not_null(row->figure, "row %zu: %s", k, row->what);
        cr_expect(row->limit > 0.0 && isfinite(row->limit), "row %zu: %s: threshold %g", k, row->what, row->limit);
        const char *unit = target_units[row->unit].text;
        if (target_units[row->unit].translated)
            cr_expect_str_neq(gettext(unit), unit, "row %zu: unit \"%s\" is not translated", k, unit);
        cr_expect(row->issue == 6 || row->issue == 33, "row %zu: %s: issue %d", k, row->what, row->issue);
        cr_expect_eq(row->of_level, strstr(row->what, "%s") != NULL && strstr(row->what, "over jakobsen") == NULL,
                     "row %zu: %s", k, row->what);
    }
}

/* The levels' table from its columns: each heading over its column, the
 * node's ratio right-aligned under a heading at the left, a figure wider
 * than its column pushing the rest along, n/a where nothing was measured. */
Test(bench, the_levels_table_prints_its_columns_under_their_headings, .init = cr_redirect_stdout)
{
    Results *res = levels_results();
    print_levels(res, false);
    fflush(stdout);
    cr_expect_stdout_eq_str(
        "\nthe default order (sequential) at each instruction-set level this processor has\n"
        "(CLOTHSIM_KERNELS=LEVEL forces one), 1 thread, by processor time:\n"
        "  level      seed 000, ns/link/pass  over node  jakobsen 200x200, ns/link/pass  sandbox 80x24, 30 fps\n"
        "  portable   4.00 (3.90..4.20)            4.0x  n/a                             n/a\n"
        "  avx2       2.00 (1.90..2.20)            8.0x  12.2 (11.5..13.0) exploded      6.0 % of a core\n"
        "(seed 000's workload: jakobsen 40x40, 10 passes a step, one substep, the sphere; the sandbox: its\n"
        "frames into a terminal, physics, drawing and ncurses, processor time a frame times 30)\n");
    free(res);
}

/* The report's first line says the vector kernels of the level it ran at,
 * whichever it is, in Ukrainian too. */
Test(bench, every_level_has_its_kernels_words_in_the_report)
{
    setenv("LC_ALL", "uk_UA.UTF-8", 1);
    i18n_init();
    if (strcmp(_("MISS"), "MISS") == 0)
        cr_skip_test("no Ukrainian catalogue (uk_UA.UTF-8 not generated, or build/locale missing)");
    for (int k = 0; k < RELAX_FAST_LEVELS; k++) {
        cr_assert_not_null(kernel_words[k], "level %s has no words", relax_fast_kernel_name((RelaxFastKernels)k));
        cr_expect_str_neq(gettext(kernel_words[k]), kernel_words[k], "%s: not translated", kernel_words[k]);
    }
    cr_expect(strstr(kernel_words[RELAX_FAST_AVX2], "AVX2") == kernel_words[RELAX_FAST_AVX2]);
    cr_expect(strstr(kernel_words[RELAX_FAST_AVX512], "AVX-512") == kernel_words[RELAX_FAST_AVX512]);
}
