/* handout.c - a lesson as one HTML page to print (see handout.h).
 *
 * The lesson is played headless, as `check --run` plays it: runs finish at
 * once, pauses and questions are passed. Its items are written in order, and
 * where the player stops first on a page, and after each run, the panes are
 * drawn by the renderer (src/render) into a canvas and written as text art:
 * a <pre> of braille cells, a <span> per run of one colour. The expects'
 * measured values are the figures printed under the pictures.
 *
 * Plain HTML: the elements of HTML 4 as well as 5 (div, not section), so that
 * any HTML parser reads it, xmllint's too. The page holds everything it needs: one inline stylesheet, no script, no
 * font, image or link to fetch. It prints on A4 and on Letter alike: no
 * paper size is set, the text column is narrower than either sheet less its
 * margins, and a picture or a question is never cut across two sheets.
 */
#include "handout.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "class_main.h"
#include "cli.h"
#include "i18n.h"
#include "lesson_menu.h"
#include "lesson/parser.h"
#include "lesson/player.h"
#include "lesson/view.h"
#include "output.h"
#include "render/canvas.h"
#include "render/render.h"

/* A pane's picture, in cells: narrower than twice LESSON_SHOW_COLUMNS, so
 * that no strip is kept for numbers shown large (the handout prints them). */
#define HANDOUT_PANE_COLS 33
#define HANDOUT_PANE_ROWS 15

typedef struct Handout {
    FILE *f;
    const Lesson *lesson;
    LessonPlayer *player;
    Canvas *canvas;
    bool teacher;
    const char *language; /* the lesson's: the page's lang */
    int emitted;          /* the next item of the page to write */
    bool explanation;     /* student's edition: within the narration that explains an explain */
    int pictures;         /* on this page */
    bool asked;           /* student's edition: a question waits for its answer above the next run's pictures */
    int (*class_counts)[LESSON_MAX_CHOICES]; /* a class's first answers per question and choice, or NULL */
    int class_questions;                     /* the questions class_counts has */
} Handout;

/* text with &, <, > and " escaped. */
static void put_text(FILE *f, const char *text)
{
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*c, f);
        }
    }
}

