/* test_tui_panel.c - the sandbox's settings panel without a terminal: which
 * rows it offers for the scene, the integrator and the collider in use, and
 * that a row changes the running solver. The panel's look at 80x24 is
 * tested through tmux in test_tui.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/tui_camera.h"
#include "app/tui_input.h"
#include "app/tui_panes.h"
#include "app/tui_scales.h"
#include "app/tui_session.h"
#include "app/tui_sliders.h"
#include "core/scene.h"

/* A sandbox of scene (as tui_main builds it, without the terminal). */
static Tui *sandbox(SceneKind scene)
{
    Tui *tui = calloc(1, sizeof *tui);
    cr_assert(tui);
    tui_defaults(tui);
    params_default(&tui->base, scene);
    tui->pane_count = 1;
    tui_sliders_init(tui);
    cr_assert(tui_rebuild_panes(tui), "%s", tui->message);
    return tui;
}

static void sandbox_free(Tui *tui)
{
    for (int i = 0; i < TUI_MAX_PANES; i++)
        solver_destroy(tui->panes[i].solver);
    free(tui);
}

static int row_of(const Tui *tui, const char *key)
{
    for (int k = 0; k < tui->slider_count; k++)
        if (strcmp(tui->sliders[k].key, key) == 0)
            return k;
    return -1;
}

static bool shows(const Tui *tui, const char *key)
{
    return row_of(tui, key) >= 0;
}

Test(tui_panel, xpbd_offers_the_compliances_instead_of_stiffness)
{
    Tui *tui = sandbox(SCENE_DRAPE); /* xpbd */
    cr_expect(shows(tui, "compliance") && shows(tui, "shear_compliance") && shows(tui, "bend_compliance"));
    cr_expect(!shows(tui, "stiffness"), "stiffness offered under xpbd, where it does nothing");
    cr_assert(tui_set_key(tui, "integrator", "jakobsen"), "%s", tui->message);
    cr_expect(shows(tui, "stiffness"));
    cr_expect(!shows(tui, "compliance"), "compliance offered under jakobsen, which has none");
    cr_assert(tui_set_key(tui, "integrator", "xpbd"), "%s", tui->message);
    cr_expect(shows(tui, "compliance") && !shows(tui, "stiffness"), "the switch back did not bring them back");
    sandbox_free(tui);
}

Test(tui_panel, right_on_compliance_changes_the_running_solver)
{
    Tui *tui = sandbox(SCENE_DRAPE);
    tui->selected = row_of(tui, "compliance");
    cr_assert_geq(tui->selected, 0);
    double before = tui->panes[0].solver->params.compliance;
    tui_handle_key(tui, KEY_RIGHT);
    cr_expect_float_eq(tui->panes[0].solver->params.compliance, 2.0 * before, 1e-12, "compliance %g, was %g",
                       tui->panes[0].solver->params.compliance, before);
    cr_expect_str_eq(tui->sliders[tui->selected].key, "compliance", "the choice moved off the row");
    sandbox_free(tui);
}

Test(tui_panel, a_collider_shows_only_its_own_size_and_the_edge_samples)
{
    Tui *tui = sandbox(SCENE_CURTAIN); /* a sphere */
    cr_expect(shows(tui, "collider") && shows(tui, "sphere_radius") && shows(tui, "edge_samples"));
    cr_expect(!shows(tui, "box_size") && !shows(tui, "cone_radius"));
    cr_assert(tui_set_key(tui, "collider", "none"), "%s", tui->message);
    cr_expect(!shows(tui, "sphere_radius"), "Sphere rad. shown with no sphere");
    cr_expect(!shows(tui, "edge_samples"), "edge samples shown with nothing to sample against");
    cr_expect(shows(tui, "floor") && shows(tui, "self_collision") && shows(tui, "strain_limit"));
    sandbox_free(tui);

    tui = sandbox(SCENE_DRAPE); /* a box */
    cr_expect(shows(tui, "box_size") && !shows(tui, "sphere_radius"));
    sandbox_free(tui);
}

