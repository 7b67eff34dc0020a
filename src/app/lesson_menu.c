/* lesson_menu.c - finding the lessons the menu offers (see lesson_menu.h). */
#include "lesson_menu.h"
#include "core/text.h"
#include "grow.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lesson/lesson.h"
#include "lesson/parser.h"
#include "progress.h"

#ifndef CLOTHSIM_SHAREDIR
#define CLOTHSIM_SHAREDIR "/usr/local/share/clothsim"
#endif

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool add(LessonCatalogue *catalogue, const char *path, const char *course)
{
    char absolute[PATH_MAX];
    progress_absolute(path, absolute, sizeof absolute);
    for (int k = 0; k < catalogue->count; k++)
        if (strcmp(catalogue->entries[k].absolute, absolute) == 0)
            return true;
    LessonEntry *grown = grow_for(catalogue->entries, &catalogue->capacity, catalogue->count, sizeof *grown, 16);
    if (!grown)
        return false;
    catalogue->entries = grown;
    LessonEntry entry = {0};
    char err[TEXT_MESSAGE_SIZE];
    Lesson *lesson = lesson_parse_file(path, err, sizeof err);
    snprintf(entry.course, sizeof entry.course, "%.15s", course);
    entry.path = strdup(path);
    entry.absolute = strdup(absolute);
    if (lesson) {
        entry.title = strdup(lesson->title);
        entry.summary = strdup(lesson->summary);
        entry.minutes = lesson->minutes;
        lesson_destroy(lesson);
    } else {
        const char *slash = strrchr(path, '/');
        entry.title = strdup(slash ? slash + 1 : path);
        entry.summary = strdup(err);
        entry.broken = true;
    }
    if (!entry.path || !entry.absolute || !entry.title || !entry.summary) {
        free(entry.path), free(entry.absolute), free(entry.title), free(entry.summary);
        return false;
    }
    catalogue->entries[catalogue->count++] = entry;
    return true;
}

/* The lessons of folder, sorted, then those of its sub-folders (depth: how
 * many levels more to look into); course: the course of folder's own
 * lessons (a sub-folder's is its name). */
static bool scan(LessonCatalogue *catalogue, const char *folder, int depth, const char *course)
{
    DIR *dir = opendir(folder);
    if (!dir)
        return true; /* a folder that is not there offers nothing */
    char **files = NULL, **folders = NULL;
    int file_count = 0, folder_count = 0;
    bool ok = true;
    struct dirent *d;
    while (ok && (d = readdir(dir))) {
        if (d->d_name[0] == '.')
            continue;
        size_t size = strlen(folder) + strlen(d->d_name) + 2;
        char *path = malloc(size);
        if (!path) {
            ok = false;
            break;
        }
        snprintf(path, size, "%s/%s", folder, d->d_name);
        char ***list = NULL;
        int *count = NULL;
        if (ends_with(d->d_name, ".lesson") && !is_folder(path))
            list = &files, count = &file_count;
        else if (depth > 0 && is_folder(path))
            list = &folders, count = &folder_count;
        char **grown = list ? realloc(*list, (size_t)(*count + 1) * sizeof **list) : NULL;
        if (!grown) {
            ok = list == NULL; /* not a lesson: skipped; else out of memory */
            free(path);
            continue;
        }
        *list = grown;
        grown[(*count)++] = path;
    }
    closedir(dir);
    if (file_count)
        qsort(files, (size_t)file_count, sizeof *files, compare_names);
    if (folder_count)
        qsort(folders, (size_t)folder_count, sizeof *folders, compare_names);
    for (int k = 0; k < file_count; k++) {
        ok = ok && add(catalogue, files[k], course);
        free(files[k]);
    }
    for (int k = 0; k < folder_count; k++) {
        ok = ok && scan(catalogue, folders[k], depth - 1, strrchr(folders[k], '/') + 1);
        free(folders[k]);
    }
    free(files);
    free(folders);
    return ok;
}

