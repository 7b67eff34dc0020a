/* test_lesson_screen.c - every page of the course, in both languages, laid
 * out as the player lays it out at 80x24 and at 110x34, without a terminal
 * (tui_lesson_offscreen_*: the player's own drawing into its canvases). At
 * each stop of each page (a question asked, a pause, free play, the page's
 * end) the screen must show a question's choices whole and in one column
 * above the fold, the feedback on the answer once it is given, and every
 * pane's readouts (its label, the values it points at, the numbers shown
 * large) as drawn, nothing written over them; at the lesson's end, its exit
 * question whole without scrolling. The walk answers each question wrong, so
 * that the feedback shown is a wrong choice's. */
#include <criterion/criterion.h>
#include <glob.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/i18n.h"
#include "app/tui_lesson.h"
#include "app/tui_session.h"
#include "app/tui_text.h"
#include "lesson/lesson.h"
#include "lesson/parser.h"
#include "lesson/player.h"
#include "lesson/run_cache.h"

static const int sizes[][2] = {{80, 24}, {110, 34}};

/* Row y of canvas c as UTF-8 text. */
static void row_text(const Canvas *c, int y, char *out, size_t size)
{
    size_t n = 0;
    for (int x = 0; x < c->width && n + 5 < size; x++) {
        uint32_t g = c->cells[(size_t)y * (size_t)c->width + (size_t)x].glyph;
        if (g < 0x20)
            g = ' ';
        if (g < 0x80)
            out[n++] = (char)g;
        else if (g < 0x800)
            out[n++] = (char)(0xC0 | (g >> 6)), out[n++] = (char)(0x80 | (g & 0x3F));
        else
            out[n++] = (char)(0xE0 | (g >> 12)), out[n++] = (char)(0x80 | ((g >> 6) & 0x3F)),
            out[n++] = (char)(0x80 | (g & 0x3F));
    }
    out[n] = '\0';
}

/* The row of c where text starts (its first up to 24 bytes, cut at a whole
 * character), and *column the byte offset in that row; -1 if none. */
static int find_row(const Canvas *c, const char *text, int *column)
{
    char want[32], row[1024];
    size_t n = strlen(text) < 24 ? strlen(text) : 24;
    while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
        n--;
    memcpy(want, text, n);
    want[n] = '\0';
    for (int y = 0; y < c->height; y++) {
        row_text(c, y, row, sizeof row);
        const char *at = strstr(row, want);
        if (at) {
            if (column)
                *column = (int)(at - row);
            return y;
        }
    }
    return -1;
}

/* Cells of a UTF-8 prefix of a row: the column a byte offset stands at. */
static int cells_before(const Canvas *c, int y, int bytes)
{
    char row[1024];
    row_text(c, y, row, sizeof row);
    int cells = 0;
    for (int k = 0; k < bytes && row[k]; k++)
        cells += ((unsigned char)row[k] & 0xC0) != 0x80;
    return cells;
}

/* The row of c whose text ends (but for blanks and a border) with text,
 * as a number shown large is set, right-aligned; *column its byte offset. */
static int find_right(const Canvas *c, const char *text, int *column)
{
    char row[1024];
    size_t n = strlen(text);
    for (int y = 0; y < c->height; y++) {
        row_text(c, y, row, sizeof row);
        size_t len = strlen(row);
        while (len > 0 && row[len - 1] == ' ')
            len--;
        if (len >= 3 && strncmp(row + len - 3, "\u2503", 3) == 0) /* an exploded pane's border */
            len -= 3;
        while (len > 0 && row[len - 1] == ' ')
            len--;
        if (len >= n && memcmp(row + len - n, text, n) == 0) {
            *column = (int)(len - n);
            return y;
        }
    }
    return -1;
}

typedef struct Where {
    const char *file;
    int page, cols, rows;
    const char *stop;
} Where;

static int failures;

