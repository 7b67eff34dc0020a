/* camera.c - the orbit camera: view basis, projection, framing. */
#include "camera.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>

/* Share of the viewport left free around a framed cloth, each side. */
#define CAMERA_FIT_MARGIN 0.06f

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void camera_init(Camera *camera, int dim, int width, int height)
{
    *camera = (Camera){
        .projection = dim == 2 ? PROJECTION_ORTHOGRAPHIC : PROJECTION_PERSPECTIVE,
        .target = {0.0f, 1.0f, 0.0f},
        .yaw = dim == 2 ? 0.0f : 0.45f,
        .pitch = dim == 2 ? 0.0f : 0.25f,
        .distance = 3.0f,
        .fov = CAMERA_DEFAULT_FOV,
        .aspect = CAMERA_DEFAULT_ASPECT,
        .width = width,
        .height = height,
    };
    camera_update(camera);
}

void camera_update(Camera *camera)
{
    assert(camera->fov > 0.0f && camera->fov < 3.14f && camera->aspect > 0.0f);
    camera->pitch = clampf(camera->pitch, -CAMERA_MAX_PITCH, CAMERA_MAX_PITCH);
    camera->distance = clampf(camera->distance, CAMERA_MIN_DISTANCE, CAMERA_MAX_DISTANCE);
    float cp = cosf(camera->pitch), sp = sinf(camera->pitch);
    float cy = cosf(camera->yaw), sy = sinf(camera->yaw);
    float back[3] = {cp * sy, sp, cp * cy}; /* from the target towards the eye */
    for (int k = 0; k < 3; k++) {
        camera->eye[k] = camera->target[k] + camera->distance * back[k];
        camera->forward[k] = -back[k];
    }
    /* right = forward x world up, never zero since |pitch| < 90 degrees */
    float rx = -camera->forward[2], rz = camera->forward[0];
    float rl = sqrtf(rx * rx + rz * rz);
    camera->right[0] = rx / rl, camera->right[1] = 0.0f, camera->right[2] = rz / rl;
    /* up = right x forward */
    const float *r = camera->right, *f = camera->forward;
    camera->up[0] = r[1] * f[2] - r[2] * f[1];
    camera->up[1] = r[2] * f[0] - r[0] * f[2];
    camera->up[2] = r[0] * f[1] - r[1] * f[0];
    /* the field of view spans the viewport's height, in column widths */
    float rows = (float)(camera->height > 0 ? camera->height : 1);
    camera->focal = 0.5f * rows * camera->aspect / tanf(0.5f * camera->fov);
    camera->scale = camera->focal / camera->distance;
}

void camera_set_viewport(Camera *camera, int width, int height)
{
    camera->width = width;
    camera->height = height;
    camera_update(camera);
}

void camera_orbit(Camera *camera, float dyaw, float dpitch)
{
    const float two_pi = 6.28318531f;
    camera->yaw = fmodf(camera->yaw + dyaw, two_pi);
    camera->pitch += dpitch;
    camera_update(camera);
}

void camera_zoom(Camera *camera, float factor)
{
    assert(factor > 0.0f);
    camera->distance *= factor;
    camera_update(camera);
}

void camera_pan(Camera *camera, float dx, float dy)
{
    /* metres per column at the target, the same for both projections */
    float metres = 1.0f / camera->scale;
    for (int k = 0; k < 3; k++)
        camera->target[k] -= metres * (dx * camera->right[k] - dy * camera->aspect * camera->up[k]);
    camera_update(camera);
}

/* The smallest distance at which the point p (m) projects inside the
 * viewport shrunk by the margin, the target and view axes being fixed: with
 * p at (x, y, z) in view axes from the target, |x| focal / (D + z) <= half_w
 * and |y| focal / (aspect (D + z)) <= half_h (orthographic: D alone). */
static float distance_to_fit(const Camera *camera, const float p[3], float half_w, float half_h)
{
    float rel[3] = {p[0] - camera->target[0], p[1] - camera->target[1], p[2] - camera->target[2]};
    float x = fabsf(dot3(rel, camera->right)), y = fabsf(dot3(rel, camera->up));
    bool perspective = camera->projection == PROJECTION_PERSPECTIVE;
    float z = perspective ? dot3(rel, camera->forward) : 0.0f;
    float distance = fmaxf(x * camera->focal / half_w - z, y * camera->focal / (camera->aspect * half_h) - z);
    return perspective ? fmaxf(distance, 2.0f * CAMERA_NEAR - z) : distance;
}

/* What camera_fit gathers over the points it frames. */
typedef struct FitState {
    Camera *camera;
    float half_w, half_h;
    float distance;               /* the largest needed so far */
    float lo_x, hi_x, lo_y, hi_y; /* screen box so far, cells */
} FitState;

/* Takes point p into account: the distance it needs, or (measure) where it
 * lands on screen. */
