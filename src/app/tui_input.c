/* tui_input.c - every action a person can take in the sandbox, by key or by
 * mouse. The fixed keys (lessons and handouts name them) are Space, n, 1-6,
 * Tab, r, ? and q; tui_key_help lists all of them for the help overlay, and
 * src/clothsim.1 repeats it. Every mouse action has a key: g grabs a particle and the
 * arrows drag it, h/j/k/l orbit, + and - zoom.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/scene.h"
#include "i18n.h"
#include "presets.h"
#include "tui_camera.h"
#include "tui_compare.h"
#include "tui_draw.h"
#include "tui_input.h"
#include "tui_panes.h"
#include "tui_sliders.h"

/* clang-format off */
const char *const tui_key_help[] = {
    "Space",        N_("pause / resume"),
    "n",            N_("one step"),
    "s",            N_("one substep"),
    "p",            N_("one relaxation pass"),
    "1 .. 7",       N_("euler symplectic verlet jakobsen pbd xpbd implicit"),
    "Tab S-Tab",    N_("next / previous integrator"),
    "[  ]",         N_("iterations down / up"),
    "Up Down",      N_("choose a setting"),
    "Left Right",   N_("change it"),
    "r",            N_("reset the scene"),
    "f",            N_("zero velocities, once"),
    "w",            N_("wind off / on"),
    "P",            N_("next pinning"),
    "t",            N_("tearing: off, naive, hysteresis"),
    "m",            N_("shaded wire strain points"),
    "v",            N_("wire: one family alone"),
    "x",            N_("cuts into the collider"),
    "a",            N_("braille / half / ascii"),
    "h j k l",      N_("orbit (or Shift+arrows)"),
    "+ =  - _",     N_("zoom in / out"),
    "0",            N_("frame the cloth again"),
    ", <  . >",     N_("slow motion / fast"),
    "g",            N_("grab a particle (arrows drag it, PgUp PgDn move it away / nearer, g throws it)"),
    "Esc",          N_("let go of the particle"),
    "e i T L",      N_("Euler/Verlet, passes, tearing; L lessons"),
    "c",            N_("compare the chosen setting"),
    "C",            N_("high contrast"),
    "B",            N_("light / dark background"),
    "?",            N_("this help"),
    "q  Ctrl-D",    N_("quit"),
    NULL,           NULL,
};
/* clang-format on */

static void slider_change(Tui *tui, int presses)
{
    if (tui->selected >= tui->slider_count)
        return;
    const TuiSlider *slider = &tui->sliders[tui->selected];
    char value[64];
    tui_slider_moved(tui, slider, presses, value, sizeof value);
    if (strcmp(slider->key, "pin") == 0) {
        /* re-pin the running cloth instead of rebuilding it */
        int pin = params_lookup_name(pin_names, value);
        if (pin >= 0) {
            tui_grab_release(tui);
            tui->base.pin = pin;
            for (int i = 0; i < tui->pane_count; i++) {
                Solver *solver = tui->panes[i].solver;
                solver->params.pin = pin;
                scene_apply_pins(solver->cloth, &solver->params);
            }
            tui->panel_dirty = true;
            tui_message(tui, "pin %s", value);
        }
        return;
    }
    if (strncmp(slider->key, "wind", 4) == 0)
        tui->wind_off = false;
    if (tui_set_key(tui, slider->key, value))
        tui_message(tui, "%s %s", slider->key, value);
}

static void set_integrator(Tui *tui, int integrator)
{
    if (tui_set_key(tui, "integrator", integrator_names[integrator]))
        tui_message(tui, "integrator %s", integrator_names[integrator]);
}

/* ---------------------------------------------------------------- stepping */

static bool any_exploded(const Tui *tui)
{
    for (int i = 0; i < tui->pane_count; i++)
        if (tui->panes[i].solver->exploded)
            return true;
    return false;
}

