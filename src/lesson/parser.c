/* parser.c - reads a lesson script into a Lesson (the language: lessons/README.md).
 *
 * One line at a time: its bytes are vetted (lexer_check_text), a line whose
 * first character is '>' is narration, '#' a comment, anything else a command
 * whose first word picks a handler from the table `commands`. A command that
 * takes text (title, page, question ...) takes the rest of its line as it is;
 * the others are cut into words by lexer_split.
 *
 * Settings and panes are played through a LessonStage as they are read, so
 * every KEY=VALUE is checked by params_set, every pane name against the panes
 * open at that point, exactly as the player will meet them.
 *
 * Every mistake goes through fail_at, which formats it with lesson_error;
 * the first one stops the parse.
 */
#include "parser.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "budget.h"
#include "lesson.h"
#include "lexer.h"
#include "render/render.h"
#include "stage.h"
#include "core/text.h"

/* Words of the language that may not name a pane. */
static const char *const keywords[] = {"pane", "start", "not",    "all",   "off",   "within",
                                       "of",   "at",    "before", "after", "reads", NULL};

typedef struct Parser {
    const char *name;
    Lesson *lesson;
    LessonArena *arena;
    char *err;
    size_t err_size;
    bool failed;

    int line; /* 1-based number of the line being read */
    const char *text;
    size_t length;
    LessonToken tok[LEXER_MAX_TOKENS];
    int ntok;

    LessonStage stage;
    int item_capacity, page_capacity;
    bool in_pages;

    /* narration being gathered into one paragraph */
    char *paragraph;
    size_t paragraph_length, paragraph_capacity;
    int paragraph_line, paragraph_col;

    /* a question being gathered: choices follow it */
    int homework; /* a homework waiting for its 'solve' line: item index, or -1 */
    int question; /* item index, or -1 */
    int question_line, question_col;
    LessonChoice choices[LESSON_MAX_CHOICES];
    int choice_count;
    int answer;
    const char *general_feedback; /* given after the answer */

    int title_line;
} Parser;

/* ------------------------------------------------------------ the error funnel */

__attribute__((format(printf, 4, 5))) static bool fail_at(Parser *P, int line, int col, const char *format, ...)
{
    if (P->failed)
        return false;
    P->failed = true;
    va_list args;
    va_start(args, format);
    lesson_verror(P->err, P->err_size, P->name, line, col, format, args);
    va_end(args);
    return false;
}

#define fail(P, col, ...) fail_at((P), (P)->line, (col), __VA_ARGS__)

static bool out_of_memory(Parser *P)
{
    if (!P->failed)
        snprintf(P->err, P->err_size, "%s: out of memory", P->name);
    P->failed = true;
    return false;
}

/* A token's text for a message: short, whole characters. */
typedef struct Quote {
    char text[72];
} Quote;

static Quote quote(const LessonToken *t)
{
    Quote q;
    LessonToken copy = *t;
    copy.kind = t->kind == TOKEN_STRING ? TOKEN_WORD : t->kind; /* show the quotes */
    lexer_text(&copy, q.text, 61);
    if (t->length > 60)
        strcat(q.text, "...");
    return q;
}

/* ------------------------------------------------------------ building */

static LessonItem *new_item(Parser *P, LessonItemKind kind, int col)
{
    Lesson *L = P->lesson;
    if (L->item_count == P->item_capacity) {
        int capacity = P->item_capacity ? 2 * P->item_capacity : 64;
        LessonItem *items = realloc(L->items, (size_t)capacity * sizeof *items);
        if (!items)
            return out_of_memory(P), NULL;
        L->items = items;
        P->item_capacity = capacity;
    }
    LessonItem *item = &L->items[L->item_count++];
    memset(item, 0, sizeof *item);
    item->kind = kind;
    item->line = P->line;
    item->col = col;
    item->answer = -1;
    item->speed = 1.0;
    if (P->in_pages)
        L->pages[L->page_count - 1].item_count++;
    else
        L->setup_count++;
    return item;
}

static char *copy_text(Parser *P, const char *text, size_t length)
{
    char *s = arena_strndup(P->arena, text, length);
    if (!s)
        out_of_memory(P);
    return s;
}

/* A new item of kind holding the rest of the line as its text; NULL when
 * out of memory (said). */
static LessonItem *text_item(Parser *P, LessonItemKind kind, int col, const char *text, size_t length)
{
    LessonItem *item = new_item(P, kind, col);
    if (!item)
        return NULL;
    item->text = copy_text(P, text, length);
    return item->text ? item : NULL;
}

static char *copy_token(Parser *P, const LessonToken *t)
{
    char *s = arena_alloc(P->arena, t->length + 1);
    if (!s)
        return out_of_memory(P), NULL;
    lexer_text(t, s, t->length + 1);
    return s;
}

/* Plays a settings or pane item on the stage; its mistakes become errors. */
static bool stage_item(Parser *P, int index)
{
    char message[TEXT_MESSAGE_SIZE];
    int col;
    unsigned changed;
    const LessonItem *item = &P->lesson->items[index];
    if (!stage_play(&P->stage, item, &changed, message, sizeof message, &col))
        return fail_at(P, item->line, col, "%s", message);
    return true;
}

static bool flush_paragraph(Parser *P)
{
    if (P->paragraph_length == 0)
        return true;
    int line = P->line;
    P->line = P->paragraph_line;
    LessonItem *item = new_item(P, LESSON_SAY, P->paragraph_col);
    P->line = line;
    if (!item)
        return false;
    item->text = copy_text(P, P->paragraph, P->paragraph_length);
    P->paragraph_length = 0;
    return item->text != NULL;
}

static bool close_question(Parser *P)
{
    if (P->question < 0)
        return true;
    int index = P->question;
    P->question = -1;
    if (P->choice_count < 2)
        return fail_at(P, P->question_line, P->question_col, "a question needs at least 2 choices (it has %d)",
                       P->choice_count);
    LessonChoice *choices = arena_alloc(P->arena, (size_t)P->choice_count * sizeof *choices);
    if (!choices)
        return out_of_memory(P);
    for (int k = 0; k < P->choice_count; k++)
        if (!P->choices[k].feedback)
            P->choices[k].feedback = P->general_feedback;
    memcpy(choices, P->choices, (size_t)P->choice_count * sizeof *choices);
    LessonItem *item = &P->lesson->items[index];
    item->choices = choices;
    item->choice_count = P->choice_count;
    item->answer = P->answer;
    return true;
}

/* ------------------------------------------------------------ words */

/* Reads a decimal number at s without the locale ('.' is always the point).
 * Returns the bytes used, 0 if there is no number; *overflow if it is beyond
 * a double. */
static size_t scan_number(const char *s, size_t n, double *out, bool *overflow)
{
    size_t i = 0;
    bool negative = false;
    *overflow = false;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        negative = s[i++] == '-';
    uint64_t mantissa = 0;
    long exponent = 0;
    int digits = 0, significant = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
        if (significant < 19) {
            mantissa = mantissa * 10 + (uint64_t)(s[i] - '0');
            if (mantissa)
                significant++;
        } else {
            exponent++;
        }
    }
    if (i < n && s[i] == '.') {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
            if (significant < 19) {
                mantissa = mantissa * 10 + (uint64_t)(s[i] - '0');
                exponent--;
                if (mantissa)
                    significant++;
            }
        }
    }
    if (digits == 0)
        return 0;
    if (i + 1 < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        bool minus = false;
        if (j < n && (s[j] == '+' || s[j] == '-'))
            minus = s[j++] == '-';
        if (j < n && s[j] >= '0' && s[j] <= '9') {
            long e = 0;
            for (; j < n && s[j] >= '0' && s[j] <= '9'; j++)
                if (e < 100000)
                    e = e * 10 + (s[j] - '0');
            exponent += minus ? -e : e;
            i = j;
        }
    }
    double value = 0.0;
    if (mantissa != 0) {
        if (exponent > 400) {
            *overflow = true;
        } else if (exponent >= -400) {
            value = (double)mantissa * pow(10.0, (double)exponent);
            if (!isfinite(value))
                *overflow = true;
        }
    }
    *out = negative ? -value : value;
    return i;
}

typedef struct Quantity {
    double value; /* as written, before the unit */
    char unit[8]; /* what follows the number: "", "%", "mm", "s", "x" ... */
} Quantity;

/* A number with an optional unit glued to it ("0.05", "5%", "10s", "2x"). */
static bool parse_quantity(Parser *P, const LessonToken *t, Quantity *q)
{
    bool overflow;
    size_t used = t->kind == TOKEN_WORD ? scan_number(t->text, t->length, &q->value, &overflow) : 0;
    if (used == 0)
        return fail(P, t->col, "expected a number, got '%s'", quote(t).text);
    if (overflow)
        return fail(P, t->col, "'%s' is out of range", quote(t).text);
    size_t rest = t->length - used;
    if (rest >= sizeof q->unit)
        return fail(P, t->col, "expected a number, got '%s'", quote(t).text);
    memcpy(q->unit, t->text + used, rest);
    q->unit[rest] = '\0';
    return true;
}

/* A whole number in [min, max] with no unit. */
static bool parse_count(Parser *P, const LessonToken *t, const char *what, long min, long max, long *out)
{
    Quantity q;
    if (!parse_quantity(P, t, &q))
        return false;
    if (q.unit[0] || q.value != floor(q.value))
        return fail(P, t->col, "%s must be a whole number, got '%s'", T_(what), quote(t).text);
    if (q.value < (double)min || q.value > (double)max)
        return fail(P, t->col, "%s must be %ld to %ld, got '%s'", T_(what), min, max, quote(t).text);
    *out = (long)q.value;
    return true;
}

