/* class_screen.c - the screens of a class session: the student's (class
 * join: the lesson player, linked to the class through class_link.h) and
 * the teacher's (class teach: who joined, each one's page, the answers to
 * the question as they come in). Curses calls only through the sandbox's
 * session (tui_private.h) and this file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class_link.h"
#include "class_main.h"
#include "cli.h"
#include "config.h"
#include "i18n.h"
#include "lesson/lesson.h"
#include "tui.h"
#include "tui_private.h"

/* ---------------------------------------------------------------- the student */

int class_join(const char *code, const char *socket_path, int argc, char **argv)
{
    /* argv[0] is "join"; the code and --dir are taken; the rest are the
     * lessons' screen options */
    Tui *tui = calloc(1, sizeof *tui);
    ClassLink *link = calloc(1, sizeof *link);
    if (!tui || !link) {
        free(tui);
        free(link);
        cli_error("out of memory");
        return 1;
    }
    tui_defaults(tui);
    int status = 0;
    if (!config_apply(tui, argc, argv))
        status = EXIT_USAGE;
    for (int i = 1; i < argc && !status; i++) {
        if (strcmp(argv[i], code) == 0)
            continue;
        if (strcmp(argv[i], "--dir") == 0) {
            i++;
            continue;
        }
        if (strncmp(argv[i], "--dir=", 6) == 0)
            continue;
        int matched = tui_screen_option(tui, argc, argv, &i);
        if (matched > 0)
            continue;
        if (matched == 0)
            cli_error("class join: unknown option '%s' (clothsim class --help lists them)",
                      cli_cut(argv[i], CLI_CUT_WORD));
        status = EXIT_USAGE;
    }
    char err[TEXT_MESSAGE_SIZE];
    if (!status && !class_link_open(link, code, socket_path, err, sizeof err)) {
        cli_error("class %s: %s", code, err);
        status = 1;
    }
    Lesson *lesson = NULL;
    if (!status) {
        lesson = lesson_parse_file(link->lesson_path, err, sizeof err);
        if (!lesson) {
            cli_say(err); /* the lesson is the teacher's; the student cannot read it, say */
            status = 1;
        }
    }
    if (!status) {
        tui_locale(tui);
        if (!tui_session_start(tui, err, sizeof err)) {
            cli_error("%s", err);
            status = tui->term.refused ? 2 : 1;
        } else {
            status = tui_class_lesson(tui, link, lesson);
            if (status < 0)
                status = 0;
            tui_session_stop(tui);
            if (status == 1 && tui->message[0])
                cli_error("%s", tui->message);
            if (link->pending_count)
                cli_error("class %s: %d answers did not reach the class (the server is gone)", code,
                          link->pending_count);
            if (tui->stats)
                tui_print_stats(tui);
        }
    }
    class_link_close(link);
    lesson_destroy(lesson);
    free(link);
    free(tui);
    return status;
}

/* ---------------------------------------------------------------- the teacher */

int class_teach(const char *code, const char *socket_path, int argc, char **argv)
{
    (void)code, (void)socket_path, (void)argc, (void)argv;
    cli_error("class teach is not written yet");
    return 1;
}
