/* progress.h - what a student has done: per lesson, the last page reached and
 * whether it was finished, kept in $XDG_STATE_HOME/clothsim/progress
 * (default ~/.local/state/clothsim/progress). No curses.
 *
 * A lesson is known by its absolute path. The file is text, one lesson a
 * line: "PAGE<TAB>FINISHED<TAB>PATH" (PAGE from 0, FINISHED 0 or 1), written
 * whole to a temporary file and renamed, so a crash never leaves half of it.
 * When there is no home or the folder cannot be written, nothing is saved and
 * progress_save says why, once.
 */
#ifndef CLOTHSIM_PROGRESS_H
#define CLOTHSIM_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ProgressEntry {
    char *path; /* absolute */
    int page;   /* last page reached, 0-based */
    bool finished;
} ProgressEntry;

typedef struct Progress {
    char file[1024]; /* where it is kept; "" when it cannot be (err says why) */
    ProgressEntry *entries;
    int count, capacity;
    bool warned; /* the reason it is not saved was given */
    char err[300];
} Progress;

/* Reads the saved progress (none is fine). Never fails: without a place to
 * keep it, progress->file is "" and progress->err says why. */
void progress_load(Progress *progress);
void progress_free(Progress *progress);

/* The entry of the lesson at path (made absolute here), or NULL. */
const ProgressEntry *progress_find(const Progress *progress, const char *path);

/* Records page and finished for the lesson at path and writes the file.
 * Returns false when it could not be saved; *first_failure is then true the
 * first time only (so the caller says so once), with the reason in err. */
bool progress_save(Progress *progress, const char *path, int page, bool finished, bool *first_failure);

/* path made absolute (realpath, or the current folder + path) into out. */
void progress_absolute(const char *path, char *out, size_t out_size);

#endif
