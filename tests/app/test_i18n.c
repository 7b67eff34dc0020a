/* test_i18n.c - the interface in Ukrainian (issue 17): every string the
 * sources wrap has its translation in src/po/uk.po; numbers a person reads
 * take the locale's decimal comma while data keeps the point; the command
 * line's and the lessons' messages in Ukrainian keep their shape; and the
 * sandbox and a lesson, played in tmux under uk_UA.UTF-8, show no English
 * words. The rest of the suite speaks English whatever the locale it runs
 * in (tests/support.c); the tests here set LC_ALL=uk_UA.UTF-8 themselves. */
#include <criterion/criterion.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../support.h"
#include "../tmux_session.h"
#include "app/i18n.h"

#define UK "uk_UA.UTF-8"

static char out[1 << 20], err[8192];

static int run(const char *const *argv)
{
    return support_exec(argv, out, sizeof out, err, sizeof err);
}

/* The shell command's exit status; what it printed (both streams) in text. */
static int shell(const char *command, char *text, size_t text_size)
{
    char path[] = "/tmp/clothsim-i18n-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    char full[4096];
    snprintf(full, sizeof full, "(%s) >%s 2>&1", command, path);
    int status = system(full);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, text_size - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    unlink(path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool ukrainian_locale_exists(void)
{
    char text[4096];
    shell("locale -a", text, sizeof text);
    return strstr(text, "uk_UA.utf8") || strstr(text, "uk_UA.UTF-8");
}

/* ---------------------------------------------------------------- the catalogue */

Test(i18n, every_string_the_sources_wrap_has_a_ukrainian_translation)
{
    /* the sources extracted now, as make pot does: a string wrapped since
     * uk.po was last merged is missing from it and fails here */
    char text[1 << 16], command[2048];
    snprintf(command, sizeof command,
             "cd %s && xgettext %s -o /tmp/clothsim-i18n-%d.pot src/*/*.c src/*/*.h && "
             "msgcmp src/po/uk.po /tmp/clothsim-i18n-%d.pot; status=$?; rm -f /tmp/clothsim-i18n-%d.pot; "
             "exit $status",
             CLOTHSIM_SRCDIR, CLOTHSIM_XGETTEXT_FLAGS, (int)getpid(), (int)getpid(), (int)getpid());
    cr_expect_eq(shell(command, text, sizeof text), 0,
                 "strings without a Ukrainian translation (add them to src/po/uk.po: make pot, then translate):\n%s",
                 text);
    /* untranslated or fuzzy entries count as missing, and the formats agree */
    snprintf(command, sizeof command, "msgfmt --check --statistics -o /dev/null %s/src/po/uk.po", CLOTHSIM_SRCDIR);
    cr_expect_eq(shell(command, text, sizeof text), 0, "msgfmt --check: %s", text);
    cr_expect(strstr(text, "translated messages") && !strstr(text, "untranslated") && !strstr(text, "fuzzy"),
              "uk.po is not whole: %s", text);
}

Test(i18n, every_language_in_src_po_compiles_with_its_formats_checked)
{
    char text[1 << 14], command[1024];
    snprintf(command, sizeof command,
             "cd %s/src/po && for po in *.po; do msgfmt --check -o /dev/null \"$po\" || exit 1; done", CLOTHSIM_SRCDIR);
    cr_expect_eq(shell(command, text, sizeof text), 0, "%s", text);
}

/* ---------------------------------------------------------------- numbers */

Test(i18n, a_number_a_person_reads_takes_the_decimal_comma_and_data_keeps_the_point)
{
    if (!ukrainian_locale_exists())
        cr_skip_test("uk_UA.UTF-8 is not generated (make check-test-locale)");
    setenv("LC_ALL", UK, 1);
    i18n_init();
    char text[64];
    cr_expect_str_eq(i18n_number(text, sizeof text, "%.2f", 0.08), "0,08");
    cr_expect_str_eq(i18n_decimal_point(), ",");
    char line[64] = "t 1.25 s, step 3. in 01.lesson, v0.1";
    i18n_decimals(line, sizeof line);
    cr_expect_str_eq(line, "t 1,25 s, step 3. in 01.lesson, v0,1");
    /* what reads and writes data did not follow the locale */
    snprintf(text, sizeof text, "%.3f", 0.125);
    cr_expect_str_eq(text, "0.125");
    char *end;
    cr_expect_float_eq(strtod("0.5", &end), 0.5, 1e-12);
    cr_expect_eq(*end, '\0');
    setenv("LC_ALL", "C", 1);
    i18n_init();
    cr_expect_str_eq(i18n_number(text, sizeof text, "%.2f", 0.08), "0.08");
}

Test(i18n, csv_and_set_values_are_the_same_bytes_in_ukrainian)
{
    if (!ukrainian_locale_exists())
        cr_skip_test("uk_UA.UTF-8 is not generated (make check-test-locale)");
    const char *const argv[] = {"",      "run",        "--steps", "20", "--set", "dt=0.005",
                                "--set", "wind_x=1.5", "--csv",   "-",  NULL};
    static char english[1 << 20];
    setenv("LC_ALL", "C", 1);
    cr_assert_eq(run(argv), 0, "%s", err);
    memcpy(english, out, sizeof english);
    setenv("LC_ALL", UK, 1);
    cr_assert_eq(run(argv), 0, "--set dt=0.005 under %s: %s", UK, err);
    cr_expect(strchr(out, '.') && strcmp(out, english) == 0, "the CSV differs under %s:\n%.400s", UK, out);
}

/* ---------------------------------------------------------------- messages */

Test(i18n, a_command_line_mistake_is_one_ukrainian_line)
{
    if (!ukrainian_locale_exists())
        cr_skip_test("uk_UA.UTF-8 is not generated (make check-test-locale)");
    setenv("LC_ALL", UK, 1);
    cr_expect_eq(run((const char *[]){"", "run", "--set", "dt=1", NULL}), 2);
    cr_expect_str_eq(err, "clothsim: --set dt=1: dt: 1 поза межами (від 1e-05 до 0.1 с)\n");
    cr_expect_eq(run((const char *[]){"", "frobnicate", NULL}), 2);
    cr_expect_str_eq(err, "clothsim: невідома команда «frobnicate» (clothsim --help перелічує команди)\n");
    /* the longest messages come whole: Cyrillic takes two bytes a letter (a
     * buffer sized for English cut this one inside a letter) */
    cr_expect_eq(
        run((const char *[]){"", "run", "--set", "dim=2", "--set", "sphere_z=0", "--set", "sphere_travel=0", NULL}), 2);
    cr_expect(strstr(err, "площиною тканини містить частинок: 78") && strstr(err, "або dim=3)\n"), "cut: %s", err);
    /* LANGUAGE picks the language inside a locale that is not C */
    setenv("LC_ALL", "C.UTF-8", 1);
    setenv("LANGUAGE", "uk", 1);
    cr_expect_eq(run((const char *[]){"", "frobnicate", NULL}), 2);
    cr_expect_str_eq(err, "clothsim: невідома команда «frobnicate» (clothsim --help перелічує команди)\n");
    unsetenv("LANGUAGE");
}

Test(i18n, a_lesson_mistake_keeps_file_line_col_and_speaks_ukrainian)
{
    if (!ukrainian_locale_exists())
        cr_skip_test("uk_UA.UTF-8 is not generated (make check-test-locale)");
    char path[64];
    snprintf(path, sizeof path, "/tmp/clothsim-i18n-%d.lesson", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("title Без кінця\nsummary Ні\nduration 1 min\npage Сторінка\npane a \"без кінця\n", f);
    fclose(f);
    setenv("LC_ALL", UK, 1);
    cr_expect_eq(run((const char *[]){"", "check", path, NULL}), 2);
    char expected[160];
    snprintf(expected, sizeof expected, "%s:5:8: незакритий рядок у лапках\n", path);
    cr_expect_str_eq(err, expected);
    unlink(path);
}

/* check --run's claim lines: the claim as the script writes it, the rest
 * (held, seen, the screen size) in Ukrainian, numbers with the comma. */
Test(i18n, the_checkers_claim_lines_speak_ukrainian, .timeout = 60)
{
    if (!ukrainian_locale_exists())
        cr_skip_test("uk_UA.UTF-8 is not generated (make check-test-locale)");
    setenv("LC_ALL", UK, 1);
    cr_expect_eq(run((const char *[]){"", "check", "--run", "--verbose",
                                      CLOTHSIM_SRCDIR "/lessons/uk/01-meet-the-cloth.lesson", NULL}),
                 0, "%s", err);
    cr_expect(strstr(out, ":25:1: expect виконано: cloth max_strain < 1% (побачено 0,00") != NULL, "%s", out);
    cr_expect(strstr(out, " при 80x24, ") != NULL && strstr(out, " at 80x24") == NULL, "%s", out);
    cr_expect(strstr(out, "held") == NULL && strstr(out, "saw") == NULL, "English in the claim lines:\n%s", out);
}

/* ---------------------------------------------------------------- on screen */

/* English words the Ukrainian interface must not show. Keys (Enter, Space,
 * PgUp), setting names and their values (jakobsen, cotton, top) stay as
 * they are: they are what scripts and lessons write. */
static const char *const english_words[] = {
    "step",      "paused",     "help",    "quit",    "Settings", "choose",   "change",   "Keys",   "more",  "Right.",
    "Not quite", "Running",    "Explain", "The end", "score",    "finished", "page",     "lesson", "Press", "Gravity",
    "Stiffness", "Iterations", "reset",   "wind",    "holding",  "settled",  "exploded", "Self",   NULL,
};

static void expect_no_english(const char *what)
{
    for (int k = 0; english_words[k]; k++)
        cr_expect(strstr(screen, english_words[k]) == NULL, "%s shows the English word '%s':\n%s", what,
                  english_words[k], screen);
}

static char folder[96];

static void start(const char *args, int width, int height)
{
    if (system("tmux -V >/dev/null 2>&1") != 0)
        cr_skip_test("tmux is not installed");
    if (!ukrainian_locale_exists())
        cr_skip_test("uk_UA.UTF-8 is not generated (make check-test-locale)");
    snprintf(server, sizeof server, "clothsim-i18n-%d", (int)getpid());
    snprintf(exit_path, sizeof exit_path, "/tmp/clothsim-i18n-%d.exit", (int)getpid());
    snprintf(stty_path, sizeof stty_path, "/tmp/clothsim-i18n-%d.stty", (int)getpid());
    unlink(exit_path);
    unlink(stty_path);
    int status =
        tmux_new_session("-d -s t -x %d -y %d \"sh -c 'cd %s && XDG_STATE_HOME=%s/state "
                         "CLOTHSIM_LESSONS=%s/lessons/uk LANG=" UK " LC_ALL=" UK " %s %s; e=\\$?; "
                         "stty -a > %s; echo EXIT=\\$e > %s; sleep 60'\"",
                         width, height, folder, folder, CLOTHSIM_SRCDIR, CLOTHSIM_BIN, args, stty_path, exit_path);
    cr_assert_eq(status, 0, "tmux could not start a session");
}

static void make_folder(const char *lesson)
{
    snprintf(folder, sizeof folder, "/tmp/clothsim-i18n-%d", (int)getpid());
    char command[400], path[256];
    snprintf(command, sizeof command, "rm -rf %s && mkdir -p %s/lessons %s/state", folder, folder, folder);
    cr_assert_eq(system(command), 0);
    snprintf(path, sizeof path, "%s/lessons/00-short.lesson", folder);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(lesson, f);
    fclose(f);
}

static void remove_folder(void)
{
    char command[300];
    snprintf(command, sizeof command, "rm -rf %s", folder);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", folder);
}

Test(i18n, the_sandbox_speaks_ukrainian_at_80x24, .timeout = 40)
{
    make_folder("title x\n");
    start("", 80, 24);
    cr_assert(wait_for("Налаштування"), "no Ukrainian panel:\n%s", screen);
    cr_expect(wait_for(" с "), "no time in seconds (с) on the status line:\n%s", screen);
    cr_expect(wait_for("крок"), "no step (крок) on the status line:\n%s", screen);
    cr_expect(strstr(screen, "Гравітація") && strstr(screen, "Ітерації"), "no Ukrainian slider names:\n%s", screen);
    expect_no_english("the sandbox");
    tmux("send-keys -t t Space");
    cr_expect(wait_for("пауза"), "Space does not say пауза:\n%s", screen);
    /* paused, the time stands still: it reads with a decimal comma */
    const char *t = strstr(screen, " t ");
    cr_expect(t && t[3] >= '0' && t[3] <= '9' && strchr(t, ','), "the time has no decimal comma:\n%s", screen);
    expect_no_english("the paused sandbox");
    tmux("send-keys -t t w");
    cr_expect(wait_for("вітер вимкнено"), "w does not say so in Ukrainian:\n%s", screen);
    tmux("send-keys -t t ?");
    cr_assert(wait_for("Клавіші"), "? shows no Ukrainian help:\n%s", screen);
    cr_expect(strstr(screen, "скинути сцену"), "the help does not say what r does:\n%s", screen);
    expect_no_english("the ? help");
    tmux("send-keys -t t q");
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    remove_folder();
}

/* The values of the settings in Ukrainian too (issue 32): the panel showed
 * "Матеріал cotton", "Підлога off", and the help "t розрив: off, naive,
 * hysteresis". Scripts, --set and CSV keep the English names (above). */
Test(i18n, the_panel_and_the_help_show_setting_values_in_ukrainian, .timeout = 40)
{
    make_folder("title x\n");
    start("--set material=cotton --set tear=hysteresis --set collider=box", 110, 34);
    cr_assert(wait_for("Налаштування"), "no Ukrainian panel:\n%s", screen);
    const char *const rows[][2] = {
        {"Матеріал", "бавовна"}, {"Розрив", "гістерезис"}, {"Перешкода", "ящик"},
        {"Підлога", "вимк."},    {"Сцена", "завіса"},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        const char *row = strstr(screen, rows[k][0]);
        const char *end = row ? strchr(row, '\n') : NULL;
        const char *value = row ? strstr(row, rows[k][1]) : NULL;
        cr_expect(value && (!end || value < end), "the row %s does not read %s:\n%s", rows[k][0], rows[k][1], screen);
    }
    const char *const english[] = {"cotton", "hysteresis", " box", " off", "curtain", NULL};
    for (int k = 0; english[k]; k++)
        cr_expect(strstr(screen, english[k]) == NULL, "the panel shows '%s':\n%s", english[k], screen);
    tmux("send-keys -t t ?");
    cr_assert(wait_for("Клавіші"), "? shows no Ukrainian help:\n%s", screen);
    cr_expect(strstr(screen, "вимк., наївний, гістерезис"), "the help's tearing modes are not Ukrainian:\n%s", screen);
    cr_expect(strstr(screen, "затінення, каркас, розтяг, частинки"), "the help's modes are not Ukrainian:\n%s", screen);
    cr_expect(strstr(screen, "naive") == NULL && strstr(screen, "shaded") == NULL, "English values in the help:\n%s",
              screen);
    tmux("send-keys -t t q");
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    remove_folder();
}

/* The status line's state in Ukrainian comes whole: two bytes a letter
 * took "slower than real time" past a buffer sized for English, and the
 * line ended inside a letter. */
Test(i18n, slower_than_real_time_is_said_whole_in_ukrainian, .timeout = 40)
{
    make_folder("title x\n");
    /* about 0.06 s a step here (over half a frame), 1 s under the
     * sanitizers, several with the suite's other tests on the same cores:
     * the first step may take longer than one wait */
    start("--set substeps=100 --set iterations=30", 120, 30);
    bool said = false;
    for (int wait = 0; wait < 3 && !said; wait++)
        said = wait_for("кадр/с, повільніше за реальний час");
    cr_expect(said, "the state is cut:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    remove_folder();
}

static const char ukrainian_lesson[] = "title Короткий урок\n"
                                       "summary Дві сторінки й питання\n"
                                       "duration 2 min\n"
                                       "page Перша сторінка\n"
                                       "> Трохи тексту на першій сторінці.\n"
                                       "question Яка літера перша?\n"
                                       "choice Альфа\n"
                                       "feedback Так, альфа перша.\n"
                                       "choice Бета\n"
                                       "feedback Бета друга.\n"
                                       "answer 1\n"
                                       "run 2s at 0.5x\n"
                                       "explain Чому тканина падає?\n"
                                       "> Бо її тягне тяжіння.\n"
                                       "page Друга сторінка\n"
                                       "> Останні слова.\n";

Test(i18n, the_menu_and_a_lesson_speak_ukrainian_to_the_end, .timeout = 60)
{
    make_folder(ukrainian_lesson);
    start("learn", 80, 24);
    cr_assert(wait_for("уроки"), "no Ukrainian menu:\n%s", screen);
    cr_expect(wait_for("Короткий урок"), "the menu does not list the lesson:\n%s", screen);
    cr_expect(strstr(screen, "хв"), "no minutes (хв) in the menu:\n%s", screen);
    expect_no_english("the learn menu");
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("Яка літера перша?"), "the lesson did not open:\n%s", screen);
    expect_no_english("the question");
    tmux("send-keys -t t 1");
    cr_expect(wait_for(" з 2,00 с"), "no Ukrainian progress with a decimal comma:\n%s", screen);
    expect_no_english("the run");
    cr_expect(wait_for("Правильно."), "no Ukrainian feedback mark:\n%s", screen);
    cr_expect(wait_for("Поясніть"), "no Ukrainian explain step:\n%s", screen);
    expect_no_english("the explain step");
    tmux("send-keys -t t Enter");
    cr_expect(wait_for("Бо її тягне"), "Enter did not show the explanation:\n%s", screen);
    tmux("send-keys -t t Enter");
    cr_expect(wait_for("Друга сторінка"), "Enter did not go to the second page:\n%s", screen);
    tmux("send-keys -t t Enter");
    cr_expect(wait_for("Кінець уроку"), "no Ukrainian end of the lesson:\n%s", screen);
    cr_expect(wait_for("Ваш результат: 1 з 1 питання"), "no Ukrainian score:\n%s", screen);
    expect_no_english("the end of the lesson");
    tmux("send-keys -t t ?");
    cr_expect(wait_for("Клавіші"), "? shows no Ukrainian help in a lesson:\n%s", screen);
    expect_no_english("the lesson's ? help");
    tmux("send-keys -t t x"); /* closes the help */
    cr_expect(wait_screen("Клавіші", true), "the help stays open:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect(wait_for("завершено"), "the menu does not say the lesson is finished:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    remove_folder();
}
