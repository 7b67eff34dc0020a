/* tui_lesson.c - the lesson player in the terminal, and the lesson menu of
 * `clothsim learn`.
 *
 * A lesson is played by a LessonPlayer (src/lesson/player.h), which owns the
 * panes' solvers and knows nothing of terminals or clocks; this file gives it
 * the real time that passes and the keys, and shows it through the sandbox's
 * own pieces: the same terminal session, the same TuiPane views and plots
 * (each pane borrows the player's solver), the same help overlay. Only the
 * side panel differs: it holds the narration, wrapped by display width and
 * scrollable, with the question, the pause prompt, the run's progress or the
 * free-play sliders under it.
 *
 * The clock: while a run or free play goes on, each frame passes the
 * monotonic time since the last one (at most TUI_LESSON_MAX_GAP) to
 * lesson_player_tick, which steps the panes at the run's speed. Otherwise the
 * loop blocks in poll() on the keyboard and uses no CPU.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class_link.h"
#include "cli.h"
#include "config.h"
#include "i18n.h"
#include "lesson/parser.h"
#include "lesson/player.h"
#include "lesson/view.h"
#include "lesson_menu.h"
#include "progress.h"
#include "class_present.h"
#include "tui_camera.h"
#include "tui_draw.h"
#include "tui_lesson.h"
#include "tui_panes.h"
#include "tui_scales.h"
#include "tui_session.h"
#include "tui_sliders.h"

/* How long a turn of the loop finishes a skipped run before it looks at
 * keys and signals again, s. */
#define TUI_LESSON_SLICE 0.03
/* A longer gap between frames (a stopped process) is not caught up, s. */
#define TUI_LESSON_MAX_GAP 0.25
#define NARRATION_MAX_LINES 600
#define NARRATION_LINE_BYTES 320

/* clang-format off */
const char *const tui_lesson_key_help[] = {
    "Enter Right", N_("next: go on, skip, next page"),
    "Left",       N_("previous page"),
    "r",          N_("replay this page; in free play: reset, keep settings"),
    "R",          N_("replay this page"),
    "Space",      N_("pause / resume the run"),
    "1 .. 9",     N_("answer the question"),
    "Up Down",    N_("scroll the text; in free play: choose a setting"),
    "Left Right", N_("in free play: change it"),
    "PgUp PgDn",  N_("scroll the text"),
    "B",          N_("light / dark background"),
    "?",          N_("this help"),
    "q  Ctrl-D",  N_("quit the lesson"),
    NULL,         NULL,
};
/* clang-format on */

typedef struct NarrationLine {
    char text[NARRATION_LINE_BYTES];
    int indent;
    uint8_t fg, attr;
} NarrationLine;

typedef struct LessonScreen {
    Tui *tui;
    const char *path;
    Lesson *lesson;
    LessonPlayer *player;
    Progress *progress;
    bool paused;
    bool skipping;         /* Enter during a run: finishing it, a slice each turn of the loop */
    int selected;          /* free play: the unlocked key chosen */
    int scroll;            /* the first narration line shown */
    bool scrolled_by_hand; /* Up, Down, PgUp or PgDn since the page or its state last changed */
    bool follow;           /* keep the newest line in view */
    int seen_page, seen_item, seen_state;
    const Solver *solvers[TUI_MAX_PANES]; /* what the TuiPanes show */
    const Cloth *cloths[TUI_MAX_PANES];
    double last_time;
    double time_counted; /* when the time spent was last added to the progress */
    int homework_item;   /* the homework the number below is typed for, or -1 */
    char homework_input[12];
    char homework_last[12]; /* the last number checked, "" none */
    bool homework_right;
    bool quit;
    ClassLink *link; /* a class's lesson (class join), or NULL */
    NarrationLine lines[NARRATION_MAX_LINES];
    int line_count;
    int question_first, question_end; /* the lines of the page's question, its choices and its
                                         feedback [first, end); -1 when none is shown */
    int feedback_first;               /* the feedback's first line, once shown, or -1 */
} LessonScreen;

/* ---------------------------------------------------------------- the panes */

/* A metric for a person: strains as percentages, counts whole, never in
 * exponent form but for the tiniest and largest. In a line (big false) with
 * its unit; shown large, only digits, '.', '-' and '%' (what the big font
 * draws), and label, if not NULL, gets its name and unit. */
/* A metric's name as a person reads it: the script's name with spaces for
 * '_' (scripts and CSV keep the name itself). */
static const char *const metric_labels[METRIC_COUNT] = {
    [METRIC_KINETIC] = N_("kinetic"),
    [METRIC_POTENTIAL] = N_("potential"),
    [METRIC_ELASTIC] = N_("elastic"),
    [METRIC_TOTAL] = N_("total"),
    [METRIC_MAX_STRAIN] = N_("max strain"),
    [METRIC_MEAN_STRAIN] = N_("mean strain"),
    [METRIC_RESIDUAL] = N_("residual"),
    [METRIC_PENETRATION] = N_("penetration"),
    [METRIC_TORN] = N_("torn"),
    [METRIC_EXPLODED] = N_("exploded"),
    [METRIC_TIME] = N_("time"),
    [METRIC_STEP] = N_("step"),
    [METRIC_OMEGA_DT] = N_("omega dt"),
    [METRIC_HIGHEST] = N_("highest"),
    [METRIC_LOWEST] = N_("lowest"),
    [METRIC_CATENARY] = N_("catenary"),
    [METRIC_CLOSEST] = N_("closest"),
    [METRIC_CENTRE_X] = N_("centre x"),
    [METRIC_SCREEN_COVER] = N_("screen cover"),
    [METRIC_SCREEN_ROWS] = N_("screen rows"),
    [METRIC_SCREEN_HOLES] = N_("screen holes"),
    [METRIC_SCREEN_HOT] = N_("screen hot"),
    [METRIC_SCREEN_UNLIKE] = N_("screen unlike"),
    [METRIC_SCREEN_TRACE_ROWS] = N_("screen trace rows"),
    [METRIC_CG_ITERATIONS] = N_("cg iterations"),
    [METRIC_CG_RESIDUAL] = N_("cg residual"),
    [METRIC_CG_UNCONVERGED] = N_("cg unconverged"),
    [METRIC_SCREEN_OFF_PARABOLA] = N_("screen off parabola"),
};

static void format_metric(int metric, double value, bool big, char *out, size_t size, char *label, size_t label_size)
{
    const LessonMetricInfo *info = &lesson_metrics[metric];
    if (label)
        snprintf(label, label_size, "%s%s%s", _(metric_labels[metric]), info->unit[0] ? " " : "",
                 info->unit[0] ? _(info->unit) : "");
    switch (metric) {
    case METRIC_MAX_STRAIN:
    case METRIC_MEAN_STRAIN:
    case METRIC_RESIDUAL:
        if (big)
            snprintf(out, size, fabs(value) >= 0.1 ? "%.0f%%" : "%.1f%%", 100.0 * value);
        else
            snprintf(out, size, fabs(value) >= 0.1 ? "%.1f %%" : "%.3g %%", 100.0 * value);
        break;
    case METRIC_TORN:
    case METRIC_STEP:
    case METRIC_EXPLODED:
        snprintf(out, size, "%.0f", value);
        break;
    case METRIC_TIME:
        snprintf(out, size, big ? "%.1f" : _("%.2f s"), value);
        break;
    default:
        if (big)
            snprintf(out, size, fabs(value) >= 100.0 ? "%.0f" : "%.3g", value);
        else
            snprintf(out, size, "%.4g%s%s", value, info->unit[0] ? " " : "", info->unit[0] ? _(info->unit) : "");
        break;
    }
    i18n_decimals(out, size);
}

/* The TuiPanes show the player's solvers: borrowed, never freed here. When
 * the player rebuilt one (goto, reset, a key that reshapes the cloth), the
 * pane forgets its plots and is framed again. */
