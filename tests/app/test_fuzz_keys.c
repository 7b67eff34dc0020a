/* test_fuzz_keys.c - the key fuzzer: the sandbox and two lessons run in a
 * detached tmux session (as in test_tui.c) and take a seeded random stream
 * of what a person, a terminal and a window manager can send: every bound
 * key, arrows, Enter, digits, unbound and non-ASCII text, mouse reports (X10
 * as ncurses reads them here, and SGR ones it does not), presses, drags and
 * releases, and resize-window to random sizes, tiny ones too. Then the
 * program must still be there, end on q with status 0 and give the terminal
 * back as it was.
 *
 * Each test runs for CLOTHSIM_FUZZ_SECONDS (default 3, so that make test
 * stays quick) from CLOTHSIM_FUZZ_SEED (default: from the clock); a failure
 * prints the seed and the last events. make fuzz-keys FUZZ_SECONDS=N runs
 * them for longer on the sanitizer build. The program's standard error (a
 * sanitizer's report) goes to a file that a failure prints. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tmux_session.h"

static char err_path[128];   /* the program's standard error */
static char state_path[128]; /* XDG_STATE_HOME: lessons start at their first page */

/* ---------------------------------------------------------------- the dice */

static uint64_t rng_state;

static uint64_t next_random(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static int below(int n)
{
    return (int)(next_random() % (uint64_t)n);
}

/* ---------------------------------------------------------------- the log */

#define LOG_EVENTS 48
#define EVENT_BYTES 160
static char event_log[LOG_EVENTS][EVENT_BYTES];
static long events; /* sent so far */

static void log_event(const char *text)
{
    snprintf(event_log[events % LOG_EVENTS], EVENT_BYTES, "%s", text);
    events++;
}

/* The last events sent, oldest first, one a line. */
static const char *last_events(void)
{
    static char text[LOG_EVENTS * (EVENT_BYTES + 8)];
    text[0] = '\0';
    long first = events > LOG_EVENTS ? events - LOG_EVENTS : 0;
    for (long k = first; k < events; k++) {
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "  %ld: %s\n", k, event_log[k % LOG_EVENTS]);
    }
    return text;
}