static void say_where(Tui *tui, const char *what)
{
    const Solver *first = tui->panes[0].solver;
    int substeps = first->params.substeps, iterations = first->params.iterations;
    bool relaxing = first->phase == PHASE_RELAXING;
    long long step = tui_step_shown(first);
    int substep = relaxing ? first->substep + 1 : first->substep > 0 ? first->substep : substeps;
    bool passes = solver_is_position_based(first->params.integrator) && first->pass > 0;
    if (passes && tui->show_residual && first->residual_count > 0)
        tui_message(tui, "%s: step %lld, substep %d of %d, pass %d of %d, residual %.4g", what, step, substep, substeps,
                    first->pass, iterations, (double)first->residual_trace[first->residual_count - 1]);
    else if (passes)
        tui_message(tui, "%s: step %lld, substep %d of %d, pass %d of %d", what, step, substep, substeps, first->pass,
                    iterations);
    else
        tui_message(tui, "%s: step %lld, substep %d of %d", what, step, substep, substeps);
}

static void single_step(Tui *tui, void (*advance)(Solver *), const char *what)
{
    tui->paused = true;
    tui->show_residual = advance != solver_step;
    for (int i = 0; i < tui->pane_count; i++) {
        Solver *solver = tui->panes[i].solver;
        solver->trace_residual = tui->show_residual;
        advance(solver);
    }
    if (any_exploded(tui))
        tui_message(tui, "exploded: r resets");
    else
        say_where(tui, what);
    tui->panel_dirty = true;
}

static void toggle_pause(Tui *tui)
{
    tui->paused = !tui->paused;
    if (!tui->paused) {
        tui->accumulator = 0.0;
        tui->last_time = tui_now();
        tui->show_residual = false;
        for (int i = 0; i < tui->pane_count; i++)
            tui->panes[i].solver->trace_residual = false; /* it costs a pass each pass */
    }
    tui->panel_dirty = true;
}

/* r. The settings stay as the person chose them: an explosion is what they
 * came to see as often as a mistake, and changing them behind their back
 * would hide the lesson. After an explosion the same settings blow up again
 * (Euler's default curtain within 0.1 s, too fast to watch), so the reset
 * waits paused and says why it will explode and what holds: Space runs it,
 * n steps through it. */
static void reset_scene(Tui *tui)
{
    const Solver *broken = NULL;
    for (int i = 0; i < tui->pane_count && !broken; i++)
        if (tui->panes[i].solver->exploded)
            broken = tui->panes[i].solver;
    double when = broken ? broken->exploded_time : 0.0;
    Integrator integrator = broken ? broken->params.integrator : INTEGRATOR_JAKOBSEN;
    tui_reset(tui);
    if (!broken) {
        tui_message(tui, "reset");
        return;
    }
    if (!tui->paused)
        toggle_pause(tui);
    const char *name = integrator_names[integrator];
    double omega_h = solver_omega_dt(broken);
    if (integrator == INTEGRATOR_EULER)
        tui_message(tui,
                    "reset, paused: euler gains energy every step, so these settings explode again (at t = %.2f s "
                    "last time). Space runs, n steps through it; 2 symplectic (at a small enough dt) or 4 to 6 hold.",
                    when);
    else if (integrator == INTEGRATOR_SYMPLECTIC || integrator == INTEGRATOR_VERLET)
        tui_message(tui,
                    "reset, paused: %s is stable only below omega h = 2, here at most %.2g, so it explodes again (at "
                    "t = %.2f s last time). Space runs, n steps; more substeps, a smaller dt or less stiffness holds.",
                    name, omega_h, when);
    else
        tui_message(tui,
                    "reset, paused: %s exploded at t = %.2f s and these settings will again. Space runs, n steps; "
                    "a smaller dt or more substeps holds.",
                    name, when);
}

/* Every particle at rest where it is, once: velocity and the Verlet
 * previous position. The forces then move the cloth on from rest (Space
 * pauses); the help and the message say so. */
static void freeze_motion(Tui *tui)
{
    for (int i = 0; i < tui->pane_count; i++) {
        Solver *solver = tui->panes[i].solver;
        if (solver->phase != PHASE_BETWEEN_SUBSTEPS)
            solver_substep(solver); /* finish the half-done substep first */
        Cloth *cloth = solver->cloth;
        for (int k = 0; k < cloth->count; k++) {
            cloth->px[k] = cloth->x[k], cloth->py[k] = cloth->y[k], cloth->pz[k] = cloth->z[k];
            cloth->prx[k] = cloth->rx[k], cloth->pry[k] = cloth->ry[k], cloth->prz[k] = cloth->rz[k];
            cloth->vx[k] = cloth->vy[k] = cloth->vz[k] = 0.0f;
            cloth->rvx[k] = cloth->rvy[k] = cloth->rvz[k] = 0.0f;
        }
    }
    tui_message(tui, "frozen for an instant: every velocity set to 0; gravity and wind move it on (Space pauses)");
}

