/* view.c - the camera and the screen measures of a lesson pane (view.h). */
#include "view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/layout.h"

/* m, either side of a view's target: how thick the slice a target's section
 * shows. Lesson 8's box edge: 10 cm takes two rows of the 24 x 24 cloth
 * (8.7 cm apart) and four of the 40 x 40, and leaves out the cloth's corner
 * folds, 50 cm away, that would cross the section's corner. */
#define LESSON_VIEW_SECTION 0.1f

const int lesson_screen_sizes[LESSON_SCREEN_SIZE_COUNT][2] = {{80, 24}, {110, 34}};

void lesson_view_camera(const LessonPlayer *player, int i, int width, int height, Camera *camera)
{
    const LessonPane *pane = &player->panes[i];
    const LessonView *v = &pane->view;
    /* the numbers shown large keep a strip of their own on the right: the
     * picture is framed in what is left, then moved there */
    int reserve = v->show_count > 0 && width >= 2 * LESSON_SHOW_COLUMNS ? LESSON_SHOW_COLUMNS : 0;
    int full = width;
    width -= reserve;
    camera_init(camera, pane->solver->params.dim, width > 0 ? width : 1, height > 0 ? height : 1);
    if (v->set & VIEW_SET_YAW)
        camera->yaw = (float)v->yaw;
    if (v->set & VIEW_SET_PITCH)
        camera->pitch = (float)v->pitch;
    camera_update(camera);
    float lo[3], hi[3];
    memcpy(lo, pane->frame_lo, sizeof lo);
    memcpy(hi, pane->frame_hi, sizeof hi);
    if (v->camera == VIEW_CAMERA_SHARED) {
        for (int j = 0; j < player->pane_count; j++) {
            const LessonPane *other = &player->panes[j];
            if (other->view.camera != VIEW_CAMERA_SHARED)
                continue;
            for (int k = 0; k < 3; k++)
                lo[k] = fminf(lo[k], other->frame_lo[k]), hi[k] = fmaxf(hi[k], other->frame_hi[k]);
        }
    } else if (v->camera == VIEW_CAMERA_FOLLOW) {
        float now_lo[3], now_hi[3];
        if (camera_solver_box(pane->solver, now_lo, now_hi)) {
            memcpy(lo, now_lo, sizeof lo);
            memcpy(hi, now_hi, sizeof hi);
        }
    }
    camera_fit_box(camera, lo, hi);
    if (v->zoom > 0.0)
        camera_zoom_framed(camera, lo, hi, v->zoom);
    if ((v->set & VIEW_SET_TARGET) && isfinite(v->target[0])) {
        /* aimed at a point, from where the framing and the zoom put the
         * eye's distance, and drawn as a technical drawing is: sizes do not
         * shrink with depth, so that what lies along the line of sight lines
         * up (a box's edge seen end on is one corner, and every link that
         * cuts it cuts that corner) */
        for (int k = 0; k < 3; k++)
            camera->target[k] = (float)v->target[k];
        camera->projection = PROJECTION_ORTHOGRAPHIC;
        camera->section = LESSON_VIEW_SECTION;
        camera_update(camera);
    }
    if (reserve) {
        camera_set_viewport(camera, full, camera->height);
        camera_pan(camera, -0.5f * (float)reserve, 0.0f);
    }
}

void lesson_view_options(const LessonPlayer *player, int i, const RenderOptions *base, RenderOptions *out)
{
    *out = *base;
    int mode = player->panes[i].view.mode;
    if (mode >= 0 && mode < RENDER_MODE_COUNT)
        out->mode = (RenderMode)mode;
    out->strain_full = (float)player->panes[i].view.ramp;
    /* bend links meet no collider: where the view shows the cuts, they
     * would only cross them */
    if (player->panes[i].view.cuts)
        out->hidden_families |= 1u << LINK_BEND;
}

void lesson_view_extras(const LessonPlayer *player, int i, RenderExtras *out)
{
    const LessonPane *pane = &player->panes[i];
    out->marked = lesson_pane_marks(pane);
    out->path = lesson_pane_trace(pane, &out->path_count);
    out->torn = pane->view.torn;
    out->parabola = pane->view.parabola;
    out->cuts = pane->view.cuts;
}

