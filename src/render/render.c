/* render.c - the cloth in four modes, its colliders, the strain legend, line
 * plots and picking.
 *
 * Every particle is projected once a frame into the canvas's scratch; the
 * modes then read those screen positions. Shading is Lambert's cosine law with
 * normals averaged at the vertices (Gouraud), so the 30 x 24 curtain does not
 * look faceted; the side of a triangle (front or back) comes from its winding
 * on screen.
 */
#include "render.h"
#include "core/text.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const render_mode_names[] = {"shaded", "wire", "strain", "points", NULL};

/* ASCII shading ramps, dark to bright. The back side and the colliders use
 * other characters than the front, so that the three tell apart without
 * colour. */
static const char front_ascii[] = ".:-=+*#%@";
static const char back_ascii[] = ",;~xX&";
static const char collider_ascii[] = "`'\"oO0";
static const char strain_ascii[PALETTE_STRAIN_STEPS + 1] = ".:-=*#";
#define WARN_ASCII '!'
#define POINT_ASCII 'o'
#define PIN_ASCII '@'
#define MARKER_ASCII 'X'
#define ROPE_ASCII '#'
#define MARKED_ASCII '%'
#define PATH_ASCII '.'
#define PARABOLA_ASCII ':'
/* Points sampled along a link to find the part inside a collider: as many
 * as the penetration metric takes (METRICS_LINK_SAMPLES), so that a link
 * the metric counts is drawn. */
#define CUT_SAMPLES 9
#define SECTION_ASCII '+'
#define PATH_BEHIND 1e-3f /* m: a path drawn this far behind the cloth it passes under */
#define FLOOR_ASCII '.'

/* Braille shading: dots lit (of 255) at the darkest step, rising to all of
 * them at shade COVERAGE_FULL_SHADE and above. The darkest still shows a
 * quarter or so of its dots, so the cloth never vanishes; a cloth facing the
 * light is solid rather than speckled. */
#define COVERAGE_DARK 72.0f
#define COVERAGE_BRIGHT 255.0f
#define COVERAGE_FULL_SHADE 0.75f
#define BRAILLE_RAMP_STEPS 8
/* Colliders in the line modes light this share of their dots, so lines in
 * front of them stay readable. */
#define COLLIDER_LINE_COVERAGE 0.45f

#define FULL_BLOCK 0x2588u
#define HALF_UPPER 0x2580u
#define HALF_LOWER 0x2584u
#define BRAILLE_BLANK 0x2800u

/* Edges of the grid, as bits on their first particle (torn-edge map). */
enum {
    EDGE_RIGHT = 1,      /* i, i + 1 */
    EDGE_DOWN = 2,       /* i, i + cols */
    EDGE_DOWN_RIGHT = 4, /* i, i + cols + 1 */
    EDGE_DOWN_LEFT = 8,  /* i, i + cols - 1 */
};

/* Per-particle data of a frame, carved from the canvas's scratch. */
typedef struct Scratch {
    float *sx, *sy, *depth;          /* screen position (cells), depth (m) */
    float *shade_front, *shade_back; /* 0..1, at the vertex */
    float *nx, *ny, *nz;             /* vertex normal, summed over triangles */
    uint8_t *visible;                /* in front of the eye */
    uint8_t *torn_edges;             /* EDGE_* bits of torn links */
} Scratch;

#define SCRATCH_FLOATS 8
#define SCRATCH_BYTES 2

void render_options_default(RenderOptions *options)
{
    *options = (RenderOptions){
        .mode = RENDER_SHADED,
        .glyphs = GLYPHS_BRAILLE,
        .high_contrast = false,
        .legend = true,
        .light = {-0.4f, 0.6f, 0.7f},
    };
}

int render_strain_step(float strain)
{
    return render_strain_step_to(strain, RENDER_STRAIN_FULL);
}

int render_strain_step_to(float strain, float full)
{
    if (!(strain > 0.0f))
        return 0; /* compression, and NaN */
    if (!(full > 0.0f))
        full = RENDER_STRAIN_FULL;
    float step = strain / full * (float)PALETTE_STRAIN_STEPS;
    return step >= (float)(PALETTE_STRAIN_STEPS - 1) ? PALETTE_STRAIN_STEPS - 1 : (int)step;
}

static size_t scratch_size(const Cloth *cloth)
{
    return (size_t)cloth->count * (SCRATCH_FLOATS * sizeof(float) + SCRATCH_BYTES);
}

bool render_reserve(Canvas *canvas, const Cloth *cloth)
{
    return canvas_reserve(canvas, scratch_size(cloth));
}

static bool scratch_take(Canvas *canvas, const Cloth *cloth, Scratch *s)
{
    if (!render_reserve(canvas, cloth))
        return false;
    size_t n = (size_t)cloth->count;
    float *f = canvas->scratch;
    s->sx = f, s->sy = f + n, s->depth = f + 2 * n;
    s->shade_front = f + 3 * n, s->shade_back = f + 4 * n;
    s->nx = f + 5 * n, s->ny = f + 6 * n, s->nz = f + 7 * n;
    uint8_t *b = (uint8_t *)(f + SCRATCH_FLOATS * n);
    s->visible = b, s->torn_edges = b + n;
    return true;
}

/* The camera with the canvas's viewport: itself, or a copy in local. */
static const Camera *view_of(const Canvas *canvas, const Camera *camera, Camera *local)
{
    if (camera->width == canvas->width && camera->height == canvas->height)
        return camera;
    *local = *camera;
    camera_set_viewport(local, canvas->width, canvas->height);
    return local;
}

static void project_particles(const Camera *view, const Cloth *cloth, Scratch *s)
{
    for (int i = 0; i < cloth->count; i++) {
        float p[3] = {cloth->x[i], cloth->y[i], cloth->z[i]};
        s->visible[i] = camera_project(view, p, &s->sx[i], &s->sy[i], &s->depth[i]) && isfinite(s->sx[i]) &&
                        isfinite(s->sy[i]) && isfinite(s->depth[i]);
    }
}

/* The unit light direction in view axes (x right, y up, z into the screen). */
static void light_view(const RenderOptions *options, float out[3])
{
    float l[3] = {options->light[0], options->light[1], -options->light[2]};
    float length = sqrtf(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    if (!(length > 0.0f) || !isfinite(length)) {
        l[0] = 0.0f, l[1] = 0.0f, l[2] = -1.0f, length = 1.0f; /* a headlight */
    }
    for (int k = 0; k < 3; k++)
        out[k] = l[k] / length;
}

/* The same direction in world axes. */
static void light_world(const Camera *view, const RenderOptions *options, float out[3])
{
    float l[3];
    light_view(options, l);
    for (int k = 0; k < 3; k++)
        out[k] = l[0] * view->right[k] + l[1] * view->up[k] + l[2] * view->forward[k];
}

/* Lambert: cosine is the cosine of the angle between normal and light. */
static float shade_of(float cosine, const RenderOptions *options)
{
    /* not fmaxf: without -ffinite-math-only that is a call, and this runs per dot */
    float shade = RENDER_AMBIENT + (1.0f - RENDER_AMBIENT) * (cosine > 0.0f ? cosine : 0.0f);
    return options->high_contrast ? 0.45f + 0.55f * shade : shade;
}

/* A shading ramp from palette first .. first + colours - 1 with the ASCII
 * characters ascii, for the glyphs of options; coverage_scale thins the
 * braille dots. */
static void ramp_build(RasterRamp *ramp, const RenderOptions *options, const char *ascii, int first, int colours,
                       float coverage_scale)
{
    int characters = (int)strlen(ascii);
    int steps = options->glyphs == GLYPHS_ASCII     ? characters
                : options->glyphs == GLYPHS_BRAILLE ? BRAILLE_RAMP_STEPS
                                                    : colours;
    assert(steps >= 1 && steps <= RASTER_MAX_RAMP);
    ramp->steps = steps;
    for (int k = 0; k < steps; k++) {
        float s = ((float)k + 0.5f) / (float)steps;
        float rise = s < COVERAGE_FULL_SHADE ? s / COVERAGE_FULL_SHADE : 1.0f;
        float coverage = options->high_contrast
                             ? COVERAGE_BRIGHT
                             : (COVERAGE_DARK + (COVERAGE_BRIGHT - COVERAGE_DARK) * rise) * coverage_scale;
        ramp->ink[k] = (Ink){
            .colour = (uint8_t)(first + k * colours / steps),
            .ascii = ascii[k * characters / steps],
            .coverage = (uint8_t)fminf(coverage + 0.5f, 255.0f),
        };
    }
}

static Ink ink_solid(uint8_t colour, char ascii)
{
    return (Ink){.colour = colour, .ascii = ascii, .coverage = 255};
}

/* The torn-edge bit of the grid edge a-b and the particle that holds it, or 0
 * when a and b are not grid neighbours. */
static int edge_bit(int cols, uint32_t a, uint32_t b, uint32_t *owner)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a, diff = hi - lo, ucols = (uint32_t)cols;
    uint32_t col_lo = lo % ucols, col_hi = hi % ucols;
    *owner = lo;
    if (col_hi == col_lo && diff == ucols)
        return EDGE_DOWN;
    if (col_hi == col_lo + 1 && diff == 1)
        return EDGE_RIGHT;
    if (col_hi == col_lo + 1 && diff == ucols + 1)
        return EDGE_DOWN_RIGHT;
    if (col_hi + 1 == col_lo && diff == ucols - 1)
        return EDGE_DOWN_LEFT;
    return 0;
}

