/* lesson.h - a lesson script as data: what the parser makes and the player plays.
 *
 * A lesson is a header (title, summary, duration, the settings and panes it
 * starts with) and a list of pages. Every page and the header are a list of
 * items played in order: a paragraph of narration, a change of settings, a run,
 * a pause, a question, free play, an expectation. lessons/README.md documents
 * the language; lesson_parse_buffer (parser.h) reads it.
 *
 * Every mistake in a script is reported as ONE line `file:line:col: message`
 * (columns count characters, from 1), made by one function (lesson_error), and
 * parsing stops at the first. The parser also checks every setting through
 * params_set and the cross-key checks, so a lesson that parses builds.
 */
#ifndef CLOTHSIM_LESSON_H
#define CLOTHSIM_LESSON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/params.h"

#define LESSON_MAX_PANES 4
#define LESSON_MAX_CHOICES 9
#define LESSON_MAX_LINE 4096    /* bytes in one line, newline excluded */
#define LESSON_MAX_NAME 24      /* bytes in a pane's name */
#define LESSON_MAX_HIGHLIGHTS 8 /* names one highlight command may list */
#define LESSON_MAX_RUN_STEPS 100000
#define LESSON_MAX_RUN_SECONDS 600.0
#define LESSON_MAX_STEP_COUNT 1000       /* step / substep / pass N */
#define LESSON_MAX_HOMEWORK_SECONDS 60.0 /* a homework's run: the checker runs it twice */

/* A lesson's budget (lesson_check_budget): what playing it may cost. */
#define LESSON_BUDGET_COMMANDS 2000
#define LESSON_BUDGET_PARTICLES_OPEN 250000 /* in all open panes together */
#define LESSON_BUDGET_PARTICLES_BUILT 1e6   /* summed over every pane, reset and change */
#define LESSON_BUDGET_SECONDS 600.0         /* simulated, summed over the runs */
/* particles x substeps x passes (relaxation passes, or the implicit
 * solve's conjugate-gradient iterations at most), summed over the panes'
 * runs. check --run plays a particle-pass in some 20 ns of a processor
 * (lessons 02 and 05: 8e7 in 1.4 to 1.6 s), so the bound is some minutes;
 * the course's heaviest, 16-implicit-euler.lesson, counts 6.3e8 (its
 * solves stop long before their cap) */
#define LESSON_BUDGET_WORK 1.5e10
#define LESSON_BUDGET_PASS_SECONDS 20e-9

typedef enum LessonItemKind {
    LESSON_SAY,       /* text: one paragraph of narration */
    LESSON_SET,       /* pane (NULL: every pane and the base): settings */
    LESSON_PANE,      /* open pane `pane` labelled text, base settings + settings */
    LESSON_CLOSE,     /* close pane */
    LESSON_LABEL,     /* pane's label becomes text */
    LESSON_RESET,     /* pane (NULL: all): rebuild the scene, time back to 0 */
    LESSON_RUN,       /* every pane: steps, or seconds of its own dt, at speed */
    LESSON_STEP,      /* pane (NULL: all): count whole steps */
    LESSON_SUBSTEP,   /* ... count substeps */
    LESSON_PASS,      /* ... count relaxation passes */
    LESSON_PAUSE,     /* wait for a key; text: the prompt, or NULL */
    LESSON_HIGHLIGHT, /* pane (NULL: all): names (metric, plot or key); none: off */
    LESSON_QUESTION,  /* text, choices, answer */
    LESSON_PLAY,      /* free play; pane (NULL: all): keys unlocked */
    LESSON_EXPECT,    /* expect */
    LESSON_VIEW,      /* pane (NULL: all): how the pane is shown (LessonView) */
    LESSON_EXPLAIN,   /* text: the question "why?" a student answers in their own words; waits
                       * like a pause, and the narration after it is the explanation */
    LESSON_RECAP,     /* text: what the page showed, in a line, for the lesson's closing recap */
    LESSON_HOMEWORK,  /* text: a task whose number the student finds by exploring; pane, names[0]
                       * the key sought, answer its value, seek smallest or largest, seconds
                       * the run, expect the condition: waits like a pause for the answer */
    LESSON_TEACHER,   /* text: a note for the teacher (what to say, what students get wrong,
                       * timing); never shown to students: the teacher's view and the
                       * handout's teacher edition show it */
    LESSON_ITEM_KIND_COUNT
} LessonItemKind;

