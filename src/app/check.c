/* check.c - `clothsim check [--run] FILE...` (see check.h).
 *
 * Parses every file first and stops there if any has a mistake: one line
 * `file:line:col: message` each on stderr. With --run it then plays each
 * lesson through lesson_player_play_to_end (no terminal, no clock: runs
 * finish at once, pauses, questions and free play are passed) and reports
 * each failed expect as `file:line:col: expect failed: ... (saw X)`. A
 * homework's answer is proved the same way: its condition must hold at the
 * answer and not one step past it (`homework failed: ...` otherwise).
 * With --tap the report on standard output is TAP version 13 instead, for
 * a course's CI or an autograder: one test point per expect (per file
 * without --run), the messages as their descriptions; the exit status is
 * the same.
 */
#include "check.h"
#include "core/text.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli.h"
#include "lesson/lesson.h"
#include "lesson/parser.h"
#include "lesson/player.h"
#include "lesson/run_cache.h"
#include "i18n.h"

static const char usage[] = N_("usage: clothsim check [--run [--verbose] [--time-limit S]] [--tap] FILE...\n"
                               "\n"
                               "Checks lesson scripts (lessons/README.md describes the language).\n"
                               "  --run       also play each lesson headless and verify every 'expect' and\n"
                               "              the answer of every homework\n"
                               "  --verbose   with --run, also show each expect that held and the value seen\n"
                               "  --time-limit S  with --run, stop after S seconds of processor time in all\n"
                               "              (default 1800; 0: no bound); each lesson's budget bounds it too\n"
                               "  --tap       report as TAP version 13 on standard output: a test point per\n"
                               "              expect with --run, per file without (prove, a course's CI)\n"
                               "\n"
                               "A mistake is reported as one line 'file:line:col: message'; a failed\n"
                               "expect as 'file:line:col: expect failed: CONDITION (saw VALUE)'.\n"
                               "Exit status: 0 all good, 1 an expect failed, 2 a mistake in a file or\n"
                               "in the arguments (then nothing is run).\n");

/* The line check --run stops with at its time limit, made before the
 * lessons play (a signal handler may only write it). */
static char time_up_line[512];
static size_t time_up_length;

static void time_up(int signal_number)
{
    (void)signal_number;
    if (write(STDERR_FILENO, time_up_line, time_up_length) < 0) {
        /* nothing more can be said */
    }
    _exit(EXIT_FAILURE);
}

/* Stops the process after `seconds` of processor time (0: never), saying
 * which lesson was playing. */
static void limit_time(long seconds, const char *file)
{
    if (seconds <= 0)
        return;
    int n = snprintf(time_up_line, sizeof time_up_line,
                     _("clothsim: check --run: %s: stopped after %ld s of processor time (the bound; --time-limit S "
                       "sets it)\n"),
                     cli_cut(file, CLI_CUT_PATH), seconds);
    time_up_length = n < 0 ? 0 : (size_t)n < sizeof time_up_line ? (size_t)n : sizeof time_up_line - 1;
    static bool armed;
    if (armed)
        return; /* the line changes with the lesson; the clock runs on */
    armed = true;
    struct sigaction action = {.sa_handler = time_up};
    sigemptyset(&action.sa_mask);
    sigaction(SIGPROF, &action, NULL);
    struct itimerval timer = {.it_value = {.tv_sec = seconds}};
    setitimer(ITIMER_PROF, &timer, NULL);
}

/* One TAP test point per expect of a lesson played to its end, numbered
 * from *point + 1; '#' in a message is escaped, as TAP asks. */
static void tap_points(const Lesson *lesson, const LessonPlayer *player, int *point)
{
    for (int k = 0; k < lesson->item_count; k++) {
        if (lesson->items[k].kind != LESSON_EXPECT && lesson->items[k].kind != LESSON_HOMEWORK)
            continue;
        const LessonResult *r = &player->results[k];
        printf("%s %d - ", r->reached && r->passed ? "ok" : "not ok", ++*point);
        if (!r->reached) {
            printf(_("%s:%d:%d: expect not reached\n"), lesson->name, lesson->items[k].line, lesson->items[k].col);
            continue;
        }
        for (const char *c = r->message; *c; c++) {
            if (*c == '#')
                putchar('\\');
            putchar(*c);
        }
        putchar('\n');
    }
}

