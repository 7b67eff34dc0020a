/* canvas.c - the cell grid: allocation, text, UTF-8 in and out. */
#include "canvas.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The dot layer is sized for braille, the finest mode (raster.h). */
#define CANVAS_MAX_DOTS_X 2
#define CANVAS_MAX_DOTS_Y 4

#define REPLACEMENT_CHARACTER 0xFFFDu

/* The light palette's entries are points of the xterm 256-colour cube (the
 * app maps to the nearest, so these arrive unchanged); contrast against
 * white (WCAG 2 relative luminance): text 4.5:1 or more, lines 3:1 or more,
 * the cloth's shades from about 2:1 (turned from the light) to 7:1 and more
 * (lit). The dark palette's cloth shades are points of the cube too, 3.9:1
 * (turned from the light) to 15.6:1 on black: darker ones went to the grey
 * ramp (0x141c30 is xterm's 234, 1.2:1), a grey smudge on dark themes. tests/app/test_colours.c checks each against the
 * colours the terminal shows. */
const uint32_t palette_rgb[PALETTE_BACKGROUND_COUNT][PALETTE_COUNT] = {
    [PALETTE_ON_DARK] =
        {
            [PALETTE_DEFAULT] = 0xc0c0c0,    [PALETTE_FRONT_0] = 0xd70000,     [PALETTE_FRONT_1] = 0xd75f5f,
            [PALETTE_FRONT_2] = 0xd7875f,    [PALETTE_FRONT_3] = 0xff875f,     [PALETTE_FRONT_4] = 0xffaf87,
            [PALETTE_FRONT_5] = 0xffd7af,    [PALETTE_BACK_0] = 0x5f5fd7,      [PALETTE_BACK_1] = 0x5f87d7,
            [PALETTE_BACK_2] = 0x8787ff,     [PALETTE_BACK_3] = 0x87afff,      [PALETTE_BACK_4] = 0xafd7ff,
            [PALETTE_BACK_5] = 0xd7ffff,     [PALETTE_STRUCTURAL] = 0xe8e8e8,  [PALETTE_SHEAR] = 0x5fafff,
            [PALETTE_BEND] = 0xaf5fd7,       [PALETTE_STRAIN_0] = 0x3050ff,    [PALETTE_STRAIN_1] = 0x30c0ff,
            [PALETTE_STRAIN_2] = 0x40e080,   [PALETTE_STRAIN_3] = 0xf0e040,    [PALETTE_STRAIN_4] = 0xff9020,
            [PALETTE_STRAIN_5] = 0xff3020,   [PALETTE_STRAIN_WARN] = 0xff00ff, [PALETTE_POINT] = 0xd0d0d0,
            [PALETTE_PIN] = 0xffff00,        [PALETTE_COLLIDER_0] = 0x203820,  [PALETTE_COLLIDER_1] = 0x3a6a3a,
            [PALETTE_COLLIDER_2] = 0x5a9a5a, [PALETTE_COLLIDER_3] = 0x8ad08a,  [PALETTE_FLOOR] = 0x606060,
            [PALETTE_TEXT] = 0xe0e0e0,       [PALETTE_DIM] = 0x808080,         [PALETTE_HIGHLIGHT] = 0xffd700,
        },
    [PALETTE_ON_LIGHT] =
        {
            [PALETTE_DEFAULT] = 0x303030,    [PALETTE_FRONT_0] = 0xff8787,     [PALETTE_FRONT_1] = 0xff5f5f,
            [PALETTE_FRONT_2] = 0xd75f5f,    [PALETTE_FRONT_3] = 0xd70000,     [PALETTE_FRONT_4] = 0xaf0000,
            [PALETTE_FRONT_5] = 0x870000,    [PALETTE_BACK_0] = 0x87afff,      [PALETTE_BACK_1] = 0x5f87ff,
            [PALETTE_BACK_2] = 0x5f5fff,     [PALETTE_BACK_3] = 0x005fd7,      [PALETTE_BACK_4] = 0x0000d7,
            [PALETTE_BACK_5] = 0x0000af,     [PALETTE_STRUCTURAL] = 0x3a3a3a,  [PALETTE_SHEAR] = 0x005faf,
            [PALETTE_BEND] = 0x8700af,       [PALETTE_STRAIN_0] = 0x0000d7,    [PALETTE_STRAIN_1] = 0x0087af,
            [PALETTE_STRAIN_2] = 0x008700,   [PALETTE_STRAIN_3] = 0xaf8700,    [PALETTE_STRAIN_4] = 0xd75f00,
            [PALETTE_STRAIN_5] = 0xd70000,   [PALETTE_STRAIN_WARN] = 0xaf00af, [PALETTE_POINT] = 0x4e4e4e,
            [PALETTE_PIN] = 0x875f00,        [PALETTE_COLLIDER_0] = 0xafd7af,  [PALETTE_COLLIDER_1] = 0x87af87,
            [PALETTE_COLLIDER_2] = 0x5f875f, [PALETTE_COLLIDER_3] = 0x005f00,  [PALETTE_FLOOR] = 0x949494,
            [PALETTE_TEXT] = 0x202020,       [PALETTE_DIM] = 0x6c6c6c,         [PALETTE_HIGHLIGHT] = 0x875f00,
        },
};

