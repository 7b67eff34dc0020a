/* test_course.c - the Ukrainian course keeps the English course's commands.
 *
 * lessons/uk/NN-*.lesson is written anew for a Ukrainian class, but its
 * command lines are the English lesson's, so that `check --run` verifies the
 * same claims in both. Here each pair is parsed and compared item by item, the
 * parsed values rather than the text (`5%` and `0.05` are the same claim).
 * What a translation may change is left out: narration (its paragraphs
 * too), the title and summary, page headings, pane labels, pause prompts,
 * questions, choices, feedback, explain and recap texts. Whether a choice has
 * a feedback, and whether a page has an explain or a recap, is kept. */
#include <criterion/criterion.h>
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson/lesson.h"
#include "lesson/parser.h"

#define HEAD "title T\nsummary S\nduration 5 min\n"

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static const char *or_all(const char *pane)
{
    return pane ? pane : "(every pane)";
}

/* The page an item is on, or -1 for the header. */
static int page_of(const Lesson *lesson, int k)
{
    for (int p = 0; p < lesson->page_count; p++)
        if (k >= lesson->pages[p].first_item && k < lesson->pages[p].first_item + lesson->pages[p].item_count)
            return p;
    return -1;
}

/* The first item from k on that is a command, not narration. */
static int next_command(const Lesson *lesson, int k)
{
    while (k < lesson->item_count && lesson->items[k].kind == LESSON_SAY)
        k++;
    return k;
}

static bool same_expect(const LessonExpect *a, const LessonExpect *b)
{
    return a->kind == b->kind && a->metric == b->metric && a->negate == b->negate && a->when == b->when &&
           a->time == b->time && a->op == b->op && a->reference == b->reference && a->value == b->value &&
           a->offset == b->offset && same_text(a->ref_pane, b->ref_pane) && same_text(a->other_pane, b->other_pane) &&
           a->tolerance == b->tolerance && a->tolerance_relative == b->tolerance_relative;
}

/* Only the parts a view line sets are compared: the others are not read. */
static bool same_view(const LessonView *a, const LessonView *b)
{
    if (a->set != b->set)
        return false;
    unsigned set = a->set;
    bool same = true;
    if (set & VIEW_SET_MODE)
        same = same && a->mode == b->mode;
    if (set & VIEW_SET_CAMERA)
        same = same && a->camera == b->camera;
    if (set & VIEW_SET_YAW)
        same = same && a->yaw == b->yaw;
    if (set & VIEW_SET_PITCH)
        same = same && a->pitch == b->pitch;
    if (set & VIEW_SET_ZOOM)
        same = same && a->zoom == b->zoom;
    if (set & VIEW_SET_ENERGY)
        same =
            same && a->energy_scale == b->energy_scale && a->energy_lo == b->energy_lo && a->energy_hi == b->energy_hi;
    if (set & VIEW_SET_STRAIN)
        same =
            same && a->strain_scale == b->strain_scale && a->strain_lo == b->strain_lo && a->strain_hi == b->strain_hi;
    if (set & VIEW_SET_RAMP)
        same = same && a->ramp == b->ramp;
    if (set & VIEW_SET_SHOW) {
        same = same && a->show_count == b->show_count;
        for (int s = 0; same && s < a->show_count; s++)
            same = a->shows[s] == b->shows[s];
    }
    return same;
}

/* NULL if the two items are the same command, else what differs, with the
 * two values where a reader needs them (into detail). */
