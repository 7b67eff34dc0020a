/* render.h - draws a solver's state into a canvas: the cloth in one of four
 * modes, its colliders, a strain legend, small line plots; and picks the
 * particle under a screen point.
 *
 * A frame is: render_begin, any render_draw_* in any order (the dot layer's
 * depth buffer sorts them), render_end, then text overlays. render_solver
 * does all of it for a solver. Drawing allocates nothing and does no I/O,
 * except that the first frame of a cloth larger than any drawn before on a
 * canvas takes its per-particle scratch (render_reserve does that ahead).
 */
#ifndef CLOTHSIM_RENDER_H
#define CLOTHSIM_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cloth.h"
#include "core/collide.h"
#include "core/solver.h"
#include "camera.h"
#include "canvas.h"
#include "raster.h"

typedef enum RenderMode {
    RENDER_SHADED, /* filled triangles lit from options.light; front and back told apart */
    RENDER_WIRE,   /* links as lines, a colour (ASCII: glyphs) per family; torn links gone */
    RENDER_STRAIN, /* structural and shear links coloured by strain; over their tear limit flagged */
    RENDER_POINTS, /* particles only; pinned ones marked */
    RENDER_MODE_COUNT
} RenderMode;

extern const char *const render_mode_names[]; /* "shaded", "wire", "strain", "points", NULL */

typedef struct RenderOptions {
    RenderMode mode;
    Glyphs glyphs;
    bool high_contrast; /* bold cells, no dark shades, no dithering */
    bool legend;        /* strain and wire modes: render_solver writes a legend on the bottom row */
    float strain_full;  /* strain mode: the strain at the top of the ramp; 0 is RENDER_STRAIN_FULL */
    float light[3];     /* towards the light, view axes: x right, y up, z towards the viewer;
                           any length but 0 */
    /* wire mode: bit 1 << LinkFamily set for each family not drawn; 0 draws all */
    unsigned hidden_families;
} RenderOptions;

/* Shaded mode, braille, the legend on, light from the upper left behind the viewer. */
void render_options_default(RenderOptions *options);

/* Strain at the top of the strain ramp: twice Provot's 10 % limit
 * (Provot 1995), so the limit falls between steps 2 and 3 of 6. */
#define RENDER_STRAIN_FULL 0.2f

/* Light on a surface turned away from it: shading is
 * RENDER_AMBIENT + (1 - RENDER_AMBIENT) * max(0, cos angle to the light). */
#define RENDER_AMBIENT 0.15f

/* How far from a particle (in columns; rows count aspect columns) a click
 * still picks it. */
#define RENDER_PICK_RADIUS 3.0f

/* The ramp step (0..PALETTE_STRAIN_STEPS-1) of a link's strain (length / rest
 * - 1): compression and 0 give 0, RENDER_STRAIN_FULL and above the last. */
int render_strain_step(float strain);
/* The same on a ramp whose top is full (> 0; else RENDER_STRAIN_FULL). */
int render_strain_step_to(float strain, float full);

/* Makes room in the canvas's scratch for drawing cloth, so that no later
 * frame allocates. Returns false when out of memory. */
bool render_reserve(Canvas *canvas, const Cloth *cloth);

/* Starts a frame: clears the cells and the dot layer for options->glyphs. */
void render_begin(Canvas *canvas, const RenderOptions *options);

/* Draws the cloth in options->mode into the dot layer. If the scratch cannot
 * be had (out of memory) the cloth is not drawn. camera may have another
 * viewport size than the canvas: the canvas's size is used. */
void render_draw_cloth(Canvas *canvas, const Camera *camera, const Cloth *cloth, const RenderOptions *options);

/* A sphere, centre (m) and radius (m), shaded, depth-tested against the cloth.
 * Like every solid collider, sparser in the line modes so that lines stay
 * readable over it, and drawn in PALETTE_COLLIDER_*. */
void render_draw_sphere(Canvas *canvas, const Camera *camera, const double center[3], double radius,
                        const RenderOptions *options);

/* An axis-aligned cube, centre (m) and edge size (m), flat-shaded faces. */
void render_draw_box(Canvas *canvas, const Camera *camera, const double center[3], double size,
                     const RenderOptions *options);