uint32_t palette_colour(int index, PaletteBackground background, bool high_contrast)
{
    assert(index >= 0 && index < PALETTE_COUNT && background < PALETTE_BACKGROUND_COUNT);
    bool light = background == PALETTE_ON_LIGHT;
    /* 7:1 or more for the text colours (WCAG's enhanced level), where the
     * normal ones keep 4.5:1: a projector washes contrast out */
    if (high_contrast && index == PALETTE_DIM)
        return light ? 0x4e4e4e : 0xa8a8a8;
    if (high_contrast && index == PALETTE_STRAIN_WARN)
        return light ? 0x870087 : 0xff5fff;
    if (high_contrast && index == PALETTE_HIGHLIGHT && light)
        return 0x5f0000;
    return palette_rgb[background][index];
}

const char *const palette_names[PALETTE_COUNT] = {
    [PALETTE_DEFAULT] = "default",
    [PALETTE_FRONT_0] = "front_0",
    [PALETTE_FRONT_1] = "front_1",
    [PALETTE_FRONT_2] = "front_2",
    [PALETTE_FRONT_3] = "front_3",
    [PALETTE_FRONT_4] = "front_4",
    [PALETTE_FRONT_5] = "front_5",
    [PALETTE_BACK_0] = "back_0",
    [PALETTE_BACK_1] = "back_1",
    [PALETTE_BACK_2] = "back_2",
    [PALETTE_BACK_3] = "back_3",
    [PALETTE_BACK_4] = "back_4",
    [PALETTE_BACK_5] = "back_5",
    [PALETTE_STRUCTURAL] = "structural",
    [PALETTE_SHEAR] = "shear",
    [PALETTE_BEND] = "bend",
    [PALETTE_STRAIN_0] = "strain_0",
    [PALETTE_STRAIN_1] = "strain_1",
    [PALETTE_STRAIN_2] = "strain_2",
    [PALETTE_STRAIN_3] = "strain_3",
    [PALETTE_STRAIN_4] = "strain_4",
    [PALETTE_STRAIN_5] = "strain_5",
    [PALETTE_STRAIN_WARN] = "strain_warn",
    [PALETTE_POINT] = "point",
    [PALETTE_PIN] = "pin",
    [PALETTE_COLLIDER_0] = "collider_0",
    [PALETTE_COLLIDER_1] = "collider_1",
    [PALETTE_COLLIDER_2] = "collider_2",
    [PALETTE_COLLIDER_3] = "collider_3",
    [PALETTE_FLOOR] = "floor",
    [PALETTE_TEXT] = "text",
    [PALETTE_DIM] = "dim",
    [PALETTE_HIGHLIGHT] = "highlight",
};

static bool size_ok(int width, int height)
{
    return width >= 0 && height >= 0 && width <= CANVAS_MAX_SIDE && height <= CANVAS_MAX_SIDE;
}

