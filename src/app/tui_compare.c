/* tui_compare.c - the sandbox's ready comparisons (presets.h) and what the
 * panes of any comparison share, so that they can be compared by eye:
 *
 *   one camera      framed on every pane's cloth at once (tui_camera.c):
 *                   a ribbon stretched twice as long is drawn twice as long;
 *   one strain ramp its middle at the largest mean strain of the panes
 *                   still whole (render_strain_ramp_fit), its top printed
 *                   in the legend: a cloth stretched ten times more is redder;
 *   plot scales     fixed, printed, with the starting energy dotted, as the
 *                   lessons' are; they grow to hold what the panes reach and
 *                   never shrink, the same for every pane. A 3.09 to 3.11 J
 *                   wobble is then a flat line on 2.6..3.6 J.
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "presets.h"
#include "tui_private.h"

/* ---------------------------------------------------------------- presets */

/* The panes of tui->preset just built: drawn, framed and running. */
static void preset_shown(Tui *tui)
{
    const Preset *preset = tui->preset;
    tui->render.mode = preset->mode;
    tui->zoom = 1.0f;
    tui->wind_off = false;
    tui->strain_ramp = 0.0f;
    for (int i = 0; i < tui->pane_count && preset->front; i++) {
        Camera *camera = &tui->panes[i].camera;
        camera->yaw = camera->pitch = 0.0f;
        camera_update(camera);
    }
    tui_layout(tui); /* the panes' views, and the shared framing */
    tui->paused = false;
    tui->settled = false;
    tui->accumulator = 0.0;
    tui->last_time = tui_now();
    tui_message(tui, "%s: %s (%c again: back)", _(preset->title), _(preset->look), preset->key);
}

bool tui_preset_open(Tui *tui, const Preset *preset)
{
    Params params;
    char err[TEXT_MESSAGE_SIZE];
    if (!preset_params(preset, &params, err, sizeof err)) {
        tui_message(tui, "%s", err);
        return false;
    }
    char key[64], values[TUI_MAX_PANES][64];
    int count = preset_values(preset, key, sizeof key, values, TUI_MAX_PANES);
    const ParamInfo *info = params_find(key);
    Params old_base = tui->base;
    tui->base = params;
    if (!info || !tui_compare_start(tui, info, (const char(*)[64])values, count)) {
        tui->base = old_base; /* the message says why */
        return false;
    }
    if (!tui->preset) { /* from the sandbox: what to go back to */
        tui->before_preset = old_base;
        tui->mode_before_preset = tui->render.mode;
    }
    tui->preset = preset;
    preset_shown(tui);
    return true;
}

bool tui_start_preset(Tui *tui)
{
    if (!tui->preset)
        return false;
    preset_shown(tui);
    return true;
}

bool tui_preset_close(Tui *tui)
{
    Params preset_base = tui->base;
    const ParamInfo *old_key = tui->compare_key;
    int old_count = tui->pane_count;
    tui->base = tui->before_preset;
    tui->compare_key = NULL;
    tui->pane_count = 1;
    if (!tui_rebuild_panes(tui)) {
        tui->base = preset_base;
        tui->compare_key = old_key;
        tui->pane_count = old_count;
        return false;
    }
    tui->preset = NULL;
    tui->render.mode = tui->mode_before_preset;
    tui->zoom = 1.0f;
    tui->strain_ramp = 0.0f;
    tui_layout(tui);
    tui_message(tui, "back to the sandbox");
    return true;
}

void tui_preset_key(Tui *tui, const Preset *preset)
{
    if (tui->preset == preset && tui->compare_key)
        tui_preset_close(tui);
    else
        tui_preset_open(tui, preset);
}

void tui_presets_hint(Tui *tui)
{
    tui_message(tui, "Ready comparisons: e Euler/Verlet  i 2, 10, 40 passes  T tearing;  L lessons  ? help  q quit");
    tui->message_seconds = 60.0; /* the first minute: until another message takes its place */
}

/* ---------------------------------------------------------------- scales */

void tui_pane_scales(TuiPane *pane, float lo, float hi, bool log, float start, float strain_lo, float strain_hi)
{
    pane->scaled = true;
    pane->energy_scale = (RenderPlotScale){.lo = lo, .hi = hi, .log = log, .reference = start};
    pane->strain_scale = (RenderPlotScale){.lo = strain_lo, .hi = strain_hi, .reference = NAN, .percent = true};
    if (isfinite(strain_lo) && isfinite(strain_hi))
        pane->strain_scale.reference = 0.1f; /* Provot's 10 % */
}

static float series_first(const TuiSeries *series)
{
    return series->values[(series->next - series->count + TUI_HISTORY) % TUI_HISTORY];
}

static float series_last(const TuiSeries *series)
{
    return series->values[(series->next - 1 + TUI_HISTORY) % TUI_HISTORY];
}

/* Energy plots start at their first value plus and minus a tenth (at least
 * this, J); strain plots at 0 to the ramp's least top. */
#define SCALE_LEAST_ENERGY 0.05f