static const char *item_diff(const LessonItem *en, const LessonItem *uk, char *detail, size_t size)
{
    detail[0] = '\0';
    if (en->kind != uk->kind) {
        snprintf(detail, size, " ('%s' against '%s')", lesson_item_names[uk->kind], lesson_item_names[en->kind]);
        return "the command";
    }
    if (!same_text(en->pane, uk->pane)) {
        snprintf(detail, size, " (%s against %s)", or_all(uk->pane), or_all(en->pane));
        return "the pane";
    }
    int settings = en->setting_count > uk->setting_count ? en->setting_count : uk->setting_count;
    for (int s = 0; s < settings; s++) {
        const LessonSetting *a = s < en->setting_count ? &en->settings[s] : NULL;
        const LessonSetting *b = s < uk->setting_count ? &uk->settings[s] : NULL;
        if (a && b && a->info == b->info && strcmp(a->value, b->value) == 0)
            continue;
        snprintf(detail, size, " (%s%s%s against %s%s%s)", b ? b->info->name : "nothing", b ? "=" : "",
                 b ? b->value : "", a ? a->info->name : "nothing", a ? "=" : "", a ? a->value : "");
        return "a setting";
    }
    if (en->steps != uk->steps || en->seconds != uk->seconds || en->speed != uk->speed)
        return "the count, duration or speed";
    if (en->choice_count != uk->choice_count) {
        snprintf(detail, size, " (%d choices against %d)", uk->choice_count, en->choice_count);
        return "the question";
    }
    if (en->answer != uk->answer) {
        int shown = en->kind == LESSON_HOMEWORK ? 0 : 1; /* a choice counts from 1; a homework's is the number */
        snprintf(detail, size, " (answer %d against %d)", uk->answer + shown, en->answer + shown);
        return "the answer";
    }
    for (int c = 0; c < en->choice_count; c++)
        if (!en->choices[c].feedback != !uk->choices[c].feedback) {
            snprintf(detail, size, " (choice %d has %s against %s)", c + 1, uk->choices[c].feedback ? "one" : "none",
                     en->choices[c].feedback ? "one" : "none");
            return "a feedback";
        }
    bool names = en->name_count == uk->name_count;
    for (int n = 0; names && n < en->name_count; n++)
        names = strcmp(en->names[n], uk->names[n]) == 0;
    if (!names)
        return "a name";
    if (en->seek != uk->seek)
        return "the homework's sought end";
    if ((en->kind == LESSON_EXPECT || en->kind == LESSON_HOMEWORK) && !same_expect(&en->expect, &uk->expect)) {
        snprintf(detail, size, " (%s against %s)", uk->expect.source, en->expect.source);
        return "the claim";
    }
    if (en->kind == LESSON_VIEW && !same_view(&en->view, &uk->view))
        return "the view";
    return NULL;
}

/* True if uk has en's commands, in en's order and on en's pages; else false
 * with one line in why, naming the first place they part. */