static void sync_panes(LessonScreen *v)
{
    Tui *tui = v->tui;
    const LessonPlayer *p = v->player;
    bool relayout = tui->pane_count != p->pane_count, refit = false;
    tui->pane_count = p->pane_count;
    for (int i = 0; i < p->pane_count; i++) {
        TuiPane *pane = &tui->panes[i];
        const LessonPane *lp = &p->panes[i];
        pane->solver = lp->solver;
        snprintf(pane->label, sizeof pane->label, "%s", lp->label && lp->label[0] ? lp->label : lp->name);
        if (v->solvers[i] != lp->solver || v->cloths[i] != lp->solver->cloth ||
            (lp->solver->step < pane->sampled_step)) {
            if (v->solvers[i] != lp->solver)
                camera_init(&pane->camera, lp->solver->params.dim, 80, 24);
            v->solvers[i] = lp->solver;
            v->cloths[i] = lp->solver->cloth;
            tui_pane_clear_history(pane);
            if (pane->view)
                render_reserve(pane->view, lp->solver->cloth);
            refit = true;
        }
        /* how the lesson shows it */
        const LessonView *view = &lp->view;
        pane->mode_set = view->mode >= 0;
        pane->mode = view->mode >= 0 ? (RenderMode)view->mode : RENDER_SHADED;
        pane->strain_full = (float)view->ramp;
        lesson_view_extras(p, i, &pane->extras);
        pane->camera_set = true;
        bool energy_fixed = view->energy_scale == VIEW_SCALE_FIXED,
             strain_fixed = view->strain_scale == VIEW_SCALE_FIXED;
        tui_pane_scales(pane, energy_fixed ? (float)view->energy_lo : NAN, energy_fixed ? (float)view->energy_hi : NAN,
                        view->energy_scale == VIEW_SCALE_LOG,
                        view->energy_scale != VIEW_SCALE_AUTO ? (float)lp->start[METRIC_TOTAL] : NAN,
                        strain_fixed ? (float)view->strain_lo : NAN, strain_fixed ? (float)view->strain_hi : NAN);
        pane->big_count = view->show_count;
        for (int k = 0; k < view->show_count; k++) {
            int metric = view->shows[k];
            double value = lesson_measure(lp, metric);
            format_metric(metric, value, true, pane->big_value[k], sizeof pane->big_value[k], pane->big_label[k],
                          sizeof pane->big_label[k]);
        }
        /* what the lesson points at */
        pane->highlight_energy = pane->highlight_strain = false;
        pane->note[0] = '\0';
        for (int k = 0; k < lp->highlight_count; k++) {
            const char *name = lp->highlights[k];
            char part[64] = "";
            int metric = lesson_metric_find(name);
            const ParamInfo *info = metric < 0 ? params_find(name) : NULL;
            if (strcmp(name, "energy") == 0 || metric == METRIC_TOTAL)
                pane->highlight_energy = true;
            if (strcmp(name, "strain") == 0 || metric == METRIC_MAX_STRAIN)
                pane->highlight_strain = true;
            if (metric >= 0 && !lesson_metric_on_screen(metric)) {
                char value[32];
                format_metric(metric, lesson_measure(lp, metric), false, value, sizeof value, NULL, 0);
                /* the script's name, or its translation where there is one */
                const char *shown = _(metric_labels[metric]);
                snprintf(part, sizeof part, "%s %s", shown == metric_labels[metric] ? name : shown, value);
            } else if (info) {
                char value[40];
                params_format(&lp->solver->params, info, value, sizeof value);
                snprintf(part, sizeof part, "%s=%s", name, i18n_value_name(name, value));
            }
            if (part[0] && strlen(pane->note) + strlen(part) + 3 < sizeof pane->note) {
                if (pane->note[0])
                    strcat(pane->note, "  ");
                strcat(pane->note, part);
            }
        }
    }
    for (int i = p->pane_count; i < TUI_MAX_PANES; i++) {
        tui->panes[i].solver = NULL;
        v->solvers[i] = NULL;
        v->cloths[i] = NULL;
    }
    if (relayout)
        tui_layout(tui);
    else if (refit)
        tui_fit_cameras(tui);
    tui_sample(tui, refit);
}

/* ---------------------------------------------------------------- narration */

static NarrationLine *add_line(LessonScreen *v, const char *text, int length, int indent, uint8_t fg, uint8_t attr)
{
    if (v->line_count == NARRATION_MAX_LINES)
        return NULL;
    NarrationLine *line = &v->lines[v->line_count++];
    if (length >= NARRATION_LINE_BYTES)
        length = NARRATION_LINE_BYTES - 1;
    memcpy(line->text, text, (size_t)length);
    line->text[length] = '\0';
    line->indent = indent;
    line->fg = fg;
    line->attr = attr;
    return line;
}

/* text wrapped at blanks to width cells (by display width: a CJK character
 * takes two), the first line from first_indent, the others from indent. */
static void add_wrapped(LessonScreen *v, const char *text, int first_indent, int indent, int width, uint8_t fg,
                        uint8_t attr)
{
    int line_indent = first_indent;
    while (*text) {
        int room = width - line_indent;
        if (room < 4)
            room = 4;
        int cells = 0, bytes = 0, cut = -1;
        while (text[bytes]) {
            uint32_t code_point;
            char one[8] = "";
            int n = canvas_utf8_decode(text + bytes, &code_point);
            memcpy(one, text + bytes, (size_t)n);
            int w = tui_text_cells(one);
            if (cells + w > room || bytes + n >= NARRATION_LINE_BYTES - 1)
                break;
            if (code_point == ' ')
                cut = bytes;
            cells += w;
            bytes += n;
        }
        int take = bytes, skip = bytes;
        if (text[bytes] && cut > 0)
            take = cut, skip = cut + 1; /* break at the last blank */
        if (take == 0 && text[0]) {     /* one character wider than the room */
            uint32_t code_point;
            take = skip = canvas_utf8_decode(text, &code_point);
        }
        add_line(v, text, take, line_indent, fg, attr);
        text += skip;
        while (*text == ' ')
            text++;
        line_indent = indent;
    }
}

static void add_blank(LessonScreen *v)
{
    if (v->line_count > 0 && v->lines[v->line_count - 1].text[0])
        add_line(v, "", 0, 0, PALETTE_TEXT, ATTR_NONE);
}

static const char *unlocked_value(const LessonScreen *v, int k, char *out, size_t out_size)
{
    const LessonPlayer *p = v->player;
    int pane = p->unlocked_pane ? lesson_player_find_pane(p, p->unlocked_pane) : 0;
    const ParamInfo *info = params_find(p->unlocked[k]);
    out[0] = '\0';
    if (info && pane >= 0 && pane < p->pane_count) {
        params_format(&p->panes[pane].solver->params, info, out, out_size);
        if (info->type == PARAM_REAL) /* 0.0166666666 reads better as 0.01667 */
            snprintf(out, out_size, "%.4g", strtod(out, NULL));
        else if (info->type == PARAM_ENUM) { /* in the screen's language */
            const char *shown = i18n_value_name(info->name, out);
            if (shown != out)
                snprintf(out, out_size, "%s", shown);
        }
    }
    return out;
}

static void mark_page(LessonScreen *v);

/* The teacher's view (--teacher): under the heading, the lesson's own notes
 * on the first page, the page's notes, and the right answer of each of its
 * questions, set apart in a colour of their own and never in a student's view.
 * The colour is the warnings' magenta, a text colour whose contrast is tested
 * on dark and light backgrounds (a cloth shade such as cyan is not: on white
 * it is about 2:1). */
#define TEACHER_NOTE_COLOUR PALETTE_STRAIN_WARN
static void add_teacher_notes(LessonScreen *v, int width)
{
    const Lesson *lesson = v->lesson;
    int page = v->player->page;
    const char *notes[32];
    char text[4 * NARRATION_LINE_BYTES]; /* a note is a paragraph: add_wrapped cuts it into lines */
    int count = page == 0 ? lesson_teacher_notes(lesson, -1, notes, 32) : 0;
    count += lesson_teacher_notes(lesson, page, notes + count, 32 - count);
    for (int k = 0; k < count; k++) {
        snprintf(text, sizeof text, _("Teacher: %s"), notes[k]);
        add_wrapped(v, text, 0, 2, width, TEACHER_NOTE_COLOUR, ATTR_BOLD);
    }
    const LessonPage *p = &lesson->pages[page];
    for (int k = p->first_item; k < p->first_item + p->item_count; k++) {
        const LessonItem *item = &lesson->items[k];
        if (item->kind == LESSON_HOMEWORK)
            snprintf(text, sizeof text, _("Teacher: the homework's answer is %d."), item->answer);
        else if (item->kind != LESSON_QUESTION || item->answer < 0)
            continue;
        else
            snprintf(text, sizeof text, _("Teacher: the answer is %d, %s."), item->answer + 1,
                     item->choices[item->answer].text);
        add_wrapped(v, text, 0, 2, width, TEACHER_NOTE_COLOUR, ATTR_BOLD);
        count++;
    }
    if (count)
        add_blank(v);
}

/* The homework waited on, if any, with what is typed reset when it is
 * another one than the number was typed for. */
static const LessonItem *homework_waited(LessonScreen *v)
{
    const LessonItem *h = lesson_player_pause(v->player);
    if (!h || h->kind != LESSON_HOMEWORK)
        return NULL;
    int item = (int)(h - v->lesson->items);
    if (item != v->homework_item) {
        v->homework_item = item;
        v->homework_input[0] = v->homework_last[0] = '\0';
    }
    return h;
}