/* Fills the torn-edge map from cloth->torn; false (map untouched) when no
 * structural or shear link is torn, the common case. */
static bool mark_torn_edges(const Cloth *cloth, Scratch *s)
{
    bool any = false;
    for (int l = 0; l < cloth->link_count; l++) {
        if (!cloth->torn[l] || cloth->family[l] == LINK_BEND)
            continue;
        if (!any)
            memset(s->torn_edges, 0, (size_t)cloth->count);
        any = true;
        uint32_t owner;
        int bit = edge_bit(cloth->cols, cloth->link_a[l], cloth->link_b[l], &owner);
        s->torn_edges[owner] |= (uint8_t)bit;
    }
    return any;
}

static bool edge_torn(const Cloth *cloth, const Scratch *s, uint32_t a, uint32_t b)
{
    uint32_t owner;
    int bit = edge_bit(cloth->cols, a, b, &owner);
    return (s->torn_edges[owner] & bit) != 0;
}

/* A line between two projected particles. */
static void link_line(Canvas *canvas, const Scratch *s, uint32_t a, uint32_t b, Ink ink)
{
    raster_line(canvas, s->sx[a], s->sy[a], s->depth[a], s->sx[b], s->sy[b], s->depth[b], ink);
}

/* A rope (no triangles) in shaded mode: its structural links as solid lines. */
static void draw_rope(Canvas *canvas, const Cloth *cloth, const Scratch *s)
{
    Ink ink = ink_solid(PALETTE_FRONT_4, ROPE_ASCII);
    for (int l = 0; l < cloth->link_count; l++) {
        uint32_t a = cloth->link_a[l], b = cloth->link_b[l];
        if (cloth->family[l] == LINK_STRUCTURAL && !cloth->torn[l] && s->visible[a] && s->visible[b])
            link_line(canvas, s, a, b, ink);
    }
}

static void draw_shaded(Canvas *canvas, const Camera *view, const Cloth *cloth, Scratch *s,
                        const RenderOptions *options)
{
    if (cloth->triangle_count == 0) {
        draw_rope(canvas, cloth, s);
        return;
    }
    /* vertex normals: the sum of the (area-weighted) normals around it */
    size_t n = (size_t)cloth->count;
    memset(s->nx, 0, n * sizeof(float));
    memset(s->ny, 0, n * sizeof(float));
    memset(s->nz, 0, n * sizeof(float));
    for (int t = 0; t < cloth->triangle_count; t++) {
        uint32_t a = cloth->triangle[t][0], b = cloth->triangle[t][1], c = cloth->triangle[t][2];
        float e1x = cloth->x[b] - cloth->x[a], e1y = cloth->y[b] - cloth->y[a], e1z = cloth->z[b] - cloth->z[a];
        float e2x = cloth->x[c] - cloth->x[a], e2y = cloth->y[c] - cloth->y[a], e2z = cloth->z[c] - cloth->z[a];
        float fx = e1y * e2z - e1z * e2y, fy = e1z * e2x - e1x * e2z, fz = e1x * e2y - e1y * e2x;
        for (int k = 0; k < 3; k++) {
            uint32_t v = cloth->triangle[t][k];
            s->nx[v] += fx, s->ny[v] += fy, s->nz[v] += fz;
        }
    }
    float light[3];
    light_world(view, options, light);
    for (size_t i = 0; i < n; i++) {
        float length = sqrtf(s->nx[i] * s->nx[i] + s->ny[i] * s->ny[i] + s->nz[i] * s->nz[i]);
        float cosine =
            length > 0.0f ? (s->nx[i] * light[0] + s->ny[i] * light[1] + s->nz[i] * light[2]) / length : 0.0f;
        s->shade_front[i] = shade_of(cosine, options);
        s->shade_back[i] = shade_of(-cosine, options);
    }

    RasterRamp front, back;
    ramp_build(&front, options, front_ascii, PALETTE_FRONT_0, PALETTE_SHADES, 1.0f);
    ramp_build(&back, options, back_ascii, PALETTE_BACK_0, PALETTE_SHADES, 1.0f);
    bool any_torn = mark_torn_edges(cloth, s);
    for (int t = 0; t < cloth->triangle_count; t++) {
        const uint32_t *v = cloth->triangle[t];
        if (!s->visible[v[0]] || !s->visible[v[1]] || !s->visible[v[2]])
            continue;
        if (any_torn &&
            (edge_torn(cloth, s, v[0], v[1]) || edge_torn(cloth, s, v[1], v[2]) || edge_torn(cloth, s, v[2], v[0])))
            continue;
        float x[3], y[3], depth[3], shade[3];
        for (int k = 0; k < 3; k++)
            x[k] = s->sx[v[k]], y[k] = s->sy[v[k]], depth[k] = s->depth[v[k]];
        /* Screen y points down, so a triangle wound towards the viewer (its
         * front, cloth.h) turns clockwise on screen: negative area. */
        float area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
        bool facing = area < 0.0f;
        for (int k = 0; k < 3; k++)
            shade[k] = facing ? s->shade_front[v[k]] : s->shade_back[v[k]];
        raster_triangle(canvas, x, y, depth, shade, facing ? &front : &back);
    }
}

/* Wire mode's glyph for a link running dx columns and dy rows on screen. */
static char family_ascii(int family, float dx, float dy, float aspect)
{
    float across = fabsf(dx), down = fabsf(dy) * aspect;
    switch (family) {
    case LINK_STRUCTURAL:
        return across >= down ? '-' : '|';
    case LINK_SHEAR:
        return dx * dy < 0.0f ? '/' : '\\';
    default:
        return '.';
    }
}

static int text_length(const char *s);

static const uint8_t family_colour[LINK_FAMILY_COUNT] = {PALETTE_STRUCTURAL, PALETTE_SHEAR, PALETTE_BEND};