static void toggle_wind(Tui *tui)
{
    Params *base = &tui->base;
    if (!tui->wind_off) {
        tui->saved_wind_x = base->wind_x, tui->saved_wind_z = base->wind_z;
        tui->saved_turbulence = base->turbulence;
        base->wind_x = base->wind_z = base->turbulence = 0.0;
    } else {
        base->wind_x = tui->saved_wind_x, base->wind_z = tui->saved_wind_z;
        base->turbulence = tui->saved_turbulence;
    }
    tui->wind_off = !tui->wind_off;
    tui_apply_base(tui);
    tui_message(tui, tui->wind_off ? N_("wind off") : N_("wind on"));
}

static void next_tearing(Tui *tui)
{
    tui->base.tear = (tui->base.tear + 1) % TEAR_COUNT;
    tui_apply_base(tui);
    tui->panel_dirty = true;
    tui_message(tui, "tearing %s", i18n_value_name("tear", tear_names[tui->base.tear]));
}

static void next_pinning(Tui *tui)
{
    for (int k = 0; k < tui->slider_count; k++)
        if (strcmp(tui->sliders[k].key, "pin") == 0) {
            int selected = tui->selected;
            tui->selected = k;
            slider_change(tui, 1);
            tui->selected = selected;
            return;
        }
}

/* ---------------------------------------------------------------- the view */

static void orbit(Tui *tui, float yaw, float pitch)
{
    for (int i = 0; i < tui->pane_count; i++)
        camera_orbit(&tui->panes[i].camera, yaw, pitch);
}

static void zoom(Tui *tui, float factor)
{
    tui->zoom *= factor;
    for (int i = 0; i < tui->pane_count; i++)
        camera_zoom(&tui->panes[i].camera, factor);
}

static void change_speed(Tui *tui, int by)
{
    int speed = tui->speed + by;
    if (speed < 0 || speed >= tui_speed_count)
        return;
    tui->speed = speed;
    double s = tui_speeds[speed];
    if (s < 1.0)
        tui_message(tui, "slow motion x1/%.0f", 1.0 / s);
    else
        tui_message(tui, "speed x%.0f", s);
}

/* The values of a comparison of `count` panes along key's slider, from the
 * shared settings' value: for a choice the next ones in order, for a number
 * 4, 8, 12 presses up or down, whichever stays distinct inside the range. */
static int compare_values(const Tui *tui, const ParamInfo *key, int count, char values[][64])
{
    int n = 0;
    tui_slider_value(tui, &tui->base, key, 0, values[n++], sizeof values[0]);
    for (int k = 1; n < count && k <= 2 * TUI_MAX_PANES; k++) {
        /* numbers: up first, so that the panes read as a trend left to right */
        int presses = key->type == PARAM_ENUM ? k : k <= TUI_MAX_PANES ? 4 * k : -4 * (k - TUI_MAX_PANES);
        char value[64];
        tui_slider_value(tui, &tui->base, key, presses, value, sizeof value);
        bool seen = false;
        for (int j = 0; j < n; j++)
            seen = seen || strcmp(values[j], value) == 0;
        if (!seen)
            snprintf(values[n++], sizeof values[0], "%s", value);
    }
    return n;
}

/* c: two panes of the chosen setting; c again: three, then four (a number
 * of panes that shows a trend, or every family of integrators side by
 * side); c with four ends the comparison. */