extern const char *const lesson_item_names[]; /* the command of each kind: "say" is '>' */

/* What an expectation looks at: the metrics of metrics.h, and a few
 * measures of the pane's state that only lessons use (lesson_measure). */
typedef enum LessonMetric {
    METRIC_KINETIC,
    METRIC_POTENTIAL,
    METRIC_ELASTIC,
    METRIC_TOTAL,
    METRIC_MAX_STRAIN,
    METRIC_MEAN_STRAIN,
    METRIC_RESIDUAL,
    METRIC_PENETRATION,
    METRIC_TORN,
    METRIC_EXPLODED,
    METRIC_TIME,           /* s since the pane was built */
    METRIC_STEP,           /* steps since the pane was built */
    METRIC_OMEGA_DT,       /* solver_omega_dt: Verlet is stable below 2 */
    METRIC_HIGHEST,        /* m, the highest particle's y */
    METRIC_LOWEST,         /* m, the lowest particle's y */
    METRIC_CATENARY,       /* m, the first row's largest distance from a cosh(x/a) */
    METRIC_CLOSEST,        /* m, closest pair of unlinked particles (looked for up to 5 cm) */
    METRIC_CENTRE_X,       /* m, the particles' mean x: a cloth hung symmetrically keeps it at 0 */
    METRIC_CG_ITERATIONS,  /* implicit: conjugate-gradient iterations of the last substep's solve */
    METRIC_CG_RESIDUAL,    /* implicit: the residual that solve left, over its right-hand side */
    METRIC_CG_UNCONVERGED, /* implicit: substeps since the pane was built whose solve did not converge */
    /* what the screen shows: the pane drawn as the player draws it, at the
     * sizes a lesson is played at (lesson_view_measure); a claim on these
     * must hold at every size */
    METRIC_SCREEN_COVER,  /* fraction of the pane's view the cloth covers */
    METRIC_SCREEN_ROWS,   /* rows of the view between the cloth's top and bottom, as a fraction of the view */
    METRIC_SCREEN_HOLES,  /* empty cells the cloth encloses (cut off from the view's edges) */
    METRIC_SCREEN_HOT,    /* fraction of the cloth's cells in the over-limit strain colour */
    METRIC_SCREEN_UNLIKE, /* fraction of cells, of those either pane covers, where two panes differ */
    /* rows between the top and bottom of the pane's trace (view trace=on), as a fraction of the view */
    METRIC_SCREEN_TRACE_ROWS,
    /* fraction of the drawn parabola's cells (view parabola=on) that the drawn cloth leaves uncovered */
    METRIC_SCREEN_OFF_PARABOLA,
    METRIC_COUNT
} LessonMetric;

/* The kind of number a metric is, so that a unit can be checked. */
typedef enum LessonDimension { DIM_NUMBER, DIM_LENGTH, DIM_ENERGY, DIM_TIME } LessonDimension;

typedef struct LessonMetricInfo {
    const char *name;
    LessonDimension dimension;
    const char *unit; /* "" when a plain number */
    const char *help;
} LessonMetricInfo;

extern const LessonMetricInfo lesson_metrics[]; /* indexed by LessonMetric */

/* A metric the screen shows rather than the state holds. */
static inline bool lesson_metric_on_screen(int metric)
{
    return metric >= METRIC_SCREEN_COVER && metric < METRIC_COUNT;
}

/* ------------------------------------------------------------ views
 *
 * `view [PANE] KEY=VALUE ...` says how panes are shown: each key given
 * changes that part of the pane's view and leaves the others; a view lasts
 * until another changes it (across pages, resets and replays alike). */
typedef enum LessonCamera {
    VIEW_CAMERA_OWN,    /* each pane framed on its own cloth and collider, as built or reset */
    VIEW_CAMERA_SHARED, /* one framing of every pane's cloth and collider: equal sizes look equal */
    VIEW_CAMERA_FOLLOW, /* framed again every frame: follows a cloth as it falls, tears or flies apart */
    VIEW_CAMERA_COUNT
} LessonCamera;