/* An upright cone: the centre of its base (m), base radius (m), height (m)
 * up to the tip along +y. Smooth-shaded side, flat base. */
void render_draw_cone(Canvas *canvas, const Camera *camera, const double base[3], double radius, double height,
                      const RenderOptions *options);

/* A floor: grid lines on the plane y = floor_y (m) around the camera's target. */
void render_draw_floor(Canvas *canvas, const Camera *camera, double floor_y, const RenderOptions *options);

/* One solid collider (core/collide.h), whatever its shape. In a section
 * (camera.h: Camera.section) a box is its outline where the section's plane
 * cuts it, and the other shapes are not drawn. */
void render_draw_collider(Canvas *canvas, const Camera *camera, const Collider *collider, const RenderOptions *options);

/* The solver's collider where it is now (solver_collider), and the floor if
 * params.floor is on. */
void render_draw_colliders(Canvas *canvas, const Camera *camera, const Solver *solver, const RenderOptions *options);

/* A marker on particle i of cloth (the grabbed one), in front of everything. */
void render_draw_marker(Canvas *canvas, const Camera *camera, const Cloth *cloth, int i, const RenderOptions *options);

/* Links marked (marked[l] != 0, one per link of cloth) drawn as solid
 * lines in PALETTE_STRAIN_5, in front of the cloth: a lesson's links that
 * the passes of the current substep have moved so far. Torn links are
 * left out. */
void render_draw_marked_links(Canvas *canvas, const Camera *camera, const Cloth *cloth, const uint8_t *marked,
                              const RenderOptions *options);

/* The torn structural and shear links of cloth, where they were (between
 * their particles now), as solid lines in PALETTE_STRAIN_WARN in front of
 * the cloth: a lesson's scars, so that a few torn links in a large cloth
 * show. */
void render_draw_torn_links(Canvas *canvas, const Camera *camera, const Cloth *cloth, const RenderOptions *options);

/* Where links of cloth cut into the collider (core/collide.h): the part of
 * each structural and shear link inside its true surface
 * (collide_link_inside), as a solid line in PALETTE_STRAIN_WARN (ASCII: '!')
 * in front of the cloth and the collider, so that a cut of a few centimetres
 * into a box's edge shows where the cloth hides it. Allocates nothing. */
void render_draw_cut_links(Canvas *canvas, const Camera *camera, const Cloth *cloth, const Collider *collider,
                           const RenderOptions *options);

/* The parabola through the first row's two end particles and its lowest
 * particle, in the plane z of that lowest particle, drawn a hair behind the
 * cloth in the highlight colour: Galileo's guess for a hanging chain, against
 * which the chain's catenary shows. Nothing when the row has under three
 * particles or its ends share an x. Allocates nothing. */
void render_draw_parabola(Canvas *canvas, const Camera *camera, const Cloth *cloth, const RenderOptions *options);

/* A path through count points (x, y, z in m, three floats each, oldest
 * first) as a line in PALETTE_HIGHLIGHT, behind the cloth where they
 * overlap: where a particle has been (a lesson's trace). Allocates
 * nothing. */
void render_draw_path(Canvas *canvas, const Camera *camera, const float *points, int count,
                      const RenderOptions *options);

/* Ends a frame: resolves the dot layer into cells. */
void render_end(Canvas *canvas, const RenderOptions *options);

/* Cells the whole strain legend takes; with less room it is the ramp
 * between "0%" and "20%" and the over-limit colour only. */
#define RENDER_LEGEND_WIDTH 39

/* The ramp's top for panes compared side by side, so that one colour means
 * one strain in each: the smallest of 0.1, 0.2, 0.5, 1, 2, 5 ... % at or
 * above both full (the top so far: it only grows, the colours do not shift
 * back and forth) and strain (the strain the top should reach now, NaN:
 * none), never below RENDER_RAMP_LEAST nor above RENDER_RAMP_MOST (a link
 * stretched to twice its length is as red as can be). */