#define FAIL(w, ...)                                                                                                   \
    do {                                                                                                               \
        failures++;                                                                                                    \
        char what_[400];                                                                                               \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                                                    \
        cr_log_error("%s page %d at %dx%d (%s): %s", (w)->file, (w)->page + 1, (w)->cols, (w)->rows, (w)->stop,        \
                     what_);                                                                                           \
    } while (0)

static int dumps;

static void dump(const Canvas *c)
{
    if (dumps++ >= 6) /* the first few screens are enough to see what went wrong */
        return;
    char row[1024];
    for (int y = 0; y < c->height; y++) {
        row_text(c, y, row, sizeof row);
        cr_log_error("|%s", row);
    }
}

/* The question of this page on the panel: each choice's first line whole,
 * one to a row, at the left; and the feedback once it is shown. */
static void check_question(const Tui *tui, const LessonPlayer *player, const Where *w)
{
    const LessonItem *q = lesson_player_question(player);
    if (!q && player->state == LESSON_ASKING)
        q = &player->lesson->items[player->item];
    if (!q)
        return;
    const Canvas *panel = tui->panel;
    bool bad = false;
    for (int c = 0; c < q->choice_count && player->state == LESSON_ASKING; c++) {
        char text[64];
        snprintf(text, sizeof text, "%d  %s", c + 1, q->choices[c].text);
        int column = -1, y = find_row(panel, text, &column);
        if (y < 0) {
            FAIL(w, "choice %d is not on the screen (below the fold?)", c + 1);
            bad = true;
        } else if (cells_before(panel, y, column) > 4) {
            FAIL(w, "choice %d stands at column %d: a second column", c + 1, cells_before(panel, y, column));
            bad = true;
        }
    }
    const char *feedback = lesson_player_feedback_ready(player) ? lesson_player_feedback(player) : NULL;
    if (player->answer >= 0 && feedback) {
        /* after "Not quite. ", on the feedback's first row */
        char start[32];
        snprintf(start, sizeof start, "%.16s", feedback);
        if (find_row(panel, start, NULL) < 0) {
            FAIL(w, "the feedback '%s' is not on the screen", feedback);
            bad = true;
        }
    }
    if (bad)
        dump(panel);
}

/* A homework waited on: its task whole on the panel, to its last words. */
static void check_homework(const Tui *tui, const LessonPlayer *player, const Where *w)
{
    const LessonItem *h = lesson_player_pause(player);
    if (!h || h->kind != LESSON_HOMEWORK)
        return;
    const char *text = h->text, *end = text + strlen(text);
    const char *last = end;
    while (last > text && last[-1] != ' ') /* its last word */
        last--;
    if (find_row(tui->panel, last, NULL) < 0) {
        FAIL(w, "the homework's task is cut before '%s'", last);
        dump(tui->panel);
    }
}

/* Each pane's readouts as drawn: the label on its first row, each value the
 * page points at, each number shown large (its label, and its digits
 * nothing but the big font's blocks). */
