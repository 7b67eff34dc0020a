/* tui_panes.h - the panes' solvers (tui_panes.c): built from the
 * sandbox's settings and a comparison's values, changed, reset, stepped on
 * the clock and sampled for the plots. */
#ifndef CLOTHSIM_TUI_PANES_H
#define CLOTHSIM_TUI_PANES_H

#include "tui_state.h"

/* New solvers from tui->base (and compare values), all or nothing: false,
 * with a message, leaves the panes as they were. */
bool tui_rebuild_panes(Tui *tui);
void tui_panes_destroy(Tui *tui);                               /* every pane's solver freed */
bool tui_apply_base(Tui *tui);                                  /* live settings from tui->base into every pane */
void tui_reset(Tui *tui);                                       /* every pane back to its start */
bool tui_set_key(Tui *tui, const char *key, const char *value); /* with a message on failure */
/* Both leave the sandbox as it was, with a message, and return false when
 * the panes cannot be built (a value the scene refuses, no memory). */
bool tui_compare_start(Tui *tui, const ParamInfo *key, const char values[][64], int count);
bool tui_compare_stop(Tui *tui);

void tui_pane_clear_history(TuiPane *pane);
void tui_sample(Tui *tui, bool force); /* plot samples where a solver moved */
/* At each frame, after tui_sample: each pane's blast (tui_blast.h) watches
 * its solver and, with moving (not paused), flies on by the real time since
 * the last frame. tui_blasts_flying: whether one still moves, so that
 * frames go on being drawn though every pane has exploded. */
void tui_blasts_update(Tui *tui, bool moving);
bool tui_blasts_flying(const Tui *tui);

/* The factor real time is slowed by while a pane blows up (energy climbing,
 * links stretched past their rest length): the class watches the last steps
 * in slow motion. Sets tui->blowing_up. */
#define TUI_BLOWUP_SPEED 0.2
double tui_blowup_slowdown(Tui *tui);
/* Steps the panes for elapsed s of real time (times the speed), as a frame of
 * the sandbox does; returns how many steps. paced: within TUI_PHYSICS_SHARE
 * of the time (tui_panes.c), as the sandbox runs; not paced, every step owed
 * (the bench, whose figures must not depend on how busy the machine is). */
int tui_advance(Tui *tui, double elapsed, bool paced);

#endif
