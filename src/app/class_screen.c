/* class_screen.c - the screens of a class session: the student's (class
 * join: the lesson player, linked to the class through class_link.h), the
 * teacher's (class teach: who joined, each one's page, the answers to the
 * question as they come in), the teacher's lesson on the projector (class
 * present: the student's player, its frames sent to the class) and a
 * watcher's (class watch: those frames, read-only). Curses calls only
 * through the sandbox's session (tui_session.h) and this file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "class_link.h"
#include "class_main.h"
#include "cli.h"
#include "config.h"
#include "i18n.h"
#include "lesson/lesson.h"
#include "lesson/parser.h"
#include "tui_lesson.h"
#include "tui_session.h"

/* ---------------------------------------------------------------- the student */

int class_join(const char *code, const char *socket_path, bool presenter, int argc, char **argv)
{
    /* argv[0] is "join"; the code and --dir are taken; the rest are the
     * lessons' screen options */
    Tui *tui = calloc(1, sizeof *tui);
    ClassLink *link = calloc(1, sizeof *link);
    if (!tui || !link) {
        free(tui);
        free(link);
        cli_error("out of memory");
        return 1;
    }
    tui_defaults(tui);
    int status = 0;
    if (!config_apply(tui, argc, argv))
        status = EXIT_USAGE;
    for (int i = 1; i < argc && !status; i++) {
        if (strcmp(argv[i], code) == 0)
            continue;
        if (strcmp(argv[i], "--dir") == 0) {
            i++;
            continue;
        }
        if (strncmp(argv[i], "--dir=", 6) == 0)
            continue;
        int matched = tui_screen_option(tui, argc, argv, &i);
        if (matched > 0)
            continue;
        if (matched == 0)
            cli_error("class %s: unknown option '%s' (clothsim class --help lists them)", argv[0],
                      cli_cut(argv[i], CLI_CUT_WORD));
        status = EXIT_USAGE;
    }
    char err[TEXT_MESSAGE_SIZE];
    if (!status && !class_link_open(link, code, socket_path, presenter, err, sizeof err)) {
        cli_error("class %s: %s", code, err);
        status = 1;
    }
    Lesson *lesson = NULL;
    if (!status) {
        lesson = lesson_parse_file(link->lesson_path, err, sizeof err);
        if (!lesson) {
            cli_say(err); /* the lesson is the teacher's; the student cannot read it, say */
            status = 1;
        }
    }
    if (!status) {
        tui_locale(tui);
        if (!tui_session_start(tui, err, sizeof err)) {
            cli_error("%s", err);
            status = tui->term.refused ? 2 : 1;
        } else {
            status = tui_class_lesson(tui, link, lesson);
            if (status < 0)
                status = 0;
            tui_session_stop(tui);
            if (status == 1 && tui->message[0])
                cli_error("%s", tui->message);
            if (link->pending_count)
                cli_error("class %s: %d answers did not reach the class (the server is gone)", code,
                          link->pending_count);
            if (tui->stats)
                tui_print_stats(tui);
        }
    }
    class_link_close(link);
    lesson_destroy(lesson);
    free(link);
    free(tui);
    return status;
}

/* ---------------------------------------------------------------- a watcher */

#define WATCH_PAIRS 240

/* What a watcher knows: the frame shown, the one coming in. */
typedef struct WatchScreen {
    ClassConn conn;
    const char *code;
    char frame[CLASS_LINK_FRAME_MAX], next[CLASS_LINK_FRAME_MAX];
    size_t frame_length, next_length;
    int width, height; /* the teacher's screen */
    int pairs[WATCH_PAIRS][2], pair_count;
    bool colours, gone;
} WatchScreen;

