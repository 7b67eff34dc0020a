/* tui_panes.c - the panes and their solvers: built from the sandbox's
 * settings and a comparison's values (all or nothing), changed live, reset,
 * sampled for the plots, and stepped on the clock.
 *
 * The clock: physics runs in fixed steps of dt against a monotonic clock with
 * an accumulator (source document 000, README "Sources": never feed the
 * frame time into the solver). Each frame owes the solver the real time
 * since the last one times the speed (slow motion, fast forward); whole steps
 * are taken and the remainder carried. A frame takes at most TUI_MAX_CATCHUP
 * steps and forgets the rest, so a slow machine runs slower than real time
 * instead of spiralling.
 */
#include "tui_panes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/scene.h"
#include "i18n.h"
#include "tui_camera.h"
#include "tui_scales.h"
#include "tui_sliders.h"
#include "tui_draw.h"

/* Steps one frame may take to catch up with the clock; more are dropped. */
#define TUI_MAX_CATCHUP 8
/* The share of the time the physics may take: a frame steps until it has
 * used this share of a frame's time, and a step that took longer still is
 * followed by frames with none, until the physics is back at this share of
 * the time gone by. What it has not done is dropped, and the cloth moves
 * slower than real time. A machine too slow for the settings (a large
 * cloth, a sanitizer build, a busy server) then still draws, reads keys
 * and waits for them for half the time, instead of computing without
 * pause. */
#define TUI_PHYSICS_SHARE 0.5
/* A longer gap between frames (a stopped process, a debugger) is not caught up, s. */
#define TUI_MAX_GAP 0.25

/* The settings of pane i: the shared ones with its compared value. */
static bool pane_params(const Tui *tui, int i, Params *out, char *err, size_t err_size)
{
    *out = tui->base;
    if (!tui->compare_key)
        return true;
    return params_set(out, tui->compare_key->name, tui->compare_values[i], err, err_size) &&
           scene_validate(out, err, err_size);
}

static void series_clear(TuiSeries *series)
{
    series->next = 0;
    series->count = 0;
}

void tui_pane_clear_history(TuiPane *pane)
{
    series_clear(&pane->energy);
    series_clear(&pane->strain);
    pane->sampled_step = -1;
}

void tui_panes_destroy(Tui *tui)
{
    for (int i = 0; i < TUI_MAX_PANES; i++) {
        solver_destroy(tui->panes[i].solver);
        tui->panes[i].solver = NULL;
    }
}

/* The pane's camera at its starting angle. A sphere the cloth meets is
 * looked at from the side it starts on: from the front the cloth hangs in
 * front of it (the curtain's sphere starts behind and pushes the cloth away
 * from the camera), and the class never sees what moves the cloth. */
static void pane_place_camera(TuiPane *pane, const Params *params)
{
    camera_init(&pane->camera, params->dim, pane->camera.width > 0 ? pane->camera.width : 80,
                pane->camera.height > 0 ? pane->camera.height : 24);
    if (params->dim != 3 || params->collider != COLLIDER_SPHERE)
        return;
    const Cloth *cloth = pane->solver->cloth;
    double z = 0.0;
    for (int k = 0; k < cloth->count; k++)
        z += cloth->z[k];
    z = cloth->count ? z / cloth->count : 0.0;
    if (params->sphere_z - params->sphere_travel < z - 1e-6)
        camera_orbit(&pane->camera, (float)CLOTHSIM_PI, 0.0f); /* from -z: the sphere's side */
}

/* All or nothing: every new solver is built before an old one goes, so a
 * setting refused by validation (or memory running out) leaves the panes as
 * they were, each with its solver, and says why in the message line. */
