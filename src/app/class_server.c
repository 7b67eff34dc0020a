/* class_server.c - a class session's server (see class_server.h). */
/* accept4, ppoll and struct ucred (SO_PEERCRED) are Linux's */
#define _GNU_SOURCE
#include "class_server.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "lesson/lesson.h"
#include "lesson/parser.h"

#define CLASS_CLIENTS_MAX 512              /* connections at once: a class of 60 rejoining many times over */
#define CLASS_OUT_CAP ((size_t)1 << 20)    /* bytes waiting for a client that does not read */
#define CLASS_FRAME_CAP ((size_t)64 << 10) /* bytes of one shown frame: 80x24 in colour takes about 10 KB */

/* A presenter is the teacher's lesson on the projector (class present),
 * whose frames go to every watcher (class watch); a watcher receives and
 * is never heard: after its hello the server ignores all it sends. */
enum { ROLE_NONE, ROLE_STUDENT, ROLE_TEACHER, ROLE_PRESENTER, ROLE_WATCHER };

typedef struct Question {
    int item;    /* into the lesson's items */
    int choices; /* 1 .. 9 */
    int answer;  /* the right choice, 0-based, or -1 */
} Question;

typedef struct Client {
    int fd; /* -1: a free slot */
    uid_t uid;
    int role;
    char id[48]; /* "UID" or "UID/SEAT" */
    char in[CLASS_LINE_MAX];
    size_t in_length;
    bool discarding; /* the rest of a line too long */
    char *out;
    size_t out_length, out_capacity;
    bool closing; /* close once out is sent */
} Client;

struct ClassServer {
    char code[CLASS_CODE_MAX + 1];
    char folder[PATH_MAX], socket_path[sizeof((struct sockaddr_un *)0)->sun_path], db_path[PATH_MAX];
    char lesson_path[PATH_MAX];
    bool made_folder;
    bool made_database; /* by this open: removed again if the open fails */
    int listen_fd;
    sqlite3 *db;
    sqlite3_stmt *insert_answer, *update_page;
    Lesson *lesson;
    Question *questions;
    int question_count;
    uid_t owner;
    bool seats;
    Client clients[CLASS_CLIENTS_MAX];
    int page, hold; /* the class's page (0: none set) and the question held on (0: none) */
    bool ended;
    /* the presenter's frame: the one shown (watchers get it on hello) and
     * the one coming in; each a run of protocol lines, FRAME .. SHOW */
    char frame[CLASS_FRAME_CAP], next_frame[CLASS_FRAME_CAP];
    size_t frame_length, next_length;
    bool next_open; /* a FRAME came and no SHOW yet, nor an overflow */
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int signal_number)
{
    stop_signal = signal_number;
}

static double wall_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (double)now.tv_sec + now.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- the database */

static bool sql(ClassServer *s, const char *text, char *err, size_t err_size)
{
    char *message = NULL;
    if (sqlite3_exec(s->db, text, NULL, NULL, &message) == SQLITE_OK)
        return true;
    snprintf(err, err_size, _("%.200s: database: %s"), s->db_path, message ? message : sqlite3_errmsg(s->db));
    sqlite3_free(message);
    return false;
}

static bool setting_get(ClassServer *s, const char *key, char *out, size_t out_size)
{
    sqlite3_stmt *st;
    bool found = false;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM class WHERE key = ?", -1, &st, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
        snprintf(out, out_size, "%s", (const char *)sqlite3_column_text(st, 0));
        found = true;
    }
    sqlite3_finalize(st);
    return found;
}

static bool setting_put(ClassServer *s, const char *key, const char *value)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO class (key, value) VALUES (?, ?)", -1, &st, NULL) !=
        SQLITE_OK)
        return false;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    bool ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    return ok;
}

static bool setting_put_int(ClassServer *s, const char *key, int value)
{
    char text[24];
    snprintf(text, sizeof text, "%d", value);
    return setting_put(s, key, text);
}

static const char schema[] = "PRAGMA journal_mode = WAL;"
                             "PRAGMA synchronous = NORMAL;"
                             "CREATE TABLE IF NOT EXISTS class (key TEXT PRIMARY KEY, value TEXT);"
                             "CREATE TABLE IF NOT EXISTS students (id TEXT PRIMARY KEY, uid INTEGER, seat TEXT,"
                             " name TEXT, page INTEGER, joined REAL);"
                             "CREATE TABLE IF NOT EXISTS answers (id TEXT, question INTEGER, choice INTEGER,"
                             " right INTEGER, at REAL, PRIMARY KEY (id, question));"
                             "CREATE TABLE IF NOT EXISTS revealed (question INTEGER PRIMARY KEY);";

