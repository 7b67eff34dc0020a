/* tui_private.h - what the files of the terminal front end share.
 *
 *   tui.c        options, the panes and their solvers, the frame loop and its clock
 *   tui_input.c  keys and mouse: every action a person can take
 *   tui_draw.c   layout, colours, the one copy of a canvas to the screen, overlays
 *   tui_term.c   the terminal session: modes, signals, the counting output stream,
 *                the asciicast recording, restoring the terminal on every exit
 *   tui_lesson.c the lesson player and the lesson menu, on the same session,
 *                panes and drawing (lesson_layout puts its narration panel
 *                where the sandbox has its settings)
 *
 * Nothing here is used outside src/app. Only these files call curses;
 * bench.c includes this header to drive the sandbox's own frames into a
 * pseudo-terminal of its own and count the bytes (tui_session_start_measured).
 */
#ifndef CLOTHSIM_TUI_PRIVATE_H
#define CLOTHSIM_TUI_PRIVATE_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>
#include <termios.h>

#include "app/colours.h"
#include "app/output.h"
#include "app/tui_blast.h"
#include "core/metrics.h"
#include "core/params.h"
#include "core/solver.h"
#include "core/text.h"
#include "render/layout.h"
#include "render/render.h"

/* ---------------------------------------------------------------- terminal */

typedef struct TuiTerm {
    int tty_fd;               /* the terminal the screen goes to: standard output */
    int other_fd;             /* another input tui_term_wait waits on (a class's socket); <= 0: none */
    int rows, cols;           /* its size, cells */
    SCREEN *screen;           /* ncurses, writing into pipe_fd[1] */
    FILE *curses_out;         /* the write end of the pipe, as the stream newterm takes */
    int pipe_fd[2];           /* ncurses -> forwarder thread -> tty_fd */
    bool forwarding;          /* the forwarder thread runs */
    bool mouse;               /* mouse reporting was switched on */
    bool refused;             /* tui_term_start: the terminal cannot work (no cursor addressing) */
    bool background_known;    /* the terminal said its background colour ... */
    uint32_t background_rgb;  /* ... 0xRRGGBB */
    FILE *record;             /* the asciicast being written, or NULL ... */
    Output *recording;        /* ... the Output it belongs to (checked after each event) */
    double record_start;      /* monotonic s at the recording's start */
    unsigned long long bytes; /* written to the terminal; read after tui_term_stop */
    /* a measuring session (tui_term_start_measured): ncurses writes to a
     * pseudo-terminal of our own, or a pipe where there is none, and a drain
     * thread counts the bytes and drops them; the real terminal is untouched */
    bool measuring;
    int master_fd;   /* the pseudo-terminal's master, or -1: through pipe_fd */
    FILE *curses_in; /* the input stream newterm took */
    bool draining;   /* the drain thread runs */
} TuiTerm;

/* What tui_term_wait saw. */
typedef enum TuiWait { WAIT_TIMEOUT, WAIT_INPUT, WAIT_SIGNAL, WAIT_HANGUP, WAIT_OTHER } TuiWait;

/* Takes the terminal: checks that standard input and output are one, saves
 * and sets its modes, installs the signal handlers, with ask_background
 * asks the terminal its background colour (OSC 11: background_known and
 * background_rgb say the answer), starts ncurses on a
 * counting stream, starts the recording into record, opened by the caller,
 * who closes it after tui_term_stop (output_close; NULL: none). On failure
 * writes one sentence into err, leaves the terminal as it was and returns
 * false. */
bool tui_term_start(TuiTerm *term, Output *record, bool ask_background, char *err, size_t err_size);

/* With --record: an asciicast v2 marker event ("m") labelled label, now (a
 * player's chapter list jumps to it). Does nothing without a recording. */
void tui_term_mark(TuiTerm *term, const char *label);

/* A reply to the background query that came after the start stopped waiting
 * for it: its colour, once. */
bool tui_term_late_background(uint32_t *rgb);

/* Gives the terminal back as it was: mouse off, ncurses ended, every byte
 * forwarded, modes and signal handlers restored, recording ended (its
 * stream is left to its Output). */
void tui_term_stop(TuiTerm *term);

/* A session for measuring, not for a person: ncurses, as the sandbox sets it
 * up, on a pseudo-terminal of cols x rows that this opens itself (a pipe if
 * there is none: *through_pipe says so), for terminal type term_name. The
 * process's own terminal, modes and standard streams are not touched; SIGINT,
 * SIGTERM, SIGHUP and SIGTSTP keep their default effect. On failure writes
 * one sentence into err and returns false. tui_term_stop ends it. */
bool tui_term_start_measured(TuiTerm *term, const char *term_name, int cols, int rows, bool *through_pipe, char *err,
                             size_t err_size);

