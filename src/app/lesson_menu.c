/* lesson_menu.c - finding the lessons the menu offers (see lesson_menu.h). */
#include "lesson_menu.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lesson/lesson.h"
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

static bool add(LessonCatalogue *catalogue, const char *path)
{
    char absolute[PATH_MAX];
    progress_absolute(path, absolute, sizeof absolute);
    for (int k = 0; k < catalogue->count; k++)
        if (strcmp(catalogue->entries[k].absolute, absolute) == 0)
            return true;
    if (catalogue->count == catalogue->capacity) {
        int capacity = catalogue->capacity ? 2 * catalogue->capacity : 16;
        LessonEntry *grown = realloc(catalogue->entries, (size_t)capacity * sizeof *grown);
        if (!grown)
            return false;
        catalogue->entries = grown;
        catalogue->capacity = capacity;
    }
    LessonEntry entry = {0};
    char err[512];
    Lesson *lesson = lesson_parse_file(path, err, sizeof err);
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
 * many levels more to look into). */
static bool scan(LessonCatalogue *catalogue, const char *folder, int depth)
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
        ok = ok && add(catalogue, files[k]);
        free(files[k]);
    }
    for (int k = 0; k < folder_count; k++) {
        ok = ok && scan(catalogue, folders[k], depth - 1);
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
            ok = scan(catalogue, folders[k], 1) && ok;
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