static bool looks_numeric(const LessonToken *t)
{
    if (t->kind != TOKEN_WORD || t->length == 0)
        return false;
    char c = t->text[0];
    return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+';
}

static bool expect_end(Parser *P, int i)
{
    if (i < P->ntok)
        return fail(P, P->tok[i].col, "expected the end of the line, got '%s'", quote(&P->tok[i]).text);
    return true;
}

/* A word copied into buf for lookups (cut long words: they match nothing). */
static const char *word(const LessonToken *t, char *buf, size_t size)
{
    lexer_text(t, buf, size);
    return buf;
}

/* ------------------------------------------------------------ panes */

static bool unknown_pane(Parser *P, const LessonToken *t)
{
    char buf[80];
    const char *name = word(t, buf, sizeof buf);
    const char *near = text_suggest(name, P->stage.names, P->stage.pane_count);
    if (near)
        return fail(P, t->col, "unknown pane '%s'; did you mean '%s'?", quote(t).text, near);
    if (P->stage.pane_count == 0)
        return fail(P, t->col, "unknown pane '%s' (no pane is open)", quote(t).text);
    char open[160] = "";
    for (int i = 0; i < P->stage.pane_count; i++) {
        strcat(open, i ? ", " : "");
        strcat(open, P->stage.names[i]);
    }
    return fail(P, t->col, "unknown pane '%s' (open: %s)", quote(t).text, open);
}

/* Where the word after token i starts, or would start: a space past it. */
static int column_after(const Parser *P, int i)
{
    const LessonToken *t = &P->tok[i];
    return t->col + lexer_column(t->text, t->length);
}

/* The column of a command's word i (token i, the command being 0), or where
 * it would start on a line that ends before it: arg, just past the command,
 * when the command stands alone; else a space past the last word. */
static int column_at(const Parser *P, int i, int arg)
{
    if (i < P->ntok)
        return P->tok[i].col;
    return P->ntok <= 1 ? arg : column_after(P, P->ntok - 1);
}

/* If the words at *i name an open pane (NAME, or `pane N` for the N-th open
 * pane), stores its name, moves *i past them and returns 1. Returns 0 if they
 * are something else, -1 after an error. */
static int take_pane(Parser *P, int *i, const char **pane)
{
    if (*i >= P->ntok || P->tok[*i].kind != TOKEN_WORD)
        return 0;
    const LessonToken *t = &P->tok[*i];
    if (lexer_is(t, "pane")) {
        if (*i + 1 >= P->ntok)
            return fail(P, column_after(P, *i), "expected a pane number after 'pane'"), -1;
        long n;
        if (!parse_count(P, &P->tok[*i + 1], N_("a pane number"), 1, LESSON_MAX_PANES, &n))
            return -1;
        if (n > P->stage.pane_count)
            return fail(P, P->tok[*i + 1].col, "there is no pane %ld (%d %s open)", n, P->stage.pane_count,
                        P->stage.pane_count == 1 ? "is" : "are"),
                   -1;
        *pane = P->stage.names[n - 1];
        *i += 2;
        return 1;
    }
    char buf[LESSON_MAX_NAME + 2];
    if (t->length >= sizeof buf)
        return 0;
    int index = stage_find(&P->stage, word(t, buf, sizeof buf));
    if (index < 0)
        return 0;
    *pane = P->stage.names[index];
    (*i)++;
    return 1;
}

/* The one pane open, for commands that may leave it out. */
static bool only_pane(Parser *P, int col, const char *command, const char **pane)
{
    if (P->stage.pane_count == 1) {
        *pane = P->stage.names[0];
        return true;
    }
    if (P->stage.pane_count == 0)
        return fail(P, col, "%s: no pane is open", command);
    char open[160] = "";
    for (int i = 0; i < P->stage.pane_count; i++) {
        strcat(open, i ? ", " : "");
        strcat(open, P->stage.names[i]);
    }
    return fail(P, col, "%s: which pane? %d are open (%s)", command, P->stage.pane_count, open);
}

/* ------------------------------------------------------------ settings */

/* The KEY=VALUE words from word `from` on, into item item_index. */
static bool parse_settings(Parser *P, int from, int item_index)
{
    int count = P->ntok - from;
    LessonSetting *settings = count ? arena_alloc(P->arena, (size_t)count * sizeof *settings) : NULL;
    if (count && !settings)
        return out_of_memory(P);
    for (int k = 0; k < count; k++) {
        const LessonToken *t = &P->tok[from + k];
        const char *eq = t->kind == TOKEN_WORD ? memchr(t->text, '=', t->length) : NULL;
        if (!eq)
            return fail(P, t->col, "expected KEY=VALUE, got '%s'", quote(t).text);
        char key[80];
        size_t key_length = (size_t)(eq - t->text);
        if (key_length >= sizeof key)
            key_length = sizeof key - 1;
        memcpy(key, t->text, key_length);
        key[key_length] = '\0';
        const ParamInfo *info = params_find(key);
        if (!info) {
            /* params_set words the message, as on the command line */
            Params scratch;
            char message[TEXT_MESSAGE_SIZE];
            params_default(&scratch, SCENE_CURTAIN);
            params_set(&scratch, key, "", message, sizeof message);
            return fail(P, t->col, "%s", message);
        }
        settings[k].info = info;
        settings[k].value = copy_text(P, eq + 1, t->length - key_length - 1);
        settings[k].col = t->col;
        if (!settings[k].value)
            return false;
    }
    LessonItem *item = &P->lesson->items[item_index];
    item->settings = settings;
    item->setting_count = count;
    return true;
}

/* ------------------------------------------------------------ commands */

/* A command's handler: col is the command's column (its item's), arg its
 * argument's (the first word after it, or just past it when there is none),
 * both found once by parse_line. */
typedef bool (*Handler)(Parser *P, int col, int arg, const char *text, size_t length);
/* A handler that serves several commands, each making its own kind of item. */
typedef bool (*KindHandler)(Parser *P, int col, int arg, LessonItemKind kind);

enum { TAKES_TEXT = 1, HEADER_ONLY = 2, PAGE_ONLY = 4, IN_QUESTION = 8 };

static bool need_text(Parser *P, int arg, const char *command, size_t length)
{
    if (length == 0)
        return fail(P, arg, "'%s' needs some text", command);
    return true;
}

static bool header_text(Parser *P, int col, int arg, const char *command, const char **field, const char *text,
                        size_t length)
{
    if (*field)
        return fail(P, col, "'%s' given twice", command);
    if (!need_text(P, arg, command, length))
        return false;
    *field = copy_text(P, text, length);
    if (strcmp(command, "title") == 0)
        P->title_line = P->line;
    return *field != NULL;
}

static bool cmd_title(Parser *P, int col, int arg, const char *text, size_t length)
{
    return header_text(P, col, arg, "title", &P->lesson->title, text, length);
}

static bool cmd_summary(Parser *P, int col, int arg, const char *text, size_t length)
{
    return header_text(P, col, arg, "summary", &P->lesson->summary, text, length);
}

static bool cmd_exit(Parser *P, int col, int arg, const char *text, size_t length)
{
    return header_text(P, col, arg, "exit", &P->lesson->exit_question, text, length);
}

static bool cmd_duration(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)text, (void)length;
    if (P->lesson->minutes > 0)
        return fail(P, col, "'duration' given twice");
    if (P->ntok < 2)
        return fail(P, arg, "duration: expected minutes, such as '10 min'");
    Quantity q;
    if (!parse_quantity(P, &P->tok[1], &q))
        return false;
    int i = 2;
    if (!q.unit[0] && i < P->ntok && P->tok[i].kind == TOKEN_WORD)
        lexer_text(&P->tok[i++], q.unit, sizeof q.unit);
    if (strcmp(q.unit, "min") != 0 && strcmp(q.unit, "minutes") != 0)
        return fail(P, P->tok[1].col, "duration: expected minutes, such as '10 min'");
    if (q.value < 1 || q.value > 600)
        return fail(P, P->tok[1].col, "duration must be 1 to 600 minutes, got '%s'", quote(&P->tok[1]).text);
    P->lesson->minutes = q.value;
    return expect_end(P, i);
}

static bool check_explained(Parser *P);

static bool cmd_page(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)arg;
    Lesson *L = P->lesson;
    if (!check_explained(P))
        return false;
    if (!P->in_pages && P->stage.pane_count == 0) {
        /* a lesson that opens no pane gets one */
        LessonItem *item = new_item(P, LESSON_PANE, col);
        if (!item)
            return false;
        item->pane = "main";
        item->text = "";
        if (!stage_item(P, L->item_count - 1))
            return false;
    }
    if (L->page_count == P->page_capacity) {
        int capacity = P->page_capacity ? 2 * P->page_capacity : 16;
        LessonPage *pages = realloc(L->pages, (size_t)capacity * sizeof *pages);
        if (!pages)
            return out_of_memory(P);
        L->pages = pages;
        P->page_capacity = capacity;
    }
    LessonPage *page = &L->pages[L->page_count++];
    page->heading = copy_text(P, text, length);
    page->line = P->line;
    page->first_item = L->item_count;
    page->item_count = 0;
    P->in_pages = true;
    return page->heading != NULL;
}

static bool cmd_set(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)text, (void)length;
    int i = 1;
    const char *pane = NULL;
    int taken = take_pane(P, &i, &pane);
    if (taken < 0)
        return false;
    if (!taken && i < P->ntok && P->tok[i].kind == TOKEN_WORD && !memchr(P->tok[i].text, '=', P->tok[i].length))
        return unknown_pane(P, &P->tok[i]);
    if (i >= P->ntok)
        return fail(P, column_at(P, i, arg), "set: expected KEY=VALUE");
    LessonItem *item = new_item(P, LESSON_SET, col);
    if (!item)
        return false;
    item->pane = pane;
    int index = P->lesson->item_count - 1;
    return parse_settings(P, i, index) && stage_item(P, index);
}

