/* raster.c - the dot layer: depth-tested dots, lines, triangles; resolving
 * dots to braille, half-block or ASCII cells. */
#include "raster.h"

#include <assert.h>
#include <math.h>
#include <string.h>

const char *const glyphs_names[] = {"braille", "half", "ascii", NULL};

#define BRAILLE_BLANK 0x2800u
#define HALF_UPPER 0x2580u
#define HALF_LOWER 0x2584u
#define FULL_BLOCK 0x2588u

/* A covered dot that dithering left unlit (CanvasDot.glyph). */
#define DOT_DARK ' '

/* Ordered dither: the rank (0..7) of each dot of a braille cell, taken from
 * the first two columns of the 4 x 4 Bayer matrix, so that lit dots spread
 * evenly at every coverage. Indexed [dot row % 4][dot column % 2]. */
static const uint8_t dither_rank[4][2] = {{0, 4}, {6, 2}, {1, 5}, {7, 3}};

/* The least coverage (of 255) that lights dot x, y: 16, 48 ... 240, so that
 * coverage 255 lights all eight dots of a cell and 0 none. */
static inline int dither_threshold(int x, int y)
{
    return 16 + 32 * dither_rank[y & 3][x & 1];
}

/* The bit of each dot in a braille pattern, [row][column] (Unicode's dot
 * numbering 1-2-3-7 down the left column, 4-5-6-8 down the right). */
static const uint8_t braille_bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};

void raster_begin(Canvas *canvas, Glyphs glyphs)
{
    assert(glyphs >= 0 && glyphs < GLYPHS_COUNT);
    canvas->dot_glyphs = (int)glyphs;
    canvas->dots_x = glyphs == GLYPHS_BRAILLE ? 2 : 1;
    canvas->dots_y = glyphs == GLYPHS_BRAILLE ? 4 : glyphs == GLYPHS_HALF ? 2 : 1;
    canvas->dot_cols = canvas->width * canvas->dots_x;
    canvas->dot_rows = canvas->height * canvas->dots_y;
    for (int row = 0; row < canvas->height; row++)
        canvas->dot_first[row] = canvas->dot_cols, canvas->dot_last[row] = -1;
    /* A dot holds something only while its stamp is the frame's, so a new
     * stamp empties them all; when the stamps run out, wipe them once. */
    if (++canvas->dot_frame == 0) {
        size_t dots = (size_t)canvas->width * (size_t)canvas->height * 8;
        for (size_t i = 0; i < dots; i++)
            canvas->dots[i].frame = 0;
        canvas->dot_frame = 1;
    }
}

/* The canvas's dot layer in locals. Stores through uint8_t fields may alias
 * anything, so plotting through the Canvas would make the compiler reload
 * its fields for every dot. */
typedef struct DotLayer {
    CanvasDot *dots;
    int *first, *last;
    size_t cols;
    int row_shift; /* dot row >> row_shift = cell row */
    uint8_t frame;
    bool dithered;
} DotLayer;

static inline DotLayer layer_of(Canvas *canvas)
{
    return (DotLayer){.dots = canvas->dots,
                      .first = canvas->dot_first,
                      .last = canvas->dot_last,
                      .cols = (size_t)canvas->dot_cols,
                      .row_shift = canvas->dots_y == 4   ? 2
                                   : canvas->dots_y == 2 ? 1
                                                         : 0,
                      .frame = canvas->dot_frame,
                      .dithered = canvas->dot_glyphs == GLYPHS_BRAILLE};
}

/* Widens the drawn range of the cell row holding dot row y to dot columns
 * from..to. */
static inline void mark_span(const DotLayer *layer, int y, int from, int to)
{
    int row = y >> layer->row_shift;
    if (from < layer->first[row])
        layer->first[row] = from;
    if (to > layer->last[row])
        layer->last[row] = to;
}

/* The hot inner step of every shape: depth test, then dither. The caller
 * marks the row span (mark_span). */
static inline void plot_unmarked(DotLayer layer, int x, int y, float depth, Ink ink)
{
    CanvasDot *dot = &layer.dots[(size_t)y * layer.cols + (size_t)x];
    if (dot->frame == layer.frame && !(depth < dot->depth))
        return;
    bool lit = !layer.dithered || ink.coverage >= dither_threshold(x, y);
    *dot = (CanvasDot){
        .depth = depth, .frame = layer.frame, .glyph = lit ? (uint8_t)ink.ascii : DOT_DARK, .colour = ink.colour};
}

