/* tui_state.h - the state every terminal file shares: the Tui (options,
 * panes, the view, the screen), its panes and panel rows, and the few
 * operations on it that every file uses (tui_state.c): the message line,
 * the locale's text, the step shown, letting go of a held particle.
 *
 * The terminal files, each calling only those above it in this list:
 *
 *   tui_blast.c    an exploded pane's particles flying apart
 *   tui_term.c     the terminal session (tui_term.h)
 *   tui_text.c     text by display width on a canvas
 *   tui_state.c    this header's operations
 *   tui_camera.c   the panes' framing
 *   tui_scales.c   the plots' scales and the compared panes' one ramp
 *   tui_sliders.c  the panel's rows and their values
 *   tui_draw.c     layout, colours, the copy to the screen, what is drawn
 *   tui_panes.c    the panes' solvers: built, set, reset, stepped, sampled
 *   tui_compare.c  the ready comparisons (presets.h)
 *   tui_input.c    keys and mouse: every action a person can take
 *   tui_session.c  options, the session's start and end, a frame loop's turn
 *   class_present.c the screen sent to a class's watchers
 *   tui_lesson.c   the lesson player and the lesson menu
 *   class_screen.c a class's screens (join, watch, teach)
 *   tui.c          the sandbox: its command line and its frame loop
 *
 * make check-calls (tests/calls.sh, nm of the objects) fails on a call to
 * a file listed after the caller, make check-layers on an #include loop. Only these files and
 * bench.c (which drives the sandbox's frames into a pseudo-terminal of its
 * own to count the bytes) call curses.
 */
#ifndef CLOTHSIM_TUI_STATE_H
#define CLOTHSIM_TUI_STATE_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "colours.h"
#include "tui_blast.h"
#include "tui_term.h"
#include "core/metrics.h"
#include "core/params.h"
#include "core/solver.h"
#include "core/text.h"
#include "render/layout.h"
#include "render/render.h"

/* ---------------------------------------------------------------- panes */

/* A series of plot samples: a ring stored twice over, so that the last
 * `count` samples are always one contiguous run for render_plot. */
#define TUI_HISTORY 2048
typedef struct TuiSeries {
    float values[2 * TUI_HISTORY];
    int next;  /* where the next sample goes, 0..TUI_HISTORY-1 */
    int count; /* samples held, 0..TUI_HISTORY */
} TuiSeries;

#define TUI_MAX_PANES 4

typedef struct TuiPane {
    Solver *solver;
    Camera camera;
    Canvas *view;  /* the cloth, with its label and banners */
    Canvas *plots; /* energy and max strain */
    WINDOW *view_win, *plot_win;
    char label[96]; /* compare mode: what differs, "integrator=euler" */
    TuiSeries energy, strain;
    int64_t sampled_step; /* the solver's step, substep and pass at the last sample */
    int sampled_substep, sampled_pass;
    Metrics metrics; /* at the last sample */
    /* lessons: what the lesson points at */
    bool highlight_energy, highlight_strain; /* the plot, shown in reverse */
    char note[160];                          /* highlighted metrics and keys, from the view's second row */
    /* lessons: how the lesson shows the pane (its view lines) */
    bool mode_set; /* mode replaces tui->render.mode */
    RenderMode mode;
    float strain_full; /* the strain ramp's top (RenderOptions.strain_full); 0: the renderer's own */
    bool camera_set;   /* the lesson places the camera: tui_fit_cameras leaves it */
    bool scaled;       /* the plots use these scales, not their own */
    RenderPlotScale energy_scale, strain_scale;
    int big_count; /* numbers shown large in the view's top right corner */
    char big_label[3][32], big_value[3][24];
    TuiBlast blast;      /* once it explodes: the cloth flying apart (tui_blast.h) */
    RenderExtras extras; /* lessons: marked links and a trace over the cloth (lesson_view_extras) */
} TuiPane;

/* ---------------------------------------------------------------- the panel */

/* One row of the side panel: a key of params_table with the slider's own
 * range and step (the key's range is wider than is useful to slide). */
