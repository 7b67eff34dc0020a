/* test_learn.c - the lesson player and `clothsim learn`, tested as a student
 * uses them: in a detached tmux session (its own server, -L
 * clothsim-learn-PID), keys in with send-keys, the screen back with
 * capture-pane, as test_tui.c does. Each test runs in a fresh folder holding
 * a short lesson of its own in ./lessons (listed first), with the course's
 * lessons in $CLOTHSIM_LESSONS and the progress in $XDG_STATE_HOME there. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/lesson_menu.h"
#include "lesson/lesson.h"
#include "lesson/parser.h"

static char folder[128]; /* the test's own folder: lessons/, state/ */

#include "../tmux_session.h"

/* Starts clothsim with env (may be "") and args in a width x height pane;
 * the shell around it records the exit status and the terminal's modes. */
static void start(const char *env, const char *args, int width, int height)
{
    if (system("tmux -V >/dev/null 2>&1") != 0)
        cr_skip_test("tmux is not installed");
    snprintf(server, sizeof server, "clothsim-learn-%d", (int)getpid());
    snprintf(exit_path, sizeof exit_path, "/tmp/clothsim-learn-%d.exit", (int)getpid());
    snprintf(stty_path, sizeof stty_path, "/tmp/clothsim-learn-%d.stty", (int)getpid());
    unlink(exit_path);
    unlink(stty_path);
    int status =
        tmux_new_session("-d -s t -x %d -y %d \"sh -c 'cd %s && XDG_STATE_HOME=%s/state "
                         "CLOTHSIM_LESSONS=%s/lessons %s %s %s; e=\\$?; stty -a > %s; echo EXIT=\\$e > %s; sleep 60'\"",
                         width, height, folder, folder, CLOTHSIM_SRCDIR, env, CLOTHSIM_BIN, args, stty_path, exit_path);
    cr_assert_eq(status, 0, "tmux could not start a session");
}

static const char short_lesson[] = "title A short test lesson\n"
                                   "summary Two pages and a question\n"
                                   "duration 2 min\n"
                                   "page The first page heading\n"
                                   "> Some narration on the first page.\n"
                                   "question Which letter comes first?\n"
                                   "choice Alpha\n"
                                   "feedback Alpha comes first indeed.\n"
                                   "choice Beta\n"
                                   "feedback Beta is second.\n"
                                   "answer 1\n"
                                   "page The second page heading\n"
                                   "> The last words.\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* A fresh folder with lessons/short.lesson in it. */
static void make_folder(void)
{
    snprintf(folder, sizeof folder, "/tmp/clothsim-learn-%d", (int)getpid());
    char command[300], path[256];
    snprintf(command, sizeof command, "rm -rf %s && mkdir -p %s/lessons", folder, folder);
    cr_assert_eq(system(command), 0);
    snprintf(path, sizeof path, "%s/lessons/00-short.lesson", folder);
    write_file(path, short_lesson);
}

static void remove_folder(void)
{
    char command[300];
    snprintf(command, sizeof command, "rm -rf %s", folder);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", folder);
}

Test(learn, the_menu_lists_the_lessons_and_a_lesson_resumes_where_it_was_left, .timeout = 40)
{
    make_folder();
    start("", "learn", 100, 30);
    cr_assert(wait_for("A short test lesson"), "the menu does not list the test lesson:\n%s", screen);
    cr_expect(wait_for("Euler versus Verlet"), "the menu does not list $CLOTHSIM_LESSONS:\n%s", screen);
    cr_expect(strstr(screen, "Two pages and a question") && strstr(screen, "2 min"), "no summary or duration:\n%s",
              screen);
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("The first page heading"), "Enter did not open the lesson:\n%s", screen);
    tmux("send-keys -t t Enter"); /* skips the question */
    tmux("send-keys -t t Enter"); /* the next page */
    cr_assert(wait_for("The second page heading"), "Enter did not page forward:\n%s", screen);
    tmux("send-keys -t t q");
    cr_assert(wait_for("Two pages and a question"), "q did not go back to the menu:\n%s", screen);
    cr_expect(wait_for("at page 2"), "the menu does not show the progress:\n%s", screen);
    cr_expect(strstr(screen, "Enter next") == NULL, "the lesson's key hint is left on the menu:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();

    start("", "learn", 100, 30);
    cr_assert(wait_for("A short test lesson"));
    tmux("send-keys -t t Enter");
    cr_expect(wait_for("The second page heading"), "the lesson did not resume on its second page:\n%s", screen);
    tmux("send-keys -t t q");
    cr_assert(wait_for("Two pages and a question"));
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    remove_folder();
}

