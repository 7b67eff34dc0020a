/* relax_table.c - the fast path's entry in core's table of function
 * pointers (core/fast_table.h): what the solver calls it by. The program
 * installs it once at start; core never names these functions itself. */
#include "relax_fast.h"

static const FastTable table = {
    .create = relax_fast_create,
    .destroy = relax_fast_destroy,
    .threads = relax_fast_threads,
    .adapt = relax_fast_adapt,
    .usable_cores = relax_fast_usable_cores,
    .forces = relax_fast_forces,
    .range = relax_fast_range,
    .pass = relax_fast_pass,
    .passes = relax_fast_passes,
    .sequential = relax_fast_sequential,
    .sequential_passes = relax_fast_sequential_passes,
    .sphere = relax_fast_sphere,
    .blew_up = relax_fast_blew_up,
    .finish = relax_fast_finish,
};

const FastTable *relax_fast_table(void)
{
    return &table;
}
