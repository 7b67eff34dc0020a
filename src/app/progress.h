/* progress.h - what a student has done: per lesson, the last page reached and
 * whether it was finished, kept in $XDG_STATE_HOME/clothsim/progress
 * (default ~/.local/state/clothsim/progress). No curses.
 *
 * A lesson is known by its absolute path. The file is text, one lesson a
 * line: "PAGE<TAB>FINISHED<TAB>RIGHT/GRADED<TAB>PATH" (PAGE from 0, FINISHED
 * 0 or 1; the score of the last time it was finished: RIGHT of its GRADED
 * questions right at the first try). A line without the score, as files
 * written before it was kept have, reads as no score yet.
 *
 * A save takes a lock (a POSIX record lock on progress.lock beside it), reads
 * the file again and merges what other lessons saved meanwhile (the furthest
 * page, finished if either says so; this lesson's page is the one saved),
 * writes a new temporary file made with mkstemp (O_EXCL: never an existing
 * file or a link planted there) and renames it over the file, so a crash
 * never leaves half of it. Temporary files a killed save left behind are
 * removed by the next save. The file is never read through a symbolic link.
 * A file that is not a progress file is reported, on standard error at load,
 * and set aside as progress.corrupt, never lost. A state folder too long to
 * name whole is refused, never cut short. When there is no home or the folder
 * cannot be written, nothing is saved and progress_save says why, once.
 */
#ifndef CLOTHSIM_PROGRESS_H
#define CLOTHSIM_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ProgressEntry {
    char *path; /* absolute */
    int page;   /* last page reached, 0-based */
    bool finished;
    int right, graded; /* the score of the last finish; graded 0: none */
    bool saving; /* progress_save is saving this one */
} ProgressEntry;

typedef struct Progress {
    char file[1024]; /* where it is kept; "" when it cannot be (err says why) */
    ProgressEntry *entries;
    int count, capacity;
    bool warned;    /* the reason it is not saved was given */
    bool set_aside; /* a corrupt file was moved to .corrupt (err says so) */
    char err[900];
} Progress;

/* Reads the saved progress (none is fine). Never fails: without a place to
 * keep it, progress->file is "" and progress->err says why. */
void progress_load(Progress *progress);
void progress_free(Progress *progress);

/* The entry of the lesson at path (made absolute here), or NULL. */
const ProgressEntry *progress_find(const Progress *progress, const char *path);

/* The score a save records: RIGHT of GRADED questions (graded < 0: keep the
 * one saved before). */
typedef struct ProgressScore {
    int right, graded;
} ProgressScore;
#define PROGRESS_SCORE_KEEP ((ProgressScore){0, -1})
#define PROGRESS_MAX_QUESTIONS 9999

/* Records page, finished and score for the lesson at path and writes the
 * file. Returns false when it could not be saved; *first_failure is then
 * true the first time only (so the caller says so once), with the reason in
 * err. */
bool progress_save(Progress *progress, const char *path, int page, bool finished, ProgressScore score,
                   bool *first_failure);

/* path made absolute (realpath, or the current folder + path) into out;
 * false if it does not fit (out is then cut and must not be used). */
bool progress_absolute(const char *path, char *out, size_t out_size);

/* Adds the entries of length bytes of a progress file's text (any bytes) to
 * progress. False at the first line that is not "PAGE<TAB>0|1<TAB>/PATH",
 * its number in *bad_line (the score may be left out). No I/O: what the fuzzer calls. */
bool progress_parse(Progress *progress, const char *text, size_t length, int *bad_line);

/* `clothsim progress [--csv]`: the user's record, as text or as CSV. */
int progress_main(int argc, char **argv);

#endif
