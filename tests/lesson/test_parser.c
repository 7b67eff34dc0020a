/* test_parser.c - the lesson language: every command, every error message to
 * the letter with its place, and inputs that must not crash the parser. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "lesson/lesson.h"
#include "lesson/parser.h"
#include "render/render.h"

#define HEAD "title T\nsummary S\nduration 5 min\n"

static char err[600];

static Lesson *parse(const char *text)
{
    return lesson_parse_buffer("t.lesson", text, strlen(text), err, sizeof err);
}

/* The one-line error a text gives; fails the test if it parses. */
static const char *error_of(const char *text)
{
    Lesson *lesson = parse(text);
    if (lesson) {
        lesson_destroy(lesson);
        return "(it parsed)";
    }
    return err;
}

Test(parser, reads_the_header_and_pages)
{
    Lesson *l = parse("# a comment\n" HEAD "\npage One\n> Hello,\n> world.\n>\n> Again.\n\npage\n> Two.\n");
    cr_assert_not_null(l, "%s", err);
    cr_expect_str_eq(l->title, "T");
    cr_expect_str_eq(l->summary, "S");
    cr_expect_float_eq(l->minutes, 5.0, 1e-12);
    cr_assert_eq(l->page_count, 2);
    cr_expect_str_eq(l->pages[0].heading, "One");
    cr_expect_str_eq(l->pages[1].heading, "");
    /* no pane was opened: the header gets one called main */
    cr_assert_eq(l->setup_count, 1);
    cr_expect_eq(l->items[0].kind, LESSON_PANE);
    cr_expect_str_eq(l->items[0].pane, "main");
    cr_assert_eq(l->pages[0].item_count, 2);
    const LessonItem *say = &l->items[l->pages[0].first_item];
    cr_expect_eq(say[0].kind, LESSON_SAY);
    cr_expect_str_eq(say[0].text, "Hello, world.");
    cr_expect_eq(say[0].line, 7);
    cr_expect_str_eq(say[1].text, "Again.");
    cr_expect_str_eq(l->items[l->pages[1].first_item].text, "Two.");
    lesson_destroy(l);
}

Test(parser, reads_every_command)
{
    const char *text = HEAD "set cols=10 rows=8\n"
                            "pane left \"Euler, explicit\" integrator=euler\n"
                            "pane right integrator=verlet # a trailing comment\n"
                            "highlight energy\n"
                            "page Go\n"
                            "> Watch.\n"
                            "set right iterations=20 dt=0.01\n"
                            "label left \"Euler\"\n"
                            "reset right\n"
                            "run 600 steps\n"
                            "run 1.5s at 0.25x\n"
                            "step\n"
                            "substep left 3\n"
                            "pass pane 2 4\n"
                            "pause Press Enter\n"
                            "highlight left max_strain residual\n"
                            "highlight off\n"
                            "question Which?\n"
                            "choice A\n"
                            "feedback Yes\n"
                            "choice B\n"
                            "answer 1\n"
                            "feedback For any choice without its own\n"
                            "play right stiffness iterations\n"
                            "expect left exploded before 10s\n"
                            "close left\n";
    Lesson *l = parse(text);
    cr_assert_not_null(l, "%s", err);
    const LessonItem *it = l->items;
    cr_assert_eq(l->setup_count, 4);
    cr_expect_eq(it[0].kind, LESSON_SET);
    cr_expect_null(it[0].pane);
    cr_assert_eq(it[0].setting_count, 2);
    cr_expect_str_eq(it[0].settings[1].info->name, "rows");
    cr_expect_str_eq(it[0].settings[1].value, "8");
    cr_expect_eq(it[0].settings[1].col, 13);
    cr_expect_eq(it[1].kind, LESSON_PANE);
    cr_expect_str_eq(it[1].pane, "left");
    cr_expect_str_eq(it[1].text, "Euler, explicit");
    cr_expect_str_eq(it[2].text, "right", "a pane's label defaults to its name");
    cr_expect_eq(it[3].kind, LESSON_HIGHLIGHT);

    it = &l->items[l->pages[0].first_item];
    LessonItemKind kinds[] = {LESSON_SAY,      LESSON_SET,   LESSON_LABEL,     LESSON_RESET,
                              LESSON_RUN,      LESSON_RUN,   LESSON_STEP,      LESSON_SUBSTEP,
                              LESSON_PASS,     LESSON_PAUSE, LESSON_HIGHLIGHT, LESSON_HIGHLIGHT,
                              LESSON_QUESTION, LESSON_PLAY,  LESSON_EXPECT,    LESSON_CLOSE};
    int count = (int)(sizeof kinds / sizeof kinds[0]);
    cr_assert_eq(l->pages[0].item_count, count);
    for (int k = 0; k < count; k++)
        cr_expect_eq(it[k].kind, kinds[k], "item %d is a %s", k, lesson_item_names[it[k].kind]);
    cr_expect_str_eq(it[1].pane, "right");
    cr_expect_eq(it[1].setting_count, 2);
    cr_expect_str_eq(it[2].text, "Euler");
    cr_expect_str_eq(it[3].pane, "right");
    cr_expect_eq(it[4].steps, 600);
    cr_expect_float_eq(it[4].speed, 1.0, 1e-12);
    cr_expect_float_eq(it[5].seconds, 1.5, 1e-12);
    cr_expect_float_eq(it[5].speed, 0.25, 1e-12);
    cr_expect_null(it[6].pane);
    cr_expect_eq(it[6].steps, 1);
    cr_expect_str_eq(it[7].pane, "left");
    cr_expect_eq(it[7].steps, 3);
    cr_expect_str_eq(it[8].pane, "right", "pane 2 is the second pane open");
    cr_expect_eq(it[8].steps, 4);
    cr_expect_str_eq(it[9].text, "Press Enter");
    cr_expect_eq(it[10].name_count, 2);
    cr_expect_str_eq(it[10].names[1], "residual");
    cr_expect_eq(it[11].name_count, 0);
    cr_assert_eq(it[12].choice_count, 2);
    cr_expect_str_eq(it[12].text, "Which?");
    cr_expect_str_eq(it[12].choices[0].text, "A");
    cr_expect_str_eq(it[12].choices[0].feedback, "Yes");
    cr_expect_str_eq(it[12].choices[1].feedback, "For any choice without its own");
    cr_expect_eq(it[12].answer, 0);
    cr_expect_str_eq(it[13].pane, "right");
    cr_expect_eq(it[13].name_count, 2);
    cr_expect_str_eq(it[13].names[0], "stiffness");
    cr_expect_eq(it[14].expect.kind, EXPECT_EXPLODED);
    cr_expect_eq(it[14].expect.when, WHEN_BEFORE);
    cr_expect_float_eq(it[14].expect.time, 10.0, 1e-12);
    cr_expect_str_eq(it[14].expect.source, "left exploded before 10s");
    cr_expect_eq(l->expect_count, 1);
    lesson_destroy(l);
}

