/* test_hostile.c - clothsim against hostile input (issue 14): every output
 * into a full device and into a path that refuses writes, outputs that must
 * not clobber each other or an old file, arguments that are options or
 * enormous, lessons over their budget, FIFOs, and progress files that are
 * links, corrupt, or shared by two lessons at once. Nothing lost, nothing
 * left dirty, nothing unbounded. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../support.h"
#include "../tmux_session.h"

static char out[1 << 20], err[8192];

static int run(const char *const *argv)
{
    return support_exec(argv, out, sizeof out, err, sizeof err);
}

/* Runs clothsim with stdout into stdout_path (e.g. /dev/full), stderr into
 * err, and env_assignment (NAME=VALUE, or NULL) added to its environment. */
static int run_into(const char *stdout_path, const char *env_assignment, const char *const *argv)
{
    char err_path[] = "/tmp/clothsim-test-err-XXXXXX";
    int err_fd = mkstemp(err_path);
    cr_assert(err_fd >= 0);
    unlink(err_path);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int null_fd = open("/dev/null", O_RDONLY);
        int out_fd = open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(null_fd, 0);
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        if (env_assignment) {
            char name[64];
            size_t n = strcspn(env_assignment, "=");
            snprintf(name, sizeof name, "%.*s", (int)n, env_assignment);
            setenv(name, env_assignment + n + 1, 1);
        }
        int argc = 0;
        while (argv[argc])
            argc++;
        char **args = calloc((size_t)argc + 1, sizeof *args);
        args[0] = (char *)CLOTHSIM_BIN;
        for (int i = 1; i < argc; i++)
            args[i] = (char *)argv[i];
        execv(CLOTHSIM_BIN, args);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    lseek(err_fd, 0, SEEK_SET);
    ssize_t n = read(err_fd, err, sizeof err - 1);
    err[n > 0 ? n : 0] = '\0';
    close(err_fd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A fresh folder of the test's own; returns its path. */
static const char *scratch(void)
{
    static char folder[64];
    snprintf(folder, sizeof folder, "/tmp/clothsim-hostile-%d", (int)getpid());
    char command[160];
    snprintf(command, sizeof command, "rm -rf %s && mkdir -p %s", folder, folder);
    cr_assert_eq(system(command), 0);
    return folder;
}

static void clean(const char *folder)
{
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", folder);
    cr_expect_eq(system(command), 0);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

static char *read_text(const char *path)
{
    static char text[1 << 16];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* How many entries of folder (other than . and ..) there are. */
static int entries(const char *folder)
{
    DIR *d = opendir(folder);
    cr_assert_not_null(d);
    int count = 0;
    for (struct dirent *e; (e = readdir(d));)
        count += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return count;
}

/* stderr is exactly one line starting with prefix */
static void expect_one_line(const char *prefix)
{
    cr_expect(strncmp(err, prefix, strlen(prefix)) == 0, "stderr starts with '%s': %s", prefix, err);
    char *newline = strchr(err, '\n');
    cr_expect(newline && newline[1] == '\0', "one line: %s", err);
}

/* ---------------------------------------------------------------- outputs */

Test(hostile, every_run_output_into_a_full_device_fails_naming_it)
{
    cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", "--csv", "/dev/full", NULL}), 1);
    expect_one_line("clothsim: --csv /dev/full: cannot write: No space left on device");
    cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", "--dump", "/dev/full", NULL}), 1);
    expect_one_line("clothsim: --dump /dev/full: cannot write: No space left on device");
    cr_expect_eq(run_into("/dev/full", NULL, (const char *[]){"", "run", "--steps", "3", NULL}), 1);
    expect_one_line("clothsim: --csv: cannot write to standard output: No space left on device");
    cr_expect_eq(run_into("/dev/full", NULL, (const char *[]){"", "run", "--steps", "3", "--dump", "-", NULL}), 1);
    expect_one_line("clothsim: --dump: cannot write to standard output: No space left on device");
    cr_expect_eq(run_into("/dev/full", NULL, (const char *[]){"", "run", "--steps", "3", "--frames", NULL}), 1);
    expect_one_line("clothsim: --frames: cannot write to standard output: No space left on device");
}

Test(hostile, every_listing_into_a_full_stdout_fails)
{
    const char *const commands[][4] = {{"", "--help", NULL},        {"", "--version", NULL},
                                       {"", "params", NULL},        {"", "scenes", NULL},
                                       {"", "run", "--help", NULL}, {"", "check", "--help", NULL}};
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++) {
        cr_expect_eq(run_into("/dev/full", NULL, commands[k]), 1, "%s %s", commands[k][1],
                     commands[k][2] ? commands[k][2] : "");
        expect_one_line("clothsim: standard output: cannot write: No space left on device");
    }
}

Test(hostile, every_output_into_a_path_that_refuses_writes_exits_2_before_running)
{
    const char *const options[] = {"--csv", "--dump"};
    for (int k = 0; k < 2; k++) {
        cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", options[k], "/proc/version", NULL}), 2);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "clothsim: %s /proc/version: cannot write", options[k]);
        expect_one_line(prefix);
        cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", options[k], "/nonexistent/x", NULL}), 2);
        snprintf(prefix, sizeof prefix, "clothsim: %s /nonexistent/x: cannot write: No such file", options[k]);
        expect_one_line(prefix);
        cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", options[k], "/tmp", NULL}), 2);
        snprintf(prefix, sizeof prefix, "clothsim: %s /tmp: cannot write: Is a directory", options[k]);
        expect_one_line(prefix);
    }
    /* --record is opened before the terminal is needed, and is a mistake on the command line too */
    cr_expect_eq(run((const char *[]){"", "--record", "/nonexistent/x.cast", NULL}), 2);
    /* the sandbox takes the locale, so the reason is in the user's language */
    expect_one_line("clothsim: --record /nonexistent/x.cast: cannot write: ");
    cr_expect_eq(run((const char *[]){"", "--record", "/proc/version", NULL}), 2);
    expect_one_line("clothsim: --record /proc/version: cannot write");
}

Test(hostile, a_failed_output_leaves_the_other_files_as_they_were)
{
    const char *folder = scratch();
    char good[128], dump[128];
    snprintf(good, sizeof good, "%s/good.csv", folder);
    snprintf(dump, sizeof dump, "%s/x.dump", folder);
    write_text(good, "the old data\n");
    cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", "--csv", good, "--dump", "/nonexistent/x", NULL}), 2);
    cr_expect_str_eq(read_text(good), "the old data\n");
    cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", "--csv", good, "--dump", "/dev/full", NULL}), 1);
    cr_expect_str_eq(read_text(good), "the old data\n", "a run that failed keeps the old file");
    cr_expect_eq(entries(folder), 1, "no temporary file is left behind");
    cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", "--csv", good, "--dump", dump, NULL}), 0, "%s", err);
    cr_expect(strncmp(read_text(good), "step,time,", 10) == 0, "a run that worked replaces it");
    cr_expect(strncmp(read_text(dump), "# ", 2) == 0);
    cr_expect_eq(entries(folder), 2);
    clean(folder);
}

Test(hostile, csv_and_dump_into_one_file_are_refused)
{
    const char *folder = scratch();
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/x", folder);
    snprintf(b, sizeof b, "%s/../%s/x", folder, strrchr(folder, '/') + 1);
    cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", "--csv", a, "--dump", a, NULL}), 2);
    expect_one_line("clothsim: --csv /tmp/clothsim-hostile-");
    cr_expect(strstr(err, "are the same file: give each its own") != NULL, "%s", err);
    cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", "--csv", a, "--dump", b, NULL}), 2, "%s", err);
    write_text(a, "old\n");
    cr_expect_eq(run((const char *[]){"", "run", "--steps", "3", "--csv", a, "--dump", b, NULL}), 2, "%s", err);
    cr_expect_str_eq(read_text(a), "old\n");
    clean(folder);
}

Test(hostile, an_option_word_is_never_taken_as_a_file_name)
{
    const char *folder = scratch();
    char cwd[4096];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(folder), 0);
    cr_expect_eq(run((const char *[]){"", "run", "--dump", "--ascii", NULL}), 2);
    expect_one_line("clothsim: --dump needs a value (--ascii is an option;");
    cr_expect_eq(run((const char *[]){"", "run", "--csv", "--frames", NULL}), 2);
    expect_one_line("clothsim: --csv needs a value (--frames is an option;");
    cr_expect_eq(run((const char *[]){"", "run", "--csv", "--steps", "3", NULL}), 2);
    expect_one_line("clothsim: --csv needs a value (--steps is an option;");
    cr_expect_eq(run((const char *[]){"", "--record", "--ascii", NULL}), 2);
    expect_one_line("clothsim: --record needs a value (--ascii is an option;");
    cr_expect_eq(entries("."), 0, "no file called --ascii or --frames");
    cr_assert_eq(chdir(cwd), 0);
    clean(folder);
}

/* ---------------------------------------------------------------- arguments */

Test(hostile, extra_words_after_help_and_version_are_mistakes)
{
    cr_expect_eq(run((const char *[]){"", "--version", "extra", NULL}), 2);
    expect_one_line("clothsim: --version takes no arguments (got 'extra')");
    cr_expect_eq(run((const char *[]){"", "--help", "extra", NULL}), 2);
    expect_one_line("clothsim: --help takes no arguments (got 'extra')");
    cr_expect_str_eq(out, "");
}

Test(hostile, numbers_are_written_one_way)
{
    cr_expect_eq(run((const char *[]){"", "run", "--set", "gravity=0x10", NULL}), 2);
    expect_one_line("clothsim: --set gravity=0x10: gravity: '0x10' is not a number");
    cr_expect_eq(run((const char *[]){"", "run", "--set", "iterations= 5", NULL}), 2);
    expect_one_line("clothsim: --set iterations= 5: iterations: ' 5' is not a whole number");
    cr_expect_eq(run((const char *[]){"", "run", "--seconds", "0x1", NULL}), 2);
    expect_one_line("clothsim: --seconds 0x1: not a number");
    cr_expect_eq(run((const char *[]){"", "run", "--steps", " 3", NULL}), 2);
    expect_one_line("clothsim: --steps  3: not a whole number");
}

Test(hostile, an_enormous_argument_is_cut_in_the_message)
{
    static char huge[100001];
    memset(huge, 'a', sizeof huge - 1);
    const char *const cases[][6] = {
        {"", "run", huge, NULL},           {"", "run", "--steps", huge, NULL}, {"", "run", "--scene", huge, NULL},
        {"", "run", "--mode", huge, NULL}, {"", "params", huge, NULL},         {"", huge, NULL}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cr_expect_eq(run(cases[k]), 2, "case %zu", k);
        cr_expect(strlen(err) < 400, "case %zu: %zu bytes of message", k, strlen(err));
        cr_expect(strstr(err, "aaa...") != NULL, "case %zu: the culprit is cut: %s", k, err);
    }
    static char setting[100020];
    snprintf(setting, sizeof setting, "gravity=%s", huge);
    cr_expect_eq(run((const char *[]){"", "run", "--set", setting, NULL}), 2);
    cr_expect(strlen(err) < 400 && strstr(err, "...") != NULL, "%zu bytes: %.100s", strlen(err), err);
}

/* ---------------------------------------------------------------- explosions */

Test(hostile, an_explosion_writes_each_step_once_and_exits_3)
{
    cr_expect_eq(run((const char *[]){"", "run", "--scene", "curtain", "--set", "integrator=euler", "--seconds", "1",
                                      "--csv", "-", NULL}),
                 3);
    expect_one_line("clothsim: exploded at t = ");
    long previous = -1;
    int rows = 0;
    for (char *line = strchr(out, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        long step = strtol(line + 1, NULL, 10);
        cr_expect(step > previous, "step %ld after step %ld", step, previous);
        previous = step;
        rows++;
    }
    cr_expect(rows > 1);
    const char *last = out + strlen(out) - 2;
    while (last > out && *last != '\n')
        last--;
    cr_expect(strstr(last, ",1,0,0,0\n") != NULL,
              "the last row says exploded (then cg_iterations, cg_residual, cg_unconverged): %s", last);
    /* frames: the frozen step is drawn once */
    cr_expect_eq(run((const char *[]){"", "run", "--set", "integrator=euler", "--seconds", "1", "--frames", "--size",
                                      "20x5", "--ascii", NULL}),
                 3);
    int frames = 0;
    previous = -1;
    for (const char *p = strstr(out, "-- step "); p; p = strstr(p + 1, "\n-- step ")) {
        long step = strtol(strstr(p, "step ") + 5, NULL, 10);
        cr_expect(step > previous, "frame of step %ld after step %ld", step, previous);
        previous = step;
        frames++;
    }
    cr_expect(frames > 1);
}

/* ---------------------------------------------------------------- the recording */

/* Starts clothsim with args in an 80x24 tmux pane, as test_tui.c does; the
 * shell records the exit status, and stderr goes to err_path. */
static void start_sandbox(const char *env, const char *args, const char *err_path)
{
    if (system("tmux -V >/dev/null 2>&1") != 0)
        cr_skip_test("tmux is not installed");
    snprintf(server, sizeof server, "clothsim-hostile-%d", (int)getpid());
    snprintf(exit_path, sizeof exit_path, "/tmp/clothsim-hostile-%d.exit", (int)getpid());
    snprintf(stty_path, sizeof stty_path, "/tmp/clothsim-hostile-%d.stty", (int)getpid());
    unlink(exit_path);
    unlink(stty_path);
    int status = tmux_new_session("-d -s t -x 80 -y 24 \"sh -c '%s %s %s 2>%s; echo EXIT=\\$? > %s; sleep 60'\"", env,
                                  CLOTHSIM_BIN, args, err_path, exit_path);
    cr_assert_eq(status, 0, "tmux could not start a session");
}

Test(hostile, a_sandbox_that_cannot_start_keeps_the_old_recording, .timeout = 30)
{
    const char *folder = scratch();
    char cast[128], args[256], err_path[128];
    snprintf(cast, sizeof cast, "%s/keep.cast", folder);
    snprintf(err_path, sizeof err_path, "%s.err", folder);
    write_text(cast, "the old recording\n");
    snprintf(args, sizeof args, "--record %s", cast);
    start_sandbox("TERM=nonexistent", args, err_path);
    cr_expect_eq(exit_status(), 1);
    stop();
    cr_expect_str_eq(read_text(cast), "the old recording\n");
    cr_expect(strstr(read_text(err_path), "nonexistent") != NULL);
    cr_expect_eq(entries(folder), 1, "no temporary file is left behind");
    unlink(err_path);
    clean(folder);
}

Test(hostile, a_recording_that_cannot_be_written_is_an_error, .timeout = 30)
{
    char err_path[128];
    snprintf(err_path, sizeof err_path, "/tmp/clothsim-hostile-%d.err", (int)getpid());
    start_sandbox("", "--record /dev/full", err_path);
    cr_assert(wait_for(" step "), "no status line:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 1);
    stop();
    /* the reason comes in the user's language (the sandbox takes the locale) */
    const char *text = read_text(err_path);
    const char *prefix = "clothsim: --record /dev/full: cannot write: ";
    cr_expect(strncmp(text, prefix, strlen(prefix)) == 0 && strchr(text, '\n') == text + strlen(text) - 1, "%s", text);
    unlink(err_path);
}

Test(hostile, a_recording_replaces_the_old_one_when_the_session_ends, .timeout = 30)
{
    const char *folder = scratch();
    char cast[128], args[256], err_path[128];
    snprintf(cast, sizeof cast, "%s/new.cast", folder);
    snprintf(err_path, sizeof err_path, "%s.err", folder);
    write_text(cast, "the old recording\n");
    snprintf(args, sizeof args, "--record %s", cast);
    start_sandbox("", args, err_path);
    cr_assert(wait_for(" step "), "no status line:\n%s", screen);
    cr_expect_str_eq(read_text(cast), "the old recording\n", "replaced at the end, not at the start");
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    cr_expect(strncmp(read_text(cast), "{\"version\": 2,", 14) == 0);
    cr_expect_eq(entries(folder), 1, "no temporary file is left behind");
    unlink(err_path);
    clean(folder);
}

/* ---------------------------------------------------------------- progress */

#include "app/progress.h"

/* XDG_STATE_HOME in a scratch folder; returns the progress folder in it. */
static const char *state_home(const char *folder)
{
    static char progress_folder[160];
    cr_assert_eq(setenv("XDG_STATE_HOME", folder, 1), 0);
    snprintf(progress_folder, sizeof progress_folder, "%s/clothsim", folder);
    mkdir(progress_folder, 0755);
    return progress_folder;
}

static void save(Progress *p, const char *lesson, int page, bool finished)
{
    bool first_failure;
    cr_expect(progress_save(p, lesson, page, finished, PROGRESS_SCORE_KEEP, &first_failure), "save %s: %s", lesson,
              p->err);
}

Test(hostile, progress_never_writes_through_a_planted_link)
{
    const char *folder = scratch();
    const char *state = state_home(folder);
    char victim[160], link_path[200], file[200];
    snprintf(victim, sizeof victim, "%s/victim", folder);
    write_text(victim, "precious\n");
    snprintf(link_path, sizeof link_path, "%s/progress.%d.tmp", state, (int)getpid()); /* the old name */
    cr_assert_eq(symlink(victim, link_path), 0);
    snprintf(link_path, sizeof link_path, "%s/progress.tmp.AAAAAA", state);
    cr_assert_eq(symlink(victim, link_path), 0);
    snprintf(file, sizeof file, "%s/progress", state);
    Progress p;
    progress_load(&p);
    save(&p, "/lessons/a.lesson", 2, false);
    progress_free(&p);
    cr_expect_str_eq(read_text(victim), "precious\n");
    cr_expect_str_eq(read_text(file), "lesson\t2\t0\t-\t0\ta.lesson\n");
    /* the progress file itself a link: not read, and replaced by a file, not followed */
    unlink(file);
    cr_assert_eq(symlink(victim, file), 0);
    progress_load(&p);
    cr_expect_eq(p.count, 0);
    save(&p, "/lessons/b.lesson", 1, true);
    progress_free(&p);
    cr_expect_str_eq(read_text(victim), "precious\n");
    struct stat st;
    cr_expect(lstat(file, &st) == 0 && S_ISREG(st.st_mode));
    clean(folder);
}

Test(hostile, progress_removes_what_a_killed_save_left)
{
    const char *folder = scratch();
    const char *state = state_home(folder);
    char stale[200];
    snprintf(stale, sizeof stale, "%s/progress.tmp.Xy12zz", state);
    write_text(stale, "1\t0\t/half");
    Progress p;
    progress_load(&p);
    save(&p, "/lessons/a.lesson", 0, false);
    progress_free(&p);
    cr_expect(access(stale, F_OK) != 0, "the stale temporary is gone");
    cr_expect_eq(entries(state), 2, "progress and progress.lock only");
    clean(folder);
}

Test(hostile, two_lessons_open_at_once_keep_each_others_progress)
{
    const char *folder = scratch();
    const char *state = state_home(folder);
    Progress one, two;
    progress_load(&one);
    progress_load(&two);
    save(&one, "/lessons/a.lesson", 3, false);
    save(&two, "/lessons/b.lesson", 5, true);
    save(&one, "/lessons/a.lesson", 4, false);
    progress_free(&one);
    progress_free(&two);
    Progress p;
    progress_load(&p);
    const ProgressEntry *a = progress_find(&p, "/lessons/a.lesson"), *b = progress_find(&p, "/lessons/b.lesson");
    cr_assert(a && b, "both kept: %s", read_text(state));
    cr_expect(a->page == 4 && !a->finished);
    cr_expect(b->page == 5 && b->finished);
    progress_free(&p);
    clean(folder);
}

Test(hostile, an_overlong_state_home_is_refused_not_cut)
{
    const char *folder = scratch();
    static char state[1001]; /* too long to name whole: refused */
    int n = snprintf(state, sizeof state, "%s/", folder);
    memset(state + n, 'd', sizeof state - 1 - (size_t)n);
    state[sizeof state - 1] = '\0';
    cr_assert_eq(setenv("XDG_STATE_HOME", state, 1), 0);
    Progress p;
    progress_load(&p);
    cr_expect_str_eq(p.file, "");
    cr_expect(strstr(p.err, "XDG_STATE_HOME is too long") != NULL, "%s", p.err);
    bool first_failure;
    cr_expect(!progress_save(&p, "/lessons/a.lesson", 1, false, PROGRESS_SCORE_KEEP, &first_failure));
    cr_expect(first_failure);
    progress_free(&p);
    cr_expect_eq(entries(folder), 0, "nothing written anywhere");
    clean(folder);
}

Test(hostile, a_corrupt_progress_file_is_set_aside_not_lost)
{
    const char *folder = scratch();
    const char *state = state_home(folder);
    char file[200], aside[220];
    snprintf(file, sizeof file, "%s/progress", state);
    snprintf(aside, sizeof aside, "%s/progress.corrupt", state);
    write_text(file, "2\t1\t/lessons/a.lesson\nthis is not progress\n");
    Progress p;
    progress_load(&p);
    cr_expect(p.set_aside);
    cr_expect(strstr(p.err, "line 2") && strstr(p.err, "progress.corrupt"), "%s", p.err);
    cr_expect_str_eq(read_text(aside), "2\t1\t/lessons/a.lesson\nthis is not progress\n");
    cr_expect(access(file, F_OK) != 0);
    progress_free(&p);
    clean(folder);
}

/* A second corrupt file goes beside the first, never over it. */
Test(hostile, every_corrupt_progress_file_is_kept_under_its_own_name)
{
    const char *folder = scratch();
    const char *state = state_home(folder);
    char file[200], first[220], second[220];
    snprintf(file, sizeof file, "%s/progress", state);
    snprintf(first, sizeof first, "%s/progress.corrupt", state);
    snprintf(second, sizeof second, "%s/progress.corrupt.2", state);
    Progress p;
    write_text(file, "the first bad file\n");
    progress_load(&p);
    progress_free(&p);
    write_text(file, "the second bad file\n");
    progress_load(&p);
    cr_expect(strstr(p.err, "progress.corrupt.2") != NULL, "%s", p.err);
    progress_free(&p);
    cr_expect_str_eq(read_text(first), "the first bad file\n");
    cr_expect_str_eq(read_text(second), "the second bad file\n");
    clean(folder);
}

/* A progress file that is there but cannot be read (over 16 MiB here; mode
 * 000 for a plain user, below) is reported and left as it is: a save
 * writes nothing over it, and says so. */
Test(hostile, a_progress_file_that_cannot_be_read_is_left_alone)
{
    const char *folder = scratch();
    const char *state = state_home(folder);
    char file[200];
    snprintf(file, sizeof file, "%s/progress", state);
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    const char *line = "lesson\t3\t1\t-\t60\tother.lesson\n";
    for (size_t written = 0; written <= ((size_t)16 << 20); written += strlen(line))
        fputs(line, f);
    cr_assert_eq(fclose(f), 0);
    struct stat before, after;
    cr_assert_eq(stat(file, &before), 0);
    Progress p;
    progress_load(&p);
    cr_expect(strstr(p.err, "cannot read") != NULL, "%s", p.err);
    bool first_failure;
    cr_expect(!progress_save(&p, "/lessons/a.lesson", 2, false, PROGRESS_SCORE_KEEP, &first_failure));
    cr_expect(first_failure);
    cr_expect(strstr(p.err, "nothing is saved over it") != NULL, "%s", p.err);
    progress_free(&p);
    cr_assert_eq(stat(file, &after), 0);
    cr_expect_eq(after.st_size, before.st_size, "the file is as it was");
    cr_expect_eq(after.st_ino, before.st_ino, "not replaced");
    /* mode 000, as a plain user meets it (root reads any file: then a child
     * that is not root tries) */
    unlink(file);
    write_text(file, "lesson\t3\t1\t-\t60\tother.lesson\n");
    chmod(file, 0);
    chmod(state, 0777);
    char lock[220];
    snprintf(lock, sizeof lock, "%s.lock", file);
    unlink(lock); /* root's, from above */
    pid_t child = fork();
    cr_assert(child >= 0);
    if (child == 0) {
        if (getuid() == 0 && setuid(65534) != 0)
            _exit(3);
        Progress q;
        progress_load(&q);
        bool failed_first;
        bool saved = progress_save(&q, "/lessons/a.lesson", 2, false, PROGRESS_SCORE_KEEP, &failed_first);
        _exit(saved ? 1 : strstr(q.err, "nothing is saved over it") ? 0 : 2);
    }
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "mode 000: status %d", status);
    chmod(file, 0644);
    cr_expect_str_eq(read_text(file), "lesson\t3\t1\t-\t60\tother.lesson\n");
    clean(folder);
}

/* Quitting saves: with 300,000 lessons on record that is a merge and a
 * write, not a search of every record for every record (30,000 took 131 s;
 * the bound is generous, a quadratic merge would take hours). */
Test(hostile, a_save_among_300000_records_is_quick, .timeout = 30)
{
    const char *folder = scratch();
    const char *state = state_home(folder);
    char file[200];
    snprintf(file, sizeof file, "%s/progress", state);
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    for (int k = 0; k < 300000; k++)
        fprintf(f, "lesson\t1\t0\t-\t5\tl%06d.lesson\n", k);
    cr_assert_eq(fclose(f), 0);
    Progress p;
    progress_load(&p);
    cr_expect_eq(p.count, 300000, "%s", p.err);
    save(&p, "/lessons/l000007.lesson", 4, true);
    progress_free(&p);
    progress_load(&p);
    cr_expect_eq(p.count, 300000);
    const ProgressEntry *e = progress_find(&p, "/x/l000007.lesson"), *last = progress_find(&p, "/x/l299999.lesson");
    cr_assert(e && last);
    cr_expect(e->page == 4 && e->finished);
    cr_expect(last->page == 1 && !last->finished && last->seconds == 5);
    progress_free(&p);
    clean(folder);
}

Test(hostile, the_progress_reader_takes_any_bytes)
{
    static const struct {
        const char *text;
        size_t length;
        bool ok;
        int count;
    } cases[] = {
        {"", 0, true, 0},
        {"1\t0\t/a\n", 7, true, 1},
        {"1\t0\t/a", 6, true, 1},
        {"1\t0\t/a\n3\t1\t/a\n", 14, true, 1}, /* twice: the furthest */
        {"1\t0\t/a\0b\n", 9, false, 0},
        {"1\t2\t/a\n", 7, false, 0},
        {"-1\t0\t/a\n", 8, false, 0},
        {"99999999999\t0\t/a\n", 17, false, 0},
        {"1\t0\trelative\n", 13, false, 0},
        {"1\t0\t", 4, false, 0},
        {"1\t0", 3, false, 0},
        {"\n", 1, false, 0},
        /* with the score of the last finish */
        {"1\t1\t3/4\t/a\n", 11, true, 1},
        {"1\t1\t0/0\t/a\n", 11, true, 1},
        {"1\t1\t5/4\t/a\n", 11, false, 0}, /* more right than asked */
        {"1\t1\t3/\t/a\n", 10, false, 0},
        {"1\t1\t/4\t/a\n", 10, true, 1}, /* a path "/4<TAB>/a", as before scores */
        {"1\t1\t3/4/a\n", 10, false, 0},
        {"1\t1\t3/4\t\n", 9, false, 0},
        {"1\t1\t3/99999\t/a\n", 15, false, 0}, /* over PROGRESS_MAX_QUESTIONS */
        {"1\t1\t3/4\trelative\n", 17, false, 0},
        {"1\t1\t3/4\t/\n", 9, false, 0}, /* a folder */
        /* the records kept since lessons are known by name */
        {"lesson\t1\t0\t-\t0\ta.lesson\n", 24, true, 1},
        {"lesson\t1\t1\t2/3\t125\ta.lesson", 27, true, 1},
        {"lesson\t1\t1\t2/3\t125\tdir/a.lesson", 31, false, 0},
        {"lesson\t1\t1\t4/3\t125\ta.lesson", 27, false, 0},
        {"lesson\t1\t2\t-\t125\ta.lesson", 25, false, 0},
        {"lesson\t1\t1\t-\t-5\ta.lesson", 24, false, 0},
        {"lesson\t1\t1\t-\t5\t", 15, false, 0},
        {"lesson\t1\t1\t-\t5", 14, false, 0},
        {"answer\tquestion\t1\t2\t1\t2\t1\t2\t1\ta.lesson\n", 39, true, 1},
        {"answer\thomework\t1\t2\t3\t0.5\t0\t7\t1\ta.lesson\n", 41, true, 1},
        {"answer\tquestion\t1\t2\t1\t2\t-\t2\t-\ta.lesson\n", 39, true, 1},
        {"answer\tquiz\t1\t2\t1\t2\t1\t2\t1\ta.lesson\n", 35, false, 0},
        {"answer\tquestion\t0\t2\t1\t2\t1\t2\t1\ta.lesson\n", 39, false, 0},
        {"answer\tquestion\t1\t2\t0\t2\t1\t2\t1\ta.lesson\n", 39, false, 0},
        {"answer\tquestion\t1\t2\t1\t\t1\t2\t1\ta.lesson\n", 38, false, 0},
        {"answer\tquestion\t1\t2\t1\t2\t2\t2\t1\ta.lesson\n", 39, false, 0},
        {"answer\tquestion\t1\t2\t1\t2\t1\t2\t1\t\n", 31, false, 0},
        {"answer\tquestion\t1\t2\t1\t2\t1\t2\t1\n", 30, false, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Progress p = {0};
        int bad_line;
        cr_expect_eq(progress_parse(&p, cases[k].text, cases[k].length, &bad_line), cases[k].ok, "case %zu", k);
        if (cases[k].ok)
            cr_expect_eq(p.count, cases[k].count, "case %zu", k);
        progress_free(&p);
    }
    Progress p = {0};
    int bad_line;
    cr_expect(progress_parse(&p, "1\t0\t/a\n3\t1\t/a\n", 14, &bad_line));
    cr_expect(p.count == 1 && p.entries[0].page == 3 && p.entries[0].finished);
    cr_expect_eq(p.entries[0].graded, 0, "a line without a score has none");
    progress_free(&p);
    p = (Progress){0};
    cr_expect(progress_parse(&p, "2\t1\t3/4\t/a\n", 11, &bad_line));
    cr_expect(p.count == 1 && p.entries[0].page == 2 && p.entries[0].right == 3 && p.entries[0].graded == 4);
    cr_expect_str_eq(p.entries[0].name, "a");
    progress_free(&p);
}

Test(hostile, progress_keeps_the_score_of_the_last_finish)
{
    const char *folder = scratch();
    state_home(folder);
    Progress p = {0};
    progress_load(&p);
    bool first_failure;
    cr_assert(progress_save(&p, "/lessons/a.lesson", 3, true, (ProgressScore){2, 5}, &first_failure), "%s", p.err);
    /* playing it again without finishing keeps the score; so does a save of another lesson */
    cr_assert(progress_save(&p, "/lessons/a.lesson", 1, false, PROGRESS_SCORE_KEEP, &first_failure), "%s", p.err);
    cr_assert(progress_save(&p, "/lessons/b.lesson", 0, false, PROGRESS_SCORE_KEEP, &first_failure), "%s", p.err);
    /* a score that cannot be is never written */
    cr_assert(progress_save(&p, "/lessons/b.lesson", 0, true, (ProgressScore){6, 5}, &first_failure), "%s", p.err);
    progress_free(&p);
    Progress again = {0};
    progress_load(&again);
    const ProgressEntry *a = progress_find(&again, "/lessons/a.lesson");
    const ProgressEntry *b = progress_find(&again, "/lessons/b.lesson");
    cr_assert(a && b);
    cr_expect(a->finished && a->page == 1 && a->right == 2 && a->graded == 5, "a: page %d, %d/%d", a->page, a->right,
              a->graded);
    cr_expect(b->finished && b->graded == 0, "b: %d/%d", b->right, b->graded);
    /* a finish again replaces it */
    cr_assert(progress_save(&again, "/lessons/a.lesson", 3, true, (ProgressScore){5, 5}, &first_failure));
    a = progress_find(&again, "/lessons/a.lesson");
    cr_expect(a->right == 5 && a->graded == 5);
    progress_free(&again);
    clean(folder);
}

/* ---------------------------------------------------------------- lessons */

#include "lesson/lesson.h"
#include "lesson/parser.h"

Test(hostile, check_refuses_a_fifo_and_a_folder_at_once, .timeout = 10)
{
    const char *folder = scratch();
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/pipe.lesson", folder);
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    cr_expect_eq(run((const char *[]){"", "check", fifo, NULL}), 2);
    char line[256];
    snprintf(line, sizeof line, "%s: cannot read: not a regular file (a lesson is a file)\n", fifo);
    cr_expect_str_eq(err, line);
    cr_expect_eq(run((const char *[]){"", "check", folder, NULL}), 2);
    snprintf(line, sizeof line, "%s: cannot read: it is a folder\n", folder);
    cr_expect_str_eq(err, line);
    clean(folder);
}

static const char lesson_head[] = "title T\nsummary S\nduration 1 min\n";

/* Parses head + body + repeat x count + tail; returns the message or "". */
static const char *budget_error(const char *body, const char *repeat, int count, const char *tail)
{
    static char err_line[600];
    size_t cap = strlen(lesson_head) + strlen(body) + strlen(repeat) * (size_t)count + strlen(tail) + 1;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    char *p = text + sprintf(text, "%s%s", lesson_head, body);
    for (int k = 0; k < count; k++)
        p += sprintf(p, "%s", repeat);
    sprintf(p, "%s", tail);
    Lesson *lesson = lesson_parse_buffer("x.lesson", text, strlen(text), err_line, sizeof err_line);
    free(text);
    if (lesson)
        err_line[0] = '\0';
    lesson_destroy(lesson);
    return err_line;
}

Test(hostile, a_lesson_over_its_budget_is_refused_with_a_position)
{
    cr_expect_str_eq(budget_error("set cols=2 rows=2\npane a\npage P\n", "reset\n", 10000, ""),
                     "x.lesson:2005:1: over the lesson's budget: more than 2000 commands");
    cr_expect_str_eq(budget_error("pane a\npage P\n", "reset\n", 10000, ""),
                     "x.lesson:1393:1: over the lesson's budget: 1000080 particles built by panes, resets and "
                     "settings (at most 1000000)");
    cr_expect_str_eq(budget_error("pane a\npage P\n", "close a\npane a\n", 5000, ""),
                     "x.lesson:2005:1: over the lesson's budget: more than 2000 commands");
    cr_expect_str_eq(
        budget_error("set cols=1000 rows=250\npane a\npane b\npane c\npane d\npage P\n", "", 0, "run 10 s\n"),
        "x.lesson:6:1: over the lesson's budget: 500000 particles in the open panes (at most 250000)");
    cr_expect_str_eq(budget_error("pane a\npage P\n", "run 300 s\n", 3, ""),
                     "x.lesson:8:1: over the lesson's budget: 900 simulated seconds of runs (at most 600)");
    /* the work counts substeps and passes (a light cloth, 4 CPU-hours) */
    cr_expect_str_eq(
        budget_error("set cols=30 rows=24 substeps=100 iterations=500 dt=0.1\npane a\npage P\n", "", 0, "run 600 s\n"),
        "x.lesson:7:1: over the lesson's budget: 2.16e+11 particle-passes of runs, particles x substeps "
        "x passes (at most 1.5e+10, about 5 minutes of a processor)");
    /* and the implicit solve's iterations, at their cap */
    cr_expect_str_eq(
        budget_error("set integrator=implicit cg_max_iterations=10000\npane a\npage P\n", "", 0, "run 60 s\n"),
        "x.lesson:7:1: over the lesson's budget: 1.3e+11 particle-passes of runs, particles x substeps "
        "x passes (at most 1.5e+10, about 5 minutes of a processor)");
    cr_expect_str_eq(budget_error("set integrator=implicit\npane a\npage P\n", "", 0, "run 60 s\n"), "",
                     "the same at the default cap parses");
    cr_expect_str_eq(budget_error("pane a\npage P\n", "run 1 s\nreset\n", 10, ""), "", "a lesson within it parses");
}

Test(hostile, a_huge_columns_or_lines_is_named_not_blamed_on_term)
{
    cr_expect_eq(run_into("/dev/null", "COLUMNS=100000", (const char *[]){"", "--scene", "flag", NULL}), 1);
    expect_one_line("clothsim: COLUMNS=100000: a terminal larger than 10000 cells each way (unset COLUMNS, or set "
                    "the real size)");
    cr_expect_eq(run_into("/dev/null", "LINES=100000", (const char *[]){"", NULL}), 1);
    expect_one_line("clothsim: LINES=100000: a terminal larger than 10000 cells each way");
}

/* clothsim progress: the record a student or a teacher reads, as text and
 * as CSV (one row a lesson, the user in every row). */
Test(hostile, progress_prints_the_record_as_text_and_csv)
{
    const char *folder = scratch();
    state_home(folder);
    Progress p = {0};
    progress_load(&p);
    bool first_failure;
    cr_assert(progress_save(&p, "/lessons/a.lesson", 3, true, (ProgressScore){2, 3}, &first_failure), "%s", p.err);
    cr_assert(progress_save(&p, "/lessons/b,c.lesson", 1, false, PROGRESS_SCORE_KEEP, &first_failure), "%s", p.err);
    progress_free(&p);
    cr_assert_eq(setenv("USER", "olena", 1), 0);
    cr_expect_eq(run((const char *[]){"", "progress", "--csv", NULL}), 0, "%s", err);
    cr_expect_str_eq(out, "user,lesson,page,finished,right,questions,seconds\n"
                          "olena,a.lesson,4,1,2,3,0\n"
                          "olena,\"b,c.lesson\",2,0,,,0\n");
    cr_expect_eq(run((const char *[]){"", "progress", NULL}), 0, "%s", err);
    cr_expect(strstr(out, "finished, 2 of 3 right") && strstr(out, "at page 2"), "got:\n%s", out);
    cr_expect_eq(run((const char *[]){"", "progress", "--cvs", NULL}), 2);
    cr_expect_str_eq(err, "clothsim: progress: unknown argument '--cvs' (clothsim progress --help)\n");
    clean(folder);
}

/* Lessons are known by their file name: a file written when they were
 * known by absolute path is read (both languages' lines become one lesson)
 * and written anew; the answers, the time spent and the score are kept, and
 * printed as text and as CSV. */
Test(hostile, progress_migrates_paths_and_keeps_answers_and_time)
{
    const char *folder = scratch();
    const char *state = state_home(folder);
    char file[200];
    snprintf(file, sizeof file, "%s/progress", state);
    write_text(file, "2\t0\t/old/checkout/lessons/01-a.lesson\n"
                     "4\t1\t1/2\t/old/checkout/lessons/uk/01-a.lesson\n"
                     "1\t0\t/old/checkout/lessons/02-b.lesson\n");
    Progress p = {0};
    progress_load(&p);
    cr_assert_eq(p.count, 2, "%s", read_text(file));
    const ProgressEntry *a = progress_find(&p, "/new/place/lessons/01-a.lesson");
    cr_assert(a, "found from another folder");
    cr_expect(a->page == 4 && a->finished && a->right == 1 && a->graded == 2);
    cr_expect(progress_find(&p, "lessons/uk/02-b.lesson") != NULL, "found from the other language");
    /* a question answered wrong, then right; a homework right at once */
    cr_assert(progress_answer(&p, "lessons/01-a.lesson", PROGRESS_QUESTION, 1, 2, "3", 0, true));
    cr_assert(progress_answer(&p, "lessons/01-a.lesson", PROGRESS_QUESTION, 1, 2, "1", 1, false));
    cr_assert(progress_answer(&p, "lessons/01-a.lesson", PROGRESS_HOMEWORK, 1, 3, "0.004", 1, true));
    progress_add_time(&p, "lessons/01-a.lesson", 125.4);
    bool first_failure;
    cr_assert(progress_save(&p, "lessons/uk/01-a.lesson", 2, false, PROGRESS_SCORE_KEEP, &first_failure), "%s", p.err);
    progress_free(&p);
    cr_expect_str_eq(read_text(file), "lesson\t2\t1\t1/2\t125\t01-a.lesson\n"
                                      "answer\tquestion\t1\t2\t2\t3\t0\t1\t1\t01-a.lesson\n"
                                      "answer\thomework\t1\t3\t1\t0.004\t1\t0.004\t1\t01-a.lesson\n"
                                      "lesson\t1\t0\t-\t0\t02-b.lesson\n");
    /* a new playing starts the question's record afresh */
    progress_load(&p);
    cr_assert(progress_answer(&p, "lessons/01-a.lesson", PROGRESS_QUESTION, 1, 2, "1", 1, true));
    a = progress_find(&p, "01-a.lesson");
    cr_expect(a->answer_count == 2 && a->answers[0].tries == 1 && strcmp(a->answers[0].first, "1") == 0 &&
              a->answers[0].first_right == 1);
    progress_free(&p);

    cr_assert_eq(setenv("USER", "taras", 1), 0);
    cr_expect_eq(run((const char *[]){"", "progress", "--csv", NULL}), 0, "%s", err);
    cr_expect_str_eq(out, "user,lesson,page,finished,right,questions,seconds\n"
                          "taras,01-a.lesson,3,1,1,2,125\n"
                          "taras,02-b.lesson,2,0,,,0\n");
    cr_expect_eq(run((const char *[]){"", "progress", "--csv", "--answers", NULL}), 0, "%s", err);
    cr_expect_str_eq(out, "user,lesson,kind,number,page,tries,first,first_right,last,last_right\n"
                          "taras,01-a.lesson,question,1,2,2,3,0,1,1\n"
                          "taras,01-a.lesson,homework,1,3,1,0.004,1,0.004,1\n");
    cr_expect_eq(run((const char *[]){"", "progress", NULL}), 0, "%s", err);
    cr_expect_str_eq(out, "01-a.lesson: finished, 1 of 2 right at the first try; 2 min spent.\n"
                          "    question 1 (page 2): answered 3 first, wrong; 1 last, right; 2 tries.\n"
                          "    homework 1 (page 3): answered 0.004, right.\n"
                          "02-b.lesson: at page 2; under a minute spent.\n");
    cr_expect_eq(run((const char *[]){"", "progress", "--answers", NULL}), 2);
    cr_expect_str_eq(err, "clothsim: progress: --answers goes with --csv (the text lists the answers already)\n");
    clean(folder);
}

/* ---------------------------------------------------------------- leftovers */

/* Starts clothsim run writing --csv target in the background; returns its
 * pid once its temporary file is there (its name in temporary). */
static pid_t start_long_run(const char *folder, const char *target, char *temporary, size_t temporary_size)
{
    pid_t child = fork();
    cr_assert(child >= 0);
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDERR_FILENO);
        /* the signals as a terminal gives them: a suite started in the
         * background of a script has SIGINT and SIGQUIT ignored, and the
         * run, which leaves an ignored signal ignored, would never end */
        const int ending[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        for (size_t k = 0; k < sizeof ending / sizeof ending[0]; k++)
            signal(ending[k], SIG_DFL);
        execl(CLOTHSIM_BIN, CLOTHSIM_BIN, "run", "--steps", "100000000", "--csv", target, (char *)NULL);
        _exit(127);
    }
    for (int tries = 0; tries < 1000; tries++) { /* up to 10 s under the sanitizers */
        DIR *d = opendir(folder);
        cr_assert_not_null(d);
        for (struct dirent *e; (e = readdir(d));)
            if (strstr(e->d_name, ".tmp.")) {
                snprintf(temporary, temporary_size, "%s/%s", folder, e->d_name);
                closedir(d);
                return child;
            }
        closedir(d);
        nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
    }
    cr_assert_fail("no temporary file appeared");
    return child;
}

/* SIGTERM, SIGINT, SIGHUP during a run remove its temporary file and leave
 * the old file; after SIGKILL (which nothing can catch) the next run
 * writing there removes it. */
Test(hostile, a_run_that_is_killed_leaves_nothing_behind, .timeout = 60)
{
    const char *folder = scratch();
    char target[200], temporary[400];
    snprintf(target, sizeof target, "%s/out.csv", folder);
    const int signals[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t k = 0; k < sizeof signals / sizeof signals[0]; k++) {
        write_text(target, "the old run\n");
        pid_t child = start_long_run(folder, target, temporary, sizeof temporary);
        cr_assert_eq(kill(child, signals[k]), 0);
        int status;
        cr_assert_eq(waitpid(child, &status, 0), child);
        cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == signals[k], "signal %d: ended by it", signals[k]);
        cr_expect(access(temporary, F_OK) != 0, "signal %d: %s removed", signals[k], temporary);
        cr_expect_str_eq(read_text(target), "the old run\n");
        cr_expect_eq(entries(folder), 1, "signal %d: nothing but the file", signals[k]);
    }
    pid_t child = start_long_run(folder, target, temporary, sizeof temporary);
    cr_assert_eq(kill(child, SIGKILL), 0);
    cr_assert_eq(waitpid(child, NULL, 0), child);
    cr_expect(access(temporary, F_OK) == 0, "SIGKILL leaves it");
    cr_expect_eq(support_exec((const char *[]){"", "run", "--steps", "1", "--csv", target, NULL}, out, sizeof out, err,
                              sizeof err),
                 0, "%s", err);
    cr_expect(access(temporary, F_OK) != 0, "the next run removed %s", temporary);
    cr_expect_eq(entries(folder), 1);
    clean(folder);
}

/* A closed pipe is a failed write: one line, status 1. And standard output
 * named twice (/dev/stdout and -) is refused before anything runs. */
Test(hostile, a_closed_pipe_is_said_and_standard_output_is_one_output)
{
    char command[512];
    snprintf(command, sizeof command,
             "%s run --steps 100000 2>/tmp/clothsim-pipe-%d.err | head -c1 >/dev/null; "
             "exit ${PIPESTATUS[0]}",
             CLOTHSIM_BIN, (int)getpid());
    char shell[600];
    snprintf(shell, sizeof shell, "bash -c '%s'", command);
    int status = system(shell);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status %d", status);
    char path[64];
    snprintf(path, sizeof path, "/tmp/clothsim-pipe-%d.err", (int)getpid());
    cr_expect_str_eq(read_text(path), "clothsim: --csv: cannot write to standard output: Broken pipe\n");
    unlink(path);
    cr_expect_eq(support_exec((const char *[]){"", "run", "--csv", "/dev/stdout", "--dump", "-", NULL}, out, sizeof out,
                              err, sizeof err),
                 2);
    cr_expect_str_eq(err,
                     "clothsim: --csv -, --dump - and --frames all write to standard output: give a file to all but "
                     "one\n");
}