Test(learn, a_lesson_file_plays_and_an_answer_shows_its_feedback, .timeout = 30)
{
    make_folder();
    start("LANG=C LC_ALL=C NO_COLOR=1", "lessons/00-short.lesson", 80, 24);
    cr_assert(wait_for("The first page heading"), "the lesson did not open:\n%s", screen);
    cr_expect(wait_for("1  Alpha") && strstr(screen, "2  Beta"), "no numbered choices:\n%s", screen);
    tmux("send-keys -t t 1");
    cr_expect(wait_for("Alpha comes first indeed."), "no feedback after answering 1:\n%s", screen);
    cr_expect(strstr(screen, "Right.") != NULL, "the right answer is not called right:\n%s", screen);
    tmux("send-keys -t t Right");
    cr_expect(wait_for("The second page heading"), "Right did not page forward:\n%s", screen);
    tmux("send-keys -t t Left");
    cr_expect(wait_for("The first page heading"), "Left did not go back:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    remove_folder();
}

/* Lesson 2 as a class sees it at 80x24: the prediction is held back while
 * the run shows what happens, Euler's pane blows apart with its time and
 * why, the stretch is shown large, and the feedback comes after the run. */
Test(learn, lesson_2_shows_the_blow_up_and_explains_after_it, .timeout = 120)
{
    make_folder();
    start("", CLOTHSIM_SRCDIR "/lessons/02-euler-vs-verlet.lesson", 80, 24);
    cr_assert(wait_for("What happens in four seconds?"), "the lesson did not open:\n%s", screen);
    cr_expect(strstr(screen, "Only the update rule differs.") != NULL, "the page opens at its first line:\n%s", screen);
    cr_expect(strstr(screen, "max strain") != NULL, "the view shows max strain large:\n%s", screen);
    tmux("send-keys -t t 2");
    cr_expect(wait_for("You said 2. Watch what happens."), "the answer is not held back:\n%s", screen);
    cr_expect(strstr(screen, "Right.") == NULL, "feedback before the run that shows it:\n%s", screen);
    /* in real time only where the build keeps up with it: the sanitizer build
     * is several times slower, and skips to the end of the run instead */
    if (strstr(CLOTHSIM_BIN, "/san/") == NULL)
        cr_expect(wait_for("blowing up: slow motion"), "the blow-up is not slowed down:\n%s", screen);
    else
        tmux("send-keys -t t Enter");
    bool exploded = false, explained = false;
    for (int k = 0; k < 6 && !exploded; k++) /* a slow build takes longer to get there */
        exploded = wait_for("EXPLODED at t = 2.");
    cr_expect(exploded, "Euler's pane does not say it exploded:\n%s", screen);
    for (int k = 0; k < 6 && !explained; k++)
        explained = wait_for("Explain: Why does Euler gain energy?");
    cr_expect(explained, "no explain step after the run:\n%s", screen);
    cr_expect(strstr(screen, "Right.") != NULL, "no feedback after the run:\n%s", screen);
    cr_expect(strstr(screen, "Euler gains energy") != NULL, "the banner says why:\n%s", screen);
    cr_expect(strstr(screen, "each swing overshoots") == NULL, "the explanation before the student's:\n%s", screen);
    tmux("send-keys -t t Enter");
    cr_expect(wait_for("each swing overshoots"), "Enter does not show the explanation:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    remove_folder();
}

/* A class following the teacher's lesson over a slow link: the lesson takes
 * the sandbox's --ascii, --fps and --stats. In a UTF-8 locale the panes are
 * braille unless --ascii; --stats counts the frames, which --fps 5 keeps to
 * about 5 a second (the default draws 30). */
Test(learn, a_lesson_takes_ascii_fps_and_stats_for_a_slow_link, .timeout = 40)
{
    make_folder();
    char args[512], stats_path[256];
    snprintf(stats_path, sizeof stats_path, "%s/stats", folder);
    snprintf(args, sizeof args, "%s/lessons/02-euler-vs-verlet.lesson --ascii --fps 5 --stats 2>%s", CLOTHSIM_SRCDIR,
             stats_path);
    start("LANG=C.UTF-8 LC_ALL=C.UTF-8", args, 80, 24);
    cr_assert(wait_for("What happens in four seconds?"), "the lesson did not open:\n%s", screen);
    struct timespec from, to;
    clock_gettime(CLOCK_MONOTONIC, &from);
    tmux("send-keys -t t 2");
    cr_expect(wait_for("You said 2. Watch what happens."), "the run did not start:\n%s", screen);
    pause_ms(1500);
    capture();
    for (const unsigned char *c = (const unsigned char *)screen; *c; c++)
        if (*c >= 0x80) {
            cr_expect(false, "not ASCII under --ascii at column %ld:\n%s", (long)(c - (const unsigned char *)screen),
                      screen);
            break;
        }
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    clock_gettime(CLOCK_MONOTONIC, &to);
    double seconds = (double)(to.tv_sec - from.tv_sec) + 1e-9 * (double)(to.tv_nsec - from.tv_nsec);
    FILE *f = fopen(stats_path, "r");
    cr_assert(f, "--stats wrote nothing");
    unsigned long frames = 0;
    unsigned long long bytes = 0;
    int got = fscanf(f, "clothsim: %lu frames drawn, %llu bytes", &frames, &bytes);
    fclose(f);
    cr_assert_eq(got, 2, "--stats does not count frames and bytes");
    /* the lesson was open a little longer than measured here: allow 2 s */
    cr_expect(frames <= (unsigned long)(5.0 * (seconds + 2.0)), "%lu frames in %.1f s at --fps 5", frames, seconds);
    cr_expect(frames >= 2 && bytes > 0, "%lu frames, %llu bytes", frames, bytes);
    stop();
    remove_folder();
}

/* Predict, observe, explain, and the recap: an explain step holds the
 * explanation back until Enter; the lesson ends with each page's recap line
 * and the score, and the menu keeps the score. */
Test(learn, a_lesson_ends_with_its_recap_and_the_score_kept_with_the_progress, .timeout = 40)
{
    make_folder();
    char path[256];
    snprintf(path, sizeof path, "%s/lessons/01-scored.lesson", folder);
    write_file(path, "title A scored lesson\nsummary Questions and a recap\nduration 1 min\n"
                     "page First\n> One.\nquestion Pick one\nchoice Yes\nchoice No\nanswer 1\n"
                     "recap Yes was right.\n"
                     "page Second\nquestion And now?\nchoice Up\nchoice Down\nanswer 2\n"
                     "explain Why does the cloth hang down?\n> Gravity pulls it.\n"
                     "recap Gravity pulls the cloth.\n");
    start("", "learn", 80, 24);
    cr_assert(wait_for("A scored lesson"), "the menu does not list the lesson:\n%s", screen);
    tmux("send-keys -t t Down"); /* the lessons are listed by file name: 00-short, then ours */
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("Pick one"), "the lesson did not open:\n%s", screen);
    tmux("send-keys -t t 1"); /* right */
    cr_expect(wait_for("Right."));
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("And now?"), "no second page:\n%s", screen);
    tmux("send-keys -t t 1"); /* wrong */
    cr_expect(wait_for("Explain: Why does the cloth hang down?"), "the explain step is not shown:\n%s", screen);
    cr_expect(strstr(screen, "Explain it in your own words") != NULL, "no prompt to explain:\n%s", screen);
    cr_expect(strstr(screen, "Gravity pulls it.") == NULL, "the explanation came before the student's:\n%s", screen);
    tmux("send-keys -t t Enter");
    cr_expect(wait_for("Gravity pulls it."), "Enter did not show the explanation:\n%s", screen);
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("The end of the lesson"), "the lesson did not end:\n%s", screen);
    cr_expect(strstr(screen, "Yes was right.") && strstr(screen, "Gravity pulls the cloth."),
              "the recap does not list each page's line:\n%s", screen);
    cr_expect(strstr(screen, "Your score: 1 of 2 questions right at the first try.") != NULL, "no score:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect(wait_for("finished 1/2"), "the menu does not keep the score:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    char saved[512];
    snprintf(saved, sizeof saved, "%s/state/clothsim/progress", folder);
    FILE *f = fopen(saved, "r");
    cr_assert(f, "no progress file");
    char line[512] = "";
    cr_expect(fgets(line, sizeof line, f) && strncmp(line, "lesson\t1\t1\t1/2\t", 15) == 0 &&
                  strstr(line, "\t01-scored.lesson\n"),
              "the file keeps: %s", line);
    /* every answer: the first question right at once, the second wrong */
    cr_expect(fgets(line, sizeof line, f) &&
                  strcmp(line, "answer\tquestion\t1\t1\t1\t1\t1\t1\t1\t01-scored.lesson\n") == 0,
              "the first answer: %s", line);
    cr_expect(fgets(line, sizeof line, f) &&
                  strcmp(line, "answer\tquestion\t2\t2\t1\t1\t0\t1\t0\t01-scored.lesson\n") == 0,
              "the second answer: %s", line);
    fclose(f);
    remove_folder();
}

