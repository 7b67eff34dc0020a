/* test_background_query.c - the start's question to the terminal (OSC 11,
 * then DA1) on a pseudo-terminal this test plays the terminal on: it
 * answers at once, late, or not at all, and clothsim must start without
 * hanging, take the colour it was told, and never act on a reply as if it
 * were keys. tmux cannot play these parts: it answers DA1 at once. */
#define _XOPEN_SOURCE 600
#include <criterion/criterion.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_BYTES (1 << 20)

static int master = -1;
static pid_t child = -1;
static char output[OUTPUT_BYTES];
static size_t output_length;

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* clothsim on a 100 x 30 pseudo-terminal of type xterm-256color. */
static void spawn(void)
{
    master = posix_openpt(O_RDWR | O_NOCTTY);
    cr_assert_geq(master, 0);
    cr_assert_eq(grantpt(master), 0);
    cr_assert_eq(unlockpt(master), 0);
    const char *name = ptsname(master);
    cr_assert(name);
    struct winsize size = {.ws_row = 30, .ws_col = 100};
    output_length = 0;
    child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) {
        setsid();
        int slave = open(name, O_RDWR);
        if (slave < 0)
            _exit(127);
        ioctl(slave, TIOCSCTTY, 0);
        ioctl(slave, TIOCSWINSZ, &size);
        dup2(slave, 0), dup2(slave, 1), dup2(slave, 2);
        close(slave);
        close(master);
        setenv("TERM", "xterm-256color", 1);
        setenv("LANG", "C.UTF-8", 1);
        unsetenv("COLORFGBG");
        unsetenv("NO_COLOR");
        execl(CLOTHSIM_BIN, "clothsim", (char *)NULL);
        _exit(127);
    }
}

/* Reads what clothsim writes for up to s seconds, or until text appears
 * after byte from; returns whether it did. */
static bool read_until(double s, const char *text, size_t from)
{
    double end = seconds() + s;
    for (;;) {
        output[output_length] = '\0';
        if (text && from <= output_length && strstr(output + from, text))
            return true;
        int left = (int)((end - seconds()) * 1000.0);
        if (left <= 0)
            return false;
        struct pollfd fd = {.fd = master, .events = POLLIN};
        if (poll(&fd, 1, left) <= 0)
            continue;
        ssize_t n = read(master, output + output_length, OUTPUT_BYTES - 1 - output_length);
        if (n <= 0)
            return false;
        output_length += (size_t)n;
    }
}

static void say(const char *bytes)
{
    cr_assert_eq(write(master, bytes, strlen(bytes)), (ssize_t)strlen(bytes));
}