/* A homework waited on: its task, the number typed, and the verdict on the
 * last one checked. False when no homework is waited on. */
static bool add_homework(LessonScreen *v, int width)
{
    const LessonItem *h = homework_waited(v);
    if (!h)
        return false;
    char text[4 * NARRATION_LINE_BYTES]; /* the task is a paragraph: add_wrapped cuts it into lines */
    /* the lines after the first start under the task, past the label */
    const char *label = _("Homework:");
    snprintf(text, sizeof text, "%s %s", label, h->text);
    int hang = tui_text_cells(label) + 1;
    add_wrapped(v, text, 0, hang < width / 2 ? hang : 2, width, PALETTE_HIGHLIGHT, ATTR_BOLD);
    snprintf(text, sizeof text, _("Your answer: %s_"), v->homework_input);
    add_wrapped(v, text, 1, 1, width, PALETTE_TEXT, ATTR_BOLD);
    if (v->homework_last[0] && v->homework_right)
        snprintf(text, sizeof text, _("Right: %s. Enter goes on."), v->homework_last);
    else if (v->homework_last[0])
        snprintf(text, sizeof text, _("Not %s. Try another number, or press Enter to go on."), v->homework_last);
    else
        snprintf(text, sizeof text, "%s", _("Type the number and press Enter to check it; Enter alone goes on."));
    add_wrapped(v, text, 1, 1, width, v->homework_last[0] ? PALETTE_HIGHLIGHT : PALETTE_DIM, ATTR_NONE);
    return true;
}

/* Everything the panel shows, as lines for a panel width cells wide. */
static void build_narration(LessonScreen *v, int width)
{
    Tui *tui = v->tui;
    const LessonPlayer *p = v->player;
    const Lesson *lesson = v->lesson;
    v->line_count = 0;
    v->question_first = v->question_end = v->feedback_first = -1;
    char text[NARRATION_LINE_BYTES];
    if (p->state == LESSON_FINISHED) {
        add_wrapped(v, lesson->title, 0, 0, width, PALETTE_HIGHLIGHT, ATTR_BOLD);
        /* the exit question and the score first: at 80x24 the panel has eight
         * rows, and the class answers the question on its way out; the recap
         * below them scrolls (the mark says so) */
        if (lesson->exit_question) {
            add_blank(v);
            snprintf(text, sizeof text, _("Exit question: %s"), lesson->exit_question);
            add_wrapped(v, text, 0, 2, width, PALETTE_HIGHLIGHT, ATTR_BOLD);
        }
        int right, answered, graded;
        lesson_player_score(p, &right, &answered, &graded);
        if (graded) {
            add_blank(v);
            if (answered < graded)
                snprintf(text, sizeof text,
                         ngettext("Your score: %d of %d question right at the first try (%d skipped).",
                                  "Your score: %d of %d questions right at the first try (%d skipped).", graded),
                         right, graded, graded - answered);
            else
                snprintf(text, sizeof text,
                         ngettext("Your score: %d of %d question right at the first try.",
                                  "Your score: %d of %d questions right at the first try.", graded),
                         right, graded);
            add_wrapped(v, text, 0, 0, width, PALETTE_HIGHLIGHT, ATTR_BOLD);
        }
        add_blank(v);
        add_wrapped(v, _("The end of the lesson. What it showed:"), 0, 0, width, PALETTE_TEXT, ATTR_BOLD);
        /* the recap: each page's line; a lesson that has none lists its headings */
        bool recaps = false;
        for (int k = 0; k < lesson->page_count; k++)
            recaps = recaps || lesson_page_recap(lesson, k);
        for (int k = 0; k < lesson->page_count; k++) {
            const char *recap = lesson_page_recap(lesson, k);
            const char *heading = lesson->pages[k].heading;
            if (recaps ? !recap : !(heading && heading[0]))
                continue;
            snprintf(text, sizeof text, "%s %s", tui_text(tui, "\u2022", "*"), recap ? recap : heading);
            add_wrapped(v, text, 1, 3, width, PALETTE_TEXT, ATTR_NONE);
        }
        add_blank(v);
        add_wrapped(v, _("Left goes back a page, q (or Enter) closes the lesson."), 0, 0, width, PALETTE_DIM,
                    ATTR_NONE);
        return;
    }
    const char *heading = lesson_player_heading(p);
    snprintf(text, sizeof text, "%s", heading && heading[0] ? heading : lesson->title);
    add_wrapped(v, text, 0, 0, width, PALETTE_HIGHLIGHT, ATTR_BOLD);
    if (tui->teacher_view)
        add_teacher_notes(v, width);

    const LessonPage *page = &lesson->pages[p->page];
    int end = p->state == LESSON_PAGE_END ? page->first_item + page->item_count : p->item;
    if (p->state == LESSON_ASKING && end < page->first_item + page->item_count)
        end++; /* the question being asked */
    for (int k = page->first_item; k < end; k++) {
        const LessonItem *item = &lesson->items[k];
        if (item->kind == LESSON_SAY) {
            add_wrapped(v, item->text, 0, 0, width, PALETTE_TEXT, ATTR_NONE);
            add_blank(v);
        } else if (item->kind == LESSON_EXPLAIN && k < p->item) { /* answered: the explanation follows */
            snprintf(text, sizeof text, _("Explain: %s"), item->text);
            add_wrapped(v, text, 0, 9, width, PALETTE_HIGHLIGHT, ATTR_BOLD);
            add_blank(v);
        } else if (item->kind == LESSON_QUESTION) {
            bool current = k == p->question;
            int answer = current ? p->answer : -1;
            if (current)
                v->question_first = v->line_count;
            add_wrapped(v, item->text, 0, 0, width, PALETTE_TEXT, ATTR_BOLD);
            /* one choice a line, one column: the eye reads down them in order */
            for (int c = 0; c < item->choice_count; c++) {
                snprintf(text, sizeof text, "%d  %s", c + 1, item->choices[c].text);
                bool given = c == answer;
                uint8_t fg = given ? PALETTE_HIGHLIGHT : PALETTE_TEXT;
                uint8_t attr = given ? ATTR_REVERSE | ATTR_BOLD : ATTR_NONE;
                add_wrapped(v, text, 1, 4, width, fg, attr);
            }
            if (answer >= 0 && !lesson_player_feedback_ready(p)) {
                snprintf(text, sizeof text, _("You said %d. Watch what happens."), answer + 1);
                add_wrapped(v, text, 1, 1, width, PALETTE_DIM, ATTR_NONE);
            } else if (answer >= 0) {
                v->feedback_first = v->line_count;
                const char *feedback = lesson_player_feedback(p);
                bool right = lesson_player_answer_correct(p);
                if (item->answer >= 0)
                    snprintf(text, sizeof text, "%s%s", right ? _("Right. ") : _("Not quite. "),
                             feedback ? feedback : "");
                else
                    snprintf(text, sizeof text, "%s", feedback ? feedback : _("Noted."));
                add_wrapped(v, text, 1, 1, width, PALETTE_HIGHLIGHT, ATTR_BOLD);
            } else if (current && p->state == LESSON_ASKING) {
                snprintf(text, sizeof text, _("Press 1 to %d to answer (Enter skips)."), item->choice_count);
                add_wrapped(v, text, 1, 1, width, PALETTE_DIM, ATTR_NONE);
            }
            if (current)
                v->question_end = v->line_count;
            add_blank(v);
        }
    }
    switch (p->state) {
    case LESSON_RUNNING: {
        double done, total;
        lesson_player_run_progress(p, &done, &total);
        const LessonItem *item = &lesson->items[p->item];
        if (v->skipping)
            snprintf(text, sizeof text, _("Skipping to the end: %.2f of %.2f s (q quits)"), done, total);
        else
            snprintf(text, sizeof text, _("%s %.2f of %.2f s at %gx%s"), v->paused ? _("Paused:") : _("Running:"), done,
                     total, item->speed, v->paused ? _(" (Space resumes)") : _(" (Enter skips to its end)"));
        i18n_decimals(text, sizeof text);
        add_wrapped(v, text, 0, 2, width, PALETTE_HIGHLIGHT, ATTR_BOLD);
        break;
    }
    case LESSON_WAITING: {
        if (add_homework(v, width))
            break;
        const LessonItem *pause = lesson_player_pause(p);
        if (pause && pause->kind == LESSON_EXPLAIN) {
            snprintf(text, sizeof text, _("Explain: %s"), pause->text);
            add_wrapped(v, text, 0, 9, width, PALETTE_HIGHLIGHT, ATTR_BOLD);
            add_wrapped(v, _("Explain it in your own words (aloud, or to a neighbour), then press Enter."), 0, 0, width,
                        PALETTE_DIM, ATTR_NONE);
            break;
        }
        add_wrapped(v, pause && pause->text ? pause->text : _("Press Enter to go on."), 0, 0, width, PALETTE_HIGHLIGHT,
                    ATTR_BOLD);
        if (pause && pause->text)
            add_wrapped(v, _("(Enter goes on)"), 0, 0, width, PALETTE_DIM, ATTR_NONE);
        break;
    }
    case LESSON_PLAYING: {
        add_wrapped(v, v->paused ? _("Free play (paused):") : _("Free play:"), 0, 0, width, PALETTE_HIGHLIGHT,
                    ATTR_BOLD);
        for (int k = 0; k < p->unlocked_count; k++) {
            char value[64];
            bool selected = k == v->selected;
            snprintf(text, sizeof text, "%s %-16s %s", selected ? tui_text(tui, "\u25b6", ">") : " ", p->unlocked[k],
                     unlocked_value(v, k, value, sizeof value));
            add_line(v, text, (int)strlen(text), 1, selected ? PALETTE_HIGHLIGHT : PALETTE_TEXT,
                     selected ? ATTR_REVERSE | ATTR_BOLD : ATTR_NONE);
        }
        add_wrapped(v,
                    tui_text(tui, _("\u2191\u2193 choose  \u2190\u2192 change  Enter: done"),
                             _("Up/Down choose  Left/Right change  Enter: done")),
                    0, 0, width, PALETTE_DIM, ATTR_NONE);
        break;
    }
    case LESSON_PAGE_END:
        add_wrapped(v,
                    p->page + 1 < lesson->page_count ? _("Enter: next page.  Left: back.  r: replay.")
                                                     : _("Enter: finish the lesson.  Left: back.  r: replay."),
                    0, 0, width, PALETTE_DIM, ATTR_NONE);
        break;
    default:
        break;
    }
}