Test(parser, reads_every_form_of_expect)
{
    Lesson *l = parse(HEAD "pane left\npane right\npage\n"
                           "expect right not exploded\n"
                           "expect right max_strain < 5%\n"
                           "expect left penetration <= 17mm\n"
                           "expect pane 1 total within 5% of start\n"
                           "expect left max_strain > 2x right\n"
                           "expect left highest > right + 2cm\n"
                           "expect left kinetic within 1mJ of 0.5\n"
                           "expect left torn = 0\n"
                           "expect left exploded after 1s\n");
    cr_assert_not_null(l, "%s", err);
    const LessonItem *it = &l->items[l->pages[0].first_item];
    cr_expect(it[0].expect.negate);
    cr_expect_eq(it[1].expect.kind, EXPECT_COMPARE);
    cr_expect_eq(it[1].expect.op, OP_LT);
    cr_expect_eq(it[1].expect.reference, REF_NUMBER);
    cr_expect_float_eq(it[1].expect.value, 0.05, 1e-15);
    cr_expect_eq(it[2].expect.op, OP_LE);
    cr_expect_float_eq(it[2].expect.value, 0.017, 1e-15);
    cr_expect_str_eq(it[3].pane, "left");
    cr_expect_eq(it[3].expect.kind, EXPECT_WITHIN);
    cr_expect(it[3].expect.tolerance_relative);
    cr_expect_float_eq(it[3].expect.tolerance, 0.05, 1e-15);
    cr_expect_eq(it[3].expect.reference, REF_START);
    cr_expect_eq(it[4].expect.reference, REF_PANE);
    cr_expect_str_eq(it[4].expect.ref_pane, "right");
    cr_expect_float_eq(it[4].expect.value, 2.0, 1e-15);
    cr_expect_float_eq(it[5].expect.offset, 0.02, 1e-15);
    cr_expect_not(it[6].expect.tolerance_relative);
    cr_expect_float_eq(it[6].expect.tolerance, 0.001, 1e-15);
    cr_expect_float_eq(it[6].expect.value, 0.5, 1e-15);
    cr_expect_eq(it[7].expect.op, OP_EQ);
    cr_expect_eq(it[8].expect.when, WHEN_AFTER);
    cr_expect_eq(l->expect_count, 9);
    lesson_destroy(l);
}

Test(parser, a_single_pane_may_be_left_out_of_expect)
{
    Lesson *l = parse(HEAD "page\nexpect max_strain < 0.05\nexpect not exploded\n");
    cr_assert_not_null(l, "%s", err);
    cr_expect_str_eq(l->items[l->pages[0].first_item].pane, "main");
    cr_expect_str_eq(l->items[l->pages[0].first_item].expect.source, "max_strain < 0.05");
    lesson_destroy(l);
}

Test(parser, reads_crlf_a_byte_order_mark_and_utf8)
{
    Lesson *l =
        parse("\xEF\xBB\xBFtitle Знайомство\r\nsummary Тканина\r\nduration 10 min\r\npage Сторінка\r\n> Привіт.\r\n");
    cr_assert_not_null(l, "%s", err);
    cr_expect_str_eq(l->title, "Знайомство");
    cr_expect_str_eq(l->items[l->pages[0].first_item].text, "Привіт.");
    lesson_destroy(l);
}

Test(parser, keeps_settings_as_params_set_reads_them)
{
    Lesson *l = parse(HEAD "set scene=chain integrator=pbd\npage\n");
    cr_assert_not_null(l, "%s", err);
    cr_expect_str_eq(l->items[0].settings[0].value, "chain");
    lesson_destroy(l);
}

