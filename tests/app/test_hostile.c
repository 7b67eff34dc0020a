/* test_hostile.c - clothsim against hostile input (issue 14): every output
 * into a full device and into a path that refuses writes, outputs that must
 * not clobber each other or an old file, arguments that are options or
 * enormous, lessons over their budget, FIFOs, and progress files that are
 * links, corrupt, or shared by two lessons at once. Nothing lost, nothing
 * left dirty, nothing unbounded. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../support.h"
#include "../tmux_session.h"

static char out[1 << 20], err[8192];

static int run(const char *const *argv) { return support_exec(argv, out, sizeof out, err, sizeof err); }

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
    const char *const commands[][4] = {{"", "--help", NULL}, {"", "--version", NULL}, {"", "params", NULL},
                                       {"", "scenes", NULL},  {"", "run", "--help", NULL}, {"", "check", "--help", NULL}};
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
    expect_one_line("clothsim: --record /nonexistent/x.cast: cannot write: No such file or directory");
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
    const char *const cases[][6] = {{"", "run", huge, NULL},
                                    {"", "run", "--steps", huge, NULL},
                                    {"", "run", "--scene", huge, NULL},
                                    {"", "run", "--mode", huge, NULL},
                                    {"", "params", huge, NULL},
                                    {"", huge, NULL}};
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
    cr_expect(strstr(last, ",1\n") != NULL, "the last row says exploded: %s", last);
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
    cr_expect_str_eq(read_text(err_path), "clothsim: --record /dev/full: cannot write: No space left on device\n");
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
