/* tmux_session.c - see tmux_session.h. */
#include "tmux_session.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char server[64];     /* the tmux socket name */
char exit_path[128]; /* where the pane's shell writes EXIT=status */
char stty_path[128]; /* and the terminal's modes after clothsim ends */
char screen[SCREEN_BYTES];

double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double wait_seconds(void)
{
    const char *slow = getenv("CLOTHSIM_TEST_SLOW");
    double factor = slow ? strtod(slow, NULL) : 1.0;
    if (!(factor >= 1.0))
        factor = 1.0;
    if (factor > 20.0)
        factor = 20.0;
    return 8.0 * factor;
}

void pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Runs "tmux -L server ARGS"; returns its exit status. */
int tmux(const char *format, ...)
{
    char args[1024], command[1200];
    va_list ap;
    va_start(ap, format);
    vsnprintf(args, sizeof args, format, ap);
    va_end(ap);
    snprintf(command, sizeof command, "tmux -f /dev/null -L %s %s >/dev/null 2>&1", server, args);
    return system(command);
}

int tmux_new_session(const char *format, ...)
{
    char args[1024];
    va_list ap;
    va_start(ap, format);
    vsnprintf(args, sizeof args, format, ap);
    va_end(ap);
    int status = -1;
    for (int attempt = 0; attempt < 3 && status != 0; attempt++) {
        if (attempt > 0) {
            tmux("kill-server");
            pause_ms(200);
        }
        status = tmux("new-session %s", args);
    }
    return status;
}

/* The pane's text, as lines, with capture-pane's flags; false if tmux failed. */
static bool capture_with(const char *flags)
{
    char command[256];
    snprintf(command, sizeof command, "tmux -L %s capture-pane %s -p -t t 2>/dev/null", server, flags);
    FILE *f = popen(command, "r");
    if (!f)
        return false;
    size_t n = fread(screen, 1, sizeof screen - 1, f);
    screen[n] = '\0';
    return pclose(f) == 0;
}

bool capture(void)
{
    return capture_with("");
}

bool capture_colours(void)
{
    return capture_with("-e");
}

/* Polls the screen until it contains text (or, with absent, until it does
 * not); false at the deadline. A frame reaches tmux in more than one write
 * when it is larger than ncurses's output buffer, and a capture between two
 * of them holds the top of the new frame over the bottom of the old one: a
 * page's first line with the last page's notes under it. So a match is
 * looked at again a little later, when the frame has arrived whole, and the
 * screen the caller reads is that second one. */
bool wait_screen(const char *text, bool absent)
{
    double deadline = now() + WAIT_SECONDS;
    while (now() < deadline) {
        if (capture() && (strstr(screen, text) != NULL) != absent) {
            pause_ms(30);
            if (capture() && (strstr(screen, text) != NULL) != absent)
                return true;
        }
        pause_ms(40);
    }
    return false;
}

bool wait_for(const char *text)
{
    return wait_screen(text, false);
}

double simulated_seconds(void)
{
    const char *t = strstr(screen, " t ");
    if (!t)
        return -1.0;
    char number[32];
    size_t n = 0;
    for (t += 3; n + 1 < sizeof number && (isdigit((unsigned char)*t) || *t == '.' || *t == ','); t++)
        number[n++] = *t == ',' ? '.' : *t;
    number[n] = '\0';
    return n ? strtod(number, NULL) : -1.0;
}

bool wait_simulated(const char *text, double sim_seconds, double wall_seconds)
{
    double deadline = now() + wall_seconds;
    while (now() < deadline) {
        if (capture()) {
            if (strstr(screen, text))
                return true;
            if (simulated_seconds() > sim_seconds)
                return false;
        }
        pause_ms(100);
    }
    return false;
}

/* Kills the test's tmux server and removes its files. */
void stop(void)
{
    /* the socket file can outlive its server: remove it too */
    char command[256], path[512] = "";
    snprintf(command, sizeof command, "tmux -L %s display -p '#{socket_path}' 2>/dev/null", server);
    FILE *f = popen(command, "r");
    if (f) {
        if (!fgets(path, sizeof path, f))
            path[0] = '\0';
        pclose(f);
    }
    path[strcspn(path, "\n")] = '\0';
    tmux("kill-server");
    if (path[0])
        unlink(path);
    unlink(exit_path);
    unlink(stty_path);
}

/* Waits for the exit status the pane's shell writes; -1 at the deadline. */
int exit_status(void)
{
    return exit_status_within(WAIT_SECONDS);
}

int exit_status_within(double seconds)
{
    double deadline = now() + seconds;
    while (now() < deadline) {
        FILE *f = fopen(exit_path, "r");
        int status = -1;
        if (f) {
            int got = fscanf(f, "EXIT=%d", &status);
            fclose(f);
            if (got == 1)
                return status;
        }
        pause_ms(40);
    }
    return -1;
}

long pane_child_pid(void)
{
    char command[256], line[64] = "";
    snprintf(command, sizeof command,
             "tmux -L %s display -p -t t '#{pane_pid}' | xargs -I{} cat /proc/{}/task/{}/children", server);
    FILE *f = popen(command, "r");
    if (!f)
        return 0;
    char *got = fgets(line, sizeof line, f);
    pclose(f);
    return got ? strtol(line, NULL, 10) : 0;
}

const char *pane_terminal_state(void)
{
    static char state[128];
    char command[384];
    snprintf(command, sizeof command,
             "tmux -L %s display -p -t t '#{alternate_on} #{cursor_flag} #{mouse_any_flag} "
             "#{keypad_cursor_flag} #{keypad_flag} #{scroll_region_upper},#{scroll_region_lower}'",
             server);
    state[0] = '\0';
    FILE *f = popen(command, "r");
    if (f) {
        if (!fgets(state, sizeof state, f))
            state[0] = '\0';
        pclose(f);
    }
    state[strcspn(state, "\n")] = '\0';
    return state;
}