static void draw_wire(Canvas *canvas, const Camera *view, const Cloth *cloth, const Scratch *s, unsigned hidden)
{
    /* structural first: on a tie in depth the first drawn stays */
    for (int family = 0; family < LINK_FAMILY_COUNT; family++)
        for (int l = 0; l < cloth->link_count && !(hidden & (1u << family)); l++) {
            uint32_t a = cloth->link_a[l], b = cloth->link_b[l];
            if (cloth->family[l] != family || cloth->torn[l] || !s->visible[a] || !s->visible[b])
                continue;
            char ascii = family_ascii(family, s->sx[b] - s->sx[a], s->sy[b] - s->sy[a], view->aspect);
            link_line(canvas, s, a, b, ink_solid(family_colour[family], ascii));
        }
}

/* Strain mode: bend links are left out, they bend rather than stretch. Links
 * over their tear limit are drawn first, so they win ties. */
static void draw_strain(Canvas *canvas, const Cloth *cloth, const Scratch *s, float full)
{
    for (int pass = 0; pass < 3; pass++)
        for (int l = 0; l < cloth->link_count; l++) {
            uint32_t a = cloth->link_a[l], b = cloth->link_b[l];
            if (cloth->torn[l] || cloth->family[l] == LINK_BEND || !s->visible[a] || !s->visible[b])
                continue;
            bool warn = cloth->over_limit[l] > 0;
            if (pass == 0 && warn) {
                link_line(canvas, s, a, b, ink_solid(PALETTE_STRAIN_WARN, WARN_ASCII));
            } else if (pass > 0 && !warn && cloth->family[l] == (pass == 1 ? LINK_STRUCTURAL : LINK_SHEAR)) {
                int step = render_strain_step_to(cloth_link_strain(cloth, l), full);
                link_line(canvas, s, a, b, ink_solid((uint8_t)(PALETTE_STRAIN_0 + step), strain_ascii[step]));
            }
        }
}

/* Link l drawn over everything else in ink (its ends projected by view). */
static void link_over(Canvas *canvas, const Camera *view, const Cloth *cloth, int l, Ink ink)
{
    uint32_t a = cloth->link_a[l], b = cloth->link_b[l];
    float pa[3] = {cloth->x[a], cloth->y[a], cloth->z[a]}, pb[3] = {cloth->x[b], cloth->y[b], cloth->z[b]};
    float ax, ay, ad, bx, by, bd;
    if (camera_project(view, pa, &ax, &ay, &ad) && camera_project(view, pb, &bx, &by, &bd))
        raster_line(canvas, ax, ay, -CANVAS_DEPTH_FAR, bx, by, -CANVAS_DEPTH_FAR, ink);
}

/* A point: one dot, or for a big one a 2 x 2 block of dots (one cell in
 * ASCII, a full block in half-block mode). */
static void draw_mark(Canvas *canvas, float sx, float sy, float depth, Ink ink, bool big)
{
    if (!big) {
        raster_point(canvas, sx, sy, depth, ink);
        return;
    }
    int x = (int)floorf(sx * (float)canvas->dots_x), y = (int)floorf(sy * (float)canvas->dots_y);
    int x0 = canvas->dots_x > 1 ? x - ((x & 1) ? 1 : 0) : x;
    int y0 = canvas->dots_y > 1 ? y - ((y & 1) ? 1 : 0) : y;
    for (int j = 0; j < (canvas->dots_y > 1 ? 2 : 1); j++)
        for (int i = 0; i < (canvas->dots_x > 1 ? 2 : 1); i++)
            raster_dot(canvas, x0 + i, y0 + j, depth, ink);
}

static void draw_points(Canvas *canvas, const Cloth *cloth, const Scratch *s)
{
    /* pinned first: they win ties */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < cloth->count; i++) {
            bool pinned = cloth->pinned[i] != 0;
            if (!s->visible[i] || pinned != (pass == 0))
                continue;
            Ink ink = pinned ? ink_solid(PALETTE_PIN, PIN_ASCII) : ink_solid(PALETTE_POINT, POINT_ASCII);
            draw_mark(canvas, s->sx[i], s->sy[i], s->depth[i], ink, pinned);
        }
}

void render_begin(Canvas *canvas, const RenderOptions *options)
{
    canvas_clear(canvas);
    raster_begin(canvas, options->glyphs);
}

void render_draw_cloth(Canvas *canvas, const Camera *camera, const Cloth *cloth, const RenderOptions *options)
{
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    Scratch s;
    if (!scratch_take(canvas, cloth, &s))
        return;
    project_particles(view, cloth, &s);
    switch (options->mode) {
    case RENDER_SHADED:
        draw_shaded(canvas, view, cloth, &s, options);
        break;
    case RENDER_WIRE:
        draw_wire(canvas, view, cloth, &s, options->hidden_families);
        break;
    case RENDER_STRAIN:
        draw_strain(canvas, cloth, &s, options->strain_full);
        break;
    case RENDER_POINTS:
        draw_points(canvas, cloth, &s);
        break;
    case RENDER_MODE_COUNT:
        assert(!"render mode out of range");
        break;
    }
}

void render_draw_marker(Canvas *canvas, const Camera *camera, const Cloth *cloth, int i, const RenderOptions *options)
{
    (void)options;
    if (i < 0 || i >= cloth->count)
        return;
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    float p[3] = {cloth->x[i], cloth->y[i], cloth->z[i]}, sx, sy, depth;
    if (camera_project(view, p, &sx, &sy, &depth))
        draw_mark(canvas, sx, sy, -CANVAS_DEPTH_FAR, ink_solid(PALETTE_HIGHLIGHT, MARKER_ASCII), true);
}

void render_draw_marked_links(Canvas *canvas, const Camera *camera, const Cloth *cloth, const uint8_t *marked,
                              const RenderOptions *options)
{
    (void)options;
    if (!marked)
        return;
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    Ink ink = ink_solid(PALETTE_STRAIN_5, MARKED_ASCII);
    for (int l = 0; l < cloth->link_count; l++) {
        if (!marked[l] || cloth->torn[l])
            continue;
        link_over(canvas, view, cloth, l, ink);
    }
}

void render_draw_torn_links(Canvas *canvas, const Camera *camera, const Cloth *cloth, const RenderOptions *options)
{
    (void)options;
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    Ink ink = ink_solid(PALETTE_STRAIN_WARN, WARN_ASCII);
    for (int l = 0; l < cloth->link_count; l++) {
        if (!cloth->torn[l] || cloth->family[l] == LINK_BEND)
            continue;
        link_over(canvas, view, cloth, l, ink);
    }
}

/* Segments of a drawn parabola: finer than a braille dot across any pane */
#define PARABOLA_SEGMENTS 96

void render_draw_parabola(Canvas *canvas, const Camera *camera, const Cloth *cloth, const RenderOptions *options)
{
    (void)options;
    int n = cloth->cols;
    if (n < 3)
        return;
    int low = 0;
    for (int i = 1; i < n; i++)
        if (cloth->y[i] < cloth->y[low])
            low = i;
    double x0 = cloth->x[0], y0 = cloth->y[0], x1 = cloth->x[low], y1 = cloth->y[low];
    double x2 = cloth->x[n - 1], y2 = cloth->y[n - 1];
    if (!(x0 != x1 && x1 != x2 && x0 != x2))
        return; /* the lowest particle is an end, or the ends share an x: no parabola through three */
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    Ink ink = ink_solid(PALETTE_BACK_5, PARABOLA_ASCII);
    float z = cloth->z[low], prev_x = 0.0f, prev_y = 0.0f, prev_d = 0.0f;
    bool have_prev = false;
    for (int k = 0; k <= PARABOLA_SEGMENTS; k++) {
        double x = x0 + (x2 - x0) * k / PARABOLA_SEGMENTS;
        /* Lagrange's form through the three particles */
        double y = y0 * (x - x1) * (x - x2) / ((x0 - x1) * (x0 - x2)) +
                   y1 * (x - x0) * (x - x2) / ((x1 - x0) * (x1 - x2)) +
                   y2 * (x - x0) * (x - x1) / ((x2 - x0) * (x2 - x1));
        float p[3] = {(float)x, (float)y, z}, sx, sy, depth;
        bool on = camera_project(view, p, &sx, &sy, &depth);
        if (on && have_prev)
            raster_line(canvas, prev_x, prev_y, prev_d + PATH_BEHIND, sx, sy, depth + PATH_BEHIND, ink);
        prev_x = sx, prev_y = sy, prev_d = depth, have_prev = on;
    }
}

