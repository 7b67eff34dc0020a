/* canvas.h - an off-screen grid of terminal cells: glyph, colours, depth.
 *
 * The renderer draws only into a Canvas, never to a terminal (STYLE.md: the
 * tinyrenderer habit). The app layer copies the cells to curses and maps the
 * abstract palette indices below to colour pairs; tests and `clothsim run
 * --frames` read the same cells back as text with canvas_to_utf8.
 *
 * A cell is one terminal column wide and one row high. Colours are indices
 * into Palette, not terminal colours: what "a dark shade of the front side"
 * looks like is the app's business. palette_rgb suggests a colour for each,
 * on a dark and on a light terminal background.
 *
 * Besides its cells a canvas owns the buffers the renderer needs (the sub-cell
 * dot layer of raster.h and a scratch area), so that drawing a frame never
 * allocates: memory is taken in canvas_create, canvas_resize and
 * canvas_reserve only.
 */
#ifndef CLOTHSIM_CANVAS_H
#define CLOTHSIM_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Abstract colours. Ramps run from dark (or low) to bright (or high). */
typedef enum Palette {
    PALETTE_DEFAULT = 0, /* the terminal's own foreground or background */

    /* shaded cloth, the side its triangle normals point to */
    PALETTE_FRONT_0,
    PALETTE_FRONT_1,
    PALETTE_FRONT_2,
    PALETTE_FRONT_3,
    PALETTE_FRONT_4,
    PALETTE_FRONT_5,
    /* shaded cloth, the other side */
    PALETTE_BACK_0,
    PALETTE_BACK_1,
    PALETTE_BACK_2,
    PALETTE_BACK_3,
    PALETTE_BACK_4,
    PALETTE_BACK_5,

    /* wire mode: one colour per link family (LinkFamily order) */
    PALETTE_STRUCTURAL,
    PALETTE_SHEAR,
    PALETTE_BEND,

    /* strain mode: from unstretched to twice the 10 % limit and beyond */
    PALETTE_STRAIN_0,
    PALETTE_STRAIN_1,
    PALETTE_STRAIN_2,
    PALETTE_STRAIN_3,
    PALETTE_STRAIN_4,
    PALETTE_STRAIN_5,
    PALETTE_STRAIN_WARN, /* over its tear limit: about to tear */

    /* points mode */
    PALETTE_POINT,
    PALETTE_PIN,

    /* solid colliders (sphere, box, cone), dark to bright, and the floor */
    PALETTE_COLLIDER_0,
    PALETTE_COLLIDER_1,
    PALETTE_COLLIDER_2,
    PALETTE_COLLIDER_3,
    PALETTE_FLOOR,

    /* text and overlays */
    PALETTE_TEXT,
    PALETTE_DIM,
    PALETTE_HIGHLIGHT,

    PALETTE_COUNT
} Palette;

#define PALETTE_SHADES 6          /* PALETTE_FRONT_0 .. _5, PALETTE_BACK_0 .. _5 */
#define PALETTE_STRAIN_STEPS 6    /* PALETTE_STRAIN_0 .. _5 */
#define PALETTE_COLLIDER_SHADES 4 /* PALETTE_COLLIDER_0 .. _3 */

/* The terminal backgrounds a palette is made for. On either, a ramp runs
 * from near the background (a face turned from the light, no strain) to
 * far from it: light colours on a dark background, dark ones on a light. */
typedef enum PaletteBackground { PALETTE_ON_DARK, PALETTE_ON_LIGHT, PALETTE_BACKGROUND_COUNT } PaletteBackground;

/* Suggested colour of each index as 0xRRGGBB, per background, for the app
 * to map to the nearest colour the terminal has. PALETTE_DEFAULT's and
 * PALETTE_TEXT's entries are unused: those are the terminal's own colours. */
extern const uint32_t palette_rgb[PALETTE_BACKGROUND_COUNT][PALETTE_COUNT];

/* The colour of index on background: palette_rgb, or with high contrast
 * (projectors) the text colours taken farther from the background. */
uint32_t palette_colour(int index, PaletteBackground background, bool high_contrast);
/* A short lower-case name per index ("front_3", "strain_warn"). */
extern const char *const palette_names[PALETTE_COUNT];

/* Cell attributes, or-ed together. */
typedef enum CanvasAttr {
    ATTR_NONE = 0,
    ATTR_BOLD = 1 << 0,
    ATTR_DIM = 1 << 1,
    ATTR_REVERSE = 1 << 2,
    ATTR_UNDERLINE = 1 << 3,
} CanvasAttr;

/* Depth of a cell that shows nothing: farther than anything drawn. */
#define CANVAS_DEPTH_FAR 1e30f

/* Largest side accepted, in cells: bounded so a bad size cannot exhaust memory. */
#define CANVAS_MAX_SIDE 1000