static bool valid_pane_name(Parser *P, const LessonToken *t, char *name)
{
    Quote q = quote(t);
    if (t->kind != TOKEN_WORD ||
        !((t->text[0] >= 'a' && t->text[0] <= 'z') || (t->text[0] >= 'A' && t->text[0] <= 'Z')))
        return fail(P, t->col, "a pane's name starts with a letter, got '%s'", q.text);
    if (t->length >= LESSON_MAX_NAME)
        return fail(P, t->col, "a pane's name has at most %d characters, got '%s'", LESSON_MAX_NAME - 1, q.text);
    for (size_t k = 0; k < t->length; k++) {
        char c = t->text[k];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return fail(P, t->col, "a pane's name is letters, digits, '_' and '-', got '%s'", q.text);
    }
    lexer_text(t, name, LESSON_MAX_NAME);
    const char *what = NULL;
    if (lesson_metric_find(name) >= 0)
        what = N_("a metric");
    else if (params_find(name))
        what = N_("a setting");
    else if (params_lookup_name(lesson_plot_names, name) >= 0)
        what = N_("a plot");
    else if (params_lookup_name(keywords, name) >= 0)
        what = N_("a word of the language");
    if (what)
        return fail(P, t->col, "'%s' cannot name a pane: it is %s", name, T_(what));
    return true;
}

static bool cmd_pane(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)text, (void)length;
    if (P->ntok < 2)
        return fail(P, arg, "pane: expected a name, such as 'pane left \"Euler\" integrator=euler'");
    char name[LESSON_MAX_NAME];
    if (!valid_pane_name(P, &P->tok[1], name))
        return false;
    LessonItem *item = new_item(P, LESSON_PANE, col);
    if (!item)
        return false;
    int index = P->lesson->item_count - 1;
    item->pane = copy_text(P, name, strlen(name));
    int i = 2;
    if (i < P->ntok && P->tok[i].kind == TOKEN_STRING)
        item->text = copy_token(P, &P->tok[i++]);
    else
        item->text = item->pane;
    if (!item->pane || !item->text)
        return false;
    return parse_settings(P, i, index) && stage_item(P, index);
}

/* close PANE | label PANE "text" */
static bool cmd_close_or_label(Parser *P, int col, int arg, LessonItemKind kind)
{
    const char *command = lesson_item_names[kind];
    int i = 1;
    const char *pane = NULL;
    if (i >= P->ntok)
        return fail(P, arg, "%s: expected a pane", command);
    int taken = take_pane(P, &i, &pane);
    if (taken < 0)
        return false;
    if (!taken)
        return unknown_pane(P, &P->tok[i]);
    LessonItem *item = new_item(P, kind, col);
    if (!item)
        return false;
    int index = P->lesson->item_count - 1;
    item->pane = pane;
    if (kind == LESSON_LABEL) {
        if (i >= P->ntok || P->tok[i].kind != TOKEN_STRING)
            return fail(P, column_at(P, i, arg), "label: expected the label in quotes, such as \"Verlet\"");
        item->text = copy_token(P, &P->tok[i++]);
        if (!item->text)
            return false;
    }
    return expect_end(P, i) && stage_item(P, index);
}

/* reset [PANE] | step|substep|pass [PANE] [N] */
static bool cmd_stepping(Parser *P, int col, int arg, LessonItemKind kind)
{
    (void)arg;
    const char *command = lesson_item_names[kind];
    int i = 1;
    const char *pane = NULL;
    int taken = take_pane(P, &i, &pane);
    if (taken < 0)
        return false;
    long count = 1;
    if (kind != LESSON_RESET && i < P->ntok && looks_numeric(&P->tok[i])) {
        char what[40];
        snprintf(what, sizeof what, T_("%s: the count"), command);
        if (!parse_count(P, &P->tok[i++], what, 1, LESSON_MAX_STEP_COUNT, &count))
            return false;
    }
    if (!taken && i < P->ntok && P->tok[i].kind == TOKEN_WORD && !looks_numeric(&P->tok[i]))
        return unknown_pane(P, &P->tok[i]);
    if (!expect_end(P, i))
        return false;
    if (P->stage.pane_count == 0)
        return fail(P, col, "%s: no pane is open", command);
    LessonItem *item = new_item(P, kind, col);
    if (!item)
        return false;
    item->pane = pane;
    item->steps = count;
    return true;
}

/* run N steps | run S s, then optionally: at Kx */
static bool cmd_run(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)text, (void)length;
    static const char usage[] = N_("run: expected a duration such as '600 steps' or '10s'");
    if (P->ntok < 2)
        return fail(P, arg, usage);
    const LessonToken *t = &P->tok[1];
    if (!looks_numeric(t))
        return fail(P, t->col, "%s, got '%s'", T_(usage), quote(t).text);
    Quantity q;
    if (!parse_quantity(P, t, &q))
        return false;
    int i = 2;
    if (!q.unit[0] && i < P->ntok && P->tok[i].kind == TOKEN_WORD && P->tok[i].length < sizeof q.unit)
        lexer_text(&P->tok[i++], q.unit, sizeof q.unit);
    LessonItem *item = new_item(P, LESSON_RUN, col);
    if (!item)
        return false;
    if (strcmp(q.unit, "steps") == 0 || strcmp(q.unit, "step") == 0) {
        if (q.value != floor(q.value) || q.value < 1 || q.value > LESSON_MAX_RUN_STEPS)
            return fail(P, t->col, "run: the steps must be a whole number from 1 to %d, got '%s'", LESSON_MAX_RUN_STEPS,
                        quote(t).text);
        item->steps = (int64_t)q.value;
    } else if (strcmp(q.unit, "s") == 0) {
        if (!(q.value > 0) || q.value > LESSON_MAX_RUN_SECONDS)
            return fail(P, t->col, "run: the time must be over 0 and at most %g s, got '%s'", LESSON_MAX_RUN_SECONDS,
                        quote(t).text);
        item->seconds = q.value;
    } else {
        return fail(P, t->col, "%s, got '%s'", T_(usage), quote(t).text);
    }
    if (i < P->ntok && lexer_is(&P->tok[i], "at")) {
        i++;
        if (i >= P->ntok)
            return fail(P, column_at(P, i, arg), "run: expected a speed after 'at', such as '0.25x'");
        const LessonToken *s = &P->tok[i];
        Quantity speed;
        if (!parse_quantity(P, s, &speed))
            return false;
        i++;
        if (!speed.unit[0] && i < P->ntok && lexer_is(&P->tok[i], "x")) {
            strcpy(speed.unit, "x");
            i++;
        }
        if (strcmp(speed.unit, "x") != 0)
            return fail(P, s->col, "run: expected a speed such as '0.25x' (a quarter of real time), got '%s'",
                        quote(s).text);
        if (speed.value < 0.01 || speed.value > 100)
            return fail(P, s->col, "run: the speed must be 0.01x to 100x, got '%s'", quote(s).text);
        item = &P->lesson->items[P->lesson->item_count - 1];
        item->speed = speed.value;
    }
    return expect_end(P, i);
}

static bool cmd_pause(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)arg;
    LessonItem *item = new_item(P, LESSON_PAUSE, col);
    if (!item)
        return false;
    if (length) {
        item->text = copy_text(P, text, length);
        return item->text != NULL;
    }
    return true;
}

/* explain TEXT: a "why?" for the student to answer in their own words; the
 * narration after it on the page is the lesson's explanation. */
static bool cmd_explain(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)arg; /* a missing argument is pointed at the command */
    if (!length)
        return fail(P, col, "explain: say what to explain, e.g. 'explain Why does Euler gain energy?'");
    return text_item(P, LESSON_EXPLAIN, col, text, length) != NULL;
}

/* recap TEXT: the page's point in a line, listed when the lesson ends. */
static bool cmd_recap(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)arg; /* a missing argument is pointed at the command */
    if (!length)
        return fail(P, col, "recap: say in a line what the page showed, e.g. 'recap Euler gains energy'");
    const Lesson *L = P->lesson;
    const LessonPage *page = &L->pages[L->page_count - 1];
    for (int k = page->first_item; k < page->first_item + page->item_count; k++)
        if (L->items[k].kind == LESSON_RECAP)
            return fail(P, col, "recap: this page already has one (line %d); a page gets one line", L->items[k].line);
    return text_item(P, LESSON_RECAP, col, text, length) != NULL;
}

/* teacher TEXT: a note for the teacher, never shown to students; in the
 * header, about the whole lesson. */
static bool cmd_teacher(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)arg; /* a missing argument is pointed at the command */
    if (!length)
        return fail(P, col, "teacher: write the note, e.g. 'teacher Ask first what they expect; 2 minutes'");
    return text_item(P, LESSON_TEACHER, col, text, length) != NULL;
}

/* A page's explain steps each need an explanation after them. Called when a
 * page ends (another begins, or the file does). */
static bool says_number(const char *text, const char *digits);