/* --record while a lesson plays: an asciicast v2 file with a marker ("m")
 * at every page and at the end, which a real player (asciinema, installed by make test) plays again. */
Test(learn, a_recorded_lesson_has_a_marker_at_every_page, .timeout = 40)
{
    make_folder();
    char cast[256], args[320];
    snprintf(cast, sizeof cast, "%s/class.cast", folder);
    snprintf(args, sizeof args, "lessons/00-short.lesson --record %s", cast);
    start("", args, 80, 24);
    cr_assert(wait_for("The first page heading"), "the lesson did not open:\n%s", screen);
    tmux("send-keys -t t 1");
    cr_expect(wait_for("Alpha comes first indeed."));
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("The second page heading"));
    pause_ms(300); /* each page up long enough to be seen again in the replay */
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("The end of the lesson"));
    pause_ms(300);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    FILE *f = fopen(cast, "r");
    cr_assert(f, "no recording at %s", cast);
    char line[8192];
    cr_assert(fgets(line, sizeof line, f));
    cr_expect(strncmp(line, "{\"version\": 2, \"width\": 80, \"height\": 24,", 40) == 0, "header: %s", line);
    const char *wanted[] = {"\"m\", \"1/2 The first page heading\"]", "\"m\", \"2/2 The second page heading\"]",
                            "\"m\", \"the end: A short test lesson\"]"};
    int found = 0, outputs = 0;
    double last = -1.0;
    while (fgets(line, sizeof line, f)) {
        double t = -1.0;
        cr_expect(sscanf(line, "[%lf,", &t) == 1 && t >= last, "an event out of order: %s", line);
        last = t;
        outputs += strstr(line, ", \"o\", \"") != NULL;
        if (found < 3 && strstr(line, wanted[found]))
            found++;
    }
    fclose(f);
    cr_expect_eq(found, 3, "the markers, in order, are not all there (found %d)", found);
    cr_expect_gt(outputs, 3, "no output recorded");
    /* a real player (make test installs it): it needs a terminal, so it
     * plays in one, at a quarter of the speed, and shows the pages again */
    cr_assert_eq(system("command -v asciinema >/dev/null 2>&1"), 0,
                 "asciinema is not installed (make test installs it: apt-get install asciinema)");
    snprintf(server, sizeof server, "clothsim-learn-play-%d", (int)getpid());
    char command[700];
    snprintf(command, sizeof command,
             "-d -s t -x 80 -y 24 \"asciinema play -s 0.25 %s; echo EXIT=\\$? > %s; sleep 30\"", cast, exit_path);
    unlink(exit_path);
    cr_assert_eq(tmux_new_session("%s", command), 0);
    cr_expect(wait_for("The second page heading"), "the replay does not show the second page:\n%s", screen);
    cr_expect(wait_for("The end of the lesson"), "the replay does not show the lesson's end:\n%s", screen);
    cr_expect_eq(exit_status(), 0, "asciinema did not play the recording");
    stop();
    remove_folder();
}