/* A measuring session: waits until every byte written so far has been
 * counted, and puts the count in *bytes. False if the drain stopped or took
 * longer than seconds. */
bool tui_term_sync(TuiTerm *term, double seconds, unsigned long long *bytes);

/* The next key waiting, read as a wide character (a non-ASCII key is one
 * character, not bytes with their top bit stripped): a curses key code
 * (KEY_UP, KEY_MOUSE ...), an ASCII character, TUI_KEY_OTHER for any other
 * character or key (none is bound), or ERR when none is waiting. */
int tui_read_key(void);
#define TUI_KEY_OTHER (KEY_MAX + 1)

/* Keys by their place: the key of the US layout that a Ukrainian or
 * Russian layout's letter sits on (й is q, ф is a, Й is Q, х is [), so
 * that on a Cyrillic layout every key does what the help says; any other
 * character: TUI_KEY_OTHER. tui_read_key gives keys so. */
int tui_key_by_place(unsigned letter);

/* Waits up to timeout_ms (-1: for ever) for a key, a signal or a hang-up,
 * or input on term->other_fd (WAIT_OTHER). */
TuiWait tui_term_wait(TuiTerm *term, int timeout_ms);

/* The SIGINT, SIGTERM or SIGHUP that asked us to quit, or 0. */
int tui_term_quit_signal(void);

/* If the window changed size since the last call, tells ncurses the new size
 * (term->rows, term->cols) and returns true. */
bool tui_term_take_resize(TuiTerm *term);

/* Switches mouse reporting on, with motion while a button is held. */
void tui_term_mouse_on(TuiTerm *term);

/* Monotonic clock, s. */
double tui_now(void);

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
} Tui;

extern const double tui_speeds[];
extern const int tui_speed_count;
#define TUI_SPEED_NORMAL 3 /* tui_speeds[3] == 1 */

/* Smallest terminal drawn: below it a notice says so. */
#define TUI_MIN_COLS LAYOUT_MIN_COLS
#define TUI_MIN_ROWS LAYOUT_MIN_ROWS
#define TUI_MESSAGE_SECONDS 4.0

/* tui.c */
void tui_defaults(Tui *tui); /* every option at its default */

/* The lesson screen without a terminal, for tests: tui->offscreen set and
 * tui->term the size; the player's panes are laid out and drawn into the
 * canvases (tui->status, tui->panel, each pane's view and plots) as the
 * player draws them on a terminal, curses never started. NULL when out of
 * memory; free with tui_lesson_offscreen_destroy (the player stays the
 * caller's). */
typedef struct LessonScreen LessonScreen;
struct Lesson;
struct LessonPlayer;
LessonScreen *tui_lesson_offscreen_create(Tui *tui, struct Lesson *lesson, struct LessonPlayer *player);
void tui_lesson_offscreen_draw(LessonScreen *screen);
void tui_lesson_offscreen_destroy(LessonScreen *screen);
void tui_locale(Tui *tui); /* the locale: UTF-8 or ASCII only; the sliders */
/* Takes the terminal and sets up curses (keys, colours, mouse); on failure one
 * sentence in err. tui_session_stop frees the windows and gives it back. */
bool tui_session_start(Tui *tui, char *err, size_t err_size);
/* The same on a measuring session (tui_term_start_measured): for bench. */
bool tui_session_start_measured(Tui *tui, const char *term_name, int cols, int rows, bool *through_pipe, char *err,
                                size_t err_size);
void tui_session_stop(Tui *tui);
void tui_pane_clear_history(TuiPane *pane);
/* How long the loop may block for input (ms, -1 for ever): until the next
 * frame while running, else until the message on screen expires. */
int tui_wait_ms(const Tui *tui, bool running, double next_frame);
/* The start of each turn of a frame loop: returns 128 + the signal that asked
 * to quit, or 0; after a resize, lays the screen out again and sets *dirty. */
int tui_loop_events(Tui *tui, bool *dirty);
void tui_message(Tui *tui, const char *format, ...) __attribute__((format(printf, 2, 3)));
bool tui_rebuild_panes(Tui *tui);      /* new solvers from tui->base (and compare values) */
bool tui_apply_base(Tui *tui);         /* live settings from tui->base into every pane */
void tui_reset(Tui *tui);              /* every pane back to its start */
void tui_sample(Tui *tui, bool force); /* plot samples where a solver moved */
/* The factor real time is slowed by while a pane blows up (energy climbing,
 * links stretched past their rest length): the class watches the last steps
 * in slow motion. Sets tui->blowing_up. */
