/* progress.c - the student's progress through the lessons (see progress.h). */
#include "progress.h"
#include "cli.h"
#include "grow.h"
#include "i18n.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE_BYTES ((size_t)16 << 20) /* a progress file is a few KB */
#define TEMPORARY_PREFIX "progress.tmp."

bool progress_absolute(const char *path, char *out, size_t out_size)
{
    char resolved[PATH_MAX];
    int n;
    if (realpath(path, resolved)) {
        n = snprintf(out, out_size, "%s", resolved);
        return n >= 0 && (size_t)n < out_size;
    }
    char cwd[PATH_MAX];
    if (path[0] != '/' && getcwd(cwd, sizeof cwd))
        n = snprintf(out, out_size, "%s/%s", cwd, path);
    else
        n = snprintf(out, out_size, "%s", path);
    return n >= 0 && (size_t)n < out_size;
}

/* mkdir -p: every folder of path that is missing. */
static bool make_folders(const char *path, char *err, size_t err_size)
{
    char partial[sizeof((Progress *)0)->file];
    snprintf(partial, sizeof partial, "%s", path);
    for (char *p = partial + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(partial, 0755) != 0 && errno != EEXIST) {
                snprintf(err, err_size, _("cannot create %.200s: %s"), partial, strerror(errno));
                return false;
            }
            *p = saved;
            if (!saved)
                break;
        }
    }
    return true;
}

/* The folder progress lives in, or false with the reason. A path too long
 * for out is refused, never cut short (a cut path is another folder). */
static bool state_folder(char *out, size_t out_size, char *err, size_t err_size)
{
    const char *state = getenv("XDG_STATE_HOME");
    int n;
    if (state && state[0] == '/') { /* the spec ignores a relative one */
        n = snprintf(out, out_size, "%s/clothsim", state);
        if (n < 0 || (size_t)n >= out_size) {
            snprintf(err, err_size, _("XDG_STATE_HOME is too long (%zu bytes; at most %zu)"), strlen(state),
                     out_size - sizeof "/clothsim/progress.tmp.XXXXXX");
            return false;
        }
        return true;
    }
    const char *home = getenv("HOME");
    if (!home || home[0] != '/') {
        snprintf(err, err_size, _("neither XDG_STATE_HOME nor HOME is set"));
        return false;
    }
    n = snprintf(out, out_size, "%s/.local/state/clothsim", home);
    if (n < 0 || (size_t)n >= out_size) {
        snprintf(err, err_size, _("HOME is too long (%zu bytes)"), strlen(home));
        return false;
    }
    return true;
}

const char *progress_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static unsigned name_hash(const char *name, size_t length)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < length; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    return h;
}

static ProgressEntry *find_entry(Progress *progress, const char *name, size_t length)
{
    if (!progress->slot_count)
        return NULL;
    for (unsigned mask = (unsigned)progress->slot_count - 1, at = name_hash(name, length) & mask;;
         at = (at + 1) & mask) {
        int slot = progress->slots[at];
        if (!slot)
            return NULL;
        ProgressEntry *e = &progress->entries[slot - 1];
        if (strncmp(e->name, name, length) == 0 && e->name[length] == '\0')
            return e;
    }
}

/* Entry k into the slots, which have room. */
static void place(Progress *progress, int k)
{
    const char *name = progress->entries[k].name;
    unsigned mask = (unsigned)progress->slot_count - 1, at = name_hash(name, strlen(name)) & mask;
    while (progress->slots[at])
        at = (at + 1) & mask;
    progress->slots[at] = k + 1;
}

/* Room in the slots for one more entry: false when out of memory. */
static bool room_for_one_more(Progress *progress)
{
    if (2 * (progress->count + 1) <= progress->slot_count)
        return true;
    int wanted = progress->slot_count ? 2 * progress->slot_count : 64;
    int *slots = calloc((size_t)wanted, sizeof *slots);
    if (!slots)
        return false;
    free(progress->slots);
    progress->slots = slots, progress->slot_count = wanted;
    for (int k = 0; k < progress->count; k++)
        place(progress, k);
    return true;
}