void render_draw_cut_links(Canvas *canvas, const Camera *camera, const Cloth *cloth, const Collider *collider,
                           const RenderOptions *options)
{
    (void)options;
    if (collider->shape == SHAPE_NONE)
        return;
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    Ink ink = ink_solid(PALETTE_STRAIN_WARN, WARN_ASCII);
    for (int l = 0; l < cloth->link_count; l++) {
        float t0, t1;
        if (!(collide_link_inside(cloth, collider, l, CUT_SAMPLES, &t0, &t1) > 0.0f))
            continue;
        uint32_t a = cloth->link_a[l], b = cloth->link_b[l];
        float pa[3] = {cloth->x[a], cloth->y[a], cloth->z[a]}, pb[3] = {cloth->x[b], cloth->y[b], cloth->z[b]};
        float p0[3], p1[3], ax, ay, ad, bx, by, bd;
        for (int k = 0; k < 3; k++)
            p0[k] = pa[k] + t0 * (pb[k] - pa[k]), p1[k] = pa[k] + t1 * (pb[k] - pa[k]);
        if (camera_project(view, p0, &ax, &ay, &ad) && camera_project(view, p1, &bx, &by, &bd))
            raster_line(canvas, ax, ay, -CANVAS_DEPTH_FAR, bx, by, -CANVAS_DEPTH_FAR, ink);
    }
}

void render_draw_path(Canvas *canvas, const Camera *camera, const float *points, int count,
                      const RenderOptions *options)
{
    (void)options;
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    Ink ink = ink_solid(PALETTE_HIGHLIGHT, PATH_ASCII);
    for (int k = 0; k + 1 < count; k++) {
        const float *a = points + 3 * k, *b = points + 3 * (k + 1);
        float ax, ay, ad, bx, by, bd;
        /* a hair behind: the cloth drawn at the same depth stays in front */
        if (camera_project(view, a, &ax, &ay, &ad) && camera_project(view, b, &bx, &by, &bd))
            raster_line(canvas, ax, ay, ad + PATH_BEHIND, bx, by, bd + PATH_BEHIND, ink);
    }
}

/* The dot index v falls in, clamped to 0..last (NaN gives 0): a projected
 * box may reach far beyond the screen. */
static int dot_index(float v, int last)
{
    if (!(v > 0.0f))
        return 0;
    return v >= (float)last ? last : (int)v;
}

void render_draw_sphere(Canvas *canvas, const Camera *camera, const double center[3], double radius,
                        const RenderOptions *options)
{
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    float r = (float)radius;
    if (!(r > 0.0f) || canvas->dot_cols == 0 || canvas->dot_rows == 0)
        return;
    float rel[3] = {(float)center[0] - view->eye[0], (float)center[1] - view->eye[1], (float)center[2] - view->eye[2]};
    float xc = rel[0] * view->right[0] + rel[1] * view->right[1] + rel[2] * view->right[2];
    float yc = rel[0] * view->up[0] + rel[1] * view->up[1] + rel[2] * view->up[2];
    float zc = rel[0] * view->forward[0] + rel[1] * view->forward[1] + rel[2] * view->forward[2];
    bool perspective = view->projection == PROJECTION_PERSPECTIVE;
    if (perspective && zc + r < CAMERA_NEAR)
        return; /* wholly behind the eye */
    float cx = 0.5f * (float)view->width, cy = 0.5f * (float)view->height;

    /* Screen box: the projection of the cube around the sphere contains that
     * of the sphere. With the eye inside that cube, the whole screen. */
    float lo_x = 0.0f, hi_x = (float)canvas->width, lo_y = 0.0f, hi_y = (float)canvas->height;
    if (!perspective) {
        lo_x = cx + (xc - r) * view->scale, hi_x = cx + (xc + r) * view->scale;
        lo_y = cy - (yc + r) * view->scale / view->aspect, hi_y = cy - (yc - r) * view->scale / view->aspect;
    } else if (zc - r > CAMERA_NEAR) {
        lo_x = lo_y = INFINITY, hi_x = hi_y = -INFINITY;
        for (int corner = 0; corner < 8; corner++) {
            float x = xc + ((corner & 1) ? r : -r), y = yc + ((corner & 2) ? r : -r), z = zc + ((corner & 4) ? r : -r);
            float px = cx + x * view->focal / z, py = cy - y * view->focal / (z * view->aspect);
            lo_x = fminf(lo_x, px), hi_x = fmaxf(hi_x, px), lo_y = fminf(lo_y, py), hi_y = fmaxf(hi_y, py);
        }
    }
    float dots_x = (float)canvas->dots_x, dots_y = (float)canvas->dots_y;
    int x0 = dot_index(lo_x * dots_x, canvas->dot_cols - 1), x1 = dot_index(hi_x * dots_x + 1.0f, canvas->dot_cols - 1);
    int y0 = dot_index(lo_y * dots_y, canvas->dot_rows - 1), y1 = dot_index(hi_y * dots_y + 1.0f, canvas->dot_rows - 1);

    float light[3];
    light_view(options, light);
    RasterRamp ramp;
    ramp_build(&ramp, options, collider_ascii, PALETTE_COLLIDER_0, PALETTE_COLLIDER_SHADES,
               options->mode == RENDER_SHADED ? 1.0f : COLLIDER_LINE_COVERAGE);
    float inv_r = 1.0f / r, r2 = r * r, c = xc * xc + yc * yc + zc * zc - r2;
    float centre_light = xc * light[0] + yc * light[1] + zc * light[2];
    /* A dot's ray, in view axes: perspective from the eye along (u, v, 1);
     * orthographic from (u, v, 0) along (0, 0, 1). u grows by du a dot
     * column; u and v of a dot centre are: */
    float per_column = perspective ? 1.0f / view->focal : 1.0f / view->scale;
    float du = per_column / dots_x;
    float depth[2 * CANVAS_MAX_SIDE], shade[2 * CANVAS_MAX_SIDE]; /* one dot row */
    for (int row = y0; row <= y1; row++) {
        float v = -(((float)row + 0.5f) / dots_y - cy) * view->aspect * per_column;
        /* The columns whose rays meet the sphere: where a quadratic in u is
         * >= 0 (perspective: b^2 - a c with a = u^2 + v^2 + 1, b = u xc + v yc
         * + zc; orthographic: r^2 - (u - xc)^2 - (v - yc)^2). */
        float qa, qb, qc, k = v * yc + zc;
        if (perspective)
            qa = xc * xc - c, qb = 2.0f * xc * k, qc = k * k - (v * v + 1.0f) * c;
        else
            qa = -1.0f, qb = 2.0f * xc, qc = r2 - xc * xc - (v - yc) * (v - yc);
        int first = x0, last = x1;
        if (qa < 0.0f) { /* a cap: between the roots, if any */
            float q = qb * qb - 4.0f * qa * qc;
            if (q < 0.0f)
                continue;
            float root = sqrtf(q), u_lo = (-qb + root) / (2.0f * qa), u_hi = (-qb - root) / (2.0f * qa);
            /* the column whose centre has u: (cx + u / per_column) dots_x - 0.5 */
            first = dot_index((cx + u_lo / per_column) * dots_x - 0.5f, canvas->dot_cols - 1);
            last = dot_index((cx + u_hi / per_column) * dots_x + 0.5f, canvas->dot_cols - 1);
            first = first < x0 ? x0 : first, last = last > x1 ? x1 : last;
        }
        if (first > last)
            continue;
        /* The nearest hit: perspective at depth t, the smaller root of
         * a t^2 - 2 b t + c = 0, with normal (t (u, v, 1) - centre) / r;
         * orthographic at zc - sqrt(r^2 - (u - xc)^2 - (v - yc)^2). Its light
         * is normal . light, taken apart so that each dot costs little. */
        float u = (((float)first + 0.5f) / dots_x - cx) * per_column;
        float row_light = v * light[1] + light[2];
        for (int col = first; col <= last; col++, u += du) {
            int i = col - first;
            float cosine;
            if (perspective) {
                float a = u * u + v * v + 1.0f, b = u * xc + k, disc = b * b - a * c;
                float t = disc >= 0.0f ? (b - sqrtf(disc)) / a : -1.0f;
                depth[i] = t >= CAMERA_NEAR ? t : NAN; /* NAN: the ray misses */
                cosine = (t * (u * light[0] + row_light) - centre_light) * inv_r;
            } else {
                float dx = u - xc, dy = v - yc, q = r2 - dx * dx - dy * dy;
                float dz = q >= 0.0f ? -sqrtf(q) : 0.0f;
                depth[i] = q >= 0.0f ? zc + dz : NAN;
                cosine = (dx * light[0] + dy * light[1] + dz * light[2]) * inv_r;
            }
            shade[i] = shade_of(cosine, options);
        }
        raster_row(canvas, row, first, last - first + 1, depth, shade, &ramp);
    }
}