static bool check_explained(Parser *P)
{
    const Lesson *L = P->lesson;
    if (!P->in_pages || L->page_count == 0)
        return true;
    const LessonPage *page = &L->pages[L->page_count - 1];
    const LessonItem *open = NULL;
    for (int k = page->first_item; k < page->first_item + page->item_count; k++) {
        if (L->items[k].kind == LESSON_EXPLAIN)
            open = &L->items[k];
        else if (L->items[k].kind == LESSON_SAY)
            open = NULL;
    }
    if (open)
        return fail_at(P, open->line, open->col,
                       "explain: nothing explains it; add the explanation as narration ('> ...') after this line");
    /* each `expect ... reads N`: N is in the narration after it on the page */
    for (int k = page->first_item; k < page->first_item + page->item_count; k++) {
        const LessonItem *item = &L->items[k];
        if (item->kind != LESSON_EXPECT || !item->expect.reads)
            continue;
        bool said = false;
        for (int j = k + 1; j < page->first_item + page->item_count && !said; j++)
            said = L->items[j].kind == LESSON_SAY && says_number(L->items[j].text, item->expect.reads);
        if (!said)
            return fail_at(P, item->line, item->expect.reads_col,
                           "expect: the narration after this line on its page does not say %s; write there the "
                           "number the run shows, and the same here",
                           item->expect.reads);
    }
    return true;
}

/* Names highlight accepts: metrics, plots, keys. */
static bool highlightable(const char *name)
{
    return lesson_metric_find(name) >= 0 || params_lookup_name(lesson_plot_names, name) >= 0 || params_find(name);
}

static bool unknown_name(Parser *P, const LessonToken *t, const char *what, bool metrics, bool plots, bool keys,
                         bool panes)
{
    const char *names[METRIC_COUNT + 8 + 64 + LESSON_MAX_PANES];
    int n = 0;
    for (int k = 0; metrics && k < METRIC_COUNT; k++)
        names[n++] = lesson_metrics[k].name;
    for (int k = 0; plots && lesson_plot_names[k]; k++)
        names[n++] = lesson_plot_names[k];
    for (int k = 0; keys && k < params_count && k < 64; k++)
        names[n++] = params_table[k].name;
    for (int k = 0; panes && k < P->stage.pane_count; k++)
        names[n++] = P->stage.names[k];
    char buf[80];
    const char *near = text_suggest(word(t, buf, sizeof buf), names, n);
    if (near)
        return fail(P, t->col, "unknown %s '%s'; did you mean '%s'?", what, quote(t).text, near);
    return fail(P, t->col, "unknown %s '%s'", what, quote(t).text);
}

/* Gives the item just made the words from token `from` on as its names. */
static bool take_names(Parser *P, int from)
{
    int count = P->ntok - from;
    const char **names = arena_alloc(P->arena, (size_t)(count ? count : 1) * sizeof *names);
    if (!names)
        return out_of_memory(P);
    for (int k = 0; k < count; k++)
        if (!(names[k] = copy_token(P, &P->tok[from + k])))
            return false;
    LessonItem *item = &P->lesson->items[P->lesson->item_count - 1];
    item->names = names;
    item->name_count = count;
    return true;
}

static bool cmd_highlight(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)text, (void)length;
    int i = 1;
    const char *pane = NULL;
    int taken = take_pane(P, &i, &pane);
    if (taken < 0)
        return false;
    if (i >= P->ntok)
        return fail(P, column_at(P, i, arg), "highlight: name a metric, a plot or a key (or 'off')");
    bool off = lexer_is(&P->tok[i], "off");
    if (off) {
        if (!expect_end(P, i + 1))
            return false;
    } else {
        if (P->ntok - i > LESSON_MAX_HIGHLIGHTS)
            return fail(P, P->tok[i + LESSON_MAX_HIGHLIGHTS].col, "highlight: at most %d names at once",
                        LESSON_MAX_HIGHLIGHTS);
        for (int k = i; k < P->ntok; k++) {
            char buf[80];
            if (P->tok[k].kind != TOKEN_WORD || !highlightable(word(&P->tok[k], buf, sizeof buf)))
                return unknown_name(P, &P->tok[k], k == 1 ? "pane, metric, plot or key" : "metric, plot or key", true,
                                    true, true, k == 1);
        }
    }
    LessonItem *item = new_item(P, LESSON_HIGHLIGHT, col);
    if (!item)
        return false;
    item->pane = pane;
    return off || take_names(P, i);
}

static bool cmd_play(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)arg;
    (void)text, (void)length;
    int i = 1;
    const char *pane = NULL;
    int taken = take_pane(P, &i, &pane);
    if (taken < 0)
        return false;
    for (int k = i; k < P->ntok; k++) {
        char buf[80];
        if (P->tok[k].kind != TOKEN_WORD || !params_find(word(&P->tok[k], buf, sizeof buf))) {
            if (k == 1)
                return unknown_name(P, &P->tok[k], "pane or key", false, false, true, true);
            const char *near = params_suggest(buf);
            if (near)
                return fail(P, P->tok[k].col, "unknown key '%s'; did you mean '%s'? (clothsim params lists them)",
                            quote(&P->tok[k]).text, near);
            return fail(P, P->tok[k].col, "unknown key '%s' (clothsim params lists them)", quote(&P->tok[k]).text);
        }
    }
    if (P->stage.pane_count == 0)
        return fail(P, col, "play: no pane is open");
    LessonItem *item = new_item(P, LESSON_PLAY, col);
    if (!item)
        return false;
    item->pane = pane;
    return take_names(P, i);
}

static bool cmd_question(Parser *P, int col, int arg, const char *text, size_t length)
{
    if (!need_text(P, arg, "question", length))
        return false;
    if (!text_item(P, LESSON_QUESTION, col, text, length))
        return false;
    P->question = P->lesson->item_count - 1;
    P->question_line = P->line;
    P->question_col = col;
    P->choice_count = 0;
    P->answer = -1;
    P->general_feedback = NULL;
    return true;
}

static bool cmd_choice(Parser *P, int col, int arg, const char *text, size_t length)
{
    if (!need_text(P, arg, "choice", length))
        return false;
    if (P->choice_count == LESSON_MAX_CHOICES)
        return fail(P, col, "a question has at most %d choices", LESSON_MAX_CHOICES);
    LessonChoice *c = &P->choices[P->choice_count++];
    c->feedback = NULL;
    c->text = copy_text(P, text, length);
    return c->text != NULL;
}

static bool cmd_feedback(Parser *P, int col, int arg, const char *text, size_t length)
{
    if (!need_text(P, arg, "feedback", length))
        return false;
    if (P->answer >= 0) {
        /* after the answer: for every choice that has none of its own */
        if (P->general_feedback)
            return fail(P, col, "the question has general feedback already");
        P->general_feedback = copy_text(P, text, length);
        return P->general_feedback != NULL;
    }
    if (P->choice_count == 0)
        return fail(P, col, "'feedback' must follow a 'choice'");
    LessonChoice *c = &P->choices[P->choice_count - 1];
    if (c->feedback)
        return fail(P, col, "choice %d has feedback already", P->choice_count);
    c->feedback = copy_text(P, text, length);
    return c->feedback != NULL;
}

static bool cmd_answer(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)text, (void)length;
    if (P->answer >= 0)
        return fail(P, col, "the question has an answer already");
    if (P->ntok < 2)
        return fail(P, arg, "answer: expected the number of the right choice");
    long n;
    if (!parse_count(P, &P->tok[1], "answer", 1, LESSON_MAX_CHOICES, &n))
        return false;
    if (n > P->choice_count)
        return fail(P, P->tok[1].col, "answer: there is no choice %ld (the question has %d so far)", n,
                    P->choice_count);
    P->answer = (int)n - 1;
    return expect_end(P, 2);
}

/* ------------------------------------------------------------ view */

/* A number and nothing else from bytes [s, s+n), with an optional '%'
 * (a hundredth) when percent is allowed. */
static bool view_number(const char *s, size_t n, bool percent, double *out)
{
    bool overflow;
    size_t used = scan_number(s, n, out, &overflow);
    if (used == 0 || overflow)
        return false;
    if (percent && used + 1 == n && s[used] == '%') {
        *out *= 0.01;
        return true;
    }
    return used == n;
}

/* LO..HI into lo, hi (lo < hi). */
static bool view_range(const char *s, size_t n, bool percent, double *lo, double *hi)
{
    for (size_t k = 1; k + 2 < n + 1; k++)
        if (s[k] == '.' && k + 1 < n && s[k + 1] == '.')
            return view_number(s, k, percent, lo) && view_number(s + k + 2, n - k - 2, percent, hi) && *lo < *hi;
    return false;
}

