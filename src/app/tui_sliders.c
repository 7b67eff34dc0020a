/* tui_sliders.c - the side panel's rows: the settings a person slides in
 * the sandbox (and a lesson's free play), each with the range and step
 * that are useful to slide, shown only where they act. */
#include "tui_sliders.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"

/* When a row acts: the settings it changes something under. */
static bool in_3d(const Params *p)
{
    return p->dim == 3; /* the air acts on a cloth free in space */
}

static bool not_xpbd(const Params *p)
{
    /* xpbd takes its links' stiffness from the compliances; stiffness 0
     * only switches a family off there */
    return p->integrator != INTEGRATOR_XPBD;
}

static bool xpbd(const Params *p)
{
    return p->integrator == INTEGRATOR_XPBD;
}

static bool position_based(const Params *p)
{
    return solver_is_position_based(p->integrator); /* springs take no relaxation passes */
}

static bool a_sphere(const Params *p)
{
    return p->collider == COLLIDER_SPHERE;
}

static bool a_box(const Params *p)
{
    return p->collider == COLLIDER_BOX;
}

static bool a_cone(const Params *p)
{
    return p->collider == COLLIDER_CONE;
}

static bool a_collider(const Params *p)
{
    return p->collider != COLLIDER_NONE;
}

static bool tearing(const Params *p)
{
    return p->tear != TEAR_OFF;
}

static bool hysteresis(const Params *p)
{
    return p->tear == TEAR_HYSTERESIS;
}

/* The panel: the seed demo's sliders first, then the solids, then the
 * solver's settings. Rows whose key does not exist (yet) are left out, and
 * rows that do not act on the panes' settings are hidden. */
static const TuiSlider slider_table[] = {
    {"gravity", N_("Gravity"), 0.0, 20.0, 0.5, false, NULL, NULL},
    {"wind_x", N_("Wind X"), -10.0, 10.0, 0.5, false, NULL, in_3d},
    {"wind_z", N_("Wind Z"), -10.0, 10.0, 0.5, false, NULL, in_3d},
    {"stiffness", N_("Stiffness"), 0.0, 1.0, 0.05, false, NULL, not_xpbd},
    {"shear_stiffness", N_("Shear stiff."), 0.0, 1.0, 0.05, false, NULL, not_xpbd},
    {"bend_stiffness", N_("Bend stiff."), 0.0, 1.0, 0.05, false, NULL, not_xpbd},
    {"compliance", N_("Compliance"), 1e-6, 10.0, 2.0, true, NULL, xpbd},
    {"shear_compliance", N_("Shear compl."), 1e-6, 10.0, 2.0, true, NULL, xpbd},
    {"bend_compliance", N_("Bend compl."), 1e-6, 10.0, 2.0, true, NULL, xpbd},
    {"damping", N_("Damping"), 0.0, 5.0, 0.1, false, NULL, NULL},
    {"collider", N_("Collider"), 0, 0, 1, false, NULL, NULL},
    {"sphere_radius", N_("Sphere rad."), 0.05, 1.0, 0.05, false, NULL, a_sphere},
    {"box_size", N_("Box size"), 0.1, 2.0, 0.1, false, NULL, a_box},
    {"cone_radius", N_("Cone rad."), 0.05, 1.0, 0.05, false, NULL, a_cone},
    {"edge_samples", N_("Edge samples"), 0.0, 3.0, 3.0, false, NULL, a_collider},
    {"floor", N_("Floor"), 0, 0, 1, false, NULL, NULL},
    {"self_collision", N_("Self-collide"), 0, 0, 1, false, NULL, NULL},
    {"strain_limit", N_("Strain limit"), 0.0, 1.0, 0.05, false, NULL, NULL},
    {"integrator", N_("Integrator"), 0, 0, 1, false, NULL, NULL},
    {"iterations", N_("Iterations"), 1.0, 200.0, 1.25, true, NULL, position_based},
    {"substeps", N_("Substeps"), 1.0, 50.0, 1.0, false, NULL, NULL},
    {"dt", N_("dt"), 1.0 / 960.0, 1.0 / 15.0, 1.25, true, NULL, NULL},
    {"material", N_("Material"), 0, 0, 1, false, NULL, NULL},
    {"tear", N_("Tearing"), 0, 0, 1, false, NULL, NULL},
    {"tear_limit", N_("Tear limit"), 0.05, 2.0, 0.05, false, NULL, tearing},
    {"tear_hold", N_("Tear hold"), 1.0, 100.0, 1.0, false, NULL, hysteresis},
    {"pin", N_("Pin"), 0, 0, 1, false, NULL, NULL},
    {"scene", N_("Scene"), 0, 0, 1, false, NULL, NULL},
};
#define SLIDER_TABLE_COUNT (sizeof slider_table / sizeof slider_table[0])

/* Row k of the table with its key's entry, clamped to the key's range;
 * false if the key does not exist. */
static bool slider_from_table(size_t k, TuiSlider *slider)
{
    const ParamInfo *info = params_find(slider_table[k].key);
    if (!info)
        return false;
    *slider = slider_table[k];
    slider->info = info;
    if (info->type == PARAM_ENUM || info->type == PARAM_SEED)
        return true;
    /* the slider never goes where the key cannot */
    if (slider->lo < info->min)
        slider->lo = info->min;
    if (slider->hi > info->max)
        slider->hi = info->max;
    return true;
}