/* A line's dot: where dithering leaves it unlit it is not drawn at all, so
 * a dotted line does not punch holes in what lies behind it. */
static inline void plot_line(DotLayer layer, int x, int y, float depth, Ink ink)
{
    if (ink.coverage < 240 && layer.dithered && ink.coverage < dither_threshold(x, y))
        return; /* (240: the highest threshold, so a solid ink skips the lookup) */
    plot_unmarked(layer, x, y, depth, ink);
}

static inline void plot(DotLayer layer, int x, int y, float depth, Ink ink)
{
    mark_span(&layer, y, x, x);
    plot_unmarked(layer, x, y, depth, ink);
}

void raster_dot(Canvas *canvas, int x, int y, float depth, Ink ink)
{
    if (x < 0 || y < 0 || x >= canvas->dot_cols || y >= canvas->dot_rows)
        return;
    plot(layer_of(canvas), x, y, depth, ink);
}

void raster_point(Canvas *canvas, float x, float y, float depth, Ink ink)
{
    float dot_x = x * (float)canvas->dots_x, dot_y = y * (float)canvas->dots_y;
    if (!(dot_x >= 0.0f && dot_y >= 0.0f && dot_x < (float)canvas->dot_cols && dot_y < (float)canvas->dot_rows))
        return; /* also refuses NaN */
    plot(layer_of(canvas), (int)dot_x, (int)dot_y, depth, ink);
}

void raster_row(Canvas *canvas, int row, int first, int count, const float *depth, const float *shade,
                const RasterRamp *ramp)
{
    if (row < 0 || row >= canvas->dot_rows)
        return;
    int from = first < 0 ? 0 : first, to = first + count - 1;
    to = to >= canvas->dot_cols ? canvas->dot_cols - 1 : to;
    if (from > to)
        return;
    DotLayer layer = layer_of(canvas);
    mark_span(&layer, row, from, to);
    float steps = (float)ramp->steps;
    int top_step = ramp->steps - 1;
    for (int col = from; col <= to; col++) {
        float d = depth[col - first], s = shade[col - first] * steps;
        if (d != d)
            continue; /* NaN: nothing here */
        int step = !(s > 0.0f) ? 0 : s >= (float)top_step ? top_step : (int)s;
        plot_unmarked(layer, col, row, d, ramp->ink[step]);
    }
}

/* Liang-Barsky: narrows [*t0, *t1] to where p + t q stays within [lo, hi]. */
static bool clip_axis(float p, float q, float lo, float hi, float *t0, float *t1)
{
    if (q == 0.0f)
        return p >= lo && p <= hi;
    float a = (lo - p) / q, b = (hi - p) / q;
    if (a > b) {
        float swap = a;
        a = b, b = swap;
    }
    if (a > *t0)
        *t0 = a;
    if (b < *t1)
        *t1 = b;
    return *t0 <= *t1;
}

