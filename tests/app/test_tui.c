/* test_tui.c - the terminal front end, tested as a person uses it: clothsim
 * runs in a detached tmux session of known size; keys go in with send-keys
 * and the screen comes back with capture-pane. Each test has its own tmux
 * server (-L clothsim-test-PID) and kills it at the end. Waits poll the
 * screen with a deadline instead of sleeping a fixed time. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tmux_session.h"

/* The N of "step N" on the status line, or -1. */
static long status_step(void)
{
    const char *p = strstr(screen, " step ");
    return p ? strtol(p + 6, NULL, 10) : -1;
}

/* Starts clothsim with env (may be "") and args in a width x height pane;
 * the shell around it records the exit status and the terminal's modes. */
static void start(const char *env, const char *args, int width, int height)
{
    if (system("tmux -V >/dev/null 2>&1") != 0)
        cr_skip_test("tmux is not installed");
    snprintf(server, sizeof server, "clothsim-test-%d", (int)getpid());
    snprintf(exit_path, sizeof exit_path, "/tmp/clothsim-test-%d.exit", (int)getpid());
    snprintf(stty_path, sizeof stty_path, "/tmp/clothsim-test-%d.stty", (int)getpid());
    unlink(exit_path);
    unlink(stty_path);
    /* the modes before the exit status, which the tests wait for */
    int status = tmux_new_session("-d -s t -x %d -y %d \"sh -c '%s %s %s; e=\\$?; stty -a > %s; echo EXIT=\\$e > %s; "
                                  "sleep 60'\"",
                                  width, height, env, CLOTHSIM_BIN, args, stty_path, exit_path);
    cr_assert_eq(status, 0, "tmux could not start a session");
}

static bool has_braille(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; p[0] && p[1]; p++)
        if (p[0] == 0xE2 && p[1] >= 0xA0 && p[1] <= 0xA3)
            return true;
    return false;
}

static bool all_ascii(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p >= 0x80)
            return false;
    return true;
}

/* The first line of the screen (the status line). */
static const char *status_line(void)
{
    static char line[512];
    size_t n = strcspn(screen, "\n");
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, screen, n);
    line[n] = '\0';
    return line;
}

/* The pid of clothsim, the child of the pane's shell; 0 if none. */
static long clothsim_pid(void)
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

/* What tmux says of the pane's terminal: "alternate screen, cursor shown,
 * any mouse mode, keypad cursor mode, keypad mode, scroll region". */
static const char *terminal_state(void)
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

/* The state of a terminal given back whole, for a window of 30 rows. */
#define RESTORED_STATE "0 1 0 0 0 0,29"