/* Every message, to the letter, with its line and column. */
Test(parser, every_error_is_one_line_with_its_place)
{
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"titel X\n", "t.lesson:1:1: unknown command 'titel'; did you mean 'title'?"},
        {"  Hello world\n", "t.lesson:1:3: unknown command 'Hello' (narration lines start with '>')"},
        {"title\n", "t.lesson:1:6: 'title' needs some text"},
        {"title A\ntitle B\n", "t.lesson:2:1: 'title' given twice"},
        {"", "t.lesson:1:1: the lesson has no title (start it with 'title ...')"},
        {"title A\n", "t.lesson:1:1: the lesson has no summary (add 'summary ...' after the title)"},
        {"title A\nsummary B\n", "t.lesson:1:1: the lesson has no duration (add 'duration N min' after the title)"},
        {HEAD, "t.lesson:1:1: the lesson has no page (add 'page ...')"},
        {"title A\nsummary B\nduration 5\n", "t.lesson:3:10: duration: expected minutes, such as '10 min'"},
        {"title A\nsummary B\nduration 0 min\n", "t.lesson:3:10: duration must be 1 to 600 minutes, got '0'"},
        {HEAD "page\ntitle X\n", "t.lesson:5:1: 'title' belongs before the first page"},
        {HEAD "> Hi\n", "t.lesson:4:1: narration belongs on a page (start one with 'page')"},
        {HEAD "run 1s\n", "t.lesson:4:1: 'run' belongs on a page (start one with 'page')"},
        {HEAD "set itrations=3\n",
         "t.lesson:4:5: unknown key 'itrations'; did you mean 'iterations'? (clothsim params lists them)"},
        {HEAD "set cols=10 iterations=0\n", "t.lesson:4:13: iterations: 0 is out of range (1 to 500)"},
        {HEAD "set integrator=verlt\n",
         "t.lesson:4:5: integrator: unknown value 'verlt'; did you mean 'verlet'? (one of "
         "euler|symplectic|verlet|jakobsen|pbd|xpbd|implicit)"},
        {HEAD "set scene=chain rows=3\n", "t.lesson:4:5: rows: the chain scene is a rope, so rows must be 1 (got 3)"},
        {HEAD "set\n", "t.lesson:4:4: set: expected KEY=VALUE"},
        {HEAD "pane left\nset lft cols=3\n", "t.lesson:5:5: unknown pane 'lft'; did you mean 'left'?"},
        {HEAD "pane left\nset left cols\n", "t.lesson:5:10: expected KEY=VALUE, got 'cols'"},
        {HEAD "pane left\npane left\n", "t.lesson:5:1: pane 'left' is already open"},
        {HEAD "pane a\npane b\npane c\npane d\npane e\n",
         "t.lesson:8:1: too many panes: 4 are open already (close one first)"},
        {HEAD "pane 1x\n", "t.lesson:4:6: a pane's name starts with a letter, got '1x'"},
        {HEAD "pane max_strain\n", "t.lesson:4:6: 'max_strain' cannot name a pane: it is a metric"},
        {HEAD "pane dt\n", "t.lesson:4:6: 'dt' cannot name a pane: it is a setting"},
        {HEAD "pane start\n", "t.lesson:4:6: 'start' cannot name a pane: it is a word of the language"},
        {HEAD "pane a.b\n", "t.lesson:4:6: a pane's name is letters, digits, '_' and '-', got 'a.b'"},
        {HEAD "pane left \"Euler\n", "t.lesson:4:11: unterminated string"},
        {HEAD "close right\n", "t.lesson:4:7: unknown pane 'right' (no pane is open)"},
        {HEAD "pane left\nlabel left Euler\n",
         "t.lesson:5:12: label: expected the label in quotes, such as \"Verlet\""},
        {HEAD "page\nrun fast\n", "t.lesson:5:5: run: expected a duration such as '600 steps' or '10s', got 'fast'"},
        {HEAD "page\nrun 10\n", "t.lesson:5:5: run: expected a duration such as '600 steps' or '10s', got '10'"},
        {HEAD "page\nrun 1.5 steps\n",
         "t.lesson:5:5: run: the steps must be a whole number from 1 to 100000, got '1.5'"},
        {HEAD "page\nrun 1000s\n", "t.lesson:5:5: run: the time must be over 0 and at most 600 s, got '1000s'"},
        {HEAD "page\nrun 1s at fast\n", "t.lesson:5:11: expected a number, got 'fast'"},
        {HEAD "page\nrun 1s at 0.001x\n", "t.lesson:5:11: run: the speed must be 0.01x to 100x, got '0.001x'"},
        {HEAD "page\nrun 1s now\n", "t.lesson:5:8: expected the end of the line, got 'now'"},
        {HEAD "page\nstep 0\n", "t.lesson:5:6: step: the count must be 1 to 1000, got '0'"},
        {HEAD "page\npass lft\n", "t.lesson:5:6: unknown pane 'lft' (open: main)"},
        {HEAD "page\nstep pane 3\n", "t.lesson:5:11: there is no pane 3 (1 is open)"},
        {HEAD "page\nhighlight energi\n",
         "t.lesson:5:11: unknown pane, metric, plot or key 'energi'; did you mean 'energy'?"},
        {HEAD "page\nhighlight\n", "t.lesson:5:10: highlight: name a metric, a plot or a key (or 'off')"},
        {HEAD "page\nplay main stifness\n",
         "t.lesson:5:11: unknown key 'stifness'; did you mean 'stiffness'? (clothsim params lists them)"},
        {HEAD "page\nquestion Why?\nchoice A\nrun 1s\n",
         "t.lesson:5:1: a question needs at least 2 choices (it has 1)"},
        {HEAD "page\nchoice A\n", "t.lesson:5:1: 'choice' outside a question"},
        {HEAD "page\nquestion Q\nfeedback F\n", "t.lesson:6:1: 'feedback' must follow a 'choice'"},
        {HEAD "page\nquestion Q\nchoice A\nchoice B\nanswer 3\n",
         "t.lesson:8:8: answer: there is no choice 3 (the question has 2 so far)"},
        {HEAD "page\nquestion Q\nchoice A\nfeedback X\nfeedback Y\n", "t.lesson:8:1: choice 1 has feedback already"},
        {HEAD "page\nexpect lft max_strain < 5%\n", "t.lesson:5:8: unknown pane or metric 'lft'"},
        {HEAD "page\nexpect max_stain < 5%\n",
         "t.lesson:5:8: unknown pane or metric 'max_stain'; did you mean 'max_strain'?"},
        {HEAD "pane left\npane right\npage\nexpect max_strain < 5%\n",
         "t.lesson:7:8: expect: which pane? 2 are open (left, right)"},
        {HEAD "page\nexpect max_strain < 5mm\n",
         "t.lesson:5:21: '5mm' does not fit max_strain: give a plain number or %"},
        {HEAD "page\nexpect penetration < 5%\n", "t.lesson:5:22: '5%' does not fit penetration: give m, cm or mm"},
        {HEAD "page\nexpect max_strain about 5%\n",
         "t.lesson:5:19: expect: expected <, <=, >, >=, =, 'within' or 'reads' after max_strain"},
        {HEAD "page\nexpect max_strain < 1e999\n", "t.lesson:5:21: '1e999' is out of range"},
        {HEAD "page\nexpect max_strain < abc\n", "t.lesson:5:21: unknown pane 'abc' (open: main)"},
        {HEAD "page\nexpect total within 5% start\n", "t.lesson:5:24: expect: expected 'of' after the tolerance"},
        {HEAD "page\nexpect not kinetic\n", "t.lesson:5:12: expect: 'not' goes with 'exploded' only"},
        {HEAD "page\nexpect exploded before soon\n", "t.lesson:5:24: expected a number, got 'soon'"},
        {HEAD "page\nexpect exploded before 5J\n", "t.lesson:5:24: expect: expected a time such as '10s', got '5J'"},
        {"title A\x07\n", "t.lesson:1:8: control character 0x07 in the text"},
        {"title A\xff\n", "t.lesson:1:8: invalid UTF-8 (byte 0xff)"},
        {"title \xc3\xa9\xc3\n", "t.lesson:1:8: invalid UTF-8 (byte 0xc3)"},
        {"title \xe0\x80\xaf\n", "t.lesson:1:7: invalid UTF-8 (byte 0xe0)"},
        {"title \xed\xa0\x80\n", "t.lesson:1:7: invalid UTF-8 (byte 0xed)"},
        /* C1: CSI, and OSC (the clipboard-setting sequence starts with it) */
        {"title A\xc2\x9b"
         "2J\n",
         "t.lesson:1:8: control character U+009B in the text"},
        {"page\n> look \xc2\x9d"
         "52;c;aGk=\xc2\x9c\n",
         "t.lesson:2:8: control character U+009D in the text"},
        /* a right-to-left override, and an isolate */
        {"title evil \xe2\x80\xaetxt.exe\n",
         "t.lesson:1:12: bidirectional control U+202E in the text (it reorders what is "
         "shown)"},
        {"title \xe2\x81\xa6x\n", "t.lesson:1:7: bidirectional control U+2066 in the text (it reorders what is shown)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        cr_expect_str_eq(error_of(cases[k].text), cases[k].error, "case %zu", k);
}