bool tui_rebuild_panes(Tui *tui)
{
    tui_grab_release(tui); /* the held particle belongs to the old solvers */
    int count = tui->compare_key ? tui->pane_count : 1;
    if (count < 1 || count > TUI_MAX_PANES) {
        tui_message(tui, "%d panes: give one to %d", count, TUI_MAX_PANES);
        return false;
    }
    Solver *built[TUI_MAX_PANES] = {NULL};
    Params params[TUI_MAX_PANES];
    for (int i = 0; i < count; i++) {
        char err[TEXT_MESSAGE_SIZE];
        if (!pane_params(tui, i, &params[i], err, sizeof err)) {
            tui_message(tui, "%s", err);
        } else if (!(built[i] = solver_create(&params[i]))) {
            tui_message(tui, "out of memory building the scene");
        } else {
            continue;
        }
        for (int k = 0; k < i; k++)
            solver_destroy(built[k]);
        return false;
    }
    tui_panes_destroy(tui);
    tui->pane_count = count;
    for (int i = 0; i < count; i++) {
        TuiPane *pane = &tui->panes[i];
        pane->solver = built[i];
        solver_start_threads(pane->solver);
        char label[sizeof pane->label] = "";
        if (tui->compare_key)
            snprintf(label, sizeof label, "%s=%s", tui->compare_key->name, tui->compare_values[i]);
        memcpy(pane->label, label, sizeof label);
        pane->camera.width = pane->camera.height = 0;
        pane_place_camera(pane, &params[i]);
        tui_pane_clear_history(pane);
        /* the view's scratch room is for the old cloth until the next layout */
        if (pane->view)
            render_reserve(pane->view, pane->solver->cloth);
    }
    for (int i = count; i < TUI_MAX_PANES; i++)
        tui->panes[i].label[0] = '\0';
    tui->accumulator = 0.0;
    tui_sliders_update(tui); /* the rows that act on the new panes */
    return true;
}

/* After a solver may have rebuilt its cloth: room to draw it and a new
 * history for its plots (the callers frame it again). */
static void pane_rebuilt(TuiPane *pane)
{
    if (pane->view)
        render_reserve(pane->view, pane->solver->cloth);
    tui_pane_clear_history(pane);
}

bool tui_apply_base(Tui *tui)
{
    bool ok = true;
    bool rebuilt = false;
    for (int i = 0; i < tui->pane_count; i++) {
        TuiPane *pane = &tui->panes[i];
        Params params;
        char err[TEXT_MESSAGE_SIZE];
        if (!pane_params(tui, i, &params, err, sizeof err)) {
            tui_message(tui, "%s", err);
            ok = false;
            continue;
        }
        const Cloth *before = pane->solver->cloth;
        int64_t step = pane->solver->step;
        bool collider_changed = params.collider != pane->solver->params.collider;
        if (!solver_set_params(pane->solver, &params)) {
            tui_message(tui, "out of memory: the setting is unchanged");
            ok = false;
            continue;
        }
        if (pane->solver->cloth != before || (step != 0 && pane->solver->step == 0)) {
            pane_rebuilt(pane);
            rebuilt = true;
        }
        if (collider_changed && !pane->camera_set) {
            pane_place_camera(pane, &params); /* a sphere now, or none: the angle that shows it */
            rebuilt = true;                   /* and a framing with the solid in it */
        }
    }
    if (rebuilt) {
        tui_grab_release(tui);
        tui_fit_cameras(tui);
    }
    tui_sliders_update(tui); /* the integrator or the collider may have changed */
    return ok;
}

bool tui_set_key(Tui *tui, const char *key, const char *value)
{
    if (tui->compare_key && strcmp(tui->compare_key->name, key) == 0) {
        tui_message(tui, "%s differs between the panes (c ends the comparison)", key);
        return false;
    }
    Params params = tui->base;
    char err[TEXT_MESSAGE_SIZE];
    if (!params_set(&params, key, value, err, sizeof err) || !scene_validate(&params, err, sizeof err)) {
        tui_message(tui, "%s", err);
        return false;
    }
    if (strcmp(key, "scene") == 0 && params.scene != tui->base.scene) {
        /* a new scene starts from its own defaults; the integrator, the
         * order and the threads stay */
        int integrator = tui->base.integrator, order = tui->base.order, threads = tui->base.threads;
        params_default(&params, (SceneKind)params.scene);
        params.integrator = integrator;
        params.order = order;
        params.threads = threads;
        Params previous = tui->base;
        tui->base = params;
        if (!tui_rebuild_panes(tui)) {
            tui->base = previous; /* the old scene runs on, as its panes do */
            return false;
        }
        tui->wind_off = false;
        tui->zoom = 1.0f;
        tui_layout(tui);
        return true;
    }
    Params previous = tui->base;
    tui->base = params;
    if (!tui_apply_base(tui)) {
        tui->base = previous;
        tui_apply_base(tui);
        return false;
    }
    return true;
}

