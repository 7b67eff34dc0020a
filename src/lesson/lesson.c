/* lesson.c - the lesson data model's shared pieces: names, the error funnel,
 * suggestions, and a parsed lesson's destruction (its memory: arena.c). */
#include "lesson.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "core/text.h"

const char *const lesson_item_names[] = {
    [LESSON_SAY] = ">",
    [LESSON_SET] = "set",
    [LESSON_PANE] = "pane",
    [LESSON_CLOSE] = "close",
    [LESSON_LABEL] = "label",
    [LESSON_RESET] = "reset",
    [LESSON_RUN] = "run",
    [LESSON_STEP] = "step",
    [LESSON_SUBSTEP] = "substep",
    [LESSON_PASS] = "pass",
    [LESSON_PAUSE] = "pause",
    [LESSON_HIGHLIGHT] = "highlight",
    [LESSON_QUESTION] = "question",
    [LESSON_PLAY] = "play",
    [LESSON_EXPECT] = "expect",
    [LESSON_VIEW] = "view",
    [LESSON_EXPLAIN] = "explain",
    [LESSON_RECAP] = "recap",
    [LESSON_HOMEWORK] = "homework",
    [LESSON_TEACHER] = "teacher",
};

const LessonMetricInfo lesson_metrics[] = {
    [METRIC_KINETIC] = {"kinetic", DIM_ENERGY, N_("J"), "kinetic energy"},
    [METRIC_POTENTIAL] = {"potential", DIM_ENERGY, N_("J"), "gravitational energy, zero at y = 0"},
    [METRIC_ELASTIC] = {"elastic", DIM_ENERGY, N_("J"), "energy stored in the links"},
    [METRIC_TOTAL] = {"total", DIM_ENERGY, N_("J"), "kinetic + potential + elastic"},
    [METRIC_MAX_STRAIN] = {"max_strain", DIM_NUMBER, "", "largest stretch of a structural link, length/rest - 1"},
    [METRIC_MEAN_STRAIN] = {"mean_strain", DIM_NUMBER, "", "mean stretch of the structural links"},
    [METRIC_RESIDUAL] = {"residual", DIM_NUMBER, "", "mean |length - rest| / rest after the last pass"},
    [METRIC_PENETRATION] = {"penetration", DIM_LENGTH, N_("m"), "deepest point of a link inside the collider"},
    [METRIC_TORN] = {"torn", DIM_NUMBER, "", "links torn"},
    [METRIC_EXPLODED] = {"exploded", DIM_NUMBER, "", "1 once the solver blew up"},
    [METRIC_TIME] = {"time", DIM_TIME, N_("s"), "simulated time since the pane was built"},
    [METRIC_STEP] = {"step", DIM_NUMBER, "", "steps since the pane was built"},
    [METRIC_OMEGA_DT] = {"omega_dt", DIM_NUMBER, "", "fastest spring mode times the substep; Verlet needs < 2"},
    [METRIC_HIGHEST] = {"highest", DIM_LENGTH, N_("m"), "height of the highest particle"},
    [METRIC_LOWEST] = {"lowest", DIM_LENGTH, N_("m"), "height of the lowest particle"},
    [METRIC_CATENARY] = {"catenary", DIM_LENGTH, N_("m"), "the first row's largest distance from a cosh(x/a)"},
    [METRIC_CLOSEST] = {"closest", DIM_LENGTH, N_("m"),
                        "closest pair of particles two or more links apart (up to 5 cm)"},
    [METRIC_CENTRE_X] = {"centre_x", DIM_LENGTH, N_("m"), "the particles' mean x; 0 for a cloth hung symmetrically"},
    [METRIC_CG_ITERATIONS] = {"cg_iterations", DIM_NUMBER, "",
                              "implicit: conjugate-gradient iterations of the last substep's solve"},
    [METRIC_CG_RESIDUAL] = {"cg_residual", DIM_NUMBER, "",
                            "implicit: the residual that solve left, over its right-hand side"},
    [METRIC_CG_UNCONVERGED] = {"cg_unconverged", DIM_NUMBER, "",
                               "implicit: substeps whose solve did not converge (cg_max_iterations reached)"},
    [METRIC_SCREEN_COVER] = {"screen_cover", DIM_NUMBER, "", "fraction of the pane's view the cloth covers, as drawn"},
    [METRIC_SCREEN_ROWS] = {"screen_rows", DIM_NUMBER, "", "the cloth's drawn height as a fraction of the view's"},
    [METRIC_SCREEN_HOLES] = {"screen_holes", DIM_NUMBER, "", "empty cells the drawn cloth encloses"},
    [METRIC_SCREEN_HOT] = {"screen_hot", DIM_NUMBER, "", "fraction of the drawn cloth in the over-limit strain colour"},
    [METRIC_SCREEN_UNLIKE] = {"screen_unlike", DIM_NUMBER, "",
                              "fraction of drawn cells where this pane and another differ"},
    [METRIC_SCREEN_TRACE_ROWS] = {"screen_trace_rows", DIM_NUMBER, "",
                                  "height of the drawn trace, as a fraction of the view (view trace=on)"},
    [METRIC_SCREEN_OFF_PARABOLA] =
        {"screen_off_parabola", DIM_NUMBER, "",
         "fraction of the drawn parabola's cells (view parabola=on) the drawn cloth leaves bare"},
};