typedef enum LessonScale {
    VIEW_SCALE_AUTO,  /* between the plotted values' least and greatest */
    VIEW_SCALE_FIXED, /* between lo and hi, printed */
    VIEW_SCALE_LOG,   /* energy only: powers of ten, so that a blow-up reads as a straight climb */
    VIEW_SCALE_COUNT
} LessonScale;

enum {
    VIEW_SET_MODE = 1 << 0,
    VIEW_SET_CAMERA = 1 << 1,
    VIEW_SET_YAW = 1 << 2,
    VIEW_SET_PITCH = 1 << 3,
    VIEW_SET_ZOOM = 1 << 4,
    VIEW_SET_ENERGY = 1 << 5,
    VIEW_SET_STRAIN = 1 << 6,
    VIEW_SET_SHOW = 1 << 7,
    VIEW_SET_RAMP = 1 << 8,
    VIEW_SET_MARKS = 1 << 9,
    VIEW_SET_TRACE = 1 << 10,
    VIEW_SET_TORN = 1 << 11,
    VIEW_SET_PARABOLA = 1 << 12,
    VIEW_SET_TARGET = 1 << 13,
    VIEW_SET_CUTS = 1 << 14,
};

#define LESSON_MAX_SHOWS 3 /* numbers shown large beside a pane */

typedef struct LessonView {
    unsigned set;                /* VIEW_SET_*: what a view item changes */
    int mode;                    /* RenderMode (render.h); -1: the player's own choice */
    int camera;                  /* LessonCamera */
    double yaw, pitch;           /* rad, as the camera's */
    double zoom;                 /* > 1 comes closer */
    int energy_scale;            /* LessonScale */
    double energy_lo, energy_hi; /* J, fixed scale */
    int strain_scale;            /* LessonScale (no log) */
    double strain_lo, strain_hi;
    double ramp;      /* strain mode: the strain at the top of the colour ramp; 0: the renderer's 20 % */
    bool marks;       /* the links the current substep's passes have moved, in red (after `pass`) */
    bool trace;       /* the path of the cloth's last particle over the last 1.5 s */
    bool torn;        /* the torn links drawn where they were, in the warning colour */
    bool parabola;    /* the parabola through the first row's ends and lowest particle (a chain's reference) */
    bool cuts;        /* the links' parts inside the collider, in the warning colour */
    double target[3]; /* m, the point the camera aims at (VIEW_SET_TARGET), instead of the framing's middle */
    int shows[LESSON_MAX_SHOWS]; /* LessonMetric, state metrics only */
    int show_count;
} LessonView;

/* The view a pane starts with: the player's mode, its own camera, automatic plots. */
void lesson_view_default(LessonView *view);

/* Takes the parts item view sets into view. */
void lesson_view_merge(LessonView *view, const LessonView *item);

/* The keys of a view line, in the order the README lists them. */
extern const char *const lesson_view_keys[]; /* NULL-terminated */
#define LESSON_VIEW_KEY_COUNT 15
extern const char *const lesson_camera_names[]; /* "own", "shared", "follow", NULL */

typedef enum LessonExpectKind {
    EXPECT_EXPLODED, /* exploded [before|after time]; negate: not exploded */
    EXPECT_COMPARE,  /* metric op reference */
    EXPECT_WITHIN,   /* metric within tolerance of reference */
} LessonExpectKind;

typedef enum LessonOp { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ } LessonOp;
extern const char *const lesson_op_names[]; /* "<", "<=", ">", ">=", "=" */

typedef enum LessonReference {
    REF_NUMBER, /* value */
    REF_START,  /* factor times the metric when the pane was built or reset, + offset */
    REF_PANE,   /* factor times the same metric of pane ref_pane now, + offset */
} LessonReference;

typedef enum LessonWhen { WHEN_ANY, WHEN_BEFORE, WHEN_AFTER } LessonWhen;