static bool same_commands(const Lesson *en, const Lesson *uk, char *why, size_t size)
{
    if (en->page_count != uk->page_count) {
        snprintf(why, size, "%s: %d pages, %s: %d", uk->name, uk->page_count, en->name, en->page_count);
        return false;
    }
    if (en->minutes != uk->minutes) {
        snprintf(why, size, "%s: duration %g min, %s: %g", uk->name, uk->minutes, en->name, en->minutes);
        return false;
    }
    int a = next_command(en, 0), b = next_command(uk, 0);
    for (; a < en->item_count && b < uk->item_count; a = next_command(en, a + 1), b = next_command(uk, b + 1)) {
        const LessonItem *x = &en->items[a], *y = &uk->items[b];
        char detail[300];
        const char *what = item_diff(x, y, detail, sizeof detail);
        if (what) {
            snprintf(why, size, "%s:%d: %s differs from %s:%d%s", uk->name, y->line, what, en->name, x->line, detail);
            return false;
        }
        if (page_of(en, a) != page_of(uk, b)) {
            snprintf(why, size, "%s:%d: '%s' is on page %d, %s:%d on page %d", uk->name, y->line,
                     lesson_item_names[y->kind], page_of(uk, b) + 1, en->name, x->line, page_of(en, a) + 1);
            return false;
        }
    }
    if (b < uk->item_count) {
        snprintf(why, size, "%s:%d: an extra '%s' after the last of %s", uk->name, uk->items[b].line,
                 lesson_item_names[uk->items[b].kind], en->name);
        return false;
    }
    if (a < en->item_count) {
        snprintf(why, size, "%s: no '%s' where %s:%d has one", uk->name, lesson_item_names[en->items[a].kind], en->name,
                 en->items[a].line);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------ the comparison itself */

static char err[600];

static Lesson *parse(const char *name, const char *text)
{
    Lesson *l = lesson_parse_buffer(name, text, strlen(text), err, sizeof err);
    cr_assert_not_null(l, "%s", err);
    return l;
}

static const char english[] = HEAD "set cols=8 rows=6 collider=none\n"
                                   "pane a \"Left\" iterations=4\n"
                                   "pane b \"Right\"\n"
                                   "view mode=strain ramp=0.5%\n"
                                   "page One\n"
                                   "> Watch.\n"
                                   "question Which?\n"
                                   "choice A\n"
                                   "feedback Yes.\n"
                                   "choice B\n"
                                   "answer 1\n"
                                   "run 10 steps\n"
                                   "expect a max_strain < 5%\n"
                                   "explain Why?\n"
                                   "> Because.\n"
                                   "recap The point.\n"
                                   "page Two\n"
                                   "pause\n"
                                   "highlight a max_strain\n"
                                   "> The end.\n";

/* The English lesson with one line replaced (from must occur once). */
static Lesson *variant(const char *from, const char *to)
{
    static char text[4096];
    const char *at = strstr(english, from);
    cr_assert(at && !strstr(at + 1, from), "'%s' is not once in the lesson", from);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - english), english, to, at + strlen(from));
    return parse("uk.lesson", text);
}

/* The message comparing the English lesson with a variant; "" if the same. */
static const char *diff_of(const char *from, const char *to)
{
    static char why[600];
    Lesson *en = parse("en.lesson", english), *uk = variant(from, to);
    why[0] = '\0';
    if (same_commands(en, uk, why, sizeof why))
        why[0] = '\0';
    lesson_destroy(en);
    lesson_destroy(uk);
    return why;
}

Test(course, the_text_may_be_written_anew)
{
    const char uk_text[] = "title Т\nsummary С\nduration 5 min\n"
                           "set cols=8 rows=6 collider=none\n"
                           "pane a \"Ліва\" iterations=4\n"
                           "pane b \"Права\"\n"
                           "view mode=strain ramp=0.005\n"
                           "page Перша\n"
                           "> Дивіться.\n>\n> Уважно.\n"
                           "question Яка?\n"
                           "choice А\n"
                           "feedback Так.\n"
                           "choice Б\n"
                           "answer 1\n"
                           "> Пуск.\n"
                           "run 10 steps\n"
                           "expect a max_strain < 0.05 # a comment\n"
                           "explain Чому?\n"
                           "> Тому що.\n"
                           "recap Суть.\n"
                           "page\n"
                           "pause Enter: далі.\n"
                           "highlight a max_strain\n";
    char why[600] = "";
    Lesson *en = parse("en.lesson", english), *uk = parse("uk.lesson", uk_text);
    cr_expect(same_commands(en, uk, why, sizeof why), "%s", why);
    lesson_destroy(en);
    lesson_destroy(uk);
}

Test(course, a_changed_claim_is_caught)
{
    cr_expect_str_eq(diff_of("expect a max_strain < 5%", "expect a max_strain < 6%"),
                     "uk.lesson:16: the claim differs from en.lesson:16 (a max_strain < 6% against a max_strain < 5%)");
    cr_expect_str_eq(diff_of("expect a max_strain < 5%", "expect b max_strain < 5%"),
                     "uk.lesson:16: the pane differs from en.lesson:16 (b against a)");
    cr_expect_str_eq(
        diff_of("expect a max_strain < 5%", "expect a mean_strain < 5%"),
        "uk.lesson:16: the claim differs from en.lesson:16 (a mean_strain < 5% against a max_strain < 5%)");
    cr_expect_str_eq(diff_of("expect a max_strain < 5%\n", ""), "uk.lesson:16: the command differs from en.lesson:16 "
                                                                "('explain' against 'expect')");
}

