/* test_help.c - the ? help overlay of the sandbox and of the lesson player.
 * Its keys cannot drift from the keys bound: the case labels of the key
 * switches are read from the source and each must be named by a help label,
 * and each key a label names must be bound. Then the help is laid out and
 * drawn off screen (no curses) at the sizes people use: every label and every
 * word of every line must be on it, whole, inside the screen. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/i18n.h"
#include "app/tui_draw.h"
#include "app/tui_input.h"
#include "app/tui_lesson.h"
#include "render/canvas.h"

#define MOST_CASES 128

/* The constants of the case labels in the first switch of function in
 * path ("' '", "KEY_UP", "27" ...); returns how many. */
static int switch_cases(const char *path, const char *function, char cases[][32])
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot read %s", path);
    static char source[400000];
    size_t length = fread(source, 1, sizeof source - 1, f);
    fclose(f);
    source[length] = '\0';
    const char *start = strstr(source, function);
    cr_assert(start, "%s is not in %s", function, path);
    const char *end = strstr(start, "\n}\n");
    cr_assert(end, "%s has no end in %s", function, path);
    int count = 0;
    for (const char *p = strstr(start, "case "); p && p < end; p = strstr(p + 1, "case ")) {
        if (p[-1] != ' ')
            continue;
        const char *constant = p + 5, *colon = constant;
        if (*constant == '\'') /* a character: up to its closing quote (':' and '\'' escaped or not) */
            colon = strchr(constant + (constant[1] == '\\' ? 3 : 2), '\'') + 1;
        else
            colon = strchr(constant, ':');
        cr_assert(colon && *colon == ':' && count < MOST_CASES, "a case label of %s without a colon", function);
        size_t n = (size_t)(colon - (p + 5));
        cr_assert(n < sizeof cases[0]);
        memcpy(cases[count], p + 5, n);
        cases[count][n] = '\0';
        count++;
    }
    cr_assert(count > 10, "only %d case labels found in %s", count, function);
    return count;
}

/* The name a help label gives the key of a case label; "" for what is not
 * a key (the mouse, a resize); NULL if this test does not know it. */
static const char *key_name(const char *constant, char buffer[2])
{
    static const struct {
        const char *constant, *name;
    } names[] = {
        /* clang-format off */
        {"' '", "Space"},       {"'\\t'", "Tab"},          {"KEY_BTAB", "S-Tab"},        {"KEY_UP", "Up"},
        {"KEY_DOWN", "Down"},   {"KEY_LEFT", "Left"},      {"KEY_RIGHT", "Right"},       {"KEY_PPAGE", "PgUp"},
        {"KEY_NPAGE", "PgDn"},  {"'\\n'", "Enter"},        {"'\\r'", "Enter"},           {"KEY_ENTER", "Enter"},
        {"27", "Esc"},          {"4", "Ctrl-D"},           {"KEY_SLEFT", "Shift+arrows"}, {"KEY_SRIGHT", "Shift+arrows"},
        {"KEY_SR", "Shift+arrows"}, {"KEY_SF", "Shift+arrows"}, {"KEY_MOUSE", ""},        {"KEY_RESIZE", ""},
        /* clang-format on */
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strcmp(constant, names[k].constant) == 0)
            return names[k].name;
    if (strlen(constant) == 3 && constant[0] == '\'' && constant[2] == '\'') {
        buffer[0] = constant[1], buffer[1] = '\0';
        return buffer;
    }
    return NULL;
}

/* Whether a label of keys names name: a word of it, a character of a range
 * "1 .. 6", or (a name with a '+': "Shift+arrows") a part of a text. */
/* The words of a help line's key column (label is their storage); returns
 * how many (at most 16). */
static int label_words(const char *key, char label[64], char *words[16])
{
    int n = 0;
    snprintf(label, 64, "%s", key);
    for (char *w = strtok(label, " "); w && n < 16; w = strtok(NULL, " "))
        words[n++] = w;
    return n;
}

