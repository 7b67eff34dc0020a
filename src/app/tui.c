/* tui.c - the interactive front end: options, panes and their solvers, and
 * the frame loop.
 *
 * The clock: physics runs in fixed steps of dt against a monotonic clock with
 * an accumulator (source document 000, README "Sources": never feed the
 * frame time into the solver). Each frame owes the solver the real time
 * since the last one times the speed (slow motion, fast forward); whole steps
 * are taken and the remainder carried. A frame takes at most TUI_MAX_CATCHUP
 * steps and forgets the rest, so a slow machine runs slower than real time
 * instead of spiralling. Paused, frozen by an explosion, or idle, the loop
 * blocks in poll() on the keyboard and uses no CPU.
 */
#include "tui.h"

#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "presets.h"
#include "tui_private.h"
#include "i18n.h"

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

const double tui_speeds[] = {0.125, 0.25, 0.5, 1.0, 2.0, 4.0};
const int tui_speed_count = (int)(sizeof tui_speeds / sizeof tui_speeds[0]);

static const char usage[] = N_("usage: clothsim [--scene NAME] [--set KEY=VALUE]...\n"
                               "                [--compare KEY=V1,V2[,V3,V4] | --preset NAME]\n"
                               "                [--fps N] [--ascii]\n"
                               "                [--high-contrast] [--background=dark|light|auto]\n"
                               "                [--stats] [--record FILE.cast]\n"
                               "\n"
                               "The interactive sandbox: the curtain scene (or NAME) running in the terminal.\n"
                               "  --scene NAME        curtain (default), flag, chain, net, drape, tear, heap\n"
                               "                      (clothsim scenes)\n"
                               "  --set KEY=VALUE     change one setting; repeat as needed (clothsim params)\n"
                               "  --compare KEY=V1,V2 two to four panes, the same scene differing in KEY,\n"
                               "                      stepped in lockstep\n"
                               "                      (e.g. --compare integrator=euler,verlet)\n"
                               "  --preset NAME       a ready comparison, as the keys e, i and T open it:\n"
                               "                      euler-verlet, iterations (2, 10 and 40 passes) or\n"
                               "                      tearing (naive against hysteresis); --set changes it\n"
                               "  --fps N             frames drawn per second (default 30, 1 to 240)\n"
                               "  --ascii             plain ASCII glyphs (the default when the locale is not\n"
                               "                      UTF-8)\n"
                               "  --high-contrast     bold, bright drawing for projectors\n"
                               "  --background=WHICH  colours for a dark or light terminal; auto (the default)\n"
                               "                      asks COLORFGBG, then the terminal itself (B flips it)\n"
                               "  --stats             on exit, print the frames drawn and the bytes sent\n"
                               "  --record FILE.cast  record the session as an asciicast v2 file\n"
                               "\n"
                               "The sandbox solves in order=sequential, as clothsim run and the lessons do:\n"
                               "one link at a time in the listed order, run many at a time on the fast path\n"
                               "with the same bits (--set order=colored: colour by colour).\n"
                               "Press ? in the sandbox for the keys; man clothsim tells all.\n");

/* ---------------------------------------------------------------- messages */

void tui_message(Tui *tui, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(tui->message, sizeof tui->message, _(format), args);
    va_end(args);
    tui->message_time = tui_now();
    /* a reader's pace, some 12 characters a second, and never less than the usual */
    double seconds = (double)strlen(tui->message) / 12.0;
    tui->message_seconds = seconds > TUI_MESSAGE_SECONDS ? seconds : TUI_MESSAGE_SECONDS;
}

const char *tui_text(const Tui *tui, const char *utf8, const char *ascii)
{
    return tui->utf8 && !tui->ascii_only ? utf8 : ascii;
}

/* ---------------------------------------------------------------- panes */

