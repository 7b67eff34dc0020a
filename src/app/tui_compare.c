/* tui_compare.c - the sandbox's ready comparisons (presets.h): e, i and T
 * open the euler-verlet, iterations and tearing presets in compared panes
 * and take the sandbox back as it was; v's wire view of one link family.
 * What compared panes share to be compared by eye is the camera's
 * (tui_camera.c) and the scales' (tui_scales.c).
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "presets.h"
#include "tui_compare.h"
#include "tui_draw.h"
#include "tui_panes.h"

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

/* ---------------------------------------------------------------- the view */

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