static int watch_pair(WatchScreen *w, int fg, int bg)
{
    if (!w->colours || (fg == CLASS_COLOUR_DEFAULT && bg == CLASS_COLOUR_DEFAULT))
        return 0;
    fg = fg == CLASS_COLOUR_DEFAULT ? -1 : fg < COLORS ? fg : fg % 8;
    bg = bg == CLASS_COLOUR_DEFAULT ? -1 : bg < COLORS ? bg : bg % 8;
    for (int k = 0; k < w->pair_count; k++)
        if (w->pairs[k][0] == fg && w->pairs[k][1] == bg)
            return k + 1;
    if (w->pair_count == WATCH_PAIRS || w->pair_count + 1 >= COLOR_PAIRS)
        return 0;
    w->pairs[w->pair_count][0] = fg;
    w->pairs[w->pair_count][1] = bg;
    init_pair((short)(w->pair_count + 1), (short)fg, (short)bg);
    return ++w->pair_count;
}

static void watch_take(WatchScreen *w, const char *line)
{
    size_t length = strlen(line);
    if (strncmp(line, "FRAME ", 6) == 0) {
        w->next_length = 0;
        if (sscanf(line + 6, "%d %d", &w->width, &w->height) != 2)
            w->width = w->height = 0;
    }
    if (w->next_length + length + 1 < sizeof w->next) {
        memcpy(w->next + w->next_length, line, length);
        w->next[w->next_length + length] = '\n';
        w->next_length += length + 1;
    }
    if (strcmp(line, "SHOW") == 0) {
        memcpy(w->frame, w->next, w->next_length);
        w->frame_length = w->next_length;
        w->next_length = 0;
    }
}

/* A line of the watcher's own, in the person's language: clipped by
 * columns, not bytes. */
static void watch_say(int y, const char *text, int attributes)
{
    wchar_t wide[300];
    size_t count = mbstowcs(wide, text, 299);
    if (count == (size_t)-1 || y < 0 || y >= LINES)
        return;
    move(y, 0);
    clrtoeol();
    attrset(attributes);
    mvaddnwstr(y, 0, wide, (int)count < COLS ? (int)count : COLS);
    attrset(A_NORMAL);
}

/* The frame, clipped to this terminal: the rows and columns beyond it are
 * not shown (80x24 fits every terminal). */
static void watch_draw(WatchScreen *w)
{
    erase();
    if (!w->frame_length) {
        char text[300];
        snprintf(text, sizeof text, _("class %s: waiting for the teacher's screen (class present)  q quits"), w->code);
        watch_say(0, text, A_DIM);
    }
    char line[CLASS_LINE_MAX];
    for (size_t start = 0, end; start < w->frame_length; start = end + 1) {
        end = start;
        while (end < w->frame_length && w->frame[end] != '\n')
            end++;
        if (end - start >= sizeof line || strncmp(w->frame + start, "ROW ", 4) != 0)
            continue;
        memcpy(line, w->frame + start, end - start);
        line[end - start] = '\0';
        int y, x, fg, bg, look, at = 0;
        if (sscanf(line, "ROW %d %d %d %d %d %n", &y, &x, &fg, &bg, &look, &at) != 5 || !at ||
            !class_text_decode(line + at) || y < 0 || y >= LINES || x < 0 || x >= COLS)
            continue;
        wchar_t text[CLASS_LINE_MAX];
        size_t count = mbstowcs(text, line + at, CLASS_LINE_MAX - 1);
        if (count == (size_t)-1)
            continue;
        for (size_t k = 0; k < count; k++)
            if (text[k] < L' ' || (text[k] >= 0x7f && text[k] < 0xa0))
                text[k] = L'?'; /* no control reaches the terminal */
        attr_t attributes = (look & CLASS_BOLD ? A_BOLD : 0) | (look & CLASS_DIM ? A_DIM : 0) |
                            (look & CLASS_REVERSE ? A_REVERSE : 0) | (look & CLASS_UNDERLINE ? A_UNDERLINE : 0);
        attr_set(attributes, (short)watch_pair(w, fg, bg), NULL);
        mvaddnwstr(y, x, text, (int)count < COLS - x ? (int)count : COLS - x);
        attrset(A_NORMAL);
    }
    if (w->gone)
        watch_say(LINES - 1, _("the class is over: q quits"), A_REVERSE);
    wnoutrefresh(stdscr);
    doupdate();
}