void tui_reset(Tui *tui)
{
    tui_grab_release(tui);
    for (int i = 0; i < tui->pane_count; i++) {
        TuiPane *pane = &tui->panes[i];
        if (!solver_reset(pane->solver)) {
            tui_message(tui, "out of memory: cannot reset");
            continue;
        }
        pane_rebuilt(pane);
    }
    tui->accumulator = 0.0;
    tui->last_time = tui_now();
    tui->show_residual = false;
    tui_fit_cameras(tui);
    tui_sample(tui, true);
}

bool tui_compare_start(Tui *tui, const ParamInfo *key, const char values[][64], int count)
{
    if (count < 2 || count > TUI_MAX_PANES) {
        tui_message(tui, "compare %s: give two to %d values", key->name, TUI_MAX_PANES);
        return false;
    }
    /* every value checked before anything changes: one the scene refuses
     * (a sphere too big for the cloth) leaves the sandbox as it was */
    for (int i = 0; i < count; i++) {
        Params check = tui->base;
        char err[TEXT_MESSAGE_SIZE];
        if (!params_set(&check, key->name, values[i], err, sizeof err) || !scene_validate(&check, err, sizeof err)) {
            tui_message(tui, "cannot compare %s=%s: %s", key->name, values[i], err);
            return false;
        }
    }
    tui_grab_release(tui); /* while the panes it holds are still there */
    const ParamInfo *old_key = tui->compare_key;
    int old_count = tui->pane_count;
    Params old_base = tui->base;
    char old_values[TUI_MAX_PANES][64];
    memcpy(old_values, tui->compare_values, sizeof old_values);
    tui->compare_key = key;
    tui->pane_count = count;
    for (int i = 0; i < count; i++)
        snprintf(tui->compare_values[i], sizeof tui->compare_values[i], "%s", values[i]);
    /* the shared settings hold the first pane's value */
    char err[TEXT_MESSAGE_SIZE];
    params_set(&tui->base, key->name, values[0], err, sizeof err);
    if (tui_rebuild_panes(tui))
        return true;
    /* out of memory: the panes are untouched, and so is what describes them */
    tui->compare_key = old_key;
    tui->pane_count = old_count;
    tui->base = old_base;
    memcpy(tui->compare_values, old_values, sizeof old_values);
    return false;
}

bool tui_compare_stop(Tui *tui)
{
    tui_grab_release(tui);
    const ParamInfo *old_key = tui->compare_key;
    int old_count = tui->pane_count;
    tui->compare_key = NULL;
    tui->pane_count = 1;
    if (tui_rebuild_panes(tui))
        return true;
    tui->compare_key = old_key;
    tui->pane_count = old_count;
    return false;
}

/* ---------------------------------------------------------------- samples */

static void series_push(TuiSeries *series, float value)
{
    series->values[series->next] = value;
    series->values[series->next + TUI_HISTORY] = value;
    series->next = (series->next + 1) % TUI_HISTORY;
    if (series->count < TUI_HISTORY)
        series->count++;
}

void tui_sample(Tui *tui, bool force)
{
    for (int i = 0; i < tui->pane_count; i++) {
        TuiPane *pane = &tui->panes[i];
        const Solver *solver = pane->solver;
        bool moved = solver->step != pane->sampled_step || solver->substep != pane->sampled_substep ||
                     solver->pass != pane->sampled_pass;
        if (!moved && !force)
            continue;
        pane->sampled_step = solver->step;
        pane->sampled_substep = solver->substep;
        pane->sampled_pass = solver->pass;
        metrics_compute_live(solver, &pane->metrics);
        if (pane->metrics.exploded && !moved)
            continue;
        series_push(&pane->energy, (float)pane->metrics.total);
        series_push(&pane->strain, (float)pane->metrics.max_strain);
    }
    tui_scales_hold(tui);
}