static void compare_toggle(Tui *tui)
{
    const ParamInfo *key = tui->compare_key;
    int count = 2;
    if (key) {
        if (tui->pane_count >= TUI_MAX_PANES) {
            if (!tui_compare_stop(tui))
                return; /* the message says why; the comparison goes on */
            tui_layout(tui);
            tui_message(tui, "comparison ended");
            return;
        }
        count = tui->pane_count + 1;
    } else {
        const TuiSlider *slider = &tui->sliders[tui->selected];
        if (strcmp(slider->key, "scene") == 0 || strcmp(slider->key, "pin") == 0) {
            tui_message(tui, "choose a setting to compare (not %s)", slider->key);
            return;
        }
        key = slider->info;
    }
    char values[TUI_MAX_PANES][64];
    if (tui->compare_key) {
        /* the panes shown keep their values; one more is added */
        memcpy(values, tui->compare_values, sizeof values);
        char more[TUI_MAX_PANES][64];
        int n = compare_values(tui, key, TUI_MAX_PANES, more);
        int added = -1;
        for (int j = 0; j < n && added < 0; j++) {
            bool seen = false;
            for (int i = 0; i < tui->pane_count; i++)
                seen = seen || strcmp(values[i], more[j]) == 0;
            if (!seen)
                added = j;
        }
        if (added < 0) { /* every value of the key is shown: the next c ends, as at four */
            if (!tui_compare_stop(tui))
                return;
            tui_layout(tui);
            tui_message(tui, "comparison ended: %s has no other value to add", key->name);
            return;
        }
        snprintf(values[tui->pane_count], sizeof values[0], "%.63s", more[added]);
    } else if (compare_values(tui, key, count, values) < count) {
        tui_message(tui, "%s has one value here: nothing to compare", key->name);
        return;
    }
    if (!tui_compare_start(tui, key, (const char(*)[64])values, count))
        return; /* the message says why; the sandbox is as it was */
    tui_layout(tui);
    char list[4 * 64 + 16] = "";
    for (int i = 0; i < count; i++) {
        if (i)
            strncat(list, " vs ", sizeof list - strlen(list) - 1);
        strncat(list, values[i], sizeof list - strlen(list) - 1);
    }
    if (count < TUI_MAX_PANES)
        tui_message(tui, "comparing %s: %s (c adds a pane)", key->name, list);
    else
        tui_message(tui, "comparing %s: %s (c ends)", key->name, list);
}

/* ---------------------------------------------------------------- grabbing */

/* Holds particle `particle` in every pane (the panes compare one interaction). */
static void grab(Tui *tui, int pane_index, int particle)
{
    TuiPane *pane = &tui->panes[pane_index];
    const Cloth *cloth = pane->solver->cloth;
    float p[3] = {cloth->x[particle], cloth->y[particle], cloth->z[particle]}, sx, sy, depth;
    if (!camera_project(&pane->camera, p, &sx, &sy, &depth))
        return;
    for (int i = 0; i < tui->pane_count; i++)
        if (particle < tui->panes[i].solver->cloth->count)
            solver_grab(tui->panes[i].solver, particle);
    tui->grab_pane = pane_index;
    tui->grab_sx = sx, tui->grab_sy = sy, tui->grab_depth = depth;
}

/* Moves the held particle to screen point sx, sy of its pane, at its depth. */
static void grab_move_to(Tui *tui, float sx, float sy)
{
    TuiPane *pane = &tui->panes[tui->grab_pane];
    tui->grab_sx = sx, tui->grab_sy = sy;
    float target[3];
    camera_unproject(&pane->camera, sx, sy, tui->grab_depth, target);
    for (int i = 0; i < tui->pane_count; i++)
        if (tui->panes[i].solver->grabbed >= 0)
            solver_grab_move(tui->panes[i].solver, target[0], target[1], target[2]);
}

/* g: the particle nearest the middle of the first pane's view. */
static void grab_toggle(Tui *tui)
{
    if (tui->grab_pane >= 0) {
        tui_grab_release(tui);
        tui_message(tui, "thrown");
        return;
    }
    TuiPane *pane = &tui->panes[0];
    const Cloth *cloth = pane->solver->cloth;
    float cx = 0.5f * (float)pane->camera.width, cy = 0.5f * (float)pane->camera.height;
    int best = -1;
    float best_distance = INFINITY;
    for (int k = 0; k < cloth->count; k++) {
        float p[3] = {cloth->x[k], cloth->y[k], cloth->z[k]}, sx, sy, depth;
        if (cloth->pinned[k] || !camera_project(&pane->camera, p, &sx, &sy, &depth))
            continue;
        float dx = sx - cx, dy = (sy - cy) * pane->camera.aspect;
        if (dx * dx + dy * dy < best_distance)
            best = k, best_distance = dx * dx + dy * dy;
    }
    if (best < 0) {
        tui_message(tui, "no free particle in view");
        return;
    }
    grab(tui, 0, best);
    tui_message(tui, "holding particle %d: arrows drag, PgUp/PgDn depth, g throws", best);
}

