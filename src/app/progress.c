/* progress.c - the student's progress through the lessons (see progress.h). */
#include "progress.h"
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
    char partial[sizeof ((Progress *)0)->file];
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

static ProgressEntry *find_entry(Progress *progress, const char *absolute)
{
    for (int k = 0; k < progress->count; k++)
        if (strcmp(progress->entries[k].path, absolute) == 0)
            return &progress->entries[k];
    return NULL;
}

static bool add_entry(Progress *progress, const char *path, size_t length, int page, bool finished,
                      ProgressScore score)
{
    if (progress->count == progress->capacity) {
        int capacity = progress->capacity ? 2 * progress->capacity : 16;
        ProgressEntry *grown = realloc(progress->entries, (size_t)capacity * sizeof *grown);
        if (!grown)
            return false;
        progress->entries = grown;
        progress->capacity = capacity;
    }
    char *copy = malloc(length + 1);
    if (!copy)
        return false;
    memcpy(copy, path, length);
    copy[length] = '\0';
    progress->entries[progress->count++] = (ProgressEntry){copy, page, finished, score.right, score.graded, false};
    return true;
}

/* A number of at most 4 digits at s[*i], up to n: false if none. */
static bool small_number(const char *s, size_t n, size_t *i, int *value)
{
    size_t from = *i;
    *value = 0;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9' && *i - from < 6)
        *value = 10 * *value + (s[(*i)++] - '0');
    return *i > from && *value <= 100000;
}

/* One line "PAGE<TAB>FINISHED<TAB>[RIGHT/GRADED<TAB>]/PATH" of length n (no
 * newline): parsed into *page, *finished, *score and the path's offset, or
 * false. */
static bool parse_line(const char *s, size_t n, int *page, bool *finished, ProgressScore *score, size_t *path_at)
{
    size_t i = 0;
    if (!small_number(s, n, &i, page) || i + 3 > n || s[i] != '\t' || (s[i + 1] != '0' && s[i + 1] != '1') ||
        s[i + 2] != '\t')
        return false;
    *finished = s[i + 1] == '1';
    i += 3;
    *score = (ProgressScore){0, 0};
    if (i < n && s[i] != '/') {
        if (!small_number(s, n, &i, &score->right) || i >= n || s[i++] != '/' ||
            !small_number(s, n, &i, &score->graded) || i >= n || s[i++] != '\t' ||
            score->graded > PROGRESS_MAX_QUESTIONS || score->right > score->graded)
            return false;
    }
    if (i >= n || s[i] != '/' || memchr(s + i, '\0', n - i) || n - i >= PATH_MAX)
        return false;
    *path_at = i;
    return true;
}

bool progress_parse(Progress *progress, const char *text, size_t length, int *bad_line)
{
    *bad_line = 0;
    size_t at = 0;
    for (int line = 1; at < length; line++) {
        const char *newline = memchr(text + at, '\n', length - at);
        size_t end = newline ? (size_t)(newline - text) : length;
        int page;
        bool finished;
        ProgressScore score;
        size_t path_at;
        if (!parse_line(text + at, end - at, &page, &finished, &score, &path_at)) {
            *bad_line = line;
            return false;
        }
        const char *path = text + at + path_at;
        size_t path_length = end - at - path_at;
        char key[PATH_MAX];
        memcpy(key, path, path_length);
        key[path_length] = '\0';
        ProgressEntry *twice = find_entry(progress, key);
        if (twice) { /* the furthest of the two */
            twice->page = page > twice->page ? page : twice->page;
            twice->finished = twice->finished || finished;
            if (score.graded) /* the later line's score */
                twice->right = score.right, twice->graded = score.graded;
        } else if (!add_entry(progress, path, path_length, page, finished, score)) {
            return true; /* out of memory: what was read is kept */
        }
        at = end + 1;
    }
    return true;
}

/* Reads the file at path, never through a link, never a FIFO or device.
 * Returns 1 read (text, length set; free text), 0 no file, -1 with the
 * reason in err. */
static int read_file(const char *path, char **text, size_t *length, char *err, size_t err_size)
{
    *text = NULL;
    *length = 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, err_size, _("%.200s: cannot read: %s"), path, errno == ELOOP ? _("it is a symbolic link") : strerror(errno));
        return -1;
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

/* A file that is not a progress file is moved aside to PATH.corrupt (never
 * lost) and the reason put in err. */
static void set_aside(Progress *progress, int bad_line)
{
    char aside[sizeof progress->file + 16];
    snprintf(aside, sizeof aside, "%s.corrupt", progress->file);
    if (rename(progress->file, aside) == 0)
        snprintf(progress->err, sizeof progress->err,
                 _("%.200s: line %d is not 'PAGE<TAB>0|1<TAB>RIGHT/GRADED<TAB>/PATH': the file is set aside as %.200s.corrupt"), progress->file,
                 bad_line, progress->file);
    else
        snprintf(progress->err, sizeof progress->err, _("%.200s: line %d is not 'PAGE<TAB>0|1<TAB>RIGHT/GRADED<TAB>/PATH' (%s)"),
                 progress->file, bad_line, strerror(errno));
    progress->set_aside = true;
}