void tui_blasts_update(Tui *tui, bool moving)
{
    double now = tui_now();
    for (int i = 0; i < tui->pane_count; i++) {
        TuiBlast *blast = &tui->panes[i].blast;
        bool was_flying = tui_blast_flying(blast);
        if (!tui_blast_watch(blast, tui->panes[i].solver))
            tui_message(tui, "%s", _("out of memory: the explosion is shown where it was found"));
        /* a stall is not flown through; the flight's energy and strain go
         * on in the plots (the banner's figures stop at the explosion) */
        if (was_flying && moving && tui_blast_fly(blast, fmin(now - blast->last_frame, 0.1)) &&
            isfinite(blast->energy) && isfinite(blast->max_strain)) {
            series_push(&tui->panes[i].energy, (float)blast->energy);
            series_push(&tui->panes[i].strain, (float)blast->max_strain);
            blast->samples++;
        }
        blast->last_frame = now;
    }
}

bool tui_blasts_flying(const Tui *tui)
{
    for (int i = 0; i < tui->pane_count; i++)
        if (tui_blast_flying(&tui->panes[i].blast))
            return true;
    return false;
}

/* ---------------------------------------------------------------- the clock */

/* A pane blowing up: stretched past its rest length and its energy up by
 * more than TUI_BLOWUP_GROWTH over the last TUI_BLOWUP_SAMPLES frames. */
#define TUI_BLOWUP_SAMPLES 10
#define TUI_BLOWUP_GROWTH 1.2f

static bool blowing_up(const TuiPane *pane)
{
    const TuiSeries *e = &pane->energy;
    /* only force-based integrators gain energy until they blow up; a
     * position-based cloth's "elastic" is a yardstick that grows as it stretches */
    if (solver_is_position_based(pane->solver->params.integrator))
        return false;
    if (pane->solver->exploded || e->count <= TUI_BLOWUP_SAMPLES || !(pane->metrics.max_strain > 0.5))
        return false;
    float now = e->values[(e->next - 1 + TUI_HISTORY) % TUI_HISTORY];
    float before = e->values[(e->next - 1 - TUI_BLOWUP_SAMPLES + TUI_HISTORY) % TUI_HISTORY];
    return isfinite(now) && isfinite(before) && fabsf(now) > TUI_BLOWUP_GROWTH * fabsf(before);
}

double tui_blowup_slowdown(Tui *tui)
{
    bool any = false;
    for (int i = 0; i < tui->pane_count; i++)
        any = any || (tui->panes[i].solver && blowing_up(&tui->panes[i]));
    tui->blowing_up = any;
    return any ? TUI_BLOWUP_SPEED : 1.0;
}

int tui_advance(Tui *tui, double elapsed, bool paced)
{
    if (elapsed > TUI_MAX_GAP)
        elapsed = TUI_MAX_GAP;
    if (elapsed < 0.0)
        elapsed = 0.0;
    tui->accumulator += elapsed * tui_speeds[tui->speed];
    double dt = tui->base.dt, start = tui_now(), budget = paced ? TUI_PHYSICS_SHARE / tui->fps : INFINITY;
    if (paced && start < tui->physics_rest_until) {
        tui->accumulator = 0.0; /* resting after a long step */
        return 0;
    }
    int steps = 0;
    while (tui->accumulator >= dt) {
        if (steps == TUI_MAX_CATCHUP || (steps > 0 && tui_now() - start > budget)) {
            tui->accumulator = 0.0;
            tui->steps_dropped++;
            tui->behind_until = start + 1.0;
            break;
        }
        for (int i = 0; i < tui->pane_count; i++)
            solver_step(tui->panes[i].solver);
        tui->accumulator -= dt;
        steps++;
    }
    double took = tui_now() - start;
    if (took > budget) {
        tui->physics_rest_until = start + took / TUI_PHYSICS_SHARE;
        tui->behind_until = start + took + 1.0;
    }
    return steps;
}