typedef struct TuiSlider {
    const char *key;
    const char *label;
    double lo, hi;         /* the slider's range */
    double step;           /* added per press; with `scale`, a factor per press */
    bool scale;            /* step multiplies (dt, iterations) */
    const ParamInfo *info; /* params_find(key), or NULL: the row is not shown */
    /* whether the key acts on settings p (the scene, the integrator, the
     * collider in use); NULL: always. A row that does not act is hidden. */
    bool (*acts)(const Params *p);
} TuiSlider;

#define TUI_MAX_SLIDERS 32

/* ---------------------------------------------------------------- the app */

typedef enum TuiColour { COLOUR_NONE, COLOUR_8, COLOUR_16, COLOUR_256 } TuiColour;

/* A window's copy of the cells tui_blit last wrote into it (win, width x
 * height); valid once a whole canvas has been copied in. */
typedef struct TuiShadow {
    WINDOW *win;
    CanvasCell *cells;
    size_t capacity; /* cells room */
    int width, height;
    bool valid;
} TuiShadow;
#define TUI_SHADOWS (3 + 2 * TUI_MAX_PANES) /* status, panel, help; each pane's view and plots */

/* What else decides the curses cell tui_blit makes of a canvas cell. */
typedef struct TuiBlitStyle {
    short pair[PALETTE_COUNT][PALETTE_COUNT];
    attr_t extra_attr[PALETTE_COUNT];
    bool drop_bold[PALETTE_COUNT];
    int colour;
    bool wide;
} TuiBlitStyle;