bool class_default_database(const char *code, char *out, size_t out_size, char *err, size_t err_size)
{
    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    char folder[PATH_MAX];
    int n;
    if (state && *state)
        n = snprintf(folder, sizeof folder, "%s/clothsim/classes", state);
    else if (home && *home)
        n = snprintf(folder, sizeof folder, "%s/.local/state/clothsim/classes", home);
    else {
        snprintf(err, err_size, _("neither XDG_STATE_HOME nor HOME is set"));
        return false;
    }
    if (n < 0 || (size_t)n >= sizeof folder) {
        snprintf(err, err_size, _("the state folder's path is too long"));
        return false;
    }
    n = snprintf(out, out_size, "%s/%s.db", folder, code);
    if (n < 0 || (size_t)n >= out_size) {
        snprintf(err, err_size, _("the state folder's path is too long"));
        return false;
    }
    for (char *p = folder + 1;; p++) { /* mkdir -p, the last folder the teacher's only */
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(folder, saved ? 0755 : 0700) != 0 && errno != EEXIST) {
                snprintf(err, err_size, _("cannot create %.200s: %s"), folder, strerror(errno));
                return false;
            }
            *p = saved;
            if (!saved)
                break;
        }
    }
    return true;
}

static bool open_database(ClassServer *s, bool fresh, char *err, size_t err_size)
{
    if (fresh) {
        /* made here, the teacher's only, before SQLite writes a byte (its
         * journal files take the same mode) */
        int fd = open(s->db_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0) {
            if (errno == EEXIST)
                snprintf(err, err_size,
                         _("%.200s: a class with the code %s exists already (clothsim class resume %s continues it)"),
                         s->db_path, s->code, s->code);
            else
                snprintf(err, err_size, _("%.200s: cannot create: %s"), s->db_path, strerror(errno));
            return false;
        }
        close(fd);
        s->made_database = true;
    } else {
        struct stat st;
        if (lstat(s->db_path, &st) != 0 || !S_ISREG(st.st_mode)) {
            snprintf(err, err_size, _("%.200s: no such class database"), s->db_path);
            return false;
        }
        if ((st.st_mode & 077) != 0)
            chmod(s->db_path, 0600); /* the teacher's only, whatever it became */
    }
    if (sqlite3_open_v2(s->db_path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
        snprintf(err, err_size, _("%.200s: cannot open the database: %s"), s->db_path,
                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        return false;
    }
    sqlite3_busy_timeout(s->db, 2000);
    if (!sql(s, schema, err, err_size))
        return false;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT OR IGNORE INTO answers (id, question, choice, right, at) VALUES (?, ?, ?, ?, ?)", -1,
                           &s->insert_answer, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "UPDATE students SET page = ? WHERE id = ?", -1, &s->update_page, NULL) !=
            SQLITE_OK) {
        snprintf(err, err_size, _("%.200s: database: %s"), s->db_path, sqlite3_errmsg(s->db));
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- the lesson */

static bool load_lesson(ClassServer *s, char *err, size_t err_size)
{
    s->lesson = lesson_parse_file(s->lesson_path, err, err_size);
    if (!s->lesson)
        return false;
    s->questions = calloc((size_t)s->lesson->item_count + 1, sizeof *s->questions);
    if (!s->questions) {
        snprintf(err, err_size, _("out of memory"));
        return false;
    }
    for (int i = 0; i < s->lesson->item_count; i++) {
        const LessonItem *item = &s->lesson->items[i];
        if (item->kind != LESSON_QUESTION)
            continue;
        s->questions[s->question_count++] =
            (Question){.item = i, .choices = item->choice_count, .answer = item->answer};
    }
    return true;
}

/* ---------------------------------------------------------------- the socket */

static bool random_code(char *out)
{
    static const char letters[] = "abcdefghjkmnpqrstuvwxyz23456789"; /* no 0/o, 1/l/i */
    unsigned char bytes[6];
    if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes)
        return false;
    for (int i = 0; i < 6; i++)
        out[i] = letters[bytes[i] % (sizeof letters - 1)];
    out[6] = '\0';
    return true;
}

/* The folder, ours: made now, or made by an earlier server of ours. */
static bool make_folder(ClassServer *s, gid_t group, bool has_group, bool given, char *err, size_t err_size)
{
    mode_t mode = has_group ? 0710 : 0711;
    if (mkdir(s->folder, 0700) == 0) {
        s->made_folder = !given;
        if ((has_group && chown(s->folder, (uid_t)-1, group) != 0) || chmod(s->folder, mode) != 0) {
            snprintf(err, err_size, _("%.200s: cannot set the folder's group or mode: %s"), s->folder, strerror(errno));
            return false;
        }
        return true;
    }
    struct stat st;
    if (errno != EEXIST || lstat(s->folder, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, _("%.200s: cannot make the class's folder: %s"), s->folder,
                 strerror(errno == EEXIST ? ENOTDIR : errno));
        return false;
    }
    if (!given && st.st_uid != geteuid()) {
        snprintf(err, err_size, _("%.200s: the folder is another account's"), s->folder);
        return false;
    }
    s->made_folder = !given;
    return true;
}

static bool listen_socket(ClassServer *s, gid_t group, bool has_group, char *err, size_t err_size)
{
    struct stat st;
    if (lstat(s->socket_path, &st) == 0) {
        ClassConn probe;
        char ignored[200];
        if (S_ISSOCK(st.st_mode) && class_conn_open(&probe, s->socket_path, ignored, sizeof ignored)) {
            class_conn_close(&probe);
            snprintf(err, err_size, _("class %s is running already (%.200s)"), s->code, s->socket_path);
            return false;
        }
        if (!S_ISSOCK(st.st_mode) || unlink(s->socket_path) != 0) {
            snprintf(err, err_size, _("%.200s: in the way of the class's socket"), s->socket_path);
            return false;
        }
    }
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    snprintf(address.sun_path, sizeof address.sun_path, "%s", s->socket_path);
    if (s->listen_fd < 0 || bind(s->listen_fd, (struct sockaddr *)&address, sizeof address) != 0 ||
        listen(s->listen_fd, 128) != 0) {
        snprintf(err, err_size, _("%.200s: cannot listen: %s"), s->socket_path, strerror(errno));
        return false;
    }
    if ((has_group && chown(s->socket_path, (uid_t)-1, group) != 0) ||
        chmod(s->socket_path, has_group ? 0660 : 0666) != 0) {
        snprintf(err, err_size, _("%.200s: cannot set the socket's group or mode: %s"), s->socket_path,
                 strerror(errno));
        return false;
    }
    return true;
}

ClassServer *class_server_open(const ClassSetup *setup, char *err, size_t err_size)
{
    ClassServer *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, _("out of memory"));
        return NULL;
    }
    s->listen_fd = -1;
    s->owner = geteuid();
    s->seats = setup->seats;
    for (int i = 0; i < CLASS_CLIENTS_MAX; i++)
        s->clients[i].fd = -1;
    gid_t group = 0;
    bool has_group = setup->group != NULL;
    if (has_group) {
        struct group *g = getgrnam(setup->group);
        if (!g) {
            snprintf(err, err_size, _("--group %.60s: no such group"), setup->group);
            goto fail;
        }
        group = g->gr_gid;
    }
    bool fresh = setup->lesson_path != NULL;
    if (fresh) {
        if (setup->code && !class_code_valid(setup->code)) {
            snprintf(err, err_size, _("--code %.60s: a code is 1 to %d of a-z, 0-9 and -"), setup->code,
                     CLASS_CODE_MAX);
            goto fail;
        }
        if (!realpath(setup->lesson_path, s->lesson_path)) {
            snprintf(err, err_size, _("%.200s: cannot read: %s"), setup->lesson_path, strerror(errno));
            goto fail;
        }
        if (!load_lesson(s, err, err_size))
            goto fail;
        for (int attempt = 0;; attempt++) {
            if (setup->code)
                snprintf(s->code, sizeof s->code, "%s", setup->code);
            else if (!random_code(s->code)) {
                snprintf(err, err_size, _("cannot draw a code: %s"), strerror(errno));
                goto fail;
            }
            if (setup->db_path)
                snprintf(s->db_path, sizeof s->db_path, "%s", setup->db_path);
            else if (!class_default_database(s->code, s->db_path, sizeof s->db_path, err, err_size))
                goto fail;
            if (setup->code || setup->db_path || access(s->db_path, F_OK) != 0 || attempt > 20)
                break;
        }
        if (!open_database(s, true, err, err_size))
            goto fail;
        char created[32];
        snprintf(created, sizeof created, "%.0f", wall_seconds());
        if (!setting_put(s, "code", s->code) || !setting_put(s, "lesson", s->lesson_path) ||
            !setting_put(s, "created", created) || !setting_put_int(s, "page", 0) || !setting_put_int(s, "hold", 0) ||
            !setting_put(s, "dir", setup->dir ? setup->dir : "")) {
            snprintf(err, err_size, _("%.200s: database: %s"), s->db_path, sqlite3_errmsg(s->db));
            goto fail;
        }
    } else {
        snprintf(s->db_path, sizeof s->db_path, "%s", setup->db_path);
        if (!open_database(s, false, err, err_size))
            goto fail;
        char value[32];
        if (!setting_get(s, "code", s->code, sizeof s->code) ||
            !setting_get(s, "lesson", s->lesson_path, sizeof s->lesson_path)) {
            snprintf(err, err_size, _("%.200s: not a class's database"), s->db_path);
            goto fail;
        }
        if (!load_lesson(s, err, err_size))
            goto fail;
        if (setting_get(s, "page", value, sizeof value))
            s->page = atoi(value);
        if (setting_get(s, "hold", value, sizeof value))
            s->hold = atoi(value);
        setting_put_int(s, "ended", 0);
    }
    char saved_dir[PATH_MAX] = "";
    if (!setup->dir && !fresh)
        setting_get(s, "dir", saved_dir, sizeof saved_dir);
    const char *dir = setup->dir ? setup->dir : *saved_dir ? saved_dir : NULL;
    if (!class_socket_path(dir, s->code, s->folder, sizeof s->folder, s->socket_path, sizeof s->socket_path, err,
                           err_size))
        goto fail;
    if (!make_folder(s, group, has_group, dir != NULL || getenv("CLOTHSIM_CLASS_DIR"), err, err_size) ||
        !listen_socket(s, group, has_group, err, err_size))
        goto fail;
    return s;
