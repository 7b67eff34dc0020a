/* lesson_menu.h - the lessons `clothsim learn` offers: found in ./lessons, in
 * the installed share folder (CLOTHSIM_SHAREDIR/lessons) and in the folder
 * $CLOTHSIM_LESSONS names, each with one level of sub-folders (lessons/uk/).
 * No curses: tui_lesson.c draws the menu.
 */
#ifndef CLOTHSIM_LESSON_MENU_H
#define CLOTHSIM_LESSON_MENU_H

#include <stdbool.h>

typedef struct LessonEntry {
    char *path;     /* as found: folder/file.lesson */
    char *absolute; /* the key of its progress */
    char *title;    /* the lesson's title, or its file name when it does not parse */
    char *summary;  /* its summary, or the file:line:col message */
    double minutes;
    bool broken; /* does not parse */
} LessonEntry;

typedef struct LessonCatalogue {
    LessonEntry *entries; /* the folders in the order above, each sorted by path */
    int count, capacity;
} LessonCatalogue;

/* Fills catalogue (which must be zeroed) from the folders; a file found twice
 * (the same absolute path) is listed once. Returns false when out of memory,
 * keeping what was found. Free with lesson_catalogue_free. */
bool lesson_catalogue_find(LessonCatalogue *catalogue);
void lesson_catalogue_free(LessonCatalogue *catalogue);

#endif
