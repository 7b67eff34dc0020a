/* tui_state.c - the operations on the Tui that every terminal file uses
 * (tui_state.h): the message line, the locale's text, the step shown,
 * letting go of a held particle, and the sandbox's speeds. */
#include "tui_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"

const double tui_speeds[] = {0.125, 0.25, 0.5, 1.0, 2.0, 4.0};
const int tui_speed_count = (int)(sizeof tui_speeds / sizeof tui_speeds[0]);

void tui_message(Tui *tui, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(tui->message, sizeof tui->message, _(format), args);
    va_end(args);
    tui->message_time = tui_now();
    /* a reader's pace, some 12 characters a second, and never less than the usual */
    double seconds = (double)strlen(tui->message) / 12.0;
    tui->message_seconds = seconds > TUI_MESSAGE_SECONDS ? seconds : TUI_MESSAGE_SECONDS;
}

const char *tui_text(const Tui *tui, const char *utf8, const char *ascii)
{
    return tui->utf8 && !tui->ascii_only ? utf8 : ascii;
}

/* What n, s and p say they did, the same way for all three: each counter
 * counts from 1 and names the one last worked in (the step, its substep,
 * that substep's pass), "of" how many there are. After n: step 5, substep
 * 5 of 5; then p: step 6, substep 1 of 5, pass 1 of 12; s: substep 1 of 5,
 * pass 12 of 12. */
long long tui_step_shown(const Solver *solver)
{
    bool inside = solver->phase == PHASE_RELAXING || solver->substep > 0; /* a step begun, not ended */
    return (long long)solver->step + (inside ? 1 : 0);
}

void tui_grab_release(Tui *tui)
{
    if (tui->grab_pane < 0)
        return;
    /* every pane that has a solver: the count may be changing */
    for (int i = 0; i < TUI_MAX_PANES; i++)
        if (tui->panes[i].solver && tui->panes[i].solver->grabbed >= 0)
            solver_release(tui->panes[i].solver);
    tui->grab_pane = -1;
    if (tui->drag_button == 1)
        tui->drag_button = 0;
}