#define TUI_BLOWUP_SPEED 0.2
double tui_blowup_slowdown(Tui *tui);
/* At each frame, after tui_sample: each pane's blast (tui_blast.h) watches
 * its solver and, with moving (not paused), flies on by the real time since
 * the last frame. tui_blasts_flying: whether one still moves, so that
 * frames go on being drawn though every pane has exploded. */
void tui_blasts_update(Tui *tui, bool moving);
bool tui_blasts_flying(const Tui *tui);
/* Steps the panes for elapsed s of real time (times the speed), as a frame of
 * the sandbox does; returns how many steps. paced: within TUI_PHYSICS_SHARE
 * of the time (tui.c), as the sandbox runs; not paced, every step owed (the
 * bench, whose figures must not depend on how busy the machine is). */
int tui_advance(Tui *tui, double elapsed, bool paced);
bool tui_set_key(Tui *tui, const char *key, const char *value); /* with a message on failure */
/* Both leave the sandbox as it was, with a message, and return false when
 * the panes cannot be built (a value the scene refuses, no memory). */
bool tui_compare_start(Tui *tui, const ParamInfo *key, const char values[][64], int count);
bool tui_compare_stop(Tui *tui);
const char *tui_text(const Tui *tui, const char *utf8, const char *ascii); /* the one the locale shows */

/* tui_input.c */
void tui_sliders_init(Tui *tui);
/* The panel's rows again for the panes' settings: only the keys that act
 * (compliances under xpbd, the sphere's radius with a sphere ...); the
 * chosen row stays chosen while it is shown. */
void tui_sliders_update(Tui *tui);
/* The text of the value `presses` steps (negative: down) from key's value in
 * params, along the sandbox's slider for key (or a plain one if it has none). */
void tui_slider_value(const Tui *tui, const Params *params, const ParamInfo *info, int presses, char *out,
                      size_t out_size);
void tui_handle_key(Tui *tui, int key);
/* The step the status line and n, s and p name: the one last worked in,
 * counted from 1 (the solver's completed steps, one more inside a step). */
long long tui_step_shown(const Solver *solver);
void tui_handle_mouse(Tui *tui);
void tui_grab_release(Tui *tui);

/* tui.c: the options the sandbox and the lessons share (--ascii --fps N
 * --high-contrast --background=WHICH --stats --record FILE.cast): 1 when
 * argv[*i] was one, 0 when not, -1 when its value is wrong (said). */
int tui_screen_option(Tui *tui, int argc, char **argv, int *i);

/* A class's lesson (class join): plays lesson for the student linked to
 * the class, from their page or the class's, in a running session. Returns
 * as play_lesson does: 0 quit, -1 the terminal went away, 1 out of memory,
 * 128 + a signal. */
struct ClassLink;
struct Lesson;
int tui_class_lesson(Tui *tui, struct ClassLink *link, struct Lesson *lesson);
/* The screen as drawn, sent to the class's watchers when link presents
 * (class_screen.c); now: monotonic s. */
void tui_class_present(struct ClassLink *link, double now);
/* --stats: frames, bytes sent and time a frame, on stderr */
void tui_print_stats(const Tui *tui);

/* tui_lesson.c: the lesson menu on a running session (L in the sandbox),
 * until q there; returns 0, or 128 + the signal that asked to quit. The
 * caller keeps its panes: a lesson takes tui's. */
int tui_lessons_menu(Tui *tui);

/* tui_compare.c: the ready comparisons (presets.h) and what compared panes
 * share: one camera, one strain ramp, plot scales that hold their range. */
struct Preset;
/* Opens preset in the sandbox (its key): the sandbox's settings are kept
 * for tui_preset_close; the same preset's key again closes it. False, with
 * a message, leaving the sandbox as it was, when the panes cannot be built. */
bool tui_preset_open(Tui *tui, const struct Preset *preset);
bool tui_preset_close(Tui *tui);
void tui_preset_key(Tui *tui, const struct Preset *preset);
/* --preset: the panes parse_options set up, shown as the key shows them;
 * false when there is no preset. */
bool tui_start_preset(Tui *tui);
/* After samples: the sandbox's plot scales and the compared panes' ramp
 * grown to hold them (a new history starts them again). */
void tui_scales_hold(Tui *tui);
/* How a pane's plots are scaled, for a lesson's view line and the sandbox
 * alike: energy between lo and hi (both NAN: the values' own range), on a
 * log scale if log, the dotted line at the starting energy start (NAN:
 * none); strain between strain_lo and strain_hi (NAN: own range), the
 * dotted line at Provot's 10 % when it is fixed. */