/* A new entry for the lesson called name (length bytes): at page 0, nothing
 * done yet; NULL when out of memory. */
static ProgressEntry *add_entry(Progress *progress, const char *name, size_t length)
{
    if (!room_for_one_more(progress))
        return NULL;
    ProgressEntry *grown = grow_for(progress->entries, &progress->capacity, progress->count, sizeof *grown, 16);
    if (!grown)
        return NULL;
    progress->entries = grown;
    char *copy = malloc(length + 1);
    if (!copy)
        return NULL;
    memcpy(copy, name, length);
    copy[length] = '\0';
    ProgressEntry *e = &progress->entries[progress->count++];
    *e = (ProgressEntry){.name = copy};
    place(progress, progress->count - 1);
    return e;
}

static ProgressEntry *entry_for(Progress *progress, const char *name, size_t length)
{
    ProgressEntry *e = find_entry(progress, name, length);
    return e ? e : add_entry(progress, name, length);
}

/* The record of the number-th question or homework of e, made when there is
 * none (tries 0); NULL when out of memory. */
static ProgressAnswer *answer_slot(ProgressEntry *e, ProgressKind kind, int number)
{
    for (int k = 0; k < e->answer_count; k++)
        if (e->answers[k].kind == kind && e->answers[k].number == number)
            return &e->answers[k];
    ProgressAnswer *grown = grow_for(e->answers, &e->answer_capacity, e->answer_count, sizeof *grown, 8);
    if (!grown)
        return NULL;
    e->answers = grown;
    ProgressAnswer *a = &e->answers[e->answer_count++];
    *a = (ProgressAnswer){.kind = kind, .number = number, .first_right = -1, .last_right = -1};
    return a;
}

/* Copies the record of from into to (answers included); false when out of memory. */
static bool copy_record(ProgressEntry *to, const ProgressEntry *from)
{
    to->page = from->page;
    to->finished = from->finished;
    to->right = from->right, to->graded = from->graded;
    to->seconds = from->seconds;
    to->answer_count = 0;
    for (int k = 0; k < from->answer_count; k++) {
        ProgressAnswer *a = answer_slot(to, from->answers[k].kind, from->answers[k].number);
        if (!a)
            return false;
        *a = from->answers[k];
    }
    return true;
}

/* A number of at most 6 digits at s[*i], up to n, at most limit: false if none. */
static bool small_number(const char *s, size_t n, size_t *i, long limit, long *value)
{
    size_t from = *i;
    *value = 0;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9' && *i - from < 10)
        *value = 10 * *value + (s[(*i)++] - '0');
    return *i > from && *value <= limit;
}

/* A whole field s[0..n) that is a number up to limit. */
static bool number_field(const char *s, size_t n, long limit, int *value)
{
    size_t i = 0;
    long v;
    if (!small_number(s, n, &i, limit, &v) || i != n)
        return false;
    *value = (int)v;
    return true;
}

/* "1", "0" or "-" (no right answer): 1, 0, -1. */
static bool right_field(const char *s, size_t n, int *right)
{
    if (n != 1 || (s[0] != '0' && s[0] != '1' && s[0] != '-'))
        return false;
    *right = s[0] == '-' ? -1 : s[0] - '0';
    return true;
}

/* An answer as given: 1 to PROGRESS_MAX_GIVEN - 1 bytes, no control characters. */
static bool given_field(const char *s, size_t n, char *out)
{
    if (n == 0 || n >= PROGRESS_MAX_GIVEN)
        return false;
    for (size_t k = 0; k < n; k++)
        if ((unsigned char)s[k] < 0x20 || s[k] == 0x7f)
            return false;
    memcpy(out, s, n);
    out[n] = '\0';
    return true;
}

