/* output.c - outputs that fail out loud and keep the old file (see output.h). */
#include "output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"

static void say(char *err, size_t err_size, const Output *o, const char *what, int error)
{
    snprintf(err, err_size, "%s %s: %s: %s", o->option, cli_cut(o->path, CLI_CUT_PATH), what, strerror(error));
}

/* The regular file a path ends at: itself, or the file a symbolic link
 * names (so that the link stays a link). NULL with errno if none. */
static char *resolve_target(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *resolved = realpath(path, NULL);
        return resolved; /* a dangling link: NULL (ENOENT), refused */
    }
    return strdup(path);
}

/* The temporary files being written now, for the signal handler: a
 * signal that ends the process (SIGTERM, SIGINT, SIGHUP, SIGQUIT) removes
 * them first, where no handler of the program's own (the sandbox's) is
 * there to end it in order. */
#define LIVE_MAX 8
static char *volatile live[LIVE_MAX];
static const int ending_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

static void remove_live_and_end(int signal_number)
{
    for (int k = 0; k < LIVE_MAX; k++)
        if (live[k])
            unlink(live[k]);
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

static void watch(char *temporary)
{
    static bool handled;
    if (!handled) {
        handled = true;
        for (size_t k = 0; k < sizeof ending_signals / sizeof ending_signals[0]; k++) {
            struct sigaction now;
            if (sigaction(ending_signals[k], NULL, &now) == 0 && now.sa_handler == SIG_DFL) {
                struct sigaction action = {.sa_handler = remove_live_and_end};
                sigemptyset(&action.sa_mask);
                sigaction(ending_signals[k], &action, NULL);
            }
        }
    }
    for (int k = 0; k < LIVE_MAX; k++)
        if (!live[k]) {
            live[k] = temporary;
            return;
        }
}

static void unwatch(const char *temporary)
{
    for (int k = 0; k < LIVE_MAX; k++)
        if (live[k] == temporary)
            live[k] = NULL;
}

/* The temporary files that runs killed outright (SIGKILL, a power cut)
 * left beside target: TARGET.tmp.PID.XXXXXX of a process that is gone. */
static void remove_stale(const char *target)
{
    const char *slash = strrchr(target, '/');
    const char *name = slash ? slash + 1 : target;
    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%.*s", slash ? (int)(slash - target) + 1 : 1, slash ? target : ".");
    DIR *d = opendir(folder);
    if (!d)
        return;
    size_t name_length = strlen(name);
    for (struct dirent *e; (e = readdir(d));) {
        const char *rest = e->d_name + name_length;
        if (strncmp(e->d_name, name, name_length) != 0 || strncmp(rest, ".tmp.", 5) != 0)
            continue;
        char *end;
        long pid = strtol(rest + 5, &end, 10);
        if (end == rest + 5 || *end != '.' || strlen(end) != 7 || pid <= 0 || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* alive, or another user's */
        char stale[PATH_MAX + 256];
        snprintf(stale, sizeof stale, "%s%s", slash ? folder : "", e->d_name);
        unlink(stale);
    }
    closedir(d);
}

bool output_open(Output *o, const char *option, const char *path, char *err, size_t err_size)
{
    *o = (Output){.option = option, .path = path};
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return true;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        say(err, err_size, o, _("cannot write"), EISDIR);
        return false;
    }
    if (exists && !S_ISREG(st.st_mode)) { /* a device, a FIFO: written in place */
        int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY);
        if (fd >= 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
            o->f = fdopen(fd, "w");
        if (!o->f) {
            int saved = errno == ENXIO ? EPIPE : errno; /* a FIFO nobody reads */
            if (fd >= 0)
                close(fd);
            say(err, err_size, o, _("cannot write"), saved);
            return false;
        }
        return true;
    }
    o->target = resolve_target(path);
    if (!o->target) {
        say(err, err_size, o, _("cannot write"), errno);
        return false;
    }
    if (exists && access(o->target, W_OK) != 0) { /* a read-only file stays so */
        say(err, err_size, o, _("cannot write"), errno);
        free(o->target);
        o->target = NULL;
        return false;
    }
    remove_stale(o->target);
    size_t length = strlen(o->target) + 40;
    o->temporary = malloc(length);
    if (!o->temporary) {
        say(err, err_size, o, _("cannot write"), ENOMEM);
        free(o->target);
        o->target = NULL;
        return false;
    }
    snprintf(o->temporary, length, "%s.tmp.%ld.XXXXXX", o->target, (long)getpid());
    int fd = mkstemp(o->temporary);
    if (fd >= 0)
        watch(o->temporary);
    if (fd < 0) {
        say(err, err_size, o, exists ? _("cannot write a temporary file beside it") : _("cannot write"), errno);
        output_discard(o);
        return false;
    }
    /* the mode a new file would get (or the old file's), not mkstemp's 0600 */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, exists ? (st.st_mode & 07777) : (0666 & ~mask));
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int saved = errno;
        close(fd);
        say(err, err_size, o, _("cannot write"), saved);
        output_discard(o);
        return false;
    }
    return true;
}