static bool view_value(Parser *P, const LessonToken *t, const char *key, const char *value, size_t n, LessonView *v)
{
    char text[80];
    snprintf(text, sizeof text, "%.*s", (int)(n < 79 ? n : 79), value);
    int col = t->col + (int)strlen(key) + 1;
    double number;
    if (strcmp(key, "mode") == 0) {
        int mode = params_lookup_name(render_mode_names, text);
        if (mode < 0)
            return fail(P, col, "view: mode is shaded, wire, strain or points, got '%s'", text);
        v->mode = mode, v->set |= VIEW_SET_MODE;
    } else if (strcmp(key, "camera") == 0) {
        int camera = params_lookup_name(lesson_camera_names, text);
        if (camera < 0)
            return fail(P, col, "view: camera is own, shared or follow, got '%s'", text);
        v->camera = camera, v->set |= VIEW_SET_CAMERA;
    } else if (strcmp(key, "yaw") == 0 || strcmp(key, "pitch") == 0) {
        bool yaw = key[0] == 'y';
        double most = yaw ? 180.0 : 85.0;
        if (!view_number(value, n, false, &number) || !(fabs(number) <= most))
            return fail(P, col, "view: %s is in degrees, -%g to %g, got '%s'", key, most, most, text);
        if (yaw)
            v->yaw = number * (3.14159265358979323846 / 180.0), v->set |= VIEW_SET_YAW;
        else
            v->pitch = number * (3.14159265358979323846 / 180.0), v->set |= VIEW_SET_PITCH;
    } else if (strcmp(key, "zoom") == 0) {
        if (!view_number(value, n, false, &number) || !(number >= 0.1 && number <= 100.0))
            return fail(P, col, "view: zoom is a factor from 0.1 to 100, got '%s'", text);
        v->zoom = number, v->set |= VIEW_SET_ZOOM;
    } else if (strcmp(key, "energy") == 0 || strcmp(key, "strain") == 0) {
        bool energy = key[0] == 'e';
        int scale;
        double lo = 0.0, hi = 0.0;
        if (strcmp(text, "auto") == 0)
            scale = VIEW_SCALE_AUTO;
        else if (energy && strcmp(text, "log") == 0)
            scale = VIEW_SCALE_LOG;
        else if (view_range(value, n, !energy, &lo, &hi))
            scale = VIEW_SCALE_FIXED;
        else
            return fail(P, col, "view: %s is auto%s or a range LO..HI such as %s, got '%s'", key, energy ? ", log" : "",
                        energy ? "2.9..3.2 (J)" : "0..20%", text);
        if (energy)
            v->energy_scale = scale, v->energy_lo = lo, v->energy_hi = hi, v->set |= VIEW_SET_ENERGY;
        else
            v->strain_scale = scale, v->strain_lo = lo, v->strain_hi = hi, v->set |= VIEW_SET_STRAIN;
    } else if (strcmp(key, "ramp") == 0) {
        if (strcmp(text, "auto") == 0)
            number = 0.0;
        else if (!view_number(value, n, true, &number) || !(number >= 0.001 && number <= 5.0))
            return fail(P, col, "view: ramp is auto or the strain at the top of the colours, 0.1%% to 500%%, got '%s'",
                        text);
        v->ramp = number, v->set |= VIEW_SET_RAMP;
    } else if (strcmp(key, "target") == 0) {
        if (strcmp(text, "auto") == 0) {
            v->set |= VIEW_SET_TARGET; /* set with nothing: the framing's middle again */
            v->target[0] = v->target[1] = v->target[2] = NAN;
            return true;
        }
        size_t from = 0;
        for (int k = 0; k < 3; k++) {
            size_t to = from;
            while (to < n && value[to] != ',')
                to++;
            if ((k < 2) != (to < n) || !view_number(value + from, to - from, false, &v->target[k]) ||
                !(fabs(v->target[k]) <= 1000.0))
                return fail(P, col, "view: target is auto or a point X,Y,Z in metres (such as 0.5,1,0.5), got '%s'",
                            text);
            from = to + 1;
        }
        v->set |= VIEW_SET_TARGET;
    } else if (strcmp(key, "marks") == 0 || strcmp(key, "trace") == 0 || strcmp(key, "torn") == 0 ||
               strcmp(key, "parabola") == 0 || strcmp(key, "cuts") == 0) {
        if (strcmp(text, "on") != 0 && strcmp(text, "off") != 0)
            return fail(P, col, "view: %s is on or off, got '%s'", key, text);
        bool on = strcmp(text, "on") == 0;
        if (key[0] == 'm')
            v->marks = on, v->set |= VIEW_SET_MARKS;
        else if (key[0] == 'c')
            v->cuts = on, v->set |= VIEW_SET_CUTS;
        else if (key[0] == 'p')
            v->parabola = on, v->set |= VIEW_SET_PARABOLA;
        else if (key[1] == 'r')
            v->trace = on, v->set |= VIEW_SET_TRACE;
        else
            v->torn = on, v->set |= VIEW_SET_TORN;
    } else { /* show */
        v->show_count = 0;
        v->set |= VIEW_SET_SHOW;
        if (strcmp(text, "none") == 0)
            return true;
        size_t from = 0;
        while (from <= n) {
            size_t to = from;
            while (to < n && value[to] != ',')
                to++;
            char name[40];
            snprintf(name, sizeof name, "%.*s", (int)(to - from < 39 ? to - from : 39), value + from);
            int metric = lesson_metric_find(name);
            if (metric < 0 || lesson_metric_on_screen(metric) || metric == METRIC_CLOSEST) {
                const char *names[METRIC_COUNT];
                int count = 0;
                for (int k = 0; k < METRIC_SCREEN_COVER; k++)
                    names[count++] = lesson_metrics[k].name;
                const char *near = text_suggest(name, names, count);
                if (near)
                    return fail(P, col + (int)from, "view: show: unknown metric '%s'; did you mean '%s'?", name, near);
                return fail(P, col + (int)from, "view: show takes metrics such as torn,max_strain,time, got '%s'",
                            name);
            }
            if (v->show_count == LESSON_MAX_SHOWS)
                return fail(P, col + (int)from, "view: show at most %d metrics", LESSON_MAX_SHOWS);
            v->shows[v->show_count++] = metric;
            from = to + 1;
        }
    }
    return true;
}

static bool cmd_view(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)text, (void)length;
    int i = 1;
    const char *pane = NULL;
    int taken = take_pane(P, &i, &pane);
    if (taken < 0)
        return false;
    if (i >= P->ntok)
        return fail(P, column_at(P, i, arg), "view: expected KEY=VALUE, such as mode=strain or camera=shared");
    LessonView v;
    lesson_view_default(&v);
    v.set = 0;
    for (int k = i; k < P->ntok; k++) {
        const LessonToken *t = &P->tok[k];
        const char *eq = t->kind == TOKEN_WORD ? memchr(t->text, '=', t->length) : NULL;
        if (!eq) {
            if (k == 1 && !taken && t->kind == TOKEN_WORD)
                return unknown_pane(P, t);
            return fail(P, t->col, "view: expected KEY=VALUE, got '%s'", quote(t).text);
        }
        char key[40];
        snprintf(key, sizeof key, "%.*s", (int)((size_t)(eq - t->text) < 39 ? (size_t)(eq - t->text) : 39), t->text);
        if (params_lookup_name(lesson_view_keys, key) < 0) {
            const char *near = text_suggest(key, lesson_view_keys, LESSON_VIEW_KEY_COUNT);
            if (near)
                return fail(P, t->col, "view: unknown key '%s'; did you mean '%s'?", key, near);
            return fail(P, t->col,
                        "view: unknown key '%s' (mode, camera, yaw, pitch, zoom, energy, strain, ramp, show, marks, "
                        "trace, torn, parabola, target, cuts)",
                        key);
        }
        if (!view_value(P, t, key, eq + 1, t->length - (size_t)(eq + 1 - t->text), &v))
            return false;
    }
    if (P->stage.pane_count == 0 && P->in_pages)
        return fail(P, col, "view: no pane is open");
    LessonItem *item = new_item(P, LESSON_VIEW, col);
    if (!item)
        return false;
    item->pane = pane;
    item->view = v;
    return true;
}

/* ------------------------------------------------------------ expect */

static const struct {
    const char *name;
    double scale;
    int dimension; /* LessonDimension, or -1 for '%' */
} units[] = {
    {"%", 0.01, -1},        {"m", 1.0, DIM_LENGTH},    {"cm", 0.01, DIM_LENGTH}, {"mm", 0.001, DIM_LENGTH},
    {"J", 1.0, DIM_ENERGY}, {"mJ", 0.001, DIM_ENERGY}, {"s", 1.0, DIM_TIME},     {"ms", 0.001, DIM_TIME},
};

static const char *const dimension_units[] = {
    [DIM_NUMBER] = "a plain number or %",
    [DIM_LENGTH] = "m, cm or mm",
    [DIM_ENERGY] = "J or mJ",
    [DIM_TIME] = "s or ms",
};

/* A value for metric: a number whose unit fits it, in SI. With relative, a
 * '%' is a fraction of something else (within 5% of ...) for any metric. */
static bool parse_value(Parser *P, const LessonToken *t, int metric, bool relative, double *out, bool *is_relative)
{
    Quantity q;
    if (!parse_quantity(P, t, &q))
        return false;
    if (is_relative)
        *is_relative = false;
    if (!q.unit[0]) {
        *out = q.value;
        return true;
    }
    LessonDimension dim = lesson_metrics[metric].dimension;
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
        if (strcmp(q.unit, units[k].name) != 0)
            continue;
        if (units[k].dimension == -1 && relative) {
            *out = q.value * units[k].scale;
            *is_relative = true;
            return true;
        }
        if (units[k].dimension == (int)dim || (units[k].dimension == -1 && dim == DIM_NUMBER)) {
            *out = q.value * units[k].scale;
            return true;
        }
        break;
    }
    return fail(P, t->col, "'%s' does not fit %s: give %s", quote(t).text, lesson_metrics[metric].name,
                dimension_units[dim]);
}

/* `reads N` (t is N): the number a page's narration says, so that the text
 * cannot go stale. The claim is that the metric, in N's unit, rounds to N
 * as written: 9.0mm holds from 8.95 to 9.05 mm, 97% from 96.5 to 97.5 %.
 * N's digits are kept for check_reads, which finds them in the narration
 * (written with a point or a comma: 9.0 or 9,0). */
