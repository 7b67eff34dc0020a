/* arena.c - the memory a parsed lesson owns: blocks of at least 16 KiB,
 * freed all at once by arena_destroy (see arena.h). */
#include "arena.h"

#include <stdlib.h>
#include <string.h>

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t used, capacity;
    max_align_t data[]; /* capacity bytes */
} ArenaBlock;

struct LessonArena {
    ArenaBlock *head;
};

LessonArena *arena_create(void)
{
    return calloc(1, sizeof(LessonArena));
}

void arena_destroy(LessonArena *arena)
{
    if (!arena)
        return;
    for (ArenaBlock *b = arena->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(arena);
}

void *arena_alloc(LessonArena *arena, size_t size)
{
    const size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    if (size == 0)
        size = align;
    ArenaBlock *b = arena->head;
    if (!b || b->capacity - b->used < size) {
        size_t capacity = size > 16384 ? size : 16384;
        b = malloc(sizeof *b + capacity);
        if (!b)
            return NULL;
        b->used = 0;
        b->capacity = capacity;
        b->next = arena->head;
        arena->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(LessonArena *arena, const char *text, size_t length)
{
    char *s = arena_alloc(arena, length + 1);
    if (s) {
        memcpy(s, text, length);
        s[length] = '\0';
    }
    return s;
}