/* Enter finishes a run a slice at a time: q and signals still work while a
 * long run is skipped. */
Test(learn, a_skipped_long_run_can_still_be_quit, .timeout = 30)
{
    make_folder();
    char path[256];
    snprintf(path, sizeof path, "%s/lessons/long.lesson", folder);
    write_file(path, "title Long\nsummary A long run\nduration 1 min\nset cols=100 rows=100\npage P\nrun 100 s\n"
                     "> After the run.\n");
    start("", "lessons/long.lesson", 80, 24);
    cr_assert(wait_for("Running:"), "the run did not start:\n%s", screen);
    tmux("send-keys -t t Enter");
    cr_expect(wait_for("Skipping to the end"), "Enter does not skip:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0, "q did not quit a skipped run");
    stop();
    remove_folder();
}

Test(learn, a_lesson_with_a_syntax_error_exits_2_with_its_file_line_col, .timeout = 20)
{
    make_folder();
    char path[256], command[1200], expected[512], got[512] = "";
    snprintf(path, sizeof path, "%s/broken.lesson", folder);
    write_file(path, "title Broken\nsummary A lesson with a mistake\nduration 1 min\npage One\nrn 2s\n");
    Lesson *lesson = lesson_parse_file(path, expected, sizeof expected);
    cr_assert_null(lesson, "the broken lesson parsed");
    cr_assert(strncmp(expected, path, strlen(path)) == 0 && strstr(expected, ":5:1: "), "%s", expected);
    char err_path[300];
    snprintf(err_path, sizeof err_path, "%s/stderr", folder);
    snprintf(command, sizeof command, "%s %s </dev/null >/dev/null 2>%s", CLOTHSIM_BIN, path, err_path);
    int status = system(command);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 2, "exit status %d, not 2", status);
    FILE *f = fopen(err_path, "r");
    cr_assert(f);
    if (!fgets(got, sizeof got, f))
        got[0] = '\0';
    fclose(f);
    got[strcspn(got, "\n")] = '\0';
    cr_expect_str_eq(got, expected);
    remove_folder();
}