typedef struct Tui {
    /* options */
    int fps;
    bool stats;
    const char *record_path;
    Output *recording;            /* --record, opened before the session starts; or NULL */
    bool ascii_only;              /* --ascii or a locale that is not UTF-8 */
    bool utf8;                    /* the locale can show braille and half blocks */
    bool lesson_layout;           /* a lesson: a wide narration panel beside or under the panes */
    bool teacher_view;            /* learn --teacher: the lesson's teacher notes and answers shown */
    bool offscreen;               /* tests: canvases laid out and drawn, no curses window opened */
    const char *const *help_keys; /* the help overlay's pairs: tui_key_help or the lesson's */
    const char *help_footer;      /* its last line */

    /* the simulation */
    Params base;                  /* settings every pane shares */
    const ParamInfo *compare_key; /* NULL: the sandbox */
    char compare_values[TUI_MAX_PANES][64];
    int pane_count;
    TuiPane panes[TUI_MAX_PANES];
    bool paused;
    bool blowing_up;    /* a pane is blowing up: slow motion (tui_blowup_slowdown) */
    bool settled;       /* at rest with nothing to move it: not stepping until a key */
    double calm_since;  /* simulated time the panes came to rest, or -1 */
    int speed;          /* index into tui_speeds */
    double accumulator; /* simulated time owed, s */
    double last_time;   /* monotonic s of the last frame */
    double fps_measured;
    int steps_dropped;         /* steps the catch-up cap or the physics budget threw away */
    double behind_until;       /* monotonic s: until then the status line says the physics is behind */
    double physics_rest_until; /* monotonic s: no steps before then (tui_advance, TUI_PHYSICS_SHARE) */

    /* ready comparisons and what compared panes share (tui_compare.c) */
    const struct Preset *preset;   /* the preset the panes show, or NULL */
    Params before_preset;          /* the sandbox's settings, back when the preset ends */
    RenderMode mode_before_preset; /* and its drawing */
    float strain_ramp;             /* compared panes: their one ramp top (render_strain_ramp_fit); 0: none */

    /* the view */
    RenderOptions render;
    bool help;
    int help_page, help_pages;          /* the help's page shown, of how many (tui_help_plan) */
    int selected;                       /* panel row */
    TuiSlider sliders[TUI_MAX_SLIDERS]; /* the rows that act on the panes' settings (tui_sliders_update) */
    int slider_count;
    int panel_top;      /* the first row shown when they do not all fit */
    float zoom;         /* the person's zoom on top of the framing, 1 = framed */
    bool show_residual; /* after a pass or substep: plot the residual of each pass */
    bool show_cuts;     /* x: the links' parts inside the collider drawn magenta (render_draw_cut_links) */
    bool wind_off;
    double saved_wind_x, saved_wind_z, saved_turbulence;
    char message[TEXT_MESSAGE_SIZE]; /* drawn wrapped to the width of the first pane */
    double message_time;             /* monotonic s it was set */
    double message_seconds;          /* how long it shows: longer for a longer one, to be read */

    /* grabbing with keys or mouse */
    int grab_pane;                      /* -1: nothing held */
    float grab_sx, grab_sy, grab_depth; /* where on the pane's view, cells, and how deep, m */
    int drag_button;                    /* 0 none, 1 left (pull), 3 right (orbit) */
    int drag_x, drag_y;                 /* last mouse cell while orbiting */
    /* what the mouse did, for --stats: left presses that took a particle,
     * reports of motion that moved it, and releases that let it go */
    unsigned long mouse_grabs, mouse_drags, mouse_throws;

    /* the screen */
    TuiTerm term;
    TuiColour colour;
    short pair[PALETTE_COUNT][PALETTE_COUNT]; /* colour pair of fg on bg; -1: use fg on default */
    short colour_of[PALETTE_COUNT];           /* terminal colour of each palette entry */
    attr_t extra_attr[PALETTE_COUNT];         /* bold for bright colours on 8-colour terminals */
    bool drop_bold[PALETTE_COUNT];            /* bold would make it pale (colours.h) */
    Background background_asked;              /* --background */
    PaletteBackground background;             /* the one the colours are for */
    int next_pair;
    bool too_small;
    bool panel_shown;
    bool panel_dirty;
    int panel_cg_iterations; /* implicit: the solve's iterations the panel shows, to redraw it when they change */
    double panel_cg_residual;
    WINDOW *status_win, *panel_win, *help_win;
    Canvas *status, *panel, *help_canvas;
    /* What tui_blit last copied into each window of the layout, so that a
     * frame copies only the cells that changed (tui_draw.c). */
    TuiShadow shadows[TUI_SHADOWS];
    TuiBlitStyle shadow_style; /* the mapping of cells to curses the shadows were copied in */
    unsigned long frames;
    double draw_seconds, physics_seconds; /* spent in each, for --stats */
    bool quit;
    bool lessons_asked; /* L: the loop opens the lesson menu once the keys read before it are done */
} Tui;

extern const double tui_speeds[];
extern const int tui_speed_count;
#define TUI_SPEED_NORMAL 3 /* tui_speeds[3] == 1 */

/* Smallest terminal drawn: below it a notice says so. */
#define TUI_MIN_COLS LAYOUT_MIN_COLS
#define TUI_MIN_ROWS LAYOUT_MIN_ROWS
#define TUI_MESSAGE_SECONDS 4.0

/* The message line: format (translated) with its arguments, shown for as
 * long as it takes to read, TUI_MESSAGE_SECONDS at least. */
void tui_message(Tui *tui, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* The one of the two the locale shows: utf8, or ascii. */
const char *tui_text(const Tui *tui, const char *utf8, const char *ascii);
/* The step the status line and n, s and p name: the one last worked in,
 * counted from 1 (the solver's completed steps, one more inside a step). */
long long tui_step_shown(const Solver *solver);
/* Lets go of the particle held, in every pane; nothing if none is. */
void tui_grab_release(Tui *tui);

/* implicit: a substep of the last step (or of the one under way) whose
 * solve did not converge, so what is on screen is not backward Euler's
 * answer (the status line, the panel and the pane say so) */
static inline bool tui_solve_unconverged(const Solver *s)
{
    return s->params.integrator == INTEGRATOR_IMPLICIT && s->cg_unconverged_step >= 0 &&
           s->cg_unconverged_step >= s->step - 1;
}

#endif
