/* tui_scales.c - what the panes of any comparison share beside their one
 * camera (tui_camera.c), so that they can be compared by eye:
 *
 *   one strain ramp its middle at the largest mean strain of the panes
 *                   still whole (render_strain_ramp_fit), its top printed
 *                   in the legend: a cloth stretched ten times more is redder;
 *   plot scales     fixed, printed, with the starting energy dotted, as the
 *                   lessons' are; they grow to hold what the panes reach and
 *                   never shrink, the same for every pane. A 3.09 to 3.11 J
 *                   wobble is then a flat line on 2.6..3.6 J;
 *   the torn count  after each compared label, where the cloth tears.
 */
#include "tui_scales.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "tui_text.h"

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