/* Allocates cells and dots for width x height into canvas, leaving canvas
 * untouched on failure. */
static bool allocate(Canvas *canvas, int width, int height)
{
    size_t cells = (size_t)width * (size_t)height;
    size_t dots = cells * CANVAS_MAX_DOTS_X * CANVAS_MAX_DOTS_Y;
    /* at least one element each, so that a 0 x 0 canvas still has valid pointers */
    CanvasCell *cell = malloc((cells ? cells : 1) * sizeof *cell);
    CanvasDot *dot = calloc(dots ? dots : 1, sizeof *dot); /* stamp 0: empty */
    int *first = calloc(height ? (size_t)height : 1, sizeof *first);
    int *last = calloc(height ? (size_t)height : 1, sizeof *last);
    if (!cell || !dot || !first || !last) {
        free(cell), free(dot), free(first), free(last);
        return false;
    }
    free(canvas->cells), free(canvas->dots), free(canvas->dot_first), free(canvas->dot_last);
    canvas->width = width;
    canvas->height = height;
    canvas->cells = cell;
    canvas->dots = dot;
    canvas->dot_first = first;
    canvas->dot_last = last;
    canvas->dot_frame = 1;             /* never 0, the stamp of a dot never drawn */
    canvas->dot_glyphs = GLYPHS_ASCII; /* 1 x 1 until raster_begin says otherwise */
    canvas->dots_x = 1;
    canvas->dots_y = 1;
    canvas->dot_cols = width;
    canvas->dot_rows = height;
    canvas_clear(canvas);
    return true;
}

Canvas *canvas_create(int width, int height)
{
    if (!size_ok(width, height))
        return NULL;
    Canvas *canvas = calloc(1, sizeof *canvas);
    if (!canvas)
        return NULL;
    if (!allocate(canvas, width, height)) {
        free(canvas);
        return NULL;
    }
    return canvas;
}

void canvas_destroy(Canvas *canvas)
{
    if (!canvas)
        return;
    free(canvas->cells);
    free(canvas->dots);
    free(canvas->dot_first);
    free(canvas->dot_last);
    free(canvas->scratch);
    free(canvas);
}

bool canvas_resize(Canvas *canvas, int width, int height)
{
    if (!size_ok(width, height))
        return false;
    return allocate(canvas, width, height);
}

bool canvas_reserve(Canvas *canvas, size_t bytes)
{
    if (bytes <= canvas->scratch_size)
        return true;
    void *scratch = malloc(bytes);
    if (!scratch)
        return false;
    free(canvas->scratch);
    canvas->scratch = scratch;
    canvas->scratch_size = bytes;
    return true;
}

void canvas_clear(Canvas *canvas)
{
    CanvasCell empty = {
        .glyph = ' ', .fg = PALETTE_DEFAULT, .bg = PALETTE_DEFAULT, .attr = ATTR_NONE, .depth = CANVAS_DEPTH_FAR};
    size_t cells = (size_t)canvas->width * (size_t)canvas->height;
    for (size_t i = 0; i < cells; i++)
        canvas->cells[i] = empty;
}

void canvas_put(Canvas *canvas, int x, int y, uint32_t glyph, uint8_t fg, uint8_t bg, uint8_t attr)
{
    if (x < 0 || y < 0 || x >= canvas->width || y >= canvas->height)
        return;
    CanvasCell *cell = &canvas->cells[(size_t)y * (size_t)canvas->width + (size_t)x];
    cell->glyph = glyph;
    cell->fg = fg;
    cell->bg = bg;
    cell->attr = attr;
    cell->depth = -CANVAS_DEPTH_FAR;
}

const CanvasCell *canvas_get(const Canvas *canvas, int x, int y)
{
    if (x < 0 || y < 0 || x >= canvas->width || y >= canvas->height)
        return NULL;
    return &canvas->cells[(size_t)y * (size_t)canvas->width + (size_t)x];
}

