/* scene.h - builds the cloth of each scene from the params. */
#ifndef CLOTHSIM_SCENE_H
#define CLOTHSIM_SCENE_H

#include "cloth.h"
#include "params.h"

/* Creates the cloth params describe: grid, rest shape, masses, pins.
 * NULL when out of memory. Free with cloth_destroy. */
Cloth *scene_build(const Params *params);

/* Pins the particles that params->pin names (unpinning the rest). */
void scene_apply_pins(Cloth *cloth, const Params *params);

/* Centre of the sphere collider at time t (s): it travels back and forth
 * along z by sphere_travel over sphere_period. */
void scene_sphere_center(const Params *params, double t, double center[3]);

#endif