/* A face of a solid collider, wound anticlockwise seen from outside, with
 * world positions p (m) and unit normals n at its corners. Faces turned away
 * from the eye are skipped (the solid's near side covers them anyway), and
 * so is a face reaching behind the eye. */
static void solid_triangle(Canvas *canvas, const Camera *view, float p[3][3], float n[3][3], const float light[3],
                           const RasterRamp *ramp, const RenderOptions *options)
{
    float x[3], y[3], depth[3], shade[3];
    for (int k = 0; k < 3; k++) {
        if (!camera_project(view, p[k], &x[k], &y[k], &depth[k]))
            return;
        shade[k] = shade_of(n[k][0] * light[0] + n[k][1] * light[1] + n[k][2] * light[2], options);
    }
    float area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
    if (area < 0.0f) /* front facing: clockwise on screen, as for the cloth */
        raster_triangle(canvas, x, y, depth, shade, ramp);
}

/* The shading ramp of the solid colliders for options. */
static void collider_ramp(RasterRamp *ramp, const RenderOptions *options)
{
    ramp_build(ramp, options, collider_ascii, PALETTE_COLLIDER_0, PALETTE_COLLIDER_SHADES,
               options->mode == RENDER_SHADED ? 1.0f : COLLIDER_LINE_COVERAGE);
}

/* A section (camera.h: Camera.section) of the cube: the outline where the
 * plane through the camera's target, square to the view, cuts it, drawn as
 * a line behind the cloth. Nothing if the plane misses the cube. */
static void draw_box_section(Canvas *canvas, const Camera *view, const float center[3], float half)
{
    float points[12][3], sx[12], sy[12], angle[12];
    int count = 0;
    for (int e = 0; e < 12; e++) {
        /* edge e runs along axis e / 4; the other two axes' signs from e % 4 */
        int axis = e / 4, u = (axis + 1) % 3, v = (axis + 2) % 3;
        float p[3], q[3];
        p[axis] = center[axis] - half, q[axis] = center[axis] + half;
        p[u] = q[u] = center[u] + ((e & 1) ? half : -half);
        p[v] = q[v] = center[v] + ((e & 2) ? half : -half);
        float dp = 0.0f, dq = 0.0f;
        for (int k = 0; k < 3; k++)
            dp += (p[k] - view->target[k]) * view->forward[k], dq += (q[k] - view->target[k]) * view->forward[k];
        if ((dp < 0.0f) == (dq < 0.0f) || dp == dq)
            continue;
        float t = dp / (dp - dq);
        for (int k = 0; k < 3; k++)
            points[count][k] = p[k] + t * (q[k] - p[k]);
        float depth;
        if (camera_project(view, points[count], &sx[count], &sy[count], &depth))
            count++;
    }
    if (count < 3)
        return;
    float mx = 0.0f, my = 0.0f;
    for (int k = 0; k < count; k++)
        mx += sx[k] / (float)count, my += sy[k] / (float)count;
    for (int k = 0; k < count; k++)
        angle[k] = atan2f((sy[k] - my) * view->aspect, sx[k] - mx);
    /* the corners in order around the middle: a convex polygon, at most six */
    for (int k = 1; k < count; k++)
        for (int j = k; j > 0 && angle[j - 1] > angle[j]; j--) {
            float a = angle[j], x = sx[j], y = sy[j];
            angle[j] = angle[j - 1], sx[j] = sx[j - 1], sy[j] = sy[j - 1];
            angle[j - 1] = a, sx[j - 1] = x, sy[j - 1] = y;
        }
    Ink ink = ink_solid(PALETTE_COLLIDER_3, SECTION_ASCII);
    float behind = view->distance + view->section; /* behind all the section shows */
    for (int k = 0; k < count; k++) {
        int n = (k + 1) % count;
        raster_line(canvas, sx[k], sy[k], behind, sx[n], sy[n], behind, ink);
    }
}

void render_draw_box(Canvas *canvas, const Camera *camera, const double center[3], double size,
                     const RenderOptions *options)
{
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    float half = 0.5f * (float)size;
    if (!(half > 0.0f))
        return;
    if (view->projection == PROJECTION_ORTHOGRAPHIC && view->section > 0.0f) {
        float middle[3] = {(float)center[0], (float)center[1], (float)center[2]};
        draw_box_section(canvas, view, middle, half);
        return;
    }
    float light[3];
    light_world(view, options, light);
    RasterRamp ramp;
    collider_ramp(&ramp, options);
    /* Each face: the axis of its outward normal, its sign, and two axes u, v
     * along it with u x v outward, so (-u-v, +u-v, +u+v, -u+v) winds
     * anticlockwise seen from outside. */
    static const int faces[6][4] = {{0, 1, 1, 2},  {0, -1, 2, 1}, {1, 1, 2, 0},
                                    {1, -1, 0, 2}, {2, 1, 0, 1},  {2, -1, 1, 0}};
    static const float corner_u[4] = {-1, 1, 1, -1}, corner_v[4] = {-1, -1, 1, 1};
    for (int f = 0; f < 6; f++) {
        int axis = faces[f][0], u = faces[f][2], v = faces[f][3];
        float sign = (float)faces[f][1];
        float quad[4][3], normal[3] = {0.0f, 0.0f, 0.0f};
        normal[axis] = sign;
        for (int c = 0; c < 4; c++) {
            for (int k = 0; k < 3; k++)
                quad[c][k] = (float)center[k];
            quad[c][axis] += sign * half;
            quad[c][u] += corner_u[c] * half;
            quad[c][v] += corner_v[c] * half;
        }
        float n[3][3];
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++)
                n[c][k] = normal[k];
        float first[3][3] = {{quad[0][0], quad[0][1], quad[0][2]},
                             {quad[1][0], quad[1][1], quad[1][2]},
                             {quad[2][0], quad[2][1], quad[2][2]}};
        float second[3][3] = {{quad[0][0], quad[0][1], quad[0][2]},
                              {quad[2][0], quad[2][1], quad[2][2]},
                              {quad[3][0], quad[3][1], quad[3][2]}};
        solid_triangle(canvas, view, first, n, light, &ramp, options);
        solid_triangle(canvas, view, second, n, light, &ramp, options);
    }
}

/* Facets around a cone: enough that its outline looks round at any size a
 * terminal allows. */
#define CONE_SEGMENTS 32