fail:
    if (s->made_database) { /* a class that never started leaves nothing behind */
        sqlite3_finalize(s->insert_answer);
        sqlite3_finalize(s->update_page);
        s->insert_answer = s->update_page = NULL;
        sqlite3_close(s->db);
        s->db = NULL;
        char journal[PATH_MAX + 8];
        snprintf(journal, sizeof journal, "%s-wal", s->db_path);
        unlink(journal);
        snprintf(journal, sizeof journal, "%s-shm", s->db_path);
        unlink(journal);
        unlink(s->db_path);
    }
    class_server_close(s);
    return NULL;
}

const char *class_server_code(const ClassServer *s)
{
    return s->code;
}
const char *class_server_socket(const ClassServer *s)
{
    return s->socket_path;
}
const char *class_server_folder(const ClassServer *s)
{
    return s->folder;
}
const char *class_server_database(const ClassServer *s)
{
    return s->db_path;
}
const char *class_server_lesson(const ClassServer *s)
{
    return s->lesson_path;
}

static void drop_client(ClassServer *s, Client *c);

void class_server_close(ClassServer *s)
{
    if (!s)
        return;
    for (int i = 0; i < CLASS_CLIENTS_MAX; i++)
        if (s->clients[i].fd >= 0)
            drop_client(s, &s->clients[i]);
    if (s->listen_fd >= 0) {
        close(s->listen_fd);
        unlink(s->socket_path);
        if (s->made_folder)
            rmdir(s->folder);
    }
    sqlite3_finalize(s->insert_answer);
    sqlite3_finalize(s->update_page);
    if (s->db)
        sqlite3_close(s->db);
    lesson_destroy(s->lesson);
    free(s->questions);
    free(s);
}

