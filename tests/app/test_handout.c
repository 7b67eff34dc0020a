/* test_handout.c - `clothsim handout`: the page a teacher prints. The output
 * is parsed as HTML by xmllint (libxml2's HTML parser, a test package of the
 * Makefile), must fetch nothing, and must hold each page of the lesson, a
 * picture of its panes drawn by the renderer, the figures its expects
 * measured and, in the teacher's edition only, the notes and answers. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support.h"
#include "lesson/lesson.h"
#include "lesson/parser.h"
#include "app/handout.h"

static char out[1 << 21], err[8192];

static int run(const char *const *argv)
{
    return support_exec(argv, out, sizeof out, err, sizeof err);
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* text as the handout writes it: &, <, >, " escaped. */
static const char *escaped(const char *text)
{
    static char buffer[2048];
    size_t n = 0;
    for (const char *c = text; *c && n + 8 < sizeof buffer; c++) {
        const char *e = *c == '&' ? "&amp;" : *c == '<' ? "&lt;" : *c == '>' ? "&gt;" : *c == '"' ? "&quot;" : NULL;
        if (e) {
            memcpy(buffer + n, e, strlen(e));
            n += strlen(e);
        } else {
            buffer[n++] = *c;
        }
    }
    buffer[n] = '\0';
    return buffer;
}

/* xmllint --html reads the file without a word of complaint. */
static void expect_html(const char *path)
{
    if (system("xmllint --version >/dev/null 2>&1") != 0)
        cr_skip_test("xmllint is not installed (libxml2-utils)");
    char command[600];
    snprintf(command, sizeof command, "xmllint --html --noout '%s' 2>&1", path);
    FILE *p = popen(command, "r");
    cr_assert(p);
    char complaint[4096];
    size_t n = fread(complaint, 1, sizeof complaint - 1, p);
    complaint[n] = '\0';
    int status = pclose(p);
    cr_expect(status == 0 && n == 0, "xmllint does not read %s as HTML:\n%s", path, complaint);
}

/* Nothing to fetch: no URL, no script, no stylesheet, image or font from elsewhere. */
static void expect_self_contained(const char *html)
{
    const char *banned[] = {"http:", "https:", "//", "<script", "<link", "<img", "<iframe", "src=", "url(", "@import"};
    for (size_t k = 0; k < sizeof banned / sizeof banned[0]; k++)
        cr_expect(strstr(html, banned[k]) == NULL, "the handout fetches something: '%s' in it", banned[k]);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "no %s", path);
    static char text[1 << 21];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

Test(handout, a_students_handout_holds_every_page_picture_and_figure_and_no_answer, .timeout = 240)
{
    const char *lesson_path = CLOTHSIM_SRCDIR "/lessons/02-euler-vs-verlet.lesson";
    char path[128];
    snprintf(path, sizeof path, "/tmp/clothsim-handout-%d.html", (int)getpid());
    cr_assert_eq(run((const char *[]){"", "handout", lesson_path, "-o", path, NULL}), 0, "%s", err);
    cr_expect_str_eq(err, "");
    expect_html(path);
    const char *html = read_all(path);
    expect_self_contained(html);
    char perr[600];
    Lesson *lesson = lesson_parse_file(lesson_path, perr, sizeof perr);
    cr_assert(lesson, "%s", perr);
    cr_expect(strstr(html, escaped(lesson->title)) != NULL, "no title");
    for (int page = 0; page < lesson->page_count; page++) {
        char id[64];
        snprintf(id, sizeof id, "id=\"page-%d\"", page + 1);
        cr_expect(strstr(html, id) != NULL, "no page %d", page + 1);
        cr_expect(strstr(html, escaped(lesson->pages[page].heading)) != NULL, "no heading of page %d", page + 1);
    }
    /* a picture at each page's first stop and after each run, a pane each */
    int runs = 0;
    for (int k = 0; k < lesson->item_count; k++)
        runs += lesson->items[k].kind == LESSON_RUN;
    cr_expect_geq(count(html, "<div class=\"figure\""), lesson->page_count, "a picture a page at least");
    cr_expect_geq(count(html, "<div class=\"figure\""), runs, "a picture a run at least");
    cr_expect_geq(count(html, "<pre class=\"art\">"), 2 * lesson->page_count, "both panes in each picture");
    /* drawn by the renderer: braille cells, in its colours */
    cr_expect(strstr(html, "\u28ff") != NULL, "no braille in the pictures");
    cr_expect(strstr(html, "<span class=\"k") != NULL, "no colour in the pictures");
    /* the figures the lesson checks, measured */
    cr_expect(strstr(html, "Explicit Euler: exploded at t = 2.") != NULL, "no measured explosion");
    cr_expect(strstr(html, "Verlet: max_strain = ") != NULL, "no measured strain");
    /* questions with room to answer, and no answer */
    cr_expect_eq(count(html, "<b>Question "), 3);
    cr_expect(strstr(html, "&#9744; 2. Euler flies apart") != NULL, "no box to tick");
    cr_expect(strstr(html, "Name: ") != NULL);
    cr_expect(strstr(html, "<b>Explain.</b> Why does Euler gain energy?") && strstr(html, "class=\"line\""),
              "no room to explain");
    cr_expect(strstr(html, "each swing overshoots") == NULL, "the explanation before the student writes theirs");
    /* a run that answers a question comes after a line that says to answer first */
    const char *question = strstr(html, "<b>Question 1.</b>");
    const char *reveal = question ? strstr(question, "<p class=\"reveal\">Answer the question above first.") : NULL;
    const char *run_picture = question ? strstr(question, "after a run of") : NULL;
    cr_expect(reveal && run_picture && reveal < run_picture, "the run's answer right under the question");
    cr_expect(strstr(html, "Teacher") == NULL && strstr(html, "The answer is") == NULL &&
                  strstr(html, "&#9745;") == NULL && strstr(html, "claim held") == NULL,
              "the teacher's edition in the student's");
    lesson_destroy(lesson);
    unlink(path);
}