/* ---------------------------------------------------------------- drawing */

static void draw_status(LessonScreen *v)
{
    Tui *tui = v->tui;
    Canvas *c = tui->status;
    canvas_clear(c);
    const LessonPlayer *p = v->player;
    char text[256];
    int x = tui_text_put(c, 1, 0, c->width, v->lesson->title, PALETTE_HIGHLIGHT, ATTR_BOLD);
    double time = 0.0; /* the panes step together; one that exploded stopped */
    for (int i = 0; i < p->pane_count; i++)
        time = fmax(time, p->panes[i].solver->time);
    if (p->state == LESSON_FINISHED)
        snprintf(text, sizeof text, "%s", _("  finished"));
    else
        snprintf(text, sizeof text, _("  page %d/%d  t %.2f s%s"), p->page + 1, v->lesson->page_count, time,
                 v->paused         ? _("  paused")
                 : tui->blowing_up ? _("  blowing up: slow motion")
                                   : "");
    i18n_decimals(text, sizeof text);
    bool loud = v->paused || tui->blowing_up;
    x = tui_text_put(c, x, 0, c->width, text, loud ? PALETTE_HIGHLIGHT : PALETTE_TEXT, loud ? ATTR_BOLD : ATTR_NONE);
    /* a message (a resumed page, a key's answer) takes the hint's place here,
     * never a row of a pane: there it would cover a readout or the cloth */
    if (tui->message[0]) {
        snprintf(text, sizeof text, "  %.*s", (int)sizeof text - 3, tui->message);
        if (x + tui_text_cells(text) > c->width - 1) { /* too long beside the title: the message has the line */
            canvas_clear(c);
            x = -1;
        }
        tui_text_put_fitted(c, x, 0, c->width - 1, text, PALETTE_HIGHLIGHT, ATTR_BOLD, tui->ascii_only);
    } else if (v->link) { /* a class: its state in place of the hint */
        const ClassLink *link = v->link;
        char class_hint[160];
        if (link->ended)
            snprintf(class_hint, sizeof class_hint, _("class %s ended "), link->code);
        else if (!link->connected)
            snprintf(class_hint, sizeof class_hint, _("class %s: reconnecting "), link->code);
        else if (link->hold)
            snprintf(class_hint, sizeof class_hint, _("class %s: held on question %d "), link->code, link->hold);
        else
            snprintf(class_hint, sizeof class_hint, _("class %s "), link->code);
        bool held = link->hold || !link->connected;
        int hint_x = c->width - tui_text_cells(class_hint);
        if (hint_x > x + 1)
            tui_text_put(c, hint_x, 0, c->width, class_hint, held ? PALETTE_HIGHLIGHT : PALETTE_DIM, ATTR_NONE);
    } else {
        const char *hint = _("? keys  Enter next  q quit");
        if (c->width - tui_text_cells(hint) - 1 <= x + 1)
            hint = _("? keys  q quit ");
        int hint_x = c->width - tui_text_cells(hint) - (hint[strlen(hint) - 1] == ' ' ? 0 : 1);
        if (hint_x > x + 1)
            tui_text_put(c, hint_x, 0, c->width, hint, PALETTE_DIM, ATTR_NONE);
    }
    tui_blit(tui, tui->status_win, c);
    if (tui->status_win)
        wnoutrefresh(tui->status_win);
}

static void draw_narration(LessonScreen *v)
{
    Tui *tui = v->tui;
    Canvas *c = tui->panel;
    if (!c || (!tui->panel_win && !tui->offscreen))
        return;
    canvas_clear(c);
    bool beside = c->height > 0 && c->width < tui->term.cols;
    int left = beside ? 2 : 1, top = beside ? 0 : 1;
    if (beside)
        for (int y = 0; y < c->height; y++)
            tui_text_put(c, 0, y, c->width, tui_text(tui, "\u2502", "|"), PALETTE_DIM, ATTR_NONE);
    else
        for (int x = 0; x < c->width; x++)
            tui_text_put(c, x, 0, c->width, tui_text(tui, "\u2500", "-"), PALETTE_DIM, ATTR_NONE);
    int width = c->width - left - 1;
    build_narration(v, width);
    while (v->line_count > 0 && !v->lines[v->line_count - 1].text[0])
        v->line_count--; /* a blank at the end is not more below */
    int rows = c->height - top;
    int most = v->line_count - rows > 0 ? v->line_count - rows : 0;
    /* new content (a page, an answer, a run's end) brings the newest line into view */
    int state = (int)v->player->state;
    if (v->seen_page != v->player->page) {
        v->scroll = 0; /* a page opens at its first line */
        mark_page(v);
        v->follow = false;
        v->scrolled_by_hand = false;
    } else if (v->seen_item != v->player->item || v->seen_state != state) {
        v->follow = true;
        v->scrolled_by_hand = false;
    }
    v->seen_page = v->player->page, v->seen_item = v->player->item, v->seen_state = state;
    if (v->follow && v->scroll < most)
        v->scroll = most;
    v->follow = false;
    /* a question asked (or answered) is in view whole, its choices never
     * below the fold: the narration above it scrolls (the marks say so);
     * one taller than the panel shows its end, the choices and the verdict */
    bool asking = v->player->state == LESSON_ASKING || v->player->answer >= 0;
    if (asking && v->question_first >= 0 && !v->scrolled_by_hand) {
        if (v->question_end > v->scroll + rows)
            v->scroll = v->question_end - rows;
        /* the verdict stays in view when the narration after the run comes:
         * it says where to look (the mark says there is more below); but a
         * prompt waited on (a pause, an explain, a homework) is in view first */
        if (v->feedback_first >= 0 && v->scroll > v->feedback_first && v->player->state != LESSON_WAITING)
            v->scroll = v->feedback_first;
    }
    if (v->scroll > most)
        v->scroll = most;
    if (v->scroll < 0)
        v->scroll = 0;
    for (int r = 0; r < rows && v->scroll + r < v->line_count; r++) {
        const NarrationLine *line = &v->lines[v->scroll + r];
        tui_text_put(c, left + line->indent, top + r, c->width - 1, line->text, line->fg, line->attr);
    }
    /* more above or below */
    if (v->scroll > 0)
        tui_text_put(c, c->width - 1, top, c->width, tui_text(tui, "\u25b2", "^"), PALETTE_HIGHLIGHT, ATTR_BOLD);
    if (v->scroll < most)
        tui_text_put(c, c->width - 1, c->height - 1, c->width, tui_text(tui, "\u25bc", "v"), PALETTE_HIGHLIGHT,
                     ATTR_BOLD);
    if (!tui->panel_win)
        return;
    tui_blit(tui, tui->panel_win, c);
    touchwin(tui->panel_win);
    wnoutrefresh(tui->panel_win);
}

/* The panes (each through its page's camera), the status line and the
 * narration, into their canvases. */