/* A lesson's name: what is left of the line, neither empty nor holding a
 * NUL or a slash (a name is a file name). */
static bool name_field(const char *s, size_t n)
{
    return n > 0 && n < NAME_MAX + 1 && !memchr(s, '\0', n) && !memchr(s, '/', n);
}

#define MAX_FIELDS 10

/* Cuts line s (n bytes) at its first count - 1 tabs: count fields, the last
 * the rest of the line. False when it has fewer. */
static bool split(const char *s, size_t n, int count, const char **field, size_t *length)
{
    size_t at = 0;
    for (int k = 0; k < count - 1; k++) {
        const char *tab = memchr(s + at, '\t', n - at);
        if (!tab)
            return false;
        field[k] = s + at;
        length[k] = (size_t)(tab - (s + at));
        at = (size_t)(tab - s) + 1;
    }
    field[count - 1] = s + at;
    length[count - 1] = n - at;
    return true;
}

/* "lesson PAGE FINISHED RIGHT/GRADED|- SECONDS NAME" into progress. */
static bool parse_lesson(Progress *progress, const char *s, size_t n)
{
    const char *f[6];
    size_t l[6];
    int page, finished, right = 0, graded = 0;
    if (!split(s, n, 6, f, l) || !number_field(f[1], l[1], 100000, &page) || !number_field(f[2], l[2], 1, &finished) ||
        !name_field(f[5], l[5]))
        return false;
    size_t i = 0;
    long r, g, seconds;
    if (!(l[3] == 1 && f[3][0] == '-')) {
        if (!small_number(f[3], l[3], &i, PROGRESS_MAX_QUESTIONS, &r) || i >= l[3] || f[3][i++] != '/' ||
            !small_number(f[3], l[3], &i, PROGRESS_MAX_QUESTIONS, &g) || i != l[3] || r > g)
            return false;
        right = (int)r, graded = (int)g;
    }
    i = 0;
    if (!small_number(f[4], l[4], &i, 1000000000L, &seconds) || i != l[4])
        return false;
    ProgressEntry *e = entry_for(progress, f[5], l[5]);
    if (!e)
        return true;                           /* out of memory: what was read is kept */
    e->page = page > e->page ? page : e->page; /* twice: the furthest */
    e->finished = e->finished || finished;
    if (graded) /* the later line's score */
        e->right = right, e->graded = graded;
    e->seconds = seconds > e->seconds ? seconds : e->seconds;
    return true;
}

/* "answer KIND NUMBER PAGE TRIES FIRST FIRST_RIGHT LAST LAST_RIGHT NAME" into progress. */
static bool parse_answer(Progress *progress, const char *s, size_t n)
{
    const char *f[MAX_FIELDS];
    size_t l[MAX_FIELDS];
    ProgressAnswer read = {0};
    if (!split(s, n, 10, f, l))
        return false;
    if (l[1] == 8 && memcmp(f[1], "question", 8) == 0)
        read.kind = PROGRESS_QUESTION;
    else if (l[1] == 8 && memcmp(f[1], "homework", 8) == 0)
        read.kind = PROGRESS_HOMEWORK;
    else
        return false;
    if (!number_field(f[2], l[2], PROGRESS_MAX_QUESTIONS, &read.number) || read.number < 1 ||
        !number_field(f[3], l[3], 100000, &read.page) || read.page < 1 ||
        !number_field(f[4], l[4], 100000, &read.tries) || read.tries < 1 || !given_field(f[5], l[5], read.first) ||
        !right_field(f[6], l[6], &read.first_right) || !given_field(f[7], l[7], read.last) ||
        !right_field(f[8], l[8], &read.last_right) || !name_field(f[9], l[9]))
        return false;
    ProgressEntry *e = entry_for(progress, f[9], l[9]);
    ProgressAnswer *a = e ? answer_slot(e, read.kind, read.number) : NULL;
    if (a)
        *a = read; /* twice: the later line */
    return true;
}