void progress_load(Progress *progress)
{
    memset(progress, 0, sizeof *progress);
    char folder[sizeof progress->file - sizeof "/progress.corrupt"];
    if (!state_folder(folder, sizeof folder, progress->err, sizeof progress->err))
        return;
    snprintf(progress->file, sizeof progress->file, "%s/progress", folder);
    char *text;
    size_t length;
    int got = read_file(progress->file, &text, &length, progress->err, sizeof progress->err);
    if (got < 0) {
        fprintf(stderr, "clothsim: %s\n", progress->err);
        return;
    }
    int bad_line = 0;
    if (got > 0 && !progress_parse(progress, text, length, &bad_line)) {
        set_aside(progress, bad_line);
        fprintf(stderr, "clothsim: %s\n", progress->err);
        progress_free(progress); /* what came before the bad line is in the .corrupt file */
    }
    free(text);
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
    if (!progress_absolute(path, absolute, sizeof absolute))
        return NULL;
    for (int k = 0; k < progress->count; k++)
        if (strcmp(progress->entries[k].path, absolute) == 0)
            return &progress->entries[k];
    return NULL;
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
        char path[sizeof ((Progress *)0)->file + 256];
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        unlink(path);
    }
    closedir(d);
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
        if (strchr(e->path, '\n')) /* a name the file cannot hold is not kept */
            continue;
        if (e->graded) /* no score, no field: the line reads as it did before scores */
            fprintf(f, "%d\t%d\t%d/%d\t%s\n", e->page, e->finished ? 1 : 0, e->right, e->graded, e->path);
        else
            fprintf(f, "%d\t%d\t%s\n", e->page, e->finished ? 1 : 0, e->path);
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
 * merges it into progress: for every lesson the furthest page and finished
 * if either says so. */
static void merge_from_disk(Progress *progress)
{
    char *text;
    size_t length;
    char err[sizeof progress->err];
    if (read_file(progress->file, &text, &length, err, sizeof err) <= 0)
        return;
    Progress disk = {0};
    int bad_line = 0;
    if (!progress_parse(&disk, text, length, &bad_line)) {
        set_aside(progress, bad_line); /* kept as .corrupt; ours is written */
        free(text);
        progress_free(&disk);
        return;
    }
    free(text);
    for (int k = 0; k < disk.count; k++) {
        const ProgressEntry *d = &disk.entries[k];
        ProgressEntry *mine = find_entry(progress, d->path);
        if (!mine)
            add_entry(progress, d->path, strlen(d->path), d->page, d->finished, (ProgressScore){d->right, d->graded});
        else if (!mine->saving) {
            mine->page = d->page;
            mine->finished = mine->finished || d->finished;
            mine->right = d->right, mine->graded = d->graded;
        } else
            mine->finished = mine->finished || d->finished;
    }
    progress_free(&disk);
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
    merge_from_disk(progress);
    bool ok = write_entries(progress, folder);
    close(lock_fd); /* and the lock with it */
    return ok;
}

bool progress_save(Progress *progress, const char *path, int page, bool finished, ProgressScore score,
                   bool *first_failure)
{
    if (score.graded > PROGRESS_MAX_QUESTIONS || score.right > score.graded || score.right < 0)
        score = PROGRESS_SCORE_KEEP; /* not a score: never written */
    *first_failure = false;
    char absolute[PATH_MAX];
    bool named = progress_absolute(path, absolute, sizeof absolute);
    ProgressEntry *entry = named ? find_entry(progress, absolute) : NULL;
    if (!named) {
        snprintf(progress->err, sizeof progress->err, _("the lesson's path is too long to keep its progress"));
    } else if (entry) {
        entry->page = page;
        entry->finished = entry->finished || finished;
        if (score.graded >= 0)
            entry->right = score.right, entry->graded = score.graded;
    } else if (!add_entry(progress, absolute, strlen(absolute), page, finished,
                          score.graded >= 0 ? score : (ProgressScore){0, 0})) {
        snprintf(progress->err, sizeof progress->err, _("out of memory"));
    } else {
        entry = &progress->entries[progress->count - 1];
    }
    if (entry) {
        entry->saving = true; /* this one is ours: the merge keeps our page */
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
    N_("usage: clothsim progress [--csv]\n"
    "\n"
    "What this user has done in the lessons, from the progress file\n"
    "($XDG_STATE_HOME/clothsim/progress): for each lesson the page reached,\n"
    "whether it was finished and the score of the last finish (questions right\n"
    "at the first try, of those that have a right answer).\n"
    "  --csv   the same as CSV with the user's name in every row, for a teacher\n"
    "          to collect from a shared server: user,lesson,page,finished,right,\n"
    "          questions\n");

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

int progress_main(int argc, char **argv)
{
    bool csv = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(_(progress_usage), stdout);
            return 0;
        } else if (strcmp(argv[i], "--csv") == 0) {
            csv = true;
        } else {
            fprintf(stderr, _("clothsim: progress: unknown argument '%.80s' (clothsim progress --help)\n"), argv[i]);
            return 2;
        }
    }
    Progress progress = {0};
    progress_load(&progress);
    if (!progress.file[0]) {
        fprintf(stderr, "clothsim: progress: %s\n", progress.err);
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
    if (csv)
        puts("user,lesson,page,finished,right,questions");
    else if (progress.count == 0)
        printf(_("No lesson played yet (clothsim learn). Progress is kept in %s.\n"), progress.file);
    for (int k = 0; k < progress.count; k++) {
        const ProgressEntry *e = &progress.entries[k];
        if (csv) {
            csv_field(user);
            putchar(',');
            csv_field(e->path);
            printf(",%d,%d,", e->page + 1, e->finished ? 1 : 0);
            if (e->graded)
                printf("%d,%d\n", e->right, e->graded);
            else
                puts(",");
        } else {
            char state[64];
            if (e->finished && e->graded)
                snprintf(state, sizeof state, _("finished, %d of %d right"), e->right, e->graded);
            else if (e->finished)
                snprintf(state, sizeof state, "%s", _("finished"));
            else
                snprintf(state, sizeof state, _("at page %d"), e->page + 1);
            printf("%-24s %s\n", state, e->path);
        }
    }
    progress_free(&progress);
    return 0;
}