void render_draw_cone(Canvas *canvas, const Camera *camera, const double base[3], double radius, double height,
                      const RenderOptions *options)
{
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    float r = (float)radius, h = (float)height;
    if (!(r > 0.0f) || !(h > 0.0f))
        return;
    float light[3];
    light_world(view, options, light);
    RasterRamp ramp;
    collider_ramp(&ramp, options);
    float b[3] = {(float)base[0], (float)base[1], (float)base[2]};
    float apex[3] = {b[0], b[1] + h, b[2]};
    /* the side's outward normal at angle a is (h sin a, r, h cos a), normalised */
    float slant = sqrtf(h * h + r * r);
    const float two_pi = 6.28318531f;
    for (int i = 0; i < CONE_SEGMENTS; i++) {
        float a0 = two_pi * (float)i / CONE_SEGMENTS, a1 = two_pi * (float)(i + 1) / CONE_SEGMENTS;
        float mid = 0.5f * (a0 + a1);
        float p0[3] = {b[0] + r * sinf(a0), b[1], b[2] + r * cosf(a0)};
        float p1[3] = {b[0] + r * sinf(a1), b[1], b[2] + r * cosf(a1)};
        float side[3][3] = {{p0[0], p0[1], p0[2]}, {p1[0], p1[1], p1[2]}, {apex[0], apex[1], apex[2]}};
        float side_n[3][3] = {{h * sinf(a0) / slant, r / slant, h * cosf(a0) / slant},
                              {h * sinf(a1) / slant, r / slant, h * cosf(a1) / slant},
                              {h * sinf(mid) / slant, r / slant, h * cosf(mid) / slant}};
        solid_triangle(canvas, view, side, side_n, light, &ramp, options);
        float bottom[3][3] = {{b[0], b[1], b[2]}, {p1[0], p1[1], p1[2]}, {p0[0], p0[1], p0[2]}};
        float down[3][3] = {{0.0f, -1.0f, 0.0f}, {0.0f, -1.0f, 0.0f}, {0.0f, -1.0f, 0.0f}};
        solid_triangle(canvas, view, bottom, down, light, &ramp, options);
    }
}

/* A segment between two world points (m), clipped at the near plane. */
static void world_line(Canvas *canvas, const Camera *view, const float a[3], const float b[3], Ink ink)
{
    float pa[3], pb[3];
    for (int k = 0; k < 3; k++)
        pa[k] = a[k], pb[k] = b[k];
    if (view->projection == PROJECTION_PERSPECTIVE) {
        float za = 0.0f, zb = 0.0f;
        for (int k = 0; k < 3; k++)
            za += (a[k] - view->eye[k]) * view->forward[k], zb += (b[k] - view->eye[k]) * view->forward[k];
        float near = 2.0f * CAMERA_NEAR;
        if (za < near && zb < near)
            return;
        if (za < near || zb < near) {
            float t = (near - za) / (zb - za);
            float *moved = za < near ? pa : pb;
            for (int k = 0; k < 3; k++)
                moved[k] = a[k] + (b[k] - a[k]) * t;
        }
    }
    float ax, ay, ad, bx, by, bd;
    if (camera_project(view, pa, &ax, &ay, &ad) && camera_project(view, pb, &bx, &by, &bd))
        raster_line(canvas, ax, ay, ad, bx, by, bd, ink);
}

/* 1, 2 or 5 times a power of ten, near value (> 0). */
static float nice_step(float value)
{
    float power = powf(10.0f, floorf(log10f(value)));
    float ratio = value / power;
    return power * (ratio < 1.5f ? 1.0f : ratio < 3.5f ? 2.0f : ratio < 7.5f ? 5.0f : 10.0f);
}

void render_draw_floor(Canvas *canvas, const Camera *camera, double floor_y, const RenderOptions *options)
{
    (void)options;
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    float extent = fmaxf(view->distance, 0.5f);
    float step = nice_step(extent / 6.0f);
    float y = (float)floor_y;
    float x0 = floorf((view->target[0] - extent) / step) * step, x1 = view->target[0] + extent;
    float z0 = floorf((view->target[2] - extent) / step) * step, z1 = view->target[2] + extent;
    /* dotted in braille: a grid to stand things on, not a wall of lines */
    Ink ink = {.colour = PALETTE_FLOOR, .ascii = FLOOR_ASCII, .coverage = (uint8_t)(255 * COLLIDER_LINE_COVERAGE)};
    int lines_x = (int)((x1 - x0) / step) + 1, lines_z = (int)((z1 - z0) / step) + 1;
    for (int k = 0; k < lines_x; k++) {
        float x = x0 + (float)k * step;
        world_line(canvas, view, (float[3]){x, y, z0}, (float[3]){x, y, z1}, ink);
    }
    for (int k = 0; k < lines_z; k++) {
        float z = z0 + (float)k * step;
        world_line(canvas, view, (float[3]){x0, y, z}, (float[3]){x1, y, z}, ink);
    }
}

void render_draw_collider(Canvas *canvas, const Camera *camera, const Collider *collider, const RenderOptions *options)
{
    const float *c = collider->center;
    double center[3] = {c[0], c[1], c[2]};
    /* a section (Camera.section) has the box's outline only */
    if (camera->projection == PROJECTION_ORTHOGRAPHIC && camera->section > 0.0f && collider->shape != SHAPE_BOX)
        return;
    /* one case per ColliderShape: -Wswitch asks for a new shape's */
    switch (collider->shape) {
    case SHAPE_SPHERE:
        render_draw_sphere(canvas, camera, center, collider->radius, options);
        break;
    case SHAPE_BOX:
        render_draw_box(canvas, camera, center, collider->size, options);
        break;
    case SHAPE_CONE:
        render_draw_cone(canvas, camera, center, collider->radius, collider->height, options);
        break;
    case SHAPE_NONE:
        break;
    }
}

void render_draw_colliders(Canvas *canvas, const Camera *camera, const Solver *solver, const RenderOptions *options)
{
    Collider collider;
    solver_collider(solver, &collider);
    render_draw_collider(canvas, camera, &collider, options);
    if (solver->params.floor)
        render_draw_floor(canvas, camera, solver->params.floor_y, options);
}

void render_end(Canvas *canvas, const RenderOptions *options)
{
    raster_resolve(canvas, options->high_contrast ? ATTR_BOLD : ATTR_NONE);
}

int render_legend(Canvas *canvas, int x, int y, const RenderOptions *options)
{
    bool ascii = options->glyphs == GLYPHS_ASCII;
    float full = options->strain_full > 0.0f ? options->strain_full : RENDER_STRAIN_FULL;
    /* the 10 % line before the step where Provot's limit falls, when it is on the ramp */
    float limit_at = 0.1f / full * (float)PALETTE_STRAIN_STEPS;
    int limit_step = limit_at > 0.5f && limit_at < (float)PALETTE_STRAIN_STEPS - 0.5f ? (int)lroundf(limit_at) : -1;
    /* a narrow pane gets the ramp with its ends only, so that the legends of
     * panes side by side never run into each other: the whole one is as wide
     * as its words (translated) and its top ("100%" is wider than "20%") */
    char whole_top[24];
    snprintf(whole_top, sizeof whole_top, " %.3g%%  ", 100.0 * full);
    /* xgettext:no-c-format */
    int whole = text_length(T_("strain 0% ")) + PALETTE_STRAIN_STEPS + (limit_step >= 0 ? 8 : 0) +
                text_length(whole_top) + 1 + text_length(T_(" tearing"));
    bool compact = canvas->width - x < (whole > RENDER_LEGEND_WIDTH ? whole : RENDER_LEGEND_WIDTH);
    /* xgettext:no-c-format */
    x = canvas_text(canvas, x, y, compact ? "0%" : T_("strain 0% "), PALETTE_TEXT, ATTR_NONE);
    for (int step = 0; step < PALETTE_STRAIN_STEPS; step++) {
        if (step == limit_step)
            canvas_put(canvas, x++, y, '|', PALETTE_TEXT, PALETTE_DEFAULT, ATTR_BOLD);
        uint32_t glyph = ascii ? (uint32_t)strain_ascii[step] : FULL_BLOCK;
        canvas_put(canvas, x++, y, glyph, (uint8_t)(PALETTE_STRAIN_0 + step), PALETTE_DEFAULT, ATTR_NONE);
    }
    char top[24];
    snprintf(top, sizeof top, compact ? "%.3g%% " : " %.3g%%  ", 100.0 * full);
    text_decimals(top, sizeof top);
    x = canvas_text(canvas, x, y, top, PALETTE_TEXT, ATTR_NONE);
    if (limit_step >= 0 && !compact)
        x = canvas_text(canvas, x, y, "|=10%  ", PALETTE_TEXT, ATTR_NONE);
    canvas_put(canvas, x++, y, ascii ? (uint32_t)WARN_ASCII : FULL_BLOCK, PALETTE_STRAIN_WARN, PALETTE_DEFAULT,
               ATTR_BOLD);
    return compact ? x : canvas_text(canvas, x, y, T_(" tearing"), PALETTE_TEXT, ATTR_NONE);
}