void raster_line(Canvas *canvas, float x0, float y0, float depth0, float x1, float y1, float depth1, Ink ink)
{
    if (canvas->dot_cols == 0 || canvas->dot_rows == 0)
        return;
    float ax = x0 * (float)canvas->dots_x, ay = y0 * (float)canvas->dots_y;
    float bx = x1 * (float)canvas->dots_x, by = y1 * (float)canvas->dots_y;
    if (!isfinite(ax) || !isfinite(ay) || !isfinite(bx) || !isfinite(by))
        return;
    float cols = (float)canvas->dot_cols, rows = (float)canvas->dot_rows;
    if (!(ax >= 0.0f && ax < cols && bx >= 0.0f && bx < cols && ay >= 0.0f && ay < rows && by >= 0.0f && by < rows)) {
        float dx = bx - ax, dy = by - ay, dd = depth1 - depth0, t0 = 0.0f, t1 = 1.0f;
        if (!clip_axis(ax, dx, 0.0f, cols, &t0, &t1) || !clip_axis(ay, dy, 0.0f, rows, &t0, &t1))
            return;
        bx = ax + dx * t1, by = ay + dy * t1, depth1 = depth0 + dd * t1;
        ax += dx * t0, ay += dy * t0, depth0 += dd * t0;
    }
    /* DDA: one sample per dot along the longer axis. Coordinates are now
     * within [0, cols] x [0, rows] up to rounding, so truncation is floor. */
    float span_x = fabsf(bx - ax), span_y = fabsf(by - ay), span = span_x > span_y ? span_x : span_y;
    int steps = (int)span;
    steps += (float)steps < span || steps == 0; /* ceil, at least 1 */
    float inv = 1.0f / (float)steps;
    float step_x = (bx - ax) * inv, step_y = (by - ay) * inv, step_depth = (depth1 - depth0) * inv;
    int last_col = canvas->dot_cols - 1, last_row = canvas->dot_rows - 1;
    DotLayer layer = layer_of(canvas);
    /* The rows the line crosses, marked once as wholly covering its columns,
     * one dot wider each way for the rounding of the stepping. */
    int col_a = (int)ax, col_b = (int)bx, row_a = (int)ay, row_b = (int)by;
    int col_lo = (col_a < col_b ? col_a : col_b) - 1, col_hi = (col_a < col_b ? col_b : col_a) + 1;
    int row_lo = (row_a < row_b ? row_a : row_b) - 1, row_hi = (row_a < row_b ? row_b : row_a) + 1;
    col_lo = col_lo < 0 ? 0 : col_lo, col_hi = col_hi > last_col ? last_col : col_hi;
    row_lo = row_lo < 0 ? 0 : row_lo, row_hi = row_hi > last_row ? last_row : row_hi;
    for (int row = row_lo >> layer.row_shift; row <= row_hi >> layer.row_shift; row++)
        mark_span(&layer, row << layer.row_shift, col_lo, col_hi);
    float x = ax, y = ay, depth = depth0;
    /* The common case, a line half a dot or more inside every edge, steps in
     * 16.16 fixed point: whole-number adds instead of two float-to-int
     * conversions a dot (this loop draws every link of wire mode). Its
     * rounding drifts by under a hundredth of a dot over a whole line, so it
     * stays inside without clamping. */
    float low = 0.5f, right = cols - 0.5f, bottom = rows - 0.5f;
    if (ax >= low && bx >= low && ay >= low && by >= low && ax < right && bx < right && ay < bottom && by < bottom) {
        uint32_t fixed_x = (uint32_t)(ax * 65536.0f), fixed_y = (uint32_t)(ay * 65536.0f);
        uint32_t step_fixed_x = (uint32_t)(int32_t)(step_x * 65536.0f);
        uint32_t step_fixed_y = (uint32_t)(int32_t)(step_y * 65536.0f);
        bool solid = ink.coverage >= 240 || !layer.dithered; /* 240: the highest dither threshold */
        CanvasDot drawn = {.frame = layer.frame, .glyph = (uint8_t)ink.ascii, .colour = ink.colour};
        for (int k = 0; k <= steps; k++, fixed_x += step_fixed_x, fixed_y += step_fixed_y, depth += step_depth) {
            int col = (int)(fixed_x >> 16), row = (int)(fixed_y >> 16);
            if (!solid && ink.coverage < dither_threshold(col, row))
                continue; /* an unlit dot of a dotted line: left alone */
            CanvasDot *dot = &layer.dots[(size_t)row * layer.cols + (size_t)col];
            if (dot->frame == layer.frame && !(depth < dot->depth))
                continue;
            drawn.depth = depth;
            *dot = drawn;
        }
        return;
    }
    /* Near an edge or clipped: float steps, clamped (a clipped line's far end
     * lands on the edge itself). */
    for (int k = 0; k <= steps; k++, x += step_x, y += step_y, depth += step_depth) {
        int col = (int)x, row = (int)y;
        col = col < 0 ? 0 : col > last_col ? last_col : col;
        row = row < 0 ? 0 : row > last_row ? last_row : row;
        plot_line(layer, col, row, depth, ink);
    }
}