static void fit_visit(FitState *fit, const float p[3], bool measure)
{
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
        return;
    if (!measure) {
        fit->distance = fmaxf(fit->distance, distance_to_fit(fit->camera, p, fit->half_w, fit->half_h));
        return;
    }
    float sx, sy, depth;
    if (camera_project(fit->camera, p, &sx, &sy, &depth)) {
        fit->lo_x = fminf(fit->lo_x, sx), fit->hi_x = fmaxf(fit->hi_x, sx);
        fit->lo_y = fminf(fit->lo_y, sy), fit->hi_y = fmaxf(fit->hi_y, sy);
    }
}

/* Visits every point camera_fit frames: the particles and the corners of
 * the extra box. */
static void fit_all(FitState *fit, const Cloth *cloth, const float *extra_min, const float *extra_max, bool measure)
{
    for (int i = 0; i < cloth->count; i++)
        fit_visit(fit, (float[3]){cloth->x[i], cloth->y[i], cloth->z[i]}, measure);
    if (extra_min && extra_max)
        for (int corner = 0; corner < 8; corner++) {
            float p[3];
            for (int k = 0; k < 3; k++)
                p[k] = (corner >> k) & 1 ? extra_max[k] : extra_min[k];
            fit_visit(fit, p, measure);
        }
}

/* The box of a cloth's finite particles; lo > hi when there is none. */
static void cloth_box(const Cloth *cloth, float lo[3], float hi[3])
{
    for (int k = 0; k < 3; k++)
        lo[k] = INFINITY, hi[k] = -INFINITY;
    for (int i = 0; i < cloth->count; i++) {
        float p[3] = {cloth->x[i], cloth->y[i], cloth->z[i]};
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
            continue;
        for (int k = 0; k < 3; k++)
            lo[k] = fminf(lo[k], p[k]), hi[k] = fmaxf(hi[k], p[k]);
    }
}

void camera_fit(Camera *camera, const Cloth *cloth, const float extra_min[3], const float extra_max[3])
{
    float lo[3], hi[3];
    cloth_box(cloth, lo, hi);
    if (extra_min && extra_max)
        for (int k = 0; k < 3; k++)
            lo[k] = fminf(lo[k], extra_min[k]), hi[k] = fmaxf(hi[k], extra_max[k]);
    if (!(lo[0] <= hi[0]))
        return; /* nothing finite to frame */

    FitState fit = {.camera = camera};
    fit.half_w = fmaxf(0.5f * (float)camera->width * (1.0f - 2.0f * CAMERA_FIT_MARGIN), 0.5f);
    fit.half_h = fmaxf(0.5f * (float)camera->height * (1.0f - 2.0f * CAMERA_FIT_MARGIN), 0.5f);
    for (int k = 0; k < 3; k++)
        camera->target[k] = 0.5f * (lo[k] + hi[k]);
    /* The box's centre need not project to the screen's centre (perspective,
     * an oblique view): twice, take the distance at which every point fits,
     * then move the target so the picture is centred. The last pass only
     * measures the distance, so everything fits. */
    for (int pass = 0; pass < 3; pass++) {
        camera_update(camera); /* the view axes depend on yaw and pitch only */
        fit.distance = CAMERA_MIN_DISTANCE;
        fit_all(&fit, cloth, extra_min, extra_max, false);
        camera->distance = fit.distance;
        camera_update(camera);
        if (pass == 2)
            break;
        fit.lo_x = fit.lo_y = INFINITY, fit.hi_x = fit.hi_y = -INFINITY;
        fit_all(&fit, cloth, extra_min, extra_max, true);
        if (fit.lo_x <= fit.hi_x)
            camera_pan(camera, 0.5f * (float)camera->width - 0.5f * (fit.lo_x + fit.hi_x),
                       0.5f * (float)camera->height - 0.5f * (fit.lo_y + fit.hi_y));
    }
}

/* The box (m) a solver's collider takes where it is now, with the whole
 * back-and-forth travel of the sphere; false if there is none. */
static bool collider_box(const Solver *solver, float lo[3], float hi[3])
{
    Collider collider;
    solver_collider(solver, &collider);
    const float *c = collider.center;
    for (int k = 0; k < 3; k++)
        lo[k] = c[k], hi[k] = c[k];
    /* one case per ColliderShape: -Wswitch asks for a new shape's box */
    switch (collider.shape) {
    case SHAPE_SPHERE: {
        const Params *params = &solver->params;
        float r = collider.radius, travel = (float)params->sphere_travel, middle = (float)params->sphere_z;
        for (int k = 0; k < 3; k++)
            lo[k] -= r, hi[k] += r;
        lo[2] = fminf(lo[2], middle - travel - r), hi[2] = fmaxf(hi[2], middle + travel + r);
        return true;
    }
    case SHAPE_BOX:
        for (int k = 0; k < 3; k++)
            lo[k] -= 0.5f * collider.size, hi[k] += 0.5f * collider.size;
        return true;
    case SHAPE_CONE:
        lo[0] -= collider.radius, hi[0] += collider.radius;
        lo[2] -= collider.radius, hi[2] += collider.radius;
        hi[1] += collider.height;
        return true;
    case SHAPE_NONE:
        return false;
    }
    return false;
}