bool output_check(Output *o)
{
    if (o->error)
        return false;
    if (o->f && ferror(o->f)) {
        o->error = errno ? errno : EIO;
        return false;
    }
    return true;
}

static void say_failure(const Output *o, char *err, size_t err_size)
{
    if (strcmp(o->path, "-") == 0)
        snprintf(err, err_size, _("%s: cannot write to standard output: %s"), o->option, strerror(o->error));
    else if (o->temporary)
        snprintf(err, err_size, _("%s %s: cannot write: %s (the file is left as it was)"), o->option,
                 cli_cut(o->path, CLI_CUT_PATH), strerror(o->error));
    else
        say(err, err_size, o, _("cannot write"), o->error);
}

bool output_finish(Output *o, char *err, size_t err_size)
{
    if (o->f) {
        /* a failure output_check did not see: the flush retries what is
         * left and says why; if nothing was left, the reason is lost */
        errno = 0;
        bool flushed = fflush(o->f) == 0;
        if (!flushed && !o->error)
            o->error = errno ? errno : EIO;
        if (ferror(o->f) && !o->error)
            o->error = EIO;
        if (o->f != stdout) {
            errno = 0;
            if (fclose(o->f) != 0 && !o->error)
                o->error = errno ? errno : EIO;
        }
        o->f = NULL;
    }
    if (!o->error)
        return true;
    say_failure(o, err, err_size);
    output_discard(o);
    return false;
}

bool output_close(Output *o, char *err, size_t err_size)
{
    if (!o->f && !o->temporary)
        return true;
    if (!output_finish(o, err, err_size))
        return false;
    if (o->temporary)
        unwatch(o->temporary);
    if (o->temporary && rename(o->temporary, o->target) != 0) {
        o->error = errno;
        say_failure(o, err, err_size);
        output_discard(o);
        return false;
    }
    free(o->temporary);
    o->temporary = NULL;
    output_discard(o);
    return true;
}

void output_discard(Output *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    o->f = NULL;
    if (o->temporary) {
        unwatch(o->temporary);
        unlink(o->temporary);
        free(o->temporary);
        o->temporary = NULL;
    }
    free(o->target);
    o->target = NULL;
}

/* stat of path, or of standard output for "-". */
static int stat_of(const char *path, struct stat *st)
{
    return strcmp(path, "-") == 0 ? fstat(STDOUT_FILENO, st) : stat(path, st);
}

bool output_same_file(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return true;
    struct stat sa, sb, null;
    if (stat_of(a, &sa) == 0 && stat_of(b, &sb) == 0) /* /dev/stdout and - too */
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
               !(S_ISCHR(sa.st_mode) && stat("/dev/null", &null) == 0 && null.st_rdev == sa.st_rdev);
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return false;
    /* not there yet: the same folder and name */
    char ra[PATH_MAX], rb[PATH_MAX];
    const char *na = strrchr(a, '/'), *nb = strrchr(b, '/');
    if (strcmp(na ? na + 1 : a, nb ? nb + 1 : b) != 0)
        return false;
    char da[PATH_MAX], db[PATH_MAX];
    snprintf(da, sizeof da, "%.*s", na ? (int)(na - a) + 1 : 1, na ? a : ".");
    snprintf(db, sizeof db, "%.*s", nb ? (int)(nb - b) + 1 : 1, nb ? b : ".");
    return realpath(da, ra) && realpath(db, rb) && strcmp(ra, rb) == 0;
}
