/* progress.h - what a student has done: per lesson, the last page reached,
 * whether it was finished, the score, the time spent and every question and
 * homework answered, kept in $XDG_STATE_HOME/clothsim/progress (default
 * ~/.local/state/clothsim/progress): one file per user, no daemon. No curses.
 *
 * A lesson is known by its name, its file name (01-meet-the-cloth.lesson):
 * the English lesson and its translation in lessons/uk/ are one lesson, and
 * moving the checkout loses nothing. The file is text, a record a line, the
 * fields parted by tabs and the name last:
 *
 *   lesson  PAGE FINISHED RIGHT/GRADED|- SECONDS NAME
 *   answer  KIND NUMBER PAGE TRIES FIRST FIRST_RIGHT LAST LAST_RIGHT NAME
 *
 * PAGE from 0, FINISHED 0 or 1; RIGHT/GRADED the score of the last finish
 * (- none yet); SECONDS spent in the lesson, all playings together. An answer
 * line is one question (KIND "question") or homework ("homework"), NUMBER-th
 * of its kind in the lesson (from 1), on page PAGE (from 1), in the lesson's
 * latest playing: TRIES answers given, the first and the last (a choice's
 * number, or the homework's number as typed) and whether each was right (1,
 * 0, or - when the question names no right answer).
 *
 * Files written before names and answers were kept ("PAGE<TAB>0|1<TAB>
 * [RIGHT/GRADED<TAB>]/ABSOLUTE/PATH", one lesson a line) are read: the path's
 * file name is the lesson's name, and the next save writes the new lines.
 *
 * A save takes a lock (a POSIX record lock on progress.lock beside it), reads
 * the file again and merges what other lessons saved meanwhile (this lesson's
 * record is the one saved; another's is the one on disk), writes a new
 * temporary file made with mkstemp (O_EXCL: never an existing file or a link
 * planted there) and renames it over the file, so a crash never leaves half
 * of it. Temporary files a killed save left behind are removed by the next
 * save. The file is never read through a symbolic link. A file that is not a
 * progress file is reported, on standard error at load, and set aside as
 * progress.corrupt (progress.corrupt.2, .3 ... when that is taken), never
 * lost; a file that cannot be read is reported and left alone: nothing is
 * saved over it. A state folder too long to name whole is
 * refused, never cut short. When there is no home or the folder cannot be
 * written, nothing is saved and progress_save says why, once.
 */
#ifndef CLOTHSIM_PROGRESS_H
#define CLOTHSIM_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#define PROGRESS_MAX_GIVEN 24 /* bytes of an answer as given, with its NUL */

typedef enum ProgressKind { PROGRESS_QUESTION, PROGRESS_HOMEWORK } ProgressKind;

/* One question or homework of a lesson, as answered in its latest playing. */
typedef struct ProgressAnswer {
    ProgressKind kind;
    int number; /* the number-th question (or homework) of the lesson, from 1 */
    int page;   /* its page, from 1 */
    int tries;  /* answers given */
    char first[PROGRESS_MAX_GIVEN], last[PROGRESS_MAX_GIVEN]; /* as given: "2", "0.004" */
    int first_right, last_right;                              /* 1 right, 0 wrong, -1 no right answer named */
} ProgressAnswer;

typedef struct ProgressEntry {
    char *name; /* the lesson's file name, its key */
    int page;   /* last page reached, 0-based */
    bool finished;
    int right, graded;       /* the score of the last finish; graded 0: none */
    long seconds;            /* s spent in the lesson, every playing together */
    ProgressAnswer *answers; /* by kind and number */
    int answer_count, answer_capacity;
    bool saving; /* progress_save is saving this one */
} ProgressEntry;

typedef struct Progress {
    char file[1024]; /* where it is kept; "" when it cannot be (err says why) */
    ProgressEntry *entries;
    int count, capacity;
    int *slots;     /* entries by their name's hash: index + 1, 0 free */
    int slot_count; /* a power of two, over twice count */
    bool warned;    /* the reason it is not saved was given */
    bool set_aside; /* a corrupt file was moved to .corrupt (err says so) */
    char err[900];
} Progress;

/* Reads the saved progress (none is fine). Never fails: without a place to
 * keep it, progress->file is "" and progress->err says why. */
void progress_load(Progress *progress);
void progress_free(Progress *progress);

/* The lesson's name, its key: path's file name (lessons/uk/01-x.lesson:
 * 01-x.lesson). Points into path. */
const char *progress_name(const char *path);

/* The entry of the lesson at path (any folder: found by its name), or NULL. */
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

/* An answer given in the lesson at path: kept in memory (the lesson's entry
 * made when there is none), written by the next progress_save. first: the
 * first answer to it in this playing, which starts its record afresh.
 * given is cut to PROGRESS_MAX_GIVEN - 1 bytes. False when out of memory. */
bool progress_answer(Progress *progress, const char *path, ProgressKind kind, int number, int page, const char *given,
                     int right, bool first);

/* seconds more spent in the lesson at path, kept for the next save. */
void progress_add_time(Progress *progress, const char *path, double seconds);

/* path made absolute (realpath, or the current folder + path) into out;
 * false if it does not fit (out is then cut and must not be used). */
bool progress_absolute(const char *path, char *out, size_t out_size);

/* Adds the entries of length bytes of a progress file's text (any bytes) to
 * progress. False at the first line that is none of the records above, its
 * number in *bad_line. No I/O: what the fuzzer calls. */
bool progress_parse(Progress *progress, const char *text, size_t length, int *bad_line);

/* `clothsim progress [--csv [--answers]]`: the user's record, as text or as CSV. */
int progress_main(int argc, char **argv);

#endif