Test(tui_panel, the_tear_limit_and_hold_show_while_tearing)
{
    Tui *tui = sandbox(SCENE_CURTAIN);
    cr_expect(!shows(tui, "tear_limit") && !shows(tui, "tear_hold"));
    cr_assert(tui_set_key(tui, "tear", "naive"), "%s", tui->message);
    cr_expect(shows(tui, "tear_limit"));
    cr_expect(!shows(tui, "tear_hold"), "tear_hold shown for naive tearing, which does not wait");
    cr_assert(tui_set_key(tui, "tear", "hysteresis"), "%s", tui->message);
    cr_expect(shows(tui, "tear_limit") && shows(tui, "tear_hold"));
    sandbox_free(tui);
}

Test(tui_panel, springs_and_a_flat_cloth_hide_what_does_not_act_on_them)
{
    Tui *tui = sandbox(SCENE_CHAIN); /* dim 2 */
    cr_expect(!shows(tui, "wind_x") && !shows(tui, "wind_z"), "wind offered in 2D, where there is no air");
    cr_assert(tui_set_key(tui, "integrator", "euler"), "%s", tui->message);
    cr_expect(!shows(tui, "iterations"), "iterations offered to springs, which take no passes");
    cr_expect(shows(tui, "stiffness"), "springs take their stiffness from it");
    sandbox_free(tui);
}

Test(tui_panel, a_hidden_row_leaves_the_choice_on_a_shown_one)
{
    Tui *tui = sandbox(SCENE_CURTAIN);
    tui->selected = row_of(tui, "sphere_radius");
    cr_assert(tui_set_key(tui, "collider", "none"), "%s", tui->message);
    cr_assert_lt(tui->selected, tui->slider_count);
    cr_assert_geq(tui->selected, 0);
    tui->selected = tui->slider_count - 1;
    cr_assert(tui_set_key(tui, "tear", "hysteresis"), "%s", tui->message);
    cr_expect_str_eq(tui->sliders[tui->selected].key, "scene", "the chosen row changed when rows were added above");
    sandbox_free(tui);
}

/* Keys by their place: both Cyrillic layouts' letters, lower and upper
 * case, give the US layout's key they sit on; anything else no key. */
Test(tui_panel, cyrillic_letters_map_to_the_keys_they_sit_on)
{
    const char *ukrainian = "йцукенгшщзхїфівапролджєячсмитьбю", *russian = "ёйцукенгшщзхъфывапролджэячсмитьбю";
    const char *keys_uk = "qwertyuiop[]asdfghjkl;'zxcvbnm,.", *keys_ru = "`qwertyuiop[]asdfghjkl;'zxcvbnm,.";
    const struct {
        const char *letters, *keys;
    } layouts[] = {{ukrainian, keys_uk}, {russian, keys_ru}};
    for (size_t l = 0; l < 2; l++) {
        const unsigned char *at = (const unsigned char *)layouts[l].letters;
        for (size_t k = 0; layouts[l].keys[k]; k++, at += 2) { /* two bytes a Cyrillic letter */
            cr_assert(at[0] >= 0xD0 && at[0] <= 0xD1);
            unsigned letter = (at[0] & 0x1Fu) << 6 | (at[1] & 0x3Fu);
            cr_expect_eq(tui_key_by_place(letter), layouts[l].keys[k], "U+%04X", letter);
        }
        cr_expect_eq(*at, 0, "as many letters as keys");
    }
    cr_expect_eq(tui_key_by_place(0x0419), 'Q');           /* Й */
    cr_expect_eq(tui_key_by_place(0x0425), '{');           /* Х */
    cr_expect_eq(tui_key_by_place(0x0404), '"');           /* Є */
    cr_expect_eq(tui_key_by_place(0x0407), '}');           /* Ї */
    cr_expect_eq(tui_key_by_place(0x00F1), TUI_KEY_OTHER); /* ñ */
    cr_expect_eq(tui_key_by_place(0x0491), TUI_KEY_OTHER); /* ґ: no key of its own here */
}

/* ---------------------------------------------------------------- compared panes (issue 31) */

