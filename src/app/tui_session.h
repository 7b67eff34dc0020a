/* tui_session.h - what the sandbox, the lessons and a class's screens
 * share around their loops (tui_session.c): the options of the screen, the
 * session's start and end on the terminal, and the start of each turn of a
 * frame loop. */
#ifndef CLOTHSIM_TUI_SESSION_H
#define CLOTHSIM_TUI_SESSION_H

#include <stddef.h>

#include "tui_state.h"

void tui_defaults(Tui *tui); /* every option at its default */
void tui_locale(Tui *tui);   /* the locale: UTF-8 or ASCII only; the sliders */
/* The options the sandbox and the lessons share (--ascii --fps N
 * --high-contrast --background=WHICH --stats --record FILE.cast): 1 when
 * argv[*i] was one, 0 when not, -1 when its value is wrong (said). */
int tui_screen_option(Tui *tui, int argc, char **argv, int *i);
/* --stats: frames, bytes sent and time a frame, on stderr */
void tui_print_stats(const Tui *tui);

/* Takes the terminal and sets up curses (keys, colours, mouse); on failure one
 * sentence in err. tui_session_stop frees the windows and gives it back. */
bool tui_session_start(Tui *tui, char *err, size_t err_size);
/* The same on a measuring session (tui_term_start_measured): for bench. */
bool tui_session_start_measured(Tui *tui, const char *term_name, int cols, int rows, bool *through_pipe, char *err,
                                size_t err_size);
void tui_session_stop(Tui *tui);

/* How long the loop may block for input (ms, -1 for ever): until the next
 * frame while running, else until the message on screen expires. */
int tui_wait_ms(const Tui *tui, bool running, double next_frame);
/* The start of each turn of a frame loop: returns 128 + the signal that asked
 * to quit, or 0; after a resize, lays the screen out again and sets *dirty. */
int tui_loop_events(Tui *tui, bool *dirty);

#endif
