/* test_cli.c - clothsim run / params / scenes as a person runs them: exit
 * statuses, the exact error lines, byte-identical output. */
#define _XOPEN_SOURCE 700 /* wcwidth */
#include <criterion/criterion.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "../support.h"
#include "core/metrics.h"

static char out[1 << 20], err[4096];

static int run(const char *const *argv)
{
    return support_exec(argv, out, sizeof out, err, sizeof err);
}

static void expect_usage_error(const char *const *argv, const char *message)
{
    cr_expect_eq(run(argv), 2, "exit status 2 for: %s", message);
    char line[1024];
    snprintf(line, sizeof line, "clothsim: %s\n", message);
    cr_expect_str_eq(err, line);
    cr_expect_str_eq(out, "", "nothing on stdout");
}

Test(cli, bad_arguments_exit_2_with_one_line_naming_the_culprit)
{
    expect_usage_error((const char *[]){"", "run", "--set", "itrations=3", NULL},
                       "--set itrations=3: unknown key 'itrations'; did you mean 'iterations'? (clothsim params "
                       "lists them)");
    /* a swap of neighbours is one slip, for keys as for a lesson's words */
    expect_usage_error((const char *[]){"", "run", "--set", "rwos=3", NULL},
                       "--set rwos=3: unknown key 'rwos'; did you mean 'rows'? (clothsim params lists them)");
    expect_usage_error((const char *[]){"", "run", "--set", "iterations=lots", NULL},
                       "--set iterations=lots: iterations: 'lots' is not a whole number (1 to 500)");
    expect_usage_error((const char *[]){"", "run", "--set", "dt=1", NULL},
                       "--set dt=1: dt: 1 is out of range (1e-05 to 0.1 s)");
    expect_usage_error((const char *[]){"", "run", "--set", "iterations", NULL},
                       "--set iterations: 'iterations' is not KEY=VALUE");
    expect_usage_error((const char *[]){"", "run", "--set", NULL}, "--set needs a value");
    expect_usage_error((const char *[]){"", "run", "--scene", "curtian", NULL},
                       "--scene curtian: unknown value 'curtian'; did you mean 'curtain'? (one of "
                       "curtain|flag|chain|net|drape|tear|heap)");
    expect_usage_error((const char *[]){"", "run", "--steps", "-4", NULL},
                       "--steps -4: out of range (0 to 1000000000)");
    expect_usage_error((const char *[]){"", "run", "--steps", "ten", NULL},
                       "--steps ten: not a whole number (0 to 1000000000)");
    expect_usage_error((const char *[]){"", "run", "--every", "0", NULL}, "--every 0: out of range (1 to 1000000000)");
    expect_usage_error((const char *[]){"", "run", "--frobnicate", NULL},
                       "run: unknown argument '--frobnicate' (clothsim run --help lists the options)");
    expect_usage_error((const char *[]){"", "run", "--set", "cols=1000", "--set", "rows=1000", NULL},
                       "--set rows=1000: rows: 1000 makes 1000000 particles; the limit is 250000 (cols x rows)");
    expect_usage_error((const char *[]){"", "run", "--scene", "chain", "--set", "rows=2", NULL},
                       "rows: the chain scene is a rope, so rows must be 1 (got 2)");
    expect_usage_error((const char *[]){"", "run", "--csv", "/nonexistent/dir/x.csv", NULL},
                       "--csv /nonexistent/dir/x.csv: cannot write: No such file or directory");
    expect_usage_error((const char *[]){"", "run", "--csv", "-", "--dump", "-", NULL},
                       "--csv -, --dump - and --frames all write to standard output: give a file to all but one");
    expect_usage_error((const char *[]){"", "run", "--frames", "--size", "80", NULL},
                       "--size 80: expected WIDTHxHEIGHT in cells, e.g. 80x24");
    expect_usage_error((const char *[]){"", "run", "--frames", "--size", "2x2", NULL},
                       "--size 2x2: out of range (8x4 to 1000x1000)");
    expect_usage_error((const char *[]){"", "run", "--frames", "--mode", "solid", NULL},
                       "--mode solid: unknown render mode (one of shaded|wire|strain|points)");
    expect_usage_error((const char *[]){"", "frobnicate", NULL},
                       "unknown command 'frobnicate' (clothsim --help lists the commands)");
    expect_usage_error((const char *[]){"", "run", "--set", "sphere_radius=-1", NULL},
                       "--set sphere_radius=-1: sphere_radius: -1 is out of range (0.01 to 100 m)");
    expect_usage_error((const char *[]){"", "run", "--set", "material=wool", NULL},
                       "--set material=wool: material: unknown value 'wool' (one of silk|cotton|canvas|rubber)");
    expect_usage_error(
        (const char *[]){"", "run", "--scene", "chain", "--set", "collider=box", "--set", "box_size=50", NULL},
        "collider: the box holds pinned particle (0, 0) of the chain scene; a pinned particle cannot "
        "get out of it (change box_size, box_x/y/z)");
    expect_usage_error((const char *[]){"", "run", "--set", "sphere_y=1.5", NULL},
                       "collider: the sphere reaches pinned particle (13, 0) of the curtain scene on its path; a "
                       "pinned particle cannot get out of it (change sphere_radius, sphere_x/y/z, sphere_travel)");
    expect_usage_error(
        (const char *[]){"", "run", "--set", "pin=none", "--set", "collider=box", "--set", "box_size=20", NULL},
        "collider: the box swallows the whole cloth of the curtain scene (change box_size, box_x/y/z)");
    expect_usage_error(
        (const char *[]){"", "params", "--set", "pin=middle", NULL},
        "--set pin=middle: pin: unknown value 'middle' (one of top|corners|left|ends|sides|centre|none)");
}

