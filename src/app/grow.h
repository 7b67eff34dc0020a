/* grow.h - room for one more element in an array that doubles as it fills. */
#ifndef CLOTHSIM_GROW_H
#define CLOTHSIM_GROW_H

#include <stdlib.h>

/* items (of *capacity elements of size bytes) with room for element number
 * count: items itself while it has room, else a copy twice as large (first
 * elements when empty), *capacity updated. NULL when out of memory: items
 * and *capacity are then as they were. */
static inline void *grow_for(void *items, int *capacity, int count, size_t size, int first)
{
    if (items && count < *capacity)
        return items;
    int wanted = *capacity ? 2 * *capacity : first;
    void *grown = realloc(items, (size_t)wanted * size);
    if (grown)
        *capacity = wanted;
    return grown;
}

#endif