/* Arrow keys while holding: drag across the screen; PgUp/PgDn: away / nearer. */
static bool grab_key(Tui *tui, int key)
{
    float sx = tui->grab_sx, sy = tui->grab_sy;
    switch (key) {
    case KEY_LEFT:
        sx -= 2.0f;
        break;
    case KEY_RIGHT:
        sx += 2.0f;
        break;
    case KEY_UP:
        sy -= 1.0f;
        break;
    case KEY_DOWN:
        sy += 1.0f;
        break;
    case KEY_PPAGE:
    case KEY_NPAGE: {
        const Camera *camera = &tui->panes[tui->grab_pane].camera;
        float metres = 2.0f / camera->scale; /* two columns' worth at the target */
        tui->grab_depth += key == KEY_PPAGE ? metres : -metres;
        break;
    }
    default:
        return false;
    }
    grab_move_to(tui, sx, sy);
    return true;
}

/* ---------------------------------------------------------------- mouse */

void tui_handle_mouse(Tui *tui)
{
    MEVENT event;
    if (getmouse(&event) != OK)
        return;
    int view_y = 0, view_x = 0;
    int pane_index = tui_pane_at(tui, event.y, event.x, &view_y, &view_x);
    mmask_t state = event.bstate;

    if (state & BUTTON4_PRESSED) {
        zoom(tui, 0.87f);
        return;
    }
#ifdef BUTTON5_PRESSED
    if (state & BUTTON5_PRESSED) {
        zoom(tui, 1.0f / 0.87f);
        return;
    }
#endif
    if (state & (BUTTON1_RELEASED | BUTTON3_RELEASED)) {
        if (tui->drag_button == 1 && tui->grab_pane >= 0) {
            tui_grab_release(tui); /* keeps the velocity of the last move: a throw */
            tui->mouse_throws++;
        }
        tui->drag_button = 0;
        return;
    }
    if (state & BUTTON1_PRESSED && tui->drag_button == 0) {
        tui_grab_release(tui);
        if (pane_index < 0)
            return;
        TuiPane *pane = &tui->panes[pane_index];
        int particle =
            render_pick(pane->view, &pane->camera, pane->solver->cloth, (float)view_x + 0.5f, (float)view_y + 0.5f);
        if (particle >= 0) {
            grab(tui, pane_index, particle);
            tui->drag_button = 1;
            tui->mouse_grabs++;
        }
        return;
    }
    if (state & BUTTON3_PRESSED && tui->drag_button == 0) {
        tui->drag_button = 3;
        tui->drag_x = event.x, tui->drag_y = event.y;
        return;
    }
    if (state & REPORT_MOUSE_POSITION || state & (BUTTON1_PRESSED | BUTTON3_PRESSED)) {
        if (tui->drag_button == 1 && tui->grab_pane >= 0) {
            WINDOW *win = tui->panes[tui->grab_pane].view_win;
            int top, left;
            getbegyx(win, top, left);
            grab_move_to(tui, (float)(event.x - left) + 0.5f, (float)(event.y - top) + 0.5f);
            tui->mouse_drags++;
        } else if (tui->drag_button == 3) {
            orbit(tui, -0.06f * (float)(event.x - tui->drag_x), 0.08f * (float)(event.y - tui->drag_y));
            tui->drag_x = event.x, tui->drag_y = event.y;
        }
    }
}

/* ---------------------------------------------------------------- keys */