/* A line of the files written before names and answers were kept:
 * "PAGE<TAB>0|1<TAB>[RIGHT/GRADED<TAB>]/PATH", the path's file name its key. */
static bool parse_old_line(Progress *progress, const char *s, size_t n)
{
    size_t i = 0;
    long page, right = 0, graded = 0;
    if (!small_number(s, n, &i, 100000, &page) || i + 3 > n || s[i] != '\t' || (s[i + 1] != '0' && s[i + 1] != '1') ||
        s[i + 2] != '\t')
        return false;
    bool finished = s[i + 1] == '1';
    i += 3;
    if (i < n && s[i] != '/') {
        if (!small_number(s, n, &i, PROGRESS_MAX_QUESTIONS, &right) || i >= n || s[i++] != '/' ||
            !small_number(s, n, &i, PROGRESS_MAX_QUESTIONS, &graded) || i >= n || s[i++] != '\t' || right > graded)
            return false;
    }
    if (i >= n || s[i] != '/' || memchr(s + i, '\0', n - i) || n - i >= PATH_MAX)
        return false;
    const char *slash = s + n;
    while (slash[-1] != '/')
        slash--;
    size_t length = (size_t)(s + n - slash);
    if (length == 0)
        return false; /* a folder, not a lesson */
    ProgressEntry *e = entry_for(progress, slash, length);
    if (!e)
        return true;
    e->page = (int)page > e->page ? (int)page : e->page;
    e->finished = e->finished || finished;
    if (graded)
        e->right = (int)right, e->graded = (int)graded;
    return true;
}

bool progress_parse(Progress *progress, const char *text, size_t length, int *bad_line)
{
    *bad_line = 0;
    size_t at = 0;
    for (int line = 1; at < length; line++) {
        const char *newline = memchr(text + at, '\n', length - at);
        size_t end = newline ? (size_t)(newline - text) : length;
        const char *s = text + at;
        size_t n = end - at;
        bool ok;
        if (n > 7 && memcmp(s, "lesson\t", 7) == 0)
            ok = parse_lesson(progress, s, n);
        else if (n > 7 && memcmp(s, "answer\t", 7) == 0)
            ok = parse_answer(progress, s, n);
        else
            ok = parse_old_line(progress, s, n);
        if (!ok) {
            *bad_line = line;
            return false;
        }
        at = end + 1;
    }
    return true;
}

/* Reads the file at path, never through a link, never a FIFO or device.
 * Returns 1 read (text, length set; free text), 0 no file, -1 with the
 * reason in err, -2 (reason in err too) where it is a symbolic link: never
 * a file of ours, and a save replaces the link itself, never its target. */
static int read_file(const char *path, char **text, size_t *length, char *err, size_t err_size)
{
    *text = NULL;
    *length = 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        int reason = errno;
        snprintf(err, err_size, _("%.200s: cannot read: %s"), path,
                 reason == ELOOP ? _("it is a symbolic link") : strerror(reason));
        return reason == ELOOP ? -2 : -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > MAX_FILE_BYTES) {
        snprintf(err, err_size, _("%.200s: cannot read: %s"), path,
                 !S_ISREG(st.st_mode) ? _("not a regular file") : _("over 16 MiB"));
        close(fd);
        return -1;
    }
    char *buffer = malloc((size_t)st.st_size + 1);
    size_t used = 0;
    while (buffer && used < (size_t)st.st_size) {
        ssize_t n = read(fd, buffer + used, (size_t)st.st_size - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += (size_t)n;
    }
    close(fd);
    if (!buffer) {
        snprintf(err, err_size, _("%.200s: out of memory"), path);
        return -1;
    }
    *text = buffer;
    *length = used;
    return 1;
}

/* A file that is not a progress file is moved aside to PATH.corrupt, or
 * PATH.corrupt.2, .3 ... where that is taken (never over another one: a
 * link fails where the name exists), and the reason put in err. */