/* ---------------------------------------------------------------- clients */

static void say(ClassServer *s, Client *c, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void say_bytes(Client *c, const char *line, size_t n);

static void say(ClassServer *s, Client *c, const char *format, ...)
{
    (void)s;
    if (c->fd < 0 || c->closing)
        return;
    char line[CLASS_LINE_MAX + 1];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof line - 1, format, args);
    va_end(args);
    if (n < 0)
        return;
    if (n > CLASS_LINE_MAX - 1)
        n = CLASS_LINE_MAX - 1;
    line[n++] = '\n';
    say_bytes(c, line, (size_t)n);
}

static void say_bytes(Client *c, const char *line, size_t n)
{
    if (c->out_length + n > CLASS_OUT_CAP) {
        c->closing = true; /* it reads nothing: let it go (its answers are kept) */
        c->out_length = 0;
        return;
    }
    if (c->out_length + n > c->out_capacity) {
        size_t capacity = c->out_capacity ? c->out_capacity : 4096;
        while (capacity < c->out_length + n)
            capacity *= 2;
        char *grown = realloc(c->out, capacity);
        if (!grown) {
            c->closing = true;
            c->out_length = 0;
            return;
        }
        c->out = grown;
        c->out_capacity = capacity;
    }
    memcpy(c->out + c->out_length, line, n);
    c->out_length += n;
}

static void to_teachers(ClassServer *s, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void to_teachers(ClassServer *s, const char *format, ...)
{
    char line[CLASS_LINE_MAX];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof line, format, args);
    va_end(args);
    for (int i = 0; i < CLASS_CLIENTS_MAX; i++)
        if (s->clients[i].fd >= 0 && s->clients[i].role == ROLE_TEACHER)
            say(s, &s->clients[i], "%s", line);
}

static void to_everyone(ClassServer *s, const char *line)
{
    for (int i = 0; i < CLASS_CLIENTS_MAX; i++)
        if (s->clients[i].fd >= 0 && s->clients[i].role != ROLE_NONE && s->clients[i].role != ROLE_WATCHER)
            say(s, &s->clients[i], "%s", line);
}

static int online(const ClassServer *s, const char *id)
{
    int count = 0;
    for (int i = 0; i < CLASS_CLIENTS_MAX; i++)
        if (s->clients[i].fd >= 0 && s->clients[i].role == ROLE_STUDENT && strcmp(s->clients[i].id, id) == 0)
            count++;
    return count;
}

static void drop_client(ClassServer *s, Client *c)
{
    close(c->fd);
    c->fd = -1;
    free(c->out);
    c->out = NULL;
    c->out_length = c->out_capacity = 0;
    if (c->role == ROLE_STUDENT && online(s, c->id) == 0)
        to_teachers(s, "LEAVE %s", c->id);
    c->role = ROLE_NONE;
}