/* Connects to the class at socket_path and says who this is (role:
 * "teacher", "watcher"); false with one line said. */
static bool hello(ClassConn *conn, const char *socket_path, const char *code, const char *role)
{
    char err[TEXT_MESSAGE_SIZE] = "the class's server closed the connection";
    if (class_conn_open(conn, socket_path, err, sizeof err) && class_conn_send(conn, "HELLO %s %s", code, role))
        return true;
    cli_error("class %s: %s", code, err);
    return false;
}

int class_watch(const char *code, const char *socket_path)
{
    WatchScreen *w = calloc(1, sizeof *w);
    Tui *tui = calloc(1, sizeof *tui);
    if (!w || !tui) {
        free(w);
        free(tui);
        cli_error("out of memory");
        return 1;
    }
    w->code = code;
    tui_defaults(tui);
    char err[TEXT_MESSAGE_SIZE], line[CLASS_LINE_MAX];
    int status = 0;
    if (!hello(&w->conn, socket_path, code, "watcher")) {
        status = 1;
    } else if (!class_conn_wait_line(&w->conn, line, sizeof line, 5000) || strcmp(line, "READY") != 0) {
        cli_error("class %s refused: %s", code, strncmp(line, "ERR ", 4) == 0 ? line + 4 : line);
        status = 1;
    }
    if (!status) {
        tui_locale(tui);
        if (!tui_session_start(tui, err, sizeof err)) {
            cli_error("%s", err);
            status = tui->term.refused ? 2 : 1;
        } else {
            w->colours = has_colors();
            bool quit = false;
            while (!quit) {
                int sig = tui_term_quit_signal();
                if (sig) {
                    status = 128 + sig;
                    break;
                }
                tui_term_take_resize(&tui->term);
                watch_draw(w);
                tui->term.other_fd = w->gone ? 0 : w->conn.fd;
                TuiWait waited = tui_term_wait(&tui->term, 1000);
                tui->term.other_fd = 0;
                if (waited == WAIT_HANGUP)
                    break;
                if (waited == WAIT_INPUT) {
                    int key; /* q quits; nothing else does anything, nor is sent */
                    while ((key = tui_read_key()) != ERR)
                        quit = quit || key == 'q' || key == 'Q' || key == 4;
                }
                if (!w->gone) {
                    bool alive = class_conn_read(&w->conn);
                    while (class_conn_line(&w->conn, line, sizeof line))
                        watch_take(w, line);
                    w->gone = !alive || w->conn.eof;
                }
            }
            tui_session_stop(tui);
        }
    }
    class_conn_close(&w->conn);
    free(w);
    free(tui);
    return status;
}

/* ---------------------------------------------------------------- the teacher */

#define TEACH_STUDENTS 256
#define TEACH_QUESTIONS 64

typedef struct TeachStudent {
    char id[48], name[64];
    int page;
    bool online;
    signed char choice[TEACH_QUESTIONS]; /* the first try, from 1; 0 none */
} TeachStudent;

/* What the teacher's screen knows of the class: what the server said. */
typedef struct TeachScreen {
    Tui *tui;
    ClassConn conn;
    const char *code;
    Lesson *lesson;
    int question_item[TEACH_QUESTIONS]; /* the lesson's question items */
    int question_count;
    TeachStudent students[TEACH_STUDENTS];
    int student_count;
    int class_page, hold, shown; /* the question shown (from 1) */
    bool revealed[TEACH_QUESTIONS + 1];
    bool ended, end_asked, gone;
    char message[200];
} TeachScreen;

static TeachStudent *teach_student(TeachScreen *t, const char *id)
{
    for (int k = 0; k < t->student_count; k++)
        if (strcmp(t->students[k].id, id) == 0)
            return &t->students[k];
    if (t->student_count == TEACH_STUDENTS)
        return NULL;
    TeachStudent *s = &t->students[t->student_count++];
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", id);
    snprintf(s->name, sizeof s->name, "%s", id);
    return s;
}