static bool parse_reads(Parser *P, const LessonToken *t, LessonExpect *e)
{
    if (!looks_numeric(t))
        return fail(P, t->col, "expect: expected the number the narration says after 'reads', such as '9.0mm'");
    Quantity q;
    if (!parse_quantity(P, t, &q) || !parse_value(P, t, e->metric, false, &e->value, NULL))
        return false;
    size_t from = t->text[0] == '+' || t->text[0] == '-', to = from, decimals = 0;
    while (to < t->length && ((t->text[to] >= '0' && t->text[to] <= '9') || t->text[to] == '.')) {
        decimals = t->text[to] == '.' ? 1 : decimals ? decimals + 1 : 0;
        to++;
    }
    if (decimals)
        decimals--;
    if (t->length - to != strlen(q.unit) || to == from)
        return fail(P, t->col,
                    "expect: write the number after 'reads' as the narration does, such as '9.0mm', got '%s'",
                    quote(t).text);
    double scale = q.value != 0.0 ? e->value / q.value : 1.0;
    e->kind = EXPECT_WITHIN;
    e->reference = REF_NUMBER;
    e->tolerance = fabs(scale) * 0.5 * pow(10.0, -(double)decimals) * (1.0 + 1e-9);
    e->tolerance_relative = false;
    e->reads = copy_text(P, t->text + from, to - from);
    e->reads_col = t->col;
    return e->reads != NULL;
}

/* Whether text says the number digits ("9.0"), written with a point or a
 * comma, as a number of its own (not a part of 19.05 or 9.01). */
static bool says_number(const char *text, const char *digits)
{
    size_t n = strlen(digits);
    for (const char *at = text; *at; at++) {
        bool digit_before =
            at > text && ((at[-1] >= '0' && at[-1] <= '9') ||
                          ((at[-1] == '.' || at[-1] == ',') && at - 1 > text && at[-2] >= '0' && at[-2] <= '9'));
        if (digit_before || !(*at >= '0' && *at <= '9'))
            continue;
        size_t k = 0;
        while (k < n && at[k] && (at[k] == digits[k] || (at[k] == ',' && digits[k] == '.')))
            k++;
        if (k < n)
            continue;
        const char *after = at + n;
        bool longer = (after[0] >= '0' && after[0] <= '9') ||
                      ((after[0] == '.' || after[0] == ',') && after[1] >= '0' && after[1] <= '9');
        if (!longer)
            return true;
    }
    return false;
}

/* What a metric is compared with, from word i: a number, `start`, a pane,
 * or `Kx start` / `Kx PANE`. */
static bool parse_reference(Parser *P, int *i, LessonExpect *e, bool allow_number)
{
    if (*i >= P->ntok) {
        return fail(P, column_after(P, *i - 1), "expect: expected %s 'start' or a pane",
                    allow_number ? "a number," : "");
    }
    const LessonToken *t = &P->tok[*i];
    e->value = 1.0;
    if (looks_numeric(t)) {
        Quantity q;
        size_t n = t->length;
        if (n > 1 && t->text[n - 1] == 'x' && *i + 1 < P->ntok) {
            if (!parse_quantity(P, t, &q))
                return false;
            if (strcmp(q.unit, "x") != 0)
                return fail(P, t->col, "expected a factor such as '2x', got '%s'", quote(t).text);
            if (!(q.value > 0))
                return fail(P, t->col, "the factor must be over 0, got '%s'", quote(t).text);
            e->value = q.value;
            (*i)++;
            t = &P->tok[*i];
        } else if (allow_number) {
            e->reference = REF_NUMBER;
            (*i)++;
            return parse_value(P, t, e->metric, false, &e->value, NULL);
        } else {
            return fail(P, t->col, "expected 'start' or a pane, got '%s'", quote(t).text);
        }
    }
    if (lexer_is(t, "start")) {
        e->reference = REF_START;
        (*i)++;
    } else {
        int taken = take_pane(P, i, &e->ref_pane);
        if (taken < 0)
            return false;
        if (!taken) {
            if (t->kind == TOKEN_WORD && !looks_numeric(t))
                return unknown_pane(P, t);
            return fail(P, t->col, "expected a number, 'start' or a pane, got '%s'", quote(t).text);
        }
        e->reference = REF_PANE;
    }
    /* an offset: start + 20mm, left - 1J */
    if (*i < P->ntok && (lexer_is(&P->tok[*i], "+") || lexer_is(&P->tok[*i], "-"))) {
        bool minus = P->tok[*i].text[0] == '-';
        if (*i + 1 >= P->ntok)
            return fail(P, column_after(P, *i), "expect: expected a number after '%c'", minus ? '-' : '+');
        (*i)++;
        if (!parse_value(P, &P->tok[*i], e->metric, false, &e->offset, NULL))
            return false;
        if (minus)
            e->offset = -e->offset;
        (*i)++;
    }
    return true;
}

static bool cmd_expect(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)text, (void)length;
    if (P->ntok < 2)
        return fail(P, arg, "expect: expected a pane and a condition, such as 'expect left exploded'");
    int i = 1;
    LessonExpect e;
    memset(&e, 0, sizeof e);
    const char *pane = NULL;
    int taken = take_pane(P, &i, &pane);
    if (taken < 0)
        return false;
    if (i >= P->ntok)
        return fail(P, column_at(P, i, arg), "expect: expected a condition");
    const LessonToken *t = &P->tok[i];
    char buf[80];
    word(t, buf, sizeof buf);
    if (!taken) {
        if (t->kind != TOKEN_WORD || (lesson_metric_find(buf) < 0 && !lexer_is(t, "not")))
            return unknown_name(P, t, "pane or metric", true, false, false, true);
        if (!only_pane(P, t->col, "expect", &pane))
            return false;
    }
    size_t from = P->tok[i].offset;
    if (lexer_is(t, "not")) {
        e.negate = true;
        i++;
        if (i >= P->ntok || !lexer_is(&P->tok[i], "exploded"))
            return fail(P, column_at(P, i, arg), "expect: 'not' goes with 'exploded' only");
        t = &P->tok[i];
        word(t, buf, sizeof buf);
    }
    e.metric = lesson_metric_find(buf);
    if (e.metric < 0 || t->kind != TOKEN_WORD)
        return unknown_name(P, t, "metric", true, false, false, false);
    i++;
    if (e.metric == METRIC_SCREEN_UNLIKE) {
        int other = i < P->ntok ? take_pane(P, &i, &e.other_pane) : 0;
        if (other < 0)
            return false;
        if (!other)
            return fail(P, column_at(P, i, arg),
                        "expect: screen_unlike names the pane compared with, such as 'screen_unlike right > 30%%'");
        if (strcmp(e.other_pane, pane) == 0)
            return fail(P, P->tok[i - 1].col, "expect: screen_unlike compares two different panes");
    }
    if (e.metric == METRIC_EXPLODED) {
        e.kind = EXPECT_EXPLODED;
        if (!e.negate && i < P->ntok && (lexer_is(&P->tok[i], "before") || lexer_is(&P->tok[i], "after"))) {
            e.when = lexer_is(&P->tok[i], "before") ? WHEN_BEFORE : WHEN_AFTER;
            if (++i >= P->ntok)
                return fail(P, column_at(P, i, arg), "expect: expected a time, such as '10s'");
            Quantity q;
            const LessonToken *when = &P->tok[i++];
            if (!parse_quantity(P, when, &q))
                return false;
            if (strcmp(q.unit, "s") != 0 && strcmp(q.unit, "ms") != 0)
                return fail(P, when->col, "expect: expected a time such as '10s', got '%s'", quote(when).text);
            e.time = q.value * (q.unit[0] == 'm' ? 0.001 : 1.0);
        }
    } else if (i < P->ntok && (P->tok[i].kind == TOKEN_OP || lexer_is(&P->tok[i], "="))) {
        char op[4];
        lexer_text(&P->tok[i], op, sizeof op);
        e.kind = EXPECT_COMPARE;
        e.op = (LessonOp)params_lookup_name(lesson_op_names, op);
        i++;
        if (!parse_reference(P, &i, &e, true))
            return false;
    } else if (i < P->ntok && lexer_is(&P->tok[i], "within")) {
        e.kind = EXPECT_WITHIN;
        if (++i >= P->ntok)
            return fail(P, column_at(P, i, arg), "expect: expected a tolerance after 'within', such as '5%%'");
        if (!parse_value(P, &P->tok[i], e.metric, true, &e.tolerance, &e.tolerance_relative))
            return false;
        if (e.tolerance < 0)
            return fail(P, P->tok[i].col, "expect: a tolerance cannot be negative");
        i++;
        if (i >= P->ntok || !lexer_is(&P->tok[i], "of"))
            return fail(P, column_at(P, i, arg), "expect: expected 'of' after the tolerance");
        i++;
        if (!parse_reference(P, &i, &e, true))
            return false;
    } else if (i < P->ntok && lexer_is(&P->tok[i], "reads")) {
        if (lesson_metric_on_screen(e.metric))
            return fail(P, P->tok[i].col, "expect: 'reads' is for a number the narration says; %s is not one",
                        lesson_metrics[e.metric].name);
        if (++i >= P->ntok)
            return fail(P, column_at(P, i, arg),
                        "expect: expected the number the narration says after 'reads', such as '9.0mm'");
        /* `reads start - N`: the text says what was lost (or gained) since the start */
        bool from_start = lexer_is(&P->tok[i], "start");
        bool minus = false;
        if (from_start) {
            if (i + 2 >= P->ntok || !(lexer_is(&P->tok[i + 1], "-") || lexer_is(&P->tok[i + 1], "+")))
                return fail(P, column_after(P, i), "expect: expected 'start - N' or 'start + N' after 'reads'");
            minus = P->tok[i + 1].text[0] == '-';
            i += 2;
        }
        if (!parse_reads(P, &P->tok[i++], &e))
            return false;
        if (from_start) {
            e.reference = REF_START;
            e.offset = minus ? -e.value : e.value;
            e.value = 1.0;
        }
    } else {
        int at = column_at(P, i, arg);
        return fail(P, at, "expect: expected <, <=, >, >=, =, 'within' or 'reads' after %s",
                    lesson_metrics[e.metric].name);
    }
    if (!expect_end(P, i))
        return false;
    if (lesson_metric_on_screen(e.metric) && e.reference == REF_START)
        return fail(P, t->col, "expect: %s is what the screen shows now: compare it with a number or a pane",
                    lesson_metrics[e.metric].name);
    const LessonToken *last = &P->tok[P->ntok - 1];
    size_t source_from = taken ? P->tok[1].offset : from;
    e.source = copy_text(P, P->text + source_from, last->offset + last->length - source_from);
    if (!e.source)
        return false;
    LessonItem *item = new_item(P, LESSON_EXPECT, col);
    if (!item)
        return false;
    item->pane = pane;
    item->expect = e;
    P->lesson->expect_count++;
    return true;
}