static void flush_client(ClassServer *s, Client *c)
{
    size_t sent = 0;
    while (sent < c->out_length) {
        ssize_t w = send(c->fd, c->out + sent, c->out_length - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0)
            sent += (size_t)w;
        else if (w < 0 && errno == EINTR)
            continue;
        else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        else {
            drop_client(s, c);
            return;
        }
    }
    memmove(c->out, c->out + sent, c->out_length - sent);
    c->out_length -= sent;
    if (c->closing && c->out_length == 0)
        drop_client(s, c);
}

/* A name for the teacher's screen: the account's, printable ASCII. */
static void account_name(uid_t uid, const char *seat, char *out, size_t out_size)
{
    struct passwd *pw = getpwuid(uid);
    char name[64];
    if (pw && pw->pw_name)
        snprintf(name, sizeof name, "%s", pw->pw_name);
    else
        snprintf(name, sizeof name, "%u", (unsigned)uid);
    for (char *p = name; *p; p++)
        if (*p <= ' ' || *p > '~')
            *p = '?';
    if (seat && *seat)
        snprintf(out, out_size, "%s/%s", name, seat);
    else
        snprintf(out, out_size, "%s", name);
}

static void send_reveal(ClassServer *s, Client *c, int question)
{
    const Question *q = &s->questions[question - 1];
    int counts[10] = {0};
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT choice, count(*) FROM answers WHERE question = ? GROUP BY choice", -1, &st,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_int(st, 1, question);
        while (sqlite3_step(st) == SQLITE_ROW) {
            int choice = sqlite3_column_int(st, 0);
            if (choice >= 1 && choice <= q->choices)
                counts[choice - 1] = sqlite3_column_int(st, 1);
        }
        sqlite3_finalize(st);
    }
    char line[CLASS_LINE_MAX];
    int n = snprintf(line, sizeof line, "REVEAL %d", question);
    for (int k = 0; k < q->choices; k++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %d", counts[k]);
    if (c)
        say(s, c, "%s", line);
    else
        to_everyone(s, line);
}

static void send_state(ClassServer *s, Client *c)
{
    sqlite3_stmt *st;
    if (c->role == ROLE_WATCHER) { /* the screen, and nothing of the class's answers */
        say(s, c, "READY");
        if (s->frame_length)
            say_bytes(c, s->frame, s->frame_length);
        return;
    }
    say(s, c, "LESSON %s", s->lesson_path);
    if (c->role == ROLE_PRESENTER) {
        /* the lesson as the class plays it: page, hold, reveals */
    } else if (c->role == ROLE_STUDENT) {
        int page = 0;
        if (sqlite3_prepare_v2(s->db, "SELECT page FROM students WHERE id = ?", -1, &st, NULL) == SQLITE_OK) {
            sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
            if (sqlite3_step(st) == SQLITE_ROW)
                page = sqlite3_column_int(st, 0);
            sqlite3_finalize(st);
        }
        say(s, c, "YOU %s %d", c->id, page);
        if (sqlite3_prepare_v2(s->db, "SELECT question, choice FROM answers WHERE id = ? ORDER BY question", -1, &st,
                               NULL) == SQLITE_OK) {
            sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
            while (sqlite3_step(st) == SQLITE_ROW)
                say(s, c, "ANSWERED %d %d", sqlite3_column_int(st, 0), sqlite3_column_int(st, 1));
            sqlite3_finalize(st);
        }
    } else {
        if (sqlite3_prepare_v2(s->db, "SELECT id, page, name FROM students ORDER BY joined, id", -1, &st, NULL) ==
            SQLITE_OK) {
            while (sqlite3_step(st) == SQLITE_ROW) {
                const char *id = (const char *)sqlite3_column_text(st, 0);
                say(s, c, "STUDENT %s %d %d %s", id, sqlite3_column_int(st, 1), online(s, id),
                    (const char *)sqlite3_column_text(st, 2));
            }
            sqlite3_finalize(st);
        }
        if (sqlite3_prepare_v2(s->db, "SELECT id, question, choice, right FROM answers ORDER BY at", -1, &st, NULL) ==
            SQLITE_OK) {
            while (sqlite3_step(st) == SQLITE_ROW) {
                int right = sqlite3_column_int(st, 3);
                say(s, c, "VOTE %s %d %d %s", (const char *)sqlite3_column_text(st, 0), sqlite3_column_int(st, 1),
                    sqlite3_column_int(st, 2),
                    right < 0 ? "-"
                    : right   ? "1"
                              : "0");
            }
            sqlite3_finalize(st);
        }
    }
    say(s, c, "CLASSPAGE %d", s->page);
    say(s, c, "HOLD %d", s->hold);
    if (sqlite3_prepare_v2(s->db, "SELECT question FROM revealed ORDER BY question", -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            int question = sqlite3_column_int(st, 0);
            if (question >= 1 && question <= s->question_count)
                send_reveal(s, c, question);
        }
        sqlite3_finalize(st);
    }
    say(s, c, "READY");
}

