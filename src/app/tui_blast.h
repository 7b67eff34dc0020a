/* tui_blast.h - an explosion the back row sees.
 *
 * When a pane's solver explodes it goes back to its last good step and
 * keeps the positions the explosion was found at (solver.h, blown_x): on
 * screen that is the hanging curtain with a few long links, and the class,
 * told "it flies apart", would never see it fly. So the screen keeps the
 * solver's state at the end of every frame it has not exploded (a copy,
 * made in the frame loop, never in the step or the drawing), and when it
 * explodes, a second solver (the ghost) is loaded with that state and
 * steps on with its explosion check off (Solver.unchecked): the same bits
 * up to the substep the explosion was found at, then what the integrator
 * would have done next. The pane shows the ghost's cloth flying apart over
 * TUI_BLAST_SECONDS, its camera widening to keep every particle in view,
 * until the cloth spans TUI_BLAST_END times its rest size or a step would
 * put a coordinate past TUI_BLAST_LIMIT times it (or not finite), then
 * holds that frame. Only positions that are finite and within the limit
 * are ever shown. The flight's energy and largest strain go on in the
 * pane's plots (their log scale shows the growth); the banner's figures
 * stay those of the explosion.
 *
 * Presentation only: the pane's own solver, its metrics, the lesson's
 * expects and a run's CSV never see the ghost.
 */
#ifndef CLOTHSIM_TUI_BLAST_H
#define CLOTHSIM_TUI_BLAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/solver.h"
#include "render/camera.h"
#include "render/canvas.h"
#include "render/render.h"

#define TUI_BLAST_SECONDS 2.5  /* real s the flight takes on screen */
#define TUI_BLAST_END 50.0     /* the flight ends when the cloth spans this many times its rest size */
#define TUI_BLAST_LIMIT 1000.0 /* no position further than this many rest sizes out is shown */
/* A state saved more substeps than this before the explosion is not
 * replayed (a lesson run finished at once): the pane keeps the frame the
 * explosion was found at. A frame's steps are far fewer (lesson 2: 2 steps
 * of 70 substeps); this many take about half a second on the curtain
 * (30 x 24 particles, 0.5 ms a substep under euler on this machine). */
#define TUI_BLAST_MAX_REPLAY 1000

typedef enum TuiBlastPhase {
    BLAST_NONE,   /* not exploded, or no state to go on from */
    BLAST_FLYING, /* the ghost steps on, frame by frame */
    BLAST_HELD,   /* the flight is over: its last frame stays */
} TuiBlastPhase;

typedef struct TuiBlast {
    const Solver *owner; /* the pane's solver the rest is about */
    /* the owner's state at the end of the last frame it was whole and not exploded */
    unsigned char *before;
    size_t before_size, before_capacity;
    int64_t before_step;
    bool before_valid;

    TuiBlastPhase phase;
    Solver *ghost;       /* steps on past the explosion (BLAST_FLYING) */
    float *x, *y, *z;    /* the positions shown: the ghost's last finite ones, m */
    int count;           /* particles in x, y, z */
    double spread_start; /* m: the cloth's span when the explosion was found ... */
    double spread;       /* ... and as shown now */
    double rest_span;    /* m: its span at rest (Solver.rest_extent) */
    double flown;        /* real s of flight so far */
    double shown_time;   /* s: the ghost's time at the positions shown */
    double last_frame;   /* monotonic s of the frame that last looked (the front end's clock) */
    /* the metrics of the positions shown, when tui_blast_fly last showed new ones: for the plots */
    double energy, max_strain;
    int samples;                    /* frames of flight put in the plots (tui_blasts_update) */
    float start_lo[3], start_hi[3]; /* m: the cloth and collider when it went, and where it was found */
} TuiBlast;

/* Frees what the blast holds and clears it. */
void tui_blast_clear(TuiBlast *blast);

/* At the end of a frame, for a pane's solver: while it is whole and has
 * not exploded, keeps its state; once it has exploded, starts the flight
 * (the ghost from the kept state, stepped to the substep the explosion was
 * found at). A new solver or a reset starts afresh. False only when out of
 * memory (the blast is then cleared and the pane shows the frame the
 * explosion was found at). */
bool tui_blast_watch(TuiBlast *blast, const Solver *solver);

/* Flies on for seconds of real time: steps the ghost until the span shown
 * has grown as far as the time allows. True when it shows new positions;
 * energy and max_strain are then theirs (NAN where they could not be
 * measured). */
bool tui_blast_fly(TuiBlast *blast, double seconds);

/* Whether the pane shows the blast (flying or held), and whether it still moves. */
bool tui_blast_shown(const TuiBlast *blast);
bool tui_blast_flying(const TuiBlast *blast);

/* The ghost's time shown, s (the flight's clock); NAN when none. */
double tui_blast_time(const TuiBlast *blast);

/* Draws the pane's picture from the blast, as render_solver draws a
 * solver's (solver: the pane's, whose links and collider are drawn; camera:
 * the pane's, whose angle and viewport are kept, widened to frame every
 * particle shown and where the cloth was). False, drawing nothing, when
 * the blast is not shown. No curses: tests read the canvas as text. */
bool tui_blast_render(TuiBlast *blast, Canvas *canvas, const Camera *camera, const Solver *solver,
                      const RenderOptions *options);

#endif