/* The start of the program's standard error ("" if none). */
static const char *program_stderr(void)
{
    static char text[6000];
    FILE *f = fopen(err_path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    return text;
}

/* ---------------------------------------------------------------- events */

/* clang-format off */
static const char *const sandbox_keys[] = {
    "Space", "n", "s", "p", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0",
    "Tab", "BTab", "[", "]", "Up", "Down", "Left", "Right", "Up", "Down", "Left", "Right",
    "r", "f", "w", "P", "t", "m", "a", "h", "j", "k", "l", "+", "=", "-", "_",
    ",", ".", "<", ">", "g", "g", "c", "c", "C", "?", "Escape", "Enter",
    "S-Left", "S-Right", "S-Up", "S-Down", "PPage", "NPage", "Home", "End", "BSpace",
    "F1", "F5", "x", "R", "z", "DC", "IC",
};
static const char *const lesson_keys[] = {
    "Enter", "Right", "Left", "r", "R", "Space", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "Up", "Down", "PPage", "NPage", "?", "Escape", "Home", "End", "Tab", "g", "c", "0",
};
static const char *const texts[] = {
    "ф", "ж", "ñ", "é", "€", "日本", "😀", "ß", "фжñ", "zyx", "Ω≈ç", "\u0301",
};
/* clang-format on */
#define COUNT(a) ((int)(sizeof(a) / sizeof(a)[0]))

typedef struct Fuzz {
    const char *const *keys;
    int key_count;
    int cols, rows; /* the window's size, as last asked */
} Fuzz;

/* Appends " \; " and one tmux command to batch (and the log). */
static void add(char *batch, size_t size, const char *command)
{
    size_t used = strlen(batch);
    snprintf(batch + used, size - used, "%s%s", used ? " \\; " : "", command);
    log_event(command);
}

/* An X10 mouse report (ESC [ M, then button, column and row, each + 32),
 * the encoding ncurses reads under tmux's terminal type. */
static void x10(char *out, size_t size, int button, int x, int y)
{
    int bx = 33 + x, by = 33 + y;
    snprintf(out, size, "send-keys -t t -H 1b 5b 4d %02x %02x %02x", 32 + button, bx > 255 ? 255 : bx,
             by > 255 ? 255 : by);
}

/* A press, motions with the button held and a release; or a wheel turn; or
 * an SGR report (ESC [ < b ; x ; y M), which ncurses reads as keys here. */
static void mouse(Fuzz *f, char *batch, size_t size)
{
    char command[EVENT_BYTES];
    int x = below(f->cols + 2), y = below(f->rows + 2);
    int kind = below(10);
    if (kind < 2) {
        x10(command, sizeof command, below(2) ? 64 : 65, x, y); /* wheel up / down */
        add(batch, size, command);
        return;
    }
    if (kind < 4) {
        char sgr[48], hex[EVENT_BYTES] = "send-keys -t t -H";
        snprintf(sgr, sizeof sgr, "\033[<%d;%d;%d%c", below(4) == 0 ? 64 : below(3), x + 1, y + 1,
                 below(2) ? 'M' : 'm');
        for (const char *c = sgr; *c; c++) {
            size_t used = strlen(hex);
            snprintf(hex + used, sizeof hex - used, " %02x", (unsigned char)*c);
        }
        add(batch, size, hex);
        return;
    }
    int button = kind < 8 ? 0 : 2; /* left pulls a particle, right orbits */
    x10(command, sizeof command, button, x, y);
    add(batch, size, command);
    for (int k = below(5); k > 0; k--) {
        x += below(9) - 4, y += below(5) - 2;
        x = x < 0 ? 0 : x, y = y < 0 ? 0 : y;
        x10(command, sizeof command, 32 + button, x, y);
        add(batch, size, command);
    }
    if (below(8) != 0) { /* now and then a press is never released */
        x10(command, sizeof command, 3, x, y);
        add(batch, size, command);
    }
}

static void resize(Fuzz *f, char *batch, size_t size)
{
    int kind = below(10);
    if (kind < 3) { /* tiny: the notice, or less */
        f->cols = 1 + below(30), f->rows = 1 + below(10);
    } else if (kind < 9) {
        f->cols = 20 + below(160), f->rows = 6 + below(50);
    } else {
        f->cols = 100, f->rows = 30;
    }
    char command[EVENT_BYTES];
    snprintf(command, sizeof command, "resize-window -t t -x %d -y %d", f->cols, f->rows);
    add(batch, size, command);
}

/* One tmux command's worth of events: a few, sent at once. */
static void batch_of_events(Fuzz *f, char *batch, size_t size)
{
    batch[0] = '\0';
    char command[EVENT_BYTES];
    for (int n = 1 + below(5); n > 0 && strlen(batch) < size - 4 * EVENT_BYTES; n--) {
        int dice = below(100);
        if (dice < 55) {
            snprintf(command, sizeof command, "send-keys -t t '%s'", f->keys[below(f->key_count)]);
            add(batch, size, command);
        } else if (dice < 65) { /* the same key held down */
            const char *key = f->keys[below(f->key_count)];
            snprintf(command, sizeof command, "send-keys -t t");
            for (int k = 2 + below(5); k > 0; k--) {
                size_t used = strlen(command);
                snprintf(command + used, sizeof command - used, " '%s'", key);
            }
            add(batch, size, command);
        } else if (dice < 72) {
            snprintf(command, sizeof command, "send-keys -t t -l '%s'", texts[below(COUNT(texts))]);
            add(batch, size, command);
        } else if (dice < 90) {
            mouse(f, batch, size);
        } else {
            resize(f, batch, size);
        }
    }
}

/* ---------------------------------------------------------------- the run */

static int fuzz_seconds(void)
{
    const char *text = getenv("CLOTHSIM_FUZZ_SECONDS");
    int seconds = text ? atoi(text) : 3;
    return seconds > 0 ? seconds : 3;
}

static uint64_t fuzz_seed(void)
{
    const char *text = getenv("CLOTHSIM_FUZZ_SEED");
    if (text && *text)
        return strtoull(text, NULL, 10);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_sec * 1000003ULL) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
}

