/* fuzz_progress.c - libFuzzer entry for the progress-file reader
 * (progress_parse): any bytes must be read or refused at a line, never
 * crash, hang or leak. Built and run by `make fuzz`. */
#include <stddef.h>
#include <stdint.h>

#include "app/progress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Progress progress = {0};
    int bad_line;
    progress_parse(&progress, (const char *)data, size, &bad_line);
    progress_free(&progress);
    return 0;
}