static void check_readouts(const Tui *tui, const Where *w)
{
    for (int i = 0; i < tui->pane_count; i++) {
        const TuiPane *pane = &tui->panes[i];
        const Canvas *view = pane->view;
        bool bad = false;
        int column;
        if (pane->label[0] && tui_text_cells(pane->label) + 2 <= view->width && !strchr(pane->label, '=') &&
            find_row(view, pane->label, &column) != 0) {
            FAIL(w, "pane %d's label '%s' is not whole on its first row", i + 1, pane->label);
            bad = true;
        }
        /* the note's parts, split at double blanks as drawn */
        const char *p = pane->note;
        while (*p) {
            const char *end = strstr(p, "  ");
            size_t n = end ? (size_t)(end - p) : strlen(p);
            char part[64];
            snprintf(part, sizeof part, "%.*s", (int)(n < 63 ? n : 63), p);
            if (tui_text_cells(part) + 2 <= view->width && find_row(view, part, NULL) < 0) {
                FAIL(w, "pane %d's readout '%s' is covered", i + 1, part);
                bad = true;
            }
            p += n;
            while (*p == ' ')
                p++;
        }
        for (int k = 0; k < pane->big_count; k++) {
            char line[200];
            snprintf(line, sizeof line, "%s %s", pane->big_label[k], pane->big_value[k]);
            if (find_right(view, line, &column) >= 0)
                continue; /* the one-line form: label and value whole */
            int y = find_right(view, pane->big_label[k], &column), below;
            if (y >= 0 && (below = find_right(view, pane->big_value[k], &column)) == y + 1)
                continue; /* the two-line form: the label over the value */
            y = find_right(view, pane->big_label[k], &column);
            if (y < 0) {
                FAIL(w, "pane %d's number '%s' (%s) is covered or cut", i + 1, pane->big_label[k], pane->big_value[k]);
                bad = true;
                continue;
            }
            /* the big form: three rows under the label, right-aligned, of blocks only */
            int x0 = cells_before(view, y, column);
            for (int r = y + 1; r <= y + 3 && r < view->height; r++)
                for (int x = x0; x < view->width - 1; x++) { /* the last column: a border's */
                    uint32_t g = view->cells[(size_t)r * (size_t)view->width + (size_t)x].glyph;
                    if (g != ' ' && g != 0x2580 && g != 0x2584 && g != 0x2588 && g != '#' && g != '"' && g != '_' &&
                        !(g >= 0x2800 && g <= 0x28FF)) {
                        FAIL(w, "pane %d's large '%s' has '%lc' written over it", i + 1, pane->big_value[k], (wint_t)g);
                        bad = true;
                        r = y + 4;
                        break;
                    }
                }
        }
        if (bad)
            dump(view);
    }
}

static void check_screen(Tui *tui, LessonScreen *screen, const LessonPlayer *player, const Where *w)
{
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        Where at = *w;
        at.cols = sizes[s][0], at.rows = sizes[s][1];
        tui->term.cols = at.cols, tui->term.rows = at.rows;
        /* a message of the player's (a key's answer) is shown too: never over a readout */
        snprintf(tui->message, sizeof tui->message, "%s", "resumed at page 2 of 6 (Left goes back, r replays)");
        tui_lesson_offscreen_draw(screen);
        check_question(tui, player, &at);
        check_homework(tui, player, &at);
        check_readouts(tui, &at);
    }
}

/* The lesson's end: its exit question whole on the panel without scrolling
 * (the class answers it on its way out; a teacher reads it off the screen). */
static void check_end(Tui *tui, LessonScreen *screen, const Lesson *lesson, const char *path)
{
    if (!lesson->exit_question)
        return;
    char first[512];
    snprintf(first, sizeof first, _("Exit question: %s"), lesson->exit_question);
    const char *end = lesson->exit_question + strlen(lesson->exit_question), *last = end;
    while (last > lesson->exit_question && last[-1] != ' ') /* its last word */
        last--;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        Where w = {path, lesson->page_count - 1, sizes[s][0], sizes[s][1], "the end"};
        tui->term.cols = w.cols, tui->term.rows = w.rows;
        tui->message[0] = '\0';
        tui_lesson_offscreen_draw(screen);
        int top = find_row(tui->panel, first, NULL), bottom = find_row(tui->panel, last, NULL);
        if (top < 0 || bottom < top) {
            FAIL(&w, "the exit question is not on the screen whole (below the fold?)");
            dump(tui->panel);
        }
    }
}

static const char *const stop_names[] = {"a run", "a pause", "a question", "free play", "the page's end", "the end"};