static void set_aside(Progress *progress, int bad_line)
{
    char aside[sizeof progress->file + 24];
    int saved = 0;
    for (int n = 1; n <= 1000; n++) {
        if (n == 1)
            snprintf(aside, sizeof aside, "%s.corrupt", progress->file);
        else
            snprintf(aside, sizeof aside, "%s.corrupt.%d", progress->file, n);
        if (link(progress->file, aside) == 0) {
            unlink(progress->file);
            saved = 0;
            break;
        }
        saved = errno;
        if (saved != EEXIST)
            break;
    }
    if (!saved)
        snprintf(progress->err, sizeof progress->err,
                 _("%.200s: line %d is not a progress record: the file is set aside as %.220s"), progress->file,
                 bad_line, aside);
    else
        snprintf(progress->err, sizeof progress->err, _("%.200s: line %d is not a progress record (%s)"),
                 progress->file, bad_line, strerror(saved));
    progress->set_aside = true;
}

void progress_load(Progress *progress)
{
    memset(progress, 0, sizeof *progress);
    char folder[sizeof progress->file - sizeof "/progress.corrupt.1000"];
    if (!state_folder(folder, sizeof folder, progress->err, sizeof progress->err))
        return;
    snprintf(progress->file, sizeof progress->file, "%s/progress", folder);
    char *text;
    size_t length;
    int got = read_file(progress->file, &text, &length, progress->err, sizeof progress->err);
    if (got < 0) {
        cli_error("%s", progress->err);
        return;
    }
    int bad_line = 0;
    if (got > 0 && !progress_parse(progress, text, length, &bad_line)) {
        set_aside(progress, bad_line);
        cli_error("%s", progress->err);
        progress_free(progress); /* what came before the bad line is in the .corrupt file */
    }
    free(text);
}

void progress_free(Progress *progress)
{
    for (int k = 0; k < progress->count; k++) {
        free(progress->entries[k].name);
        free(progress->entries[k].answers);
    }
    free(progress->entries);
    free(progress->slots);
    progress->entries = NULL;
    progress->slots = NULL;
    progress->count = progress->capacity = progress->slot_count = 0;
}

const ProgressEntry *progress_find(const Progress *progress, const char *path)
{
    const char *name = progress_name(path);
    return find_entry((Progress *)progress, name, strlen(name));
}

bool progress_answer(Progress *progress, const char *path, ProgressKind kind, int number, int page, const char *given,
                     int right, bool first)
{
    const char *name = progress_name(path);
    ProgressEntry *e = entry_for(progress, name, strlen(name));
    ProgressAnswer *a = e ? answer_slot(e, kind, number) : NULL;
    if (!a)
        return false;
    char cut[PROGRESS_MAX_GIVEN];
    size_t n = 0;
    for (; given[n] && n < sizeof cut - 1; n++) /* what the file cannot hold is not kept */
        cut[n] = (unsigned char)given[n] < 0x20 || given[n] == 0x7f ? '?' : given[n];
    cut[n] = '\0';
    if (n == 0)
        snprintf(cut, sizeof cut, "?");
    if (first || a->tries == 0) {
        a->tries = 0;
        snprintf(a->first, sizeof a->first, "%s", cut);
        a->first_right = right;
    }
    a->page = page;
    a->tries++;
    snprintf(a->last, sizeof a->last, "%s", cut);
    a->last_right = right;
    return true;
}

void progress_add_time(Progress *progress, const char *path, double seconds)
{
    const char *name = progress_name(path);
    ProgressEntry *e = entry_for(progress, name, strlen(name));
    if (e && seconds > 0.0 && e->seconds + seconds < 1e9)
        e->seconds += (long)(seconds + 0.5);
}

/* Under the lock no save is under way: every temporary file left is from a
 * save that was killed, and goes. */