Test(tui_panel, compared_panes_share_one_camera_one_ramp_and_one_plot_range)
{
    /* lesson 05's ribbon at 2 and 40 passes, two seconds in */
    Tui *tui = sandbox(SCENE_CURTAIN);
    const char *settings[] = {"cols=12",  "rows=90",      "spacing=0.0167", "collider=none",
                              "wind_z=0", "turbulence=0", "substeps=1"};
    char err[256];
    for (size_t k = 0; k < sizeof settings / sizeof settings[0]; k++)
        cr_assert(params_assign(&tui->base, settings[k], err, sizeof err), "%s", err);
    cr_assert(tui_rebuild_panes(tui), "%s", tui->message);
    const char values[2][64] = {"2", "40"};
    cr_assert(tui_compare_start(tui, params_find("iterations"), values, 2), "%s", tui->message);
    for (int step = 0; step < 120; step++) {
        for (int i = 0; i < 2; i++)
            solver_step(tui->panes[i].solver);
        tui_sample(tui, false);
    }
    tui_fit_cameras(tui);
    const Camera *a = &tui->panes[0].camera, *b = &tui->panes[1].camera;
    cr_expect(a->distance == b->distance && a->yaw == b->yaw && a->pitch == b->pitch &&
                  memcmp(a->target, b->target, sizeof a->target) == 0,
              "the panes are framed apart: distance %g and %g", (double)a->distance, (double)b->distance);
    /* the frame holds the longer ribbon: its lowest particle in view */
    const Cloth *two = tui->panes[0].solver->cloth;
    float lowest[3] = {0.0f, INFINITY, 0.0f}, sx, sy, depth;
    for (int k = 0; k < two->count; k++)
        if (two->y[k] < lowest[1])
            lowest[0] = two->x[k], lowest[1] = two->y[k], lowest[2] = two->z[k];
    cr_expect(camera_project(b, lowest, &sx, &sy, &depth) && sy <= (float)b->height,
              "the 2-pass ribbon's end is off the 40-pass pane's frame");
    /* one ramp, over the larger strain, and one plot range */
    float larger = 2.0f * fmaxf((float)tui->panes[0].metrics.mean_strain, (float)tui->panes[1].metrics.mean_strain);
    cr_expect(tui->strain_ramp >= fminf(larger, RENDER_RAMP_MOST) &&
                  tui->strain_ramp <= fmaxf(2.5f * larger, RENDER_RAMP_LEAST),
              "ramp %g for twice the mean strain %g", (double)tui->strain_ramp, (double)larger);
    RenderPlotScale e0, s0, e1, s1;
    tui_pane_plot_scales(tui, 0, &e0, &s0);
    tui_pane_plot_scales(tui, 1, &e1, &s1);
    cr_expect(e0.lo == e1.lo && e0.hi == e1.hi && s0.lo == s1.lo && s0.hi == s1.hi, "the panes' plot ranges differ");
    cr_expect(isfinite(e0.lo) && isfinite(e0.hi) && isfinite(e0.reference), "the energy plot is not fixed");
    for (int i = 0; i < 2; i++) {
        const TuiSeries *energy = &tui->panes[i].energy;
        int start = (energy->next - energy->count + TUI_HISTORY) % TUI_HISTORY;
        for (int k = 0; k < energy->count; k++)
            cr_assert(energy->values[start + k] >= e0.lo && energy->values[start + k] <= e0.hi,
                      "pane %d's sample %d (%g J) is off the plot %g..%g", i, k, (double)energy->values[start + k],
                      (double)e0.lo, (double)e0.hi);
    }
    sandbox_free(tui);
}

Test(tui_panel, the_threads_setting_changes_the_running_solver_and_outlives_a_new_scene)
{
    Tui *tui = sandbox(SCENE_CURTAIN);
    cr_assert(tui_set_key(tui, "threads", "1"), "%s", tui->message);
    cr_expect_eq(tui->panes[0].solver->threads, 1, "threads=1: one thread");
    cr_assert(tui_set_key(tui, "threads", "3"), "%s", tui->message);
    cr_expect(tui->panes[0].solver->threads == 3 && !tui->panes[0].solver->threads_adapt, "threads=3: three, always");
    cr_assert(tui_set_key(tui, "scene", "flag"), "%s", tui->message);
    cr_expect_eq(tui->base.threads, 3, "a new scene keeps the teacher's threads");
    cr_expect_eq(tui->panes[0].solver->threads, 3);
    sandbox_free(tui);
}