void tui_handle_key(Tui *tui, int key)
{
    if (tui->help && key != KEY_MOUSE && key != KEY_RESIZE && key != 'q') {
        if ((key == ' ' || key == KEY_NPAGE) && tui->help_page + 1 < tui->help_pages) {
            tui->help_page++; /* the next page of a help too long for the screen */
            return;
        }
        tui->help = false;
        tui->panel_dirty = true;
        return;
    }
    if (tui->grab_pane >= 0 && tui->drag_button == 0 && grab_key(tui, key))
        return;
    switch (key) {
    case ' ':
        toggle_pause(tui);
        break;
    case 'n':
        single_step(tui, solver_step, _("one step"));
        break;
    case 's':
        single_step(tui, solver_substep, _("one substep"));
        break;
    case 'p':
        single_step(tui, solver_pass, _("one pass"));
        break;
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
        set_integrator(tui, key - '1');
        break;
    case '\t':
        set_integrator(tui, (tui->base.integrator + 1) % INTEGRATOR_COUNT);
        break;
    case KEY_BTAB:
        set_integrator(tui, (tui->base.integrator + INTEGRATOR_COUNT - 1) % INTEGRATOR_COUNT);
        break;
    case '[':
    case ']': {
        char value[32];
        int iterations = tui->base.iterations + (key == ']' ? 1 : -1);
        if (iterations < 1 || iterations > SOLVER_MAX_ITERATIONS)
            break;
        snprintf(value, sizeof value, "%d", iterations);
        if (tui_set_key(tui, "iterations", value))
            tui_message(tui, "iterations %d", iterations);
        break;
    }
    case KEY_UP:
        tui->selected = (tui->selected + tui->slider_count - 1) % tui->slider_count;
        tui->panel_dirty = true;
        break;
    case KEY_DOWN:
        tui->selected = (tui->selected + 1) % tui->slider_count;
        tui->panel_dirty = true;
        break;
    case KEY_LEFT:
        slider_change(tui, -1);
        break;
    case KEY_RIGHT:
        slider_change(tui, 1);
        break;
    case 'r':
        reset_scene(tui);
        break;
    case 'f':
        freeze_motion(tui);
        break;
    case 'w':
        toggle_wind(tui);
        break;
    case 'P':
        next_pinning(tui);
        break;
    case 't':
        next_tearing(tui);
        break;
    case 'm':
        tui->render.mode = (RenderMode)((tui->render.mode + 1) % RENDER_MODE_COUNT);
        tui_message(tui, "render mode %s", i18n_value_name("mode", render_mode_names[tui->render.mode]));
        break;
    case 'a':
        if (tui->ascii_only && !tui->utf8) {
            tui_message(tui, "ASCII only: the locale is not UTF-8 or the terminal (a Linux console) lacks the glyphs");
            break;
        }
        tui->render.glyphs = (Glyphs)((tui->render.glyphs + 1) % GLYPHS_COUNT);
        tui->ascii_only = tui->render.glyphs == GLYPHS_ASCII;
        tui->panel_dirty = true;
        tui_message(tui, "glyphs %s", glyphs_names[tui->render.glyphs]);
        break;
    case 'h':
    case KEY_SLEFT:
        orbit(tui, -0.1f, 0.0f);
        break;
    case 'l':
    case KEY_SRIGHT:
        orbit(tui, 0.1f, 0.0f);
        break;
    case 'k':
    case KEY_SR:
        orbit(tui, 0.0f, 0.08f);
        break;
    case 'j':
    case KEY_SF:
        orbit(tui, 0.0f, -0.08f);
        break;
    case '+':
    case '=':
        zoom(tui, 0.87f);
        break;
    case '-':
    case '_':
        zoom(tui, 1.0f / 0.87f);
        break;
    case '0':
        tui->zoom = 1.0f;
        tui_fit_cameras(tui);
        break;
    case ',':
    case '<':
        change_speed(tui, -1);
        break;
    case '.':
    case '>':
        change_speed(tui, 1);
        break;
    case 'g':
        grab_toggle(tui);
        break;
    case 'c':
        compare_toggle(tui);
        break;
    case 'e':
    case 'i':
    case 'T':
        tui_preset_key(tui, preset_for_key(key));
        break;
    case 'L':
        tui->lessons_asked = true; /* the loop opens them (tui.c) */
        break;
    case 'v':
        tui_next_families(tui);
        break;
    case 'x':
        tui->show_cuts = !tui->show_cuts;
        tui_message(tui, tui->show_cuts ? N_("links inside the collider shown in magenta (x hides them)")
                                        : N_("links inside the collider not shown"));
        break;
    case 'C':
        tui->render.high_contrast = !tui->render.high_contrast;
        tui_colours_apply(tui); /* its text colours are farther from the background */
        tui->panel_dirty = true;
        tui_message(tui, tui->render.high_contrast ? N_("high contrast on") : N_("high contrast off"));
        break;
    case 'B':
        tui_background_toggle(tui);
        break;
    case '?':
        tui->help = true;
        tui->help_page = 0;
        break;
    case 27: /* Esc: let go of what is held */
        tui_grab_release(tui);
        break;
    case 'q':
    case 4: /* ^D, end of input */
        tui->quit = true;
        break;
    case KEY_MOUSE:
        tui_handle_mouse(tui);
        break;
    default:
        break;
    }
}