/* Whether the pane's shell has written the program's exit status. */
static bool program_ended(void)
{
    return access(exit_path, F_OK) == 0;
}

/* Whether the program's main thread waits in poll() for input: it has read
 * every key sent so far (it reads them all before it waits). A lesson that
 * skips a run computes for seconds: the fuzz waits for it now and then, or
 * the keys sent meanwhile would pile up for minutes. False if /proc does not
 * say. */
static bool program_waits_for_input(long pid)
{
    char path[64], wchan[128] = "";
    snprintf(path, sizeof path, "/proc/%ld/wchan", pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(wchan, 1, sizeof wchan - 1, f) : 0;
    if (f)
        fclose(f);
    wchan[n] = '\0';
    return strstr(wchan, "poll") != NULL;
}

/* Up to seconds for the program to wait for input; false if it never did. */
static bool wait_idle(long pid, double seconds)
{
    if (pid <= 0)
        return true;
    double deadline = now() + seconds;
    while (now() < deadline) {
        if (program_waits_for_input(pid) || program_ended())
            return true;
        pause_ms(5);
    }
    return false;
}

/* Polls the screen for text for up to seconds. */
static bool wait_long(const char *text, double seconds)
{
    double deadline = now() + seconds;
    while (now() < deadline) {
        if (capture() && strstr(screen, text))
            return true;
        if (program_ended())
            return false;
        pause_ms(50);
    }
    return false;
}

/* The stty modes the pane's shell saw after the program ("" if none). */
static const char *stty_text(void)
{
    static char text[4096];
    FILE *f = fopen(stty_path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    return text;
}

/* Runs args (the sandbox, or a lesson) under fuzz for the set time; ready is
 * text its screen shows once it runs, at 100 x 30. */
static void fuzz(const char *name, const char *args, const char *ready, const char *const *keys, int key_count)
{
    if (system("tmux -V >/dev/null 2>&1") != 0)
        cr_skip_test("tmux is not installed");
    uint64_t seed = fuzz_seed();
    int seconds = fuzz_seconds();
    rng_state = seed ? seed : 1;
    events = 0;
    int self = (int)getpid();
    snprintf(server, sizeof server, "clothsim-fuzz-%d", self);
    snprintf(exit_path, sizeof exit_path, "/tmp/clothsim-fuzz-%d.exit", self);
    snprintf(stty_path, sizeof stty_path, "/tmp/clothsim-fuzz-%d.stty", self);
    snprintf(err_path, sizeof err_path, "/tmp/clothsim-fuzz-%d.err", self);
    snprintf(state_path, sizeof state_path, "/tmp/clothsim-fuzz-%d.state", self);
    char command[4 * sizeof exit_path + 16];
    snprintf(command, sizeof command, "rm -rf %s %s %s %s", exit_path, stty_path, err_path, state_path);
    cr_assert_eq(system(command), 0);
    /* the terminal's modes are written before the exit status, which the
     * test waits for: under load the stty after it could still be running
     * when the test read its file (an empty text once, in CI) */
    int status = tmux_new_session("-d -s t -x 100 -y 30 \"sh -c 'XDG_STATE_HOME=%s %s %s 2>%s; e=\\$?; stty -a > %s; "
                                  "echo EXIT=\\$e > %s; sleep 120'\"",
                                  state_path, CLOTHSIM_BIN, args, err_path, stty_path, exit_path);
    cr_assert_eq(status, 0, "tmux could not start a session");
    cr_assert(wait_long(ready, 30.0), "%s did not start:\n%s\n%s", name, screen, program_stderr());

    long pid = pane_child_pid();
    if (!program_waits_for_input(pid) && !wait_idle(pid, 5.0) && !program_waits_for_input(pid))
        pid = 0; /* /proc does not tell: no pacing */
    Fuzz f = {keys, key_count, 100, 30};
    double start = now(), end = start + seconds;
    char batch[1024];
    int batches = 0;
    bool died = false, busy = false;
    while (now() < end) {
        batch_of_events(&f, batch, sizeof batch);
        tmux("%s", batch);
        batches++;
        int rest = below(10);
        pause_ms(rest < 6 ? below(15) : rest < 9 ? 20 + below(60) : 150 + below(250));
        if (batches % 8 == 0 && program_ended()) {
            died = true;
            break;
        }
        if (batches % 4 == 0 && !wait_idle(pid, 60.0)) {
            busy = true;
            break;
        }
    }
    cr_assert(!busy, "%s stopped reading keys for a minute, seed %llu; the last events:\n%s", name,
              (unsigned long long)seed, last_events());
    /* Enter on a lesson's last page closes it with status 0: a way out, not
     * a failure; the terminal must still be as it was */
    bool closed = (died || program_ended()) && args[0] && exit_status_within(1.0) == 0;
    cr_assert(closed || (!died && !program_ended()),
              "%s ended during the fuzz (status %d), seed %llu (CLOTHSIM_FUZZ_SEED=%llu to replay), "
              "after %ld events; the last:\n%s\nits standard error:\n%s",
              name, exit_status_within(1.0), (unsigned long long)seed, (unsigned long long)seed, events, last_events(),
              program_stderr());

    /* back to a size it draws at, then q */
    bool answers = true;
    tmux("resize-window -t t -x 100 -y 30");
    if (!closed) {
        answers = wait_long(ready, 30.0);
        pause_ms(500); /* tmux tells the pane its size a moment after the command */
        tmux("send-keys -t t q");
    }
    int exit = exit_status_within(30.0);
    if (closed)
        pause_ms(300); /* the shell's pane takes its new size */
    if (getenv("CLOTHSIM_FUZZ_SECONDS"))
        fprintf(stderr, "fuzz_keys %s: seed %llu, %ld events in %d batches over %.1f s, exit %d\n", name,
                (unsigned long long)seed, events, batches, now() - start, exit);
    cr_expect(answers, "%s does not draw after the fuzz, seed %llu; the last events:\n%s\nscreen:\n%s", name,
              (unsigned long long)seed, last_events(), screen);
    cr_assert_eq(exit, 0,
                 "%s did not end with status 0 on q (got %d), seed %llu (CLOTHSIM_FUZZ_SEED=%llu to replay); "
                 "the last events:\n%s\nits standard error:\n%s",
                 name, exit, (unsigned long long)seed, (unsigned long long)seed, last_events(), program_stderr());
    cr_expect_str_eq(pane_terminal_state(), "0 1 0 0 0 0,29", "%s left the terminal as %s, seed %llu", name,
                     pane_terminal_state(), (unsigned long long)seed);
    const char *modes = stty_text();
    cr_expect(strstr(modes, " icanon") && !strstr(modes, "-icanon") && strstr(modes, " echo ") &&
                  !strstr(modes, "-echo "),
              "%s left the terminal's modes as:\n%s\nseed %llu", name, modes, (unsigned long long)seed);
    snprintf(command, sizeof command, "rm -rf %s %s", err_path, state_path);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", state_path);
    stop();
}

/* .fini: a failed assertion ends the test before its own stop(), and the
 * tmux server would go on running the program (once found at 60 % of a
 * core half an hour later); stopping twice is harmless. */
Test(fuzz_keys, the_sandbox_survives_random_keys_mouse_and_resizes, .fini = stop)
{
    fuzz("the sandbox", "", " step ", sandbox_keys, COUNT(sandbox_keys));
}

Test(fuzz_keys, a_lesson_survives_random_keys_mouse_and_resizes, .fini = stop)
{
    fuzz("lesson 02", CLOTHSIM_SRCDIR "/lessons/02-euler-vs-verlet.lesson", "q quit", lesson_keys, COUNT(lesson_keys));
}

Test(fuzz_keys, a_lesson_of_many_pages_survives_random_keys_mouse_and_resizes, .fini = stop)
{
    fuzz("lesson 01", CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson", "q quit", lesson_keys, COUNT(lesson_keys));
}