/* format (translated) filled in, escaped. */
__attribute__((format(printf, 2, 3))) static void put_format(FILE *f, const char *format, ...)
{
    char text[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    put_text(f, text);
}

/* A number a person reads: the locale's decimal separator. */
static const char *number(char *out, size_t size, const char *format, double value)
{
    return i18n_number(out, size, format, value);
}

static const char stylesheet[] =
    "body{font:11pt/1.45 'DejaVu Serif','Liberation Serif',Georgia,serif;max-width:175mm;margin:1em auto;"
    "padding:0 1em;color:#000;background:#fff}\n"
    "h1{font-size:18pt;margin:0 0 .2em}h2{font-size:13pt;margin:1.4em 0 .4em;border-bottom:1px solid #888}\n"
    ".meta{color:#444}.who{margin:.8em 0 1.2em;white-space:pre}\n"
    ".figure{display:flex;flex-wrap:wrap;gap:4mm;margin:.6em 0;break-inside:avoid;page-break-inside:avoid}\n"
    ".pane{border:1px solid #bbb;padding:1mm 2mm}.pane p{margin:0;font-size:8.5pt;color:#333}\n"
    "pre.art{font:8.5pt/1.0 'DejaVu Sans Mono','Noto Sans Mono','Liberation Mono',monospace;margin:0;color:#000}\n"
    ".question{break-inside:avoid;page-break-inside:avoid;margin:.6em 0}"
    ".question ol{list-style:none;padding-left:1em;margin:.2em 0}\n"
    ".right{font-weight:bold}.feedback{color:#333;font-style:italic}\n"
    ".line{height:1.7em;border-bottom:1px solid #999}.lines{margin:.2em 0 .9em}\n"
    ".figures{font-size:9.5pt;margin:.2em 0 .6em 1.2em;padding:0}\n"
    ".teacher{border-left:3px solid #2a7;padding:.1em .6em;margin:.4em 0;background:#eef8f1}\n"
    ".recap{font-weight:bold}.play{font-style:italic}\n"
    ".reveal{border-top:2px dashed #555;padding-top:.3em;margin-top:1.2em;font-style:italic;color:#333}\n"
    ".held{color:#161}.failed{color:#a00;font-weight:bold}\n"
    ".foot{margin-top:2em;font-size:8.5pt;color:#555}\n"
    "@page{margin:14mm}\n"
    "@media print{body{max-width:none;margin:0;padding:0}h2{break-after:avoid;page-break-after:avoid}"
    ".teacher{background:none}}\n";

/* One class a palette colour, as on a light background (paper). */
static void put_palette(FILE *f)
{
    for (int k = 1; k < PALETTE_COUNT; k++) {
        if (k == PALETTE_TEXT)
            continue;
        fprintf(f, ".k%d{color:#%06x}", k, (unsigned)palette_colour(k, PALETTE_ON_LIGHT, false) & 0xffffffu);
    }
    fputc('\n', f);
}

/* The canvas as a <pre>: a span a run of cells of one colour. */
static void put_canvas(FILE *f, const Canvas *c)
{
    fputs("<pre class=\"art\">", f);
    for (int y = 0; y < c->height; y++) {
        int open = -1; /* the colour of the open span; -1 none */
        for (int x = 0; x < c->width; x++) {
            const CanvasCell *cell = &c->cells[y * c->width + x];
            uint32_t glyph = cell->glyph == 0x2800 || cell->glyph == 0 ? ' ' : cell->glyph;
            int colour = glyph == ' ' || cell->fg == PALETTE_DEFAULT || cell->fg == PALETTE_TEXT ? -1 : cell->fg;
            if (colour != open && glyph != ' ') {
                if (open >= 0)
                    fputs("</span>", f);
                if (colour >= 0)
                    fprintf(f, "<span class=\"k%d\">", colour);
                open = colour;
            }
            char bytes[8] = "";
            int n = canvas_utf8_encode(glyph, bytes);
            bytes[n] = '\0';
            if (glyph == '<' || glyph == '>' || glyph == '&')
                fputs(glyph == '<' ? "&lt;" : glyph == '>' ? "&gt;" : "&amp;", f);
            else
                fputs(bytes, f);
        }
        if (open >= 0)
            fputs("</span>", f);
        fputc('\n', f);
    }
    fputs("</pre>", f);
}

/* The panes as they are now, side by side, each with its label and time. */
static void put_picture(Handout *h, const char *caption)
{
    const LessonPlayer *p = h->player;
    fprintf(h->f, "<div class=\"figure\" title=\"");
    put_text(h->f, caption);
    fputs("\">\n", h->f);
    for (int i = 0; i < p->pane_count; i++) {
        RenderOptions base, options;
        render_options_default(&base);
        base.legend = false;
        lesson_view_options(p, i, &base, &options);
        Camera camera;
        lesson_view_camera(p, i, h->canvas->width, h->canvas->height, &camera);
        RenderExtras extras; /* what the view draws over the cloth: marks, cuts, a trace */
        lesson_view_extras(p, i, &extras);
        render_solver_with(h->canvas, &camera, p->panes[i].solver, &options, &extras);
        const Solver *s = p->panes[i].solver;
        fputs("<div class=\"pane\"><p><b>", h->f);
        put_text(h->f, p->panes[i].label && p->panes[i].label[0] ? p->panes[i].label : p->panes[i].name);
        fputs("</b> &middot; ", h->f);
        put_text(h->f, caption);
        char t[32];
        fputs(" &middot; ", h->f);
        if (s->exploded)
            put_format(h->f, _("exploded at t = %s s"), number(t, sizeof t, "%.2f", s->exploded_time));
        else
            put_format(h->f, _("t = %s s"), number(t, sizeof t, "%.2f", s->time));
        fputs("</p>\n", h->f);
        put_canvas(h->f, h->canvas);
        fputs("</div>\n", h->f);
    }
    fputs("</div>\n", h->f);
    h->pictures++;
}

/* A measured value as a person reads it: strains and screen shares as %. */
static void put_value(FILE *f, int metric, double value)
{
    bool percent = metric == METRIC_MAX_STRAIN || metric == METRIC_MEAN_STRAIN || metric == METRIC_SCREEN_COVER ||
                   metric == METRIC_SCREEN_ROWS || metric == METRIC_SCREEN_HOT || metric == METRIC_SCREEN_UNLIKE ||
                   metric == METRIC_SCREEN_TRACE_ROWS || metric == METRIC_SCREEN_OFF_PARABOLA;
    char text[32];
    if (percent)
        fprintf(f, "%s %%", number(text, sizeof text, "%.3g", 100.0 * value));
    else if (lesson_metrics[metric].unit[0])
        fprintf(f, "%s %s", number(text, sizeof text, "%.4g", value), _(lesson_metrics[metric].unit));
    else
        fputs(number(text, sizeof text, "%.4g", value), f);
}

/* A measure's name as the lesson screen shows it ("max strain" for
 * max_strain, translated); the name itself where there is no translation. */
static const char *metric_label(int metric, char *out, size_t size)
{
    snprintf(out, size, "%s", lesson_metrics[metric].name);
    for (char *c = out; *c; c++)
        if (*c == '_')
            *c = ' ';
    const char *shown = gettext(out);
    return shown == out ? lesson_metrics[metric].name : shown;
}

/* An expect as a figure: what was measured; the teacher's edition adds the
 * claim and whether it held. */
static void put_expect(Handout *h, int k)
{
    const LessonItem *item = &h->lesson->items[k];
    const LessonResult *r = &h->player->results[k];
    const LessonExpect *e = &item->expect;
    int pane = lesson_player_find_pane(h->player, item->pane);
    const char *label = pane >= 0 ? h->player->panes[pane].label : item->pane;
    fputs("<li>", h->f);
    put_text(h->f, label && label[0] ? label : item->pane ? item->pane : "");
    fputs(": ", h->f);
    if (!r->reached) {
        put_text(h->f, _("not measured"));
    } else if (e->kind == EXPECT_EXPLODED) {
        const Solver *s = pane >= 0 ? h->player->panes[pane].solver : NULL;
        char t[32];
        if (s && s->exploded)
            put_format(h->f, _("exploded at t = %s s"), number(t, sizeof t, "%.3g", s->exploded_time));
        else
            put_text(h->f, _("did not explode"));
    } else {
        char name[64];
        put_text(h->f, metric_label(e->metric, name, sizeof name));
        fputs(" = ", h->f);
        put_value(h->f, e->metric, r->seen);
        if (lesson_metric_on_screen(e->metric)) {
            fputc(' ', h->f);
            put_format(h->f, _("(as drawn at %dx%d)"), lesson_screen_sizes[0][0], lesson_screen_sizes[0][1]);
        }
    }
    if (h->teacher) {
        fputs(r->reached && r->passed ? " <span class=\"held\">&mdash; " : " <span class=\"failed\">&mdash; ", h->f);
        /* TRANSLATORS: followed by the lesson's expect line, which stays as written */
        put_text(h->f, r->reached && r->passed ? _("claim held:") : _("claim FAILED:"));
        fputs(" expect ", h->f);
        put_text(h->f, e->source);
        fputs("</span>", h->f);
    }
    fputs("</li>\n", h->f);
}

/* What the class answered at question item k (first tries), as bars: a
 * line a choice, its number, a bar as long as its share and the count. */
static void put_class_answers(Handout *h, int k)
{
    int number = lesson_item_number(h->lesson, k);
    if (!h->class_counts || number < 1 || number > h->class_questions)
        return;
    const LessonItem *q = &h->lesson->items[k];
    const int *counts = h->class_counts[number - 1];
    int total = 0, most = 0;
    for (int c = 0; c < q->choice_count; c++) {
        total += counts[c];
        most = counts[c] > most ? counts[c] : most;
    }
    fputs("<p class=\"class\"><b>", h->f);
    put_format(h->f, _("The class answered (%d first tries):"), total);
    fputs("</b><br>\n", h->f);
    for (int c = 0; c < q->choice_count; c++) {
        int bar = most > 0 ? (counts[c] * 20 + most - 1) / most : 0;
        fprintf(h->f, "%d <span class=\"bar\">", c + 1);
        for (int b = 0; b < bar; b++)
            fputs("&#9608;", h->f);
        fprintf(h->f, "</span> %d<br>\n", counts[c]);
    }
    fputs("</p>\n", h->f);
}

static void put_question(Handout *h, int k)
{
    const LessonItem *q = &h->lesson->items[k];
    fputs("<div class=\"question\"><p><b>", h->f);
    put_format(h->f, _("Question %d."), lesson_item_number(h->lesson, k));
    fputs("</b> ", h->f);
    put_text(h->f, q->text);
    fputs("</p>\n<ol>\n", h->f);
    for (int c = 0; c < q->choice_count; c++) {
        bool right = h->teacher && c == q->answer;
        fprintf(h->f, "<li%s>%s %d. ", right ? " class=\"right\"" : "", right ? "&#9745;" : "&#9744;", c + 1);
        put_text(h->f, q->choices[c].text);
        if (h->teacher && q->choices[c].feedback) {
            fputs(" <span class=\"feedback\">&mdash; ", h->f);
            put_text(h->f, q->choices[c].feedback);
            fputs("</span>", h->f);
        }
        fputs("</li>\n", h->f);
    }
    fputs("</ol>\n", h->f);
    put_class_answers(h, k);
    if (h->teacher) {
        fputs("<p class=\"teacher\">", h->f);
        if (q->answer >= 0)
            put_format(h->f, _("The answer is %d."), q->answer + 1);
        else
            put_text(h->f, _("No answer is right or wrong: the question asks for a prediction."));
        fputs("</p>\n", h->f);
    }
    fputs("</div>\n", h->f);
}

/* A homework: the task and a line for the number; the teacher's edition
 * adds the answer and the checker's proof of it. */
static void put_homework(Handout *h, int k)
{
    const LessonItem *item = &h->lesson->items[k];
    const LessonResult *r = &h->player->results[k];
    fputs("<div class=\"question\"><p><b>", h->f);
    put_format(h->f, _("Homework %d."), lesson_item_number(h->lesson, k));
    fputs("</b> ", h->f);
    put_text(h->f, item->text);
    fputs("</p>\n<p>", h->f);
    put_text(h->f, _("Your answer:"));
    fputs(" ____________</p>\n", h->f);
    if (h->teacher) {
        char seconds[32];
        number(seconds, sizeof seconds, "%g", item->seconds);
        fputs("<p class=\"teacher\">", h->f);
        /* %2$s: a setting's name (substeps); %3$s: the condition, as the lesson writes it */
        put_format(h->f,
                   item->seek < 0 ? _("The answer is %d: the smallest %s for which '%s' holds after %s s.")
                                  : _("The answer is %d: the largest %s for which '%s' holds after %s s."),
                   item->answer, item->names[0], item->expect.source, seconds);
        fprintf(h->f, " <span class=\"%s\">", r->reached && r->passed ? "held" : "failed");
        const char *proof = r->reached ? strstr(r->message, "homework ") : NULL; /* without file:line:col */
        char shown[sizeof r->message];
        snprintf(shown, sizeof shown, "%s", proof ? proof : _("not checked"));
        i18n_decimals(shown, sizeof shown);
        put_text(h->f, shown);
        fputs("</span></p>\n", h->f);
    }
    fputs("</div>\n", h->f);
}

/* Writes the page's items from h->emitted up to (not including) end. */
static void put_items(Handout *h, int end)
{
    bool in_figures = false;
    for (int k = h->emitted; k < end; k++) {
        const LessonItem *item = &h->lesson->items[k];
        if (item->kind != LESSON_EXPECT && in_figures) {
            fputs("</ul>\n", h->f);
            in_figures = false;
        }
        if (item->kind != LESSON_SAY)
            h->explanation = false;
        switch (item->kind) {
        case LESSON_SAY:
            if (h->explanation) /* the student writes their own first */
                break;
            fputs("<p>", h->f);
            put_text(h->f, item->text);
            fputs("</p>\n", h->f);
            break;
        case LESSON_QUESTION:
            put_question(h, k);
            h->asked = !h->teacher;
            break;
        case LESSON_EXPLAIN:
            fputs("<div class=\"question\"><p><b>", h->f);
            put_text(h->f, _("Explain."));
            fputs("</b> ", h->f);
            put_text(h->f, item->text);
            /* ruled lines drawn as borders: a printer leaves out backgrounds */
            fputs("</p>\n<div class=\"lines\"><div class=\"line\"></div><div class=\"line\"></div>"
                  "<div class=\"line\"></div></div></div>\n",
                  h->f);
            h->explanation = !h->teacher;
            break;
        case LESSON_EXPECT: {
            /* two claims on one measure (exploded after 1 s, before 3 s) are
             * one figure to a student, who is not shown the claims */
            const LessonItem *before = in_figures ? &h->lesson->items[k - 1] : NULL;
            if (!h->teacher && before && before->kind == LESSON_EXPECT &&
                before->expect.metric == item->expect.metric && before->expect.other_pane == item->expect.other_pane &&
                before->pane && item->pane && strcmp(before->pane, item->pane) == 0)
                break;
            if (!in_figures)
                fputs("<ul class=\"figures\">\n", h->f);
            in_figures = true;
            put_expect(h, k);
            break;
        }
        case LESSON_HOMEWORK:
            put_homework(h, k);
            break;
        case LESSON_TEACHER:
            if (!h->teacher)
                break;
            fputs("<p class=\"teacher\"><b>", h->f);
            put_text(h->f, _("Teacher:"));
            fputs("</b> ", h->f);
            put_text(h->f, item->text);
            fputs("</p>\n", h->f);
            break;
        case LESSON_RECAP:
            fputs("<p class=\"recap\">", h->f);
            put_text(h->f, _("In one line:"));
            fputc(' ', h->f);
            put_text(h->f, item->text);
            fputs("</p>\n", h->f);
            break;
        case LESSON_PLAY: {
            char names[512] = "";
            for (int n = 0; n < item->name_count; n++) {
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", n == 0 ? "" : ", ", item->names[n]);
            }
            fputs("<p class=\"play\">", h->f);
            /* %s: the settings the student may change (substeps, stiffness ...) */
            put_format(h->f, _("Your turn at the keyboard: change %s and watch what happens."), names);
            fputs("</p>\n", h->f);
            break;
        }
        default:
            break;
        }
    }
    if (in_figures)
        fputs("</ul>\n", h->f);
    if (end > h->emitted)
        h->emitted = end;
}

/* Plays the page the player is on to its end, writing it. */
static bool put_page(Handout *h)
{
    LessonPlayer *p = h->player;
    const Lesson *lesson = h->lesson;
    const LessonPage *page = &lesson->pages[p->page];
    fprintf(h->f, "<div class=\"page\" id=\"page-%d\">\n<h2>%d. ", p->page + 1, p->page + 1);
    put_text(h->f, page->heading && page->heading[0] ? page->heading : lesson->title);
    fputs("</h2>\n", h->f);
    h->emitted = page->first_item;
    h->explanation = false;
    h->pictures = 0;
    h->asked = false;
    int page_number = p->page;
    while (p->page == page_number && p->state != LESSON_FINISHED) {
        if (p->state == LESSON_PAGE_END) {
            put_items(h, page->first_item + page->item_count);
            if (h->pictures == 0)
                put_picture(h, _("at the end of the page"));
            if (!lesson_player_next(p)) /* the next page, or the end */
                return false;
            break;
        }
        put_items(h, p->item);
        if (p->state == LESSON_RUNNING) {
            const LessonItem *run = &lesson->items[p->item];
            char caption[160], seconds[32];
            if (run->steps)
                snprintf(caption, sizeof caption,
                         ngettext("after a run of %lld step", "after a run of %lld steps", (unsigned long)run->steps),
                         (long long)run->steps);
            else
                snprintf(caption, sizeof caption, _("after a run of %s s"),
                         number(seconds, sizeof seconds, "%g", run->seconds));
            if (!lesson_player_finish(p))
                return false;
            if (h->asked) {
                /* The run answers the question just asked: on paper the
                 * answer sits right under it, so a line tells the student
                 * to commit to theirs first (and where to fold the sheet). */
                fputs("<p class=\"reveal\">", h->f);
                put_text(h->f, _("Answer the question above first. Below: what the run showed."));
                fputs("</p>\n", h->f);
                h->asked = false;
            }
            put_picture(h, caption);
        } else {
            if (h->pictures == 0)
                put_picture(h, _("as the page opens"));
            if (!lesson_player_next(p))
                return false;
        }
    }
    fputs("</div>\n", h->f);
    return !p->failed;
}

bool handout_write(FILE *f, const Lesson *lesson, bool teacher, const char *language)
{
    return handout_write_class(f, lesson, teacher, language, NULL, 0);
}

bool handout_write_class(FILE *f, const Lesson *lesson, bool teacher, const char *language,
                         int (*class_counts)[LESSON_MAX_CHOICES], int class_questions)
{
    Handout h = {.f = f,
                 .lesson = lesson,
                 .teacher = teacher,
                 .language = language && language[0] ? language : "en",
                 .class_counts = class_counts,
                 .class_questions = class_questions};
    h.player = lesson_player_create(lesson);
    if (h.player)
        h.player->verify_homework = true; /* the teacher's edition prints the proof */
    h.canvas = canvas_create(HANDOUT_PANE_COLS, HANDOUT_PANE_ROWS);
    if (!h.player || !h.canvas) {
        lesson_player_destroy(h.player);
        canvas_destroy(h.canvas);
        return false;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"", f);
    put_text(f, h.language);
    fputs("\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    put_text(f, lesson->title);
    if (teacher) {
        fputs(" (", f);
        put_text(f, _("teacher's edition"));
        fputc(')', f);
    }
    fputs("</title>\n<style>\n", f);
    fputs(stylesheet, f);
    put_palette(f);
    fputs("</style>\n</head>\n<body>\n<div class=\"head\">\n<h1>", f);
    put_text(f, lesson->title);
    fputs("</h1>\n<p class=\"meta\">", f);
    put_text(f, lesson->summary);
    char minutes[32];
    fputs(" &middot; ", f);
    put_format(f, _("%s min"), number(minutes, sizeof minutes, "%g", lesson->minutes));
    fputs(" &middot; ", f);
    put_format(f, ngettext("%d page", "%d pages", (unsigned long)lesson->page_count), lesson->page_count);
    if (teacher) {
        fputs(" &middot; <b>", f);
        put_text(f, _("teacher's edition"));
        fputs("</b>", f);
    }
    fputs("</p>\n", f);
    if (teacher) {
        const char *notes[32];
        int count = lesson_teacher_notes(lesson, -1, notes, 32);
        for (int k = 0; k < count; k++) {
            fputs("<p class=\"teacher\"><b>", f);
            put_text(f, _("Teacher:"));
            fputs("</b> ", f);
            put_text(f, notes[k]);
            fputs("</p>\n", f);
        }
    } else {
        fputs("<p class=\"who\">", f);
        put_text(f, _("Name:"));
        fputs(" ______________________________    ", f);
        put_text(f, _("Date:"));
        fputs(" ______________</p>\n", f);
    }
    fputs("</div>\n", f);
    bool ok = true;
    while (ok && h.player->state != LESSON_FINISHED)
        ok = put_page(&h);
    if (ok && lesson->exit_question) {
        /* the question the class answers on its way out: last, with room */
        fputs("<div class=\"question exit\"><p><b>", f);
        put_text(f, _("Exit question."));
        fputs("</b> ", f);
        put_text(f, lesson->exit_question);
        fputs("</p>\n", f);
        if (!teacher)
            fputs("<div class=\"lines\"><div class=\"line\"></div><div class=\"line\"></div>"
                  "<div class=\"line\"></div></div>",
                  f);
        fputs("</div>\n", f);
    }
    int graded = 0;
    for (int k = 0; k < lesson->item_count; k++)
        if (lesson->items[k].kind == LESSON_QUESTION && lesson->items[k].answer >= 0)
            graded++;
    fputs("<div class=\"foot\">", f);
    put_format(f,
               ngettext("%d question with a right answer.", "%d questions with a right answer.", (unsigned long)graded),
               graded);
    fputc(' ', f);
    /* %1$s: the version; %2$s: the lesson's file */
    put_format(f,
               ngettext("Every picture and figure above was drawn and measured by clothsim %s, playing the "
                        "lesson %s headless: %d of %d claim held.",
                        "Every picture and figure above was drawn and measured by clothsim %s, playing the "
                        "lesson %s headless: %d of %d claims held.",
                        (unsigned long)lesson->expect_count),
               CLOTHSIM_VERSION, lesson->name, h.player->expects_passed, lesson->expect_count);
    fputs("</div>\n</body>\n</html>\n", f);
    lesson_player_destroy(h.player);
    canvas_destroy(h.canvas);
    return ok;
}

/* ---------------------------------------------------------------- the command */

static const char usage[] = N_("usage: clothsim handout FILE.lesson [--teacher] [--class CODE|FILE.db]\n"
                               "                        [-o FILE.html]\n"
                               "\n"
                               "The lesson as one HTML page to print or share, with nothing to fetch: each\n"
                               "page's text, its questions with room to answer, pictures of the panes drawn\n"
                               "at the page's key moments, and the figures the lesson measures (it is\n"
                               "played headless, as check --run plays it). It prints on A4 and Letter. In\n"
                               "your language where the lesson has a translation (lessons/uk/ for uk).\n"
                               "  --teacher   the teacher's edition: the notes, the answers, the feedback,\n"
                               "              the explanations and every claim, held or not\n"
                               "  --class C   under each question, what the class C answered (first\n"
                               "              tries; its code or FILE.db, as clothsim class report)\n"
                               "  -o FILE     where to write it (- standard output); by default NAME.html,\n"
                               "              or NAME-teacher.html, in the current folder\n");

/* The lesson's translation in the user's language (lesson_user_languages),
 * lessons/LANG/NAME beside lessons/NAME, into out; or path itself when the
 * first language with a translation is English or there is none. language
 * (16 bytes) gets the language of the lesson chosen: that of the
 * translation, else the course its folder names (lessons/uk/), else "en". */
static const char *translation(const char *path, char *out, size_t size, char *language)
{
    char languages[LESSON_MAX_LANGUAGES][16];
    int count = lesson_user_languages(getenv("LANGUAGE"), getenv("LC_ALL"), getenv("LC_MESSAGES"), getenv("LANG"),
                                      languages, LESSON_MAX_LANGUAGES);
    const char *slash = strrchr(path, '/');
    int folder = slash ? (int)(slash - path + 1) : 0;
    for (int k = 0; k < count; k++) {
        if (strcmp(languages[k], "en") == 0)
            break;
        int n = snprintf(out, size, "%.*s%s/%s", folder, path, languages[k], path + folder);
        if (n > 0 && (size_t)n < size && access(out, R_OK) == 0) {
            snprintf(language, 16, "%.15s", languages[k]);
            return out;
        }
    }
    /* the folder's name, when it is a course the menu knows by name */
    snprintf(language, 16, "en");
    if (folder > 1) {
        int from = folder - 1;
        while (from > 0 && path[from - 1] != '/')
            from--;
        char course[16];
        snprintf(course, sizeof course, "%.*s", folder - 1 - from < 15 ? folder - 1 - from : 15, path + from);
        if (strcmp(lesson_course_name(course), course) != 0)
            snprintf(language, 16, "%.15s", course);
    }
    return path;
}

int handout_main(int argc, char **argv)
{
    const char *lesson_path = NULL, *out_path = NULL, *class_operand = NULL;
    bool teacher = false, options = true;
    for (int i = 1; i < argc; i++) {
        if (options && strcmp(argv[i], "--") == 0) {
            options = false; /* what follows is a file name, whatever it looks like */
        } else if (options && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)) {
            fputs(_(usage), stdout);
            return EXIT_SUCCESS;
        } else if (options && strcmp(argv[i], "--teacher") == 0) {
            teacher = true;
        } else if (options && (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0)) {
            if (i + 1 >= argc) {
                cli_error("handout: %s needs a file name (clothsim handout --help)", argv[i]);
                return EXIT_USAGE;
            }
            out_path = argv[++i];
        } else if (options && strcmp(argv[i], "--class") == 0) {
            if (i + 1 >= argc) {
                cli_error("handout: %s needs a class's code or FILE.db (clothsim handout --help)", argv[i]);
                return EXIT_USAGE;
            }
            class_operand = argv[++i];
        } else if (options && argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_error("handout: unknown option '%s' (clothsim handout --help)", cli_cut(argv[i], CLI_CUT_WORD));
            return EXIT_USAGE;
        } else if (lesson_path) {
            cli_error("handout: one lesson at a time (got '%s' after '%s')", cli_cut(argv[i], CLI_CUT_WORD),
                      cli_cut(lesson_path, CLI_CUT_WORD));
            return EXIT_USAGE;
        } else {
            lesson_path = argv[i];
        }
    }
    if (!lesson_path) {
        cli_error("handout: name a lesson file (clothsim handout --help)");
        return EXIT_USAGE;
    }
    char err[CLI_CUT_PATH * 2 + 200], translated[1024], language[16];
    lesson_path = translation(lesson_path, translated, sizeof translated, language);
    Lesson *lesson = lesson_parse_file(lesson_path, err, sizeof err);
    if (!lesson) {
        cli_say(err);
        return EXIT_USAGE;
    }
    int(*counts)[LESSON_MAX_CHOICES] = NULL, questions = 0;
    for (int k = 0; k < lesson->item_count; k++)
        questions += lesson->items[k].kind == LESSON_QUESTION;
    if (class_operand) {
        counts = calloc((size_t)(questions > 0 ? questions : 1), sizeof *counts);
        int status = counts ? class_histograms(class_operand, questions, counts) : EXIT_FAILURE;
        if (status != 0) {
            if (!counts)
                cli_error("handout: out of memory");
            free(counts);
            lesson_destroy(lesson);
            return status;
        }
    }
    char default_path[512];
    if (!out_path) {
        const char *slash = strrchr(lesson_path, '/');
        const char *name = slash ? slash + 1 : lesson_path;
        size_t length = strlen(name);
        if (length > 7 && strcmp(name + length - 7, ".lesson") == 0)
            length -= 7;
        snprintf(default_path, sizeof default_path, "%.*s%s.html", (int)(length < 400 ? length : 400), name,
                 teacher ? "-teacher" : "");
        out_path = default_path;
    }
    Output out = {0};
    if (!output_open(&out, "-o", out_path, err, sizeof err)) {
        cli_error("%s", err);
        lesson_destroy(lesson);
        free(counts);
        return EXIT_USAGE;
    }
    bool written = handout_write_class(out.f, lesson, teacher, language, counts, questions);
    lesson_destroy(lesson);
    free(counts);
    if (!written) {
        output_discard(&out);
        cli_error("handout: out of memory");
        return EXIT_FAILURE;
    }
    if (!output_close(&out, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_FAILURE;
    }
    if (strcmp(out_path, "-") != 0)
        printf("%s\n", out_path);
    return EXIT_SUCCESS;
}
