/* class_main.c - clothsim class: start, resume, join, teach and report a
 * class session (the server: class_server.h; the protocol: class_conn.h;
 * the screens: class_screen.c). */
#include "class_main.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "class_server.h"
#include "cli.h"
#include "i18n.h"
#include "lesson/lesson.h"
#include "lesson/parser.h"

static const char class_usage[] =
    N_("usage: clothsim class start LESSON [--dir DIR] [--group GROUP] [--code CODE]\n"
       "                            [--db FILE] [--serve]\n"
       "       clothsim class resume CODE|FILE.db [--dir DIR] [--group GROUP] [--serve]\n"
       "       clothsim class join CODE [--dir DIR]    (and the lessons' screen options)\n"
       "       clothsim class teach CODE [--dir DIR]   the teacher's screen again\n"
       "       clothsim class present CODE [--dir DIR] the lesson on the projector\n"
       "       clothsim class watch CODE [--dir DIR]   follow it, read-only\n"
       "       clothsim class report CODE|FILE.db [--csv]\n"
       "\n"
       "start runs a class's server as you and prints its code; students on this\n"
       "machine join with clothsim class join CODE and play the lesson on their own\n"
       "screens. Your screen shows who joined, each one's page and the answers to\n"
       "the question as they come in, hidden from the students until you reveal.\n"
       "  --dir DIR      the folder of the socket (default /tmp/clothsim-class-CODE;\n"
       "                 students give the same --dir, or set CLOTHSIM_CLASS_DIR)\n"
       "  --group GROUP  only members of GROUP may join (default: every account)\n"
       "  --code CODE    the code (1 to 16 of a-z, 0-9, -; default six at random)\n"
       "  --db FILE      the class's database (default\n"
       "                 $XDG_STATE_HOME/clothsim/classes/CODE.db, yours only)\n"
       "  --serve        the server only, in the foreground (no screen)\n"
       "resume starts the server of a class again where it was; report prints each\n"
       "student's first answer to each question (--csv: as CSV). present plays the\n"
       "class's lesson on your screen and sends its frames to everyone who runs\n"
       "class watch: they see it and nothing they type reaches the class (q quits).\n");

/* What the class commands take. */
typedef struct ClassOptions {
    const char *operand;
    ClassSetup setup;
    bool serve, csv;
} ClassOptions;

/* Which options a class command takes: the server's, report's, the
 * teacher's screen's, or a student's (who passes the lessons' screen
 * options on to the lesson). */
typedef enum { TAKES_SERVER, TAKES_REPORT, TAKES_TEACH, TAKES_JOIN } Takes;

/* argv[0] is the command's name. -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, ClassOptions *o, Takes takes)
{
    bool server_options = takes == TAKES_SERVER;
    for (int i = 1; i < argc; i++) {
        const char *value;
        int matched;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("%s", _(class_usage));
            return 0;
        }
        if ((value = cli_option_value(argc, argv, &i, "--dir", &matched)) || matched) {
            if (!value)
                return EXIT_USAGE;
            o->setup.dir = value;
        } else if (server_options && ((value = cli_option_value(argc, argv, &i, "--group", &matched)) || matched)) {
            if (!value)
                return EXIT_USAGE;
            o->setup.group = value;
        } else if (server_options && ((value = cli_option_value(argc, argv, &i, "--code", &matched)) || matched)) {
            if (!value)
                return EXIT_USAGE;
            o->setup.code = value;
        } else if (server_options && ((value = cli_option_value(argc, argv, &i, "--db", &matched)) || matched)) {
            if (!value)
                return EXIT_USAGE;
            o->setup.db_path = value;
        } else if (server_options && strcmp(argv[i], "--serve") == 0) {
            o->serve = true;
        } else if (server_options && strcmp(argv[i], "--seats") == 0) {
            o->setup.seats = true;
        } else if (strcmp(argv[i], "--csv") == 0 && takes == TAKES_REPORT) {
            o->csv = true;
        } else if (takes == TAKES_JOIN && argv[i][0] == '-') {
            continue; /* the lesson's screen's, read by class_join */
        } else if (takes == TAKES_JOIN && o->operand) {
            continue; /* the value of one of them */
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error("class %s: unknown option '%s' (clothsim class --help lists them)", argv[0],
                      cli_cut(argv[i], CLI_CUT_WORD));
            return EXIT_USAGE;
        } else if (o->operand) {
            cli_error("class %s takes one operand (got '%s' too)", argv[0], cli_cut(argv[i], CLI_CUT_WORD));
            return EXIT_USAGE;
        } else {
            o->operand = argv[i];
        }
    }
    return -1;
}