static float min3(float a, float b, float c)
{
    return a < b ? (a < c ? a : c) : (b < c ? b : c);
}
static float max3(float a, float b, float c)
{
    return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

void raster_triangle(Canvas *canvas, const float x[3], const float y[3], const float depth[3], const float shade[3],
                     const RasterRamp *ramp)
{
    assert(ramp->steps >= 1 && ramp->steps <= RASTER_MAX_RAMP);
    if (canvas->dot_cols == 0 || canvas->dot_rows == 0)
        return;
    float px[3], py[3];
    for (int k = 0; k < 3; k++) {
        px[k] = x[k] * (float)canvas->dots_x;
        py[k] = y[k] * (float)canvas->dots_y;
        if (!isfinite(px[k]) || !isfinite(py[k]))
            return;
    }
    float area = (px[1] - px[0]) * (py[2] - py[0]) - (py[1] - py[0]) * (px[2] - px[0]);
    if (!(fabsf(area) >= 1e-9f) || !isfinite(area))
        return; /* degenerate (edge on), or too far out to be sane */
    float inv_area = 1.0f / area;

    /* the bounding box in dots, clamped to the layer (floats first: a
     * vertex far off screen must not overflow an int) */
    float last_col = (float)(canvas->dot_cols - 1), last_row = (float)(canvas->dot_rows - 1);
    float box_x0 = min3(px[0], px[1], px[2]), box_x1 = max3(px[0], px[1], px[2]);
    float box_y0 = min3(py[0], py[1], py[2]), box_y1 = max3(py[0], py[1], py[2]);
    if (box_x1 < 0.0f || box_y1 < 0.0f || box_x0 > last_col + 1.0f || box_y0 > last_row + 1.0f)
        return;
    int min_x = box_x0 < 0.0f ? 0 : (int)box_x0, max_x = box_x1 > last_col ? (int)last_col : (int)box_x1;
    int min_y = box_y0 < 0.0f ? 0 : (int)box_y0, max_y = box_y1 > last_row ? (int)last_row : (int)box_y1;

    /* Barycentric weight k at (X, Y) is affine, a X + b Y + c: the signed
     * area of (v[k+1], v[k+2], P) over the whole. Depth and shade are too. */
    float wa[3], wb[3], wc[3];
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        wa[k] = -(py[j] - py[i]) * inv_area;
        wb[k] = (px[j] - px[i]) * inv_area;
        wc[k] = ((py[j] - py[i]) * px[i] - (px[j] - px[i]) * py[i]) * inv_area;
    }
    float steps = (float)ramp->steps;
    float da = 0.0f, db = 0.0f, dc = 0.0f, sa = 0.0f, sb = 0.0f, sc = 0.0f;
    for (int k = 0; k < 3; k++) {
        da += wa[k] * depth[k], db += wb[k] * depth[k], dc += wc[k] * depth[k];
        sa += wa[k] * shade[k] * steps, sb += wb[k] * shade[k] * steps, sc += wc[k] * shade[k] * steps;
    }
    /* Dots exactly on an edge shared by two triangles are drawn by both (the
     * depth test settles them) rather than risk a crack. */
    const float inside = -1e-5f;
    int top_step = ramp->steps - 1;
    Ink ink_of[RASTER_MAX_RAMP];
    memcpy(ink_of, ramp->ink, sizeof ink_of);
    DotLayer layer = layer_of(canvas);
    bool dithered = layer.dithered;
    uint8_t frame = layer.frame;
    /* Weight k >= inside bounds the column: from the left where it grows
     * along a row (a > 0), from the right where it shrinks; the bound moves
     * linearly with the row, base + slope * cy. A weight constant along rows
     * bounds the rows instead. At most two edges bound each side; the unused
     * slot bounds nothing. */
    float left_base[2] = {-1e30f, -1e30f}, left_slope[2] = {0.0f, 0.0f};
    float right_base[2] = {1e30f, 1e30f}, right_slope[2] = {0.0f, 0.0f};
    int lefts = 0, rights = 0;
    for (int k = 0; k < 3; k++) {
        if (wa[k] == 0.0f) {
            /* wb cy + wc >= inside, with cy = row + 0.5 */
            if (wb[k] == 0.0f)
                continue;
            float row_bound = (inside - wc[k]) / wb[k] - 0.5f;
            if (wb[k] > 0.0f && row_bound > (float)min_y)
                min_y = row_bound > (float)max_y ? max_y + 1 : (int)ceilf(row_bound);
            else if (wb[k] < 0.0f && row_bound < (float)max_y)
                max_y = row_bound < (float)min_y ? min_y - 1 : (int)floorf(row_bound);
            continue;
        }
        /* at the centre of dot column 0 the weight is wb cy + wc + wa / 2 */
        float base = (inside - wc[k] - 0.5f * wa[k]) / wa[k], slope = -wb[k] / wa[k];
        if (wa[k] > 0.0f && lefts < 2)
            left_base[lefts] = base, left_slope[lefts++] = slope;
        else if (wa[k] < 0.0f && rights < 2)
            right_base[rights] = base, right_slope[rights++] = slope;
    }
    for (int row = min_y; row <= max_y; row++) {
        float cy = (float)row + 0.5f;
        /* the span of this row where every weight is >= inside */
        float l0 = left_base[0] + left_slope[0] * cy, l1 = left_base[1] + left_slope[1] * cy;
        float r0 = right_base[0] + right_slope[0] * cy, r1 = right_base[1] + right_slope[1] * cy;
        float lo = l0 > l1 ? l0 : l1, hi = r0 < r1 ? r0 : r1;
        lo = lo > (float)min_x ? lo : (float)min_x;
        hi = hi < (float)max_x ? hi : (float)max_x;
        if (!(lo <= hi))
            continue;
        /* 0 <= min_x <= lo <= hi here, so truncation is floor */
        int first = (int)lo, last = (int)hi;
        first += (float)first < lo;
        float cx = (float)first + 0.5f;
        float d = da * cx + db * cy + dc, s = sa * cx + sb * cy + sc;
        /* plot() by hand, with the row in a local */
        if (first > last)
            continue;
        mark_span(&layer, row, first, last);
        CanvasDot *dots = canvas->dots + (size_t)row * (size_t)canvas->dot_cols;
        int threshold[2] = {0, 0};
        if (dithered)
            threshold[0] = dither_threshold(0, row), threshold[1] = dither_threshold(1, row);
        for (int col = first; col <= last; col++, d += da, s += sa) {
            if (dots[col].frame == frame && !(d < dots[col].depth))
                continue;
            int step = !(s > 0.0f) ? 0 : s >= (float)top_step ? top_step : (int)s; /* NaN: 0 */
            Ink ink = ink_of[step];
            dots[col] = (CanvasDot){.depth = d,
                                    .frame = frame,
                                    .glyph = ink.coverage >= threshold[col & 1] ? (uint8_t)ink.ascii : DOT_DARK,
                                    .colour = ink.colour};
        }
    }
}

