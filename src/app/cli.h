/* cli.h - the command line's shared pieces: the error funnel and the parsing
 * of scene settings (--scene, --set KEY=VALUE) that every subcommand takes.
 *
 * Exit statuses: 0 done, 1 the environment failed (no memory, no terminal),
 * 2 a person's mistake on the command line.
 */
#ifndef CLOTHSIM_CLI_H
#define CLOTHSIM_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "core/params.h"

#define EXIT_USAGE 2

/* Prints "clothsim: " + the message + newline on stderr: the one funnel for
 * a person's mistakes on the command line. */
void cli_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Settings gathered from the command line. */
typedef struct CliSettings {
    int scene;                /* SceneKind chosen by --scene or --set scene=... */
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
 * returns it and advances *i, or reports and returns NULL. If argv[*i] is not
 * the option name at all, returns NULL without reporting and leaves *matched 0. */
const char *cli_option_value(int argc, char **argv, int *i, const char *name, int *matched);

/* Parses a whole number in [min, max] for option name; reports on failure. */
bool cli_parse_long(const char *name, const char *text, long min, long max, long *out);
bool cli_parse_double(const char *name, const char *text, double min, double max, double *out);

#endif
