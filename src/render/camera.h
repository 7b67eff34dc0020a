/* camera.h - where the cloth is seen from: an orbit camera and its projection
 * onto terminal cells.
 *
 * The camera circles a target point: yaw turns it around the vertical axis,
 * pitch raises it, distance moves it in and out. 3D scenes use a perspective
 * projection, 2D scenes (params.dim == 2) a front orthographic one, so that
 * the z = 0 plane is seen square on.
 *
 * Screen coordinates are in cells, fractional: x from 0 at the left edge to
 * width, y from 0 at the top edge to height (cell (i, j) covers [i, i+1) x
 * [j, j+1)). A terminal cell is about twice as tall as wide; `aspect` (cell
 * height over cell width) corrects for it so that a circle stays round.
 * Depth is metres along the view direction from the eye.
 *
 * The fields above "derived" are settings; after changing one directly call
 * camera_update. The functions that change a camera update it themselves.
 */
#ifndef CLOTHSIM_CAMERA_H
#define CLOTHSIM_CAMERA_H

#include <stdbool.h>

#include "core/cloth.h"
#include "core/solver.h"

typedef enum Projection {
    PROJECTION_PERSPECTIVE,  /* 3D scenes */
    PROJECTION_ORTHOGRAPHIC, /* 2D scenes: sizes do not shrink with depth */
    PROJECTION_COUNT
} Projection;

#define CAMERA_DEFAULT_ASPECT 2.0f /* cell height / cell width of most terminal fonts */
#define CAMERA_DEFAULT_FOV 0.7f    /* rad, vertical field of view, about 40 degrees */
#define CAMERA_MAX_PITCH 1.5f      /* rad, about 86 degrees: the view never turns over the pole */
#define CAMERA_NEAR 0.01f          /* m: perspective shows nothing nearer the eye than this */
#define CAMERA_MIN_DISTANCE 0.05f  /* m */
#define CAMERA_MAX_DISTANCE 1e4f   /* m */

typedef struct Camera {
    Projection projection;
    float target[3];   /* m, the point looked at and orbited */
    float yaw;         /* rad, around +y: 0 looks from +z towards -z; positive swings the eye towards +x */
    float pitch;       /* rad, -CAMERA_MAX_PITCH..CAMERA_MAX_PITCH: positive looks down from above */
    float distance;    /* m, eye to target, CAMERA_MIN_DISTANCE..CAMERA_MAX_DISTANCE; the
                          orthographic view shows as much as the perspective one would there */
    float fov;         /* rad, vertical field of view, (0, pi) */
    float aspect;      /* cell height / cell width, > 0, usually 2 */
    int width, height; /* the viewport, cells */
    float section;     /* m, orthographic only: > 0 sees only what lies within this distance of the
                          target's depth, a slice through the scene as a section drawing shows it;
                          0 sees all */

    /* derived by camera_update */
    float eye[3];     /* m */
    float right[3];   /* unit vectors of the view: screen x ... */
    float up[3];      /* ... screen up (towards y = 0 on screen) ... */
    float forward[3]; /* ... and into the screen */
    float focal;      /* columns per unit of (sideways offset / depth) */
    float scale;      /* columns per metre at the target */
} Camera;

/* A camera for a scene of dimension dim (2 or 3) on a width x height cell
 * viewport: front orthographic for 2, perspective from the front, a little
 * to the right and above for 3. Call camera_fit next to frame the cloth. */
void camera_init(Camera *camera, int dim, int width, int height);

/* Recomputes the derived fields after a setting changed. */
void camera_update(Camera *camera);

/* A new viewport size, cells. */
void camera_set_viewport(Camera *camera, int width, int height);

/* Turns the camera around its target by dyaw and dpitch (rad); pitch is
 * clamped to +-CAMERA_MAX_PITCH. */
void camera_orbit(Camera *camera, float dyaw, float dpitch);

/* Multiplies the distance by factor (> 0; below 1 moves closer), clamped. */
void camera_zoom(Camera *camera, float factor);

/* Moves the target (and the eye with it) by dx, dy cells on screen, at the
 * target's depth: dx > 0 moves the picture right on screen. */
void camera_pan(Camera *camera, float dx, float dy);

/* Frames the cloth: sets target and distance (keeping yaw, pitch, fov) so
 * that the bounding box of every particle, together with the box from
 * extra_min to extra_max (m; both NULL for none), fits the viewport with a
 * small margin. The framing is of the present state only. */
void camera_fit(Camera *camera, const Cloth *cloth, const float extra_min[3], const float extra_max[3]);

/* camera_fit for a solver's cloth and its collider (solver_collider),
 * including the whole back-and-forth travel of the sphere. The floor, being
 * endless, is left out. */
void camera_fit_solver(Camera *camera, const Solver *solver);

/* The box (m) of a solver's cloth (its finite particles) and collider, as
 * camera_fit_solver frames it; false if nothing in it is finite. */
bool camera_solver_box(const Solver *solver, float lo[3], float hi[3]);

/* Frames the box from lo to hi (m), as camera_fit does with no cloth. */
void camera_fit_box(Camera *camera, const float lo[3], const float hi[3]);

/* One camera for panes compared side by side: frames the box that holds
 * every solver's cloth and collider (camera_solver_box), so that the same
 * length is drawn the same size in each; the box into box_lo, box_hi (m;
 * both NULL: not wanted). False, leaving camera as it was, if no solver has
 * anything finite. */
bool camera_fit_solvers(Camera *camera, const Solver *const *solvers, int count, float box_lo[3], float box_hi[3]);

/* Zooms a camera framed on the box lo..hi by zoom (above 1 closer); below
 * 1 the top of the box stays where it was, so the room opened is below it,
 * where gravity takes a hanging cloth. */
void camera_zoom_framed(Camera *camera, const float lo[3], const float hi[3], double zoom);

/* Projects point (m) to screen x, y (cells) and depth (m). Returns false,
 * writing nothing, when a perspective camera has the point behind or too
 * near the eye (depth < CAMERA_NEAR). An orthographic camera sees every
 * point; depth may then be negative. */
bool camera_project(const Camera *camera, const float point[3], float *sx, float *sy, float *depth);

/* The point (m) that projects to screen x, y (cells) at the given depth (m):
 * the inverse of camera_project. */
void camera_unproject(const Camera *camera, float sx, float sy, float depth, float point[3]);

/* The ray through screen x, y: origin (m) on the eye plane and a unit
 * direction. Points along it project to sx, sy. */
void camera_ray(const Camera *camera, float sx, float sy, float origin[3], float direction[3]);

#endif
