/* fuzz_args.c - libFuzzer entry for the argument parser of `clothsim run`
 * (headless_run_options and the cli.c pieces under it: --scene, --set,
 * numbers, sizes, option values): any words must be taken or refused with
 * one message, never crash, hang or leak. The input is split at NUL bytes
 * into up to 64 arguments. Nothing is run and no file is opened. Built and
 * run by `make fuzz`. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/headless.h"
#include "core/fast_table.h"
#include "fast/relax_fast.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The solvers call the fast path through core's table, as in the program
 * (app/main.c). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fast_table_install(relax_fast_table());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[66] = {"run"};
    int argc = 1;
    for (size_t at = 0; at < size && argc < 65;) {
        argv[argc++] = text + at;
        at += strlen(text + at) + 1;
    }
    argv[argc] = NULL;
    RunOptions options;
    headless_run_options(argc, argv, &options);
    for (int i = 1; i < argc; i++)
        (void)cli_cut(argv[i], CLI_CUT_WORD);
    free(text);
    return 0;
}