/* The question the screen shows: the one held, else the first on the
 * class's page, else the one chosen. */
static void teach_follow(TeachScreen *t)
{
    if (t->hold) {
        t->shown = t->hold;
        return;
    }
    for (int q = 0; q < t->question_count; q++)
        if (lesson_item_page(t->lesson, t->question_item[q]) + 1 == t->class_page) {
            t->shown = q + 1;
            return;
        }
}

static void teach_take(TeachScreen *t, char *line)
{
    char *w[CLASS_WORDS_MAX];
    int n = class_split(line, w);
    if (n <= 0)
        return;
    TeachStudent *s;
    if ((strcmp(w[0], "STUDENT") == 0 && n == 5) || (strcmp(w[0], "JOIN") == 0 && n == 3)) {
        if ((s = teach_student(t, w[1]))) {
            snprintf(s->name, sizeof s->name, "%s", w[n - 1]);
            s->online = n == 3 || atoi(w[3]) > 0;
            if (n == 5)
                s->page = atoi(w[2]);
        }
    } else if (strcmp(w[0], "LEAVE") == 0 && n == 2) {
        if ((s = teach_student(t, w[1])))
            s->online = false;
    } else if (strcmp(w[0], "PAGE") == 0 && n == 3) {
        if ((s = teach_student(t, w[1])))
            s->page = atoi(w[2]);
    } else if (strcmp(w[0], "VOTE") == 0 && n == 5) {
        int q = atoi(w[2]);
        if ((s = teach_student(t, w[1])) && q >= 1 && q <= TEACH_QUESTIONS)
            s->choice[q - 1] = (signed char)atoi(w[3]);
    } else if ((strcmp(w[0], "CLASSPAGE") == 0 || strcmp(w[0], "GOTO") == 0) && n == 2) {
        t->class_page = atoi(w[1]);
        teach_follow(t);
    } else if (strcmp(w[0], "HOLD") == 0 && n == 2) {
        t->hold = atoi(w[1]);
        teach_follow(t);
    } else if (strcmp(w[0], "REVEAL") == 0 && n >= 2) {
        int q = atoi(w[1]);
        if (q >= 1 && q <= TEACH_QUESTIONS)
            t->revealed[q] = true;
    } else if (strcmp(w[0], "END") == 0) {
        t->ended = true;
    } else if (strcmp(w[0], "ERR") == 0) {
        snprintf(t->message, sizeof t->message, "%s", line + 4);
    }
}

static void put(int y, int x, int width, const char *text, int attributes)
{
    if (y < 0 || y >= LINES || x >= COLS)
        return;
    attrset(attributes);
    mvaddnstr(y, x, text, width < COLS - x ? width : COLS - x);
    attrset(A_NORMAL);
}