/* `expect ... reads N` ties a number of the narration to a metric: the
 * narration after it on its page must say N (with a point or a comma), and
 * the claim is N's rounding interval. */
Test(parser, a_number_the_narration_says_is_tied_to_the_run)
{
    Lesson *l = parse(HEAD "page\nrun 1s\nexpect max_strain reads 0.29%\nexpect lowest reads 11cm\n"
                           "> Stretched 0,29 %, down to 11 cm.\n");
    cr_assert_not_null(l, "%s", err);
    const LessonExpect *e = &l->items[l->pages[0].first_item + 1].expect;
    cr_expect_eq(e->kind, EXPECT_WITHIN);
    cr_expect_eq(e->reference, REF_NUMBER);
    cr_expect_float_eq(e->value, 0.0029, 1e-12);
    cr_expect_float_eq(e->tolerance, 0.00005, 1e-12, "half the last digit written: 0.005 %%");
    cr_expect_str_eq(e->reads, "0.29");
    cr_expect_float_eq(l->items[l->pages[0].first_item + 2].expect.tolerance, 0.005, 1e-10, "11cm: half a cm");
    lesson_destroy(l);
    /* what was lost since the start: start - 0.054J */
    l = parse(HEAD "page\nrun 1s\nexpect total reads start - 0.054J\n> It lost 0,054 J.\n");
    cr_assert_not_null(l, "%s", err);
    e = &l->items[l->pages[0].first_item + 1].expect;
    cr_expect_eq(e->reference, REF_START);
    cr_expect_float_eq(e->value, 1.0, 1e-12);
    cr_expect_float_eq(e->offset, -0.054, 1e-12);
    cr_expect_float_eq(e->tolerance, 0.0005, 1e-12);
    lesson_destroy(l);
    const struct {
        const char *text, *error;
    } cases[] = {
        /* the narration says another number, or says it on another page */
        {HEAD "page\nexpect max_strain reads 9.5%\n> It stretched 9.0 %.\n",
         "t.lesson:5:25: expect: the narration after this line on its page does not say 9.5; write there the number "
         "the run shows, and the same here"},
        {HEAD "page\n> Closest: 9.0 mm.\nexpect closest reads 9.0mm\n",
         "t.lesson:6:22: expect: the narration after this line on its page does not say 9.0; write there the number "
         "the run shows, and the same here"},
        {HEAD "page\nexpect closest reads 9.0mm\npage\n> Closest: 9.0 mm.\n",
         "t.lesson:5:22: expect: the narration after this line on its page does not say 9.0; write there the number "
         "the run shows, and the same here"},
        /* a part of another number is not the number */
        {HEAD "page\nexpect closest reads 9.0mm\n> Closest: 19.05 mm, 9.01 mm.\n",
         "t.lesson:5:22: expect: the narration after this line on its page does not say 9.0; write there the number "
         "the run shows, and the same here"},
        {HEAD "page\nexpect closest reads 9e-3m\n> 9 mm\n",
         "t.lesson:5:22: expect: write the number after 'reads' as the narration does, such as '9.0mm', got '9e-3m'"},
        {HEAD "page\nexpect closest reads 9%\n> 9 %\n", "t.lesson:5:22: '9%' does not fit closest: give m, cm or mm"},
        {HEAD "page\nexpect screen_rows reads 0.5\n> 0.5\n",
         "t.lesson:5:20: expect: 'reads' is for a number the narration says; screen_rows is not one"},
        {HEAD "page\nexpect total reads start 0.054J\n> 0.054\n",
         "t.lesson:5:26: expect: expected 'start - N' or 'start + N' after 'reads'"},
        {HEAD "page\nexpect closest reads\n", "t.lesson:5:22: expect: expected the number the narration says after "
                                              "'reads', such as '9.0mm'"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        cr_expect_str_eq(error_of(cases[k].text), cases[k].error, "case %zu", k);
}

Test(parser, a_nul_byte_is_reported_at_its_place)
{
    const char text[] = "title A\nsum\0mary B\n";
    Lesson *l = lesson_parse_buffer("t.lesson", text, sizeof text - 1, err, sizeof err);
    cr_expect_null(l);
    cr_expect_str_eq(err, "t.lesson:2:4: a NUL byte in the text");
}

Test(parser, an_overlong_line_is_reported)
{
    size_t n = LESSON_MAX_LINE + 10;
    char *text = malloc(n + 1);
    memset(text, 'a', n);
    text[n] = '\0';
    Lesson *l = lesson_parse_buffer("t.lesson", text, n, err, sizeof err);
    cr_expect_null(l);
    cr_expect_str_eq(err, "t.lesson:1:1: line too long (4106 bytes; at most 4096)");
    free(text);
}

Test(parser, long_words_are_cut_in_messages)
{
    char text[400];
    snprintf(text, sizeof text, HEAD "page\nrun %0100d\n", 7);
    cr_expect_str_eq(error_of(text), "t.lesson:5:5: run: expected a duration such as '600 steps' or '10s', got "
                                     "'000000000000000000000000000000000000000000000000000000000000...'");
}

Test(parser, huge_numbers_are_refused_not_overflowed)
{
    cr_expect_str_eq(error_of(HEAD "page\nstep 99999999999999999999999\n"),
                     "t.lesson:5:6: step: the count must be 1 to 1000, got '99999999999999999999999'");
    cr_expect_str_eq(error_of(HEAD "page\nrun 1e308 steps\n"),
                     "t.lesson:5:5: run: the steps must be a whole number from 1 to 100000, got '1e308'");
    cr_expect_str_eq(error_of(HEAD "set cols=99999999999999999999\n"),
                     "t.lesson:4:5: cols: '99999999999999999999' is not a whole number (2 to 1000)");
}

/* A cheap fuzz: random bytes and mutations of a real lesson must give a
 * lesson or one error line, never a crash (run under ASan by make sanitize). */
Test(parser, never_crashes_on_random_bytes)
{
    const char *seed = HEAD "set cols=10 rows=8\npane left \"L\" integrator=euler\npane right\npage P\n> Hi.\n"
                            "question Q\nchoice A\nchoice B\nanswer 2\nrun 1s at 2x\nexpect left exploded before 1s\n"
                            "expect right total within 5% of start\nplay right stiffness\n";
    size_t n = strlen(seed);
    char *buf = malloc(n + 64);
    uint64_t state = 12345;
    for (int round = 0; round < 3000; round++) {
        memcpy(buf, seed, n);
        size_t len = n;
        int edits = 1 + round % 8;
        for (int e = 0; e < edits; e++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t at = (size_t)(state >> 33) % len;
            unsigned char byte = (unsigned char)(state >> 17);
            if (round % 3 == 0)
                buf[at] = (char)byte;
            else if (round % 3 == 1 && len > 1)
                memmove(buf + at, buf + at + 1, len-- - at - 1);
            else
                buf[at] = "\n\"<>=#% x0.9-"[byte % 13];
        }
        Lesson *l = lesson_parse_buffer("f", buf, len, err, sizeof err);
        if (!l)
            cr_expect(strncmp(err, "f:", 2) == 0 && !strchr(err, '\n'), "round %d: %s", round, err);
        lesson_destroy(l);
    }
    free(buf);
}

Test(parser, every_lesson_of_the_course_parses)
{
    glob_t g;
    cr_assert_eq(glob(CLOTHSIM_SRCDIR "/lessons/*.lesson", 0, NULL, &g), 0);
    glob(CLOTHSIM_SRCDIR "/lessons/uk/*.lesson", GLOB_APPEND, NULL, &g);
    cr_expect(g.gl_pathc >= 13, "found %zu lessons", g.gl_pathc);
    for (size_t k = 0; k < g.gl_pathc; k++) {
        Lesson *l = lesson_parse_file(g.gl_pathv[k], err, sizeof err);
        cr_expect_not_null(l, "%s", err);
        if (l) {
            cr_expect(l->page_count >= 3, "%s", g.gl_pathv[k]);
            cr_expect(l->expect_count >= 3, "%s", g.gl_pathv[k]);
        }
        lesson_destroy(l);
    }
    globfree(&g);
}

Test(parser, a_missing_file_says_why)
{
    cr_expect_null(lesson_parse_file("/nonexistent/x.lesson", err, sizeof err));
    cr_expect_str_eq(err, "/nonexistent/x.lesson: cannot read: No such file or directory");
}

Test(parser, suggests_only_near_names)
{
    const char *names[] = {"left", "right", NULL};
    cr_expect_str_eq(text_suggest("lfet", names, 3), "left");
    cr_expect_str_eq(text_suggest("rigth", names, 3), "right");
    cr_expect_null(text_suggest("centre", names, 3));
}

/* The lesson's words and the settings' keys were near by two rules: a swap
 * of neighbours was one slip in a lesson's command and two in a key
 * ('rwos' had no suggestion), a capital none in a key and one in a command
 * ('PAGE' had none). One function, one rule, for both. */
/* A word left out is pointed at where it goes: just past a command that
 * stands alone, else a space past the last word given (the pane). The
 * handlers counted from the command (col + 3 ...), which pointed 'set
 * left' at 'set' and a bare 'solve' one column too far. */
Test(parser, a_missing_word_is_pointed_at_where_it_goes)
{
    cr_expect_str_eq(error_of(HEAD "pane left\nset left\n"), "t.lesson:5:10: set: expected KEY=VALUE");
    cr_expect_str_eq(error_of(HEAD "pane left\npage\nhighlight left\n"),
                     "t.lesson:6:16: highlight: name a metric, a plot or a key (or 'off')");
    cr_expect_str_eq(error_of(HEAD "pane left\npage\nrun 1s at\n"),
                     "t.lesson:6:11: run: expected a speed after 'at', such as '0.25x'");
    cr_expect_str_eq(error_of(HEAD "pane left\npage\nhomework Find it\nsolve\n"),
                     "t.lesson:7:6: solve: expected a setting, such as 'solve substeps smallest 7 after 5s if not "
                     "exploded'");
    cr_expect_str_eq(error_of(HEAD "pane left\npage\nhomework Find it\nsolve left\n"),
                     "t.lesson:7:12: solve: expected a setting, such as 'solve substeps smallest 7 after 5s if not "
                     "exploded'");
}

Test(parser, commands_and_keys_are_suggested_by_one_rule)
{
    cr_expect_str_eq(error_of(HEAD "set rwos=3\n"),
                     "t.lesson:4:5: unknown key 'rwos'; did you mean 'rows'? (clothsim params lists them)");
    cr_expect_str_eq(error_of(HEAD "tilte X\n"), "t.lesson:4:1: unknown command 'tilte'; did you mean 'title'?");
    cr_expect_str_eq(error_of(HEAD "PAGE X\n"), "t.lesson:4:1: unknown command 'PAGE'; did you mean 'page'?");
    cr_expect_str_eq(error_of(HEAD "set ITERATONS=3\n"),
                     "t.lesson:4:5: unknown key 'ITERATONS'; did you mean 'iterations'? (clothsim params lists them)");
}

Test(parser, reads_view_lines)
{
    Lesson *l =
        parse(HEAD "pane a\npane b\nview mode=strain camera=shared yaw=30 pitch=-10 zoom=0.5 energy=2.9..3.2 "
                   "strain=0..20% ramp=0.5% show=torn,max_strain\npage P\nview b energy=log camera=follow show=none\n");
    cr_assert_not_null(l, "%s", err);
    const LessonItem *v = &l->items[2];
    cr_assert_eq(v->kind, LESSON_VIEW);
    cr_expect_null(v->pane);
    cr_expect_eq(v->view.mode, RENDER_STRAIN);
    cr_expect_eq(v->view.camera, VIEW_CAMERA_SHARED);
    cr_expect_float_eq(v->view.yaw, 30.0 * 3.14159265358979 / 180.0, 1e-9);
    cr_expect_float_eq(v->view.pitch, -10.0 * 3.14159265358979 / 180.0, 1e-9);
    cr_expect_float_eq(v->view.zoom, 0.5, 1e-12);
    cr_expect_eq(v->view.energy_scale, VIEW_SCALE_FIXED);
    cr_expect_float_eq(v->view.energy_lo, 2.9, 1e-12);
    cr_expect_float_eq(v->view.energy_hi, 3.2, 1e-12);
    cr_expect_float_eq(v->view.strain_hi, 0.2, 1e-12, "a percentage is a hundredth");
    cr_expect_float_eq(v->view.ramp, 0.005, 1e-12);
    cr_expect(v->view.set & VIEW_SET_RAMP);
    cr_expect_eq(v->view.show_count, 2);
    cr_expect_eq(v->view.shows[0], METRIC_TORN);
    cr_expect_eq(v->view.shows[1], METRIC_MAX_STRAIN);
    cr_expect_eq(v->view.set, VIEW_SET_MODE | VIEW_SET_CAMERA | VIEW_SET_YAW | VIEW_SET_PITCH | VIEW_SET_ZOOM |
                                  VIEW_SET_ENERGY | VIEW_SET_STRAIN | VIEW_SET_RAMP | VIEW_SET_SHOW);
    const LessonItem *w = &l->items[3];
    cr_expect_str_eq(w->pane, "b");
    cr_expect_eq(w->view.set, VIEW_SET_ENERGY | VIEW_SET_CAMERA | VIEW_SET_SHOW, "only what the line names");
    cr_expect_eq(w->view.energy_scale, VIEW_SCALE_LOG);
    cr_expect_eq(w->view.show_count, 0);
    lesson_destroy(l);
}

Test(parser, refuses_bad_view_lines_with_their_place)
{
    /* the column is the culprit's: the value, or the key that is unknown */
    cr_expect_str_eq(error_of(HEAD "view mode=glow\npage P\n"),
                     "t.lesson:4:11: view: mode is shaded, wire, strain or points, got 'glow'");
    cr_expect_str_eq(error_of(HEAD "view camra=own\npage P\n"),
                     "t.lesson:4:6: view: unknown key 'camra'; did you mean 'camera'?");
    cr_expect_str_eq(error_of(HEAD "view zoom=200\npage P\n"),
                     "t.lesson:4:11: view: zoom is a factor from 0.1 to 100, got '200'");
    cr_expect_str_eq(error_of(HEAD "view marks=yes\npage P\n"), "t.lesson:4:12: view: marks is on or off, got 'yes'");
    cr_expect_str_eq(error_of(HEAD "view trace=1s\npage P\n"), "t.lesson:4:12: view: trace is on or off, got '1s'");
    cr_expect_str_eq(error_of(HEAD "view torn=1\npage P\n"), "t.lesson:4:11: view: torn is on or off, got '1'");
    cr_expect_str_eq(error_of(HEAD "view cuts=yes\npage P\n"), "t.lesson:4:11: view: cuts is on or off, got 'yes'");
    cr_expect_str_eq(error_of(HEAD "view target=0,1\npage P\n"),
                     "t.lesson:4:13: view: target is auto or a point X,Y,Z in metres (such as 0.5,1,0.5), got '0,1'");
    cr_expect_str_eq(
        error_of(HEAD "view target=0,1,2,3\npage P\n"),
        "t.lesson:4:13: view: target is auto or a point X,Y,Z in metres (such as 0.5,1,0.5), got '0,1,2,3'");
    cr_expect_str_eq(
        error_of(HEAD "view ramp=10\npage P\n"),
        "t.lesson:4:11: view: ramp is auto or the strain at the top of the colours, 0.1% to 500%, got '10'");
    cr_expect_str_eq(error_of(HEAD "view ramp=0.01%\npage P\n"),
                     "t.lesson:4:11: view: ramp is auto or the strain at the top of the colours, 0.1% to 500%, got "
                     "'0.01%'");
    cr_expect_str_eq(error_of(HEAD "view energy=3..2\npage P\n"),
                     "t.lesson:4:13: view: energy is auto, log or a range LO..HI such as 2.9..3.2 (J), got '3..2'");
    cr_expect_str_eq(error_of(HEAD "view strain=log\npage P\n"),
                     "t.lesson:4:13: view: strain is auto or a range LO..HI such as 0..20%, got 'log'");
    cr_expect_str_eq(error_of(HEAD "view show=torn,maxstrain\npage P\n"),
                     "t.lesson:4:16: view: show: unknown metric 'maxstrain'; did you mean 'max_strain'?");
    cr_expect_str_eq(error_of(HEAD "view show=screen_cover\npage P\n"),
                     "t.lesson:4:11: view: show takes metrics such as torn,max_strain,time, got 'screen_cover'");
    cr_expect_str_eq(error_of(HEAD "view yaw=200\npage P\n"),
                     "t.lesson:4:10: view: yaw is in degrees, -180 to 180, got '200'");
    cr_expect_str_eq(error_of(HEAD "view\npage P\n"),
                     "t.lesson:4:5: view: expected KEY=VALUE, such as mode=strain or camera=shared");
    cr_expect_str_eq(error_of(HEAD "pane a\nview left mode=wire\npage P\n"),
                     "t.lesson:5:6: unknown pane 'left' (open: a)");
}

Test(parser, reads_claims_on_the_screen)
{
    Lesson *l = parse(HEAD "pane a\npane b\npage P\nexpect a screen_unlike b > 30%\nexpect a screen_rows > 1.5x b\n"
                           "expect b screen_holes = 0\n");
    cr_assert_not_null(l, "%s", err);
    const LessonExpect *e = &l->items[l->item_count - 3].expect;
    cr_expect_eq(e->metric, METRIC_SCREEN_UNLIKE);
    cr_expect_str_eq(e->other_pane, "b");
    cr_expect_float_eq(e->value, 0.3, 1e-12);
    e = &l->items[l->item_count - 2].expect;
    cr_expect_eq(e->reference, REF_PANE);
    cr_expect_float_eq(e->value, 1.5, 1e-12);
    lesson_destroy(l);
    cr_expect_str_eq(
        error_of(HEAD "pane a\npane b\npage P\nexpect a screen_unlike > 30%\n"),
        "t.lesson:7:24: expect: screen_unlike names the pane compared with, such as 'screen_unlike right > 30%'");
    cr_expect_str_eq(error_of(HEAD "pane a\npane b\npage P\nexpect a screen_unlike a > 30%\n"),
                     "t.lesson:7:24: expect: screen_unlike compares two different panes");
    cr_expect_str_eq(
        error_of(HEAD "pane a\npage P\nexpect screen_cover within 5% of start\n"),
        "t.lesson:6:8: expect: screen_cover is what the screen shows now: compare it with a number or a pane");
}

Test(parser, explain_and_recap)
{
    Lesson *l =
        parse(HEAD "page P\nrun 1s\nexplain Why did it sag?\n> Gravity.\nrecap It sags.\npage Q\n> No recap.\n");
    cr_assert_not_null(l, "%s", err);
    const LessonPage *page = &l->pages[0];
    int explains = 0;
    for (int k = page->first_item; k < page->first_item + page->item_count; k++)
        if (l->items[k].kind == LESSON_EXPLAIN) {
            explains++;
            cr_expect_str_eq(l->items[k].text, "Why did it sag?");
        }
    cr_expect_eq(explains, 1);
    cr_expect_str_eq(lesson_page_recap(l, 0), "It sags.");
    cr_expect_null(lesson_page_recap(l, 1));
    cr_expect_null(lesson_page_recap(l, 2));
    cr_expect_eq(lesson_page_words(l, 0), 1 + 4 + 1, "the explain's words are on screen, the recap's are not");
    lesson_destroy(l);

    cr_expect_str_eq(error_of(HEAD "page P\nexplain\n> x\n"),
                     "t.lesson:5:1: explain: say what to explain, e.g. 'explain Why does Euler gain energy?'");
    cr_expect_str_eq(error_of(HEAD "page P\n> x\nexplain Why?\npage Q\n> y\n"),
                     "t.lesson:6:1: explain: nothing explains it; add the explanation as narration ('> ...') after "
                     "this line");
    cr_expect_str_eq(error_of(HEAD "page P\nexplain Why?\n"),
                     "t.lesson:5:1: explain: nothing explains it; add the explanation as narration ('> ...') after "
                     "this line",
                     "at the end of the file too");
    cr_expect_str_eq(error_of(HEAD "recap x\npage P\n"),
                     "t.lesson:4:1: 'recap' belongs on a page (start one with 'page')");
    cr_expect_str_eq(error_of(HEAD "page P\nrecap a\nrecap b\n"),
                     "t.lesson:6:1: recap: this page already has one (line 5); a page gets one line");
    cr_expect_str_eq(error_of(HEAD "page P\nrecap\n"),
                     "t.lesson:5:1: recap: say in a line what the page showed, e.g. 'recap Euler gains energy'");
}

/* teacher TEXT: notes for the teacher, in the header (the whole lesson) or on
 * a page; never words a student reads. */
Test(parser, teacher_notes)
{
    Lesson *l = parse(HEAD "teacher Plan 10 minutes.\npage P\n> Look.\nteacher Ask first what they expect.\n"
                           "teacher Many say it will not sag.\npage Q\n> None here.\n");
    cr_assert_not_null(l, "%s", err);
    const char *notes[4];
    cr_expect_eq(lesson_teacher_notes(l, -1, notes, 4), 1);
    cr_expect_str_eq(notes[0], "Plan 10 minutes.");
    cr_expect_eq(lesson_teacher_notes(l, 0, notes, 4), 2);
    cr_expect_str_eq(notes[0], "Ask first what they expect.");
    cr_expect_str_eq(notes[1], "Many say it will not sag.");
    cr_expect_eq(lesson_teacher_notes(l, 0, notes, 1), 1, "at most max");
    cr_expect_eq(lesson_teacher_notes(l, 1, notes, 4), 0);
    cr_expect_eq(lesson_teacher_notes(l, 2, notes, 4), 0);
    cr_expect_eq(lesson_page_words(l, 0), 1 + 1, "the notes are not on a student's screen");
    lesson_destroy(l);
    cr_expect_str_eq(error_of(HEAD "page P\n  teacher\n"),
                     "t.lesson:5:3: teacher: write the note, e.g. 'teacher Ask first what they expect; 2 minutes'");
}

Test(parser, homework_and_its_solve_line)
{
    Lesson *l = parse(HEAD "pane a\npane b\npage P\nhomework Find the passes.\n"
                           "solve b iterations largest 12 after 500ms if max_strain within 1% of start\n");
    cr_assert_not_null(l, "%s", err);
    const LessonItem *h = &l->items[l->pages[0].first_item];
    cr_assert_eq(h->kind, LESSON_HOMEWORK);
    cr_expect_str_eq(h->pane, "b");
    cr_expect_str_eq(h->names[0], "iterations");
    cr_expect(h->seek == 1 && h->answer == 12 && h->seconds == 0.5);
    cr_expect(h->expect.kind == EXPECT_WITHIN && h->expect.reference == REF_START && h->expect.tolerance_relative);
    cr_expect_str_eq(h->expect.source, "max_strain within 1% of start");
    cr_expect_eq(l->expect_count, 1);
    lesson_destroy(l);
    cr_expect_str_eq(error_of(HEAD "page P\nhomework Find it.\n> Words.\n"),
                     "t.lesson:5:1: homework: the next line must say its answer, e.g. 'solve substeps smallest 7 "
                     "after 5s if not exploded'");
    cr_expect_str_eq(error_of(HEAD "page P\nhomework Find it.\n"),
                     "t.lesson:5:1: homework: the next line must say its answer, e.g. 'solve substeps smallest 7 "
                     "after 5s if not exploded'",
                     "at the end of the file too");
    cr_expect_str_eq(error_of(HEAD "page P\nsolve substeps smallest 7 after 5s if not exploded\n"),
                     "t.lesson:5:1: 'solve' goes on the line after a 'homework'");
    cr_expect_str_eq(error_of(HEAD "page P\nhomework X\nsolve dt smallest 7 after 5s if not exploded\n"),
                     "t.lesson:6:7: solve: dt is not a whole number; a homework seeks a count (substeps, iterations "
                     "...)");
    cr_expect_str_eq(error_of(HEAD "page P\nhomework X\nsolve substeps least 7 after 5s if not exploded\n"),
                     "t.lesson:6:16: solve: expected 'smallest' or 'largest' after substeps");
    cr_expect_str_eq(error_of(HEAD "page P\nhomework X\nsolve substeps smallest 7 after 5m if not exploded\n"),
                     "t.lesson:6:33: solve: expected a time such as '5s', got '5m'");
    cr_expect_str_eq(error_of(HEAD "page P\nhomework X\nsolve substeps smallest 7 after 90s if not exploded\n"),
                     "t.lesson:6:33: solve: the run must last over 0 s and at most 60 s");
    cr_expect_str_eq(error_of(HEAD "page P\nhomework X\nsolve substeps smallest 7 after 5s if screen_hot < 1%\n"),
                     "t.lesson:6:39: solve: screen_hot cannot be a homework's condition; use 'not exploded' or a "
                     "measure of the cloth");
    cr_expect_str_eq(error_of(HEAD "page P\nhomework\n"),
                     "t.lesson:5:1: homework: say what to find, e.g. 'homework Find the fewest substeps that hold'");
}

/* A file's name is quoted in every message about it: its controls are
 * escaped, never sent to the terminal. */
Test(parser, a_file_name_with_control_characters_is_escaped_in_messages)
{
    const char text[] = "titel A\n";
    Lesson *l =
        lesson_parse_buffer("x\x1b]52;c;aGk=\x07\xc2\x9b\xe2\x80\xae.lesson", text, sizeof text - 1, err, sizeof err);
    cr_expect_null(l);
    cr_expect(strncmp(err, "x\\x1b]52;c;aGk=\\x07\\x9b\\u202e.lesson:1:1: ", 40) == 0, "%s", err);
    for (const char *c = err; *c; c++)
        cr_expect((unsigned char)*c >= 0x20 && (unsigned char)*c != 0x7f, "byte %zu is a control", (size_t)(c - err));
}
