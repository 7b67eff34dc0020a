/* test_params.c - the key table: defaults, text round trips, messages. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "core/scene.h"
#include "core/params.h"

Test(params, curtain_defaults_follow_the_reference)
{
    Params p;
    params_default(&p, SCENE_CURTAIN);
    cr_expect_eq(p.cols, 30);
    cr_expect_eq(p.rows, 24);
    cr_expect_eq(p.iterations, 12); /* seed 001 */
    cr_expect_eq(p.substeps, 5);
    cr_expect_float_eq(p.dt, 1.0 / 60.0, 1e-12);
    cr_expect_float_eq(p.stiffness, 0.9, 1e-12); /* seed 002 section 7 */
    cr_expect_float_eq(p.shear_stiffness, 0.6, 1e-12);
    cr_expect_float_eq(p.bend_stiffness, 0.3, 1e-12);
    cr_expect_eq(p.dim, 3);
    cr_expect_eq(p.collider, COLLIDER_SPHERE);
    cr_expect_eq(p.pin, PIN_TOP);
    /* seed 000's 0.99 per 1/60 s frame, as a rate */
    cr_expect_float_eq(exp(-p.damping / 60.0), 0.99, 1e-3);
}

Test(params, every_key_round_trips_through_text)
{
    for (SceneKind scene = 0; scene < SCENE_COUNT; scene++) {
        Params p, q;
        params_default(&p, scene);
        params_default(&q, SCENE_CURTAIN);
        for (int k = 0; k < params_count; k++) {
            char text[64], err[256];
            params_format(&p, &params_table[k], text, sizeof text);
            cr_assert(params_set(&q, params_table[k].name, text, err, sizeof err), "%s=%s: %s", params_table[k].name,
                      text, err);
        }
        for (int k = 0; k < params_count; k++) {
            const ParamInfo *info = &params_table[k];
            size_t size = info->type == PARAM_REAL ? sizeof(double) : info->type == PARAM_SEED ? 8 : sizeof(int);
            cr_expect(memcmp((char *)&p + info->offset, (char *)&q + info->offset, size) == 0, "scene %s key %s",
                      scene_names[scene], info->name);
        }
    }
}

Test(params, every_key_has_help_and_a_known_type)
{
    for (int k = 0; k < params_count; k++) {
        cr_expect(strlen(params_table[k].help) > 10, "%s", params_table[k].name);
        cr_expect(params_find(params_table[k].name) == &params_table[k]);
    }
}

static void expect_error(const char *key, const char *value, const char *message)
{
    Params p;
    char err[320] = "";
    params_default(&p, SCENE_CURTAIN);
    Params before = p;
    cr_expect(!params_set(&p, key, value, err, sizeof err), "%s=%s accepted", key, value);
    cr_expect_str_eq(err, message);
    for (int k = 0; k < params_count; k++) {
        char now[64], was[64];
        params_format(&p, &params_table[k], now, sizeof now);
        params_format(&before, &params_table[k], was, sizeof was);
        cr_expect_str_eq(now, was, "a refused value changes nothing");
    }
}

Test(params, bad_values_name_the_key_and_what_is_accepted)
{
    expect_error("itrations", "3", "unknown key 'itrations'; did you mean 'iterations'? (clothsim params lists them)");
    expect_error("colour", "red", "unknown key 'colour' (clothsim params lists them)");
    expect_error("iterations", "many", "iterations: 'many' is not a whole number (1 to 500)");
    expect_error("iterations", "0", "iterations: 0 is out of range (1 to 500)");
    expect_error("iterations", "12.5", "iterations: '12.5' is not a whole number (1 to 500)");
    expect_error("dt", "fast", "dt: 'fast' is not a number (1e-05 to 0.1 s)");
    expect_error("dt", "nan", "dt: 'nan' is not a number (1e-05 to 0.1 s)");
    expect_error("stiffness", "1.5", "stiffness: 1.5 is out of range (0 to 1)");
    expect_error("integrator", "verlett",
                 "integrator: unknown value 'verlett'; did you mean 'verlet'? (one of "
                 "euler|symplectic|verlet|jakobsen|pbd|xpbd|implicit)");
    expect_error("scene", "", "scene: unknown value '' (one of curtain|flag|chain|net|drape|tear|heap)");
    expect_error("seed", "-1", "seed: '-1' is not a whole number (0 to 18446744073709551615)");
    expect_error("cols", "1000000", "cols: 1000000 is out of range (2 to 1000)");
    expect_error("threads", "17", "threads: 17 is out of range (0 to 16)");
    expect_error("threads", "-1", "threads: -1 is out of range (0 to 16)");
    expect_error("threads", "two", "threads: 'two' is not a whole number (0 to 16)");
}