/* q, then the exit status (-1 if it did not end within 5 s). */
static int quit(void)
{
    say("q");
    int status = -1;
    double end = seconds() + 5.0;
    while (seconds() < end) {
        read_until(0.05, NULL, 0);
        pid_t done = waitpid(child, &status, WNOHANG);
        if (done == child) {
            close(master);
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
    }
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    close(master);
    return -1;
}

static const char osc_query[] = "\033]11;?\033\\";
static const char white[] = "\033]11;rgb:ffff/ffff/ffff\033\\";
static const char attributes[] = "\033[?64;1;2;6;22c";

Test(background_query, a_terminal_that_answers_is_read_at_once, .timeout = 20)
{
    spawn();
    cr_assert(read_until(5.0, osc_query, 0), "no OSC 11 query");
    say("\033]11;rgb:ffff/ffff/ffff\a"); /* BEL-ended, as some terminals answer */
    say(attributes);
    cr_expect(read_until(5.0, " step ", 0), "no status line");
    cr_expect(read_until(2.0, "38;5;94m", 0), "not the light palette after a white answer");
    cr_expect(!strstr(output, "38;5;220m"), "the dark palette's gold on white");
    cr_expect_eq(quit(), 0);
}

Test(background_query, a_terminal_that_does_not_answer_does_not_hold_the_start, .timeout = 20)
{
    spawn();
    cr_assert(read_until(5.0, osc_query, 0), "no OSC 11 query");
    double asked = seconds();
    cr_expect(read_until(5.0, " step ", 0), "no status line");
    double waited = seconds() - asked;
    cr_expect_lt(waited, 1.0, "the first frame came %.2f s after the query", waited);
    cr_expect(strstr(output, "38;5;220m"), "not the dark palette without an answer");
    cr_expect_eq(quit(), 0);
}

/* After the late answer: the keys a reply would have been, acted on. */
static void expect_no_reply_acted_as_keys(size_t mark)
{
    read_until(1.0, NULL, 0);
    output[output_length] = '\0';
    const char *after = output + mark;
    const char *signs[] = {"euler", "symplectic", "verlet", "gravity=", "frozen", "iterations"};
    for (size_t k = 0; k < sizeof signs / sizeof signs[0]; k++)
        cr_expect(!strstr(after, signs[k]), "the reply acted as keys: '%s' on screen", signs[k]);
}

Test(background_query, a_late_answer_is_no_keys_and_still_sets_the_palette, .timeout = 20)
{
    spawn();
    cr_assert(read_until(5.0, osc_query, 0), "no OSC 11 query");
    cr_assert(read_until(5.0, " step ", 0), "no status line");
    read_until(0.3, NULL, 0);
    size_t mark = output_length;
    /* as keys these would be Esc ] 1 1 ; r g b : f ... : iterations up,
     * Euler, reset, grab, freeze; and DA1's: compare, integrators */
    say(white);
    say(attributes);
    cr_expect(read_until(3.0, "38;5;94m", mark), "a late white answer did not bring the light palette");
    expect_no_reply_acted_as_keys(mark);
    cr_expect_eq(quit(), 0);
}

Test(background_query, a_key_typed_during_the_wait_is_kept, .timeout = 20)
{
    spawn();
    cr_assert(read_until(5.0, osc_query, 0), "no OSC 11 query");
    say("3"); /* verlet, typed while the start reads the replies */
    say(white);
    say(attributes);
    cr_expect(read_until(5.0, "verlet", 0), "the key typed during the wait was lost");
    cr_expect(strstr(output, "38;5;94m"), "not the light palette after a white answer");
    cr_expect_eq(quit(), 0);
}

static void pause_seconds(double s)
{
    nanosleep(&(struct timespec){.tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)}, NULL);
}

/* GNU screen answers DA1 at once itself and passes OSC 11 on to the
 * terminal outside, whose answer comes after the wait, and after DA1's. */
Test(background_query, a_background_answer_after_the_multiplexers_da1_is_no_keys, .timeout = 20)
{
    spawn();
    cr_assert(read_until(5.0, osc_query, 0), "no OSC 11 query");
    say(attributes);
    cr_assert(read_until(5.0, " step ", 0), "no status line");
    read_until(0.5, NULL, 0);
    size_t mark = output_length;
    say(white);
    cr_expect(read_until(3.0, "38;5;94m", mark), "a late white answer did not bring the light palette");
    expect_no_reply_acted_as_keys(mark);
    cr_expect_eq(quit(), 0);
}

/* A reply split across reads (ESC alone, the rest a moment later), and one
 * after the window for late replies: neither is keys. */
Test(background_query, a_split_or_very_late_answer_is_no_keys, .timeout = 30)
{
    spawn();
    cr_assert(read_until(5.0, osc_query, 0), "no OSC 11 query");
    cr_assert(read_until(5.0, " step ", 0), "no status line");
    read_until(0.3, NULL, 0);
    size_t mark = output_length;
    say("\033");
    pause_seconds(0.02);
    say("]11;rgb:ffff/ffff/ffff\033\\");
    cr_expect(read_until(3.0, "38;5;94m", mark), "a split white answer did not bring the light palette");
    expect_no_reply_acted_as_keys(mark);
    read_until(5.5, NULL, 0); /* past the window for late replies */
    mark = output_length;
    say("\033]11;rgb:0000/0000/0000\033\\");
    say(attributes);
    expect_no_reply_acted_as_keys(mark);
    cr_expect_eq(quit(), 0);
}