/* ---------------------------------------------------------------- the menu at 80x24 */

/* The screen's row y (0 is the top), without its line end. */
static const char *screen_row(int y, char *row, size_t size)
{
    const char *p = screen;
    for (int k = 0; k < y && p; k++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    size_t n = p ? strcspn(p, "\n") : 0;
    if (n >= size)
        n = size - 1;
    memcpy(row, p ? p : "", n);
    row[n] = '\0';
    return row;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static const char long_summary_lesson[] =
    "title A lesson with a long summary\n"
    "summary This summary goes on and on, much longer than the eighty columns of a small terminal, "
    "to its very last words THE-LAST-WORDS\n"
    "duration 1 min\n"
    "page One\n"
    "> Words.\n";

/* The row of the screen holding text, or NULL. */
static const char *row_with(const char *text, char *row, size_t size)
{
    for (int y = 0; y < 200; y++) {
        screen_row(y, row, size);
        if (strstr(row, text))
            return row;
        if (!row[0] && !strchr(screen, '\n'))
            break;
    }
    return NULL;
}

Test(learn, a_summary_too_long_for_the_menu_ends_in_an_ellipsis, .timeout = 40)
{
    /* the summary stopped at the edge with no sign that it went on */
    make_folder();
    char path[256], row[1024];
    snprintf(path, sizeof path, "%s/lessons/01-long.lesson", folder);
    write_file(path, long_summary_lesson);
    start("", "learn", 80, 24);
    cr_assert(wait_for("This summary goes on"), "the menu does not list the lesson:\n%s", screen);
    cr_expect(row_with("This summary goes on", row, sizeof row) && ends_with(row, "\u2026"),
              "80x24: the cut summary does not end in an ellipsis: [%s]", row);
    cr_expect(strstr(screen, "THE-LAST-WORDS") == NULL, "80x24: the whole summary fits?\n%s", screen);
    tmux("resize-window -t t -x 200 -y 24");
    cr_expect(wait_for("THE-LAST-WORDS"), "200 columns: the summary is still cut:\n%s", screen);
    cr_expect(row_with("This summary goes on", row, sizeof row) && !strstr(row, "\u2026"),
              "200 columns: an ellipsis on a whole summary: [%s]", row);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();

    start("LANG=C LC_ALL=C", "learn", 80, 24);
    cr_assert(wait_for("This summary goes on"), "the menu does not list the lesson:\n%s", screen);
    cr_expect(row_with("This summary goes on", row, sizeof row) && ends_with(row, "..."),
              "80x24, LANG=C: the cut summary does not end in \"...\": [%s]", row);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    remove_folder();
}

/* The menu of a fresh session of width x height after End: the reference a
 * screen reached another way must match. */
static void fresh_menu_at_end(int width, int height, char *out, size_t size)
{
    start("", "learn", width, height);
    cr_assert(wait_for("A short test lesson"), "no menu:\n%s", screen);
    tmux("send-keys -t t End");
    cr_assert(wait_screen("A short test lesson", true), "End did not scroll:\n%s", screen);
    pause_ms(300);
    capture();
    snprintf(out, size, "%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(learn, the_menu_scrolled_to_its_last_lessons_shows_what_a_fresh_menu_shows, .timeout = 90)
{
    /* after the terminal grew, resizeterm had stretched the menu's window
     * but its canvas kept the old size: the new columns and rows were never
     * drawn, and what an earlier screen left there stayed */
    make_folder();
    static char at_80[SCREEN_BYTES], at_100[SCREEN_BYTES], got[SCREEN_BYTES];
    fresh_menu_at_end(80, 24, at_80, sizeof at_80);
    fresh_menu_at_end(100, 30, at_100, sizeof at_100);
    cr_expect(strstr(at_80, "Meet the cloth") == NULL, "80x24 holds every lesson: nothing scrolled\n%s", at_80);

    start("", "learn", 80, 24);
    cr_assert(wait_for("A short test lesson"), "no menu:\n%s", screen);
    /* one row at a time, as a person presses Down, to the end and past it */
    for (int k = 0; k < 40; k++) { /* the course in English and Ukrainian, and the test's own */
        tmux("send-keys -t t Down");
        pause_ms(60);
    }
    pause_ms(400);
    capture();
    cr_expect_str_eq(screen, at_80, "80x24: scrolled with Down, the menu differs from a fresh one after End");
    tmux("resize-window -t t -x 100 -y 30");
    pause_ms(500);
    tmux("send-keys -t t Home");
    cr_expect(wait_for("A short test lesson"), "Home did not go back to the first lesson:\n%s", screen);
    tmux("send-keys -t t End");
    cr_expect(wait_screen("A short test lesson", true), "End did not scroll:\n%s", screen);
    pause_ms(300);
    capture();
    snprintf(got, sizeof got, "%s", screen);
    cr_expect_str_eq(got, at_100, "grown to 100x30, the menu differs from a fresh one");
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    remove_folder();
}

/* ---------------------------------------------------------------- the course in the user's language */

/* The user's languages as gettext takes them: LANGUAGE first (a list),
 * then the first of LC_ALL, LC_MESSAGES and LANG; LANGUAGE is ignored in
 * the C locale. */
Test(learn, the_users_languages_come_in_gettexts_order)
{
    char got[LESSON_MAX_LANGUAGES][16];
    cr_expect_eq(lesson_user_languages(NULL, NULL, NULL, "uk_UA.UTF-8", got, LESSON_MAX_LANGUAGES), 1);
    cr_expect_str_eq(got[0], "uk");
    cr_expect_eq(lesson_user_languages("en:uk", NULL, NULL, "uk_UA.UTF-8", got, LESSON_MAX_LANGUAGES), 3);
    cr_expect(strcmp(got[0], "en") == 0 && strcmp(got[1], "uk") == 0 && strcmp(got[2], "uk") == 0);
    cr_expect_eq(lesson_user_languages(NULL, "en_GB.UTF-8", "uk_UA.UTF-8", "uk_UA.UTF-8", got, 8), 1);
    cr_expect_str_eq(got[0], "en", "LC_ALL before LC_MESSAGES and LANG");
    cr_expect_eq(lesson_user_languages(NULL, "", "uk_UA.UTF-8", "en_US.UTF-8", got, 8), 1);
    cr_expect_str_eq(got[0], "uk", "an empty LC_ALL is unset; LC_MESSAGES before LANG");
    cr_expect_eq(lesson_user_languages("uk", "C", NULL, NULL, got, 8), 0, "LANGUAGE is ignored in the C locale");
    cr_expect_eq(lesson_user_languages("uk", NULL, NULL, "POSIX", got, 8), 0);
    cr_expect_eq(lesson_user_languages("uk", "C.UTF-8", NULL, NULL, got, 8), 2, "C.UTF-8 is not the C locale");
    cr_expect_str_eq(got[0], "uk");
    cr_expect_eq(lesson_user_languages("", NULL, NULL, NULL, got, 8), 0);
    cr_expect_eq(lesson_user_languages("de:fr:uk", NULL, NULL, "ru_UA.UTF-8@x", got, 2), 2, "at most max");
    cr_expect(strcmp(got[0], "de") == 0 && strcmp(got[1], "fr") == 0);
}

static const char short_lesson_uk[] = "title Короткий тестовий урок\n"
                                      "summary Дві сторінки і запитання\n"
                                      "duration 2 min\n"
                                      "page Перша сторінка\n"
                                      "> Трохи розповіді.\n"
                                      "question Яка літера перша?\n"
                                      "choice Альфа\n"
                                      "choice Бета\n"
                                      "answer 1\n"
                                      "page Друга сторінка\n"
                                      "> Останні слова.\n";

/* Under a Ukrainian locale the menu, in Ukrainian, lists the Ukrainian
 * course, l switches to the English one (the menu's words stay Ukrainian),
 * and a lesson's progress is one whatever language it was played in and
 * whatever folder held it when it was saved. */
Test(learn, the_menu_follows_the_language_and_progress_follows_the_lesson, .timeout = 60)
{
    make_folder();
    char path[256];
    snprintf(path, sizeof path, "%s/lessons/uk", folder);
    cr_assert_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/lessons/uk/00-short.lesson", folder);
    write_file(path, short_lesson_uk);
    start("LC_ALL=C.UTF-8 LANGUAGE=uk", "learn", 100, 30);
    cr_assert(wait_for("Короткий тестовий урок"), "the Ukrainian course is not listed:\n%s", screen);
    cr_expect(strstr(screen, "Курс: Українська (l: English)") != NULL, "no line naming the course:\n%s", screen);
    cr_expect(strstr(screen, "A short test lesson") == NULL && strstr(screen, "Meet the cloth") == NULL,
              "English lessons in the Ukrainian course:\n%s", screen);
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("Перша сторінка"), "Enter did not open the Ukrainian lesson:\n%s", screen);
    tmux("send-keys -t t Enter"); /* skips the question */
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("Друга сторінка"), "no second page:\n%s", screen);
    tmux("send-keys -t t q");
    cr_assert(wait_for("Дві сторінки і запитання"), "q did not go back to the menu:\n%s", screen);
    tmux("send-keys -t t l");
    cr_assert(wait_for("A short test lesson"), "l did not switch to the English course:\n%s", screen);
    /* the interface stays Ukrainian: only the lessons listed are English */
    cr_expect(strstr(screen, "Курс: English (l: Українська)") != NULL, "the course line:\n%s", screen);
    cr_expect(strstr(screen, "Короткий") == NULL, "the Ukrainian course is still listed:\n%s", screen);
    cr_expect(wait_for("на сторінці 2"), "the English lesson does not have the Ukrainian one's progress:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();

    /* any other language: the English course first, the others a key away */
    start("LC_ALL=C.UTF-8 LANGUAGE=de", "learn", 100, 30);
    cr_assert(wait_for("A short test lesson"), "not the English course:\n%s", screen);
    cr_expect(strstr(screen, "Course: English (l: Українська)") != NULL, "the course line:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();

    /* a progress file from when lessons were known by absolute path, in a
     * checkout since moved: read, and the lesson resumes */
    char saved[512];
    snprintf(saved, sizeof saved, "%s/state/clothsim", folder);
    char command[1100];
    snprintf(command, sizeof command, "rm -rf %s && mkdir -p %s", saved, saved);
    cr_assert_eq(system(command), 0);
    snprintf(saved, sizeof saved, "%s/state/clothsim/progress", folder);
    write_file(saved, "1\t0\t/home/somebody/old-checkout/lessons/00-short.lesson\n");
    start("LC_ALL=C.UTF-8 LANGUAGE=en", "learn", 100, 30);
    cr_assert(wait_for("A short test lesson"));
    cr_expect(wait_for("at page 2"), "the old line was not read:\n%s", screen);
    tmux("send-keys -t t Enter");
    cr_expect(wait_for("The second page heading"), "the lesson did not resume on its second page:\n%s", screen);
    tmux("send-keys -t t q");
    cr_assert(wait_for("A short test lesson"));
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    FILE *f = fopen(saved, "r");
    cr_assert(f);
    char line[512] = "";
    cr_expect(fgets(line, sizeof line, f) && strncmp(line, "lesson\t1\t0\t-\t", 13) == 0 &&
                  strstr(line, "\t00-short.lesson\n"),
              "not written anew: %s", line);
    fclose(f);
    remove_folder();
}

/* ---------------------------------------------------------------- the teacher's view */

static const char noted_lesson[] = "title A noted lesson\n"
                                   "summary Notes for the teacher\n"
                                   "duration 1 min\n"
                                   "teacher NOTE-ONE\n"
                                   "page The noted page\n"
                                   "teacher NOTE-TWO\n"
                                   "> Words for everyone.\n"
                                   "question Which?\n"
                                   "choice Alpha\n"
                                   "choice Beta\n"
                                   "answer 1\n"
                                   "page The plain page\n"
                                   "> More words.\n";

/* Teacher notes are never on a student's screen; --teacher shows them, with
 * the answer, on their page. */
Test(learn, teacher_notes_show_only_in_the_teachers_view, .timeout = 40)
{
    make_folder();
    char path[256];
    snprintf(path, sizeof path, "%s/lessons/noted.lesson", folder);
    write_file(path, noted_lesson);
    start("", "lessons/noted.lesson", 80, 24);
    cr_assert(wait_for("Words for everyone."), "the lesson did not open:\n%s", screen);
    cr_expect(strstr(screen, "NOTE-") == NULL && strstr(screen, "Teacher:") == NULL,
              "a student sees a teacher note:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();

    start("", "lessons/noted.lesson --teacher", 100, 40);
    cr_assert(wait_for("Words for everyone."), "the lesson did not open:\n%s", screen);
    cr_expect(strstr(screen, "Teacher: NOTE-ONE") != NULL, "no lesson note:\n%s", screen);
    cr_expect(strstr(screen, "Teacher: NOTE-TWO") != NULL, "no page note:\n%s", screen);
    cr_expect(strstr(screen, "Teacher: the answer is 1, Alpha.") != NULL, "no answer:\n%s", screen);
    tmux("send-keys -t t Enter Enter");
    cr_assert(wait_for("More words."), "no second page:\n%s", screen);
    cr_expect(strstr(screen, "NOTE-") == NULL, "the first page's notes on the second:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    remove_folder();
}

/* ---------------------------------------------------------------- homework */

/* A homework waits for a number: a wrong one is told so, the right one
 * too, and both go into the record with the progress. */
Test(learn, a_homework_takes_a_number_and_keeps_it_in_the_record, .timeout = 40)
{
    make_folder();
    char path[256];
    snprintf(path, sizeof path, "%s/lessons/hw.lesson", folder);
    write_file(path, "title A homework lesson\nsummary One number\nduration 1 min\n"
                     "set cols=6 rows=4 collider=none\n"
                     "page Find the number\n> Explore first.\n"
                     "homework How many iterations does the test key name?\n"
                     "solve iterations smallest 1 after 100ms if not exploded\n"
                     "page After\n> Done.\n");
    start("", "lessons/hw.lesson", 80, 24);
    cr_assert(wait_for("Homework: How many iterations"), "the homework is not shown:\n%s", screen);
    cr_expect(strstr(screen, "Type the number and press Enter") != NULL, "no prompt:\n%s", screen);
    tmux("send-keys -t t 2 3");
    cr_expect(wait_for("Your answer: 23_"), "the typed number is not shown:\n%s", screen);
    tmux("send-keys -t t BSpace Enter");
    cr_expect(wait_for("Not 2. Try another number"), "a wrong number is not told:\n%s", screen);
    tmux("send-keys -t t 1 Enter");
    cr_expect(wait_for("Right: 1. Enter goes on."), "the right number is not told:\n%s", screen);
    tmux("send-keys -t t Enter");
    cr_expect(wait_for("Enter: next page."), "Enter did not go on:\n%s", screen);
    tmux("send-keys -t t Enter");
    cr_expect(wait_for("Done."), "no next page:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    char saved[512], line[512] = "";
    snprintf(saved, sizeof saved, "%s/state/clothsim/progress", folder);
    FILE *f = fopen(saved, "r");
    cr_assert(f, "no progress file");
    bool found = false;
    while (fgets(line, sizeof line, f))
        found = found || strcmp(line, "answer\thomework\t1\t1\t2\t2\t0\t1\t1\thw.lesson\n") == 0;
    fclose(f);
    cr_expect(found, "the homework is not in the record");
    remove_folder();
}
