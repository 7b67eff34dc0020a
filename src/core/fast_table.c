/* fast_table.c - the fast path's table, once filled (fast_table.h). */
#include "fast_table.h"

#include <stddef.h>

static const FastTable *installed;

void fast_table_install(const FastTable *table)
{
    installed = table;
}

const FastTable *fast_table_installed(void)
{
    return installed;
}