/* The smallest 1, 2 or 5 times a power of ten at or above value (> 0). */
static float round_up(float value)
{
    float power = powf(10.0f, floorf(log10f(value)));
    static const float steps[] = {1.0f, 2.0f, 5.0f, 10.0f};
    for (int k = 0; k < 4; k++)
        if (steps[k] * power >= value * 0.9999f)
            return steps[k] * power;
    return 10.0f * power;
}

float render_strain_ramp_fit(float full, float strain)
{
    float want = RENDER_RAMP_LEAST;
    if (full > want && isfinite(full))
        want = full;
    if (strain > want && isfinite(strain))
        want = strain;
    return want >= RENDER_RAMP_MOST ? RENDER_RAMP_MOST : round_up(want);
}

int render_wire_legend(Canvas *canvas, int x, int y, const RenderOptions *options)
{
    static const char ascii[LINK_FAMILY_COUNT] = {'-', '/', '.'};
    const char *names[LINK_FAMILY_COUNT] = {T_("structural"), T_("shear"), T_("bend")};
    bool glyphs_ascii = options->glyphs == GLYPHS_ASCII;
    int need = 0;
    for (int f = 0; f < LINK_FAMILY_COUNT; f++)
        need += 2 + text_length(names[f]) + (f ? 2 : 0);
    /* a narrow pane: the swatches with the names' first letters */
    bool compact = canvas->width - x < need;
    for (int f = 0; f < LINK_FAMILY_COUNT; f++) {
        bool hidden = options->hidden_families & (1u << f);
        if (f)
            x = canvas_text(canvas, x, y, compact ? " " : "  ", PALETTE_TEXT, ATTR_NONE);
        uint32_t swatch = hidden ? ' ' : glyphs_ascii ? (uint32_t)ascii[f] : FULL_BLOCK;
        canvas_put(canvas, x++, y, swatch, family_colour[f], PALETTE_DEFAULT, ATTR_BOLD);
        x = canvas_text(canvas, x, y, " ", PALETTE_TEXT, ATTR_NONE);
        if (compact) {
            char initial[8];
            uint32_t code_point;
            int bytes = canvas_utf8_decode(names[f], &code_point);
            snprintf(initial, sizeof initial, "%.*s", bytes, names[f]);
            x = canvas_text(canvas, x, y, initial, PALETTE_TEXT, hidden ? ATTR_DIM : ATTR_NONE);
        } else {
            x = canvas_text(canvas, x, y, names[f], PALETTE_TEXT, hidden ? ATTR_DIM : ATTR_NONE);
        }
    }
    return x;
}

void render_draw_solver_cloth(Canvas *canvas, const Camera *camera, const Solver *solver, const RenderOptions *options)
{
    if (solver->exploded && solver->blown_x) {
        /* an exploded cloth is shown as it was found: blown apart */
        Cloth blown = *solver->cloth;
        blown.x = solver->blown_x, blown.y = solver->blown_y, blown.z = solver->blown_z;
        render_draw_cloth(canvas, camera, &blown, options);
    } else {
        render_draw_cloth(canvas, camera, solver->cloth, options);
    }
}

void render_solver(Canvas *canvas, const Camera *camera, const Solver *solver, const RenderOptions *options)
{
    render_solver_with(canvas, camera, solver, options, NULL);
}

void render_solver_with(Canvas *canvas, const Camera *camera, const Solver *solver, const RenderOptions *options,
                        const RenderExtras *extras)
{
    RenderOptions cut_options;
    if (extras && extras->cuts) {
        /* bend links meet no collider: over the cuts they would only cross them */
        cut_options = *options;
        cut_options.hidden_families |= 1u << LINK_BEND;
        options = &cut_options;
    }
    render_begin(canvas, options);
    render_draw_colliders(canvas, camera, solver, options);
    render_draw_solver_cloth(canvas, camera, solver, options);
    if (extras && extras->parabola)
        render_draw_parabola(canvas, camera, solver->cloth, options);
    if (extras && extras->path_count > 1)
        render_draw_path(canvas, camera, extras->path, extras->path_count, options);
    if (extras && extras->marked)
        render_draw_marked_links(canvas, camera, solver->cloth, extras->marked, options);
    if (extras && extras->torn)
        render_draw_torn_links(canvas, camera, solver->cloth, options);
    if (extras && extras->cuts) {
        Collider collider;
        solver_contact_collider(solver, &collider);
        render_draw_cut_links(canvas, camera, solver->cloth, &collider, options);
    }
    if (solver->grabbed >= 0)
        render_draw_marker(canvas, camera, solver->cloth, solver->grabbed, options);
    render_end(canvas, options);
    if (options->mode == RENDER_STRAIN && options->legend && canvas->height > 0)
        render_legend(canvas, 0, canvas->height - 1, options);
    else if (options->mode == RENDER_WIRE && options->legend && canvas->height > 0)
        render_wire_legend(canvas, 0, canvas->height - 1, options);
}

int render_pick(const Canvas *canvas, const Camera *camera, const Cloth *cloth, float sx, float sy)
{
    if (canvas->width == 0 || canvas->height == 0)
        return -1; /* nothing is shown, so nothing can be clicked */
    Camera local;
    const Camera *view = view_of(canvas, camera, &local);
    int best = -1;
    float best_distance = RENDER_PICK_RADIUS * RENDER_PICK_RADIUS, best_depth = INFINITY;
    for (int i = 0; i < cloth->count; i++) {
        float p[3] = {cloth->x[i], cloth->y[i], cloth->z[i]}, px, py, depth;
        if (!camera_project(view, p, &px, &py, &depth))
            continue;
        float dx = px - sx, dy = (py - sy) * view->aspect;
        float distance = dx * dx + dy * dy;
        /* nearer on screen wins; within a hundredth of a column, nearer in depth */
        if (distance <= best_distance + 1e-4f && (distance < best_distance - 1e-4f || depth < best_depth)) {
            best = i;
            best_distance = fminf(distance, best_distance);
            best_depth = depth;
        }
    }
    return best;
}

/* ---------------------------------------------------------------- plots */

/* Sets sub-cell (sub_x, sub_y) of a plot: cell x, y, and inside it column i,
 * row j of the mode's sub-grid (braille 2 x 4, half 1 x 2, ASCII 1 x 3). */