unsigned raster_braille_bit(int x, int y)
{
    assert(x >= 0 && x < 2 && y >= 0 && y < 4);
    return braille_bit[y][x];
}

static void resolve_ascii(Canvas *canvas, uint8_t attr)
{
    const CanvasDot *dots = canvas->dots;
    uint8_t frame = canvas->dot_frame;
    for (int y = 0; y < canvas->height; y++)
        for (int x = canvas->dot_first[y]; x <= canvas->dot_last[y]; x++) { /* 1 x 1: dots are cells */
            size_t i = (size_t)y * (size_t)canvas->width + (size_t)x;
            if (dots[i].frame == frame)
                canvas->cells[i] = (CanvasCell){.glyph = dots[i].glyph,
                                                .fg = dots[i].colour,
                                                .bg = PALETTE_DEFAULT,
                                                .attr = attr,
                                                .depth = dots[i].depth};
        }
}

/* Resolves the dots of cell (x, y) into *cell; false if none of them was drawn. */
typedef bool (*CellResolver)(const Canvas *canvas, int x, int y, uint8_t attr, CanvasCell *cell);

/* Each cell of each row that may hold dots, through resolve_cell. Inline: each
 * caller gets its own loop with its resolver inlined, as this runs for every
 * cell of the picture. */
static inline void resolve_cells(Canvas *canvas, uint8_t attr, CellResolver resolve_cell)
{
    for (int y = 0; y < canvas->height; y++) {
        int from = canvas->dot_first[y] / canvas->dots_x;
        int to = canvas->dot_last[y] < 0 ? -1 : canvas->dot_last[y] / canvas->dots_x;
        for (int x = from; x <= to; x++) {
            CanvasCell cell;
            if (resolve_cell(canvas, x, y, attr, &cell))
                canvas->cells[(size_t)y * (size_t)canvas->width + (size_t)x] = cell;
        }
    }
}