typedef struct CanvasCell {
    uint32_t glyph; /* Unicode code point, one column wide; ' ' when empty */
    uint8_t fg, bg; /* Palette */
    uint8_t attr;   /* CanvasAttr flags */
    float depth;    /* m along the view axis of what the cell shows, CANVAS_DEPTH_FAR if nothing */
} CanvasCell;

/* One sample of the dot layer (raster.h). Its fields sit together so that
 * drawing a dot touches one cache line. */
/* How a cell shows the dots of the dot layer (raster.h draws them): its
 * resolution, dots a cell. */
typedef enum Glyphs {
    GLYPHS_BRAILLE, /* 2 x 4 dots a cell */
    GLYPHS_HALF,    /* 1 x 2 a cell, a colour each */
    GLYPHS_ASCII,   /* 1 x 1, bytes below 128 only */
    GLYPHS_COUNT
} Glyphs;

typedef struct CanvasDot {
    float depth;    /* m */
    uint8_t frame;  /* the dot holds something only while this equals Canvas.dot_frame */
    uint8_t glyph;  /* ' ': covered but dark; other: lit, and the glyph in ASCII */
    uint8_t colour; /* Palette */
    uint8_t unused;
} CanvasDot;

typedef struct Canvas {
    int width, height; /* cells, 0..CANVAS_MAX_SIDE */
    CanvasCell *cells; /* width * height, row by row from the top */

    /* The dot layer: a grid of sub-cell samples the rasteriser (raster.h)
     * draws into and then resolves to cells. Sized for the finest mode
     * (2 x 4 dots a cell); dots_x, dots_y say how many a cell holds now.
     * Starting a frame only bumps dot_frame, which empties every dot. */
    Glyphs dot_glyphs;      /* as raster_begin set it */
    int dots_x, dots_y;     /* dots per cell for those glyphs */
    int dot_cols, dot_rows; /* width * dots_x, height * dots_y */
    uint8_t dot_frame;      /* 1..255, the current frame's stamp */
    CanvasDot *dots;        /* dot_cols * dot_rows, row by row */
    int *dot_first;         /* per cell row, the first and last dot column drawn this */
    int *dot_last;          /* frame (first > last: none): resolving skips the rest */

    /* Scratch memory the renderer borrows for per-particle data. */
    void *scratch;
    size_t scratch_size; /* bytes */
} Canvas;

/* Creates a width x height canvas of empty cells (both 0..CANVAS_MAX_SIDE).
 * NULL when out of memory or out of range. Free with canvas_destroy. */
Canvas *canvas_create(int width, int height);
void canvas_destroy(Canvas *canvas);

/* Changes the size; the cells are cleared. Returns false (keeping the old size
 * and contents) when out of memory or out of range. */
bool canvas_resize(Canvas *canvas, int width, int height);

/* Makes the scratch area at least bytes long. Returns false when out of
 * memory, keeping the old area. The renderer calls it with the size a cloth
 * needs, which allocates only the first time a larger cloth is drawn. */
bool canvas_reserve(Canvas *canvas, size_t bytes);

/* Every cell back to ' ', PALETTE_DEFAULT, no attributes, CANVAS_DEPTH_FAR. */
void canvas_clear(Canvas *canvas);

/* Sets one cell as an overlay, in front of everything (depth
 * -CANVAS_DEPTH_FAR). Cells outside the canvas are ignored, so callers may
 * draw partly off the edge. */
void canvas_put(Canvas *canvas, int x, int y, uint32_t glyph, uint8_t fg, uint8_t bg, uint8_t attr);

/* The cell at x, y, or NULL outside the canvas. */
const CanvasCell *canvas_get(const Canvas *canvas, int x, int y);

/* Writes a UTF-8 string from cell x, y to the right, one code point a cell,
 * clipped at the edges; invalid bytes show as U+FFFD. Background default.
 * Returns the column after the last character (x plus the code points). */
int canvas_text(Canvas *canvas, int x, int y, const char *utf8, uint8_t fg, uint8_t attr);

/* Fills the rectangle x, y, w, h (cells, clipped) with glyph. */
void canvas_fill(Canvas *canvas, int x, int y, int w, int h, uint32_t glyph, uint8_t fg, uint8_t bg);

/* The canvas as plain UTF-8 text: each row with its trailing spaces trimmed
 * and followed by '\n'. Writes at most out_size bytes including a final NUL
 * (out may be NULL when out_size is 0). Returns the length the whole text
 * needs, without the NUL, like snprintf: the text was cut if that is
 * >= out_size. */
size_t canvas_to_utf8(const Canvas *canvas, char *out, size_t out_size);

/* Encodes one code point as UTF-8 into out (at least 4 bytes); returns the
 * byte count, 1..4. Code points that cannot be encoded become U+FFFD. */
int canvas_utf8_encode(uint32_t code_point, char *out);

/* Decodes one code point from s (NUL-terminated); stores it and returns the
 * bytes used (1..4). Invalid or overlong sequences give U+FFFD and 1 byte. */
int canvas_utf8_decode(const char *s, uint32_t *code_point);

#endif
