/* scene.c - the rest shape, masses and pins of each scene.
 *
 * Every scene starts at rest with every link at its rest length, so the
 * first step's energy is all potential and the integrators can be compared
 * from the same state.
 */
#include "scene.h"

#include <math.h>

#define SCENE_TOP_Y 1.5 /* height of the crossbar / pins, m */
#define HEAP_HEIGHT 1.2 /* the heap's cloth hangs from its centre this high, m */
#define DRAPE_DROP 0.25 /* the drape starts this far above its collider, m */

/* A flat grid in the xy plane, centred on x = 0, top row at SCENE_TOP_Y. */
static void place_grid(Cloth *cloth, double spacing)
{
    for (int r = 0; r < cloth->rows; r++)
        for (int c = 0; c < cloth->cols; c++) {
            int i = cloth_index(cloth, c, r);
            cloth->x[i] = (float)((c - (cloth->cols - 1) * 0.5) * spacing);
            cloth->y[i] = (float)(SCENE_TOP_Y - r * spacing);
            cloth->z[i] = 0.0f;
        }
}

/* A flat grid in the horizontal xz plane, centred on x = z = 0, at height y:
 * row 0 at -z, so the triangles face +y (up). */
static void place_flat(Cloth *cloth, double spacing, double y)
{
    for (int r = 0; r < cloth->rows; r++)
        for (int c = 0; c < cloth->cols; c++) {
            int i = cloth_index(cloth, c, r);
            cloth->x[i] = (float)((c - (cloth->cols - 1) * 0.5) * spacing);
            cloth->y[i] = (float)y;
            cloth->z[i] = (float)((r - (cloth->rows - 1) * 0.5) * spacing);
        }
}

/* A rope of cols-1 links of length spacing whose ends are span * length
 * apart: a V with its vertex on the middle particle, both arms straight, so
 * every link is at its rest length. The depth of the V is found by bisection
 * so that the two arms' horizontal extents add up to the span. */
static void place_chain(Cloth *cloth, double spacing, double span)
{
    int links = cloth->cols - 1;
    int left = links / 2, right = links - left;
    double a = left * spacing, b = right * spacing, width = span * links * spacing;
    double lo = 0.0, hi = fmin(a, b);
    for (int k = 0; k < 200; k++) {
        double depth = 0.5 * (lo + hi);
        double reach = sqrt(fmax(a * a - depth * depth, 0.0)) + sqrt(fmax(b * b - depth * depth, 0.0));
        if (reach > width)
            lo = depth;
        else
            hi = depth;
    }
    double depth = 0.5 * (lo + hi);
    double left_dx = sqrt(fmax(a * a - depth * depth, 0.0)) / (left > 0 ? left : 1);
    double right_dx = sqrt(fmax(b * b - depth * depth, 0.0)) / right;
    double left_dy = left > 0 ? depth / left : 0.0, right_dy = depth / right;
    double x = -0.5 * width, y = SCENE_TOP_Y;
    for (int c = 0; c < cloth->cols; c++) {
        cloth->x[c] = (float)x;
        cloth->y[c] = (float)y;
        cloth->z[c] = 0.0f;
        if (c < left)
            x += left_dx, y -= left_dy;
        else
            x += right_dx, y += right_dy;
    }
    /* the rest length is the spacing, whatever rounding did to the shape */
}

void scene_apply_pins(Cloth *cloth, const Params *params)
{
    int last = cloth->cols - 1;
    for (int i = 0; i < cloth->count; i++) {
        int c = i % cloth->cols, r = i / cloth->cols;
        bool pin = false;
        switch ((PinMode)params->pin) {
        case PIN_TOP:
            pin = r == 0;
            break;
        case PIN_CORNERS:
        case PIN_ENDS:
            pin = r == 0 && (c == 0 || c == last);
            break;
        case PIN_LEFT:
            pin = c == 0;
            break;
        case PIN_SIDES:
            pin = c == 0 || c == last;
            break;
        case PIN_CENTRE:
            pin = c == cloth->cols / 2 && r == cloth->rows / 2;
            break;
        case PIN_NONE:
        case PIN_COUNT:
            break;
        }
        cloth->pinned[i] = pin;
        cloth->inv_mass[i] = pin ? 0.0f : 1.0f / cloth->mass[i];
    }
}

Cloth *scene_build(const Params *params)
{
    Cloth *cloth = cloth_create(params->cols, params->rows);
    if (!cloth)
        return NULL;
    if (params->scene == SCENE_CHAIN || cloth->rows == 1) {
        place_chain(cloth, params->spacing, params->scene == SCENE_CHAIN ? params->span : 1.0);
        for (int l = 0; l < cloth->link_count; l++)
            cloth->rest_length[l] = (float)((cloth->family[l] == LINK_BEND ? 2.0 : 1.0) * params->spacing);
    } else if (params->scene == SCENE_HEAP) {
        place_flat(cloth, params->spacing, params->floor_y + HEAP_HEIGHT);
        cloth_set_rest_from_positions(cloth);
    } else if (params->scene == SCENE_DRAPE) {
        /* a quarter metre above whatever it falls on */
        double top = params->floor ? params->floor_y : 0.0;
        if (params->collider == COLLIDER_BOX)
            top = params->box_y + 0.5 * params->box_size;
        else if (params->collider == COLLIDER_SPHERE)
            top = params->sphere_y + params->sphere_radius;
        else if (params->collider == COLLIDER_CONE)
            top = params->cone_y + params->cone_height;
        place_flat(cloth, params->spacing, top + DRAPE_DROP);
        cloth_set_rest_from_positions(cloth);
    } else {
        place_grid(cloth, params->spacing);
        cloth_set_rest_from_positions(cloth);
    }
    for (int i = 0; i < cloth->count; i++) {
        cloth->px[i] = cloth->x[i];
        cloth->py[i] = cloth->y[i];
        cloth->pz[i] = cloth->z[i];
    }
    cloth_set_lumped_mass(cloth, (float)params->density, (float)params->spacing);
    scene_apply_pins(cloth, params);
    return cloth;
}

void scene_sphere_center(const Params *params, double t, double center[3])
{
    center[0] = params->sphere_x;
    center[1] = params->sphere_y;
    center[2] = params->sphere_z - params->sphere_travel * cos(2.0 * CLOTHSIM_PI * t / params->sphere_period);
}