Test(handout, the_teachers_edition_adds_notes_answers_and_claims, .timeout = 240)
{
    const char *lesson_path = CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson";
    cr_assert_eq(run((const char *[]){"", "handout", "--teacher", lesson_path, "-o", "-", NULL}), 0, "%s", err);
    char path[128];
    snprintf(path, sizeof path, "/tmp/clothsim-handout-t-%d.html", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(out, f);
    fclose(f);
    expect_html(path);
    unlink(path);
    expect_self_contained(out);
    char perr[600];
    Lesson *lesson = lesson_parse_file(lesson_path, perr, sizeof perr);
    cr_assert(lesson, "%s", perr);
    int notes = 0;
    for (int k = 0; k < lesson->item_count; k++) {
        const LessonItem *item = &lesson->items[k];
        if (item->kind == LESSON_TEACHER) {
            notes++;
            cr_expect(strstr(out, escaped(item->text)) != NULL, "no note of line %d", item->line);
        }
        if (item->kind == LESSON_EXPECT)
            cr_expect(strstr(out, escaped(item->expect.source)) != NULL, "no claim of line %d", item->line);
        if (item->kind == LESSON_QUESTION && item->answer >= 0) {
            char mark[512];
            snprintf(mark, sizeof mark, "&#9745; %d. %s", item->answer + 1, escaped(item->choices[item->answer].text));
            cr_expect(strstr(out, mark) != NULL, "the answer of line %d is not marked", item->line);
        }
    }
    cr_expect_geq(notes, 5, "lesson 1 has its notes");
    cr_expect_eq(count(out, "claim held"), lesson->expect_count, "every claim, held");
    cr_expect(strstr(out, "teacher's edition") != NULL);
    lesson_destroy(lesson);
}

Test(handout, bad_input_is_one_line_and_status_2)
{
    cr_expect_eq(run((const char *[]){"", "handout", NULL}), 2);
    cr_expect_str_eq(err, "clothsim: handout: name a lesson file (clothsim handout --help)\n");
    cr_expect_eq(run((const char *[]){"", "handout", "/nonexistent/x.lesson", NULL}), 2);
    cr_expect(strncmp(err, "/nonexistent/x.lesson: cannot read: ", 36) == 0 && count(err, "\n") == 1, "%s", err);
    cr_expect_eq(
        run((const char *[]){"", "handout", CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson", "--pupil", NULL}), 2);
    cr_expect_str_eq(err, "clothsim: handout: unknown option '--pupil' (clothsim handout --help)\n");
    char path[128];
    snprintf(path, sizeof path, "/tmp/clothsim-handout-bad-%d.lesson", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("title T\nsummary S\nduration 1 min\npage P\n  teacher\n", f);
    fclose(f);
    cr_expect_eq(run((const char *[]){"", "handout", path, "-o", "-", NULL}), 2);
    char want[300];
    snprintf(want, sizeof want,
             "%s:5:3: teacher: write the note, e.g. 'teacher Ask first what they expect; 2 minutes'\n", path);
    cr_expect_str_eq(err, want);
    cr_expect_str_eq(out, "", "nothing written");
    unlink(path);
    cr_expect_eq(run((const char *[]){"", "handout", CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson", "-o",
                                      "/nonexistent/folder/x.html", NULL}),
                 2);
    cr_expect(strncmp(err, "clothsim: -o /nonexistent/folder/x.html: ", 41) == 0 && count(err, "\n") == 1, "%s", err);
}

/* A homework: a line to write the number on; the teacher's edition has the
 * answer and the checker's proof, run while the handout was made. */
Test(handout, a_homework_has_room_for_the_number_and_the_teacher_has_its_proof, .timeout = 240)
{
    const char *lesson_path = CLOTHSIM_SRCDIR "/lessons/03-verlets-limit.lesson";
    cr_assert_eq(run((const char *[]){"", "handout", lesson_path, "-o", "-", NULL}), 0, "%s", err);
    cr_expect(strstr(out, "<b>Homework 1.</b> What is the fewest substeps") && strstr(out, "Your answer: ____"),
              "no homework in the student's edition");
    cr_expect(strstr(out, "The answer is 9") == NULL, "the answer in the student's edition");
    cr_expect(strstr(out, "class=\"reveal\">") != NULL, "no line before the answer in the student's edition");
    cr_assert_eq(run((const char *[]){"", "handout", "--teacher", lesson_path, "-o", "-", NULL}), 0, "%s", err);
    cr_expect(strstr(out, "The answer is 9: the smallest substeps for which 'not exploded' holds after 5 s. "
                          "<span class=\"held\">homework held: substeps smallest 9: 'not exploded' holds after 5 s "
                          "at 9, not at 8</span>") != NULL,
              "no answer and proof in the teacher's edition");
    cr_expect(strstr(out, "class=\"reveal\">") == NULL, "the teacher's edition has the answers already");
}

/* In the user's language where the lesson has a translation (gettext's
 * order: LANGUAGE, LC_ALL ...); the English one otherwise. */
Test(handout, the_handout_is_in_the_users_language_where_there_is_a_translation, .timeout = 240)
{
    const char *lesson_path = CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson";
    cr_assert_eq(setenv("LC_ALL", "C.UTF-8", 1), 0);
    cr_assert_eq(setenv("LANGUAGE", "uk", 1), 0);
    cr_assert_eq(run((const char *[]){"", "handout", lesson_path, "-o", "-", NULL}), 0, "%s", err);
    cr_expect(strstr(out, "<h1>Знайомство з тканиною</h1>") != NULL, "not the Ukrainian lesson");
    cr_assert_eq(setenv("LANGUAGE", "de:en:uk", 1), 0);
    cr_assert_eq(run((const char *[]){"", "handout", lesson_path, "-o", "-", NULL}), 0, "%s", err);
    cr_expect(strstr(out, "<h1>Meet the cloth</h1>") != NULL, "English comes before Ukrainian in LANGUAGE");
}

/* The exit question, the one the class answers on its way out: last on the
 * student's sheet, after every page, with lines to write on; the teacher's
 * edition prints it without them. A tiny lesson, written in memory. */
Test(handout, the_exit_question_comes_last_with_room_to_answer)
{
    static const char text[] = "title T\nsummary S\nduration 1 min\nexit Why did it hold?\n"
                               "set cols=4 rows=4\npage First\n> One.\npage Second\n> Two.\n";
    char perr[600];
    Lesson *lesson = lesson_parse_buffer("t.lesson", text, strlen(text), perr, sizeof perr);
    cr_assert(lesson, "%s", perr);
    cr_expect_str_eq(lesson->exit_question, "Why did it hold?");
    for (int teacher = 0; teacher < 2; teacher++) {
        FILE *f = tmpfile();
        cr_assert(f);
        cr_assert(handout_write(f, lesson, teacher, "en"));
        rewind(f);
        size_t n = fread(out, 1, sizeof out - 1, f);
        out[n] = '\0';
        fclose(f);
        const char *exit = strstr(out, "<b>Exit question.</b> Why did it hold?");
        const char *last_page = strstr(out, "Two.");
        cr_expect(exit && last_page && last_page < exit, "the exit question is not after the last page:\n%s", out);
        const char *lines = exit ? strstr(exit, "class=\"line\"") : NULL;
        const char *foot = exit ? strstr(exit, "class=\"foot\"") : NULL;
        if (teacher)
            cr_expect(!lines || (foot && lines > foot), "the teacher's edition has lines to answer on");
        else
            cr_expect(lines && foot && lines < foot, "no room to answer the exit question");
    }
    lesson_destroy(lesson);
}