void lesson_view_draw_extras(const LessonPlayer *player, int i, Canvas *canvas, const Camera *camera,
                             const RenderOptions *options)
{
    RenderExtras extras;
    lesson_view_extras(player, i, &extras);
    if (extras.parabola)
        render_draw_parabola(canvas, camera, player->panes[i].solver->cloth, options);
    if (extras.path_count > 1)
        render_draw_path(canvas, camera, extras.path, extras.path_count, options);
    if (extras.marked)
        render_draw_marked_links(canvas, camera, player->panes[i].solver->cloth, extras.marked, options);
    if (extras.torn)
        render_draw_torn_links(canvas, camera, player->panes[i].solver->cloth, options);
    if (extras.cuts) {
        Collider collider;
        solver_contact_collider(player->panes[i].solver, &collider);
        render_draw_cut_links(canvas, camera, player->panes[i].solver->cloth, &collider, options);
    }
}

/* What a student sees of a cell: anything but an empty one. */
static bool covered(const CanvasCell *cell)
{
    return cell->glyph != ' ' && cell->glyph != 0x2800;
}

/* What draw_alone draws of a pane. */
enum { DRAW_CLOTH, DRAW_TRACE, DRAW_BARE_CLOTH, DRAW_PARABOLA };

/* Pane i's cloth alone, drawn as the player draws it, into a new canvas;
 * or its trace alone, its cloth without extras, its parabola alone. */
static Canvas *draw_alone(const LessonPlayer *player, int i, const Layout *layout, int what)
{
    const LayoutRect *r = &layout->view[i];
    Canvas *canvas = r->width > 0 && r->height > 0 ? canvas_create(r->width, r->height) : NULL;
    if (!canvas || !render_reserve(canvas, player->panes[i].solver->cloth)) {
        canvas_destroy(canvas);
        return NULL;
    }
    RenderOptions base, options;
    render_options_default(&base);
    base.legend = false;
    lesson_view_options(player, i, &base, &options);
    Camera camera;
    lesson_view_camera(player, i, r->width, r->height, &camera);
    render_begin(canvas, &options);
    if (what == DRAW_TRACE) {
        int count;
        const float *path = lesson_pane_trace(&player->panes[i], &count);
        if (path)
            render_draw_path(canvas, &camera, path, count, &options);
    } else if (what == DRAW_PARABOLA) {
        render_draw_parabola(canvas, &camera, player->panes[i].solver->cloth, &options);
    } else {
        render_draw_solver_cloth(canvas, &camera, player->panes[i].solver, &options);
        if (what == DRAW_CLOTH)
            lesson_view_draw_extras(player, i, canvas, &camera, &options);
    }
    render_end(canvas, &options);
    return canvas;
}