static void draw_canvases(LessonScreen *v)
{
    Tui *tui = v->tui;
    for (int i = 0; i < tui->pane_count; i++) {
        TuiPane *pane = &tui->panes[i];
        if (pane->view)
            lesson_view_camera(v->player, i, pane->view->width, pane->view->height, &pane->camera);
    }
    tui_draw_panes(tui);
    draw_status(v);
    draw_narration(v);
}

static void draw_lesson(LessonScreen *v)
{
    Tui *tui = v->tui;
    if (tui->too_small) {
        tui_draw_too_small(tui);
        doupdate();
        return;
    }
    tui_sample(tui, false);
    tui_blasts_update(tui, !v->paused);
    draw_canvases(v);
    if (tui->help)
        tui_draw_help(tui);
    doupdate();
    tui->frames++;
}

/* The screen without a terminal (tui_lesson.h): what draw_lesson draws,
 * into the canvases only. */
LessonScreen *tui_lesson_offscreen_create(Tui *tui, Lesson *lesson, LessonPlayer *player)
{
    LessonScreen *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    *v = (LessonScreen){
        .tui = tui, .path = "", .lesson = lesson, .player = player, .homework_item = -1, .seen_page = -1};
    tui->offscreen = true;
    tui->lesson_layout = true;
    sync_panes(v);
    tui_layout(tui);
    tui_fit_cameras(tui);
    return v;
}

void tui_lesson_offscreen_draw(LessonScreen *v)
{
    Tui *tui = v->tui;
    sync_panes(v);
    tui_layout(tui); /* at tui->term's size, which the caller may have changed */
    tui_sample(tui, false);
    if (tui->too_small)
        return;
    draw_canvases(v);
}

void tui_lesson_offscreen_destroy(LessonScreen *v)
{
    if (!v)
        return;
    Tui *tui = v->tui;
    for (int i = 0; i < TUI_MAX_PANES; i++)
        tui->panes[i].solver = NULL;
    tui->pane_count = 0;
    tui_layout_free(tui);
    free(v);
}

/* ---------------------------------------------------------------- progress */

/* The recording's chapter: "3/5 Heading", or the end of the lesson. */
static void mark_page(LessonScreen *v)
{
    const LessonPlayer *p = v->player;
    char label[200];
    if (p->page >= v->lesson->page_count)
        snprintf(label, sizeof label, _("the end: %s"), v->lesson->title);
    else
        snprintf(label, sizeof label, "%d/%d %s", p->page + 1, v->lesson->page_count,
                 p->lesson->pages[p->page].heading[0] ? p->lesson->pages[p->page].heading : v->lesson->title);
    tui_term_mark(&v->tui->term, label);
}

/* A gap longer than this between two saves (a page, an answer) counts as
 * this much: a lesson left open over lunch is not an hour of study. */
#define TUI_LESSON_MAX_UNSAVED_SECONDS (15.0 * 60.0)

static void save_progress(LessonScreen *v)
{
    if (v->link) /* the class hears of each page (the end: one past the last) */
        class_link_page(v->link, v->player->state == LESSON_FINISHED ? v->lesson->page_count + 1 : v->player->page + 1);
    if (!v->progress)
        return;
    double now = tui_now(), spent = now - v->time_counted;
    progress_add_time(v->progress, v->path,
                      spent < TUI_LESSON_MAX_UNSAVED_SECONDS ? spent : TUI_LESSON_MAX_UNSAVED_SECONDS);
    v->time_counted = now;
    const LessonPlayer *p = v->player;
    bool finished = p->state == LESSON_FINISHED;
    int page = finished ? v->lesson->page_count - 1 : p->page;
    ProgressScore score = PROGRESS_SCORE_KEEP;
    if (finished)
        lesson_player_score(p, &score.right, &(int){0}, &score.graded);
    bool first_failure;
    if (!progress_save(v->progress, v->path, page, finished, score, &first_failure) && first_failure)
        tui_message(v->tui, "progress is not saved: %s", v->progress->err);
}

/* ---------------------------------------------------------------- keys */

static void out_of_memory(LessonScreen *v)
{
    tui_message(v->tui, "out of memory: %s", v->player->err);
}

static void adjust(LessonScreen *v, int presses)
{
    LessonPlayer *p = v->player;
    if (v->selected >= p->unlocked_count)
        return;
    const char *key = p->unlocked[v->selected];
    const ParamInfo *info = params_find(key);
    int pane = p->unlocked_pane ? lesson_player_find_pane(p, p->unlocked_pane) : -1;
    if (!info || p->pane_count == 0)
        return;
    char value[64], err[TEXT_MESSAGE_SIZE];
    tui_slider_value(v->tui, &p->panes[pane >= 0 ? pane : 0].solver->params, info, presses, value, sizeof value);
    bool exploded = false;
    for (int i = 0; i < p->pane_count; i++)
        exploded = exploded || ((pane < 0 || pane == i) && p->panes[i].solver->exploded);
    if (lesson_player_adjust(p, pane, key, value, err, sizeof err))
        tui_message(v->tui, exploded ? N_("%s %s: r starts again with it") : "%s %s", key, value);
    else
        tui_message(v->tui, "%s", err);
}

/* The student answers the question asked with choice (0-based): the
 * player goes on, and the answer is kept with the progress. */
static void answer(LessonScreen *v, int choice)
{
    LessonPlayer *p = v->player;
    int item = p->question;
    bool first = item >= 0 && p->first_answers[item] < 0;
    if (!lesson_player_answer(p, choice)) {
        tui_message(v->tui, "choose 1 to %d", lesson_player_question(p)->choice_count);
        return;
    }
    if (v->link && first)
        class_link_answer(v->link, lesson_item_number(v->lesson, item), choice + 1);
    if (!v->progress)
        return;
    const LessonItem *q = &v->lesson->items[item];
    char given[16];
    snprintf(given, sizeof given, "%d", choice + 1);
    if (!progress_answer(v->progress, v->path, PROGRESS_QUESTION, lesson_item_number(v->lesson, item),
                         lesson_item_page(v->lesson, item) + 1, given, q->answer < 0 ? -1 : q->answer == choice, first))
        tui_message(v->tui, "out of memory: the answer is not kept");
    save_progress(v);
}

/* A homework waited on takes digits, Backspace, and Enter with a number
 * typed (checked, and kept with the progress). True if it took key. */
static bool homework_key(LessonScreen *v, int key)
{
    const LessonItem *h = homework_waited(v);
    if (!h)
        return false;
    size_t length = strlen(v->homework_input);
    if (key >= '0' && key <= '9') {
        if (length + 1 < sizeof v->homework_input && length < 6) {
            v->homework_input[length] = (char)key;
            v->homework_input[length + 1] = '\0';
        }
        return true;
    }
    if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        if (length > 0)
            v->homework_input[length - 1] = '\0';
        return true;
    }
    if ((key == '\n' || key == '\r' || key == KEY_ENTER) && length > 0) {
        bool right, first;
        if (lesson_player_homework_answer(v->player, v->homework_input, &right, &first)) {
            snprintf(v->homework_last, sizeof v->homework_last, "%s", v->homework_input);
            v->homework_right = right;
            int item = (int)(h - v->lesson->items);
            if (v->progress &&
                !progress_answer(v->progress, v->path, PROGRESS_HOMEWORK, lesson_item_number(v->lesson, item),
                                 lesson_item_page(v->lesson, item) + 1, v->homework_input, right, first))
                tui_message(v->tui, "out of memory: the answer is not kept");
            save_progress(v);
        }
        v->homework_input[0] = '\0';
        return true;
    }
    return false;
}

/* The class is held on this page's question, answered here: the run
 * after it waits for the teacher's reveal, on every screen at once. */
static bool held(const LessonScreen *v)
{
    const LessonPlayer *p = v->player;
    return v->link && v->link->hold > 0 && !v->link->ended && p->question >= 0 && p->state != LESSON_ASKING &&
           p->state != LESSON_FINISHED && lesson_item_number(v->lesson, p->question) == v->link->hold;
}