/* A whole number in [min, max], written plainly (no sign, no zeros first). */
static bool number(const char *word, int min, int max, int *out)
{
    if (!*word || strlen(word) > 6 || (word[0] == '0' && word[1]))
        return false;
    int value = 0;
    for (const char *p = word; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        value = value * 10 + (*p - '0');
    }
    if (value < min || value > max)
        return false;
    *out = value;
    return true;
}

static void hello(ClassServer *s, Client *c, char **w, int n)
{
    if (n < 3 || n > 4 || strcmp(w[1], s->code) != 0) {
        say(s, c, "ERR %s", n >= 2 && strcmp(w[1], s->code) != 0 ? "wrong code" : "HELLO CODE student|teacher|watcher");
        return;
    }
    if (strcmp(w[2], "watcher") == 0 && n == 3) {
        c->role = ROLE_WATCHER;
        send_state(s, c);
        return;
    }
    if (strcmp(w[2], "teacher") == 0 || strcmp(w[2], "presenter") == 0) {
        if (c->uid != s->owner || n != 3) {
            say(s, c, "ERR only the teacher's account may teach");
            c->closing = true;
            return;
        }
        c->role = strcmp(w[2], "teacher") == 0 ? ROLE_TEACHER : ROLE_PRESENTER;
        snprintf(c->id, sizeof c->id, "%u", (unsigned)c->uid);
        send_state(s, c);
        return;
    }
    if (strcmp(w[2], "student") != 0) {
        say(s, c, "ERR HELLO CODE student|teacher|watcher");
        return;
    }
    const char *seat = "";
    if (n == 4) {
        if (!s->seats) {
            say(s, c, "ERR seats are for tests (class start --seats)");
            return;
        }
        seat = w[3];
        if (strlen(seat) > 16 || strchr(seat, '/')) {
            say(s, c, "ERR a seat is 1 to 16 characters");
            return;
        }
    }
    c->role = ROLE_STUDENT;
    if (*seat)
        snprintf(c->id, sizeof c->id, "%u/%s", (unsigned)c->uid, seat);
    else
        snprintf(c->id, sizeof c->id, "%u", (unsigned)c->uid);
    char name[96];
    account_name(c->uid, seat, name, sizeof name);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(
            s->db, "INSERT OR IGNORE INTO students (id, uid, seat, name, page, joined) VALUES (?, ?, ?, ?, 0, ?)", -1,
            &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)c->uid);
        sqlite3_bind_text(st, 3, seat, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 5, wall_seconds());
        sqlite3_step(st);
        sqlite3_finalize(st);
    }
    send_state(s, c);
    if (online(s, c->id) == 1)
        to_teachers(s, "JOIN %s %s", c->id, name);
}

static void answer(ClassServer *s, Client *c, char **w, int n)
{
    int question, choice;
    if (n != 3 || !number(w[1], 1, s->question_count, &question)) {
        say(s, c, "ERR ANSWER QUESTION CHOICE (questions 1 to %d)", s->question_count);
        return;
    }
    const Question *q = &s->questions[question - 1];
    if (!number(w[2], 1, q->choices, &choice)) {
        say(s, c, "ERR question %d has choices 1 to %d", question, q->choices);
        return;
    }
    int right = q->answer < 0 ? -1 : q->answer == choice - 1;
    sqlite3_stmt *st = s->insert_answer;
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, c->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, question);
    sqlite3_bind_int(st, 3, choice);
    sqlite3_bind_int(st, 4, right);
    sqlite3_bind_double(st, 5, wall_seconds());
    if (sqlite3_step(st) != SQLITE_DONE) {
        say(s, c, "ERR not kept: send it again");
        sqlite3_reset(st);
        return;
    }
    bool first = sqlite3_changes(s->db) == 1;
    sqlite3_reset(st);
    say(s, c, "OK %d", question);
    if (first)
        to_teachers(s, "VOTE %s %d %d %s", c->id, question, choice, right < 0 ? "-" : right ? "1" : "0");
}

static void page(ClassServer *s, Client *c, char **w, int n)
{
    int p;
    if (n != 2 || !number(w[1], 1, s->lesson->page_count + 1, &p)) {
        say(s, c, "ERR PAGE P (1 to %d)", s->lesson->page_count + 1);
        return;
    }
    sqlite3_stmt *st = s->update_page;
    sqlite3_reset(st);
    sqlite3_bind_int(st, 1, p);
    sqlite3_bind_text(st, 2, c->id, -1, SQLITE_TRANSIENT);
    sqlite3_step(st);
    sqlite3_reset(st);
    to_teachers(s, "PAGE %s %d", c->id, p);
}

