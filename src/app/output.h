/* output.h - a file a command writes (--csv, --dump, --frames, --record),
 * written so that a failure never passes in silence and never costs the old
 * file.
 *
 * "-" is standard output. A regular file (or one that does not exist yet) is
 * written into a temporary file beside it (TARGET.tmp.PID.XXXXXX, made
 * with mkstemp), and renamed over it only when everything was written: a
 * run that fails leaves the old file as it was. SIGTERM, SIGINT, SIGHUP and
 * SIGQUIT remove the temporary files before the process ends (where the
 * program has no handler of its own for them); those of a process killed
 * outright (SIGKILL) are removed by the next output to the same file. Anything else (a device such as /dev/null, a
 * FIFO) is written in place. Every write is checked: output_check after each piece, output_close for the final flush
 * and close.
 *
 * A path that cannot be opened is a mistake on the command line (exit
 * status 2); a write that fails later is the environment's (exit status 1).
 * Messages are one line, "OPTION PATH: cannot write: reason".
 */
#ifndef CLOTHSIM_OUTPUT_H
#define CLOTHSIM_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct Output {
    const char *option; /* "--csv": names the output in messages */
    const char *path;   /* as given; "-" for standard output */
    FILE *f;            /* where to write; NULL when closed */
    char *temporary;    /* the temporary file beside the target, or NULL: written in place */
    char *target;       /* what the temporary is renamed to */
    int error;          /* errno of the first failed write, or 0 */
} Output;

/* Opens path for option. False with one line in err (nothing created). */
bool output_open(Output *o, const char *option, const char *path, char *err, size_t err_size);

/* True while every write so far went through; remembers the first failure's
 * reason. Call after each row, frame or chunk. */
bool output_check(Output *o);

/* Flushes and closes the stream, keeping the temporary file for
 * output_close. False with one line in err if anything failed (everything is
 * then discarded). For several outputs that stand or fall together: finish
 * them all, then close them all or discard them all. */
bool output_finish(Output *o, char *err, size_t err_size);

/* Finishes (if not yet) and renames the temporary file over the target. False with
 * one line in err if anything failed (the temporary file is then removed and
 * the target left as it was). A closed or never opened output is fine. */
bool output_close(Output *o, char *err, size_t err_size);

/* Closes and removes the temporary file: the target is left as it was. */
void output_discard(Output *o);

/* True if paths a and b name the same file (the same words, or the same
 * file on disk; "-" is standard output, so /dev/stdout is "-" and so is a
 * file standard output goes to), where writing both would mix them:
 * /dev/null is never the same. */
bool output_same_file(const char *a, const char *b);

#endif