bool lesson_catalogue_find(LessonCatalogue *catalogue)
{
    const char *extra = getenv("CLOTHSIM_LESSONS");
    const char *folders[] = {"lessons", CLOTHSIM_SHAREDIR "/lessons", extra && extra[0] ? extra : NULL};
    bool ok = true;
    for (size_t k = 0; k < sizeof folders / sizeof folders[0]; k++)
        if (folders[k])
            ok = scan(catalogue, folders[k], 1, "en") && ok;
    return ok;
}

void lesson_catalogue_free(LessonCatalogue *catalogue)
{
    for (int k = 0; k < catalogue->count; k++) {
        LessonEntry *e = &catalogue->entries[k];
        free(e->path), free(e->absolute), free(e->title), free(e->summary);
    }
    free(catalogue->entries);
    catalogue->entries = NULL;
    catalogue->count = catalogue->capacity = 0;
}

/* The language of a locale name or a LANGUAGE entry: "uk_UA.UTF-8@euro" gives "uk". */
static void language_of(const char *name, size_t length, char *out)
{
    size_t n = 0;
    while (n < length && n < 15 && name[n] != '_' && name[n] != '.' && name[n] != '@' && name[n] != '-')
        n++;
    memcpy(out, name, n);
    out[n] = '\0';
}

int lesson_user_languages(const char *language, const char *lc_all, const char *lc_messages, const char *lang,
                          char languages[][16], int max)
{
    const char *locale = lc_all && *lc_all ? lc_all : lc_messages && *lc_messages ? lc_messages : lang;
    if (!locale || !*locale || strcmp(locale, "C") == 0 || strcmp(locale, "POSIX") == 0)
        return 0; /* gettext ignores LANGUAGE in the C locale (C.UTF-8 is not it) */
    int count = 0;
    for (const char *p = language ? language : ""; *p && count < max;) {
        size_t n = strcspn(p, ":");
        if (n > 0) {
            language_of(p, n, languages[count]);
            if (languages[count][0])
                count++;
        }
        p += n + (p[n] == ':');
    }
    if (count < max) {
        language_of(locale, strlen(locale), languages[count]);
        if (languages[count][0])
            count++;
    }
    return count;
}

static bool has_course(const LessonCatalogue *catalogue, const char *course)
{
    for (int k = 0; k < catalogue->count; k++)
        if (strcmp(catalogue->entries[k].course, course) == 0)
            return true;
    return false;
}

void lesson_catalogue_course(const LessonCatalogue *catalogue, char *course)
{
    char languages[LESSON_MAX_LANGUAGES][16];
    int count = lesson_user_languages(getenv("LANGUAGE"), getenv("LC_ALL"), getenv("LC_MESSAGES"), getenv("LANG"),
                                      languages, LESSON_MAX_LANGUAGES);
    for (int k = 0; k < count; k++)
        if (has_course(catalogue, languages[k])) {
            snprintf(course, 16, "%.15s", languages[k]);
            return;
        }
    snprintf(course, 16, "%.15s",
             has_course(catalogue, "en") || catalogue->count == 0 ? "en" : catalogue->entries[0].course);
}

void lesson_catalogue_next_course(const LessonCatalogue *catalogue, char *course)
{
    const char *first = NULL, *next = NULL;
    bool past = false; /* the entries walked are past course's first */
    for (int k = 0; k < catalogue->count && !next; k++) {
        const char *c = catalogue->entries[k].course;
        bool new_course = true; /* its first entry */
        for (int j = 0; j < k && new_course; j++)
            new_course = strcmp(catalogue->entries[j].course, c) != 0;
        if (!new_course)
            continue;
        if (!first)
            first = c;
        if (past)
            next = c;
        past = past || strcmp(c, course) == 0;
    }
    if (next || first)
        snprintf(course, 16, "%.15s", next ? next : first);
}

const char *lesson_course_name(const char *course)
{
    static const char *const names[][2] = {
        {"en", "English"},
        {"uk", "\u0423\u043a\u0440\u0430\u0457\u043d\u0441\u044c\u043a\u0430"},
        {"ru", "\u0420\u0443\u0441\u0441\u043a\u0438\u0439"},
        {"de", "Deutsch"},
        {"fr", "Fran\u00e7ais"},
        {"es", "Espa\u00f1ol"},
        {"pl", "Polski"},
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strcmp(names[k][0], course) == 0)
            return names[k][1];
    return course;
}
