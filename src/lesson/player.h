/* player.h - plays a lesson page by page: the state machine a front end drives.
 *
 * The player owns one solver per open pane and walks the items of the current
 * page in order. Items that take no time (narration, set, step, expect ...)
 * happen at once; the others stop the walk and say what the player waits for:
 *
 *   LESSON_RUNNING   a run: call lesson_player_tick with the real time that
 *                    passed (it steps the panes at the run's speed), or
 *                    lesson_player_finish to complete it at once;
 *   LESSON_WAITING   a pause, an explain step (the student says why, then
 *                    the explanation follows) or a homework (the student
 *                    types a number: lesson_player_homework_answer):
 *                    lesson_player_next goes on;
 *   LESSON_ASKING    a question: lesson_player_answer (next skips it);
 *   LESSON_PLAYING   free play: the panes run at 1x under tick, the unlocked
 *                    keys may be changed with lesson_player_adjust; next ends it;
 *   LESSON_PAGE_END  the page is done: next opens the following page;
 *   LESSON_FINISHED  past the last page.
 *
 * No clock, no terminal: the front end passes the time in, so a test or the
 * checker can drive it headless. Going back (lesson_player_goto, previous)
 * rebuilds every pane and replays the lesson up to the start of that page
 * without waiting: the same inputs give the same state, bit for bit.
 */
#ifndef CLOTHSIM_LESSON_PLAYER_H
#define CLOTHSIM_LESSON_PLAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/metrics.h"
#include "core/solver.h"
#include "core/text.h"
#include "lesson.h"
#include "pane.h"
#include "stage.h"

extern const char *const lesson_player_state_names[];

/* Builds the panes of the header and opens the first page (playing its items
 * up to the first that waits). Returns NULL when out of memory. Free with
 * lesson_player_destroy. */
LessonPlayer *lesson_player_create(const Lesson *lesson);
void lesson_player_destroy(LessonPlayer *player);

/* Enter: goes past a pause, ends free play, skips a question, finishes a run
 * at once, or opens the next page when this one is done. Returns false only
 * when out of memory. */
bool lesson_player_next(LessonPlayer *player);

/* Starts page (0-based, clamped) afresh: rebuilds every pane and replays all
 * that comes before it without waiting. Returns false when out of memory. */
bool lesson_player_goto(LessonPlayer *player, int page);
bool lesson_player_previous(LessonPlayer *player); /* goto page - 1 */
bool lesson_player_replay(LessonPlayer *player);   /* goto page */

/* Answers the question being asked with choice (0-based). Returns false if
 * no question is asked or choice is out of range. The walk goes on. */
bool lesson_player_answer(LessonPlayer *player, int choice);

/* The feedback for the answer given on this page (NULL if none), and whether
 * it was the right one (false when the question names no right answer). */
const char *lesson_player_feedback(const LessonPlayer *player);
bool lesson_player_answer_correct(const LessonPlayer *player);

/* Whether the feedback on the answer may be shown: predict, observe, then
 * explain. Not before the first run after the question has played out (at
 * once if the page has none after it). */
bool lesson_player_feedback_ready(const LessonPlayer *player);

/* The score: of the questions that name a right answer (*graded), how many
 * were answered (*answered) and how many right (*right) at the first try. */
void lesson_player_score(const LessonPlayer *player, int *right, int *answered, int *graded);

/* Real seconds have passed: a run advances by seconds * its speed of
 * simulated time, free play by seconds. Other states ignore it. Returns
 * false only when out of memory. */
bool lesson_player_tick(LessonPlayer *player, double seconds);

/* Completes the current run at once (the checker, or a key to skip). */
bool lesson_player_finish(LessonPlayer *player);

/* Part of that: at most steps more steps of each pane; *done once the run
 * is over (and the walk went on). A front end calls it a little at a time,
 * so that a long run can still be stopped. Returns false when out of memory. */
bool lesson_player_finish_some(LessonPlayer *player, int64_t steps, bool *done);

/* Plays the whole lesson from where it is to the end without waiting:
 * runs finish at once, pauses, questions and free play are passed. */
bool lesson_player_play_to_end(LessonPlayer *player);

/* Free play: sets key of the pane at index (or every pane, -1) when the
 * lesson unlocked it. false with one line in err if not. */
bool lesson_player_adjust(LessonPlayer *player, int pane, const char *key, const char *value, char *err,
                          size_t err_size);

/* Free play: every pane back to its start with the settings it has now
 * (what the student chose), time back to 0. Elsewhere does nothing.
 * Returns false only when out of memory. */
bool lesson_player_reset_panes(LessonPlayer *player);

/* Index of the pane called name, or -1. */
int lesson_player_find_pane(const LessonPlayer *player, const char *name);

/* The current page's heading ("" if none, NULL once finished), and its
 * narration so far: up to max paragraphs into out; returns the count. */
const char *lesson_player_heading(const LessonPlayer *player);
int lesson_player_paragraphs(const LessonPlayer *player, const char **out, int max);

/* The question item asked on this page, or NULL. */
const LessonItem *lesson_player_question(const LessonPlayer *player);

/* The pause or explain item waited on, or NULL (a pause's text is its
 * prompt, maybe NULL; an explain's is the question why). */
const LessonItem *lesson_player_pause(const LessonPlayer *player);

/* The homework waited on is answered with the number given (text, as
 * typed): *right if it is the homework's answer, *first if it is the first
 * answer to it in this playing. False when no homework is waited on or
 * given is not a whole number. The walk does not go on (next does). */
bool lesson_player_homework_answer(LessonPlayer *player, const char *given, bool *right, bool *first);

/* The run in progress: simulated seconds done and to do (the slowest pane). */
void lesson_player_run_progress(const LessonPlayer *player, double *done, double *total);

/* A metric of a pane now (lesson_metrics lists them, with units). */
double lesson_measure(const LessonPane *pane, int metric);

#endif
