/* view.h - a lesson pane as the student sees it: the camera its view line
 * asks for, and measures of the picture itself.
 *
 * The front end draws each pane through lesson_view_camera and
 * lesson_view_options; the checker renders the same picture off screen, at
 * the pane's size on each terminal size of lesson_screen_sizes (through
 * layout_compute, as the front end lays it out), and measures it: how much
 * of the view the cloth covers, how tall it is drawn, the holes it shows,
 * how much of it is in the over-limit colour, how two panes differ. So a
 * lesson that says "look: the left one is longer" is checked on the screen,
 * not only in the numbers behind it.
 */
#ifndef CLOTHSIM_LESSON_VIEW_H
#define CLOTHSIM_LESSON_VIEW_H

#include "pane.h"
#include "render/camera.h"
#include "render/render.h"

/* The terminal sizes every claim on the screen must hold at: the smallest a
 * lesson is made for, and a projector's. */
#define LESSON_SCREEN_SIZE_COUNT 2
extern const int lesson_screen_sizes[LESSON_SCREEN_SIZE_COUNT][2]; /* cols, rows */

/* Columns on a view's right kept for the numbers a view line shows large,
 * where the view is at least twice as wide. */
#define LESSON_SHOW_COLUMNS 17

/* The camera of pane i on a width x height view, as its view line says:
 * framed on its own start (own), on every shared pane's start (shared), or
 * on where the cloth is now (follow); then turned and zoomed; with a target,
 * aimed at it and drawn as a section (orthographic, Camera.section). The picture
 * leaves LESSON_SHOW_COLUMNS free on the right when the view shows numbers. */
void lesson_view_camera(const LessonPlayer *player, int i, int width, int height, Camera *camera);

/* The render options for pane i: base with the view's mode, if it set one. */
void lesson_view_options(const LessonPlayer *player, int i, const RenderOptions *base, RenderOptions *out);

/* What pane i's view draws over its cloth (view marks=on, trace=on): the
 * links the current substep's passes moved, the last particle's path. */
void lesson_view_extras(const LessonPlayer *player, int i, RenderExtras *out);

/* Draws them, between render_draw_solver_cloth and render_end. */
void lesson_view_draw_extras(const LessonPlayer *player, int i, Canvas *canvas, const Camera *camera,
                             const RenderOptions *options);

/* A METRIC_SCREEN_* measure of pane i (with pane other for
 * METRIC_SCREEN_UNLIKE) as drawn on a cols x rows terminal, in braille;
 * NAN when out of memory or the terminal is too small to draw. */
double lesson_view_measure(const LessonPlayer *player, int i, int metric, int other, int cols, int rows);

/* Whether some particle of pane i's cloth, drawn as on a cols x rows
 * terminal, falls outside its view: the drawing is cut off there. Two panes
 * cut off alike can look alike (or unlike) only by their clipping. */
bool lesson_view_clipped(const LessonPlayer *player, int i, int cols, int rows);

#endif
