/* test_counters.c - n, s and p say where they left the solver the same way
 * (each counter from 1, the one last worked in), and f says what it does. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tmux_session.h"

/* The N of "step N," in the message, or -1. */
static long message_step(const char *what)
{
    const char *p = strstr(screen, what);
    return p ? strtol(p + strlen(what), NULL, 10) : -1;
}

Test(counters, n_s_and_p_count_substeps_and_passes_the_same_way, .timeout = 40)
{
    if (system("tmux -V >/dev/null 2>&1") != 0)
        cr_skip_test("tmux is not installed");
    snprintf(server, sizeof server, "clothsim-counters-%d", (int)getpid());
    snprintf(exit_path, sizeof exit_path, "/tmp/clothsim-counters-%d.exit", (int)getpid());
    snprintf(stty_path, sizeof stty_path, "/tmp/clothsim-counters-%d.stty", (int)getpid());
    cr_assert_eq(
        tmux_new_session("-d -s t -x 110 -y 34 \"%s --set integrator=pbd --set substeps=5 --set iterations=12; "
                         "sleep 60\"",
                         CLOTHSIM_BIN),
        0);
    cr_assert(wait_for(" step "));
    tmux("send-keys -t t Space");
    cr_assert(wait_for("paused"));
    tmux("send-keys -t t n");
    cr_assert(wait_for("one step: step "), "n says nothing:\n%s", screen);
    long step = message_step("one step: step ");
    cr_expect(strstr(screen, ", substep 5 of 5, pass 12 of 12") != NULL, "n: the step's last substep and pass:\n%s",
              screen);
    /* the first pass of the next step's first substep: 1, not 0 */
    tmux("send-keys -t t p");
    cr_assert(wait_for("one pass: step "), "p says nothing:\n%s", screen);
    cr_expect_eq(message_step("one pass: step "), step + 1, "p works in the next step:\n%s", screen);
    cr_expect(strstr(screen, ", substep 1 of 5, pass 1 of 12") != NULL, "p after n:\n%s", screen);
    const char *status = strstr(screen, " step ");
    cr_expect(status && strtol(status + 6, NULL, 10) == step + 1, "the status line names another step:\n%s", screen);
    /* s ends that substep: still the first */
    tmux("send-keys -t t s");
    cr_assert(wait_for("one substep: step "), "s says nothing:\n%s", screen);
    cr_expect_eq(message_step("one substep: step "), step + 1, "%s", screen);
    cr_expect(strstr(screen, ", substep 1 of 5, pass 12 of 12") != NULL, "s after p:\n%s", screen);
    tmux("send-keys -t t s");
    cr_expect(wait_for(", substep 2 of 5, pass 12 of 12"), "s again: the second substep:\n%s", screen);
    /* f zeroes the velocities once and says so; it is no pause */
    tmux("send-keys -t t f");
    cr_expect(wait_for("every velocity set to 0"), "f does not say what it did:\n%s", screen);
    stop();
}
