/* tui_lesson.h - the lesson player in the terminal and the lesson menu
 * (tui_lesson.c), on the sandbox's session, panes and drawing. */
#ifndef CLOTHSIM_TUI_LESSON_H
#define CLOTHSIM_TUI_LESSON_H

#include "tui_state.h"

/* `clothsim learn` (argv[1] "learn": the menu of lessons) or `clothsim
 * FILE.lesson` (argv[1] the lesson: plays it). A lesson that does not parse
 * prints its file:line:col line on stderr and returns 2 before the terminal is
 * touched. Returns as tui_main (tui.h) does. Never exits. */
int tui_learn_main(int argc, char **argv);

/* The lesson menu on a running session (L in the sandbox), until q there;
 * returns 0, or 128 + the signal that asked to quit. The caller keeps its
 * panes: a lesson takes tui's. */
int tui_lessons_menu(Tui *tui);

/* A class's lesson (class join): plays lesson for the student linked to
 * the class, from their page or the class's, in a running session. Returns
 * as play_lesson does: 0 quit, -1 the terminal went away, 1 out of memory,
 * 128 + a signal. */
struct ClassLink;
struct Lesson;
int tui_class_lesson(Tui *tui, struct ClassLink *link, struct Lesson *lesson);

/* The lesson screen without a terminal, for tests: tui->offscreen set and
 * tui->term the size; the player's panes are laid out and drawn into the
 * canvases (tui->status, tui->panel, each pane's view and plots) as the
 * player draws them on a terminal, curses never started. NULL when out of
 * memory; free with tui_lesson_offscreen_destroy (the player stays the
 * caller's). */
typedef struct LessonScreen LessonScreen;
struct LessonPlayer;
LessonScreen *tui_lesson_offscreen_create(Tui *tui, struct Lesson *lesson, struct LessonPlayer *player);
void tui_lesson_offscreen_draw(LessonScreen *screen);
void tui_lesson_offscreen_destroy(LessonScreen *screen);

/* Every key the lesson player binds, as tui_key_help (tui_input.h). */
extern const char *const tui_lesson_key_help[];

#endif