static void handle_key(LessonScreen *v, int key)
{
    Tui *tui = v->tui;
    LessonPlayer *p = v->player;
    if (tui->help && key != KEY_RESIZE && key != 'q') {
        if ((key == ' ' || key == KEY_NPAGE) && tui->help_page + 1 < tui->help_pages)
            tui->help_page++; /* the next page of a help too long for the screen */
        else
            tui->help = false;
        return;
    }
    if (homework_key(v, key))
        return;
    bool playing = p->state == LESSON_PLAYING;
    int page = p->page;
    bool ok = true;
    if (key != KEY_RESIZE)
        v->skipping = false; /* any key but Enter or Right stops a skip (they start it again) */
    if (held(v) && (key == '\n' || key == '\r' || key == KEY_ENTER || key == KEY_RIGHT)) {
        tui_message(tui, "the teacher holds the class here until the vote is in");
        return;
    }
    switch (key) {
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (p->state == LESSON_FINISHED)
            v->quit = true;
        else if (p->state == LESSON_RUNNING)
            v->skipping = true; /* a little each turn of the loop: q still quits */
        else
            ok = lesson_player_next(p);
        break;
    case KEY_RIGHT:
        if (playing)
            adjust(v, 1);
        else if (p->state == LESSON_RUNNING)
            v->skipping = true;
        else if (p->state != LESSON_FINISHED)
            ok = lesson_player_next(p);
        break;
    case KEY_LEFT:
        if (playing)
            adjust(v, -1);
        else if (p->page > 0)
            ok = lesson_player_previous(p);
        else
            tui_message(tui, "this is the first page");
        break;
    case 'r':
        if (p->state == LESSON_FINISHED)
            break;
        if (playing) { /* your turn: start again with the settings you chose */
            ok = lesson_player_reset_panes(p);
            tui_message(tui, "panes reset with your settings (R replays the page)");
            break;
        }
        ok = lesson_player_replay(p);
        tui_message(tui, "page %d again", p->page + 1);
        break;
    case 'R':
        if (p->state == LESSON_FINISHED)
            break;
        ok = lesson_player_replay(p);
        tui_message(tui, "page %d again", p->page + 1);
        break;
    case ' ':
        v->paused = !v->paused;
        break;
    case KEY_UP:
        if (playing && p->unlocked_count > 0)
            v->selected = (v->selected + p->unlocked_count - 1) % p->unlocked_count;
        else
            v->scroll--, v->scrolled_by_hand = true;
        break;
    case KEY_DOWN:
        if (playing && p->unlocked_count > 0)
            v->selected = (v->selected + 1) % p->unlocked_count;
        else
            v->scroll++, v->scrolled_by_hand = true;
        break;
    case KEY_PPAGE:
        v->scroll -= tui->panel ? tui->panel->height / 2 : 5;
        v->scrolled_by_hand = true;
        break;
    case KEY_NPAGE:
        v->scroll += tui->panel ? tui->panel->height / 2 : 5;
        v->scrolled_by_hand = true;
        break;
    case '?':
        tui->help = true;
        tui->help_page = 0;
        break;
    case 'B':
        tui_background_toggle(tui);
        break;
    case 'q':
    case 4: /* ^D, end of input */
        v->quit = true;
        break;
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
        if (p->state == LESSON_ASKING)
            answer(v, key - '1');
        break;
    default:
        break;
    }
    if (!ok || p->failed)
        out_of_memory(v);
    if (p->state != LESSON_PLAYING)
        v->selected = 0;
    else if (v->selected >= p->unlocked_count)
        v->selected = 0;
    if (p->page != page || p->state == LESSON_FINISHED)
        save_progress(v);
    /* a replay or another page freed the solvers the TuiPanes borrowed: they
     * take the new ones now, not at the next frame, for a resize before it
     * lays the panes out (and reserves room for their cloths) */
    sync_panes(v);
    v->last_time = tui_now(); /* time spent in a key (a replay) is not owed to the run */
}

/* ---------------------------------------------------------------- the loop */

static bool ticking(const LessonScreen *v)
{
    LessonPlayerState state = v->player->state;
    return !v->paused && !held(v) && (state == LESSON_RUNNING || state == LESSON_PLAYING);
}

/* What the class said: the teacher moved the class to a page, revealed
 * the answers to a question, ended the class. True if the screen changed. */
static bool class_poll(LessonScreen *v)
{
    ClassLink *link = v->link;
    if (!link || !class_link_poll(link, tui_now()))
        return false;
    if (link->goto_page > 0) {
        int page = link->goto_page - 1;
        link->goto_page = 0;
        if (page != v->player->page && lesson_player_goto(v->player, page)) {
            tui_message(v->tui, "the teacher moved the class to page %d", page + 1);
            save_progress(v);
            sync_panes(v);
        }
    }
    if (link->reveal_new) {
        link->reveal_new = false;
        char counts[120] = "";
        for (int k = 0; k < link->choice_count; k++)
            snprintf(counts + strlen(counts), sizeof counts - strlen(counts), "  %d: %d", k + 1, link->counts[k]);
        tui_message(v->tui, "the class answered question %d:%s", link->revealed, counts);
    }
    if (link->ended)
        tui_message(v->tui, "the teacher ended the class; the lesson is yours to finish");
    v->last_time = tui_now(); /* a hold's wait is not owed to the run */
    return true;
}

/* Plays until the lesson is quit; returns 0, or 128 + a signal. */
static int play(LessonScreen *v)
{
    Tui *tui = v->tui;
    double frame = 1.0 / tui->fps;
    double next_frame = tui_now();
    v->last_time = next_frame;
    v->seen_page = -1;
    int empty_reads = 0;
    bool dirty = true;
    sync_panes(v);
    tui_layout(tui);
    tui_fit_cameras(tui);
    while (!v->quit) {
        int quit_status = tui_loop_events(tui, &dirty);
        if (quit_status)
            return quit_status;
        double now = tui_now();
        if (v->skipping) {
            /* the rest of the run in slices of about 30 ms, between which
             * keys, signals and resizes are seen as usual */
            bool done = v->player->state != LESSON_RUNNING;
            int page = v->player->page;
            while (!done && tui_now() - now < TUI_LESSON_SLICE)
                if (!lesson_player_finish_some(v->player, 1, &done)) {
                    out_of_memory(v);
                    done = true;
                }
            if (done)
                v->skipping = false;
            if (v->player->page != page)
                save_progress(v);
            v->last_time = tui_now();
            next_frame = v->last_time;
            dirty = true;
        } else if (ticking(v) && now >= next_frame) {
            double elapsed = now - v->last_time;
            v->last_time = now;
            if (elapsed > TUI_LESSON_MAX_GAP)
                elapsed = TUI_LESSON_MAX_GAP;
            int page = v->player->page;
            elapsed *= tui_blowup_slowdown(tui); /* the last steps of a blow-up in slow motion */
            if (!lesson_player_tick(v->player, elapsed > 0.0 ? elapsed : 0.0))
                out_of_memory(v);
            if (v->player->page != page)
                save_progress(v);
            next_frame += frame;
            if (next_frame < now)
                next_frame = now + frame;
            dirty = true;
        } else if (!v->paused && tui_blasts_flying(tui) && now >= next_frame) {
            next_frame = now + frame; /* the run is over, the explosion still flies */
            dirty = true;
        }
        if (tui->message[0] && now - tui->message_time >= TUI_MESSAGE_SECONDS) {
            tui->message[0] = '\0';
            dirty = true;
        }
        if (dirty) {
            sync_panes(v);
            draw_lesson(v);
            dirty = false;
            class_present_screen(v->link, tui_now());
        } else if (v->link && v->link->frame_waiting)
            class_present_screen(v->link, tui_now());
        bool running = ticking(v) || v->skipping || (!v->paused && tui_blasts_flying(tui));
        if (!running) {
            v->last_time = tui_now(); /* waiting time is not owed to the run */
            next_frame = v->last_time;
        }
        int wait_ms = tui_wait_ms(tui, running, next_frame);
        if (v->link) {
            tui->term.other_fd = class_link_fd(v->link);
            if (!v->link->connected && !v->link->ended && (wait_ms < 0 || wait_ms > 500))
                wait_ms = 500; /* to reconnect */
            if (v->link->frame_waiting && (wait_ms < 0 || wait_ms > 100))
                wait_ms = 100; /* the last frame to the watchers */
        }
        TuiWait waited = tui_term_wait(&tui->term, wait_ms);
        tui->term.other_fd = 0;
        if (class_poll(v))
            dirty = true;
        switch (waited) {
        case WAIT_OTHER:
            break;
        case WAIT_INPUT: {
            int got = 0, key;
            while (!v->quit && (key = tui_read_key()) != ERR) {
                got++;
                if (key != KEY_MOUSE)
                    handle_key(v, key);
            }
            /* readable yet nothing to read, again and again: the input has ended */
            empty_reads = got ? 0 : empty_reads + 1;
            if (empty_reads >= 3)
                return -1;
            dirty = true;
            break;
        }
        case WAIT_HANGUP:
            return -1;
        case WAIT_SIGNAL:
        case WAIT_TIMEOUT:
            break;
        }
    }
    return 0;
}

/* Plays the parsed lesson at path in the running session, from its saved
 * page. Returns 0 when quit, -1 when the terminal went away, 1 when out of
 * memory, or 128 + a signal. */
static int play_lesson_in(Tui *tui, Progress *progress, const char *path, Lesson *lesson, ClassLink *link,
                          int start_page);