static void teach(ClassServer *s, Client *c, char **w, int n)
{
    int value;
    char line[64];
    if (strcmp(w[0], "HOLD") == 0 && n == 2 && number(w[1], 0, s->question_count, &value)) {
        s->hold = value;
        setting_put_int(s, "hold", value);
        snprintf(line, sizeof line, "HOLD %d", value);
        to_everyone(s, line);
    } else if (strcmp(w[0], "REVEAL") == 0 && n == 2 && number(w[1], 1, s->question_count, &value)) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(s->db, "INSERT OR IGNORE INTO revealed (question) VALUES (?)", -1, &st, NULL) ==
            SQLITE_OK) {
            sqlite3_bind_int(st, 1, value);
            sqlite3_step(st);
            sqlite3_finalize(st);
        }
        send_reveal(s, NULL, value);
        if (s->hold == value) { /* the vote is in: the run plays on every screen */
            s->hold = 0;
            setting_put_int(s, "hold", 0);
            to_everyone(s, "HOLD 0");
        }
    } else if (strcmp(w[0], "GOTO") == 0 && n == 2 && number(w[1], 1, s->lesson->page_count, &value)) {
        s->page = value;
        setting_put_int(s, "page", value);
        snprintf(line, sizeof line, "GOTO %d", value);
        to_everyone(s, line);
    } else if (strcmp(w[0], "END") == 0 && n == 1) {
        s->ended = true;
        setting_put_int(s, "ended", 1);
        to_everyone(s, "END");
    } else {
        say(s, c, "ERR HOLD Q, REVEAL Q, GOTO P or END");
    }
}

/* The presenter's frame, a line at a time (class_conn.h): kept whole up to
 * CLASS_FRAME_CAP, shown on SHOW to every watcher that has room for it (one
 * still reading the last frames misses this one, and gets the next). */
static void present(ClassServer *s, Client *c, char **w, int n)
{
    int value;
    if (strcmp(w[0], "FRAME") == 0 && n == 3 && number(w[1], 1, 500, &value) && number(w[2], 1, 500, &value)) {
        s->next_length = 0;
        s->next_open = true;
    } else if (strcmp(w[0], "ROW") == 0 && n == 7 && number(w[1], 0, 499, &value) && number(w[2], 0, 499, &value) &&
               number(w[3], 0, 255, &value) && number(w[4], 0, 255, &value) && number(w[5], 0, 255, &value)) {
        /* w[6], the text, is checked where it is drawn: the watcher decodes it */
    } else if (strcmp(w[0], "SHOW") == 0 && n == 1 && s->next_open) {
        s->next_open = false;
    } else {
        say(s, c, "ERR FRAME W H, ROW Y X FG BG ATTRIBUTES TEXT, SHOW");
        s->next_open = false;
        return;
    }
    if (!s->next_open && strcmp(w[0], "SHOW") != 0)
        return; /* a ROW outside a frame, or after the frame overflowed */
    /* the line as it came (the split put NULs between its words) */
    char whole[CLASS_LINE_MAX + 1];
    size_t length = 0;
    for (int k = 0; k < n; k++)
        length += (size_t)snprintf(whole + length, sizeof whole - length, k ? " %s" : "%s", w[k]);
    whole[length++] = '\n';
    if (s->next_length + length > CLASS_FRAME_CAP) {
        say(s, c, "ERR a frame is at most %zu bytes", CLASS_FRAME_CAP);
        s->next_open = false;
        return;
    }
    memcpy(s->next_frame + s->next_length, whole, length);
    s->next_length += length;
    if (strcmp(w[0], "SHOW") != 0)
        return;
    memcpy(s->frame, s->next_frame, s->next_length);
    s->frame_length = s->next_length;
    s->next_length = 0;
    for (int i = 0; i < CLASS_CLIENTS_MAX; i++) {
        Client *watcher = &s->clients[i];
        if (watcher->fd >= 0 && watcher->role == ROLE_WATCHER && watcher->out_length < 2 * CLASS_FRAME_CAP)
            say_bytes(watcher, s->frame, s->frame_length);
    }
}

static void take_line(ClassServer *s, Client *c, char *line)
{
    if (c->role == ROLE_WATCHER)
        return; /* read-only by design: nothing a watcher sends is read */
    size_t length = strlen(line);
    if (length > 0 && line[length - 1] == '\r')
        line[--length] = '\0';
    for (size_t i = 0; i < length; i++)
        if ((unsigned char)line[i] < ' ' || (unsigned char)line[i] > '~') {
            say(s, c, "ERR printable ASCII only");
            return;
        }
    char *w[CLASS_WORDS_MAX];
    int n = class_split(line, w);
    if (n <= 0) {
        say(s, c, "ERR words separated by single spaces");
        return;
    }
    if (strcmp(w[0], "PING") == 0)
        say(s, c, "PONG");
    else if (strcmp(w[0], "HELLO") == 0 && c->role == ROLE_NONE)
        hello(s, c, w, n);
    else if (c->role == ROLE_NONE)
        say(s, c, "ERR HELLO first");
    else if (c->role == ROLE_STUDENT && strcmp(w[0], "ANSWER") == 0)
        answer(s, c, w, n);
    else if (c->role == ROLE_STUDENT && strcmp(w[0], "PAGE") == 0)
        page(s, c, w, n);
    else if (c->role == ROLE_TEACHER)
        teach(s, c, w, n);
    else if (c->role == ROLE_PRESENTER)
        present(s, c, w, n);
    else if (strcmp(w[0], "HOLD") == 0 || strcmp(w[0], "REVEAL") == 0 || strcmp(w[0], "GOTO") == 0 ||
             strcmp(w[0], "END") == 0)
        say(s, c, "ERR only the teacher may do that");
    else
        say(s, c, "ERR unknown message");
}