/* Plays the lesson at path to its end, checking each stop. */
static void walk(const char *path, RunCache *cache)
{
    char err[512];
    Lesson *lesson = lesson_parse_file(path, err, sizeof err);
    cr_assert(lesson, "%s", err);
    LessonPlayer *player = lesson_player_create(lesson);
    cr_assert(player);
    player->run_cache = cache;
    Tui *tui = calloc(1, sizeof *tui);
    cr_assert(tui);
    tui_defaults(tui);
    tui->utf8 = true;
    tui->term.cols = 80, tui->term.rows = 24;
    LessonScreen *screen = tui_lesson_offscreen_create(tui, lesson, player);
    cr_assert(screen);
    int guard = 0;
    while (player->state != LESSON_FINISHED && guard++ < 2000) {
        Where w = {path, player->page, 0, 0, stop_names[player->state]};
        switch (player->state) {
        case LESSON_RUNNING:
            cr_assert(lesson_player_finish(player));
            break;
        case LESSON_ASKING: {
            check_screen(tui, screen, player, &w);
            const LessonItem *q = &lesson->items[player->item];
            int wrong = q->answer == 0 ? 1 : 0; /* a wrong choice, or the first of an ungraded one */
            cr_assert(lesson_player_answer(player, wrong));
            break;
        }
        default:
            check_screen(tui, screen, player, &w);
            cr_assert(lesson_player_next(player));
            break;
        }
    }
    check_end(tui, screen, lesson, path);
    tui_lesson_offscreen_destroy(screen);
    free(tui);
    lesson_player_destroy(player);
    lesson_destroy(lesson);
}

static void walk_course(const char *pattern, RunCache *cache)
{
    glob_t g;
    cr_assert_eq(glob(pattern, 0, NULL, &g), 0, "no lessons at %s", pattern);
    for (size_t k = 0; k < g.gl_pathc; k++)
        walk(g.gl_pathv[k], cache);
    globfree(&g);
}

/* Both courses, the lessons whose names match the patterns (at most two),
 * the Ukrainian after the English, playing the same runs from one cache.
 * The course is walked in four parts, each a test of its own, so that the
 * suite's workers share the walk. The sanitizer build steps the physics some
 * ten times slower: there the first part takes lessons 1 and 3 of each
 * course (questions, explosions, numbers shown large and in a line), which
 * exercise every part of the drawing, and the others do nothing. */
static void walk_both(const char *first, const char *second)
{
#ifdef __SANITIZE_ADDRESS__
    if (strcmp(first, "0[1-4]-*.lesson") != 0)
        cr_skip_test("the sanitizer build walks lessons 1 and 3 only (the first part)");
    first = "0[13]-*.lesson";
    second = NULL;
#endif
    RunCache *cache = run_cache_create(RUN_CACHE_BUDGET); /* the Ukrainian course plays the same runs */
    cr_assert(cache);
    char pattern[256];
    for (int uk = 0; uk < 2; uk++) {
        setenv("LC_ALL", uk ? "uk_UA.UTF-8" : "C.UTF-8", 1);
        i18n_init();
        if (uk && strcmp(_("this help"), "this help") == 0)
            cr_log_warn("no Ukrainian catalogue: the Ukrainian course is laid out with English interface words");
        for (int k = 0; k < 2; k++) {
            const char *name = k ? second : first;
            if (!name)
                continue;
            snprintf(pattern, sizeof pattern, "%s/lessons/%s%s", CLOTHSIM_SRCDIR, uk ? "uk/" : "", name);
            walk_course(pattern, cache);
        }
    }
    run_cache_destroy(cache);
    cr_expect_eq(failures, 0,
                 "%d places where the screen hides a choice, splits them, covers a readout or hides the exit question",
                 failures);
}

Test(lesson_screen, lessons_1_to_4_show_their_choices_in_one_column_and_their_readouts_whole_in_both_languages,
     .timeout = 120)
{
    walk_both("0[1-4]-*.lesson", NULL);
}

Test(lesson_screen, lessons_5_to_8_show_their_choices_in_one_column_and_their_readouts_whole_in_both_languages,
     .timeout = 120)
{
    walk_both("0[5-8]-*.lesson", NULL);
}

Test(lesson_screen, lessons_9_to_12_show_their_choices_in_one_column_and_their_readouts_whole_in_both_languages,
     .timeout = 120)
{
    walk_both("09-*.lesson", "1[0-2]-*.lesson");
}

Test(lesson_screen, lessons_13_to_16_show_their_choices_in_one_column_and_their_readouts_whole_in_both_languages,
     .timeout = 120)
{
    walk_both("1[3-6]-*.lesson", NULL);
}