void tui_scales_hold(Tui *tui)
{
    if (tui->lesson_layout)
        return; /* a lesson's view line sets its own */
    bool compared = tui->pane_count > 1 && tui->compare_key;
    float largest = NAN;
    for (int i = 0; i < tui->pane_count; i++) {
        TuiPane *pane = &tui->panes[i];
        if (!pane->solver || pane->energy.count == 0)
            continue;
        if (pane->energy.count == 1 || !pane->scaled) { /* a new history: scales from its start */
            float start = series_first(&pane->energy);
            tui_pane_scales(pane, NAN, NAN, false, start, 0.0f, 0.01f);
            if (isfinite(start))
                render_plot_scale_around(&pane->energy_scale, start, SCALE_LEAST_ENERGY);
            tui->strain_ramp = 0.0f;
        }
        if (pane->solver->exploded || pane->metrics.exploded)
            continue; /* what a broken cloth reaches scales nothing */
        render_plot_scale_hold(&pane->energy_scale, series_last(&pane->energy));
        render_plot_scale_hold(&pane->strain_scale, series_last(&pane->strain));
        /* the ramp's middle at the larger mean strain: the bulk of each
         * cloth apart in colour (a fit to the largest strain put one link
         * at the sphere red and every other blue in both panes) */
        float strain = 2.0f * (float)pane->metrics.mean_strain;
        if (isfinite(strain) && !(strain <= largest))
            largest = strain;
    }
    if (!compared) {
        tui->strain_ramp = 0.0f; /* one pane: the renderer's own ramp, Provot's limit on it */
        return;
    }
    tui->strain_ramp = render_strain_ramp_fit(tui->strain_ramp, largest);
    /* one range for all: the widest any pane needed */
    RenderPlotScale energy = tui->panes[0].energy_scale, strain = tui->panes[0].strain_scale;
    for (int i = 1; i < tui->pane_count; i++) {
        const TuiPane *pane = &tui->panes[i];
        energy.lo = fminf(energy.lo, pane->energy_scale.lo), energy.hi = fmaxf(energy.hi, pane->energy_scale.hi);
        strain.lo = fminf(strain.lo, pane->strain_scale.lo), strain.hi = fmaxf(strain.hi, pane->strain_scale.hi);
    }
    for (int i = 0; i < tui->pane_count; i++) {
        TuiPane *pane = &tui->panes[i];
        pane->energy_scale.lo = energy.lo, pane->energy_scale.hi = energy.hi;
        pane->strain_scale.lo = strain.lo, pane->strain_scale.hi = strain.hi;
    }
}

void tui_pane_plot_scales(const Tui *tui, int i, RenderPlotScale *energy, RenderPlotScale *strain)
{
    const TuiPane *pane = &tui->panes[i];
    *energy = (RenderPlotScale){.lo = NAN, .hi = NAN, .reference = NAN};
    *strain = (RenderPlotScale){.lo = NAN, .hi = NAN, .reference = NAN, .percent = true};
    if (pane->scaled)
        *energy = pane->energy_scale, *strain = pane->strain_scale;
    if (!tui->lesson_layout && (pane->solver->exploded || tui->blowing_up)) {
        energy->log = true; /* a blow-up's growth reads on a log scale, over what it reached */
        energy->lo = energy->hi = NAN;
    }
}

/* ---------------------------------------------------------------- lessons and links */

void tui_open_lessons(Tui *tui)
{
    /* a lesson borrows the panes, the layout and the help: the sandbox's are
     * put aside and come back whole */
    TuiPane *panes = malloc(sizeof tui->panes);
    if (!panes) {
        tui_message(tui, "out of memory: cannot open the lessons");
        return;
    }
    tui_grab_release(tui);
    tui_layout_free(tui);
    memcpy(panes, tui->panes, sizeof tui->panes);
    memset(tui->panes, 0, sizeof tui->panes);
    int pane_count = tui->pane_count;
    const char *const *help_keys = tui->help_keys;
    const char *help_footer = tui->help_footer;
    RenderMode mode = tui->render.mode;
    tui->help = false;
    int status = tui_lessons_menu(tui);
    for (int i = 0; i < TUI_MAX_PANES; i++) /* the lesson's, freed with it: only its canvases are left */
        if (tui->panes[i].view || tui->panes[i].plots) {
            canvas_destroy(tui->panes[i].view);
            canvas_destroy(tui->panes[i].plots);
        }
    memcpy(tui->panes, panes, sizeof tui->panes);
    free(panes);
    tui->pane_count = pane_count;
    tui->lesson_layout = false;
    tui->help_keys = help_keys;
    tui->help_footer = help_footer;
    tui->help = false;
    tui->render.mode = mode;
    tui->blowing_up = false;
    tui->last_time = tui_now();
    tui->accumulator = 0.0;
    tui_layout(tui);
    if (status == 0)
        tui_message(tui, "back in the sandbox: L opens the lessons again");
}

void tui_next_families(Tui *tui)
{
    /* hidden families: none, then all but structural, shear, bend */
    static const unsigned cycle[] = {0u, 6u, 5u, 3u};
    static const char *const shown[] = {N_("wire: all three link families"), N_("wire: structural links alone"),
                                        N_("wire: shear links alone"), N_("wire: bend links alone")};
    int k = 0;
    while (k < 4 && cycle[k] != tui->render.hidden_families)
        k++;
    k = tui->render.mode != RENDER_WIRE ? 0 : (k + 1) % 4; /* from another mode: all of them first */
    tui->render.mode = RENDER_WIRE;
    tui->render.hidden_families = cycle[k];
    tui_message(tui, "%s (v: next)", _(shown[k]));
}

void tui_pane_torn(const Tui *tui, int i, char *label, size_t size, int width)
{
    const TuiPane *pane = &tui->panes[i];
    if (tui->lesson_layout || pane->solver->params.tear == TEAR_OFF)
        return; /* a lesson shows its own counts */
    char torn[48];
    snprintf(torn, sizeof torn, _("torn %d "), pane->metrics.torn);
    if (tui_text_cells(label) + tui_text_cells(torn) <= width && strlen(label) + strlen(torn) < size)
        strcat(label, torn);
}
