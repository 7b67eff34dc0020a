/* pane.h - a lesson being played, as data: its panes (a solver each, how
 * each is shown, the trace and marks it keeps) and the player that holds
 * them. player.c changes them (player.h); view.c only reads them, so the
 * view sits below the player, which measures the screen through it. */
#ifndef CLOTHSIM_LESSON_PANE_H
#define CLOTHSIM_LESSON_PANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/metrics.h"
#include "core/solver.h"
#include "core/text.h"
#include "lesson.h"
#include "stage.h"

typedef enum LessonPlayerState {
    LESSON_RUNNING,
    LESSON_WAITING,
    LESSON_ASKING,
    LESSON_PLAYING,
    LESSON_PAGE_END,
    LESSON_FINISHED,
} LessonPlayerState;

/* Steps a trace keeps: 1.5 s at 60 steps a second, a pendulum's swing from
 * one side to the other. */
#define LESSON_TRACE_POINTS 90

/* A link the passes moved: each end pinned or moved by more than this
 * fraction of the link's rest length (float rounding moves the others by
 * far less), and one end moved. */
#define LESSON_MARK_MOVE 1e-3

typedef struct LessonPane {
    const char *name;  /* points into the Lesson */
    const char *label; /* points into the Lesson */
    Solver *solver;
    double start[METRIC_COUNT]; /* every metric when the pane was built or last reset */
    double clock;               /* simulated seconds since the run or free play began */
    int64_t run_from;           /* the step it began at */
    int64_t run_target;         /* the step the current run ends at */
    const char *highlights[LESSON_MAX_HIGHLIGHTS];
    int highlight_count;
    LessonView view;                /* how the pane is shown (view lines) */
    float frame_lo[3], frame_hi[3]; /* m: cloth and collider when built or last reset */
    /* view marks=on: where the passes of the substep a `pass` item stopped
     * in began (after its prediction), and the links they have moved so far
     * (lesson_pane_marks); allocated by the first such item, freed with the pane */
    float *pass_x, *pass_y, *pass_z;
    uint8_t *marked;
    int pass_particles, marked_links; /* sizes of those arrays */
    int64_t marks_step;               /* the substep they are of: step ... */
    int marks_substep;                /* ... and substep; -1: none */
    /* view trace=on: the last LESSON_TRACE_POINTS positions of the cloth's
     * last particle (a pendulum's bob), one a step: a ring stored twice
     * over, so that the newest trace_count are one run (lesson_pane_trace) */
    float trace[2 * LESSON_TRACE_POINTS * 3];
    int trace_next, trace_count;
} LessonPane;

/* The outcome of an expect item, once reached. */
typedef struct LessonResult {
    bool reached, passed;
    double seen; /* the value the metric had */
    /* "file:line:col: expect failed: CONDITION (saw X)", or "expect held: ..." */
    char message[TEXT_MESSAGE_SIZE];
} LessonResult;

typedef struct LessonPlayer {
    const Lesson *lesson; /* not owned: must outlive the player */
    LessonStage stage;
    LessonPane panes[LESSON_MAX_PANES]; /* stage.pane_count of them, in order */
    int pane_count;
    LessonView base_view; /* what a pane opened later starts with */

    int page; /* current page, 0-based; page_count once finished */
    int item; /* next item of the lesson to play */
    LessonPlayerState state;

    /* the question of the current page, once asked */
    int question; /* item index, or -1 */
    int answer;   /* choice index the student gave, or -1 */

    /* free play */
    const char *unlocked[64];
    int unlocked_count;
    const char *unlocked_pane; /* NULL: every pane */

    /* per item: the first answer given to a question in this playing
     * (-1: none yet), kept across going back and replays, so that the score
     * counts first tries */
    int *first_answers;

    LessonResult *results; /* per item; filled for expect items */
    int expects_failed, expects_passed;

    /* set by the checker before it plays: each homework reached is proved
     * by running its key's answer and one step past it (results hold it) */
    bool verify_homework;

    /* set by the checker too: runs it has played before are loaded from
     * it rather than played again (run_cache.h); NULL: every run plays */
    struct RunCache *run_cache;

    bool failed; /* out of memory: err says so */
    char err[TEXT_MESSAGE_SIZE];
} LessonPlayer;

/* The links the current substep's passes have moved so far, one flag per
 * link, when the pane's view shows them (marks=on) and it stands inside the
 * substep a `pass` item stopped in; else NULL. */
const uint8_t *lesson_pane_marks(const LessonPane *pane);

/* The trace to draw (view trace=on): *count points, oldest first; NULL
 * when there is none. */
const float *lesson_pane_trace(const LessonPane *pane, int *count);

#endif