static bool help_names(const char *const *keys, const char *name)
{
    for (int k = 0; keys[2 * k]; k++) {
        if (strchr(name, '+') && strlen(name) > 1 && strstr(keys[2 * k + 1], name))
            return true;
        char label[64], *words[16];
        int n = label_words(keys[2 * k], label, words);
        for (int i = 0; i < n; i++) {
            if (strcmp(words[i], name) == 0)
                return true;
            if (strcmp(words[i], "..") == 0 && i > 0 && i + 1 < n && strlen(name) == 1 && name[0] >= words[i - 1][0] &&
                name[0] <= words[i + 1][0])
                return true;
        }
    }
    return false;
}

static void expect_bound_keys_are_in_the_help(const char *path, const char *function, const char *const *keys)
{
    static char cases[MOST_CASES][32];
    int count = switch_cases(path, function, cases);
    char buffer[2];
    /* every key bound is named */
    for (int k = 0; k < count; k++) {
        const char *name = key_name(cases[k], buffer);
        cr_assert(name, "%s binds case %s: give it a name in key_name", function + 1, cases[k]);
        if (name[0])
            cr_expect(help_names(keys, name), "%s binds %s (%s) but the help does not name it", function + 1, name,
                      cases[k]);
    }
    /* every key named is bound */
    for (int k = 0; keys[2 * k]; k++) {
        char label[64], *words[16];
        int n = label_words(keys[2 * k], label, words);
        for (int i = 0; i < n; i++) {
            char first = words[i][0], last = words[i][0];
            if (strcmp(words[i], "..") == 0)
                continue;
            if (i + 2 < n && strcmp(words[i + 1], "..") == 0)
                last = words[i + 2][0];
            for (char c = first; c <= last; c++) {
                char single[2] = {c, '\0'};
                const char *want = first == last ? words[i] : single;
                bool bound = false;
                for (int j = 0; j < count && !bound; j++) {
                    const char *name = key_name(cases[j], buffer);
                    bound = name && strcmp(name, want) == 0;
                }
                cr_expect(bound, "the help names %s (in \"%s\") but %s does not bind it", want, keys[2 * k],
                          function + 1);
            }
        }
    }
}

Test(help, every_key_the_sandbox_binds_is_in_its_help_and_no_other)
{
    expect_bound_keys_are_in_the_help(CLOTHSIM_SRCDIR "/src/app/tui_input.c", "\nvoid tui_handle_key(", tui_key_help);
}

Test(help, every_key_the_lesson_player_binds_is_in_its_help_and_no_other)
{
    expect_bound_keys_are_in_the_help(CLOTHSIM_SRCDIR "/src/app/tui_lesson.c", "\nstatic void handle_key(",
                                      tui_lesson_key_help);
}

/* Whether word stands whole in text (not as a part of a longer word). */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        bool before = p == text || p[-1] == ' ' || p[-1] == '\n' || (unsigned char)p[-1] >= 0x80;
        bool after = p[n] == ' ' || p[n] == '\n' || p[n] == '\0' || (unsigned char)p[n] >= 0x80;
        if (before && after)
            return true;
    }
    return false;
}

static void expect_every_word(const char *shown, const char *line, const char *what, int cols, int rows)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", line);
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
        cr_expect(has_word(shown, w), "%dx%d: \"%s\" of %s \"%s\" is not shown whole:\n%s", cols, rows, w, what, line,
                  shown);
}

/* Lays the help out for cols x rows, draws every page, and checks that all
 * of it is there; returns the pages. */