Test(course, a_changed_setting_is_caught)
{
    cr_expect_str_eq(diff_of("iterations=4", "iterations=5"),
                     "uk.lesson:5: a setting differs from en.lesson:5 (iterations=5 against iterations=4)");
    cr_expect_str_eq(diff_of("pane b \"Right\"", "pane b \"Right\" substeps=2"),
                     "uk.lesson:6: a setting differs from en.lesson:6 (substeps=2 against nothing)");
    cr_expect_str_eq(diff_of("collider=none", "collider=box"),
                     "uk.lesson:4: a setting differs from en.lesson:4 (collider=box against collider=none)");
    cr_expect_str_eq(diff_of("run 10 steps", "run 11 steps"),
                     "uk.lesson:15: the count, duration or speed differs from en.lesson:15");
}

Test(course, a_changed_answer_or_feedback_is_caught)
{
    cr_expect_str_eq(diff_of("answer 1", "answer 2"), "uk.lesson:10: the answer differs from en.lesson:10 (answer 2 "
                                                      "against 1)");
    cr_expect_str_eq(diff_of("choice B\n", "choice B\nfeedback No.\n"),
                     "uk.lesson:10: a feedback differs from en.lesson:10 (choice 2 has one against none)");
    cr_expect_str_eq(diff_of("choice B\n", "choice B\nchoice C\n"),
                     "uk.lesson:10: the question differs from en.lesson:10 (3 choices against 2)");
}

Test(course, a_changed_view_or_page_is_caught)
{
    cr_expect_str_eq(diff_of("ramp=0.5%", "ramp=3%"), "uk.lesson:7: the view differs from en.lesson:7");
    cr_expect_str_eq(diff_of("ramp=0.5%", ""), "uk.lesson:7: the view differs from en.lesson:7");
    cr_expect_str_eq(diff_of("recap The point.\n", ""),
                     "uk.lesson:20: the command differs from en.lesson:19 ('pause' against 'recap')");
    cr_expect_str_eq(diff_of("highlight a max_strain\n", ""), "uk.lesson: no 'highlight' where en.lesson:22 has one");
    cr_expect_str_eq(diff_of("page Two\npause\n", "pause\npage Two\n"),
                     "uk.lesson:20: 'pause' is on page 1, en.lesson:21 on page 2");
    cr_expect_str_eq(diff_of("page Two\n", "page Two\n> More.\npage Three\n"), "uk.lesson: 3 pages, en.lesson: 2");
    cr_expect_str_eq(diff_of("highlight a max_strain", "highlight a mean_strain"),
                     "uk.lesson:22: a name differs from en.lesson:22");
    cr_expect_str_eq(diff_of("> The end.\n", "> The end.\nhighlight off\n"),
                     "uk.lesson:24: an extra 'highlight' after the last of en.lesson");
}

/* ------------------------------------------------------------ the course */

Test(course, every_lesson_has_a_ukrainian_one)
{
    glob_t en, uk;
    cr_assert_eq(glob(CLOTHSIM_SRCDIR "/lessons/[0-9]*.lesson", 0, NULL, &en), 0);
    cr_assert_eq(glob(CLOTHSIM_SRCDIR "/lessons/uk/[0-9]*.lesson", 0, NULL, &uk), 0);
    cr_expect_geq(en.gl_pathc, 15, "found %zu English lessons", en.gl_pathc);
    for (size_t k = 0; k < en.gl_pathc; k++) {
        char path[1024], copy[1024];
        snprintf(copy, sizeof copy, "%s", en.gl_pathv[k]);
        snprintf(path, sizeof path, CLOTHSIM_SRCDIR "/lessons/uk/%s", basename(copy));
        cr_expect_eq(access(path, R_OK), 0, "no Ukrainian lesson %s", path);
    }
    for (size_t k = 0; k < uk.gl_pathc; k++) {
        char path[1024], copy[1024];
        snprintf(copy, sizeof copy, "%s", uk.gl_pathv[k]);
        snprintf(path, sizeof path, CLOTHSIM_SRCDIR "/lessons/%s", basename(copy));
        cr_expect_eq(access(path, R_OK), 0, "%s has no English lesson %s", uk.gl_pathv[k], path);
    }
    globfree(&en);
    globfree(&uk);
}