/* homework TEXT: a task whose answer, a number, the student finds by
 * exploring; the next line ('solve') says what the number is, so that the
 * checker can prove the answer by running the simulation. */
static bool cmd_homework(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)arg; /* a missing argument is pointed at the command */
    if (!length)
        return fail(P, col, "homework: say what to find, e.g. 'homework Find the fewest substeps that hold'");
    if (!text_item(P, LESSON_HOMEWORK, col, text, length))
        return false;
    P->homework = P->lesson->item_count - 1;
    P->lesson->expect_count++; /* the checker proves its answer: a claim like an expect */
    return true;
}

static bool homework_unsolved(Parser *P)
{
    const LessonItem *item = &P->lesson->items[P->homework];
    return fail_at(P, item->line, item->col,
                   "homework: the next line must say its answer, e.g. 'solve substeps smallest 7 after 5s if not "
                   "exploded'");
}

/* solve [PANE] KEY smallest|largest N after DURATION if CONDITION: the
 * homework's answer N, the smallest (largest) whole value of KEY for which
 * CONDITION holds after a run of DURATION from the pane's settings there.
 * CONDITION: 'not exploded', or METRIC OP (NUMBER | start), or METRIC within
 * TOLERANCE of (NUMBER | start). */
static bool cmd_solve(Parser *P, int col, int arg, const char *text, size_t length)
{
    (void)text, (void)length;
    if (P->homework < 0)
        return fail(P, col, "'solve' goes on the line after a 'homework'");
    const char *example = T_("such as 'solve substeps smallest 7 after 5s if not exploded'");
    int i = 1;
    const char *pane = NULL;
    int taken = take_pane(P, &i, &pane);
    if (taken < 0)
        return false;
    if (i >= P->ntok)
        return fail(P, column_at(P, i, arg), "solve: expected a setting, %s", example);
    const LessonToken *key_token = &P->tok[i];
    char buf[80];
    word(key_token, buf, sizeof buf);
    const ParamInfo *info = params_find(buf);
    if (!info || key_token->kind != TOKEN_WORD)
        return unknown_name(P, key_token, "setting", false, false, true, false);
    if (info->type != PARAM_INT)
        return fail(P, key_token->col,
                    "solve: %s is not a whole number; a homework seeks a count (substeps, "
                    "iterations ...)",
                    info->name);
    if (!taken && !only_pane(P, col, "solve", &pane))
        return false;
    if (++i >= P->ntok || (!lexer_is(&P->tok[i], "smallest") && !lexer_is(&P->tok[i], "largest")))
        return fail(P, column_at(P, i, arg), "solve: expected 'smallest' or 'largest' after %s", info->name);
    int seek = lexer_is(&P->tok[i], "smallest") ? -1 : 1;
    long answer;
    if (++i >= P->ntok)
        return fail(P, column_at(P, i, arg), "solve: expected the answer, a number");
    if (!parse_count(P, &P->tok[i], N_("the answer"), (long)info->min, (long)info->max, &answer))
        return false;
    if (++i >= P->ntok || !lexer_is(&P->tok[i], "after"))
        return fail(P, column_at(P, i, arg), "solve: expected 'after' and a time, %s", example);
    if (++i >= P->ntok)
        return fail(P, column_at(P, i, arg), "solve: expected a time, such as '5s'");
    Quantity q;
    const LessonToken *when = &P->tok[i];
    if (!parse_quantity(P, when, &q))
        return false;
    if (strcmp(q.unit, "s") != 0 && strcmp(q.unit, "ms") != 0)
        return fail(P, when->col, "solve: expected a time such as '5s', got '%s'", quote(when).text);
    double seconds = q.value * (q.unit[0] == 'm' ? 0.001 : 1.0);
    if (!(seconds > 0) || seconds > LESSON_MAX_HOMEWORK_SECONDS)
        return fail(P, when->col, "solve: the run must last over 0 s and at most %g s", LESSON_MAX_HOMEWORK_SECONDS);
    if (++i >= P->ntok || !lexer_is(&P->tok[i], "if"))
        return fail(P, column_at(P, i, arg), "solve: expected 'if' and a condition, %s", example);
    if (++i >= P->ntok)
        return fail(P, column_at(P, i, arg), "solve: expected a condition, such as 'not exploded'");
    size_t from = P->tok[i].offset;
    LessonExpect e;
    memset(&e, 0, sizeof e);
    const LessonToken *t = &P->tok[i];
    if (lexer_is(t, "not")) {
        if (i + 1 >= P->ntok || !lexer_is(&P->tok[i + 1], "exploded"))
            return fail(P, column_at(P, i + 1, arg), "solve: 'not' goes with 'exploded' only");
        e.kind = EXPECT_EXPLODED;
        e.metric = METRIC_EXPLODED;
        e.negate = true;
        i += 2;
    } else {
        word(t, buf, sizeof buf);
        e.metric = lesson_metric_find(buf);
        if (e.metric < 0 || t->kind != TOKEN_WORD)
            return unknown_name(P, t, "metric", true, false, false, false);
        if (lesson_metric_on_screen(e.metric) || e.metric == METRIC_EXPLODED)
            return fail(P, t->col,
                        "solve: %s cannot be a homework's condition; use 'not exploded' or a measure of "
                        "the cloth",
                        buf);
        i++;
        if (i < P->ntok && (P->tok[i].kind == TOKEN_OP || lexer_is(&P->tok[i], "="))) {
            char op[4];
            lexer_text(&P->tok[i], op, sizeof op);
            e.kind = EXPECT_COMPARE;
            e.op = (LessonOp)params_lookup_name(lesson_op_names, op);
            i++;
        } else if (i < P->ntok && lexer_is(&P->tok[i], "within")) {
            e.kind = EXPECT_WITHIN;
            if (++i >= P->ntok)
                return fail(P, column_at(P, i, arg), "solve: expected a tolerance after 'within', such as '1%%'");
            if (!parse_value(P, &P->tok[i], e.metric, true, &e.tolerance, &e.tolerance_relative))
                return false;
            if (e.tolerance < 0)
                return fail(P, P->tok[i].col, "solve: a tolerance cannot be negative");
            if (++i >= P->ntok || !lexer_is(&P->tok[i], "of"))
                return fail(P, column_at(P, i, arg), "solve: expected 'of' after the tolerance");
            i++;
        } else {
            int at = column_at(P, i, arg);
            return fail(P, at, "solve: expected <, <=, >, >=, = or 'within' after %s", lesson_metrics[e.metric].name);
        }
        if (i < P->ntok && P->tok[i].kind == TOKEN_WORD && !lexer_is(&P->tok[i], "start") && !looks_numeric(&P->tok[i]))
            return fail(P, P->tok[i].col, "solve: compare with a number or 'start' (the cloth as built)");
        if (!parse_reference(P, &i, &e, true))
            return false;
    }
    if (!expect_end(P, i))
        return false;
    const LessonToken *last = &P->tok[P->ntok - 1];
    e.source = copy_text(P, P->text + from, last->offset + last->length - from);
    if (!e.source)
        return false;
    LessonItem *item = &P->lesson->items[P->homework];
    const char **names = arena_alloc(P->arena, sizeof *names);
    if (!names)
        return out_of_memory(P);
    names[0] = info->name;
    item->names = names;
    item->name_count = 1;
    item->pane = pane;
    item->seek = seek;
    item->answer = (int)answer;
    item->seconds = seconds;
    item->expect = e;
    P->homework = -1;
    return true;
}

/* Each command has a handler, or a kind handler and the kind it makes. */
static const struct Command {
    const char *name;
    int flags;
    Handler handler;
    KindHandler kind_handler;
    LessonItemKind kind;
} commands[] = {
    {"title", TAKES_TEXT | HEADER_ONLY, .handler = cmd_title},
    {"summary", TAKES_TEXT | HEADER_ONLY, .handler = cmd_summary},
    {"exit", TAKES_TEXT | HEADER_ONLY, .handler = cmd_exit},
    {"duration", HEADER_ONLY, .handler = cmd_duration},
    {"page", TAKES_TEXT, .handler = cmd_page},
    {"set", 0, .handler = cmd_set},
    {"pane", 0, .handler = cmd_pane},
    {"close", 0, .kind_handler = cmd_close_or_label, .kind = LESSON_CLOSE},
    {"label", 0, .kind_handler = cmd_close_or_label, .kind = LESSON_LABEL},
    {"highlight", 0, .handler = cmd_highlight},
    {"reset", PAGE_ONLY, .kind_handler = cmd_stepping, .kind = LESSON_RESET},
    {"run", PAGE_ONLY, .handler = cmd_run},
    {"step", PAGE_ONLY, .kind_handler = cmd_stepping, .kind = LESSON_STEP},
    {"substep", PAGE_ONLY, .kind_handler = cmd_stepping, .kind = LESSON_SUBSTEP},
    {"pass", PAGE_ONLY, .kind_handler = cmd_stepping, .kind = LESSON_PASS},
    {"pause", TAKES_TEXT | PAGE_ONLY, .handler = cmd_pause},
    {"explain", TAKES_TEXT | PAGE_ONLY, .handler = cmd_explain},
    {"recap", TAKES_TEXT | PAGE_ONLY, .handler = cmd_recap},
    {"teacher", TAKES_TEXT, .handler = cmd_teacher},
    {"homework", TAKES_TEXT | PAGE_ONLY, .handler = cmd_homework},
    {"solve", PAGE_ONLY, .handler = cmd_solve},
    {"question", TAKES_TEXT | PAGE_ONLY, .handler = cmd_question},
    {"choice", TAKES_TEXT | IN_QUESTION, .handler = cmd_choice},
    {"feedback", TAKES_TEXT | IN_QUESTION, .handler = cmd_feedback},
    {"answer", IN_QUESTION, .handler = cmd_answer},
    {"play", PAGE_ONLY, .handler = cmd_play},
    {"expect", PAGE_ONLY, .handler = cmd_expect},
    {"view", 0, .handler = cmd_view},
};

enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

static bool run_command(Parser *P, const struct Command *command, int col, int arg, const char *text, size_t length)
{
    if (command->kind_handler)
        return command->kind_handler(P, col, arg, command->kind);
    return command->handler(P, col, arg, text, length);
}

/* ------------------------------------------------------------ lines */

static bool append_narration(Parser *P, const char *text, size_t length, int col)
{
    if (length == 0) /* a '>' alone ends the paragraph */
        return flush_paragraph(P);
    size_t need = P->paragraph_length + length + 2;
    if (need > P->paragraph_capacity) {
        size_t capacity = need * 2;
        char *bigger = realloc(P->paragraph, capacity);
        if (!bigger)
            return out_of_memory(P);
        P->paragraph = bigger;
        P->paragraph_capacity = capacity;
    }
    if (P->paragraph_length == 0) {
        P->paragraph_line = P->line;
        P->paragraph_col = col;
    } else {
        P->paragraph[P->paragraph_length++] = ' ';
    }
    memcpy(P->paragraph + P->paragraph_length, text, length);
    P->paragraph_length += length;
    P->paragraph[P->paragraph_length] = '\0';
    return true;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static bool parse_line(Parser *P)
{
    const char *s = P->text;
    size_t n = P->length, i = 0;
    while (i < n && is_blank(s[i]))
        i++;
    while (n > i && is_blank(s[n - 1]))
        n--;
    if (i == n) /* a blank line ends a paragraph */
        return flush_paragraph(P);
    if (s[i] == '#')
        return true;
    int col = lexer_column(s, i);
    if (s[i] == '>') {
        if (!P->in_pages)
            return fail(P, col, "narration belongs on a page (start one with 'page')");
        if (!close_question(P))
            return false;
        if (P->homework >= 0)
            return homework_unsolved(P);
        size_t from = i + 1;
        if (from < n && is_blank(s[from]))
            from++;
        return append_narration(P, s + from, n - from, col);
    }
    if (!flush_paragraph(P))
        return false;

    size_t end = i;
    while (end < n && !is_blank(s[end]))
        end++;
    char name[16];
    size_t name_length = end - i < sizeof name - 1 ? end - i : sizeof name - 1;
    memcpy(name, s + i, name_length);
    name[name_length] = '\0';
    const struct Command *command = NULL;
    for (int k = 0; k < COMMAND_COUNT; k++)
        if (end - i == strlen(commands[k].name) && memcmp(commands[k].name, s + i, end - i) == 0)
            command = &commands[k];
    if (!command) {
        LessonToken t = {TOKEN_WORD, s + i, end - i, i, col};
        const char *names[COMMAND_COUNT];
        for (int k = 0; k < COMMAND_COUNT; k++)
            names[k] = commands[k].name;
        char buf[80];
        const char *near = text_suggest(word(&t, buf, sizeof buf), names, COMMAND_COUNT);
        if (near)
            return fail(P, col, "unknown command '%s'; did you mean '%s'?", quote(&t).text, near);
        return fail(P, col, "unknown command '%s' (narration lines start with '>')", quote(&t).text);
    }
    if (!(command->flags & IN_QUESTION) && !close_question(P))
        return false;
    if (P->homework >= 0 && strcmp(command->name, "solve") != 0)
        return homework_unsolved(P);
    if ((command->flags & IN_QUESTION) && P->question < 0)
        return fail(P, col, "'%s' outside a question", command->name);
    if ((command->flags & HEADER_ONLY) && P->in_pages)
        return fail(P, col, "'%s' belongs before the first page", command->name);
    if ((command->flags & PAGE_ONLY) && !P->in_pages)
        return fail(P, col, "'%s' belongs on a page (start one with 'page')", command->name);

    size_t from = end; /* the argument: its text, or the end of the line */
    while (from < n && is_blank(s[from]))
        from++;
    int arg = lexer_column(s, from);
    if (command->flags & TAKES_TEXT) {
        P->ntok = 0;
        return run_command(P, command, col, arg, s + from, n - from);
    }
    size_t bad;
    char message[TEXT_MESSAGE_SIZE];
    P->ntok = lexer_split(s, n, i, P->tok, &bad, message, sizeof message);
    if (P->ntok < 0)
        return fail(P, lexer_column(s, bad), "%s", message);
    return run_command(P, command, col, arg, NULL, 0);
}

Lesson *lesson_parse_buffer(const char *name, const char *text, size_t len, char *err, size_t err_size)
{
    Parser P;
    memset(&P, 0, sizeof P);
    P.name = name ? name : "<lesson>";
    P.err = err;
    P.err_size = err_size;
    P.question = -1;
    P.homework = -1;
    if (err_size)
        err[0] = '\0';
    stage_init(&P.stage);
    P.lesson = calloc(1, sizeof *P.lesson);
    if (P.lesson)
        P.lesson->arena = arena_create();
    if (!P.lesson || !P.lesson->arena) {
        lesson_destroy(P.lesson);
        out_of_memory(&P);
        return NULL;
    }
    Lesson *L = P.lesson;
    P.arena = L->arena;
    L->name = copy_text(&P, P.name, strlen(P.name));
    P.name = L->name ? L->name : P.name;

    size_t at = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* a byte-order mark */
        at = 3;
    while (!P.failed && at < len) {
        const char *newline = memchr(text + at, '\n', len - at);
        size_t end = newline ? (size_t)(newline - text) : len;
        P.line++;
        P.text = text + at;
        P.length = end - at;
        at = end + 1;
        if (P.length && P.text[P.length - 1] == '\r')
            P.length--;
        if (P.length > LESSON_MAX_LINE) {
            fail(&P, 1, "line too long (%zu bytes; at most %d)", P.length, LESSON_MAX_LINE);
            break;
        }
        size_t bad;
        char message[TEXT_MESSAGE_SIZE];
        if (!lexer_check_text(P.text, P.length, &bad, message, sizeof message)) {
            fail(&P, lexer_column(P.text, bad), "%s", message);
            break;
        }
        parse_line(&P);
    }
    if (!P.failed) {
        flush_paragraph(&P);
        close_question(&P);
    }
    if (!P.failed && P.homework >= 0)
        homework_unsolved(&P);
    if (!P.failed)
        check_explained(&P);
    if (!P.failed) {
        int line = P.title_line ? P.title_line : 1;
        if (!L->title)
            fail_at(&P, 1, 1, "the lesson has no title (start it with 'title ...')");
        else if (!L->summary)
            fail_at(&P, line, 1, "the lesson has no summary (add 'summary ...' after the title)");
        else if (!(L->minutes > 0))
            fail_at(&P, line, 1, "the lesson has no duration (add 'duration N min' after the title)");
        else if (L->page_count == 0)
            fail_at(&P, line, 1, "the lesson has no page (add 'page ...')");
    }
    if (!P.failed && !lesson_check_budget(L, P.err, P.err_size))
        P.failed = true;
    free(P.paragraph);
    if (P.failed) {
        lesson_destroy(L);
        return NULL;
    }
    return L;
}

Lesson *lesson_parse_file(const char *path, char *err, size_t err_size)
{
    /* opened without waiting (a FIFO would block until someone writes),
     * then refused unless it is a regular file */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, err_size, T_("%s: cannot read: %s"), path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_size, T_("%s: cannot read: %s"), path,
                 S_ISDIR(st.st_mode) ? "it is a folder" : "not a regular file (a lesson is a file)");
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(err, err_size, T_("%s: cannot read: %s"), path, strerror(errno));
        close(fd);
        return NULL;
    }
    size_t capacity = 65536, length = 0;
    char *text = malloc(capacity);
    while (text) {
        if (length == capacity) {
            if (capacity >= ((size_t)1 << 26)) { /* 64 MiB: no lesson is that long */
                free(text);
                fclose(f);
                snprintf(err, err_size, T_("%s: cannot read: the file is over 64 MiB"), path);
                return NULL;
            }
            char *bigger = realloc(text, capacity * 2);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            capacity *= 2;
        }
        size_t got = fread(text + length, 1, capacity - length, f);
        length += got;
        if (got == 0)
            break;
    }
    bool failed = text && ferror(f);
    int saved = errno;
    fclose(f);
    if (!text) {
        snprintf(err, err_size, T_("%s: out of memory"), path);
        return NULL;
    }
    if (failed) {
        free(text);
        snprintf(err, err_size, T_("%s: cannot read: %s"), path, strerror(saved));
        return NULL;
    }
    Lesson *lesson = lesson_parse_buffer(path, text, length, err, err_size);
    free(text);
    return lesson;
}