static void remove_stale_temporaries(const char *folder)
{
    DIR *d = opendir(folder);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, TEMPORARY_PREFIX, sizeof TEMPORARY_PREFIX - 1) != 0)
            continue;
        char path[sizeof((Progress *)0)->file + 256];
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        unlink(path);
    }
    closedir(d);
}

static const char *right_text(int right)
{
    return right < 0 ? "-" : right ? "1" : "0";
}

/* Writes entries into a new temporary file (O_EXCL: never an existing file
 * or a link) and renames it over the progress file. */
static bool write_entries(Progress *progress, const char *folder)
{
    char temporary[sizeof progress->file + 32];
    snprintf(temporary, sizeof temporary, "%s/" TEMPORARY_PREFIX "XXXXXX", folder);
    int fd = mkstemp(temporary);
    if (fd < 0) {
        snprintf(progress->err, sizeof progress->err, _("cannot write in %.200s: %s"), folder, strerror(errno));
        return false;
    }
    fchmod(fd, 0644);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        snprintf(progress->err, sizeof progress->err, _("cannot write %.200s: %s"), temporary, strerror(errno));
        close(fd);
        unlink(temporary);
        return false;
    }
    for (int k = 0; k < progress->count; k++) {
        const ProgressEntry *e = &progress->entries[k];
        if (!name_field(e->name, strlen(e->name)) || strpbrk(e->name, "\n")) /* a name the file cannot hold */
            continue;
        fprintf(f, "lesson\t%d\t%d\t", e->page, e->finished ? 1 : 0);
        if (e->graded)
            fprintf(f, "%d/%d", e->right, e->graded);
        else
            fputc('-', f);
        fprintf(f, "\t%ld\t%s\n", e->seconds, e->name);
        for (int j = 0; j < e->answer_count; j++) {
            const ProgressAnswer *a = &e->answers[j];
            if (a->tries < 1)
                continue;
            fprintf(f, "answer\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n",
                    a->kind == PROGRESS_HOMEWORK ? "homework" : "question", a->number, a->page, a->tries, a->first,
                    right_text(a->first_right), a->last, right_text(a->last_right), e->name);
        }
    }
    bool ok = fflush(f) == 0 && !ferror(f) && fsync(fd) == 0;
    int saved = errno;
    ok = fclose(f) == 0 && ok;
    if (ok && rename(temporary, progress->file) != 0) {
        saved = errno;
        ok = false;
    }
    if (!ok) {
        snprintf(progress->err, sizeof progress->err, _("cannot write %.200s: %s"), progress->file, strerror(saved));
        unlink(temporary);
    }
    return ok;
}

/* Reads what is on disk now (another lesson may have saved since) and
 * merges it into progress: every other lesson's record as it is on disk;
 * the one being saved keeps ours, finished if either says so. */
static bool merge_from_disk(Progress *progress)
{
    char *text;
    size_t length;
    char err[sizeof progress->err];
    int got = read_file(progress->file, &text, &length, err, sizeof err);
    if (got == -1) { /* there, but not to be read: its records must not be replaced */
        snprintf(progress->err, sizeof progress->err, _("%.600s; nothing is saved over it"), err);
        return false;
    }
    if (got <= 0)
        return true;
    Progress disk = {0};
    int bad_line = 0;
    if (!progress_parse(&disk, text, length, &bad_line)) {
        set_aside(progress, bad_line); /* kept as .corrupt; ours is written */
        free(text);
        progress_free(&disk);
        return true;
    }
    free(text);
    for (int k = 0; k < disk.count; k++) {
        const ProgressEntry *d = &disk.entries[k];
        ProgressEntry *mine = entry_for(progress, d->name, strlen(d->name));
        if (!mine)
            break; /* out of memory: ours is written */
        if (!mine->saving)
            copy_record(mine, d);
        else
            mine->finished = mine->finished || d->finished;
    }
    progress_free(&disk);
    return true;
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
    /* one save at a time, across processes: a lock on a file of its own */
    char lock_path[sizeof progress->file + 8];
    snprintf(lock_path, sizeof lock_path, "%s.lock", progress->file);
    int lock_fd = open(lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NOCTTY, 0644);
    if (lock_fd < 0) {
        snprintf(progress->err, sizeof progress->err, _("cannot lock %.200s: %s"), lock_path, strerror(errno));
        return false;
    }
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    while (fcntl(lock_fd, F_SETLKW, &lock) != 0)
        if (errno != EINTR) {
            snprintf(progress->err, sizeof progress->err, _("cannot lock %.200s: %s"), lock_path, strerror(errno));
            close(lock_fd);
            return false;
        }
    remove_stale_temporaries(folder);
    bool ok = merge_from_disk(progress) && write_entries(progress, folder);
    close(lock_fd); /* and the lock with it */
    return ok;
}