#define RENDER_RAMP_LEAST 0.001f
#define RENDER_RAMP_MOST 1.0f
float render_strain_ramp_fit(float full, float strain);

/* Wire mode's legend, one row from x, y: a swatch (ASCII: the glyph) and the
 * name of each family, a hidden one marked so. Returns the column after it. */
int render_wire_legend(Canvas *canvas, int x, int y, const RenderOptions *options);

/* The strain legend, one row from x, y (cells): the ramp with the 10 % line
 * marked and the over-limit colour. ASCII only in GLYPHS_ASCII. Returns the
 * column after it. */
int render_legend(Canvas *canvas, int x, int y, const RenderOptions *options);

/* A solver's cloth as render_draw_cloth draws it; once exploded, as the
 * explosion was found (Solver.blown_x ...), not the step it was put back to. */
void render_draw_solver_cloth(Canvas *canvas, const Camera *camera, const Solver *solver, const RenderOptions *options);

/* A whole frame of a solver: colliders, cloth, the grabbed particle marked,
 * and in strain mode the legend on the bottom row (if options->legend). */
void render_solver(Canvas *canvas, const Camera *camera, const Solver *solver, const RenderOptions *options);

/* What a lesson draws over a pane's cloth: its marked links and a path
 * (render_draw_marked_links, render_draw_path); NULL and 0 for none. */
typedef struct RenderExtras {
    const uint8_t *marked; /* one per link, or NULL */
    bool torn;             /* the torn links drawn (render_draw_torn_links) */
    bool parabola;         /* the first row's parabola drawn (render_draw_parabola) */
    bool cuts;             /* the links' parts inside the collider drawn (render_draw_cut_links), and
                              the bend links, which meet no collider, left out in wire mode */
    const float *path;     /* path_count points, x y z each */
    int path_count;
} RenderExtras;

/* render_solver with the extras (NULL: none) drawn over the cloth. */
void render_solver_with(Canvas *canvas, const Camera *camera, const Solver *solver, const RenderOptions *options,
                        const RenderExtras *extras);

/* The particle nearest the screen point sx, sy (cells, fractional: a mouse
 * click on column c, row r is c + 0.5, r + 0.5) within RENDER_PICK_RADIUS,
 * the nearest in depth on a tie; -1 if none. */
int render_pick(const Canvas *canvas, const Camera *camera, const Cloth *cloth, float sx, float sy);

/* A small line plot in the rectangle x, y, w, h (cells): the label and the
 * last value on the top row (if h >= 2), below it the last values that fit
 * (oldest left), scaled between their minimum and maximum, in colour
 * (Palette). Non-finite values are skipped. Cells of the rectangle are
 * overwritten; drawn directly into cells, so call it after render_end. */
void render_plot(Canvas *canvas, int x, int y, int w, int h, const float *values, int n, uint8_t colour,
                 const char *label, Glyphs glyphs);

/* How a plot is scaled: between lo and hi when both are finite (values
 * beyond are pinned to the edge, and the range is printed after the label),
 * else between the values' least and greatest; log: log10 of the values'
 * size, for a quantity that grows by orders of magnitude; reference: a
 * dotted line at that value (NAN: none); percent: values printed as %. */
typedef struct RenderPlotScale {
    float lo, hi;
    bool log;
    float reference;
    bool percent;
} RenderPlotScale;

/* Grows a fixed scale (lo, hi finite; lo < hi) to hold value, never
 * shrinking it: the side value is past moves out to a round number a
 * quarter of the new range beyond it, so a plot rescales seldom and its
 * printed range stays short. Non-finite values leave it. */
void render_plot_scale_hold(RenderPlotScale *scale, float value);

/* A fixed scale around a series' first value start: start plus and minus
 * a tenth of its size (at least least), out to round numbers. */
void render_plot_scale_around(RenderPlotScale *scale, float start, float least);

/* render_plot with a scale. The label row never cuts a number: without room
 * for everything, the range goes first, then the label. */
void render_plot_scaled(Canvas *canvas, int x, int y, int w, int h, const float *values, int n, uint8_t colour,
                        const char *label, Glyphs glyphs, const RenderPlotScale *scale);

#endif