/* CODE or FILE.db: the database's path. */
static bool database_of(const char *operand, char *out, size_t size)
{
    size_t length = strlen(operand);
    if (strchr(operand, '/') || (length > 3 && strcmp(operand + length - 3, ".db") == 0)) {
        snprintf(out, size, "%s", operand);
        return true;
    }
    if (!class_code_valid(operand)) {
        cli_error("'%s' is neither a class's code nor a FILE.db", cli_cut(operand, CLI_CUT_WORD));
        return false;
    }
    char err[TEXT_MESSAGE_SIZE];
    if (!class_default_database(operand, out, size, err, sizeof err)) {
        cli_error("%s", err);
        return false;
    }
    return true;
}

static void tell_code(ClassServer *server)
{
    const char *code = class_server_code(server);
    printf(_("class %s: %s\n"), code, class_server_lesson(server));
    if (getenv("CLOTHSIM_CLASS_DIR") || !strstr(class_server_socket(server), "/tmp/clothsim-class-"))
        printf(_("students join with: clothsim class join %s --dir %s\n"), code, class_server_folder(server));
    else
        printf(_("students join with: clothsim class join %s\n"), code);
    printf(_("the class is kept in %s\n"), class_server_database(server));
    fflush(stdout);
}

/* The server in the foreground: --serve. */
static int serve(ClassServer *server)
{
    tell_code(server);
    char err[TEXT_MESSAGE_SIZE];
    int status = class_server_run(server, err, sizeof err);
    if (status)
        cli_error("%s", err);
    class_server_close(server);
    return status;
}

/* The server in a process of its own that outlives the terminal; the
 * teacher's screen (or, without a terminal, the code and the way back)
 * here. The child opens the class and says in a pipe that it listens, or
 * why not. */
static int start_in_background(ClassOptions *o)
{
    int report[2];
    if (pipe(report) != 0) {
        cli_error("cannot start the server: %s", strerror(errno));
        return 1;
    }
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) {
        cli_error("cannot start the server: %s", strerror(errno));
        return 1;
    }
    if (child == 0) {
        close(report[0]);
        setsid();
        if (fork() > 0) /* the server is no child of the teacher's shell */
            _exit(0);
        char err[TEXT_MESSAGE_SIZE];
        ClassServer *server = class_server_open(&o->setup, err, sizeof err);
        char line[PATH_MAX + 64];
        if (!server)
            snprintf(line, sizeof line, "E%s\n", err);
        else
            snprintf(line, sizeof line, "K%s\n", class_server_code(server));
        ssize_t ignored = write(report[1], line, strlen(line));
        (void)ignored;
        close(report[1]);
        if (!server)
            _exit(1);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, STDIN_FILENO);
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        int status = class_server_run(server, err, sizeof err);
        class_server_close(server);
        _exit(status);
    }
    close(report[1]);
    waitpid(child, NULL, 0);
    char line[PATH_MAX + 64];
    size_t length = 0;
    ssize_t r;
    while (length + 1 < sizeof line && (r = read(report[0], line + length, sizeof line - 1 - length)) != 0)
        if (r > 0)
            length += (size_t)r;
        else if (errno != EINTR)
            break;
    close(report[0]);
    line[length] = '\0';
    if (length && line[length - 1] == '\n')
        line[length - 1] = '\0';
    if (line[0] != 'K') {
        cli_error("%s", line[0] == 'E' ? line + 1 : _("the server did not start"));
        return 1;
    }
    const char *code = line + 1;
    char folder[PATH_MAX], socket_path[PATH_MAX], err[TEXT_MESSAGE_SIZE];
    const char *saved_dir = o->setup.dir;
    if (!class_socket_path(saved_dir, code, folder, sizeof folder, socket_path, sizeof socket_path, err, sizeof err)) {
        cli_error("%s", err);
        return 1;
    }
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
        return class_teach(code, socket_path, 0, NULL);
    printf(_("class %s started\n"), code);
    if (saved_dir || getenv("CLOTHSIM_CLASS_DIR"))
        printf(_("students join with: clothsim class join %s --dir %s\n"), code, folder);
    else
        printf(_("students join with: clothsim class join %s\n"), code);
    printf(_("your screen: clothsim class teach %s\n"), code);
    return 0;
}

static int start(int argc, char **argv, bool resume)
{
    ClassOptions o = {0};
    int status = parse_options(argc, argv, &o, TAKES_SERVER);
    if (status >= 0)
        return status;
    if (!o.operand) {
        cli_error(resume ? "class resume needs a class's code or FILE.db" : "class start needs a LESSON file");
        return EXIT_USAGE;
    }
    char db_path[PATH_MAX];
    if (resume) {
        if (!database_of(o.operand, db_path, sizeof db_path))
            return EXIT_USAGE;
        o.setup.db_path = db_path;
    } else {
        o.setup.lesson_path = o.operand;
        char err[TEXT_MESSAGE_SIZE];
        Lesson *lesson = lesson_parse_file(o.operand, err, sizeof err); /* its mistakes are the teacher's: exit 2 */
        if (!lesson) {
            cli_say(err);
            return EXIT_USAGE;
        }
        lesson_destroy(lesson);
    }
    if (!o.serve)
        return start_in_background(&o);
    char err[TEXT_MESSAGE_SIZE];
    ClassServer *server = class_server_open(&o.setup, err, sizeof err);
    if (!server) {
        cli_error("%s", err);
        return 1;
    }
    return serve(server);
}

