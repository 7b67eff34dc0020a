/* cli.h - the command line's shared pieces: the error funnel and the parsing
 * of scene settings (--scene, --set KEY=VALUE) that every subcommand takes.
 *
 * Exit statuses: 0 done, 1 the environment failed (no memory, no terminal,
 * a write that failed), 2 a person's mistake on the command line, 3 a
 * headless run whose cloth exploded (the run ends there; see headless.c),
 * 4 a headless run under integrator=implicit some of whose substeps' solves
 * did not converge (the run goes on to its end).
 */
#ifndef CLOTHSIM_CLI_H
#define CLOTHSIM_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "core/params.h"

#define EXIT_USAGE 2
#define EXIT_EXPLODED 3
#define EXIT_UNCONVERGED 4

/* How much of a person's text an error message echoes (cli_cut). */
#define CLI_CUT_WORD 60
#define CLI_CUT_PATH 200

/* Prints "clothsim: " + the message (format through _()) + newline on
 * stderr: the one funnel for a person's mistakes on the command line and for
 * every other line clothsim says there (an explosion, a solve that did not
 * converge, --stats). Only check's time limit writes past it, from a signal
 * handler (check.c). */
void cli_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* line and a newline on stderr, its control characters escaped
 * (text_escape_controls): for a message made elsewhere (a lesson's
 * file:line:col). cli_error escapes the same way. */
void cli_say(const char *line);

/* text for an error message: at most limit characters (not cutting a UTF-8
 * character), then "..." if there was more. Returns one of 4 static buffers
 * used in turn, so up to 4 may appear in one message. */
const char *cli_cut(const char *text, size_t limit);

/* Settings gathered from the command line. */
typedef struct CliSettings {
    int scene;                    /* SceneKind chosen by --scene or --set scene=... */
    const char *assignments[256]; /* every --set, in order */
    int assignment_count;
} CliSettings;

/* If argv[*i] is --scene NAME, --scene=NAME, --set KEY=VALUE or --set=KEY=VALUE,
 * records it, advances *i past its value and returns 1. Returns 0 if the
 * argument is something else, -1 after reporting a mistake. */
int cli_take_setting(CliSettings *settings, int argc, char **argv, int *i);

/* Moves *i on to the next argument that is not a setting (start with *i = 0),
 * taking the settings on the way as cli_take_setting does. Returns 1 with
 * *i at that argument, 0 at the end of argv, -1 after reporting a mistake. */
int cli_next_argument(CliSettings *settings, int argc, char **argv, int *i);

/* Fills params: the chosen scene's defaults, then every --set in order, then
 * the cross-key checks. Returns false after reporting a mistake. */
bool cli_build_params(const CliSettings *settings, Params *params);

/* The value of an option that takes one ("--steps 10" or "--steps=10"):
 * returns it and advances *i, or reports and returns NULL. A next argument
 * that is an option ("--csv --steps 3") is not taken as the value: that is
 * reported as the value missing. If argv[*i] is not
 * the option name at all, returns NULL without reporting and leaves *matched 0. */
const char *cli_option_value(int argc, char **argv, int *i, const char *name, int *matched);

/* Options anywhere, as GNU programs take them: moves the command (the
 * first argument that is neither an option nor an option's value: "run",
 * "learn", FILE.lesson ...) to argv[1], the options before it after it in
 * their order, so that "clothsim --ascii learn" is "clothsim learn --ascii".
 * clothsim --help and --version stay as they are (they take no command).
 * A "--" before the command ends the options: it is dropped and the
 * argument after it is the command whatever it looks like. Returns true
 * where argv[1] is then such a command taken after "--" (*count is then
 * one less). */
bool cli_command_first(int *count, char **argv);

/* Parses a whole number in [min, max] for option name; reports on failure. */
bool cli_parse_long(const char *name, const char *text, long min, long max, long *out);
bool cli_parse_double(const char *name, const char *text, double min, double max, double *out);

#endif