Test(course, ukrainian_lessons_keep_the_english_commands)
{
    glob_t g;
    cr_assert_eq(glob(CLOTHSIM_SRCDIR "/lessons/[0-9]*.lesson", 0, NULL, &g), 0);
    int compared = 0;
    for (size_t k = 0; k < g.gl_pathc; k++) {
        char path[1024], copy[1024], why[600];
        snprintf(copy, sizeof copy, "%s", g.gl_pathv[k]);
        snprintf(path, sizeof path, CLOTHSIM_SRCDIR "/lessons/uk/%s", basename(copy));
        Lesson *en = lesson_parse_file(g.gl_pathv[k], err, sizeof err);
        cr_expect_not_null(en, "%s", err);
        Lesson *uk = lesson_parse_file(path, err, sizeof err);
        cr_expect_not_null(uk, "%s", err);
        if (en && uk) {
            cr_expect(same_commands(en, uk, why, sizeof why), "%s", why);
            compared++;
        }
        lesson_destroy(en);
        lesson_destroy(uk);
    }
    cr_expect_geq(compared, 15, "compared %d lessons", compared);
    globfree(&g);
}

/* A homework's answer and condition are the English one's. */
Test(course, a_changed_homework_is_caught)
{
    static const char with_homework[] = "homework Find it.\nsolve a iterations smallest 4 after 1s if not exploded\n";
    char why[600] = "";
    char en_text[4096], uk_text[4096];
    snprintf(en_text, sizeof en_text, "%s%s", english, with_homework);
    snprintf(uk_text, sizeof uk_text, "%s%s", english,
             "homework Знайдіть.\nsolve a iterations smallest 5 after 1s if not exploded\n");
    Lesson *en = parse("en.lesson", en_text), *uk = parse("uk.lesson", uk_text);
    cr_expect(!same_commands(en, uk, why, sizeof why));
    cr_expect_str_eq(why, "uk.lesson:24: the answer differs from en.lesson:24 (answer 5 against 4)");
    lesson_destroy(uk);
    snprintf(uk_text, sizeof uk_text, "%s%s", english,
             "homework Знайдіть.\nsolve a iterations smallest 4 after 1s if max_strain < 1%\n");
    uk = parse("uk.lesson", uk_text);
    cr_expect(!same_commands(en, uk, why, sizeof why));
    cr_expect_str_eq(why, "uk.lesson:24: the claim differs from en.lesson:24 (max_strain < 1% against not exploded)");
    lesson_destroy(uk);
    snprintf(uk_text, sizeof uk_text, "%s%s", english,
             "homework Знайдіть.\nsolve a iterations smallest 4 after 1s if not exploded\n");
    uk = parse("uk.lesson", uk_text);
    cr_expect(same_commands(en, uk, why, sizeof why), "%s", why);
    lesson_destroy(uk);
    lesson_destroy(en);
}

/* A teacher note is a command: the translation keeps it where the English
 * has it (its text written anew), and one more or one fewer is caught. */
Test(course, a_teacher_note_is_kept_where_the_english_has_it)
{
    cr_expect_str_eq(diff_of("recap The point.\n", "recap The point.\nteacher Stop here.\n"),
                     "uk.lesson:20: the command differs from en.lesson:21 ('teacher' against 'pause')");
    cr_expect_str_eq(diff_of("> The end.\n", "> The end.\nteacher Collect the sheets.\n"),
                     "uk.lesson:24: an extra 'teacher' after the last of en.lesson");
}