/* The settings of pane i: the shared ones with its compared value. */
static bool pane_params(const Tui *tui, int i, Params *out, char *err, size_t err_size)
{
    *out = tui->base;
    if (!tui->compare_key)
        return true;
    return params_set(out, tui->compare_key->name, tui->compare_values[i], err, err_size) &&
           params_validate(out, err, err_size);
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

static void panes_destroy(Tui *tui)
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
    panes_destroy(tui);
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

/* After a solver may have rebuilt its cloth: room to draw it, and a framing. */
static void pane_rebuilt(Tui *tui, TuiPane *pane)
{
    if (pane->view)
        render_reserve(pane->view, pane->solver->cloth);
    tui_pane_clear_history(pane);
    (void)tui;
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
            pane_rebuilt(tui, pane);
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
    if (!params_set(&params, key, value, err, sizeof err) || !params_validate(&params, err, sizeof err)) {
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
        pane_rebuilt(tui, pane);
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
        if (!params_set(&check, key->name, values[i], err, sizeof err) || !params_validate(&check, err, sizeof err)) {
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

static bool all_exploded(const Tui *tui)
{
    for (int i = 0; i < tui->pane_count; i++)
        if (!tui->panes[i].solver->exploded)
            return false;
    return true;
}

/* At rest with nothing to move it: no wind, no moving sphere, no pulling
 * hands, no grab, and every particle slower than TUI_SETTLED_SPEED. Then the
 * sandbox stops stepping and waits for a key, using no CPU. */
#define TUI_SETTLED_SPEED 1e-3f

static bool solver_settled(const Solver *s)
{
    const Params *p = &s->params;
    bool windy = p->dim == 3 && (p->wind_x != 0.0 || p->wind_z != 0.0 || p->turbulence != 0.0);
    bool sphere_moving = p->collider == COLLIDER_SPHERE && p->sphere_travel != 0.0;
    bool pulled = p->scene == SCENE_TEAR && p->pull_speed != 0.0;
    if (windy || sphere_moving || pulled || s->grabbed >= 0 || s->exploded)
        return false;
    const Cloth *c = s->cloth;
    float limit = TUI_SETTLED_SPEED * TUI_SETTLED_SPEED;
    for (int i = 0; i < c->count; i++)
        if (c->vx[i] * c->vx[i] + c->vy[i] * c->vy[i] + c->vz[i] * c->vz[i] > limit)
            return false;
    return true;
}

static bool all_settled(const Tui *tui)
{
    for (int i = 0; i < tui->pane_count; i++)
        if (!tui->panes[i].solver->exploded && !solver_settled(tui->panes[i].solver))
            return false;
    return true;
}

static bool animating(const Tui *tui)
{
    return !tui->paused && !tui->settled && (!all_exploded(tui) || tui_blasts_flying(tui));
}

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

/* Steps the panes for the time since the last call; returns how many steps. */
static int advance(Tui *tui, double now)
{
    double elapsed = now - tui->last_time;
    tui->last_time = now;
    return tui_advance(tui, elapsed * tui_blowup_slowdown(tui), true);
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

/* ---------------------------------------------------------------- options */

static bool parse_compare(Tui *tui, const char *text)
{
    const char *equals = strchr(text, '=');
    char key[64];
    if (!equals || equals == text || (size_t)(equals - text) >= sizeof key) {
        cli_error("--compare %s: expected KEY=V1,V2[,V3,V4] (e.g. integrator=euler,verlet)", text);
        return false;
    }
    memcpy(key, text, (size_t)(equals - text));
    key[equals - text] = '\0';
    const ParamInfo *info = params_find(key);
    if (!info) {
        const char *suggestion = params_suggest(key);
        if (suggestion)
            cli_error("--compare %s: unknown key '%s' (did you mean '%s'? clothsim params lists them)", text, key,
                      suggestion);
        else
            cli_error("--compare %s: unknown key '%s' (clothsim params lists them)", text, key);
        return false;
    }
    if (info->effect == EFFECT_REBUILD && strcmp(key, "scene") == 0) {
        cli_error("--compare %s: the panes must show the same scene", text);
        return false;
    }
    int count = 0;
    const char *p = equals + 1;
    while (count <= TUI_MAX_PANES) {
        const char *comma = strchr(p, ',');
        size_t length = comma ? (size_t)(comma - p) : strlen(p);
        if (count == TUI_MAX_PANES) {
            cli_error("--compare %s: at most %d values", text, TUI_MAX_PANES);
            return false;
        }
        if (length == 0 || length >= sizeof tui->compare_values[0]) {
            cli_error("--compare %s: value %d is %s", text, count + 1, length ? _("too long") : _("empty"));
            return false;
        }
        memcpy(tui->compare_values[count], p, length);
        tui->compare_values[count][length] = '\0';
        Params check = tui->base;
        char err[TEXT_MESSAGE_SIZE];
        if (!params_set(&check, key, tui->compare_values[count], err, sizeof err) ||
            !params_validate(&check, err, sizeof err)) {
            cli_error("--compare %s: %s", text, err);
            return false;
        }
        count++;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (count < 2) {
        cli_error("--compare %s: give two to four values, separated by commas", text);
        return false;
    }
    tui->compare_key = info;
    tui->pane_count = count;
    return true;
}

/* The options the sandbox and the lessons share: how the screen is drawn and
 * what is kept of it. 1 when argv[*i] was one (its value taken), 0 when it
 * is not one of them, -1 when its value is wrong (said on stderr). */
int tui_screen_option(Tui *tui, int argc, char **argv, int *i)
{
    int matched = 0;
    const char *value;
    const char *arg = argv[*i];
    if (strcmp(arg, "--ascii") == 0) {
        tui->ascii_only = true;
    } else if (strcmp(arg, "--stats") == 0) {
        tui->stats = true;
    } else if (strcmp(arg, "--high-contrast") == 0) {
        tui->render.high_contrast = true;
    } else if ((value = cli_option_value(argc, argv, i, "--background", &matched)) || matched) {
        if (!value || !tui_parse_background(value, &tui->background_asked))
            return -1;
    } else if ((value = cli_option_value(argc, argv, i, "--fps", &matched)) || matched) {
        long fps;
        if (!value || !cli_parse_long("--fps", value, 1, 240, &fps))
            return -1;
        tui->fps = (int)fps;
    } else if ((value = cli_option_value(argc, argv, i, "--record", &matched)) || matched) {
        if (!value)
            return -1;
        tui->record_path = value;
    } else {
        return 0;
    }
    return 1;
}

/* --stats: what a session cost, on stderr once the terminal is back */
void tui_print_stats(const Tui *tui)
{
    unsigned long frames = tui->frames;
    double per_frame = frames ? 1.0 / (double)frames : 0.0;
    cli_error("%lu frames drawn, %llu bytes written to the terminal (%.0f bytes a frame); "
              "%.2f ms drawing and %.2f ms physics a frame",
              frames, tui->term.bytes, (double)tui->term.bytes * per_frame, 1000.0 * tui->draw_seconds * per_frame,
              1000.0 * tui->physics_seconds * per_frame);
    cli_error("the mouse took %lu particles, moved them %lu times and let go %lu times", tui->mouse_grabs,
              tui->mouse_drags, tui->mouse_throws);
}

/* --preset NAME: the preset's scene and settings, the person's --set on
 * top (a teacher's script may change one), and its comparison. Returns -1
 * to go on, or the exit status. */
static int parse_preset(Tui *tui, const char *name, const char *compare, const CliSettings *settings, int argc,
                        char **argv)
{
    const Preset *preset = preset_find(name);
    if (!preset) {
        char names[128];
        preset_names(names, sizeof names);
        const char *suggestion = preset_suggest(name);
        if (suggestion)
            cli_error("--preset %s: unknown preset (did you mean '%s'? the presets: %s)", cli_cut(name, CLI_CUT_WORD),
                      suggestion, names);
        else
            cli_error("--preset %s: unknown preset (the presets: %s)", cli_cut(name, CLI_CUT_WORD), names);
        return EXIT_USAGE;
    }
    if (compare) {
        cli_error("--preset %s: a preset is a comparison already (drop --compare)", name);
        return EXIT_USAGE;
    }
    for (int k = 1; k < argc; k++)
        if (strcmp(argv[k], "--scene") == 0 || strncmp(argv[k], "--scene=", 8) == 0) {
            cli_error("--preset %s: the preset chooses its scene (drop --scene)", name);
            return EXIT_USAGE;
        }
    char err[TEXT_MESSAGE_SIZE];
    Params params;
    preset_params(preset, &params, err, sizeof err);
    for (int k = 0; k < settings->assignment_count; k++)
        if (!params_assign(&params, settings->assignments[k], err, sizeof err)) {
            cli_error("--set %s: %s", cli_cut(settings->assignments[k], CLI_CUT_WORD), err);
            return EXIT_USAGE;
        }
    if (!params_validate(&params, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_USAGE;
    }
    tui->base = params;
    tui->pane_count = 1;
    if (!parse_compare(tui, preset->compare))
        return EXIT_USAGE; /* a --set the preset's values refuse: said */
    params_set(&tui->base, tui->compare_key->name, tui->compare_values[0], err, sizeof err);
    tui->preset = preset;
    params_default(&tui->before_preset, SCENE_CURTAIN); /* its key again: the sandbox as it starts */
    tui->mode_before_preset = tui->render.mode;
    return -1;
}

/* Fills tui from argv. Returns -1 to go on, or the exit status. */
static int parse_options(Tui *tui, int argc, char **argv)
{
    CliSettings settings = {.scene = SCENE_CURTAIN};
    const char *compare = NULL, *preset_name = NULL;
    int i = 0, next;
    while ((next = cli_next_argument(&settings, argc, argv, &i)) > 0) {
        int matched = 0;
        const char *value;
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(_(usage), stdout);
            return 0;
        } else if ((matched = tui_screen_option(tui, argc, argv, &i)) != 0) {
            if (matched < 0)
                return EXIT_USAGE;
        } else if ((value = cli_option_value(argc, argv, &i, "--compare", &matched)) || matched) {
            if (!value)
                return EXIT_USAGE;
            compare = value;
        } else if ((value = cli_option_value(argc, argv, &i, "--preset", &matched)) || matched) {
            if (!value)
                return EXIT_USAGE;
            preset_name = value;
        } else {
            cli_error("unknown option '%s' (clothsim --help lists the options)", arg);
            return EXIT_USAGE;
        }
    }
    if (next < 0)
        return EXIT_USAGE;
    if (preset_name)
        return parse_preset(tui, preset_name, compare, &settings, argc, argv);
    if (!cli_build_params(&settings, &tui->base))
        return EXIT_USAGE;
    tui->pane_count = 1;
    if (compare && !parse_compare(tui, compare))
        return EXIT_USAGE;
    if (tui->compare_key) {
        char err[TEXT_MESSAGE_SIZE];
        params_set(&tui->base, tui->compare_key->name, tui->compare_values[0], err, sizeof err);
    }
    return -1;
}

/* ---------------------------------------------------------------- the loop */

int tui_wait_ms(const Tui *tui, bool running, double next_frame)
{
    double wait;
    if (running)
        wait = next_frame - tui_now();
    else if (tui->message[0])
        wait = tui->message_time + tui->message_seconds - tui_now();
    else
        return -1; /* nothing to do until a key: block */
    return wait > 0.0 ? (int)ceil(wait * 1000.0) : 0;
}

static void read_keys(Tui *tui, int *empty_reads)
{
    int got = 0, key;
    while (!tui->quit && (key = tui_read_key()) != ERR) {
        got++;
        tui->settled = false; /* any key may have set something in motion */
        tui->calm_since = -1.0;
        tui_handle_key(tui, key);
    }
    /* readable yet nothing to read, again and again: the input has ended */
    *empty_reads = got ? 0 : *empty_reads + 1;
    if (*empty_reads >= 3)
        tui->quit = true;
}

int tui_loop_events(Tui *tui, bool *dirty)
{
    int sig = tui_term_quit_signal();
    if (sig)
        return 128 + sig;
    uint32_t rgb;
    if (tui_term_late_background(&rgb) && tui->background_asked == BACKGROUND_AUTO &&
        colours_background_of(rgb) != tui->background) {
        tui->background = colours_background_of(rgb); /* the terminal answered after the start stopped waiting */
        tui_colours_apply(tui);
        *dirty = true;
    }
    if (tui_term_take_resize(&tui->term)) {
        tui_layout(tui);
        *dirty = true;
    }
    return 0;
}

static int run(Tui *tui)
{
    double frame = 1.0 / tui->fps;
    double now = tui_now(), next_frame = now, count_start = now;
    int frames_counted = 0;
    tui->last_time = now;
    bool dirty = true;
    int empty_reads = 0;
    while (!tui->quit) {
        int quit_status = tui_loop_events(tui, &dirty);
        if (quit_status)
            return quit_status;
        now = tui_now();
        bool moving = animating(tui);
        if (moving && now >= next_frame) {
            /* judged on a step just taken: a cloth at rest before its first
             * step has not settled, it has not started */
            if (advance(tui, now) > 0) {
                /* and calm for a whole simulated second: a swing passes
                 * through rest at each end */
                double t = tui->panes[0].solver->time;
                if (!all_settled(tui))
                    tui->calm_since = -1.0;
                else if (tui->calm_since < 0.0)
                    tui->calm_since = t;
                tui->settled = tui->calm_since >= 0.0 && t - tui->calm_since >= 1.0;
            }
            tui->physics_seconds += tui_now() - now;
            dirty = true;
            next_frame += frame;
            if (next_frame < now)
                next_frame = now + frame; /* behind: do not draw a burst to catch up */
            /* frames drawn over the last second or so */
            frames_counted++;
            if (now - count_start >= 1.0) {
                tui->fps_measured = frames_counted / (now - count_start);
                frames_counted = 0;
                count_start = now;
            }
        }
        bool message_showing = tui->message[0] && now - tui->message_time < tui->message_seconds;
        if (tui->message[0] && !message_showing) {
            tui->message[0] = '\0';
            dirty = true;
        }
        if (dirty) {
            double draw_start = tui_now();
            tui_sample(tui, false);
            tui_blasts_update(tui, !tui->paused);
            tui_draw(tui);
            tui->draw_seconds += tui_now() - draw_start;
            dirty = false;
        }
        bool moving_now = animating(tui);
        if (!moving_now) {
            tui->last_time = tui_now(); /* paused time is not owed to the solver */
            tui->fps_measured = 0.0;
            frames_counted = 0;
            count_start = tui->last_time;
        }
        switch (tui_term_wait(&tui->term, tui_wait_ms(tui, moving_now, next_frame))) {
        case WAIT_INPUT:
            read_keys(tui, &empty_reads);
            dirty = true;
            break;
        case WAIT_HANGUP:
            tui->quit = true;
            break;
        case WAIT_SIGNAL:
        case WAIT_OTHER: /* none in the sandbox */
        case WAIT_TIMEOUT:
            break;
        }
    }
    return 0;
}

void tui_defaults(Tui *tui)
{
    render_options_default(&tui->render);
    tui->fps = 30;
    tui->speed = TUI_SPEED_NORMAL;
    tui->zoom = 1.0f;
    tui->grab_pane = -1;
    tui->calm_since = -1.0;
    tui->help_keys = tui_key_help;
    tui->help_footer = _("mouse: left-drag pulls a particle, right-drag orbits, wheel zooms");
}

void tui_locale(Tui *tui)
{
    setlocale(LC_ALL, "");
    /* numbers in settings and lessons are written with a '.', whatever the
     * language of the terminal: strtod must read them so */
    setlocale(LC_NUMERIC, "C");
    const char *codeset = nl_langinfo(CODESET);
    tui->utf8 = codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
    /* the Linux console's fonts have no braille, and its default font no half
     * blocks or box drawing beyond a few: ASCII there, whatever the locale */
    const char *term = getenv("TERM");
    if (term && strncmp(term, "linux", 5) == 0)
        tui->utf8 = false;
    if (!tui->utf8)
        tui->ascii_only = true;
    tui->render.glyphs = tui->ascii_only ? GLYPHS_ASCII : GLYPHS_BRAILLE;
    tui_sliders_init(tui);
}

#define TUI_MAX_CELLS 10000

/* curses as the sandbox wants it, on a session just started */
static void session_setup(Tui *tui)
{
    set_escdelay(25);
    noecho(); /* ncurses echoes what getch reads unless told */
    curs_set(0);
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    typeahead(-1); /* draw whole frames even while keys arrive */
    tui_colours_init(tui);
    tui_term_mouse_on(&tui->term);
    wnoutrefresh(stdscr); /* stdscr stays untouched after this, so getch never repaints it */
}

/* ncurses takes LINES and COLUMNS over the terminal's own size; one too
 * large for it makes newterm fail, which would be blamed on TERM */
static bool size_from_environment_fits(char *err, size_t err_size)
{
    const char *names[] = {"COLUMNS", "LINES"};
    for (int k = 0; k < 2; k++) {
        const char *value = getenv(names[k]);
        if (value && strtol(value, NULL, 10) > TUI_MAX_CELLS) {
            snprintf(err, err_size,
                     _("%s=%s: a terminal larger than %d cells each way (unset %s, or set the real size)"), names[k],
                     cli_cut(value, CLI_CUT_WORD), TUI_MAX_CELLS, names[k]);
            return false;
        }
    }
    return true;
}

bool tui_session_start(Tui *tui, char *err, size_t err_size)
{
    bool ask = tui_background_from_environment(tui);
    if (!size_from_environment_fits(err, err_size) || !tui_term_start(&tui->term, tui->recording, ask, err, err_size))
        return false;
    if (tui->term.background_known)
        tui->background = colours_background_of(tui->term.background_rgb);
    session_setup(tui);
    return true;
}

bool tui_session_start_measured(Tui *tui, const char *term_name, int cols, int rows, bool *through_pipe, char *err,
                                size_t err_size)
{
    if (!tui_term_start_measured(&tui->term, term_name, cols, rows, through_pipe, err, err_size))
        return false;
    session_setup(tui);
    return true;
}

void tui_session_stop(Tui *tui)
{
    for (int i = 0; i < TUI_MAX_PANES; i++)
        tui_blast_clear(&tui->panes[i].blast);
    tui_layout_free(tui);
    tui_term_stop(&tui->term);
}

int tui_main(int argc, char **argv)
{
    Tui *tui = calloc(1, sizeof *tui);
    if (!tui) {
        cli_error("out of memory");
        return 1;
    }
    tui_defaults(tui);
    if (!config_apply(tui, argc, argv)) { /* the lasting choices; the command line wins */
        free(tui);
        return EXIT_USAGE;
    }
    int status = parse_options(tui, argc, argv);
    if (status >= 0) {
        free(tui);
        return status;
    }
    tui_locale(tui);

    if (!tui_rebuild_panes(tui)) {
        cli_error("%s", tui->message);
        panes_destroy(tui);
        free(tui);
        return 1;
    }
    tui->message[0] = '\0';

    /* the recording is opened before the terminal is touched (a path that
     * cannot be written is a mistake on the command line, as for --csv),
     * into a temporary file that replaces the old recording only once the
     * whole session is written */
    char err[CLI_CUT_PATH * 2 + 200];
    Output recording = {0};
    if (tui->record_path) {
        if (!output_open(&recording, "--record", tui->record_path, err, sizeof err)) {
            cli_error("%s", err);
            panes_destroy(tui);
            free(tui);
            return EXIT_USAGE;
        }
        tui->recording = &recording;
    }
    if (!tui_session_start(tui, err, sizeof err)) {
        cli_error("%s", err);
        status = tui->term.refused ? 2 : 1;
        output_discard(&recording); /* an old recording stays as it was */
        panes_destroy(tui);
        free(tui);
        return status;
    }
    tui_layout(tui); /* if it fails, a notice says so and a resize tries again */
    if (!tui_start_preset(tui))
        tui_presets_hint(tui);
    tui_sample(tui, true);
    status = run(tui);
    tui_session_stop(tui);
    if (!output_close(&recording, err, sizeof err)) {
        cli_error("%s", err);
        if (status == 0)
            status = 1;
    }

    if (tui->stats)
        tui_print_stats(tui);
    panes_destroy(tui);
    free(tui);
    return status;
}
