/* progress.c - the student's progress through the lessons (see progress.h). */
#include "progress.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void progress_absolute(const char *path, char *out, size_t out_size)
{
    char resolved[PATH_MAX];
    if (realpath(path, resolved)) {
        snprintf(out, out_size, "%s", resolved);
        return;
    }
    char cwd[PATH_MAX];
    if (path[0] != '/' && getcwd(cwd, sizeof cwd))
        snprintf(out, out_size, "%s/%s", cwd, path);
    else
        snprintf(out, out_size, "%s", path);
}

/* mkdir -p: every folder of path that is missing. */
static bool make_folders(const char *path, char *err, size_t err_size)
{
    char partial[1024];
    snprintf(partial, sizeof partial, "%s", path);
    for (char *p = partial + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(partial, 0755) != 0 && errno != EEXIST) {
                snprintf(err, err_size, "cannot create %.200s: %s", partial, strerror(errno));
                return false;
            }
            *p = saved;
            if (!saved)
                break;
        }
    }
    return true;
}

/* The folder progress lives in, or false with the reason. */
static bool state_folder(char *out, size_t out_size, char *err, size_t err_size)
{
    const char *state = getenv("XDG_STATE_HOME");
    if (state && state[0] == '/') { /* the spec ignores a relative one */
        snprintf(out, out_size, "%s/clothsim", state);
        return true;
    }
    const char *home = getenv("HOME");
    if (!home || home[0] != '/') {
        snprintf(err, err_size, "neither XDG_STATE_HOME nor HOME is set");
        return false;
    }
    snprintf(out, out_size, "%s/.local/state/clothsim", home);
    return true;
}

static bool add_entry(Progress *progress, const char *path, int page, bool finished)
{
    if (progress->count == progress->capacity) {
        int capacity = progress->capacity ? 2 * progress->capacity : 16;
        ProgressEntry *grown = realloc(progress->entries, (size_t)capacity * sizeof *grown);
        if (!grown)
            return false;
        progress->entries = grown;
        progress->capacity = capacity;
    }
    char *copy = strdup(path);
    if (!copy)
        return false;
    progress->entries[progress->count++] = (ProgressEntry){copy, page, finished};
    return true;
}

void progress_load(Progress *progress)
{
    memset(progress, 0, sizeof *progress);
    char folder[900];
    if (!state_folder(folder, sizeof folder, progress->err, sizeof progress->err))
        return;
    snprintf(progress->file, sizeof progress->file, "%s/progress", folder);
    FILE *f = fopen(progress->file, "r");
    if (!f)
        return;
    char line[PATH_MAX + 64];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *end;
        long page = strtol(line, &end, 10);
        if (*end != '\t' || page < 0 || page > 100000 || (end[1] != '0' && end[1] != '1') || end[2] != '\t' ||
            end[3] != '/')
            continue; /* not ours: skipped, and dropped at the next save */
        if (!add_entry(progress, end + 3, (int)page, end[1] == '1'))
            break;
    }
    fclose(f);
}

void progress_free(Progress *progress)
{
    for (int k = 0; k < progress->count; k++)
        free(progress->entries[k].path);
    free(progress->entries);
    progress->entries = NULL;
    progress->count = progress->capacity = 0;
}

const ProgressEntry *progress_find(const Progress *progress, const char *path)
{
    char absolute[PATH_MAX];
    progress_absolute(path, absolute, sizeof absolute);
    for (int k = 0; k < progress->count; k++)
        if (strcmp(progress->entries[k].path, absolute) == 0)
            return &progress->entries[k];
    return NULL;
}

static bool write_file(Progress *progress)
{
    if (!progress->file[0])
        return false;
    char folder[sizeof progress->file];
    snprintf(folder, sizeof folder, "%s", progress->file);
    *strrchr(folder, '/') = '\0';
    if (!make_folders(folder, progress->err, sizeof progress->err))
        return false;
    char temporary[sizeof progress->file + 32];
    snprintf(temporary, sizeof temporary, "%s.%ld.tmp", progress->file, (long)getpid());
    FILE *f = fopen(temporary, "w");
    if (!f) {
        snprintf(progress->err, sizeof progress->err, "cannot write %.200s: %s", temporary, strerror(errno));
        return false;
    }
    for (int k = 0; k < progress->count; k++) {
        const ProgressEntry *e = &progress->entries[k];
        fprintf(f, "%d\t%d\t%s\n", e->page, e->finished ? 1 : 0, e->path);
    }
    bool ok = fflush(f) == 0 && !ferror(f);
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(temporary, progress->file) != 0) {
        snprintf(progress->err, sizeof progress->err, "cannot write %.200s: %s", progress->file, strerror(errno));
        unlink(temporary);
        return false;
    }
    return true;
}

bool progress_save(Progress *progress, const char *path, int page, bool finished, bool *first_failure)
{
    *first_failure = false;
    char absolute[PATH_MAX];
    progress_absolute(path, absolute, sizeof absolute);
    ProgressEntry *entry = NULL;
    for (int k = 0; k < progress->count && !entry; k++)
        if (strcmp(progress->entries[k].path, absolute) == 0)
            entry = &progress->entries[k];
    if (entry) {
        entry->page = page;
        entry->finished = entry->finished || finished;
    } else if (!add_entry(progress, absolute, page, finished)) {
        snprintf(progress->err, sizeof progress->err, "out of memory");
    }
    if (write_file(progress))
        return true;
    *first_failure = !progress->warned;
    progress->warned = true;
    return false;
}
