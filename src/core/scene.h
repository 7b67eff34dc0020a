/* scene.h - builds the cloth of each scene from the params. */
#ifndef CLOTHSIM_SCENE_H
#define CLOTHSIM_SCENE_H

#include <stdbool.h>
#include <stddef.h>

#include "cloth.h"
#include "collide.h"
#include "params.h"

/* Creates the cloth params describe: grid, rest shape, masses, pins.
 * NULL when out of memory. Free with cloth_destroy. */
Cloth *scene_build(const Params *params);

/* Pins the particles that params->pin names (unpinning the rest). */
void scene_apply_pins(Cloth *cloth, const Params *params);

/* Centre of the sphere collider at time t (s): it travels back and forth
 * along z by sphere_travel over sphere_period. */
void scene_sphere_center(const Params *params, double t, double center[3]);

/* The collider params describe, its sphere (if any) centred at
 * sphere_center. */
void scene_collider(const Params *params, const double sphere_center[3], Collider *out);

/* Whether the collider fits the scene: false, with one line in err, when it
 * holds a pinned particle at any point of its path (the pins would never let
 * the cloth out) or swallows the whole cloth at the start. */
bool scene_collider_fits(const Params *params, char *err, size_t err_size);

/* Checks what no single key of params can (params_set checks each): the
 * keys that must agree with each other and with the scene they build (a
 * chain of one row, the particle limit, a collider that fits). Returns
 * false with one line in err if they do not. */
bool scene_validate(const Params *params, char *err, size_t err_size);

#endif
