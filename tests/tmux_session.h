/* tmux_session.h - drive clothsim in a detached tmux session, as a person
 * would: keys in with send-keys, the screen back with capture-pane. Shared
 * by the front end's end-to-end tests. Each test sets `server` to a socket
 * name of its own. */
#ifndef CLOTHSIM_TEST_TMUX_SESSION_H
#define CLOTHSIM_TEST_TMUX_SESSION_H

#include <stdbool.h>

#define SCREEN_BYTES 65536
/* How long a wait for the screen lasts before it fails, s: 8, times
 * CLOTHSIM_TEST_SLOW (a factor of 1 to 20, default 1) where the program
 * runs slower than real time: make sanitize and make test-load set 3. A
 * passing test waits only as long as the screen takes. */
double wait_seconds(void);
#define WAIT_SECONDS (wait_seconds())

extern char server[64];     /* the tmux socket name */
extern char exit_path[128]; /* where the pane's shell writes EXIT=status */
extern char stty_path[128]; /* and the terminal's modes after clothsim ends */
extern char screen[SCREEN_BYTES];

double now(void);
void pause_ms(int ms);
/* Runs "tmux -L server ARGS"; returns its exit status. */
int tmux(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* Runs "tmux -L server new-session ARGS", trying again (after killing a
 * half-started server) when two servers starting at once trip over each
 * other; returns the last exit status. */
int tmux_new_session(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* The pane's text, as lines; false if tmux failed. */
bool capture(void);
/* The same with the colours and attributes as escape sequences (-e). */
bool capture_colours(void);
/* Polls the screen until it contains text (or, with absent, until it does
 * not); false at the deadline. */
bool wait_screen(const char *text, bool absent);
bool wait_for(const char *text);
/* The simulated time on the status line ("t 2.97 s", or "t 2,97 с") of
 * the last capture, or -1 where there is none. */
double simulated_seconds(void);
/* Polls until the screen contains text, or the status line's simulated
 * time passes sim_seconds, or wall_seconds pass; true if the text came.
 * For what takes simulated time: the sanitizer build on a busy machine
 * steps slower than real time. */
bool wait_simulated(const char *text, double sim_seconds, double wall_seconds);
/* Kills the server, removes its socket file and the exit/stty files. */
void stop(void);
/* Waits for the exit status the pane's shell writes; -1 at the deadline. */
int exit_status(void);
/* The same with a deadline of seconds. */
int exit_status_within(double seconds);
/* The pid of the program the pane's shell runs (its child); 0 if none. */
long pane_child_pid(void);
/* What tmux says of the pane's terminal: "alternate screen, cursor shown,
 * any mouse mode, keypad cursor mode, keypad mode, scroll region", as
 * "0 1 0 0 0 0,29" for a window of 30 rows given back whole. */
const char *pane_terminal_state(void);

#endif