static int play_lesson(Tui *tui, Progress *progress, const char *path, Lesson *lesson)
{
    return play_lesson_in(tui, progress, path, lesson, NULL, -1);
}

int tui_class_lesson(Tui *tui, ClassLink *link, Lesson *lesson)
{
    int page = link->my_page > 0 ? link->my_page : link->class_page;
    if (page > lesson->page_count)
        page = lesson->page_count;
    return play_lesson_in(tui, NULL, link->lesson_path, lesson, link, page > 0 ? page - 1 : 0);
}

/* As play_lesson; with a class's link, from start_page (0-based). */
static int play_lesson_in(Tui *tui, Progress *progress, const char *path, Lesson *lesson, ClassLink *link,
                          int start_page)
{
    LessonScreen *v = calloc(1, sizeof *v);
    LessonPlayer *player = v ? lesson_player_create(lesson) : NULL;
    if (!player) {
        free(v);
        tui_message(tui, "out of memory: cannot open %s", path);
        return 1;
    }
    *v = (LessonScreen){.tui = tui,
                        .path = path,
                        .lesson = lesson,
                        .player = player,
                        .progress = progress,
                        .time_counted = tui_now(),
                        .homework_item = -1,
                        .link = link};
    const ProgressEntry *saved = progress ? progress_find(progress, path) : NULL;
    if (link) {
        if (start_page > 0 && lesson_player_goto(player, start_page))
            tui_message(tui, "class %s: back at page %d of %d", link->code, start_page + 1, lesson->page_count);
        else
            tui_message(tui, "class %s: ? keys  Enter next  q quit", link->code);
    } else if (saved && !saved->finished && saved->page > 0 && saved->page < lesson->page_count) {
        if (lesson_player_goto(player, saved->page))
            tui_message(tui, "resumed at page %d of %d (Left goes back, r replays)", saved->page + 1,
                        lesson->page_count);
    }
    tui->lesson_layout = true;
    tui->help = false;
    tui->help_keys = tui_lesson_key_help;
    tui->help_footer = _("the lesson's text scrolls with Up/Down and PgUp/PgDn");
    if (link) /* the teacher sees the page a student starts on, not only the pages turned to */
        class_link_page(link, v->player->page + 1);
    int status = play(v);
    if (status == 0)
        tui->message[0] = '\0'; /* the lesson's hints ("Enter next") mean nothing in the menu */
    save_progress(v);
    /* the solvers are the player's: the panes let go of them first */
    for (int i = 0; i < TUI_MAX_PANES; i++) {
        tui->panes[i].solver = NULL;
        tui->panes[i].note[0] = '\0';
        tui->panes[i].highlight_energy = tui->panes[i].highlight_strain = false;
        tui->panes[i].mode_set = tui->panes[i].camera_set = tui->panes[i].scaled = false;
        tui->panes[i].big_count = 0;
    }
    tui->pane_count = 0;
    tui_layout_free(tui);
    lesson_player_destroy(player);
    free(v);
    return status;
}

/* ---------------------------------------------------------------- the menu */

typedef struct Menu {
    LessonCatalogue catalogue;
    char course[16]; /* the course listed: "en", "uk" */
    int *shown;      /* the catalogue's entries of that course */
    int shown_count;
    bool many_courses; /* l switches */
    int selected, top; /* into shown */
    WINDOW *win;
    Canvas *canvas;
} Menu;

/* Lists course's lessons (m->course), from the first. */
static void menu_show_course(Menu *m)
{
    free(m->shown);
    m->shown = malloc(((size_t)m->catalogue.count + 1) * sizeof *m->shown);
    m->shown_count = 0;
    m->selected = m->top = 0;
    char other[16];
    snprintf(other, sizeof other, "%s", m->course);
    lesson_catalogue_next_course(&m->catalogue, other);
    m->many_courses = strcmp(other, m->course) != 0;
    for (int k = 0; m->shown && k < m->catalogue.count; k++)
        if (strcmp(m->catalogue.entries[k].course, m->course) == 0)
            m->shown[m->shown_count++] = k;
}

/* The line under the title that names the course and the key to the next. */
static void menu_draw_course(Tui *tui, const Menu *m, Canvas *c)
{
    if (!m->many_courses)
        return;
    char next[16], line[160];
    snprintf(next, sizeof next, "%s", m->course);
    lesson_catalogue_next_course(&m->catalogue, next);
    snprintf(line, sizeof line, _("Course: %s (l: %s)"), lesson_course_name(m->course), lesson_course_name(next));
    tui_text_put_fitted(c, 1, 1, c->width - 1, line, PALETTE_DIM, ATTR_NONE, tui->ascii_only);
}

static void menu_draw(Tui *tui, Menu *m, const Progress *progress)
{
    int rows = tui->term.rows, cols = tui->term.cols;
    /* resizeterm stretches a full-screen window to the new size itself: the
     * canvas is what tells whether this frame is laid out for it */
    if (!m->win || !m->canvas || getmaxy(m->win) != rows || getmaxx(m->win) != cols || m->canvas->width != cols ||
        m->canvas->height != rows) {
        if (m->win)
            delwin(m->win);
        m->win = newwin(rows, cols, 0, 0);
        canvas_destroy(m->canvas);
        m->canvas = canvas_create(cols > 0 ? cols : 1, rows > 0 ? rows : 1);
        clearok(curscr, TRUE);
    }
    if (!m->win || !m->canvas)
        return;
    Canvas *c = m->canvas;
    canvas_clear(c);
    tui_text_put(c, 1, 0, cols, _("clothsim - lessons"), PALETTE_HIGHLIGHT, ATTR_BOLD);
    const char *hint =
        tui_text(tui, _("\u2191\u2193 choose  Enter open  q quit "), _("Up/Down choose  Enter open  q quit "));
    int hint_x = cols - tui_text_cells(hint);
    if (hint_x > 22)
        tui_text_put(c, hint_x, 0, cols, hint, PALETTE_DIM, ATTR_NONE);
    if (m->catalogue.count == 0) {
        char no_lessons[PATH_MAX + 80];
        snprintf(no_lessons, sizeof no_lessons, _("No lessons found in ./lessons, %s/lessons"), CLOTHSIM_SHAREDIR);
        tui_text_put(c, 2, 2, cols, no_lessons, PALETTE_TEXT, ATTR_NONE);
        tui_text_put(c, 2, 3, cols, _("or $CLOTHSIM_LESSONS."), PALETTE_TEXT, ATTR_NONE);
    }
    int per_screen = (rows - 3) / 3; /* three rows a lesson: title, summary, air */
    if (per_screen < 1)
        per_screen = 1;
    if (m->selected < m->top)
        m->top = m->selected;
    if (m->selected >= m->top + per_screen)
        m->top = m->selected - per_screen + 1;
    menu_draw_course(tui, m, c);
    for (int k = m->top; k < m->shown_count && k < m->top + per_screen; k++) {
        const LessonEntry *e = &m->catalogue.entries[m->shown[k]];
        int y = 2 + 3 * (k - m->top);
        bool selected = k == m->selected;
        const ProgressEntry *saved = progress ? progress_find(progress, e->path) : NULL;
        char state[64] = "";
        if (e->broken)
            snprintf(state, sizeof state, "%s", _("does not parse"));
        else if (saved && saved->finished && saved->graded)
            snprintf(state, sizeof state, "%s %d/%d", tui_text(tui, _("\u2713 finished"), _("finished")), saved->right,
                     saved->graded);
        else if (saved && saved->finished)
            snprintf(state, sizeof state, "%s", tui_text(tui, _("\u2713 finished"), _("finished")));
        else if (saved)
            snprintf(state, sizeof state, _("at page %d"), saved->page + 1);
        char minutes[32];
        snprintf(minutes, sizeof minutes, _("%.0f min"), e->minutes);
        int right = cols - 2 - tui_text_cells(state);
        int title_limit = right - 12;
        tui_text_put(c, 1, y, cols, selected ? tui_text(tui, "\u25b6", ">") : " ", PALETTE_HIGHLIGHT, ATTR_BOLD);
        int x = tui_text_put_fitted(c, 3, y, title_limit > 4 ? title_limit : cols, e->title,
                                    selected ? PALETTE_HIGHLIGHT : PALETTE_TEXT,
                                    selected ? ATTR_BOLD | ATTR_REVERSE : ATTR_BOLD, tui->ascii_only);
        if (!e->broken)
            tui_text_put(c, x + 2, y, right - 1, minutes, PALETTE_DIM, ATTR_NONE);
        if (state[0] && right > x)
            tui_text_put(c, right, y, cols, state, e->broken ? PALETTE_STRAIN_WARN : PALETTE_HIGHLIGHT, ATTR_NONE);
        tui_text_put_fitted(c, 5, y + 1, cols - 1, e->summary, PALETTE_DIM, ATTR_NONE, tui->ascii_only);
    }
    if (tui->message[0])
        tui_text_put(c, 1, rows - 1, cols, tui->message, PALETTE_TEXT, ATTR_REVERSE);
    tui_blit(tui, m->win, c);
    wnoutrefresh(m->win);
    doupdate();
}

