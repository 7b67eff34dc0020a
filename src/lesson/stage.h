/* stage.h - the panes a lesson has open and the settings of each.
 *
 * The one place that says what `set`, `pane`, `close` and `label` do to the
 * settings: the parser walks a lesson through a stage to check every setting
 * and every pane name before anything runs, and the player walks the same
 * stage to know what to build. No solvers here.
 *
 * `set` with no pane changes the base (what a pane opened later starts from)
 * and every open pane; `set scene=NAME` first puts every key back to that
 * scene's defaults, as --scene does on the command line.
 */
#ifndef CLOTHSIM_LESSON_STAGE_H
#define CLOTHSIM_LESSON_STAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "lesson.h"

typedef struct LessonStage {
    Params base;
    int pane_count;
    const char *names[LESSON_MAX_PANES];  /* point into the Lesson */
    const char *labels[LESSON_MAX_PANES]; /* point into the Lesson */
    Params params[LESSON_MAX_PANES];
} LessonStage;

/* The curtain's defaults as base, no pane open. */
void stage_init(LessonStage *stage);

/* Index of the open pane called name, or -1. */
int stage_find(const LessonStage *stage, const char *name);

/* Applies one settings item to params: each KEY=VALUE through params_set in
 * order (scene= first restores that scene's defaults), then the cross-key
 * checks. On failure returns false with the message in err and the column
 * of the culprit in *col. */
bool stage_apply_settings(Params *params, const LessonSetting *settings, int count, char *err, size_t err_size,
                          int *col);

/* Plays a set, pane, close or label item (other kinds do nothing). Returns
 * false with a message and column if it cannot: a bad setting, a pane that is
 * not open, a fifth pane. Pane indexes of *changed (a bit per pane, bit 4 for
 * the base) tell which settings changed. */
bool stage_play(LessonStage *stage, const LessonItem *item, unsigned *changed, char *err, size_t err_size, int *col);

#endif