/* Empty cells that no path of empty cells joins to the view's edge. */
static double count_holes(const Canvas *c)
{
    int w = c->width, h = c->height;
    unsigned char *seen = calloc((size_t)w * (size_t)h, 1);
    int *queue = malloc((size_t)w * (size_t)h * sizeof *queue);
    if (!seen || !queue) {
        free(seen);
        free(queue);
        return NAN;
    }
    int head = 0, tail = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if ((x == 0 || y == 0 || x == w - 1 || y == h - 1) && !covered(&c->cells[y * w + x])) {
                seen[y * w + x] = 1;
                queue[tail++] = y * w + x;
            }
    while (head < tail) {
        int at = queue[head++], x = at % w, y = at / w;
        const int next[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
        for (int k = 0; k < 4; k++) {
            int nx = next[k][0], ny = next[k][1];
            if (nx < 0 || ny < 0 || nx >= w || ny >= h)
                continue;
            int n = ny * w + nx;
            if (!seen[n] && !covered(&c->cells[n])) {
                seen[n] = 1;
                queue[tail++] = n;
            }
        }
    }
    int holes = 0;
    for (int k = 0; k < w * h; k++)
        holes += !seen[k] && !covered(&c->cells[k]);
    free(seen);
    free(queue);
    return holes;
}

static bool hot(const CanvasCell *cell)
{
    return cell->fg == PALETTE_STRAIN_5 || cell->fg == PALETTE_STRAIN_WARN;
}

/* Cells told apart by colour as well as by being drawn: the line and strain
 * modes, where a colour is a family or a stretch. Shading is left out: a
 * fold's light changes from frame to frame. */
static bool colour_counts(const LessonPlayer *player, int i)
{
    int mode = player->panes[i].view.mode;
    return mode == RENDER_STRAIN || mode == RENDER_WIRE;
}

bool lesson_view_clipped(const LessonPlayer *player, int i, int cols, int rows)
{
    if (i < 0 || i >= player->pane_count)
        return false;
    Layout layout;
    layout_compute(&layout, cols, rows, player->pane_count, true);
    const LayoutRect *r = &layout.view[i];
    if (layout.too_small || r->width <= 0 || r->height <= 0)
        return false;
    Camera camera;
    lesson_view_camera(player, i, r->width, r->height, &camera);
    const Cloth *c = player->panes[i].solver->cloth;
    for (int k = 0; k < c->count; k++) {
        float point[3] = {c->x[k], c->y[k], c->z[k]}, sx, sy, depth;
        if (!camera_project(&camera, point, &sx, &sy, &depth) || !(sx >= 0.0f && sx < (float)r->width) ||
            !(sy >= 0.0f && sy < (float)r->height))
            return true;
    }
    return false;
}

double lesson_view_measure(const LessonPlayer *player, int i, int metric, int other, int cols, int rows)
{
    if (i < 0 || i >= player->pane_count)
        return NAN;
    Layout layout;
    layout_compute(&layout, cols, rows, player->pane_count, true);
    if (layout.too_small)
        return NAN;
    Canvas *a = draw_alone(player, i, &layout,
                           metric == METRIC_SCREEN_TRACE_ROWS     ? DRAW_TRACE
                           : metric == METRIC_SCREEN_OFF_PARABOLA ? DRAW_BARE_CLOTH
                                                                  : DRAW_CLOTH);
    if (!a)
        return NAN;
    int w = a->width, h = a->height;
    double result = NAN;
    int drawn = 0, hot_cells = 0, top = h, bottom = -1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const CanvasCell *cell = &a->cells[y * w + x];
            if (!covered(cell))
                continue;
            drawn++;
            hot_cells += hot(cell);
            top = y < top ? y : top;
            bottom = y > bottom ? y : bottom;
        }
    switch (metric) {
    case METRIC_SCREEN_COVER:
        result = (double)drawn / ((double)w * h);
        break;
    case METRIC_SCREEN_ROWS:
    case METRIC_SCREEN_TRACE_ROWS:
        result = bottom < top ? 0.0 : (double)(bottom - top + 1) / h;
        break;
    case METRIC_SCREEN_HOLES:
        result = count_holes(a);
        break;
    case METRIC_SCREEN_HOT:
        result = drawn ? (double)hot_cells / drawn : 0.0;
        break;
    case METRIC_SCREEN_UNLIKE: {
        Canvas *b = other >= 0 && other < player->pane_count ? draw_alone(player, other, &layout, DRAW_CLOTH) : NULL;
        if (!b)
            break;
        bool colour = colour_counts(player, i) && colour_counts(player, other);
        int union_cells = 0, unlike = 0;
        int cw = w < b->width ? w : b->width, ch = h < b->height ? h : b->height;
        for (int y = 0; y < ch; y++)
            for (int x = 0; x < cw; x++) {
                const CanvasCell *p = &a->cells[y * w + x], *q = &b->cells[y * b->width + x];
                bool pc = covered(p), qc = covered(q);
                if (!pc && !qc)
                    continue;
                union_cells++;
                unlike += pc != qc || (colour && p->fg != q->fg);
            }
        result = union_cells ? (double)unlike / union_cells : 0.0;
        canvas_destroy(b);
        break;
    }
    case METRIC_SCREEN_OFF_PARABOLA: {
        Canvas *b = draw_alone(player, i, &layout, DRAW_PARABOLA);
        if (!b)
            break;
        /* the parabola's cells the rope leaves to it: where a student sees
         * the reference curve on its own, beside the rope */
        int off = 0, para = 0;
        for (int k = 0; k < w * h; k++) {
            para += covered(&b->cells[k]);
            off += covered(&b->cells[k]) && !covered(&a->cells[k]);
        }
        drawn = para;
        result = drawn ? (double)off / drawn : 0.0;
        canvas_destroy(b);
        break;
    }
    default:
        break;
    }
    canvas_destroy(a);
    return result;
}