static void menu_free(Menu *m)
{
    if (m->win)
        delwin(m->win);
    canvas_destroy(m->canvas);
    m->win = NULL;
    m->canvas = NULL;
}

/* Opens the lesson at path in the running session; a lesson that does not
 * parse (any more) is reported in the message line. */
static int open_lesson(Tui *tui, Progress *progress, const char *path)
{
    char err[TEXT_MESSAGE_SIZE];
    Lesson *lesson = lesson_parse_file(path, err, sizeof err);
    if (!lesson) {
        tui_message(tui, "%s", err);
        return 0;
    }
    int status = play_lesson(tui, progress, path, lesson);
    lesson_destroy(lesson);
    return status;
}

static int menu_run(Tui *tui, Menu *m, Progress *progress)
{
    int empty_reads = 0;
    bool quit = false;
    while (!quit) {
        int sig = tui_term_quit_signal();
        if (sig)
            return 128 + sig;
        tui_term_take_resize(&tui->term);
        if (tui->message[0] && tui_now() - tui->message_time >= TUI_MESSAGE_SECONDS)
            tui->message[0] = '\0';
        if (tui->term.cols < TUI_MIN_COLS || tui->term.rows < TUI_MIN_ROWS) {
            tui_draw_too_small(tui);
            doupdate();
        } else
            menu_draw(tui, m, progress);
        int timeout = -1;
        if (tui->message[0]) {
            double wait = tui->message_time + TUI_MESSAGE_SECONDS - tui_now();
            timeout = wait > 0.0 ? (int)ceil(wait * 1000.0) : 0;
        }
        TuiWait got = tui_term_wait(&tui->term, timeout);
        if (got == WAIT_HANGUP)
            return 0;
        if (got != WAIT_INPUT)
            continue;
        int key, count = 0;
        while (!quit && (key = tui_read_key()) != ERR) {
            count++;
            int n = m->shown_count;
            switch (key) {
            case KEY_UP:
            case 'k':
                if (m->selected > 0)
                    m->selected--;
                break;
            case KEY_DOWN:
            case 'j':
                if (m->selected + 1 < n)
                    m->selected++;
                break;
            case KEY_HOME:
                m->selected = 0;
                break;
            case KEY_END:
                m->selected = n > 0 ? n - 1 : 0;
                break;
            case '\n':
            case '\r':
            case KEY_ENTER:
            case KEY_RIGHT: {
                if (n == 0)
                    break;
                menu_free(m); /* the lesson draws on the whole screen */
                int status = open_lesson(tui, progress, m->catalogue.entries[m->shown[m->selected]].path);
                if (status != 0)
                    return status < 0 ? 0 : status;
                clearok(curscr, TRUE);
                break;
            }
            case 'l':
                lesson_catalogue_next_course(&m->catalogue, m->course);
                menu_show_course(m);
                break;
            case 'q':
            case 4:
                quit = true;
                break;
            default:
                break;
            }
        }
        empty_reads = count ? 0 : empty_reads + 1;
        if (empty_reads >= 3)
            quit = true;
    }
    return 0;
}

int tui_lessons_menu(Tui *tui)
{
    Menu m = {0};
    tui->message[0] = '\0';
    if (!lesson_catalogue_find(&m.catalogue))
        tui_message(tui, "out of memory: not every lesson is listed");
    lesson_catalogue_course(&m.catalogue, m.course);
    menu_show_course(&m);
    Progress progress;
    progress_load(&progress);
    int status = menu_run(tui, &m, &progress);
    menu_free(&m);
    lesson_catalogue_free(&m.catalogue);
    free(m.shown);
    progress_free(&progress);
    return status;
}

/* ---------------------------------------------------------------- entry */

/* %s: the installed lessons' folder */
static const char learn_usage[] = N_("usage: clothsim learn                 the lessons: a menu of those in\n"
                                     "                                      ./lessons, $CLOTHSIM_LESSONS and\n"
                                     "    %s/lessons\n"
                                     "       clothsim FILE.lesson           play one lesson\n"
                                     "  either takes the sandbox's screen options:\n"
                                     "  --fps N             frames drawn per second (default 30; 10 on a slow link)\n"
                                     "  --ascii             plain ASCII glyphs (fewer bytes than braille)\n"
                                     "  --high-contrast     bold, bright drawing for projectors\n"
                                     "  --background=WHICH  dark, light or auto: the colours for the terminal\n"
                                     "  --stats             on exit, print the frames drawn and the bytes sent\n"
                                     "  --record FILE.cast  the session as an asciicast v2 file, a marker a page\n"
                                     "  --teacher           the teacher's view: the lesson's notes and answers\n"
                                     "\n"
                                     "In a lesson: Enter or Right next, Left previous page, r replays the page,\n"
                                     "Space pauses, 1-9 answer, Up/Down and PgUp/PgDn scroll the text, ? lists the\n"
                                     "keys, q quits. Progress is kept in $XDG_STATE_HOME/clothsim/progress\n"
                                     "(~/.local/state/clothsim/progress when XDG_STATE_HOME is not set).\n"
                                     "The menu lists the course in your language (LANGUAGE, LC_ALL, LC_MESSAGES,\n"
                                     "LANG; lessons/uk/ for Ukrainian) and l switches to another course.\n");

int tui_learn_main(int argc, char **argv)
{
    /* argv[1] is "learn" or the lesson's path */
    bool menu = strcmp(argv[1], "learn") == 0;
    const char *path = menu ? NULL : argv[1];
    Tui *tui = calloc(1, sizeof *tui);
    if (!tui) {
        cli_error("out of memory");
        return 1;
    }
    tui_defaults(tui);
    if (!config_apply(tui, argc, argv)) { /* the lasting choices; the command line wins */
        free(tui);
        return EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf(_(learn_usage), CLOTHSIM_SHAREDIR);
            free(tui);
            return 0;
        }
        if (strcmp(argv[i], "--teacher") == 0) {
            tui->teacher_view = true;
            continue;
        }
        int matched = tui_screen_option(tui, argc, argv, &i);
        if (matched > 0)
            continue;
        if (matched == 0)
            cli_error(_("%s: unknown option '%s' (clothsim learn --help lists them)"), menu ? "learn" : path, argv[i]);
        free(tui);
        return EXIT_USAGE;
    }
    tui_locale(tui);

    /* a lesson that does not parse is reported before the terminal is touched */
    Lesson *lesson = NULL;
    if (!menu) {
        char err[TEXT_MESSAGE_SIZE];
        lesson = lesson_parse_file(path, err, sizeof err);
        if (!lesson) {
            cli_say(err);
            free(tui);
            return EXIT_USAGE;
        }
    }
    Progress progress;
    progress_load(&progress);
    Menu m = {0};
    if (menu && !lesson_catalogue_find(&m.catalogue))
        tui_message(tui, "out of memory: not every lesson is listed");
    if (menu) {
        lesson_catalogue_course(&m.catalogue, m.course);
        menu_show_course(&m);
    }

    /* as the sandbox's: opened before the terminal is touched, in place
     * only once the whole session is written */
    char err[CLI_CUT_PATH * 2 + 200];
    Output recording = {0};
    if (tui->record_path) {
        if (!output_open(&recording, "--record", tui->record_path, err, sizeof err)) {
            cli_error("%s", err);
            lesson_catalogue_free(&m.catalogue);
            free(m.shown);
            progress_free(&progress);
            lesson_destroy(lesson);
            free(tui);
            return EXIT_USAGE;
        }
        tui->recording = &recording;
    }
    int status;
    if (!tui_session_start(tui, err, sizeof err)) {
        cli_error("%s", err);
        status = tui->term.refused ? 2 : 1;
        output_discard(&recording);
    } else {
        if (menu)
            status = menu_run(tui, &m, &progress);
        else {
            status = play_lesson(tui, &progress, path, lesson);
            if (status < 0)
                status = 0;
        }
        menu_free(&m);
        tui_session_stop(tui);
        if (status == 1 && tui->message[0])
            cli_error("%s", tui->message);
        if (!output_close(&recording, err, sizeof err)) {
            cli_error("%s", err);
            if (status == 0)
                status = 1;
        }
        if (tui->stats)
            tui_print_stats(tui);
    }
    lesson_catalogue_free(&m.catalogue);
    free(m.shown);
    progress_free(&progress);
    lesson_destroy(lesson);
    free(tui);
    return status;
}