Test(tui, draws_the_cloth_and_the_status_line_then_quits_with_status_0, .timeout = 30)
{
    start("", "", 100, 30);
    cr_assert(wait_for(" step "), "no status line:\n%s", screen);
    cr_expect(strstr(status_line(), "jakobsen") != NULL, "integrator not named: %s", status_line());
    cr_expect(strstr(screen, "Gravity") && strstr(screen, "Wind X") && strstr(screen, "Sphere"), "no panel:\n%s",
              screen);
    cr_expect(strstr(screen, "energy") && strstr(screen, "max strain"), "no plots:\n%s", screen);
    cr_expect(has_braille(screen), "no cloth drawn in braille:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, pause_stops_the_step_counter_and_n_steps_exactly_once, .timeout = 30)
{
    start("", "", 100, 30);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t Space");
    cr_assert(wait_for("paused"), "no pause shown:\n%s", status_line());
    long paused = status_step();
    pause_ms(300);
    capture();
    cr_expect_eq(status_step(), paused, "the step counter moved while paused: %s", status_line());
    char expected[64];
    snprintf(expected, sizeof expected, " step %ld ", paused + 1);
    tmux("send-keys -t t n");
    cr_expect(wait_for(expected), "n did not advance one step from %ld: %s", paused, status_line());
    pause_ms(200);
    capture();
    cr_expect_eq(status_step(), paused + 1, "%s", status_line());
    tmux("send-keys -t t Space");
    cr_expect(wait_screen("paused", true), "Space did not resume");
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, keys_1_to_7_and_tab_name_the_integrator, .timeout = 30)
{
    start("", "", 100, 30);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t 3");
    cr_expect(wait_for(" verlet "), "3 did not choose verlet: %s", status_line());
    tmux("send-keys -t t 6");
    cr_expect(wait_for(" xpbd "), "6 did not choose xpbd: %s", status_line());
    tmux("send-keys -t t 7");
    cr_expect(wait_for(" implicit "), "7 did not choose implicit: %s", status_line());
    tmux("send-keys -t t Tab");
    cr_expect(wait_for(" euler "), "Tab did not wrap to euler: %s", status_line());
    cr_expect(wait_for("EXPLODED at t = "), "euler at the defaults should explode with a banner:\n%s", screen);
    cr_expect(strstr(screen, "r resets") != NULL, "the banner says how to start again:\n%s", screen);
    cr_expect(strstr(screen, "Euler gains energy") != NULL, "the banner says why:\n%s", screen);
    tmux("send-keys -t t Space r"); /* paused, so that euler does not explode again at once */
    cr_expect(wait_screen("EXPLODED at", true), "r did not reset the explosion");
    cr_expect(wait_for("paused"), "%s", status_line());
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, a_small_terminal_shows_a_notice_and_recovers, .timeout = 30)
{
    start("", "", 100, 30);
    cr_assert(wait_for(" step "));
    tmux("resize-window -t t -x 30 -y 10");
    cr_expect(wait_for("too small"), "no notice at 30 x 10:\n%s", screen);
    tmux("resize-window -t t -x 100 -y 30");
    cr_expect(wait_for(" step "), "no status line after growing back:\n%s", screen);
    cr_expect(wait_for("Gravity"));
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, works_without_colour, .timeout = 30)
{
    start("NO_COLOR=1", "", 100, 30);
    cr_assert(wait_for(" step "), "no status line with NO_COLOR:\n%s", screen);
    cr_expect(has_braille(screen));
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, a_c_locale_and_an_8_colour_terminal_get_ascii_only, .timeout = 30)
{
    start("LANG=C LC_ALL=C TERM=xterm", "", 100, 30);
    cr_assert(wait_for(" step "), "no status line under LANG=C:\n%s", screen);
    cr_expect(wait_for("Gravity"));
    cr_expect(all_ascii(screen), "non-ASCII output under LANG=C:\n%s", screen);
    tmux("send-keys -t t ?");
    cr_expect(wait_for("pause / resume"), "no help overlay:\n%s", screen);
    cr_expect(all_ascii(screen), "non-ASCII help under LANG=C:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

/* The lasting choices in $XDG_CONFIG_HOME/clothsim/config are taken: a
 * teacher's "ascii = yes" draws in ASCII in a UTF-8 locale. */
Test(tui, the_configuration_file_is_taken, .timeout = 30)
{
    char folder[128], env[200];
    snprintf(folder, sizeof folder, "/tmp/clothsim-test-config-%d", (int)getpid());
    char command[400];
    snprintf(command, sizeof command, "mkdir -p %s/clothsim && printf 'ascii = yes\\n' > %s/clothsim/config", folder,
             folder);
    cr_assert_eq(system(command), 0);
    snprintf(env, sizeof env, "XDG_CONFIG_HOME=%s", folder);
    start(env, "", 100, 30);
    cr_assert(wait_for(" step "), "no status line:\n%s", screen);
    cr_expect(wait_for("Gravity"));
    cr_expect(all_ascii(screen), "the file's ascii = yes not taken:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    snprintf(command, sizeof command, "rm -rf %s", folder);
    cr_expect_eq(system(command), 0);
}

Test(tui, sigterm_restores_the_terminal, .timeout = 30)
{
    start("", "", 100, 30);
    cr_assert(wait_for(" step "));
    long pid = clothsim_pid();
    cr_assert_gt(pid, 0, "no clothsim process found");
    cr_assert_eq(kill((pid_t)pid, SIGTERM), 0);
    cr_expect_eq(exit_status(), 128 + SIGTERM);
    cr_expect(wait_screen(" step ", true), "the sandbox's screen is still shown:\n%s", screen);
    FILE *modes = fopen(stty_path, "r");
    cr_assert(modes, "no stty output");
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, modes);
    text[n] = '\0';
    fclose(modes);
    cr_expect(strstr(text, " icanon") && !strstr(text, "-icanon"), "icanon left off:\n%s", text);
    cr_expect(strstr(text, " echo ") && !strstr(text, "-echo "), "echo left off:\n%s", text);
    stop();
}

Test(tui, a_settled_scene_stops_stepping_until_a_key, .timeout = 180)
{
    /* the net, with no wind and no moving collider, comes to rest in ~2 s
     * of simulated time (waited for as such: under the sanitizers on a
     * busy machine that is many seconds of the wall's) */
    start("", "--scene net", 100, 30);
    cr_assert(wait_for(" step "));
    cr_assert(wait_simulated("settled", 8.0, 150.0), "never settled: %s", status_line());
    long settled = status_step();
    cr_expect(settled > 60, "settled only after it moved: step %ld", settled);
    pause_ms(500);
    capture();
    cr_expect_eq(status_step(), settled, "it kept stepping: %s", status_line());
    tmux("send-keys -t t w"); /* any key wakes it (wind stays off in the net's plane) */
    cr_expect(wait_screen("settled", true), "a key did not wake it");
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

/* ---------------------------------------------------------------- keys */

Test(tui, non_ascii_keys_are_ignored_not_read_as_control_keys, .timeout = 30)
{
    /* ń (c5 84) stripped of its top bits is E and ^D (quit); ö (c3 b6) is C
     * and 6 (xpbd); ñ (c3 b1) is C and 1 (euler). (Cyrillic letters are
     * keys by their place: the next test.) */
    start("", "", 100, 30);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t -l 'ńöñ'");
    tmux("send-keys -t t Space"); /* paused: the keys before it have been read */
    cr_assert(wait_for("paused"), "the sandbox ended or stopped reading keys:\n%s", screen);
    cr_expect(strstr(status_line(), " jakobsen ") != NULL, "a non-ASCII key changed the integrator: %s", status_line());
    cr_expect(strstr(screen, "Pin               top") != NULL, "a non-ASCII key changed the pinning:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

/* On a Ukrainian or Russian layout the letters do what their keys do: т
 * (the n key) steps once, Й (Q) ... й (q) quits. */
Test(tui, cyrillic_letters_are_the_keys_they_sit_on, .timeout = 30)
{
    start("", "", 100, 30);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t Space");
    cr_assert(wait_for("paused"), "no pause shown:\n%s", status_line());
    long paused = status_step();
    char expected[64];
    snprintf(expected, sizeof expected, " step %ld ", paused + 1);
    tmux("send-keys -t t -l 'т'");
    cr_expect(wait_for(expected), "т did not step as n does: %s", status_line());
    tmux("send-keys -t t -l 'й'");
    cr_expect_eq(exit_status(), 0, "й did not quit as q does");
    stop();
}

/* The text of a file, NUL-terminated, in a static buffer ("" if none). */
static const char *file_text(const char *path)
{
    static char text[1 << 20];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    return text;
}

Test(tui, typed_keys_are_not_echoed, .timeout = 30)
{
    /* ncurses's echo wrote each key at the cursor, over the status line,
     * until the next frame: the recording holds every byte sent */
    char cast[128], args[192];
    snprintf(cast, sizeof cast, "/tmp/clothsim-test-%d.cast", (int)getpid());
    snprintf(args, sizeof args, "--scene net --record %s", cast);
    start("", args, 100, 30);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t Space");
    cr_assert(wait_for("paused"));
    tmux("send-keys -t t -l zyx"); /* bound to nothing */
    pause_ms(300);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    const char *text = file_text(cast);
    cr_assert(strstr(text, "\"version\": 2") != NULL, "no recording");
    cr_expect(strstr(text, "\"o\", \"z\"]") == NULL && strstr(text, "\"o\", \"y\"]") == NULL &&
                  strstr(text, "\"o\", \"x\"]") == NULL,
              "a typed key was echoed to the terminal");
    unlink(cast);
    stop();
}

/* ---------------------------------------------------------------- signals */

/* Ends the sandbox with sig and checks that the terminal is as it was:
 * the normal screen, the cursor shown, no mouse reporting, no keypad mode,
 * the scroll region the whole window. */
static void signal_restores_the_terminal(int sig)
{
    start("", "", 100, 30);
    cr_assert(wait_for(" step "));
    long pid = clothsim_pid();
    cr_assert_gt(pid, 0, "no clothsim process found");
    cr_assert_eq(kill((pid_t)pid, sig), 0);
    cr_expect_eq(exit_status(), 128 + sig, "signal %d did not end the sandbox", sig);
    cr_expect_str_eq(terminal_state(), RESTORED_STATE, "signal %d left the terminal as: %s", sig, terminal_state());
    stop();
}

Test(tui, sigquit_restores_the_terminal, .timeout = 30)
{
    signal_restores_the_terminal(SIGQUIT);
}

Test(tui, sigusr1_restores_the_terminal, .timeout = 30)
{
    signal_restores_the_terminal(SIGUSR1);
}

Test(tui, sigalrm_restores_the_terminal, .timeout = 30)
{
    signal_restores_the_terminal(SIGALRM);
}

Test(tui, sigpipe_ends_the_sandbox_and_restores_the_terminal, .timeout = 30)
{
    signal_restores_the_terminal(SIGPIPE);
}

Test(tui, sighup_restores_the_terminal_and_the_scroll_region, .timeout = 30)
{
    signal_restores_the_terminal(SIGHUP);
}

Test(tui, q_restores_the_terminal_and_the_scroll_region, .timeout = 30)
{
    start("", "", 100, 30);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    cr_expect_str_eq(terminal_state(), RESTORED_STATE, "q left the terminal as: %s", terminal_state());
    stop();
}

Test(tui, q_in_the_lesson_menu_restores_the_scroll_region, .timeout = 30)
{
    start("", "learn", 100, 30);
    cr_assert(wait_for("lessons"), "no menu:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    cr_expect_str_eq(terminal_state(), RESTORED_STATE, "q in the menu left the terminal as: %s", terminal_state());
    stop();
}

Test(tui, sigterm_in_a_lesson_restores_the_scroll_region, .timeout = 30)
{
    start("XDG_STATE_HOME=/tmp/clothsim-test-state", "lessons/01-meet-the-cloth.lesson", 100, 30);
    cr_assert(wait_for("q quit"), "no lesson:\n%s", screen);
    long pid = clothsim_pid();
    cr_assert_gt(pid, 0, "no clothsim process found");
    cr_assert_eq(kill((pid_t)pid, SIGTERM), 0);
    cr_expect_eq(exit_status(), 128 + SIGTERM);
    cr_expect_str_eq(terminal_state(), RESTORED_STATE, "SIGTERM in a lesson left the terminal as: %s",
                     terminal_state());
    stop();
}

Test(tui, ctrl_z_suspends_and_fg_brings_the_screen_back, .timeout = 40)
{
    /* an interactive shell with job control, as a person has */
    if (system("tmux -V >/dev/null 2>&1") != 0)
        cr_skip_test("tmux is not installed");
    snprintf(server, sizeof server, "clothsim-test-%d", (int)getpid());
    snprintf(exit_path, sizeof exit_path, "/tmp/clothsim-test-%d.exit", (int)getpid());
    snprintf(stty_path, sizeof stty_path, "/tmp/clothsim-test-%d.stty", (int)getpid());
    unlink(exit_path);
    cr_assert_eq(tmux_new_session("-d -s t -x 100 -y 30 'env PS1=\\$\\  bash --norc --noprofile -i'"), 0);
    tmux("send-keys -t t '%s' Enter", CLOTHSIM_BIN);
    cr_assert(wait_for(" step "), "the sandbox did not start:\n%s", screen);
    tmux("send-keys -t t C-z");
    /* the shell's "Stopped" is in the locale's language: the state says it */
    double deadline = now() + WAIT_SECONDS;
    while (strcmp(terminal_state(), RESTORED_STATE) != 0 && now() < deadline)
        pause_ms(40);
    cr_expect_str_eq(terminal_state(), RESTORED_STATE, "suspended, the terminal is left as: %s", terminal_state());
    cr_expect(wait_screen(" step ", true), "the sandbox's screen is still shown:\n%s", screen);
    tmux("send-keys -t t fg Enter");
    cr_expect(wait_for(" step "), "fg did not bring the screen back:\n%s", screen);
    cr_expect(wait_for("Gravity"), "fg did not bring the panel back:\n%s", screen);
    cr_expect_str_eq(terminal_state(), "1 0 1 1 1 0,29", "after fg the terminal is: %s", terminal_state());
    tmux("send-keys -t t 3");
    cr_expect(wait_for(" verlet "), "keys do not reach the sandbox after fg: %s", status_line());
    tmux("send-keys -t t q");
    /* the shell's line only once the sandbox is gone, or it reads the keys */
    cr_expect(wait_screen(" step ", true), "q did not end the sandbox after fg:\n%s", screen);
    pause_ms(200);
    tmux("send-keys -t t 'echo EXIT=$? > %s' Enter", exit_path);
    cr_expect_eq(exit_status(), 0);
    stop();
}

/* ---------------------------------------------------------------- terminals */

Test(tui, a_terminal_that_cannot_place_the_cursor_is_refused_with_status_2, .timeout = 30)
{
    start("TERM=dumb", "", 100, 30);
    cr_expect_eq(exit_status(), 2);
    capture();
    cr_expect(strstr(screen, "cannot place the cursor") && strstr(screen, "--frames"),
              "no sentence saying what would work:\n%s", screen);
    cr_expect(strstr(screen, " step ") == NULL, "a frame was drawn:\n%s", screen);
    stop();
}

Test(tui, the_linux_console_gets_ascii_and_no_frame_is_left_after_q, .timeout = 30)
{
    /* its fonts have no braille or half blocks; it has no other screen to
     * go back to, so the last frame must be cleared */
    /* ncurses's mouse set-up there loads GPM, which keeps 10 bytes: the full
     * stack lets the sanitizer build's suppression (tests/lsan.supp) find it */
    start("TERM=linux ASAN_OPTIONS=fast_unwind_on_malloc=0", "", 100, 30);
    cr_assert(wait_for(" step "), "no status line on TERM=linux:\n%s", screen);
    cr_expect(wait_for("Gravity"));
    cr_expect(all_ascii(screen), "non-ASCII output on the Linux console:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    cr_expect(wait_screen("Gravity", true), "the last frame is left on screen:\n%s", screen);
    stop();
}

/* A type this system's terminfo does not know (kitty's, without Debian's
 * ncurses-term) is told what would work. */
Test(tui, an_unknown_terminal_type_is_told_what_would_work, .timeout = 30)
{
    start("TERM=clothsim-no-such-terminal", "", 200, 30);
    cr_expect(wait_for("ncurses-term"), "no hint:\n%s", screen);
    cr_expect(strstr(screen, "start with TERM=xterm-256") != NULL, "no TERM to try:\n%s", screen);
    cr_expect_eq(exit_status(), 1);
    stop();
}

Test(tui, a_vt100_is_left_without_the_last_frame, .timeout = 30)
{
    start("TERM=vt100", "", 100, 30);
    cr_assert(wait_for(" step "), "no status line on TERM=vt100:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    cr_expect(wait_screen(" step ", true), "the last frame is left on screen:\n%s", screen);
    /* terminfo's padding ($<50> in vt100's clear) is a delay, not text */
    cr_expect(strstr(screen, "$<") == NULL, "padding left on screen:\n%s", screen);
    stop();
}

/* ---------------------------------------------------------------- issue 14 */

/* Each of these crashed: a SIGSEGV on ./clothsim, or a use-after-free that
 * the sanitizer build (make sanitize runs this suite on it) reports. */

Test(tui, c_while_a_particle_is_held_compares_and_lets_go, .timeout = 30)
{
    /* the comparison's new pane had no solver yet when the grab was released */
    start("", "", 100, 30);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t g");
    cr_assert(wait_for("holding particle"), "g took no particle:\n%s", screen);
    tmux("send-keys -t t c");
    cr_expect(wait_for("comparing gravity"), "c did not compare (or the sandbox crashed):\n%s", screen);
    cr_expect(wait_for("gravity=9.81"), "no pane labelled with its value:\n%s", screen);
    tmux("send-keys -t t c c c"); /* three panes, four, then the end */
    cr_expect(wait_for("comparison ended"), "c did not end the comparison:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, a_compared_value_the_scene_refuses_leaves_the_sandbox_as_it_was, .timeout = 30)
{
    /* Sphere rad. 0.25 raised to 0.45: c compares it with 0.65, a sphere
     * the curtain refuses; the second pane was left with no solver */
    start("", "", 100, 30);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t Down Down Down Down Down Down Down Down Right Right Right Right"); /* past Collider */
    cr_assert(wait_for("sphere_radius 0.45"), "Sphere rad. not raised to 0.45:\n%s", screen);
    tmux("send-keys -t t c");
    cr_expect(wait_for("cannot compare sphere_radius=0.65"), "no message saying the comparison was refused:\n%s",
              screen);
    cr_expect(strstr(screen, "sphere_radius=0.45") == NULL, "a pane of the refused comparison is shown:\n%s", screen);
    tmux("send-keys -t t Space");
    cr_expect(wait_for("paused"), "the sandbox stopped answering:\n%s", screen);
    cr_expect(strstr(screen, "Sphere rad.") && strstr(screen, "0.45"), "the setting did not stay at 0.45:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

/* Two pages of two panes and no run: every page change rebuilds the panes. */
static const char two_page_lesson[] = "title Two pages of two panes\n"
                                      "summary Pages that rebuild their panes\n"
                                      "duration 1 min\n"
                                      "pane left \"Left pane\" integrator=verlet\n"
                                      "pane right \"Right pane\" integrator=symplectic\n"
                                      "page The first page\n"
                                      "> The first page's words.\n"
                                      "page The second page\n"
                                      "> The second page's words.\n";

Test(tui, a_resize_right_after_a_lesson_rebuilds_its_panes_draws_live_solvers, .timeout = 40)
{
    /* r and Left free the player's solvers; a resize before the next frame
     * laid out the panes on the freed ones (a use-after-free) */
    char lesson[128], env[192];
    snprintf(lesson, sizeof lesson, "/tmp/clothsim-test-%d.lesson", (int)getpid());
    snprintf(env, sizeof env, "XDG_STATE_HOME=/tmp/clothsim-test-%d.state", (int)getpid());
    FILE *f = fopen(lesson, "w");
    cr_assert(f, "cannot write %s", lesson);
    fputs(two_page_lesson, f);
    fclose(f);
    start(env, lesson, 100, 30);
    cr_assert(wait_for("page 1/2"), "no lesson:\n%s", screen);
    /* one tmux command: the resize comes before the frame after r */
    tmux("send-keys -t t r \\; resize-window -t t -x 90 -y 28");
    cr_expect(wait_for("page 1 again"), "r did not replay (or the player crashed):\n%s", screen);
    tmux("resize-window -t t -x 100 -y 30");
    tmux("send-keys -t t Enter");
    cr_assert(wait_for("page 2/2"), "Enter did not reach page 2:\n%s", screen);
    tmux("send-keys -t t Left \\; resize-window -t t -x 90 -y 28");
    cr_expect(wait_for("page 1/2"), "Left did not go back (or the player crashed):\n%s", screen);
    tmux("resize-window -t t -x 100 -y 30");
    cr_expect(wait_for("Right pane"), "the panes are not drawn:\n%s", screen);
    pause_ms(400); /* tmux tells the pane its size a moment after the command */
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0, "the lesson did not end with status 0 (the pane shows why):\n%s",
                 (capture(), screen));
    cr_expect_str_eq(terminal_state(), RESTORED_STATE, "the lesson left the terminal as: %s", terminal_state());
    char command[192];
    snprintf(command, sizeof command, "rm -rf /tmp/clothsim-test-%d.state", (int)getpid());
    if (system(command) != 0)
        fprintf(stderr, "could not remove the progress folder\n");
    unlink(lesson);
    stop();
}

/* ---------------------------------------------------------------- issues 13 and 15: the panel */

/* The screen's row y (0: the status line), columns from..to-1 as bytes of
 * its text: the cells of a view drawn in ASCII. */
static const char *screen_row(int y)
{
    static char row[1024];
    const char *p = screen;
    for (int k = 0; k < y && p; k++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    row[0] = '\0';
    if (!p)
        return row;
    size_t n = strcspn(p, "\n");
    if (n >= sizeof row)
        n = sizeof row - 1;
    memcpy(row, p, n);
    row[n] = '\0';
    return row;
}

Test(tui, xpbd_offers_compliance_not_stiffness_and_the_integrator_keys_switch_the_rows, .timeout = 30)
{
    start("", "--scene drape", 80, 24); /* xpbd */
    cr_assert(wait_for(" step "));
    cr_expect(wait_for("Compliance"), "no compliance row under xpbd:\n%s", screen);
    cr_expect(strstr(screen, "Stiffness") == NULL, "the stiffness row, which does nothing under xpbd:\n%s", screen);
    tmux("send-keys -t t 4");
    cr_expect(wait_for("Stiffness"), "no stiffness row under jakobsen:\n%s", screen);
    cr_expect(wait_screen("Compliance", true), "a compliance row under jakobsen:\n%s", screen);
    tmux("send-keys -t t 6");
    cr_expect(wait_for("Compliance"), "the compliance row did not come back with xpbd:\n%s", screen);
    /* Gravity, Wind X, Wind Z, Compliance: a press doubles it, in the run */
    tmux("send-keys -t t Down Down Down Right");
    cr_expect(wait_for("compliance 0.002"), "Right on Compliance did not set it:\n%s", screen);
    cr_expect(strstr(screen, "Compliance      0.002") != NULL, "the row does not show 0.002:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, the_panel_scrolls_at_80x24_and_hides_the_sphere_row_without_a_sphere, .timeout = 30)
{
    start("", "", 80, 24);
    cr_assert(wait_for(" step "));
    cr_expect(strstr(screen, "Sphere rad.") && strstr(screen, "Collider") && strstr(screen, "Edge samples") &&
                  strstr(screen, "Floor") && strstr(screen, "Self-collide") && strstr(screen, "Strain limit"),
              "the collider, floor, edge samples, self-collision or strain limit row is missing:\n%s", screen);
    cr_expect(strstr(screen, "more (Down)") != NULL, "no sign of the rows below:\n%s", screen);
    cr_expect(strstr(screen, "Scene ") == NULL, "the last row shown though it cannot fit:\n%s", screen);
    tmux("send-keys -t t Up"); /* from the first row round to the last */
    cr_expect(wait_for("Scene         curtain"), "Up from the first row did not scroll to the last:\n%s", screen);
    cr_expect(strstr(screen, "more (Up)") != NULL, "no sign of the rows above:\n%s", screen);
    cr_expect(strstr(screen, "scene: which scene") != NULL, "what the chosen key means is not shown:\n%s", screen);
    /* tearing on: its limit and hold; the long value whole, not "hysteresi" */
    tmux("send-keys -t t t t");
    cr_expect(wait_for("Tearing     hysteresis"), "the tearing value is cut or missing:\n%s", screen);
    cr_expect(strstr(screen, "Tear limit") && strstr(screen, "Tear hold"), "no tear limit or hold row:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();

    start("", "--scene flag", 80, 24);
    cr_assert(wait_for(" step "));
    cr_expect(strstr(screen, "Sphere rad.") == NULL, "Sphere rad. in a scene with no sphere:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, the_sphere_is_seen_at_80x24, .timeout = 30)
{
    /* ASCII: the solids shade with `'"oO0, the cloth with other characters */
    start("LC_ALL=C", "--ascii", 80, 24);
    cr_assert(wait_for(" step "));
    for (int k = 0; k < 3; k++) {
        pause_ms(1200);
        cr_assert(capture());
        int cells = 0;
        for (int y = 2; y < 17; y++) {
            const char *row = screen_row(y);
            for (int x = 0; x < 50 && row[x]; x++)
                cells += row[x] == '0' || row[x] == 'O';
        }
        cr_expect_geq(cells, 5, "t %.1f s: %d cells of the sphere drawn:\n%s", 1.2 * (k + 1), cells, screen);
    }
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, a_message_longer_than_the_view_is_shown_whole, .timeout = 30)
{
    start("LC_ALL=C", "", 80, 24);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t a"); /* the sentence on ASCII only, 85 characters, in a view of 50 */
    cr_expect(wait_for("lacks the glyphs"), "the message was cut:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, r_after_an_explosion_resets_paused_and_says_why_it_will_explode_again, .timeout = 180)
{
    start("", "--set integrator=euler", 80, 24);
    cr_assert(wait_simulated("exploded", 8.0, 150.0), "euler did not explode:\n%s", screen);
    tmux("send-keys -t t r");
    cr_expect(wait_for("explode again"), "r did not say the same settings explode again:\n%s", screen);
    cr_expect(strstr(status_line(), "paused") != NULL, "r did not pause: %s", status_line());
    cr_expect(strstr(screen, "symplectic") != NULL, "the message does not say what holds:\n%s", screen);
    pause_ms(600);
    cr_assert(capture());
    cr_expect_eq(status_step(), 0, "the reset ran on into the same explosion: %s", status_line());
    tmux("send-keys -t t n");
    cr_expect(wait_for(" step 1 "), "n did not step the reset cloth:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, c_adds_panes_up_to_four_then_ends_the_comparison, .timeout = 40)
{
    const int sizes[2][2] = {{80, 24}, {110, 34}};
    for (int s = 0; s < 2; s++) {
        start("", "", sizes[s][0], sizes[s][1]);
        cr_assert(wait_for(" step "));
        tmux("send-keys -t t c"); /* gravity, the first row */
        cr_expect(wait_for("gravity=11.81"), "%dx%d: no second pane:\n%s", sizes[s][0], sizes[s][1], screen);
        tmux("send-keys -t t c");
        cr_expect(wait_for("gravity=13.81"), "%dx%d: no third pane:\n%s", sizes[s][0], sizes[s][1], screen);
        cr_expect(strstr(screen, "gravity=9.81") && strstr(screen, "gravity=11.81"), "a pane was lost:\n%s", screen);
        tmux("send-keys -t t c");
        cr_expect(wait_for("gravity=15.81"), "%dx%d: no fourth pane:\n%s", sizes[s][0], sizes[s][1], screen);
        cr_expect(wait_for("ends)"), "the fourth pane does not say c ends:\n%s", screen);
        tmux("send-keys -t t c");
        cr_expect(wait_for("comparison ended"), "c at four panes did not end:\n%s", screen);
        tmux("send-keys -t t q");
        cr_expect_eq(exit_status(), 0);
        stop();
    }
}

/* ---------------------------------------------------------------- issue 13.5 */

/* Opens the sandbox's help at width x height and waits for it. */
static void open_sandbox_help(int width, int height)
{
    start("", "", width, height);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t Space ?");
    cr_assert(wait_for(" Keys "), "%dx%d: ? opened no help:\n%s", width, height, screen);
}

Test(tui, the_help_shows_every_key_whole_at_80x24, .timeout = 30)
{
    /* the box was 41 columns and as tall as the screen: g, c, C, ?, q and
     * the last lines fell off the bottom, long lines lost their ends */
    open_sandbox_help(80, 24);
    const char *whole[] = {"pause / resume",         "hysteresis",    "slow motion / fast",
                           "compare the chosen",     "high contrast", "this help",
                           "let go of the particle", "q  Ctrl-D",     "wheel zooms"};
    for (size_t k = 0; k < sizeof whole / sizeof whole[0]; k++)
        cr_expect(strstr(screen, whole[k]) != NULL, "80x24: \"%s\" is not in the help:\n%s", whole[k], screen);
    tmux("send-keys -t t x");
    cr_expect(wait_screen(" Keys ", true), "a key did not close the help:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, the_help_uses_the_width_of_a_120x40_screen, .timeout = 30)
{
    open_sandbox_help(120, 40);
    cr_expect(strstr(screen, "tearing: off, naive, hysteresis") != NULL, "a line is cut:\n%s", screen);
    cr_expect(strstr(screen, "right-drag orbits, wheel zooms") != NULL, "the mouse line is cut:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, a_help_too_long_for_the_screen_pages_with_space, .timeout = 30)
{
    open_sandbox_help(40, 12);
    cr_expect(strstr(screen, "Keys 1/") && strstr(screen, "more"), "40x12: no page number or \"more\":\n%s", screen);
    tmux("send-keys -t t Space");
    cr_expect(wait_for("Keys 2/"), "Space did not show the next page:\n%s", screen);
    tmux("send-keys -t t x");
    cr_expect(wait_screen(" Keys ", true), "a key did not close the help:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, the_lesson_help_shows_every_key_whole_at_80x24, .timeout = 30)
{
    char env[192];
    snprintf(env, sizeof env, "XDG_STATE_HOME=/tmp/clothsim-test-%d.state", (int)getpid());
    start(env, CLOTHSIM_SRCDIR "/lessons/01-meet-the-cloth.lesson", 80, 24);
    cr_assert(wait_for("page 1/"), "no lesson:\n%s", screen);
    tmux("send-keys -t t ?");
    cr_assert(wait_for(" Keys "), "? opened no help:\n%s", screen);
    const char *whole[] = {"replay this page; in free play: reset, keep", "quit the lesson", "q  Ctrl-D",
                           "Up/Down and PgUp/PgDn"};
    for (size_t k = 0; k < sizeof whole / sizeof whole[0]; k++)
        cr_expect(strstr(screen, whole[k]) != NULL, "80x24: \"%s\" is not in the help:\n%s", whole[k], screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    char command[192];
    snprintf(command, sizeof command, "rm -rf /tmp/clothsim-test-%d.state", (int)getpid());
    if (system(command) != 0)
        fprintf(stderr, "could not remove the progress folder\n");
    stop();
}

/* ---------------------------------------------------------------- backgrounds */

/* Polls the coloured screen until it holds text; false at the deadline. */
static bool wait_colours(const char *text)
{
    double end = now() + WAIT_SECONDS;
    while (now() < end) {
        if (capture_colours() && strstr(screen, text))
            return true;
        pause_ms(50);
    }
    return false;
}

/* tmux-256color: the title is highlight (gold 220 on dark, amber 94 on
 * light), the hints dim (grey 244 on dark, 242 on light) */
Test(tui, colorfgbg_light_gets_the_light_palette_and_b_flips_it, .timeout = 30)
{
    start("COLORFGBG=0\\;15", "", 100, 30);
    cr_assert(wait_for(" step "));
    cr_expect(wait_colours("38;5;94m"), "no amber title on a light background:\n%s", screen);
    cr_expect(strstr(screen, "38;5;242m"), "no dark grey hints on a light background:\n%s", screen);
    cr_expect(!strstr(screen, "38;5;220m"), "the dark palette's gold on a light background:\n%s", screen);
    tmux("send-keys -t t B");
    cr_expect(wait_colours("38;5;220m"), "B did not bring the dark palette:\n%s", screen);
    cr_expect(wait_for("colours for a dark background"), "no message:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, colorfgbg_dark_and_no_answer_keep_the_dark_palette, .timeout = 30)
{
    /* tmux 3.3 answers no OSC 11 (3.4 and later do) but does answer DA1:
     * the start goes on at once, dark */
    start("COLORFGBG=15\\;0", "", 100, 30);
    cr_assert(wait_for(" step "));
    cr_expect(wait_colours("38;5;220m"), "no gold title on a dark background:\n%s", screen);
    cr_expect(strstr(screen, "38;5;244m"), "no grey hints on a dark background:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, the_background_flag_overrides_colorfgbg, .timeout = 30)
{
    start("COLORFGBG=15\\;0", "--background=light", 100, 30);
    cr_assert(wait_for(" step "));
    cr_expect(wait_colours("38;5;94m"), "--background=light ignored:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
    start("COLORFGBG=0\\;15", "--background dark", 100, 30);
    cr_assert(wait_for(" step "));
    cr_expect(wait_colours("38;5;220m"), "--background dark ignored:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

Test(tui, no_color_means_no_colour_on_a_light_background_too, .timeout = 30)
{
    start("NO_COLOR=1 COLORFGBG=0\\;15", "--background=light", 100, 30);
    cr_assert(wait_for(" step "));
    capture_colours();
    cr_expect(!strstr(screen, "38;5;"), "colours under NO_COLOR:\n%s", screen);
    tmux("send-keys -t t B");
    cr_expect(wait_for("no colours to change"), "B under NO_COLOR:\n%s", screen);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}

/* x draws where links cut into the collider: the drape's cloth over the box
 * cuts its top edges (17 mm deep, particles only), so once the cloth lies
 * on it the cuts ('!' in ASCII) show along the box's edges; none before the
 * key, none after it again. */
Test(tui, x_shows_the_links_that_cut_into_the_box, .timeout = 30)
{
    start("LC_ALL=C", "--ascii --scene drape", 80, 24);
    cr_assert(wait_for(" step "));
    pause_ms(2500); /* the cloth falls 25 cm onto the box and settles */
    int cuts[3];
    for (int k = 0; k < 3; k++) {
        if (k)
            tmux("send-keys -t t x");
        pause_ms(800);
        cr_assert(capture());
        cuts[k] = 0;
        for (int y = 2; y < 17; y++) {
            const char *row = screen_row(y);
            for (int x = 0; x < 50 && row[x]; x++)
                cuts[k] += row[x] == '!';
        }
    }
    cr_expect_eq(cuts[0], 0, "cuts drawn before x:\n%s", screen);
    cr_expect_geq(cuts[1], 10, "x drew %d cells of cuts:\n%s", cuts[1], screen);
    cr_expect_eq(cuts[2], 0, "a second x left %d cells of cuts", cuts[2]);
    tmux("send-keys -t t q");
    cr_expect_eq(exit_status(), 0);
    stop();
}