/* ---------------------------------------------------------------- report */

static void csv_field(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

/* The class's database (operand: CODE or FILE.db), read-only, its path in
 * db_path; NULL with one line said and *status the exit status. */
static sqlite3 *open_class_db(const char *operand, char *db_path, size_t size, int *status)
{
    *status = EXIT_USAGE;
    if (!database_of(operand, db_path, size))
        return NULL;
    sqlite3 *db = NULL;
    errno = 0;
    if (access(db_path, R_OK) != 0 || sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        cli_error("%s: cannot read: %s", cli_cut(db_path, CLI_CUT_PATH), errno ? strerror(errno) : "");
        sqlite3_close(db);
        *status = 1;
        return NULL;
    }
    sqlite3_busy_timeout(db, 2000);
    return db;
}

int class_histograms(const char *operand, int questions, int (*counts)[LESSON_MAX_CHOICES])
{
    char db_path[PATH_MAX];
    int status;
    sqlite3 *db = open_class_db(operand, db_path, sizeof db_path, &status);
    if (!db)
        return status;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT question, choice, count(*) FROM answers GROUP BY question, choice", -1, &st,
                           NULL) != SQLITE_OK) {
        cli_error("%s: not a class's database", cli_cut(db_path, CLI_CUT_PATH));
        sqlite3_close(db);
        return 1;
    }
    for (int q = 0; q < questions; q++)
        for (int c = 0; c < LESSON_MAX_CHOICES; c++)
            counts[q][c] = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int q = sqlite3_column_int(st, 0), c = sqlite3_column_int(st, 1);
        if (q >= 1 && q <= questions && c >= 1 && c <= LESSON_MAX_CHOICES)
            counts[q - 1][c - 1] = sqlite3_column_int(st, 2);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}

