/* raster.h - draws points, lines and triangles into a canvas's dot layer,
 * then resolves the dots to cells.
 *
 * A terminal cell is coarse, so shapes are first drawn into a finer grid of
 * dots with a depth buffer, then each cell takes the glyph that shows its
 * dots best:
 *   GLYPHS_BRAILLE  2 x 4 dots a cell, Unicode braille patterns U+2800..U+28FF;
 *                   one colour a cell, that of its nearest lit dot. Shading also
 *                   lights fewer dots where dark (ordered dither), so it shows
 *                   even without colour.
 *   GLYPHS_HALF     1 x 2 dots a cell, the half blocks U+2580, U+2584, U+2588;
 *                   each half has its own colour (fg top, bg bottom).
 *   GLYPHS_ASCII    1 x 1, printable ASCII only (LANG=C, --ascii): the shape's
 *                   own character, for example a shading ramp or '-' '|'.
 *
 * Coordinates given to raster_point, raster_line and raster_triangle are in
 * cells, fractional: x from 0 (left edge) to canvas width, y from 0 (top edge)
 * to canvas height; the cell (i, j) covers [i, i+1) x [j, j+1). Depth is
 * metres along the view axis: smaller is nearer, and a dot keeps the nearest
 * thing drawn on it whatever the order of drawing.
 */
#ifndef CLOTHSIM_RASTER_H
#define CLOTHSIM_RASTER_H

#include <stdint.h>

#include "canvas.h"

extern const char *const glyphs_names[]; /* "braille", "half", "ascii", NULL */

/* What a dot is drawn with. */
typedef struct Ink {
    uint8_t colour;   /* Palette */
    char ascii;       /* its glyph in GLYPHS_ASCII: printable, not ' ' */
    uint8_t coverage; /* GLYPHS_BRAILLE: share of dots lit, 0..255 (255 lights every dot) */
} Ink;

/* A shading ramp: shade s in [0, 1] picks ink[(int)(s * steps)]. */
#define RASTER_MAX_RAMP 16
typedef struct RasterRamp {
    int steps; /* 1..RASTER_MAX_RAMP */
    Ink ink[RASTER_MAX_RAMP];
} RasterRamp;

/* Starts a frame of dots for glyphs: clears every dot and sets the canvas's
 * dots_x, dots_y, dot_cols and dot_rows. Cells are not touched. */
void raster_begin(Canvas *canvas, Glyphs glyphs);

/* Draws the dot at dot column x, dot row y (0..dot_cols-1, 0..dot_rows-1;
 * others are ignored) if depth is nearer than what it holds. */
void raster_dot(Canvas *canvas, int x, int y, float depth, Ink ink);

/* The dot that contains the point x, y (cells). */
void raster_point(Canvas *canvas, float x, float y, float depth, Ink ink);

/* A line from x0, y0 to x1, y1 (cells), depth interpolated, clipped to the
 * canvas. Dots that ink's coverage leaves unlit are not drawn: a dotted line
 * hides nothing between its dots. */
void raster_line(Canvas *canvas, float x0, float y0, float depth0, float x1, float y1, float depth1, Ink ink);

/* count dots of dot row `row` from dot column first, each with its own depth
 * (m; NaN leaves the dot alone) and shade (0..1) taken from ramp: a surface
 * the caller traces itself, such as a sphere. Clipped to the layer. */
void raster_row(Canvas *canvas, int row, int first, int count, const float *depth, const float *shade,
                const RasterRamp *ramp);

/* A filled triangle (cells), either winding, with depth and shade (0..1)
 * interpolated across it; each dot takes its ink from ramp. */
void raster_triangle(Canvas *canvas, const float x[3], const float y[3], const float depth[3], const float shade[3],
                     const RasterRamp *ramp);

/* The bit of the dot at column x (0..1), row y (0..3) of a braille cell,
 * added to U+2800 (Unicode numbers the dots 1-2-3-7 down the left column,
 * 4-5-6-8 down the right). */
unsigned raster_braille_bit(int x, int y);

/* Turns the dots into cells for the glyphs of raster_begin: every cell with at
 * least one dot drawn gets glyph, colours, depth and attr; others stay as
 * they are. */
void raster_resolve(Canvas *canvas, uint8_t attr);

#endif