typedef struct LessonExpect {
    LessonExpectKind kind;
    int metric; /* LessonMetric */
    bool negate;
    LessonWhen when; /* exploded before / after time */
    double time;     /* s */
    LessonOp op;
    LessonReference reference;
    double value;  /* REF_NUMBER: the number in SI units; else the factor */
    double offset; /* REF_START, REF_PANE: added to factor x reference (SI) */
    const char *ref_pane;
    const char *other_pane;  /* screen_unlike: the pane compared with */
    double tolerance;        /* within: absolute, in the metric's unit, or ... */
    bool tolerance_relative; /* ... a fraction of the reference (5% = 0.05) */
    const char *source;      /* the condition as written, for messages */
    const char *reads;       /* `reads N`: N's digits as written ("9.0"), which the narration after it on
                              * its page must say; the claim is within half N's last digit of N */
    int reads_col;           /* of N, for the message when the narration does not say it */
} LessonExpect;

typedef struct LessonSetting {
    const ParamInfo *info;
    const char *value; /* as written */
    int col;           /* of the KEY=VALUE word */
} LessonSetting;

typedef struct LessonChoice {
    const char *text;
    const char *feedback; /* NULL if none */
} LessonChoice;

typedef struct LessonItem {
    LessonItemKind kind;
    int line, col;    /* of the command */
    const char *pane; /* name of the pane it acts on; NULL: every pane */
    const char *text;
    LessonSetting *settings; /* set, pane */
    int setting_count;
    int64_t steps;         /* run (0 when in seconds); step, substep, pass: count */
    double seconds;        /* run */
    double speed;          /* run: simulated seconds per real second */
    LessonChoice *choices; /* question */
    int choice_count;
    int answer;         /* question: index of the right choice, -1 if none */
    const char **names; /* highlight: metric, plot or key names; play: keys */
    int name_count;
    LessonExpect expect;
    LessonView view; /* view */
    int seek;        /* homework: -1 the smallest value for which the condition holds, +1 the largest */
} LessonItem;

typedef struct LessonPage {
    const char *heading; /* "" if none */
    int line;
    int first_item, item_count; /* into Lesson.items */
} LessonPage;

typedef struct LessonArena LessonArena;

typedef struct Lesson {
    const char *name; /* file name as given to the parser */
    const char *title, *summary;
    const char *exit_question; /* header `exit`: asked as the class leaves; NULL if none */
    double minutes;            /* estimated duration */
    LessonItem *items;
    int item_count;
    int setup_count; /* items[0 .. setup_count-1] are the header's */
    LessonPage *pages;
    int page_count;
    int expect_count;
    LessonArena *arena; /* owns every string and array above */
} Lesson;

/* Feedback that teaches: every wrong choice of a question that names its
 * answer has feedback (its own, or the question's after `answer`), which
 * says where on the screen to look. False with "name:line:col: ..." at the
 * first question that has a wrong choice without. `check` holds every
 * lesson to it; the player plays one without. */
bool lesson_check_feedback(const Lesson *lesson, char *err, size_t err_size);

void lesson_destroy(Lesson *lesson);

/* The one funnel of every message about a place in a script:
 * writes "file:line:col: message" into out. */
void lesson_error(char *out, size_t out_size, const char *file, int line, int col, const char *format, ...)
    __attribute__((format(printf, 6, 7)));
void lesson_verror(char *out, size_t out_size, const char *file, int line, int col, const char *format, va_list args)
    __attribute__((format(printf, 6, 0)));

/* Words a page puts on screen by its end: heading, narration, pause and
 * explain prompts, the question, its choices and the longest feedback (one
 * is shown at a time). A projector reads about LESSON_PAGE_WORDS. */
#define LESSON_PAGE_WORDS 60
int lesson_page_words(const Lesson *lesson, int page);

/* The teacher notes of page (-1: the header's, about the whole lesson): up
 * to max texts into out; returns the count. */
int lesson_teacher_notes(const Lesson *lesson, int page, const char **out, int max);

/* The page's recap line (the text of its recap item), or NULL if it has none. */
const char *lesson_page_recap(const Lesson *lesson, int page);

/* The item's number among the lesson's items of its kind, from 1 (the
 * third question is 3): what the progress and the handout call it. */
int lesson_item_number(const Lesson *lesson, int item);

/* The page (0-based) the item is on, or -1 for the header's. */
int lesson_item_page(const Lesson *lesson, int item);

/* Metric by name, or -1. */
int lesson_metric_find(const char *name);

/* The names highlight accepts besides metrics and keys: the plots. */
extern const char *const lesson_plot_names[]; /* NULL-terminated */

#endif