Test(cli, csv_has_the_documented_header_and_a_row_every_k_steps)
{
    cr_assert_eq(run((const char *[]){"", "run", "--steps", "10", "--every", "4", NULL}), 0, "%s", err);
    char expected_header[256];
    snprintf(expected_header, sizeof expected_header, "%s\n", metrics_csv_header);
    cr_expect(strncmp(out, expected_header, strlen(expected_header)) == 0);
    cr_expect_str_eq(metrics_csv_header,
                     "step,time,kinetic,potential,elastic,total,max_strain,mean_strain,residual,penetration,torn,"
                     "exploded,cg_iterations,cg_residual,cg_unconverged");
    /* rows at steps 0, 4, 8 and the last, 10 */
    int rows = 0;
    long steps[8];
    for (char *line = strchr(out, '\n'); line && line[1]; line = strchr(line + 1, '\n'))
        if (rows < 8)
            steps[rows++] = strtol(line + 1, NULL, 10);
    cr_expect_eq(rows, 4);
    cr_expect(steps[0] == 0 && steps[1] == 4 && steps[2] == 8 && steps[3] == 10);
}

Test(cli, same_arguments_give_the_same_bytes)
{
    static char first[1 << 20];
    const char *argv[] = {"", "run", "--set", "order=shuffled", "--seconds", "2", "--every", "7", NULL};
    cr_assert_eq(run(argv), 0);
    strcpy(first, out);
    cr_assert_eq(run(argv), 0);
    cr_expect_str_eq(out, first);
    const char *dump[] = {"", "run", "--scene", "flag", "--steps", "60", "--dump", "-", NULL};
    cr_assert_eq(run(dump), 0);
    strcpy(first, out);
    cr_assert_eq(run(dump), 0);
    cr_expect_str_eq(out, first);
}

Test(cli, dump_lists_every_particle_after_a_size_line)
{
    cr_assert_eq(run((const char *[]){"", "run", "--scene", "net", "--set", "cols=3", "--set", "rows=2", "--steps", "0",
                                      "--dump", "-", NULL}),
                 0);
    cr_expect_str_eq(out, "# 3 2\n-0.0500000007 1.5 0\n0 1.5 0\n0.0500000007 1.5 0\n-0.0500000007 1.45000005 0\n"
                          "0 1.45000005 0\n0.0500000007 1.45000005 0\n");
}

Test(cli, an_explosion_is_reported_and_ends_the_run_with_status_3)
{
    cr_assert_eq(run((const char *[]){"", "run", "--set", "integrator=euler", "--seconds", "10", NULL}), 3);
    cr_expect(strstr(err, "clothsim: exploded at t = ") == err, "%s", err);
    const char *last = out + strlen(out) - 2;
    while (last > out && *last != '\n')
        last--;
    cr_expect(strstr(last, ",1,0,0,0\n") != NULL,
              "the last row says exploded (then cg_iterations, cg_residual, cg_unconverged): %s", last);
}