Test(params, threads_default_to_the_idle_cores_and_take_one_for_a_shared_server)
{
    Params p;
    char err[320];
    for (int scene = 0; scene < SCENE_COUNT; scene++) {
        params_default(&p, (SceneKind)scene);
        cr_expect_eq(p.threads, 0, "%s: the idle cores", scene_names[scene]);
    }
    cr_assert(params_assign(&p, "threads=1", err, sizeof err), "%s", err);
    cr_expect_eq(p.threads, 1);
    cr_assert(params_assign(&p, "threads=16", err, sizeof err), "%s", err);
    cr_expect_eq(p.threads, 16);
    cr_expect_eq(params_find("threads")->effect, EFFECT_LIVE, "a teacher changes it without a reset");
}

Test(params, huge_grids_are_refused_with_the_limit)
{
    Params p;
    char err[320];
    params_default(&p, SCENE_CURTAIN);
    cr_assert(params_set(&p, "cols", "1000", err, sizeof err));
    cr_expect(!params_set(&p, "rows", "1000", err, sizeof err));
    cr_expect_str_eq(err, "rows: 1000 makes 1000000 particles; the limit is 250000 (cols x rows)");
}

Test(params, chain_must_be_one_row)
{
    Params p;
    char err[320];
    params_default(&p, SCENE_CHAIN);
    cr_expect(scene_validate(&p, err, sizeof err));
    p.rows = 3;
    cr_expect(!scene_validate(&p, err, sizeof err));
    cr_expect_str_eq(err, "rows: the chain scene is a rope, so rows must be 1 (got 3)");
}

Test(params, every_scene_fits_its_collider_and_a_collider_on_the_pins_does_not)
{
    Params p;
    char err[320];
    for (int scene = 0; scene < SCENE_COUNT; scene++) {
        params_default(&p, (SceneKind)scene);
        cr_expect(scene_validate(&p, err, sizeof err), "%s: %s", scene_names[scene], err);
    }
    params_default(&p, SCENE_CURTAIN); /* its sphere passes under the crossbar at y = 1.5 */
    p.sphere_y = 1.5;
    cr_expect(!scene_validate(&p, err, sizeof err));
    p.sphere_y = 1.5 + p.sphere_radius + 0.01; /* above the crossbar, clear of it */
    cr_expect(scene_validate(&p, err, sizeof err), "%s", err);
    p.sphere_travel = 0.0; /* a still sphere level with the crossbar, just in front of it */
    p.sphere_y = 1.5, p.sphere_z = -p.sphere_radius - 0.01;
    cr_expect(scene_validate(&p, err, sizeof err), "%s", err);
    p.sphere_z = 0.0;
    cr_expect(!scene_validate(&p, err, sizeof err));
}

Test(params, assignment_needs_key_and_value)
{
    Params p;
    char err[320];
    params_default(&p, SCENE_CURTAIN);
    cr_expect(!params_assign(&p, "iterations", err, sizeof err));
    cr_expect_str_eq(err, "'iterations' is not KEY=VALUE");
    cr_expect(params_assign(&p, "iterations=20", err, sizeof err));
    cr_expect_eq(p.iterations, 20);
}