int check_main(int argc, char **argv)
{
    bool run = false, verbose = false, tap = false;
    long time_limit = 1800;
    int file_count = 0;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    if (!files) {
        cli_error("out of memory");
        return EXIT_FAILURE;
    }
    bool options = true;
    for (int i = 1; i < argc; i++) {
        if (options && strcmp(argv[i], "--") == 0) {
            options = false;
        } else if (options && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)) {
            fputs(_(usage), stdout);
            free(files);
            return EXIT_SUCCESS;
        } else if (options && strcmp(argv[i], "--run") == 0) {
            run = true;
        } else if (options && strncmp(argv[i], "--time-limit", 12) == 0 &&
                   (argv[i][12] == '\0' || argv[i][12] == '=')) {
            int matched;
            const char *value = cli_option_value(argc, argv, &i, "--time-limit", &matched);
            if (!value || !cli_parse_long("--time-limit", value, 0, 1000000, &time_limit)) {
                free(files);
                return EXIT_USAGE;
            }
        } else if (options && strcmp(argv[i], "--verbose") == 0) {
            verbose = true;
        } else if (options && strcmp(argv[i], "--tap") == 0) {
            tap = true;
        } else if (options && argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_error("check: unknown option '%s' (clothsim check --help)", argv[i]);
            free(files);
            return EXIT_USAGE;
        } else {
            files[file_count++] = argv[i];
        }
    }
    if (file_count == 0) {
        cli_error("check: name at least one lesson file (clothsim check --help)");
        free(files);
        return EXIT_USAGE;
    }

    Lesson **lessons = calloc((size_t)file_count, sizeof *lessons);
    if (!lessons) {
        free(files);
        cli_error("out of memory");
        return EXIT_FAILURE;
    }
    int mistakes = 0;
    for (int f = 0; f < file_count; f++) {
        char err[TEXT_MESSAGE_SIZE];
        lessons[f] = lesson_parse_file(files[f], err, sizeof err);
        if (!lessons[f] || !lesson_check_feedback(lessons[f], err, sizeof err)) {
            cli_say(err);
            mistakes++;
        }
    }

    /* runs repeat across lessons (a translation plays its original's
     * panes) and within one: each is played once (run_cache.h) */
    RunCache *cache = run ? run_cache_create(RUN_CACHE_BUDGET) : NULL;
    int status = EXIT_SUCCESS, point = 0;
    if (tap) {
        puts("TAP version 13");
        if (mistakes) {
            puts("Bail out! a lesson has a mistake (standard error says where)");
        } else {
            int planned = 0;
            for (int f = 0; f < file_count; f++)
                planned += run ? lessons[f]->expect_count : 1;
            printf("1..%d\n", planned);
        }
    }
    if (mistakes) {
        status = EXIT_USAGE;
    } else {
        for (int f = 0; f < file_count; f++) {
            const Lesson *lesson = lessons[f];
            for (int page = 0; page < lesson->page_count; page++) {
                int words = lesson_page_words(lesson, page);
                if (words > LESSON_PAGE_WORDS) {
                    char warning[TEXT_MESSAGE_SIZE];
                    snprintf(warning, sizeof warning,
                             _("%s:%d:1: warning: page %d puts %d words on screen; about %d read well from a "
                               "projector\n"),
                             files[f], lesson->pages[page].line, page + 1, words, LESSON_PAGE_WORDS);
                    warning[strcspn(warning, "\n")] = '\0';
                    cli_say(warning);
                }
            }
            if (!run) {
                if (tap)
                    printf("ok %d - %s parses (%d pages, %d expects)\n", ++point, files[f], lesson->page_count,
                           lesson->expect_count);
                else
                    printf(_("%s: ok (%d pages, %d expects)\n"), files[f], lesson->page_count, lesson->expect_count);
                continue;
            }
            limit_time(time_limit, files[f]);
            LessonPlayer *player = lesson_player_create(lesson);
            if (player) {
                player->verify_homework = true; /* a homework's answer is a claim too */
                player->run_cache = cache;      /* NULL when out of memory: every run plays */
            }
            if (!player || !lesson_player_play_to_end(player)) {
                cli_error("%s: out of memory", cli_cut(files[f], CLI_CUT_PATH));
                if (tap)
                    printf("Bail out! %s: out of memory\n", files[f]);
                lesson_player_destroy(player);
                status = EXIT_FAILURE;
                if (tap)
                    break;
                continue;
            }
            if (tap) {
                tap_points(lesson, player, &point);
                if (player->expects_failed)
                    status = EXIT_FAILURE;
                lesson_player_destroy(player);
                continue;
            }
            for (int k = 0; k < lesson->item_count; k++)
                if (player->results[k].reached && !player->results[k].passed)
                    cli_say(player->results[k].message);
                else if (player->results[k].reached && verbose)
                    printf("%s\n", player->results[k].message);
            if (player->expects_failed) {
                printf(_("%s: FAILED %d of %d expects\n"), files[f], player->expects_failed, lesson->expect_count);
                status = EXIT_FAILURE;
            } else {
                printf(_("%s: ok (%d pages, %d expects held)\n"), files[f], lesson->page_count, player->expects_passed);
            }
            lesson_player_destroy(player);
        }
    }
    run_cache_destroy(cache);
    for (int f = 0; f < file_count; f++)
        lesson_destroy(lessons[f]);
    free(lessons);
    free(files);
    return status;
}
