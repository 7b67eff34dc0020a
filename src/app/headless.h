/* headless.h - subcommands that run without a terminal. Each returns the
 * process exit status; only main() exits. */
#ifndef CLOTHSIM_HEADLESS_H
#define CLOTHSIM_HEADLESS_H

#include <stdbool.h>

#include "core/params.h"

/* What `clothsim run` was asked to do. */
typedef struct RunOptions {
    Params params;
    long steps, every;
    const char *csv_path, *dump_path; /* NULL: none; "-": standard output */
    bool frames, ascii;
    int width, height, mode; /* of --frames */
} RunOptions;

/* Reads run's arguments (argv[0] is "run") into *o, without touching a
 * file: -1 when they are good; else the exit status, after --help is
 * printed or the mistake is reported. What the argument fuzzer calls. */
int headless_run_options(int argc, char **argv, RunOptions *o);

int headless_run(int argc, char **argv);    /* clothsim run ... (argv[0] is "run") */
int headless_params(int argc, char **argv); /* clothsim params [--scene NAME] */
int headless_scenes(int argc, char **argv); /* clothsim scenes [--help]; argv[0] is "scenes" */

#endif