static int expect_whole_help(const char *const *keys, const char *footer, int cols, int rows)
{
    /* "more: Space", in the language the help is drawn in */
    char more[64];
    snprintf(more, sizeof more, "%s", _(" more: Space ") + 1);
    more[strlen(more) - 1] = '\0';
    TuiHelpPlan plan;
    tui_help_plan(keys, footer, rows, cols, &plan);
    cr_assert(plan.pages >= 1);
    cr_expect(plan.width <= cols && plan.height <= rows, "%dx%d: a box of %dx%d", cols, rows, plan.width, plan.height);
    Canvas *c = canvas_create(plan.width, plan.height);
    cr_assert(c);
    static char shown[65536], page_text[16384];
    shown[0] = '\0';
    for (int page = 0; page < plan.pages; page++) {
        tui_help_render(c, keys, footer, &plan, page, true);
        canvas_to_utf8(c, page_text, sizeof page_text);
        cr_assert(strlen(shown) + strlen(page_text) + 1 < sizeof shown);
        strcat(shown, page_text);
        strcat(shown, "\n");
        if (page + 1 < plan.pages)
            cr_expect(strstr(page_text, more) != NULL, "%dx%d: page %d of %d does not say there is more:\n%s", cols,
                      rows, page + 1, plan.pages, page_text);
    }
    canvas_destroy(c);
    for (int k = 0; keys[2 * k]; k++) {
        expect_every_word(shown, keys[2 * k], "the label", cols, rows);
        expect_every_word(shown, _(keys[2 * k + 1]), "the line", cols, rows);
    }
    expect_every_word(shown, footer, "the footer", cols, rows);
    return plan.pages;
}

static const char sandbox_footer[] = "mouse: left-drag pulls a particle, right-drag orbits, wheel zooms";
static const char lesson_footer[] = "the lesson's text scrolls with Up/Down and PgUp/PgDn";

Test(help, the_sandbox_help_shows_every_key_whole_on_one_page_from_80x24)
{
    int sizes[][2] = {{80, 24}, {100, 30}, {120, 40}, {200, 60}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        cr_expect_eq(expect_whole_help(tui_key_help, sandbox_footer, sizes[k][0], sizes[k][1]), 1, "%dx%d: pages",
                     sizes[k][0], sizes[k][1]);
}

Test(help, the_lesson_help_shows_every_key_whole_on_one_page_from_80x24)
{
    int sizes[][2] = {{80, 24}, {100, 30}, {120, 40}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        cr_expect_eq(expect_whole_help(tui_lesson_key_help, lesson_footer, sizes[k][0], sizes[k][1]), 1, "%dx%d: pages",
                     sizes[k][0], sizes[k][1]);
}

/* The help as a Ukrainian class sees it (words are longer): still one page
 * at 80x24. The catalogue is the build tree's, as the program finds it. */
static void speak_ukrainian(void)
{
    setenv("LC_ALL", "uk_UA.UTF-8", 1);
    i18n_init();
    if (strcmp(_("this help"), "this help") == 0)
        cr_skip_test("no Ukrainian catalogue (uk_UA.UTF-8 not generated, or build/locale missing)");
}

Test(help, the_sandbox_help_shows_every_key_whole_on_one_page_from_80x24_in_ukrainian)
{
    speak_ukrainian();
    cr_expect_eq(expect_whole_help(tui_key_help, _(sandbox_footer), 80, 24), 1, "80x24: pages");
    cr_expect_gt(expect_whole_help(tui_key_help, _(sandbox_footer), 40, 12), 1, "40x12: pages");
}

Test(help, the_lesson_help_shows_every_key_whole_on_one_page_from_80x24_in_ukrainian)
{
    speak_ukrainian();
    cr_expect_eq(expect_whole_help(tui_lesson_key_help, _(lesson_footer), 80, 24), 1, "80x24: pages");
}

Test(help, a_screen_too_small_for_the_help_pages_it_and_says_there_is_more)
{
    cr_expect_gt(expect_whole_help(tui_key_help, sandbox_footer, 40, 12), 1);
    expect_whole_help(tui_key_help, sandbox_footer, 60, 16);
    expect_whole_help(tui_lesson_key_help, lesson_footer, 40, 12);
}

Test(help, a_wide_screen_gets_one_column_not_cut_lines)
{
    TuiHelpPlan plan;
    tui_help_plan(tui_key_help, sandbox_footer, 40, 120, &plan);
    cr_expect_eq(plan.across, 1, "120x40: %d columns", plan.across);
    cr_expect_gt(plan.width, 41, "120x40: the box is still %d wide", plan.width);
}