/* Feedback that teaches: `check` fails a question with a wrong choice that
 * has no feedback, naming the question; a general feedback after `answer`
 * serves every choice without its own. */
Test(course, a_wrong_choice_without_feedback_fails_the_check)
{
    static const char lesson[] = "title T\nsummary S\nduration 1 min\npage P\n"
                                 "question Which?\nchoice A\nfeedback Look at the left pane.\nchoice B\nchoice C\n"
                                 "feedback Read its max strain.\nanswer 3\n";
    Lesson *l = parse("q.lesson", lesson);
    cr_assert(!lesson_check_feedback(l, err, sizeof err));
    cr_expect_str_eq(err, "q.lesson:5:1: choice 2 is wrong and has no feedback: say what on the screen shows why (a "
                          "pane, a number)");
    lesson_destroy(l);
    char text[512]; /* the right answer needs none; a general one serves the rest */
    snprintf(text, sizeof text, "%s", lesson);
    memcpy(strstr(text, "answer 3"), "answer 2", 8);
    l = parse("q.lesson", text);
    cr_expect(lesson_check_feedback(l, err, sizeof err), "%s", err);
    lesson_destroy(l);
    snprintf(text, sizeof text, "%sfeedback Watch the energy plot.\n", lesson);
    l = parse("q.lesson", text);
    cr_expect(lesson_check_feedback(l, err, sizeof err), "%s", err);
    lesson_destroy(l);
}

Test(course, every_wrong_choice_in_both_courses_says_where_to_look)
{
    glob_t g;
    cr_assert_eq(glob(CLOTHSIM_SRCDIR "/lessons/[0-9]*.lesson", 0, NULL, &g), 0);
    cr_assert_eq(glob(CLOTHSIM_SRCDIR "/lessons/uk/[0-9]*.lesson", GLOB_APPEND, NULL, &g), 0);
    for (size_t k = 0; k < g.gl_pathc; k++) {
        Lesson *l = lesson_parse_file(g.gl_pathv[k], err, sizeof err);
        cr_expect_not_null(l, "%s", err);
        if (l)
            cr_expect(lesson_check_feedback(l, err, sizeof err), "%s", err);
        lesson_destroy(l);
    }
    cr_expect_geq(g.gl_pathc, 32);
    globfree(&g);
}

/* A teacher's kit: every lesson of both courses has notes for the teacher
 * in its header and an exit question, and a third of them or more a
 * homework. */
Test(course, every_lesson_has_notes_an_exit_question_and_a_third_homework)
{
    glob_t g;
    cr_assert_eq(glob(CLOTHSIM_SRCDIR "/lessons/[0-9]*.lesson", 0, NULL, &g), 0);
    cr_assert_eq(glob(CLOTHSIM_SRCDIR "/lessons/uk/[0-9]*.lesson", GLOB_APPEND, NULL, &g), 0);
    int homework = 0;
    for (size_t k = 0; k < g.gl_pathc; k++) {
        Lesson *l = lesson_parse_file(g.gl_pathv[k], err, sizeof err);
        cr_assert_not_null(l, "%s", err);
        const char *notes[8];
        cr_expect_geq(lesson_teacher_notes(l, -1, notes, 8), 1, "%s: no notes for the teacher", g.gl_pathv[k]);
        cr_expect(l->exit_question, "%s: no exit question", g.gl_pathv[k]);
        bool any = false;
        for (int i = 0; i < l->item_count; i++)
            any = any || l->items[i].kind == LESSON_HOMEWORK;
        homework += any;
        lesson_destroy(l);
    }
    cr_expect_geq(3 * homework, (int)g.gl_pathc, "%d of %d lessons set a homework", homework, (int)g.gl_pathc);
    globfree(&g);
}