/* Whether a row acts in any pane (a comparison of integrators shows both
 * the stiffness and the compliances). */
static bool slider_acts(const Tui *tui, const TuiSlider *slider)
{
    if (!slider->acts)
        return true;
    if (tui->pane_count < 1 || !tui->panes[0].solver)
        return slider->acts(&tui->base);
    for (int i = 0; i < tui->pane_count; i++)
        if (tui->panes[i].solver && slider->acts(&tui->panes[i].solver->params))
            return true;
    return false;
}

void tui_sliders_update(Tui *tui)
{
    const char *chosen = tui->selected < tui->slider_count ? tui->sliders[tui->selected].key : NULL;
    int previous = tui->selected;
    tui->slider_count = 0;
    tui->selected = -1;
    for (size_t k = 0; k < SLIDER_TABLE_COUNT && tui->slider_count < TUI_MAX_SLIDERS; k++) {
        TuiSlider slider;
        if (!slider_from_table(k, &slider) || !slider_acts(tui, &slider))
            continue;
        /* the table's key strings outlive every update: compare by address */
        if (chosen && slider.key == chosen)
            tui->selected = tui->slider_count;
        tui->sliders[tui->slider_count++] = slider;
    }
    if (tui->selected < 0) /* the chosen row went: the one now in its place */
        tui->selected = previous < tui->slider_count ? (previous < 0 ? 0 : previous) : tui->slider_count - 1;
    if (tui->selected < 0)
        tui->selected = 0;
    tui->panel_dirty = true;
}

void tui_sliders_init(Tui *tui)
{
    tui->slider_count = 0;
    tui->selected = 0;
    tui->panel_top = 0;
    tui_sliders_update(tui);
}

static int name_count(const char *const *names)
{
    int n = 0;
    while (names[n])
        n++;
    return n;
}

/* The text of the value `presses` steps (negative: down) from params' one. */
static void value_moved(const Params *params, const TuiSlider *slider, int presses, char *out, size_t out_size)
{
    const ParamInfo *info = slider->info;
    const char *field = (const char *)params + info->offset;
    if (info->type == PARAM_ENUM) {
        int count = name_count(info->names);
        int value = *(const int *)(const void *)field;
        value = ((value + presses) % count + count) % count;
        snprintf(out, out_size, "%s", info->names[value]);
        return;
    }
    double value = info->type == PARAM_REAL ? *(const double *)(const void *)field : *(const int *)(const void *)field;
    for (int k = 0; k < (presses < 0 ? -presses : presses); k++) {
        double next;
        if (slider->scale && slider->lo > 0.0 && value < slider->lo * 1.000001)
            /* a factor never leaves 0: from 0 to the slider's bottom, and back */
            next = presses > 0 ? (value < slider->lo * 0.999999 ? slider->lo : value * slider->step)
                               : (info->min <= 0.0 ? 0.0 : slider->lo);
        else if (slider->scale)
            next = presses > 0 ? value * slider->step : value / slider->step;
        else
            next = presses > 0 ? value + slider->step : value - slider->step;
        if (info->type == PARAM_INT) /* always move by at least one */
            next = presses > 0 ? fmax(round(next), value + 1) : fmin(round(next), value - 1);
        value = next;
    }
    if (value < slider->lo && !(slider->scale && value == 0.0 && info->min <= 0.0))
        value = slider->lo;
    if (value > slider->hi)
        value = slider->hi;
    if (fabs(value) < 1e-12)
        value = 0.0; /* 0.1 - 0.1 shows as 0, not 1e-17 */
    if (info->type == PARAM_INT)
        snprintf(out, out_size, "%.0f", value);
    else
        snprintf(out, out_size, "%.9g", value);
}

void tui_slider_moved(const Tui *tui, const TuiSlider *slider, int presses, char *out, size_t out_size)
{
    value_moved(&tui->base, slider, presses, out, out_size);
}

void tui_slider_value(const Tui *tui, const Params *params, const ParamInfo *info, int presses, char *out,
                      size_t out_size)
{
    (void)tui; /* every row of the table, shown or not: a lesson unlocks keys the panel hides */
    for (size_t k = 0; k < SLIDER_TABLE_COUNT; k++) {
        TuiSlider slider;
        if (strcmp(slider_table[k].key, info->name) == 0 && slider_from_table(k, &slider)) {
            value_moved(params, &slider, presses, out, out_size);
            return;
        }
    }
    /* a key with no slider of its own: a quarter more or less per press, or
     * steps of 0.1 from zero, within the key's range */
    const char *field = (const char *)params + info->offset;
    double value = info->type == PARAM_REAL ? *(const double *)(const void *)field : 0.0;
    TuiSlider plain = {info->name, info->name, info->min, info->max, 1.0, false, info, NULL};
    if (info->type == PARAM_REAL) {
        plain.scale = value > 0.0 && (presses > 0 || value / 1.25 >= 1e-3);
        plain.step = plain.scale ? 1.25 : 0.1;
    }
    value_moved(params, &plain, presses, out, out_size);
}