Test(cli, an_implicit_solve_that_does_not_converge_is_reported_and_ends_the_run_with_status_4)
{
    const char *argv[] = {
        "",      "run",        "--set", "integrator=implicit", "--set", "collider=none",       "--set",   "dt=0.1",
        "--set", "substeps=1", "--set", "spring_k=1e5",        "--set", "cg_max_iterations=5", "--steps", "3",
        NULL};
    cr_assert_eq(run(argv), 4, "%s", err);
    cr_expect(strstr(err, "clothsim: the implicit solve did not converge in 3 substeps, the first by t = 0.1000 s") ==
                  err,
              "%s", err);
    const char *last = out + strlen(out) - 2;
    while (last > out && *last != '\n')
        last--;
    cr_expect(strstr(last, ",3\n") != NULL, "the last row's cg_unconverged counts the 3: %s", last);
    /* the same at the default cap: every solve converges, status 0 */
    argv[13] = "cg_max_iterations=200";
    cr_expect_eq(run(argv), 0, "%s", err);
}

Test(cli, params_and_scenes_list_everything)
{
    cr_assert_eq(run((const char *[]){"", "params", NULL}), 0);
    for (int k = 0; k < params_count; k++) {
        char needle[64];
        snprintf(needle, sizeof needle, "\n%s ", params_table[k].name);
        cr_expect(strstr(out, needle) != NULL, "params lists %s", params_table[k].name);
    }
    cr_assert_eq(run((const char *[]){"", "scenes", NULL}), 0);
    for (int s = 0; s < SCENE_COUNT; s++)
        cr_expect(strstr(out, scene_names[s]) != NULL);
    cr_assert_eq(run((const char *[]){"", "--version", NULL}), 0);
    cr_expect(strncmp(out, "clothsim ", 9) == 0);
}

Test(cli, frames_are_text_of_the_asked_size)
{
    cr_assert_eq(run((const char *[]){"", "run", "--steps", "2", "--every", "2", "--frames", "--size", "40x12",
                                      "--ascii", NULL}),
                 0, "%s", err);
    cr_expect(strncmp(out, "-- step 0, t = 0.0000 s\n", 24) == 0, "%.40s", out);
    cr_expect(strstr(out, "-- step 2, t = 0.0333 s\n") != NULL);
    int lines = 0, widest = 0, width = 0;
    for (const char *p = out; *p; p++) {
        cr_assert((unsigned char)*p < 128, "ASCII only");
        if (*p == '\n') {
            lines++;
            widest = width > widest ? width : widest;
            width = 0;
        } else {
            width++;
        }
    }
    cr_expect_eq(lines, 2 * (1 + 12));
    cr_expect(widest <= 40 + 0 || strncmp(out, "--", 2) == 0);
    int marks = 0;
    for (const char *p = strchr(out, '\n'); *p && strncmp(p, "\n-- step 2", 11) != 0; p++)
        marks += *p != ' ' && *p != '\n';
    cr_expect(marks > 40, "the cloth is drawn: %d marks", marks);
}

/* The widest line of text, in display columns (wcwidth, UTF-8). */
static int widest_line(const char *text, char *line, size_t line_size)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    int widest = 0;
    line[0] = '\0';
    const char *start = text;
    while (*start) {
        size_t n = strcspn(start, "\n");
        int columns = 0;
        mbstate_t state = {0};
        for (size_t k = 0; k < n;) {
            wchar_t wc;
            size_t bytes = mbrtowc(&wc, start + k, n - k, &state);
            if (bytes == (size_t)-1 || bytes == (size_t)-2 || bytes == 0) {
                columns++, k++, memset(&state, 0, sizeof state);
                continue;
            }
            int w = wcwidth(wc);
            columns += w < 0 ? 1 : w;
            k += bytes;
        }
        if (columns > widest) {
            widest = columns;
            snprintf(line, line_size, "%.*s", (int)n, start);
        }
        start += n + (start[n] == '\n');
    }
    return widest;
}

/* Every --help and listing, in the locale lc_all (NULL: the suite's, which
 * speaks English); with ukrainian, each must be in Ukrainian too (a
 * catalogue that did not load would pass the width by being English). */