bool progress_save(Progress *progress, const char *path, int page, bool finished, ProgressScore score,
                   bool *first_failure)
{
    if (score.graded > PROGRESS_MAX_QUESTIONS || score.right > score.graded || score.right < 0)
        score = PROGRESS_SCORE_KEEP; /* not a score: never written */
    *first_failure = false;
    const char *name = progress_name(path);
    ProgressEntry *entry = NULL;
    if (!name_field(name, strlen(name)) || strchr(name, '\n'))
        snprintf(progress->err, sizeof progress->err, "%s",
                 _("the lesson's file name cannot be kept in the progress file"));
    else if (!(entry = entry_for(progress, name, strlen(name))))
        snprintf(progress->err, sizeof progress->err, "%s", _("out of memory"));
    if (entry) {
        entry->page = page;
        entry->finished = entry->finished || finished;
        if (score.graded >= 0)
            entry->right = score.right, entry->graded = score.graded;
        entry->saving = true; /* this one is ours: the merge keeps our record */
        bool saved = write_file(progress);
        for (int k = 0; k < progress->count; k++)
            progress->entries[k].saving = false;
        if (saved)
            return true;
    }
    *first_failure = !progress->warned;
    progress->warned = true;
    return false;
}

/* ---------------------------------------------------------------- clothsim progress */

static const char progress_usage[] =
    N_("usage: clothsim progress [--csv [--answers]]\n"
       "\n"
       "What this user has done in the lessons, from the progress file\n"
       "($XDG_STATE_HOME/clothsim/progress): for each lesson the page reached,\n"
       "whether it was finished, the score of the last finish (questions right at\n"
       "the first try, of those that have a right answer), the time spent, and\n"
       "every question and homework answered: the first answer and the last.\n"
       "  --csv      one row a lesson, with the user's name in every row, for a\n"
       "             teacher to collect from a shared server: user,lesson,page,\n"
       "             finished,right,questions,seconds\n"
       "  --answers  with --csv: one row an answered question or homework: user,\n"
       "             lesson,kind,number,page,tries,first,first_right,last,last_right\n");

/* s as a CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_field(const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static const char *csv_right(int right)
{
    return right < 0 ? "" : right ? "1" : "0";
}

/* "under a minute", "12 min", "1 h 05 min": time spent, to the minute. */
static void format_time(long seconds, char *out, size_t size)
{
    long minutes = (seconds + 30) / 60;
    if (minutes == 0)
        snprintf(out, size, "%s", _("under a minute"));
    else if (minutes < 60)
        snprintf(out, size, _("%ld min"), minutes);
    else
        snprintf(out, size, _("%ld h %02ld min"), minutes / 60, minutes % 60);
}