static void teach_draw(TeachScreen *t)
{
    erase();
    char text[400];
    int here = 0;
    for (int k = 0; k < t->student_count; k++)
        here += t->students[k].online;
    snprintf(text, sizeof text, _("class %s  %s  page %d/%d  %d joined, %d here"), t->code, t->lesson->title,
             t->class_page ? t->class_page : 1, t->lesson->page_count, t->student_count, here);
    put(0, 1, COLS - 2, text, A_BOLD);
    int y = 2;
    if (t->shown >= 1 && t->shown <= t->question_count) {
        const LessonItem *q = &t->lesson->items[t->question_item[t->shown - 1]];
        int counts[9] = {0}, answered = 0, most = 1;
        for (int k = 0; k < t->student_count; k++) {
            int c = t->students[k].choice[t->shown - 1];
            if (c >= 1 && c <= q->choice_count && c <= 9) {
                counts[c - 1]++;
                answered++;
            }
        }
        for (int c = 0; c < q->choice_count && c < 9; c++)
            most = counts[c] > most ? counts[c] : most;
        snprintf(text, sizeof text, _("question %d of %d (page %d): %s"), t->shown, t->question_count,
                 lesson_item_page(t->lesson, t->question_item[t->shown - 1]) + 1, q->text);
        put(y++, 1, COLS - 2, text, A_BOLD);
        snprintf(text, sizeof text, _("%d of %d answered  %s  %s"), answered, t->student_count,
                 t->hold == t->shown ? _("HELD: the run waits") : _("not held"),
                 t->revealed[t->shown] ? _("revealed to the class") : _("hidden from the students"));
        put(y++, 3, COLS - 4, text, t->hold == t->shown ? A_BOLD : A_NORMAL);
        int bar_width = COLS - 34 > 10 ? COLS - 34 : 10;
        for (int c = 0; c < q->choice_count && c < 9; c++) {
            snprintf(text, sizeof text, "%d %-20.20s", c + 1, q->choices[c].text);
            put(y, 3, 24, text, c == q->answer ? A_BOLD : A_NORMAL);
            int cells = counts[c] * bar_width / most;
            attrset(A_REVERSE);
            for (int x = 0; x < cells && 28 + x < COLS; x++)
                mvaddch(y, 28 + x, ' ');
            attrset(A_NORMAL);
            snprintf(text, sizeof text, " %d", counts[c]);
            put(y, 28 + cells, 6, text, A_NORMAL);
            y++;
        }
    } else {
        put(y++, 1, COLS - 2, _("no question on this page (n and p choose one)"), A_NORMAL);
    }
    y++;
    /* the students: page, and each first try (the teacher's eyes only) */
    snprintf(text, sizeof text, "%-16s %5s  ", _("student"), _("page"));
    int column = (int)strlen(text);
    for (int q = 1; q <= t->question_count && column + 3 * q < COLS; q++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%-3d", q);
    put(y++, 1, COLS - 2, text, A_UNDERLINE);
    int rows = LINES - 2 - y;
    int shown = t->student_count < rows ? t->student_count : rows > 0 ? rows - 1 : 0;
    for (int k = 0; k < shown; k++) {
        const TeachStudent *s = &t->students[k];
        snprintf(text, sizeof text, "%-16.16s %5d  ", s->name, s->page);
        for (int q = 0; q < t->question_count && column + 3 * (q + 1) < COLS; q++)
            snprintf(text + strlen(text), sizeof text - strlen(text), "%-3c", s->choice[q] ? '0' + s->choice[q] : '.');
        put(y++, 1, COLS - 2, text, s->online ? A_NORMAL : A_DIM);
    }
    if (shown < t->student_count) {
        snprintf(text, sizeof text, _("... and %d more (class report lists them all)"), t->student_count - shown);
        put(y++, 1, COLS - 2, text, A_DIM);
    }
    const char *keys = t->end_asked          ? _("E again ends the class for everyone; any other key does not")
                       : t->gone || t->ended ? _("the class is over: q quits")
                                             : _("h hold  r reveal  n/p question  Right/Left page  E end  q leave");
    put(LINES - 1, 1, COLS - 2, t->message[0] ? t->message : keys, A_DIM);
    wnoutrefresh(stdscr);
    doupdate();
}

static void teach_key(TeachScreen *t, int key, bool *quit)
{
    t->message[0] = '\0';
    if (t->end_asked) {
        t->end_asked = false;
        if (key == 'E')
            class_conn_send(&t->conn, "END");
        return;
    }
    int last_page = t->lesson->page_count;
    switch (key) {
    case 'q':
    case 4:
        *quit = true;
        break;
    case KEY_RIGHT:
        if (t->class_page < last_page)
            class_conn_send(&t->conn, "GOTO %d", t->class_page < 1 ? 2 : t->class_page + 1);
        break;
    case KEY_LEFT:
        if (t->class_page > 1)
            class_conn_send(&t->conn, "GOTO %d", t->class_page - 1);
        break;
    case 'n':
        if (t->shown < t->question_count)
            t->shown++;
        break;
    case 'p':
        if (t->shown > 1)
            t->shown--;
        break;
    case 'h':
        if (t->shown >= 1)
            class_conn_send(&t->conn, "HOLD %d", t->hold == t->shown ? 0 : t->shown);
        break;
    case 'r':
        if (t->shown >= 1)
            class_conn_send(&t->conn, "REVEAL %d", t->shown);
        break;
    case 'E':
        t->end_asked = true;
        break;
    default:
        break;
    }
}

int class_teach(const char *code, const char *socket_path, int argc, char **argv)
{
    (void)argc, (void)argv;
    TeachScreen *t = calloc(1, sizeof *t);
    Tui *tui = calloc(1, sizeof *tui);
    if (!t || !tui) {
        free(t);
        free(tui);
        cli_error("out of memory");
        return 1;
    }
    t->code = code;
    t->tui = tui;
    tui_defaults(tui);
    char err[TEXT_MESSAGE_SIZE], line[CLASS_LINE_MAX];
    int status = 0;
    if (!hello(&t->conn, socket_path, code, "teacher")) {
        status = 1;
    }
    /* the state, up to READY, before the screen is taken */
    bool ready = false;
    while (!status && !ready) {
        if (!class_conn_wait_line(&t->conn, line, sizeof line, 5000)) {
            cli_error("class %s: the class does not answer", code);
            status = 1;
        } else if (strncmp(line, "ERR ", 4) == 0) {
            cli_error("class %s refused: %s", code, line + 4);
            status = 1;
        } else if (strncmp(line, "LESSON ", 7) == 0) {
            t->lesson = lesson_parse_file(line + 7, err, sizeof err);
            if (!t->lesson) {
                cli_say(err);
                status = 1;
            }
        } else if (strcmp(line, "READY") == 0) {
            ready = true;
        } else if (t->lesson) {
            teach_take(t, line);
        }
    }
    if (!status && !t->lesson) {
        cli_error("class %s: the class named no lesson", code);
        status = 1;
    }
    if (!status) {
        for (int i = 0; i < t->lesson->item_count && t->question_count < TEACH_QUESTIONS; i++)
            if (t->lesson->items[i].kind == LESSON_QUESTION)
                t->question_item[t->question_count++] = i;
        if (!t->shown && t->question_count)
            t->shown = 1;
        teach_follow(t);
        tui_locale(tui);
        if (!tui_session_start(tui, err, sizeof err)) {
            cli_error("%s", err);
            status = tui->term.refused ? 2 : 1;
        } else {
            bool quit = false;
            while (!quit) {
                int sig = tui_term_quit_signal();
                if (sig) {
                    status = 128 + sig;
                    break;
                }
                tui_term_take_resize(&tui->term);
                teach_draw(t);
                tui->term.other_fd = t->gone ? 0 : t->conn.fd;
                TuiWait waited = tui_term_wait(&tui->term, 1000);
                tui->term.other_fd = 0;
                if (waited == WAIT_HANGUP)
                    break;
                if (waited == WAIT_INPUT) {
                    int key;
                    while ((key = tui_read_key()) != ERR && !quit)
                        if (!t->gone)
                            teach_key(t, key, &quit);
                        else
                            quit = key == 'q' || key == 4;
                }
                if (!t->gone) {
                    bool alive = class_conn_read(&t->conn);
                    while (class_conn_line(&t->conn, line, sizeof line))
                        teach_take(t, line);
                    if (!alive || t->conn.eof)
                        t->gone = true;
                }
            }
            tui_session_stop(tui);
            if (!t->gone && !t->ended && status == 0)
                printf(_("class %s goes on: clothsim class teach %s comes back to it\n"), code, code);
        }
    }
    class_conn_close(&t->conn);
    lesson_destroy(t->lesson);
    free(t);
    free(tui);
    return status;
}
