/* test_bench.c - what bench measures without a terminal: the bytes the
 * sandbox's frames send to a pseudo-terminal of bench's own. */
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
        cr_expect(fig.min > 0.5 && fig.min <= fig.median && fig.median <= fig.max && fig.max < 1000.0,
                  "%g %g %g ns", fig.min, fig.median, fig.max);
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
          "run 0.5s\nexpect time > 0.4s\n", f);
    fclose(f);
    BenchCourseFigure fig;
    cr_expect(bench_course_check(CLOTHSIM_BIN, &fig), "%s", fig.why);
    cr_expect_eq(fig.lessons, 1);
    cr_expect(fig.passed, "%s", fig.why);
    cr_expect(fig.cpu_seconds >= 0.0 && fig.cpu_seconds < 20.0 && fig.wall_seconds > 0.0, "%g s, %g s",
              fig.cpu_seconds, fig.wall_seconds);
    f = fopen(path, "w");
    cr_assert(f);
    fputs("title Short\nsummary s\nduration 1 min\nset cols=6 rows=4 collider=none\npage One\n> Words.\n"
          "run 0.5s\nexpect time > 9s\n", f);
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