int canvas_text(Canvas *canvas, int x, int y, const char *utf8, uint8_t fg, uint8_t attr)
{
    assert(utf8);
    while (*utf8) {
        uint32_t code_point;
        utf8 += canvas_utf8_decode(utf8, &code_point);
        canvas_put(canvas, x, y, code_point, fg, PALETTE_DEFAULT, attr);
        x++;
    }
    return x;
}

void canvas_fill(Canvas *canvas, int x, int y, int w, int h, uint32_t glyph, uint8_t fg, uint8_t bg)
{
    for (int row = y; row < y + h; row++)
        for (int col = x; col < x + w; col++)
            canvas_put(canvas, col, row, glyph, fg, bg, ATTR_NONE);
}

int canvas_utf8_encode(uint32_t code_point, char *out)
{
    if (code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF))
        code_point = REPLACEMENT_CHARACTER;
    if (code_point < 0x80) {
        out[0] = (char)code_point;
        return 1;
    }
    if (code_point < 0x800) {
        out[0] = (char)(0xC0 | (code_point >> 6));
        out[1] = (char)(0x80 | (code_point & 0x3F));
        return 2;
    }
    if (code_point < 0x10000) {
        out[0] = (char)(0xE0 | (code_point >> 12));
        out[1] = (char)(0x80 | ((code_point >> 6) & 0x3F));
        out[2] = (char)(0x80 | (code_point & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (code_point >> 18));
    out[1] = (char)(0x80 | ((code_point >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((code_point >> 6) & 0x3F));
    out[3] = (char)(0x80 | (code_point & 0x3F));
    return 4;
}

int canvas_utf8_decode(const char *s, uint32_t *code_point)
{
    const unsigned char *u = (const unsigned char *)s;
    int length;
    uint32_t value, smallest;
    if (u[0] < 0x80) {
        *code_point = u[0];
        return 1;
    } else if ((u[0] & 0xE0) == 0xC0) {
        length = 2, value = u[0] & 0x1F, smallest = 0x80;
    } else if ((u[0] & 0xF0) == 0xE0) {
        length = 3, value = u[0] & 0x0F, smallest = 0x800;
    } else if ((u[0] & 0xF8) == 0xF0) {
        length = 4, value = u[0] & 0x07, smallest = 0x10000;
    } else {
        *code_point = REPLACEMENT_CHARACTER;
        return 1;
    }
    /* a NUL stops at the first byte check: it is not a continuation byte */
    for (int k = 1; k < length; k++) {
        if ((u[k] & 0xC0) != 0x80) {
            *code_point = REPLACEMENT_CHARACTER;
            return 1;
        }
        value = (value << 6) | (u[k] & 0x3F);
    }
    if (value < smallest || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
        *code_point = REPLACEMENT_CHARACTER;
        return 1;
    }
    *code_point = value;
    return length;
}

/* Appends n bytes to out if they all fit before the NUL, so that a cut text
 * never ends inside a character; counts them either way. */
static void emit(char *out, size_t out_size, size_t *needed, size_t *written, const char *bytes, int n)
{
    if (*written == *needed && *needed + (size_t)n < out_size) {
        memcpy(out + *written, bytes, (size_t)n);
        *written += (size_t)n;
    }
    *needed += (size_t)n;
}

size_t canvas_to_utf8(const Canvas *canvas, char *out, size_t out_size)
{
    size_t needed = 0, written = 0;
    char bytes[4];
    for (int y = 0; y < canvas->height; y++) {
        const CanvasCell *row = &canvas->cells[(size_t)y * (size_t)canvas->width];
        int end = canvas->width;
        while (end > 0 && (row[end - 1].glyph == ' ' || row[end - 1].glyph == 0))
            end--;
        for (int x = 0; x < end; x++) {
            int n = canvas_utf8_encode(row[x].glyph ? row[x].glyph : ' ', bytes);
            emit(out, out_size, &needed, &written, bytes, n);
        }
        emit(out, out_size, &needed, &written, "\n", 1);
    }
    if (out_size > 0)
        out[written] = '\0';
    return needed;
}