const char *const lesson_op_names[] = {"<", "<=", ">", ">=", "=", NULL};

const char *const lesson_plot_names[] = {"energy", "strain", NULL};

const char *const lesson_view_keys[] = {"mode", "camera", "yaw",   "pitch", "zoom",     "energy", "strain", "ramp",
                                        "show", "marks",  "trace", "torn",  "parabola", "target", "cuts",   NULL};
const char *const lesson_camera_names[] = {"own", "shared", "follow", NULL};

void lesson_view_default(LessonView *view)
{
    memset(view, 0, sizeof *view);
    view->mode = -1;
    view->camera = VIEW_CAMERA_OWN;
    view->zoom = 1.0;
    view->energy_scale = VIEW_SCALE_AUTO;
    view->strain_scale = VIEW_SCALE_AUTO;
}

void lesson_view_merge(LessonView *view, const LessonView *item)
{
    unsigned set = item->set;
    if (set & VIEW_SET_MODE)
        view->mode = item->mode;
    if (set & VIEW_SET_CAMERA)
        view->camera = item->camera;
    if (set & VIEW_SET_YAW)
        view->yaw = item->yaw;
    if (set & VIEW_SET_PITCH)
        view->pitch = item->pitch;
    if (set & VIEW_SET_ZOOM)
        view->zoom = item->zoom;
    if (set & VIEW_SET_ENERGY) {
        view->energy_scale = item->energy_scale;
        view->energy_lo = item->energy_lo, view->energy_hi = item->energy_hi;
    }
    if (set & VIEW_SET_STRAIN) {
        view->strain_scale = item->strain_scale;
        view->strain_lo = item->strain_lo, view->strain_hi = item->strain_hi;
    }
    if (set & VIEW_SET_RAMP)
        view->ramp = item->ramp;
    if (set & VIEW_SET_MARKS)
        view->marks = item->marks;
    if (set & VIEW_SET_TRACE)
        view->trace = item->trace;
    if (set & VIEW_SET_TORN)
        view->torn = item->torn;
    if (set & VIEW_SET_PARABOLA)
        view->parabola = item->parabola;
    if (set & VIEW_SET_CUTS)
        view->cuts = item->cuts;
    if (set & VIEW_SET_TARGET)
        memcpy(view->target, item->target, sizeof view->target);
    if (set & VIEW_SET_SHOW) {
        view->show_count = item->show_count;
        memcpy(view->shows, item->shows, sizeof view->shows);
    }
    view->set |= set;
}

int lesson_metric_find(const char *name)
{
    for (int i = 0; i < METRIC_COUNT; i++)
        if (strcmp(lesson_metrics[i].name, name) == 0)
            return i;
    return -1;
}

