/* lesson_menu.h - the lessons `clothsim learn` offers: found in ./lessons, in
 * the installed share folder (CLOTHSIM_SHAREDIR/lessons) and in the folder
 * $CLOTHSIM_LESSONS names, each with one level of sub-folders (lessons/uk/).
 * No curses: tui_lesson.c draws the menu.
 *
 * A course is a language: the lessons at the top of a lessons folder are
 * the English course ("en"), those of a sub-folder the course it names
 * (lessons/uk/: "uk"). The menu opens on the course of the user's language,
 * chosen as gettext chooses a catalogue, and the others are a key away.
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
    bool broken;     /* does not parse */
    char course[16]; /* "en", or the sub-folder's name: "uk" */
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

/* The languages the user reads, best first, as gettext takes them: the
 * first of LC_ALL, LC_MESSAGES and LANG that is set names the locale; when
 * it is not C or POSIX (C.UTF-8 is neither), LANGUAGE (a list: "uk:en")
 * comes before it. Each is
 * cut to its language ("uk_UA.UTF-8": "uk"). Writes up to max codes of up
 * to 15 bytes into languages; returns the count (0: the C locale, English). */
#define LESSON_MAX_LANGUAGES 8
int lesson_user_languages(const char *language, const char *lc_all, const char *lc_messages, const char *lang,
                          char languages[][16], int max);

/* The course the menu opens on: the first of the user's languages
 * (lesson_user_languages of the environment) that has lessons, else
 * English, else the first course found. Into course (16 bytes). */
void lesson_catalogue_course(const LessonCatalogue *catalogue, char *course);

/* The course after course in the catalogue's order of first appearance
 * (wrapping), for the key that switches; course itself when it is the only one. */
void lesson_catalogue_next_course(const LessonCatalogue *catalogue, char *course);

/* The course's name as its readers write it ("English", "Українська"), or its code. */
const char *lesson_course_name(const char *course);

#endif
