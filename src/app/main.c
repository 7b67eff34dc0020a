/* main.c - clothsim's entry: picks the subcommand. The only exit() is here. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "check.h"
#include "class_main.h"
#include "cli.h"
#include "core/fast_table.h"
#include "fast/relax_fast.h"
#include "handout.h"
#include "headless.h"
#include "i18n.h"
#include "progress.h"
#include "tui.h"
#include "tui_lesson.h"

/* %s: the version */
static const char usage[] = N_("clothsim %s - a cloth simulator that shows how cloth solvers work\n"
                               "\n"
                               "usage: clothsim [--scene NAME] [--set KEY=VALUE]... [--compare KEY=V1,V2]\n"
                               "                [--preset euler-verlet|iterations|tearing]\n"
                               "                [--ascii] [--fps N] [--high-contrast] [--stats]\n"
                               "                [--record FILE.cast]   the interactive sandbox (the default)\n"
                               "       clothsim run [--scene NAME] [--set KEY=VALUE]... [--steps N]\n"
                               "                    [--csv PATH|-] [--dump PATH|-]\n"
                               "                    [--frames [--size WxH] [--mode MODE] [--ascii]]\n"
                               "       clothsim params [--scene NAME]   every setting: range, default, meaning\n"
                               "       clothsim scenes                  the scenes\n"
                               "       clothsim learn                   the lessons: a menu; progress is kept\n"
                               "       clothsim FILE.lesson             play one lesson\n"
                               "       clothsim progress [--csv [--answers]]  what you did in the lessons\n"
                               "       clothsim check [--run] FILE...   check lesson scripts (--run: play them)\n"
                               "       clothsim handout FILE.lesson [--teacher] [-o FILE.html]  a page to print\n"
                               "       clothsim bench [--quick] [--json]  what the solver and the drawing cost\n"
                               "       clothsim class start LESSON | join CODE | report CODE  a class session\n"
                               "       clothsim --help | --version\n"
                               "\n"
                               "In the sandbox, ? lists the keys. COMMAND --help tells more about each command\n"
                               "(clothsim --ascii --help: the sandbox's options); man clothsim tells everything.\n");

/* CLOTHSIM_KERNELS=portable|neon|avx2|avx512 forces the fast path's
 * instruction-set level (relax_fast.h), read once here, before any solver
 * is made. A level this processor lacks, or a word that is no level, gets
 * one line naming the levels it has, and the widest of them is used. */
static void choose_kernels(void)
{
    const char *name = getenv("CLOTHSIM_KERNELS");
    if (!name || !*name)
        return;
    RelaxFastKernels wanted;
    bool known = relax_fast_kernels_named(name, &wanted);
    if (known && relax_fast_cpu_has(wanted)) {
        relax_fast_set_default_kernels(wanted);
        return;
    }
    char has[64] = "";
    for (int k = 0; k < RELAX_FAST_LEVELS; k++)
        if (relax_fast_cpu_has((RelaxFastKernels)k))
            snprintf(has + strlen(has), sizeof has - strlen(has), "%s%s", *has ? ", " : "",
                     relax_fast_kernel_name((RelaxFastKernels)k));
    const char *best = relax_fast_kernel_name(relax_fast_cpu_kernels());
    if (known)
        /* TRANSLATORS: CLOTHSIM_KERNELS names an instruction set the processor lacks; %s: it, the levels it
           has (portable, avx2 ...), the one used */
        cli_error("CLOTHSIM_KERNELS=%s: this processor has no %s, only %s; using %s", name, name, has, best);
    else
        cli_error("CLOTHSIM_KERNELS=%s is not a level (portable, neon, avx2, avx512); this processor has %s; using %s",
                  cli_cut(name, CLI_CUT_WORD), has, best);
}

int main(int argc, char **argv)
{
    i18n_init();
    /* the solver calls the fast path through core's table (src/fast/README.md) */
    fast_table_install(relax_fast_table());
    choose_kernels();
    /* standard output into a file or a pipe is written in one piece at the
     * end where it fits, so the final flush sees (and names) any failure */
    static char stdout_buffer[1 << 16];
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
    /* a closed pipe (clothsim run | head -c1) is a write that fails, said in
     * one line with status 1, not a silent death by SIGPIPE (the sandbox
     * handles the signal itself) */
    signal(SIGPIPE, SIG_IGN);
    bool operand = cli_command_first(&argc, argv); /* options may come before the command */
    const char *command = argc < 2 ? "" : argv[1];
    size_t length = strlen(command);
    int status;
    if (strcmp(command, "learn") == 0 || (length > 7 && strcmp(command + length - 7, ".lesson") == 0))
        status = tui_learn_main(argc, argv); /* the lesson menu, or one lesson */
    else if (argc < 2 || (!operand && command[0] == '-' && strcmp(command, "--help") != 0 &&
                          strcmp(command, "-h") != 0 && strcmp(command, "--version") != 0))
        status = tui_main(argc, argv); /* the interactive sandbox */
    else if (strcmp(command, "run") == 0)
        status = headless_run(argc - 1, argv + 1);
    else if (strcmp(command, "params") == 0)
        status = headless_params(argc - 1, argv + 1);
    else if (strcmp(command, "check") == 0)
        status = check_main(argc - 1, argv + 1);
    else if (strcmp(command, "bench") == 0)
        status = bench_main(argc - 1, argv + 1);
    else if (strcmp(command, "handout") == 0)
        status = handout_main(argc - 1, argv + 1);
    else if (strcmp(command, "progress") == 0)
        status = progress_main(argc - 1, argv + 1);
    else if (strcmp(command, "class") == 0)
        status = class_main(argc - 1, argv + 1);
    else if (strcmp(command, "scenes") == 0)
        status = headless_scenes(argc - 1, argv + 1);
    else if ((strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 || strcmp(command, "help") == 0 ||
              strcmp(command, "--version") == 0) &&
             argc > 2) {
        cli_error("%s takes no arguments (got '%s')", command, cli_cut(argv[2], CLI_CUT_WORD));
        status = EXIT_USAGE;
    } else if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 || strcmp(command, "help") == 0) {
        printf(_(usage), CLOTHSIM_VERSION);
        status = EXIT_SUCCESS;
    } else if (strcmp(command, "--version") == 0) {
        printf("clothsim %s\n", CLOTHSIM_VERSION);
        status = EXIT_SUCCESS;
    } else {
        cli_error("unknown command '%s' (clothsim --help lists the commands)", cli_cut(command, CLI_CUT_WORD));
        status = EXIT_USAGE;
    }
    /* what went to standard output must have got there: a full disk or a
     * closed pipe is an error, not a silent success */
    errno = 0;
    bool flushed = fflush(stdout) == 0;
    if ((!flushed || ferror(stdout)) && status == EXIT_SUCCESS) { /* else already said */
        if (!flushed && errno)
            cli_error("standard output: cannot write: %s", strerror(errno));
        else
            cli_error("standard output: cannot write (a write failed)");
        status = 1;
    }
    exit(status);
}