void tui_pane_scales(TuiPane *pane, float lo, float hi, bool log, float start, float strain_lo, float strain_hi);
/* The scales pane i's plots are drawn with now. */
void tui_pane_plot_scales(const Tui *tui, int i, RenderPlotScale *energy, RenderPlotScale *strain);
/* L: the lesson menu, then the sandbox back as it was. */
void tui_open_lessons(Tui *tui);
/* v: wire mode, and which link families it draws: all, then each alone. */
void tui_next_families(Tui *tui);
/* A compared pane's label with the links it has torn after it ("torn 12 "),
 * where it tears and the view (width cells) has room: the count that
 * tells naive tearing from hysteresis. */
void tui_pane_torn(const Tui *tui, int i, char *label, size_t size, int width);

/* implicit: a substep of the last step (or of the one under way) whose
 * solve did not converge, so what is on screen is not backward Euler's
 * answer (the status line, the panel and the pane say so) */
static inline bool tui_solve_unconverged(const Solver *s)
{
    return s->params.integrator == INTEGRATOR_IMPLICIT && s->cg_unconverged_step >= 0 &&
           s->cg_unconverged_step >= s->step - 1;
}
/* The line the sandbox shows at start: the ready comparisons' keys. */
void tui_presets_hint(Tui *tui);

/* tui_camera.c: every pane's camera fitted to its cloth, or a comparison's
 * to them all (tui_fit_shared_camera); a camera a lesson places is left. */
void tui_fit_cameras(Tui *tui);
/* The panes of a comparison framed by one camera (camera_fit_solvers), as
 * the preset shown wants it; false when there is no comparison to frame. */
bool tui_fit_shared_camera(Tui *tui);

/* tui_draw.c */
void tui_colours_init(Tui *tui);
/* The colour pairs again for tui->background and high contrast, after a change. */
void tui_colours_apply(Tui *tui);
/* --background's value; reports and returns false if it is none of background_names. */
bool tui_parse_background(const char *value, Background *background);
/* Sets tui->background from --background, else COLORFGBG; returns whether
 * the terminal should be asked (auto, COLORFGBG silent, colours wanted). */
bool tui_background_from_environment(Tui *tui);
/* The B key: colours for the other background, from now on. */
void tui_background_toggle(Tui *tui);
bool tui_layout(Tui *tui); /* windows and canvases for the terminal's size */
void tui_layout_free(Tui *tui);
void tui_draw(Tui *tui);
void tui_draw_panes(Tui *tui); /* each pane's view and plots, to be sent by doupdate */
void tui_draw_help(Tui *tui);  /* the help overlay of tui->help_keys, page tui->help_page */
/* How the help overlay of keys (NULL-terminated pairs: label, what it does)
 * and its footer fits a screen of rows x cols: every text whole, wrapped in
 * its column; one column if they fit, else side by side, else pages. */
typedef struct TuiHelpPlan {
    int width, height;         /* the box, cells */
    int across;                /* columns of keys side by side on a page */
    int key_width, text_width; /* cells of a column's labels and of its texts */
    int body_rows;             /* rows of keys a column holds */
    int footer_rows;
    int pages; /* 1, or more when even side by side they do not fit */
} TuiHelpPlan;
void tui_help_plan(const char *const *keys, const char *footer, int rows, int cols, TuiHelpPlan *plan);
/* Draws page `page` of the help into c, a canvas of plan's size: no curses. */
void tui_help_render(Canvas *c, const char *const *keys, const char *footer, const TuiHelpPlan *plan, int page,
                     bool ascii);
void tui_draw_too_small(Tui *tui); /* the notice shown instead of a frame */
/* Text by display width (wcwidth: a CJK character takes two cells, a
 * combining mark none): the cells text takes, and text written from x, clipped
 * before column limit; returns the column after it. */
int tui_text_cells(const char *utf8);
int tui_text_put(Canvas *canvas, int x, int y, int limit, const char *utf8, uint8_t fg, uint8_t attr);
/* The same, but text that does not fit ends in an ellipsis ("..." if ascii)
 * within limit instead of stopping short without a sign. */
int tui_text_put_fitted(Canvas *canvas, int x, int y, int limit, const char *utf8, uint8_t fg, uint8_t attr,
                        bool ascii);
void tui_blit(Tui *tui, WINDOW *win, const Canvas *canvas);
/* The pane whose view holds screen cell (y, x), with the cell inside it; -1 if none. */
int tui_pane_at(const Tui *tui, int y, int x, int *view_y, int *view_x);

/* The key lines of the help overlay and the man page: NULL-terminated pairs
 * of a label (the keys, as tests/app/test_tui.c reads it: names apart, "1 .. 6"
 * a range) and what they do. Every key tui_handle_key binds is in
 * tui_key_help, every key the lesson player binds in tui_lesson_key_help. */
extern const char *const tui_key_help[];
extern const char *const tui_lesson_key_help[];

#endif