static inline bool half_cell(const Canvas *canvas, int x, int y, uint8_t attr, CanvasCell *out)
{
    uint8_t frame = canvas->dot_frame;
    size_t stride = (size_t)canvas->dot_cols;
    const CanvasDot *upper = &canvas->dots[(size_t)(2 * y) * stride + (size_t)x], *lower = upper + stride;
    bool upper_drawn = upper->frame == frame, lower_drawn = lower->frame == frame;
    if (!upper_drawn && !lower_drawn)
        return false;
    CanvasCell cell = {.glyph = ' ', .fg = PALETTE_DEFAULT, .bg = PALETTE_DEFAULT, .attr = attr};
    bool upper_lit = upper_drawn && upper->glyph != DOT_DARK;
    bool lower_lit = lower_drawn && lower->glyph != DOT_DARK;
    if (upper_lit && lower_lit && upper->colour == lower->colour)
        cell.glyph = FULL_BLOCK, cell.fg = upper->colour;
    else if (upper_lit && lower_lit)
        cell.glyph = HALF_UPPER, cell.fg = upper->colour, cell.bg = lower->colour;
    else if (upper_lit)
        cell.glyph = HALF_UPPER, cell.fg = upper->colour;
    else if (lower_lit)
        cell.glyph = HALF_LOWER, cell.fg = lower->colour;
    if (!upper_drawn)
        cell.depth = lower->depth;
    else if (!lower_drawn)
        cell.depth = upper->depth;
    else
        cell.depth = upper->depth < lower->depth ? upper->depth : lower->depth;
    *out = cell;
    return true;
}

/* What a braille cell gathers from its dots. */
typedef struct CellGather {
    float nearest, nearest_lit; /* depth of the nearest dot, and of the nearest lit one */
    uint8_t fg, fg_lit;         /* their colours */
    unsigned bits;              /* braille pattern of the lit dots */
} CellGather;

/* Takes one dot into the cell; called once for each of the eight, unrolled,
 * as this runs for every cell of the picture. */
static inline void gather(CellGather *cell, const CanvasDot *dot, uint8_t frame, unsigned bit)
{
    if (dot->frame != frame)
        return;
    if (dot->depth < cell->nearest)
        cell->nearest = dot->depth, cell->fg = dot->colour;
    if (dot->glyph == DOT_DARK)
        return;
    cell->bits |= bit;
    /* the cell's one colour is that of its nearest lit dot */
    if (dot->depth < cell->nearest_lit)
        cell->nearest_lit = dot->depth, cell->fg_lit = dot->colour;
}

static inline bool braille_cell(const Canvas *canvas, int x, int y, uint8_t attr, CanvasCell *out)
{
    uint8_t frame = canvas->dot_frame;
    size_t stride = (size_t)canvas->dot_cols;
    const CanvasDot *top = &canvas->dots[(size_t)(4 * y) * stride + (size_t)(2 * x)];
    CellGather cell = {INFINITY, INFINITY, PALETTE_DEFAULT, PALETTE_DEFAULT, 0};
    for (int j = 0; j < 4; j++) {
        gather(&cell, top + (size_t)j * stride, frame, braille_bit[j][0]);
        gather(&cell, top + (size_t)j * stride + 1, frame, braille_bit[j][1]);
    }
    if (!(cell.nearest < INFINITY))
        return false; /* no dot drawn */
    *out = (CanvasCell){
        .glyph = cell.bits ? BRAILLE_BLANK + cell.bits : ' ',
        .fg = cell.bits ? cell.fg_lit : cell.fg,
        .bg = PALETTE_DEFAULT,
        .attr = attr,
        .depth = cell.nearest,
    };
    return true;
}

void raster_resolve(Canvas *canvas, uint8_t attr)
{
    switch ((Glyphs)canvas->dot_glyphs) {
    case GLYPHS_BRAILLE:
        resolve_cells(canvas, attr, braille_cell);
        break;
    case GLYPHS_HALF:
        resolve_cells(canvas, attr, half_cell);
        break;
    case GLYPHS_ASCII:
        resolve_ascii(canvas, attr);
        break;
    case GLYPHS_COUNT:
        assert(!"glyphs out of range");
        break;
    }
}
