/* main.c - clothsim's entry: picks the subcommand. The only exit() is here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "check.h"
#include "cli.h"
#include "headless.h"
#include "tui.h"

static const char usage[] =
    "clothsim " CLOTHSIM_VERSION " - a cloth simulator that shows how cloth solvers work\n"
    "\n"
    "usage: clothsim [--scene NAME] [--set KEY=VALUE]... [--compare KEY=V1,V2] [--ascii] [--fps N]\n"
    "                [--high-contrast] [--stats] [--record FILE.cast]\n"
    "                                        the interactive sandbox (the default)\n"
    "       clothsim run [--scene NAME] [--set KEY=VALUE]... [--steps N] [--csv PATH|-] [--dump PATH|-]\n"
    "                    [--frames [--size WxH] [--mode MODE] [--ascii]]\n"
    "       clothsim params [--scene NAME]   every setting: type, range, default, meaning\n"
    "       clothsim scenes                  the scenes\n"
    "       clothsim learn                   the lessons: a menu; progress is kept\n"
    "       clothsim FILE.lesson             play one lesson\n"
    "       clothsim check [--run] FILE...   check lesson scripts (--run: play them and verify)\n"
    "       clothsim bench [--quick] [--json]  what the solver and the renderer cost here\n"
    "       clothsim --help | --version\n"
    "\n"
    "In the sandbox, ? lists the keys. clothsim run --help tells more about a headless run;\n"
    "man clothsim tells everything.\n";

int main(int argc, char **argv)
{
    const char *command = argc < 2 ? "" : argv[1];
    size_t length = strlen(command);
    int status;
    if (strcmp(command, "learn") == 0 || (length > 7 && strcmp(command + length - 7, ".lesson") == 0))
        status = tui_learn_main(argc, argv); /* the lesson menu, or one lesson */
    else if (argc < 2 || (command[0] == '-' && strcmp(command, "--help") != 0 && strcmp(command, "-h") != 0 &&
                     strcmp(command, "--version") != 0))
        status = tui_main(argc, argv); /* the interactive sandbox */
    else if (strcmp(command, "run") == 0)
        status = headless_run(argc - 1, argv + 1);
    else if (strcmp(command, "params") == 0)
        status = headless_params(argc - 1, argv + 1);
    else if (strcmp(command, "check") == 0)
        status = check_main(argc - 1, argv + 1);
    else if (strcmp(command, "bench") == 0)
        status = bench_main(argc - 1, argv + 1);
    else if (strcmp(command, "scenes") == 0)
        status = argc == 2 ? headless_scenes() : (cli_error("scenes takes no arguments"), EXIT_USAGE);
    else if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 || strcmp(command, "help") == 0) {
        fputs(usage, stdout);
        status = EXIT_SUCCESS;
    } else if (strcmp(command, "--version") == 0) {
        printf("clothsim %s\n", CLOTHSIM_VERSION);
        status = EXIT_SUCCESS;
    } else {
        cli_error("unknown command '%s' (clothsim --help lists the commands)", command);
        status = EXIT_USAGE;
    }
    if (fflush(stdout) != 0 && status == 0)
        status = 1;
    exit(status);
}
