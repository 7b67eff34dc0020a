/* tui_input.h - every action a person can take in the sandbox, by key or
 * by mouse (tui_input.c). */
#ifndef CLOTHSIM_TUI_INPUT_H
#define CLOTHSIM_TUI_INPUT_H

#include "tui_state.h"

/* A key read by tui_read_key. L (the lessons) is only asked for here
 * (tui->lessons_asked): the sandbox's loop opens them (tui.c), as a lesson
 * plays on the loop of its own. */
void tui_handle_key(Tui *tui, int key);
void tui_handle_mouse(Tui *tui);

/* The key lines of the help overlay and the man page: NULL-terminated pairs
 * of a label (the keys, as tests/app/test_tui.c reads it: names apart, "1 .. 6"
 * a range) and what they do. Every key tui_handle_key binds is in
 * tui_key_help (the lesson player's: tui_lesson.h). */
extern const char *const tui_key_help[];

#endif