/* One read (at most a line's room): a client that sends without end takes
 * its turn with the others, never the whole loop. */
static void read_client(ClassServer *s, Client *c)
{
    ssize_t r = read(c->fd, c->in + c->in_length, sizeof c->in - c->in_length);
    if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        drop_client(s, c); /* a half line left is dropped with it */
        return;
    }
    if (r < 0)
        return;
    c->in_length += (size_t)r;
    size_t start = 0;
    for (size_t i = 0; i < c->in_length && c->fd >= 0 && !c->closing; i++) {
        if (c->in[i] != '\n')
            continue;
        if (c->discarding)
            c->discarding = false;
        else {
            char line[CLASS_LINE_MAX];
            memcpy(line, c->in + start, i - start);
            line[i - start] = '\0';
            take_line(s, c, line);
        }
        start = i + 1;
    }
    if (c->fd < 0)
        return;
    memmove(c->in, c->in + start, c->in_length - start);
    c->in_length -= start;
    if (c->in_length == sizeof c->in) { /* no newline in a whole line's room */
        if (!c->discarding && c->role != ROLE_WATCHER)
            say(s, c, "ERR line too long (at most %d bytes)", CLASS_LINE_MAX);
        c->discarding = true;
        c->in_length = 0;
    }
}

static void accept_clients(ClassServer *s)
{
    for (;;) {
        int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return; /* EAGAIN, or out of descriptors: the rest wait in the backlog */
        struct ucred peer;
        socklen_t size = sizeof peer;
        Client *c = NULL;
        for (int i = 0; i < CLASS_CLIENTS_MAX && !c; i++)
            if (s->clients[i].fd < 0)
                c = &s->clients[i];
        if (!c || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0) {
            if (!c)
                send(fd, "ERR the class is full\n", 22, MSG_NOSIGNAL | MSG_DONTWAIT);
            close(fd);
            continue;
        }
        *c = (Client){.fd = fd, .uid = peer.uid, .role = ROLE_NONE};
    }
}

int class_server_run(ClassServer *s, char *err, size_t err_size)
{
    (void)err;
    (void)err_size;
    struct sigaction action = {.sa_handler = on_stop}, old[3];
    sigemptyset(&action.sa_mask);
    int signals[3] = {SIGINT, SIGTERM, SIGHUP};
    sigset_t blocked, original;
    sigemptyset(&blocked);
    for (int k = 0; k < 3; k++) {
        sigaction(signals[k], &action, &old[k]);
        sigaddset(&blocked, signals[k]);
    }
    sigprocmask(SIG_BLOCK, &blocked, &original);
    stop_signal = 0;
    static struct pollfd fds[CLASS_CLIENTS_MAX + 1];
    static int slot[CLASS_CLIENTS_MAX + 1];
    while (!stop_signal && !s->ended) {
        int count = 0;
        fds[count++] = (struct pollfd){.fd = s->listen_fd, .events = POLLIN};
        for (int i = 0; i < CLASS_CLIENTS_MAX; i++) {
            Client *c = &s->clients[i];
            if (c->fd < 0)
                continue;
            slot[count] = i;
            fds[count++] = (struct pollfd){
                .fd = c->fd, .events = (short)((c->closing ? 0 : POLLIN) | (c->out_length ? POLLOUT : 0))};
        }
        int ready = ppoll(fds, (nfds_t)count, NULL, &original);
        if (ready < 0)
            continue; /* EINTR: a signal; the loop's test sees it */
        for (int k = 1; k < count; k++) {
            Client *c = &s->clients[slot[k]];
            if (c->fd != fds[k].fd)
                continue;
            if ((fds[k].revents & (POLLIN | POLLHUP | POLLERR)) && !c->closing)
                read_client(s, c);
        }
        if (fds[0].revents & POLLIN)
            accept_clients(s);
        for (int i = 0; i < CLASS_CLIENTS_MAX; i++)
            if (s->clients[i].fd >= 0 && (s->clients[i].out_length || s->clients[i].closing))
                flush_client(s, &s->clients[i]);
    }
    /* the END goes out before the connections close */
    for (int i = 0; i < CLASS_CLIENTS_MAX; i++)
        if (s->clients[i].fd >= 0 && s->clients[i].out_length)
            flush_client(s, &s->clients[i]);
    sigprocmask(SIG_SETMASK, &original, NULL);
    for (int k = 0; k < 3; k++)
        sigaction(signals[k], &old[k], NULL);
    return 0;
}