void lesson_verror(char *out, size_t out_size, const char *file, int line, int col, const char *format, va_list args)
{
    if (out_size == 0)
        return;
    char raw[TEXT_MESSAGE_SIZE];
    int n = snprintf(raw, sizeof raw, "%s:%d:%d: ", file, line, col);
    if (n >= 0 && (size_t)n < sizeof raw)
        vsnprintf(raw + n, sizeof raw - (size_t)n, T_(format), args);
    text_escape_controls(raw, out, out_size); /* the file's name and the words it quotes */
}

void lesson_error(char *out, size_t out_size, const char *file, int line, int col, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    lesson_verror(out, out_size, file, line, col, format, args);
    va_end(args);
}

void lesson_destroy(Lesson *lesson)
{
    if (!lesson)
        return;
    free(lesson->items);
    free(lesson->pages);
    arena_destroy(lesson->arena);
    free(lesson);
}

static int count_words(const char *text)
{
    int words = 0;
    bool in_word = false;
    for (; text && *text; text++) {
        bool blank = *text == ' ' || *text == '\t' || *text == '\n';
        words += !blank && !in_word;
        in_word = !blank;
    }
    return words;
}

int lesson_page_words(const Lesson *lesson, int page)
{
    const LessonPage *p = &lesson->pages[page];
    int words = count_words(p->heading);
    for (int k = p->first_item; k < p->first_item + p->item_count; k++) {
        const LessonItem *item = &lesson->items[k];
        if (item->kind == LESSON_SAY || item->kind == LESSON_PAUSE || item->kind == LESSON_EXPLAIN)
            words += count_words(item->text);
        if (item->kind != LESSON_QUESTION)
            continue;
        words += count_words(item->text);
        int longest = 0; /* one feedback is shown at a time */
        for (int c = 0; c < item->choice_count; c++) {
            words += count_words(item->choices[c].text);
            int feedback = count_words(item->choices[c].feedback);
            longest = feedback > longest ? feedback : longest;
        }
        words += longest;
    }
    return words;
}

int lesson_teacher_notes(const Lesson *lesson, int page, const char **out, int max)
{
    if (page >= lesson->page_count)
        return 0;
    int from = page < 0 ? 0 : lesson->pages[page].first_item;
    int to = page < 0 ? lesson->setup_count : from + lesson->pages[page].item_count;
    int count = 0;
    for (int k = from; k < to && count < max; k++)
        if (lesson->items[k].kind == LESSON_TEACHER)
            out[count++] = lesson->items[k].text;
    return count;
}

const char *lesson_page_recap(const Lesson *lesson, int page)
{
    if (page < 0 || page >= lesson->page_count)
        return NULL;
    const LessonPage *p = &lesson->pages[page];
    for (int k = p->first_item; k < p->first_item + p->item_count; k++)
        if (lesson->items[k].kind == LESSON_RECAP)
            return lesson->items[k].text;
    return NULL;
}

int lesson_item_number(const Lesson *lesson, int item)
{
    int number = 0;
    for (int k = 0; k <= item && k < lesson->item_count; k++)
        number += lesson->items[k].kind == lesson->items[item].kind;
    return number;
}

int lesson_item_page(const Lesson *lesson, int item)
{
    for (int page = 0; page < lesson->page_count; page++)
        if (item >= lesson->pages[page].first_item &&
            item < lesson->pages[page].first_item + lesson->pages[page].item_count)
            return page;
    return -1;
}

_Static_assert(sizeof lesson_view_keys / sizeof lesson_view_keys[0] == LESSON_VIEW_KEY_COUNT + 1,
               "LESSON_VIEW_KEY_COUNT counts lesson_view_keys");

bool lesson_check_feedback(const Lesson *lesson, char *err, size_t err_size)
{
    for (int k = 0; k < lesson->item_count; k++) {
        const LessonItem *item = &lesson->items[k];
        if (item->kind != LESSON_QUESTION || item->answer < 0)
            continue;
        for (int c = 0; c < item->choice_count; c++)
            if (c != item->answer && !(item->choices[c].feedback && item->choices[c].feedback[0])) {
                lesson_error(err, err_size, lesson->name, item->line, item->col,
                             "choice %d is wrong and has no feedback: say what on the screen shows why (a pane, a "
                             "number)",
                             c + 1);
                return false;
            }
    }
    return true;
}
