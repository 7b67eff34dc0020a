/* arena.h - the memory a parsed lesson owns: blocks freed all at once. */
#ifndef CLOTHSIM_LESSON_ARENA_H
#define CLOTHSIM_LESSON_ARENA_H

#include <stddef.h>

/* Defined in arena.c; lesson.h names it too, for Lesson.arena. */
typedef struct LessonArena LessonArena;

/* Free with arena_destroy, which frees every allocation made from it. */
LessonArena *arena_create(void);
void arena_destroy(LessonArena *arena);

/* Zeroed memory aligned for any type, or NULL when out of memory. */
void *arena_alloc(LessonArena *arena, size_t size);

/* A NUL-terminated copy of length bytes of text, or NULL. */
char *arena_strndup(LessonArena *arena, const char *text, size_t length);

#endif