static int report(int argc, char **argv)
{
    ClassOptions o = {0};
    int status = parse_options(argc, argv, &o, TAKES_REPORT);
    if (status >= 0)
        return status;
    if (!o.operand) {
        cli_error("class report needs a class's code or FILE.db");
        return EXIT_USAGE;
    }
    char db_path[PATH_MAX];
    int opened;
    sqlite3 *db = open_class_db(o.operand, db_path, sizeof db_path, &opened);
    if (!db)
        return opened;
    /* the questions: the lesson's count, or the answers' highest */
    int questions = 0;
    char lesson_path[PATH_MAX] = "", code[CLASS_CODE_MAX + 1] = "";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT key, value FROM class", -1, &st, NULL) != SQLITE_OK) {
        cli_error("%s: not a class's database", cli_cut(db_path, CLI_CUT_PATH));
        sqlite3_close(db);
        return 1;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0), *value = (const char *)sqlite3_column_text(st, 1);
        if (key && value && strcmp(key, "lesson") == 0)
            snprintf(lesson_path, sizeof lesson_path, "%s", value);
        if (key && value && strcmp(key, "code") == 0)
            snprintf(code, sizeof code, "%s", value);
    }
    sqlite3_finalize(st);
    char err[TEXT_MESSAGE_SIZE];
    Lesson *lesson = *lesson_path ? lesson_parse_file(lesson_path, err, sizeof err) : NULL;
    int *page_of = NULL;
    if (lesson) {
        page_of = calloc((size_t)lesson->item_count + 1, sizeof *page_of);
        for (int i = 0; page_of && i < lesson->item_count; i++)
            if (lesson->items[i].kind == LESSON_QUESTION)
                page_of[questions++] = lesson_item_page(lesson, i) + 1;
    }
    if (sqlite3_prepare_v2(db, "SELECT max(question) FROM answers", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > questions)
            questions = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    if (o.csv)
        printf("student,question,page,choice,right\n");
    else {
        printf(_("class %s, %s\n"), code, lesson ? lesson->title : lesson_path);
        printf("%-20s", _("student"));
        for (int q = 1; q <= questions && q <= 40; q++)
            printf(" Q%-4d", q);
        printf("\n");
    }
    const char *query = "SELECT s.name, a.question, a.choice, a.right FROM students s LEFT JOIN answers a ON a.id = "
                        "s.id ORDER BY s.joined, s.id, a.question";
    int *right = calloc((size_t)questions + 1, sizeof *right), *given = calloc((size_t)questions + 1, sizeof *given);
    if (sqlite3_prepare_v2(db, query, -1, &st, NULL) == SQLITE_OK && right && given) {
        char current[96] = "";
        int column = 1;
        bool any = false;
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(st, 0);
            name = name ? name : "?";
            bool answered = sqlite3_column_type(st, 1) != SQLITE_NULL;
            int q = sqlite3_column_int(st, 1), choice = sqlite3_column_int(st, 2), ok = sqlite3_column_int(st, 3);
            if (o.csv) {
                if (!answered)
                    continue;
                csv_field(stdout, name);
                printf(",%d,%d,%d,%s\n", q, page_of && q <= questions && lesson && q >= 1 ? page_of[q - 1] : 0, choice,
                       ok < 0 ? ""
                       : ok   ? "1"
                              : "0");
                continue;
            }
            if (!any || strcmp(current, name) != 0) {
                if (any) {
                    for (; column <= questions && column <= 40; column++)
                        printf(" %-5s", ".");
                    printf("\n");
                }
                snprintf(current, sizeof current, "%s", name);
                printf("%-20.20s", name);
                column = 1;
                any = true;
            }
            if (!answered || q < 1 || q > questions)
                continue;
            for (; column < q && column <= 40; column++)
                printf(" %-5s", ".");
            char cell[16];
            snprintf(cell, sizeof cell, "%d%s", choice, ok < 0 ? "" : ok ? "+" : "-");
            if (q <= 40)
                printf(" %-5s", cell);
            column = q + 1;
            given[q]++;
            right[q] += ok > 0;
        }
        if (any && !o.csv) {
            for (; column <= questions && column <= 40; column++)
                printf(" %-5s", ".");
            printf("\n");
        }
        if (!o.csv) {
            printf("%-20s", _("right/answered"));
            for (int q = 1; q <= questions && q <= 40; q++) {
                char cell[16];
                snprintf(cell, sizeof cell, "%d/%d", right[q], given[q]);
                printf(" %-5s", cell);
            }
            printf("\n%s\n", _("a cell: the first answer, + right, - wrong, . none"));
        }
    }
    sqlite3_finalize(st);
    free(right);
    free(given);
    free(page_of);
    lesson_destroy(lesson);
    sqlite3_close(db);
    return 0;
}

/* ---------------------------------------------------------------- entry */

int class_main(int argc, char **argv)
{
    /* argv[0] is "class" */
    const char *command = argc > 1 ? argv[1] : "";
    if (strcmp(command, "start") == 0)
        return start(argc - 1, argv + 1, false);
    if (strcmp(command, "resume") == 0)
        return start(argc - 1, argv + 1, true);
    if (strcmp(command, "report") == 0)
        return report(argc - 1, argv + 1);
    if (strcmp(command, "join") == 0 || strcmp(command, "teach") == 0 || strcmp(command, "present") == 0 ||
        strcmp(command, "watch") == 0) {
        ClassOptions o = {0};
        bool present = strcmp(command, "present") == 0, join = present || strcmp(command, "join") == 0;
        /* join passes the lessons' screen options on (class_join) */
        int status = parse_options(argc - 1, argv + 1, &o, join ? TAKES_JOIN : TAKES_TEACH);
        if (status >= 0)
            return status;
        if (!o.operand || !class_code_valid(o.operand)) {
            if (o.operand)
                cli_error("'%s' is not a class's code (1 to 16 of a-z, 0-9, -)", cli_cut(o.operand, CLI_CUT_WORD));
            else
                cli_error("class %s needs the class's code", command);
            return EXIT_USAGE;
        }
        char folder[PATH_MAX], socket_path[PATH_MAX], err[TEXT_MESSAGE_SIZE];
        if (!class_socket_path(o.setup.dir, o.operand, folder, sizeof folder, socket_path, sizeof socket_path, err,
                               sizeof err)) {
            cli_say(err);
            return EXIT_USAGE;
        }
        if (strcmp(command, "watch") == 0)
            return class_watch(o.operand, socket_path);
        if (join)
            return class_join(o.operand, socket_path, present, argc - 1, argv + 1);
        return class_teach(o.operand, socket_path, argc - 1, argv + 1);
    }
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 || !*command) {
        if (!*command) {
            cli_error("class needs a command: start, resume, join, teach, present, watch or report");
            fputs(_(class_usage), stderr);
            return EXIT_USAGE;
        }
        printf("%s", _(class_usage));
        return 0;
    }
    cli_error("class: unknown command '%s' (start, resume, join, teach, present, watch or report)",
              cli_cut(command, CLI_CUT_WORD));
    return EXIT_USAGE;
}