static void expect_every_help_within_80_columns(const char *lc_all, bool ukrainian)
{
    if (lc_all)
        setenv("LC_ALL", lc_all, 1);
    /* six lines of --help were 84 to 98 columns; params was a table of 386 */
    const char *const commands[][5] = {
        {"", "--help", NULL},
        {"", "-h", NULL},
        {"", "help", NULL},
        {"", "--ascii", "--help", NULL}, /* the sandbox's own options */
        {"", "run", "--help", NULL},
        {"", "learn", "--help", NULL},
        {"", CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson", "--help", NULL},
        {"", "check", "--help", NULL},
        {"", "bench", "--help", NULL},
        {"", "progress", "--help", NULL},
        {"", "handout", "--help", NULL},
        {"", "params", NULL},
        {"", "params", "--scene", "chain", NULL},
        {"", "params", "--help", NULL},
        {"", "scenes", NULL},
        {"", "scenes", "--help", NULL},
        {"", "--version", NULL},
    };
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++) {
        char name[160] = "clothsim";
        for (int i = 1; commands[k][i]; i++)
            snprintf(name + strlen(name), sizeof name - strlen(name), " %s", commands[k][i]);
        cr_expect_eq(run(commands[k]), 0, "%s: exit status (stderr: %s)", name, err);
        cr_expect_str_eq(err, "", "%s: stderr", name);
        cr_expect_gt(strlen(out), 10, "%s: says nothing", name);
        char line[1024];
        int widest = widest_line(out, line, sizeof line);
        cr_expect_leq(widest, 80, "%s (LC_ALL=%s): a line of %d columns:\n%s", name, lc_all ? lc_all : "", widest,
                      line);
        if (ukrainian && strcmp(commands[k][1], "--version") != 0)
            cr_expect(strstr(out, "використання") || strstr(out, "тканин") || strstr(out, "частин"),
                      "%s (LC_ALL=%s) is not in Ukrainian:\n%s", name, lc_all, out);
    }
}

Test(cli, every_help_and_listing_fits_in_80_columns)
{
    expect_every_help_within_80_columns(NULL, false);
}

Test(cli, every_help_and_listing_fits_in_80_columns_in_ukrainian)
{
    expect_every_help_within_80_columns("uk_UA.UTF-8", true);
}

Test(cli, a_bad_background_is_one_line_before_the_terminal_is_touched)
{
    expect_usage_error((const char *[]){"", "--background=pink", NULL},
                       "--background pink: not one of dark, light, auto");
    expect_usage_error((const char *[]){"", "--background", NULL}, "--background needs a value");
    expect_usage_error((const char *[]){"", "learn", "--background", "Light", NULL},
                       "--background Light: not one of dark, light, auto");
    expect_usage_error((const char *[]){"", "learn", "--background", NULL}, "--background needs a value");
}

