/* fuzz_lesson.c - libFuzzer entry for the lesson parser: any bytes must
 * parse or be refused with one message, never crash, hang or leak.
 * Built and run by `make fuzz` (not part of the Criterion suite: the
 * Makefile keeps tests/fuzz out of it). */
#include <stddef.h>
#include <stdint.h>

#include "core/fast_table.h"
#include "fast/relax_fast.h"
#include "lesson/lesson.h"
#include "lesson/parser.h"

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
    char err[512];
    Lesson *lesson = lesson_parse_buffer("fuzz.lesson", (const char *)data, size, err, sizeof err);
    lesson_destroy(lesson);
    return 0;
}