static void plot_sub(Canvas *canvas, int x, int y, int i, int j, uint8_t colour, Glyphs glyphs)
{
    const CanvasCell *cell = canvas_get(canvas, x, y);
    if (!cell)
        return;
    uint32_t glyph = cell->glyph;
    if (glyphs == GLYPHS_BRAILLE) {
        if (glyph < BRAILLE_BLANK || glyph > BRAILLE_BLANK + 0xFF)
            glyph = BRAILLE_BLANK;
        glyph |= raster_braille_bit(i, j);
    } else if (glyphs == GLYPHS_HALF) {
        uint32_t half = j == 0 ? HALF_UPPER : HALF_LOWER;
        glyph = (glyph == ' ' || glyph == half) ? half : FULL_BLOCK;
    } else {
        static const char levels[] = "'-_"; /* top, middle, bottom third */
        glyph = (glyph == ' ' || glyph == (uint32_t)levels[j]) ? (uint32_t)levels[j] : '|';
    }
    canvas_put(canvas, x, y, glyph, colour, PALETTE_DEFAULT, ATTR_NONE);
}

void render_plot(Canvas *canvas, int x, int y, int w, int h, const float *values, int n, uint8_t colour,
                 const char *label, Glyphs glyphs)
{
    RenderPlotScale scale = {.lo = NAN, .hi = NAN, .reference = NAN};
    render_plot_scaled(canvas, x, y, w, h, values, n, colour, label, glyphs, &scale);
}

/* A plot's value for a person: as a percentage where the scale says so,
 * with three significant digits and never more than 9 characters. */
static void plot_number(char *out, size_t size, double value, bool percent)
{
    if (percent)
        value *= 100.0;
    double a = fabs(value);
    if (a != 0.0 && (a < 1e-3 || a >= 1e6))
        snprintf(out, size, "%.2e", value);
    else if (a >= 100.0)
        snprintf(out, size, "%.0f", value);
    else
        snprintf(out, size, "%.3g", value);
    if (percent)
        strncat(out, "%", size - strlen(out) - 1);
    text_decimals(out, size); /* 0,692% in Ukrainian */
}

/* Code points in a UTF-8 text: the cells it takes in a plot's label. */
static int text_length(const char *s)
{
    int n = 0;
    while (*s) {
        uint32_t code_point;
        s += canvas_utf8_decode(s, &code_point);
        n++;
    }
    return n;
}

/* A series' value as the plot draws it: its log10 on a log scale. */
static float plotted(float value, bool log_scale)
{
    if (!log_scale)
        return value;
    return isfinite(value) ? log10f(fmaxf(fabsf(value), 1e-6f)) : value;
}

void render_plot_scale_hold(RenderPlotScale *scale, float value)
{
    if (!isfinite(value) || (value >= scale->lo && value <= scale->hi))
        return;
    if (!isfinite(scale->lo) || !isfinite(scale->hi)) {
        render_plot_scale_around(scale, value, 1e-6f);
        return;
    }
    float lo = fminf(scale->lo, value), hi = fmaxf(scale->hi, value);
    float margin = 0.25f * (hi - lo), step = round_up(margin > 0.0f ? margin : 1e-6f);
    if (value > scale->hi)
        scale->hi = ceilf((value + margin) / step) * step;
    else
        scale->lo = floorf((value - margin) / step) * step;
}

void render_plot_scale_around(RenderPlotScale *scale, float start, float least)
{
    float half = fmaxf(0.1f * fabsf(start), least);
    float step = round_up(0.5f * half);
    scale->lo = floorf((start - half) / step) * step;
    scale->hi = ceilf((start + half) / step) * step;
}

void render_plot_scaled(Canvas *canvas, int x, int y, int w, int h, const float *values, int n, uint8_t colour,
                        const char *label, Glyphs glyphs, const RenderPlotScale *scale)
{
    if (w <= 0 || h <= 0)
        return;
    canvas_fill(canvas, x, y, w, h, ' ', PALETTE_DEFAULT, PALETTE_DEFAULT);
    int sub_x = glyphs == GLYPHS_BRAILLE ? 2 : 1;
    int sub_y = glyphs == GLYPHS_BRAILLE ? 4 : glyphs == GLYPHS_HALF ? 2 : 3;
    int columns = w * sub_x;
    int count = n < columns ? n : columns, first = n - count;
    bool log_scale = scale->log;

    float lo = INFINITY, hi = -INFINITY, last = NAN;
    for (int k = first; k < n; k++)
        if (isfinite(values[k])) {
            float v = plotted(values[k], log_scale);
            lo = fminf(lo, v), hi = fmaxf(hi, v), last = values[k];
        }
    bool fixed = isfinite(scale->lo) && isfinite(scale->hi) && scale->hi > scale->lo;
    if (fixed)
        lo = plotted(scale->lo, log_scale), hi = plotted(scale->hi, log_scale);

    int plot_y = y, plot_h = h;
    char range_below[64] = ""; /* the range, when the label row has no room for it */
    if (h >= 2) {
        /* the label and the last value; the value comes first when there is
         * no room for both, and the range of a fixed scale after them */
        char text[160], number[24] = "", range[64] = "";
        if (isfinite(last))
            plot_number(number, sizeof number, last, scale->percent);
        if (fixed) {
            char a[24], b[24];
            plot_number(a, sizeof a, scale->lo, scale->percent);
            plot_number(b, sizeof b, scale->hi, scale->percent);
            snprintf(range, sizeof range, " [%s..%s]", a, b);
        } else if (log_scale) {
            snprintf(range, sizeof range, " [log]");
        }
        const char *name = label ? label : "";
        snprintf(text, sizeof text, "%s %s%s", name, number, range);
        if (text_length(text) > w) {
            snprintf(text, sizeof text, "%s %s", name, number);
            if (fixed && h >= 3 && text_length(range) - 1 <= w)
                snprintf(range_below, sizeof range_below, "%s", range + 1); /* under the plot instead */
        }
        if (text_length(text) > w)
            snprintf(text, sizeof text, "%s", number[0] ? number : name);
        const char *p = text;
        for (int col = x; *p && col < x + w; col++) {
            uint32_t code_point;
            p += canvas_utf8_decode(p, &code_point);
            canvas_put(canvas, col, y, code_point, PALETTE_TEXT, PALETTE_DEFAULT, ATTR_NONE);
        }
        plot_y = y + 1, plot_h = h - 1;
    }
    if (!(lo <= hi))
        return; /* nothing finite to plot */
    if (!(hi > lo))
        lo -= 1.0f, hi += 1.0f; /* a flat line, drawn across the middle */

    int rows = plot_h * sub_y;
    /* the reference line, dotted, under the series */
    float reference = plotted(scale->reference, log_scale);
    if (isfinite(reference) && reference >= lo && reference <= hi) {
        int row = (int)lroundf((hi - reference) / (hi - lo) * (float)(rows - 1));
        for (int k = 0; k < columns; k += 2 * sub_x)
            plot_sub(canvas, x + k / sub_x, plot_y + row / sub_y, k % sub_x, row % sub_y, PALETTE_DIM, glyphs);
    }
    int previous = -1;
    for (int k = 0; k < count; k++) {
        float value = plotted(values[first + k], log_scale);
        if (!isfinite(value)) {
            previous = -1;
            continue;
        }
        value = fminf(fmaxf(value, lo), hi); /* off a fixed scale: pinned to its edge */
        int row = (int)lroundf((hi - value) / (hi - lo) * (float)(rows - 1));
        /* join to the previous sample with a vertical run */
        int from = previous < 0 ? row : previous < row ? previous : row;
        int to = previous < 0 ? row : previous > row ? previous : row;
        for (int r = from; r <= to; r++)
            plot_sub(canvas, x + k / sub_x, plot_y + r / sub_y, k % sub_x, r % sub_y, colour, glyphs);
        previous = row;
    }
    if (range_below[0]) /* the bottom row's right end, over the series */
        canvas_text(canvas, x + w - text_length(range_below), y + h - 1, range_below, PALETTE_DIM, ATTR_NONE);
}