static void print_answer(const ProgressAnswer *a)
{
    static const char *const marks[] = {N_("wrong"), N_("right"), N_("not graded")};
    const char *first = _(marks[a->first_right < 0 ? 2 : a->first_right]);
    const char *last = _(marks[a->last_right < 0 ? 2 : a->last_right]);
    if (a->kind == PROGRESS_QUESTION && a->tries == 1)
        printf(_("    question %d (page %d): answered %s, %s.\n"), a->number, a->page, a->first, first);
    else if (a->kind == PROGRESS_QUESTION)
        printf(ngettext("    question %d (page %d): answered %s first, %s; %s last, %s; %d try.\n",
                        "    question %d (page %d): answered %s first, %s; %s last, %s; %d tries.\n", a->tries),
               a->number, a->page, a->first, first, a->last, last, a->tries);
    else if (a->tries == 1)
        printf(_("    homework %d (page %d): answered %s, %s.\n"), a->number, a->page, a->first, first);
    else
        printf(ngettext("    homework %d (page %d): answered %s first, %s; %s last, %s; %d try.\n",
                        "    homework %d (page %d): answered %s first, %s; %s last, %s; %d tries.\n", a->tries),
               a->number, a->page, a->first, first, a->last, last, a->tries);
}

int progress_main(int argc, char **argv)
{
    bool csv = false, answers = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(_(progress_usage), stdout);
            return 0;
        } else if (strcmp(argv[i], "--csv") == 0) {
            csv = true;
        } else if (strcmp(argv[i], "--answers") == 0) {
            answers = true;
        } else {
            cli_error("progress: unknown argument '%s' (clothsim progress --help)", cli_cut(argv[i], CLI_CUT_WORD));
            return 2;
        }
    }
    if (answers && !csv) {
        cli_error("progress: --answers goes with --csv (the text lists the answers already)");
        return 2;
    }
    Progress progress = {0};
    progress_load(&progress);
    if (!progress.file[0]) {
        cli_error("progress: %s", progress.err);
        progress_free(&progress);
        return 1;
    }
    const char *user = getenv("USER");
    if (!user || !*user)
        user = getenv("LOGNAME");
    if (!user || !*user) {
        const struct passwd *pw = getpwuid(getuid());
        user = pw && pw->pw_name ? pw->pw_name : "?";
    }
    if (answers)
        puts("user,lesson,kind,number,page,tries,first,first_right,last,last_right");
    else if (csv)
        puts("user,lesson,page,finished,right,questions,seconds");
    else if (progress.count == 0)
        printf(_("No lesson played yet (clothsim learn). Progress is kept in %s.\n"), progress.file);
    for (int k = 0; k < progress.count; k++) {
        const ProgressEntry *e = &progress.entries[k];
        if (answers) {
            for (int j = 0; j < e->answer_count; j++) {
                const ProgressAnswer *a = &e->answers[j];
                csv_field(user);
                putchar(',');
                csv_field(e->name);
                printf(",%s,%d,%d,%d,", a->kind == PROGRESS_HOMEWORK ? "homework" : "question", a->number, a->page,
                       a->tries);
                csv_field(a->first);
                printf(",%s,", csv_right(a->first_right));
                csv_field(a->last);
                printf(",%s\n", csv_right(a->last_right));
            }
        } else if (csv) {
            csv_field(user);
            putchar(',');
            csv_field(e->name);
            printf(",%d,%d,", e->page + 1, e->finished ? 1 : 0);
            if (e->graded)
                printf("%d,%d,%ld\n", e->right, e->graded, e->seconds);
            else
                printf(",,%ld\n", e->seconds);
        } else {
            char spent[32];
            format_time(e->seconds, spent, sizeof spent);
            if (e->finished && e->graded)
                printf(ngettext("%s: finished, %d of %d right at the first try; %s spent.\n",
                                "%s: finished, %d of %d right at the first try; %s spent.\n", e->graded),
                       e->name, e->right, e->graded, spent);
            else if (e->finished)
                printf(_("%s: finished; %s spent.\n"), e->name, spent);
            else
                printf(_("%s: at page %d; %s spent.\n"), e->name, e->page + 1, spent);
            for (int j = 0; j < e->answer_count; j++)
                print_answer(&e->answers[j]);
        }
    }
    progress_free(&progress);
    return 0;
}
