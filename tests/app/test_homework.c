/* test_homework.c - `clothsim check --run` proves a homework's answer by
 * running the simulation: a lesson whose key is wrong fails the check (exit
 * status 1, one line naming the place), and the proof is a TAP test point. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../support.h"

static char out[1 << 16], err[8192];

static int run(const char *const *argv)
{
    return support_exec(argv, out, sizeof out, err, sizeof err);
}

/* A lesson whose homework gives answer; its path. */
static const char *homework_lesson(int answer)
{
    static char path[128];
    snprintf(path, sizeof path, "/tmp/clothsim-homework-%d.lesson", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fprintf(f,
            "title T\nsummary S\nduration 1 min\n"
            "set integrator=verlet spring_k=50 substeps=12\npane safe\n"
            "page Find it\n> Explore.\n"
            "homework The fewest substeps that hold for 2 s?\n"
            "solve substeps smallest %d after 2s if not exploded\n",
            answer);
    fclose(f);
    return path;
}

Test(homework, a_wrong_key_fails_check_run_and_the_right_one_passes, .timeout = 60)
{
    const char *path = homework_lesson(10);
    cr_expect_eq(run((const char *[]){"", "check", "--run", path, NULL}), 1);
    char want[512];
    snprintf(want, sizeof want,
             "%s:8:1: homework failed: substeps smallest 10: 'not exploded' holds at 9 too, so 10 is not the "
             "smallest\n",
             path);
    cr_expect_str_eq(err, want);
    snprintf(want, sizeof want, "%s: FAILED 1 of 1 expects\n", path);
    cr_expect_str_eq(out, want);
    cr_expect_eq(run((const char *[]){"", "check", path, NULL}), 0, "without --run only the syntax: %s", err);

    path = homework_lesson(9);
    cr_expect_eq(run((const char *[]){"", "check", "--run", path, NULL}), 0, "%s", err);
    cr_expect_eq(run((const char *[]){"", "check", "--run", "--tap", path, NULL}), 0, "%s", err);
    snprintf(want, sizeof want,
             "TAP version 13\n1..1\nok 1 - %s:8:1: homework held: substeps smallest 9: 'not exploded' holds after "
             "2 s at 9, not at 8\n",
             path);
    cr_expect_str_eq(out, want);
    unlink(path);
}