bool camera_solver_box(const Solver *solver, float lo[3], float hi[3])
{
    cloth_box(solver->cloth, lo, hi);
    float c_lo[3], c_hi[3];
    if (collider_box(solver, c_lo, c_hi))
        for (int k = 0; k < 3; k++)
            lo[k] = fminf(lo[k], c_lo[k]), hi[k] = fmaxf(hi[k], c_hi[k]);
    return lo[0] <= hi[0];
}

void camera_fit_box(Camera *camera, const float lo[3], const float hi[3])
{
    const Cloth nothing = {0};
    camera_fit(camera, &nothing, lo, hi);
}

bool camera_fit_solvers(Camera *camera, const Solver *const *solvers, int count, float box_lo[3], float box_hi[3])
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    bool any = false;
    for (int i = 0; i < count; i++) {
        float a[3], b[3];
        if (!solvers[i] || !camera_solver_box(solvers[i], a, b))
            continue;
        for (int k = 0; k < 3; k++)
            lo[k] = fminf(lo[k], a[k]), hi[k] = fmaxf(hi[k], b[k]);
        any = true;
    }
    if (!any)
        return false;
    camera_fit_box(camera, lo, hi);
    if (box_lo && box_hi)
        for (int k = 0; k < 3; k++)
            box_lo[k] = lo[k], box_hi[k] = hi[k];
    return true;
}

void camera_zoom_framed(Camera *camera, const float lo[3], const float hi[3], double zoom)
{
    if (!(zoom > 0.0) || zoom == 1.0)
        return;
    float top[3] = {0.5f * (lo[0] + hi[0]), hi[1], 0.5f * (lo[2] + hi[2])}, x0, y0, x1, y1, depth;
    bool before = camera_project(camera, top, &x0, &y0, &depth);
    camera_zoom(camera, (float)(1.0 / zoom));
    if (before && zoom < 1.0 && camera_project(camera, top, &x1, &y1, &depth))
        camera_pan(camera, 0.0f, y0 - y1);
}

void camera_fit_solver(Camera *camera, const Solver *solver)
{
    float lo[3], hi[3];
    if (collider_box(solver, lo, hi))
        camera_fit(camera, solver->cloth, lo, hi);
    else
        camera_fit(camera, solver->cloth, NULL, NULL);
}

bool camera_project(const Camera *camera, const float point[3], float *sx, float *sy, float *depth)
{
    float rel[3] = {point[0] - camera->eye[0], point[1] - camera->eye[1], point[2] - camera->eye[2]};
    float x = dot3(rel, camera->right), y = dot3(rel, camera->up), z = dot3(rel, camera->forward);
    float cx = 0.5f * (float)camera->width, cy = 0.5f * (float)camera->height;
    if (camera->projection == PROJECTION_PERSPECTIVE) {
        if (!(z >= CAMERA_NEAR))
            return false;
        float k = camera->focal / z;
        *sx = cx + x * k;
        *sy = cy - y * k / camera->aspect;
    } else {
        if (camera->section > 0.0f && !(fabsf(z - camera->distance) <= camera->section))
            return false;
        *sx = cx + x * camera->scale;
        *sy = cy - y * camera->scale / camera->aspect;
    }
    *depth = z;
    return true;
}

void camera_unproject(const Camera *camera, float sx, float sy, float depth, float point[3])
{
    float cx = 0.5f * (float)camera->width, cy = 0.5f * (float)camera->height;
    float per_column = camera->projection == PROJECTION_PERSPECTIVE ? depth / camera->focal : 1.0f / camera->scale;
    float x = (sx - cx) * per_column, y = -(sy - cy) * camera->aspect * per_column;
    for (int k = 0; k < 3; k++)
        point[k] = camera->eye[k] + x * camera->right[k] + y * camera->up[k] + depth * camera->forward[k];
}

void camera_ray(const Camera *camera, float sx, float sy, float origin[3], float direction[3])
{
    if (camera->projection == PROJECTION_PERSPECTIVE) {
        float far_point[3];
        camera_unproject(camera, sx, sy, 1.0f, far_point);
        float length = 0.0f;
        for (int k = 0; k < 3; k++) {
            origin[k] = camera->eye[k];
            direction[k] = far_point[k] - camera->eye[k];
            length += direction[k] * direction[k];
        }
        length = sqrtf(length);
        for (int k = 0; k < 3; k++)
            direction[k] /= length;
    } else {
        camera_unproject(camera, sx, sy, 0.0f, origin);
        for (int k = 0; k < 3; k++)
            direction[k] = camera->forward[k];
    }
}
