/* scene.c - the rest shape, masses and pins of each scene.
 *
 * Every scene starts at rest with every link at its rest length, so the
 * first step's energy is all potential and the integrators can be compared
 * from the same state.
 */
#include "scene.h"
#include "text.h"

#include <math.h>
#include <stdio.h>

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

void scene_collider(const Params *p, const double sphere_center[3], Collider *out)
{
    *out = (Collider){.shape = SHAPE_NONE};
    switch ((ColliderKind)p->collider) {
    case COLLIDER_SPHERE:
        out->shape = SHAPE_SPHERE;
        for (int k = 0; k < 3; k++)
            out->center[k] = (float)sphere_center[k];
        out->radius = (float)p->sphere_radius;
        break;
    case COLLIDER_BOX:
        out->shape = SHAPE_BOX;
        out->center[0] = (float)p->box_x, out->center[1] = (float)p->box_y, out->center[2] = (float)p->box_z;
        out->size = (float)p->box_size;
        break;
    case COLLIDER_CONE:
        out->shape = SHAPE_CONE;
        out->center[0] = (float)p->cone_x, out->center[1] = (float)p->cone_y, out->center[2] = (float)p->cone_z;
        out->radius = (float)p->cone_radius;
        out->height = (float)p->cone_height;
        break;
    case COLLIDER_NONE:
    case COLLIDER_COUNT:
        break;
    }
}

/* Where the sphere's path is looked at: its travel, back and forth. */
#define PATH_SAMPLES 16

bool scene_collider_fits(const Params *p, char *err, size_t err_size)
{
    if (p->collider == COLLIDER_NONE)
        return true;
    Cloth *cloth = scene_build(p);
    if (!cloth)
        return true; /* out of memory: whoever builds it next says so */
    const char *shape = collider_names[p->collider];
    const char *keys = p->collider == COLLIDER_SPHERE ? "sphere_radius, sphere_x/y/z, sphere_travel"
                       : p->collider == COLLIDER_BOX  ? "box_size, box_x/y/z"
                                                      : "cone_radius, cone_height, cone_x/y/z";
    bool fits = true;
    int samples = p->collider == COLLIDER_SPHERE && p->sphere_travel > 0.0 ? PATH_SAMPLES : 1;
    for (int k = 0; k < samples && fits; k++) {
        double center[3];
        scene_sphere_center(p, p->sphere_period * k / (2.0 * PATH_SAMPLES), center);
        Collider collider;
        scene_collider(p, center, &collider);
        if (p->dim == 2)
            collider_plane_section(&collider);
        int inside = 0;
        for (int i = 0; i < cloth->count && fits; i++) {
            if (collider_distance(&collider, cloth->x[i], cloth->y[i], cloth->z[i], NULL) >= 0.0f)
                continue;
            inside++;
            if (cloth->pinned[i]) {
                if (k == 0)
                    snprintf(err, err_size,
                             T_("collider: the %s holds pinned particle (%d, %d) of the %s scene; a pinned particle "
                                "cannot get out of it (change %s)"),
                             shape, i % cloth->cols, i / cloth->cols, scene_names[p->scene], keys);
                else
                    snprintf(err, err_size,
                             T_("collider: the %s reaches pinned particle (%d, %d) of the %s scene on its path; a "
                                "pinned particle cannot get out of it (change %s)"),
                             shape, i % cloth->cols, i / cloth->cols, scene_names[p->scene], keys);
                fits = false;
            }
        }
        if (fits && inside > 0 && p->dim == 2) {
            /* in the plane the cloth cannot go round the disc: a disc that
             * is, or grows, inside it throws the particles in it to its rim
             * at once, tearing the links across it (it explodes) */
            if (k == 0)
                snprintf(err, err_size,
                         T_("collider: in 2D the %s's section by the cloth's plane holds %d particles of the %s "
                            "scene; a 2D cloth cannot go round it (change %s so that it stays out of the cloth, or "
                            "dim=3)"),
                         shape, inside, scene_names[p->scene], keys);
            else
                snprintf(err, err_size,
                         T_("collider: in 2D the %s's section by the cloth's plane reaches %d particles of the %s "
                            "scene on its path; a 2D cloth cannot go round it (change %s so that it stays out of the "
                            "cloth, or dim=3)"),
                         shape, inside, scene_names[p->scene], keys);
            fits = false;
        }
        if (fits && k == 0 && inside == cloth->count) {
            snprintf(err, err_size, T_("collider: the %s swallows the whole cloth of the %s scene (change %s)"), shape,
                     scene_names[p->scene], keys);
            fits = false;
        }
    }
    cloth_destroy(cloth);
    return fits;
}

bool scene_validate(const Params *params, char *err, size_t err_size)
{
    if (params->scene == SCENE_CHAIN && params->rows != 1) {
        snprintf(err, err_size, T_("rows: the chain scene is a rope, so rows must be 1 (got %d)"), params->rows);
        return false;
    }
    if ((long)params->cols * params->rows > CLOTH_MAX_PARTICLES) {
        snprintf(err, err_size, T_("cols x rows: %d x %d is %ld particles; the limit is %d"), params->cols,
                 params->rows, (long)params->cols * params->rows, CLOTH_MAX_PARTICLES);
        return false;
    }
    return scene_collider_fits(params, err, err_size);
}