/* text into the file at path */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* What prove (perl's TAP consumer) says of a TAP report: its exit status,
 * or -1 when the machine has no prove. */
static int prove(const char *tap, const char *tap_file)
{
    if (system("command -v prove >/dev/null 2>&1") != 0)
        return -1;
    write_text(tap_file, tap);
    char command[256];
    snprintf(command, sizeof command, "prove -e cat %s >/dev/null 2>&1", tap_file);
    return system(command);
}

/* check --tap: TAP version 13 for a course's CI, read back by prove where
 * the machine has it. */
Test(cli, check_reports_tap_that_prove_reads)
{
    char lesson[64], tap_file[64];
    snprintf(lesson, sizeof lesson, "/tmp/clothsim-tap-%d.lesson", (int)getpid());
    snprintf(tap_file, sizeof tap_file, "/tmp/clothsim-tap-%d.tap", (int)getpid());
    write_text(lesson, "title T\nsummary S\nduration 1 min\nset collider=none\npage P\nrun 0.5s\n"
                       "expect main not exploded\nexpect main max_strain > 50%\n");
    cr_expect_eq(run((const char *[]){"", "check", "--run", "--tap", lesson, NULL}), 1, "a failed expect is status 1");
    char expected[512];
    snprintf(expected, sizeof expected,
             "TAP version 13\n1..2\nok 1 - %s:7:1: expect held: main not exploded (saw no explosion by t = 0.5 s)\n"
             "not ok 2 - %s:8:1: expect failed: main max_strain > 50%% (saw ",
             lesson, lesson);
    cr_expect(strncmp(out, expected, strlen(expected)) == 0, "got:\n%s", out);
    cr_expect_str_eq(err, "", "the report is on standard output only");
    cr_expect_neq(prove(out, tap_file), 0, "prove took a failed expect for a pass");

    /* all held: status 0, and prove says so */
    write_text(lesson, "title T\nsummary S\nduration 1 min\nset collider=none\npage P\nrun 0.5s\n"
                       "expect main not exploded\n");
    cr_expect_eq(run((const char *[]){"", "check", "--run", "--tap", lesson, NULL}), 0);
    int proved = prove(out, tap_file);
    cr_expect(proved == 0 || proved == -1, "prove did not take the report:\n%s", out);

    /* a mistake: status 2, and the TAP says it bailed out */
    write_text(lesson, "title T\nsummary S\nduration 1 min\npage P\nrn 1s\n");
    cr_expect_eq(run((const char *[]){"", "check", "--run", "--tap", lesson, NULL}), 2);
    cr_expect(strncmp(out, "TAP version 13\nBail out!", 24) == 0, "got:\n%s", out);
    cr_expect(strstr(err, ":5:1: ") != NULL, "the mistake's place is on standard error: %s", err);
    unlink(lesson);
    unlink(tap_file);
}

/* What out and err hold after running argv. */
static void run_into(const char *const *argv, char *o, size_t o_size, char *e, size_t e_size, int *status)
{
    *status = run(argv);
    snprintf(o, o_size, "%s", out);
    snprintf(e, e_size, "%s", err);
}

/* The same command, options before it and after it: the same bytes and
 * status (GNU's order), and "--" ends the options. */
Test(cli, options_may_come_before_the_command)
{
    static char first_out[1 << 20], first_err[4096];
    const char *const *pairs[][2] = {
        {(const char *[]){"", "--set", "iterations=3", "--steps", "2", "run", "--csv", "-", NULL},
         (const char *[]){"", "run", "--set", "iterations=3", "--steps", "2", "--csv", "-", NULL}},
        {(const char *[]){"", "--scene=chain", "params", NULL},
         (const char *[]){"", "params", "--scene", "chain", NULL}},
        {(const char *[]){"", "--teacher", "-o", "-", "handout",
                          CLOTHSIM_SRCDIR "/lessons/15-energy-and-position.lesson", NULL},
         (const char *[]){"", "handout", CLOTHSIM_SRCDIR "/lessons/15-energy-and-position.lesson", "--teacher", "-o",
                          "-", NULL}},
        {(const char *[]){"", "--verbose", "check", CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson", NULL},
         (const char *[]){"", "check", "--verbose", CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson", NULL}},
        {(const char *[]){"", "--ascii", "--help", "learn", NULL},
         (const char *[]){"", "learn", "--ascii", "--help", NULL}},
        {(const char *[]){"", "--", "run", "--steps", "1", "--csv", "-", NULL},
         (const char *[]){"", "run", "--steps", "1", "--csv", "-", NULL}},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        int before, after;
        run_into(pairs[k][0], first_out, sizeof first_out, first_err, sizeof first_err, &before);
        after = run(pairs[k][1]);
        cr_expect_eq(before, 0, "pair %zu: exit %d (%s)", k, before, first_err);
        cr_expect_eq(before, after, "pair %zu: the same status", k);
        cr_expect_str_eq(first_out, out, "pair %zu: the same output", k);
        cr_expect(strlen(out) > 20, "pair %zu printed something", k);
    }
    /* after "--" a name is the command whatever it looks like */
    expect_usage_error((const char *[]){"", "--", "--ascii", NULL},
                       "unknown command '--ascii' (clothsim --help lists the commands)");
    expect_usage_error((const char *[]){"", "--fps", "20", "frobnicate", NULL},
                       "unknown command 'frobnicate' (clothsim --help lists the commands)");
    cr_expect_eq(run((const char *[]){"", "handout", "--", "--teacher", NULL}), 2);
    cr_expect_str_eq(err, "--teacher: cannot read: No such file or directory\n", "the file after --");
}

/* check --run stops at its bound of processor time, naming the lesson. */
Test(cli, check_run_stops_at_its_time_limit)
{
    const char *lesson = CLOTHSIM_SRCDIR "/lessons/02-euler-vs-verlet.lesson"; /* 1.6 s of processor */
    cr_expect_eq(run((const char *[]){"", "check", "--run", "--time-limit", "1", lesson, NULL}), 1);
    char line[512];
    snprintf(line, sizeof line,
             "clothsim: check --run: %s: stopped after 1 s of processor time (the bound; --time-limit S sets it)\n",
             lesson);
    /* after the page-length warnings, if any: the last line */
    size_t length = strlen(err), want = strlen(line);
    cr_expect(length >= want && strcmp(err + length - want, line) == 0 &&
                  (length == want || err[length - want - 1] == '\n'),
              "stderr does not end with the time limit's line:\n%s", err);
    expect_usage_error((const char *[]){"", "check", "--run", "--time-limit=soon", lesson, NULL},
                       "--time-limit soon: not a whole number (0 to 1000000)");
}

/* An argument quoted in a message has its controls escaped (an escape
 * sequence, C1, a right-to-left override, bytes that are not UTF-8). */
Test(cli, an_argument_with_control_characters_is_escaped_in_messages)
{
    expect_usage_error((const char *[]){"", "run", "--set", "\x1b[2Jx\xc2\x9b=1", NULL},
                       "--set \\x1b[2Jx\\x9b=1: unknown key '\\x1b[2Jx\\x9b' (clothsim params lists them)");
    expect_usage_error((const char *[]){"", "check",
                                        "--\xe2\x80\xae"
                                        "evil",
                                        NULL},
                       "check: unknown option '--\\u202eevil' (clothsim check --help)");
    expect_usage_error((const char *[]){"", "progress", "\xff\x07", NULL},
                       "progress: unknown argument '\\xff\\x07' (clothsim progress --help)");
}

/* One round trip for setup: whoever must set things up as root is given
 * every missing package and the locale in one command (the locale came on
 * a second try). */
Test(cli, the_setup_message_names_the_packages_and_the_locale_at_once)
{
    char command[1024], output[2048];
    snprintf(command, sizeof command,
             "make -s --no-print-directory -C %s check-deps AUTO_PACKAGES=no BUILD=/tmp/clothsim-setup-%d "
             "NEED_BUILD=fakepkg:/nonexistent/a NEED_TEST=otherpkg:/nonexistent/b TEST_LOCALE=xx_XX 2>/dev/null; "
             "rm -rf /tmp/clothsim-setup-%d",
             CLOTHSIM_SRCDIR, (int)getpid(), (int)getpid());
    FILE *p = popen(command, "r");
    cr_assert_not_null(p);
    size_t n = fread(output, 1, sizeof output - 1, p);
    output[n] = '\0';
    pclose(p);
    cr_expect_str_eq(output, "clothsim: missing: fakepkg otherpkg and the xx_XX.UTF-8 locale\n"
                             "clothsim: set them up first, as root:  apt-get update && apt-get install -y fakepkg "
                             "otherpkg && localedef -i xx_XX -f UTF-8 xx_XX.UTF-8\n");
}

/* make uninstall takes away the folders make install made, where nothing
 * else is left in them (10 empty ones stayed). The installed tree is laid
 * out by hand, as make install lays it, so that no build runs here. */
Test(cli, uninstall_leaves_no_empty_folder)
{
    char root[64], command[2048];
    snprintf(root, sizeof root, "/tmp/clothsim-uninstall-%d", (int)getpid());
    snprintf(command, sizeof command,
             "set -e; r=%s/stage; p=$r/usr/local; rm -rf %s; "
             "mkdir -p $p/bin $p/share/man/man1 $p/share/bash-completion/completions $p/share/clothsim/lessons/uk "
             "$p/share/locale/uk/LC_MESSAGES; touch $p/bin/clothsim $p/share/man/man1/clothsim.1 "
             "$p/share/bash-completion/completions/clothsim $p/share/clothsim/lessons/uk/a.lesson "
             "$p/share/locale/uk/LC_MESSAGES/clothsim.mo; "
             "mkdir -p $p/share/locale/de/LC_MESSAGES; touch $p/share/locale/de/LC_MESSAGES/other.mo; "
             "make -s --no-print-directory -C %s uninstall DESTDIR=$r BUILD=%s/build >/dev/null 2>&1; "
             "cd $r && find . | sort | tr '\\n' ' '",
             root, root, CLOTHSIM_SRCDIR, root);
    FILE *p = popen(command, "r");
    cr_assert_not_null(p);
    char listing[1024];
    size_t n = fread(listing, 1, sizeof listing - 1, p);
    listing[n] = '\0';
    pclose(p);
    cr_expect_str_eq(listing,
                     ". ./usr ./usr/local ./usr/local/share ./usr/local/share/locale ./usr/local/share/locale/de "
                     "./usr/local/share/locale/de/LC_MESSAGES ./usr/local/share/locale/de/LC_MESSAGES/other.mo ",
                     "what another package has stays, nothing else");
    snprintf(command, sizeof command, "rm -rf %s", root);
    cr_expect_eq(system(command), 0);
}
