/* params.c - the key table, scene defaults, and text <-> value conversion.
 *
 * Defaults follow the source documents (README, "Sources"): link stiffness by family 0.9 / 0.6 / 0.3
 * (seed 002), 12 iterations and 5 substeps per 1/60 s frame (seed 001),
 * Verlet damping 0.99 per frame (seed 000), expressed here as a rate so that
 * its effect does not depend on dt or substeps.
 */
#include "params.h"

#include "cloth.h"
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const scene_names[] = {"curtain", "flag", "chain", "net", "drape", "tear", "heap", NULL};
const char *const scene_summaries[] = {
    N_("30 x 24 cloth hanging from a crossbar, wind with turbulence, a sphere moving through it"),
    N_("a flag held along its left edge in strong gusty wind"),
    N_("2D rope between two pins: it settles into the catenary y = a cosh(x/a)"),
    N_("2D net hung from its two top corners"),
    N_("a 2 m square of 40 x 40 falling flat onto a box above the floor (seed 003)"),
    N_("a cloth held by its left and right edges, pulled apart until it tears"),
    N_("a silk square hung from its centre, lowered to the floor and let go: a heap"),
};
const char *const integrator_names[] = {"euler", "symplectic", "verlet", "jakobsen", "pbd", "xpbd", "implicit", NULL};
const char *const pin_names[] = {"top", "corners", "left", "ends", "sides", "centre", "none", NULL};
const char *const order_names[] = {"sequential", "shuffled", "jacobi", "colored", NULL};
const char *const collider_names[] = {"none", "sphere", "box", "cone", NULL};
const char *const material_names[] = {"silk", "cotton", "canvas", "rubber", NULL};
const char *const tear_names[] = {"off", "naive", "hysteresis", NULL};
const char *const switch_names[] = {"off", "on", NULL};

#define FIELD(name) offsetof(Params, name)

/* clang-format off */
const ParamInfo params_table[] = {
    {"scene", PARAM_ENUM, FIELD(scene), 0, 0, scene_names, "", EFFECT_REBUILD, N_("which scene to build (clothsim scenes lists them)")},
    {"integrator", PARAM_ENUM, FIELD(integrator), 0, 0, integrator_names, "", EFFECT_LIVE, N_("how positions advance in time")},
    {"dim", PARAM_INT, FIELD(dim), 2, 3, NULL, "", EFFECT_REBUILD, N_("2: the cloth stays in the z = 0 plane (and meets a sphere's section by it); 3: free in space")},
    {"cols", PARAM_INT, FIELD(cols), 2, 1000, NULL, "", EFFECT_REBUILD, N_("particles per row")},
    {"rows", PARAM_INT, FIELD(rows), 1, 1000, NULL, "", EFFECT_REBUILD, N_("rows of particles (1 makes a rope)")},
    {"spacing", PARAM_REAL, FIELD(spacing), 0.001, 10, NULL, N_("m"), EFFECT_REBUILD, N_("rest distance between neighbouring particles")},
    {"material", PARAM_ENUM, FIELD(material), 0, 0, material_names, "", EFFECT_REBUILD, N_("sets density, stiffnesses, spring_k, compliances, tear_limit")},
    {"density", PARAM_REAL, FIELD(density), 0.001, 100, NULL, N_("kg/m^2"), EFFECT_REBUILD, N_("cloth mass per area; lumped onto the particles")},
    {"pin", PARAM_ENUM, FIELD(pin), 0, 0, pin_names, "", EFFECT_REBUILD, N_("which particles are held fixed")},
    {"span", PARAM_REAL, FIELD(span), 0.01, 0.99, NULL, "", EFFECT_REBUILD, N_("chain: distance between its pins as a fraction of its length")},
    {"dt", PARAM_REAL, FIELD(dt), 1e-5, 0.1, NULL, N_("s"), EFFECT_LIVE, N_("time step (one frame of physics)")},
    {"substeps", PARAM_INT, FIELD(substeps), 1, 100, NULL, "", EFFECT_LIVE, N_("substeps per step, each dt/substeps long")},
    {"iterations", PARAM_INT, FIELD(iterations), 1, 500, NULL, "", EFFECT_LIVE, N_("relaxation passes over the links per substep; xpbd's stretch is its compliance's only once they converge (at the default step silk, cotton and canvas take more than 500)")},
    {"order", PARAM_ENUM, FIELD(order), 0, 0, order_names, "", EFFECT_LIVE, N_("order links are relaxed in: sequential (the default: as listed, on the fast path with the plain loop's bits), shuffled each step, jacobi (all from the same positions, each link's correction shared out by the larger of its two particles' link counts, so that no particle moves more than the mean of its links' corrections and a link's two ends keep their momentum, and xpbd's compliance holds; needs more passes to converge; on the fast path too), or colored (colour by colour, the fastest at 1 ms substeps and over; same bits as the plain loop in that order; below 1 ms, where every order keeps its corrections' remainders in double, it runs on the plain loop)")},
    {"threads", PARAM_INT, FIELD(threads), 0, 16, NULL, "", EFFECT_LIVE, N_("threads the solver runs on: 0 (the default) as many as this machine has cores that other programs leave idle, looked at again ten times a second; 1 keeps to one core (a shared server); the same results on any number")},
    {"strain_limit", PARAM_REAL, FIELD(strain_limit), 0, 10, NULL, "", EFFECT_LIVE, N_("Provot limit on structural stretch over rest length (0.1 = 10 %), 0 = off; holds at the end of a substep where nothing pushes after it: contact (colliders, floor, self-collision) runs later and wins, so touching cloth can end over it")},
    {"stiffness", PARAM_REAL, FIELD(stiffness), 0, 1, NULL, "", EFFECT_LIVE, N_("structural links: fraction of the error corrected per pass; springs: times spring_k")},
    {"shear_stiffness", PARAM_REAL, FIELD(shear_stiffness), 0, 1, NULL, "", EFFECT_LIVE, N_("shear (diagonal) links, as stiffness")},
    {"bend_stiffness", PARAM_REAL, FIELD(bend_stiffness), 0, 1, NULL, "", EFFECT_LIVE, N_("bend (skip-one) links, as stiffness")},
    {"spring_k", PARAM_REAL, FIELD(spring_k), 0, 1e6, NULL, N_("N/m"), EFFECT_LIVE, N_("euler/symplectic/verlet/implicit: Hooke constant of a link at stiffness 1")},
    {"spring_damping", PARAM_REAL, FIELD(spring_damping), 0, 2, NULL, "", EFFECT_LIVE, N_("euler/symplectic/verlet/implicit: damping ratio of each link's dashpot")},
    {"cg_tolerance", PARAM_REAL, FIELD(cg_tolerance), 1e-12, 0.5, NULL, "", EFFECT_LIVE, N_("implicit: the linear solve (conjugate gradients) stops once its residual is this fraction of the right-hand side")},
    {"cg_max_iterations", PARAM_INT, FIELD(cg_max_iterations), 1, 10000, NULL, "", EFFECT_LIVE, N_("implicit: at most this many conjugate-gradient iterations a linear solve (one a substep, more where the springs are linearised again); a solve that reaches it has not converged (cg_unconverged)")},
    {"compliance", PARAM_REAL, FIELD(compliance), 0, 1e3, NULL, N_("1/N"), EFFECT_LIVE, N_("xpbd structural links: strain per newton of tension (0 = rigid)")},
    {"shear_compliance", PARAM_REAL, FIELD(shear_compliance), 0, 1e3, NULL, N_("1/N"), EFFECT_LIVE, N_("xpbd shear links, as compliance")},
    {"bend_compliance", PARAM_REAL, FIELD(bend_compliance), 0, 1e3, NULL, N_("1/N"), EFFECT_LIVE, N_("xpbd bend links, as compliance")},
    {"damping", PARAM_REAL, FIELD(damping), 0, 100, NULL, N_("1/s"), EFFECT_LIVE, N_("velocity decays as exp(-damping t), whatever dt and substeps")},
    {"gravity", PARAM_REAL, FIELD(gravity), -100, 100, NULL, N_("m/s^2"), EFFECT_LIVE, N_("pulls every free particle towards -y")},
    {"wind_x", PARAM_REAL, FIELD(wind_x), -100, 100, NULL, N_("m/s"), EFFECT_LIVE, N_("air velocity along x; each cell feels the air relative to its own velocity, along its normal (no wind and no turbulence: no air at all)")},
    {"wind_z", PARAM_REAL, FIELD(wind_z), -100, 100, NULL, N_("m/s"), EFFECT_LIVE, N_("air velocity along z, as wind_x")},
    {"turbulence", PARAM_REAL, FIELD(turbulence), 0, 100, NULL, N_("m/s"), EFFECT_LIVE, N_("amplitude of the gusts added to the wind")},
    {"seed", PARAM_SEED, FIELD(seed), 0, 0, NULL, "", EFFECT_REBUILD, N_("seeds the gusts and the shuffled order: same seed, same run")},
    {"collider", PARAM_ENUM, FIELD(collider), 0, 0, collider_names, "", EFFECT_LIVE, N_("solid the cloth meets")},
    {"sphere_radius", PARAM_REAL, FIELD(sphere_radius), 0.01, 100, NULL, N_("m"), EFFECT_LIVE, N_("radius of the sphere")},
    {"sphere_x", PARAM_REAL, FIELD(sphere_x), -1000, 1000, NULL, N_("m"), EFFECT_LIVE, N_("sphere centre x")},
    {"sphere_y", PARAM_REAL, FIELD(sphere_y), -1000, 1000, NULL, N_("m"), EFFECT_LIVE, N_("sphere centre y")},
    {"sphere_z", PARAM_REAL, FIELD(sphere_z), -1000, 1000, NULL, N_("m"), EFFECT_LIVE, N_("sphere centre z, the middle of its travel")},
    {"sphere_travel", PARAM_REAL, FIELD(sphere_travel), 0, 1000, NULL, N_("m"), EFFECT_LIVE, N_("how far the sphere moves each way along z (0 = still)")},
    {"sphere_period", PARAM_REAL, FIELD(sphere_period), 0.1, 1e4, NULL, N_("s"), EFFECT_LIVE, N_("time for the sphere to go there and back")},
    {"box_size", PARAM_REAL, FIELD(box_size), 0.01, 100, NULL, N_("m"), EFFECT_LIVE, N_("edge of the box (a cube)")},
    {"box_x", PARAM_REAL, FIELD(box_x), -1000, 1000, NULL, N_("m"), EFFECT_LIVE, N_("box centre x")},
    {"box_y", PARAM_REAL, FIELD(box_y), -1000, 1000, NULL, N_("m"), EFFECT_LIVE, N_("box centre y")},
    {"box_z", PARAM_REAL, FIELD(box_z), -1000, 1000, NULL, N_("m"), EFFECT_LIVE, N_("box centre z")},
    {"cone_radius", PARAM_REAL, FIELD(cone_radius), 0.01, 100, NULL, N_("m"), EFFECT_LIVE, N_("radius of the cone's base")},
    {"cone_height", PARAM_REAL, FIELD(cone_height), 0.01, 100, NULL, N_("m"), EFFECT_LIVE, N_("height of the cone, base to tip")},
    {"cone_x", PARAM_REAL, FIELD(cone_x), -1000, 1000, NULL, N_("m"), EFFECT_LIVE, N_("centre of the cone's base, x")},
    {"cone_y", PARAM_REAL, FIELD(cone_y), -1000, 1000, NULL, N_("m"), EFFECT_LIVE, N_("centre of the cone's base, y")},
    {"cone_z", PARAM_REAL, FIELD(cone_z), -1000, 1000, NULL, N_("m"), EFFECT_LIVE, N_("centre of the cone's base, z")},
    {"floor", PARAM_ENUM, FIELD(floor), 0, 0, switch_names, "", EFFECT_LIVE, N_("a floor under any scene")},
    {"floor_y", PARAM_REAL, FIELD(floor_y), -1000, 1000, NULL, N_("m"), EFFECT_LIVE, N_("height of the floor")},
    {"margin", PARAM_REAL, FIELD(margin), 0, 10, NULL, N_("m"), EFFECT_LIVE, N_("collision skin added to every collider's surface")},
    {"friction", PARAM_REAL, FIELD(friction), 0, 1, NULL, "", EFFECT_LIVE, N_("fraction of the sliding a contact takes away")},
    {"restitution", PARAM_REAL, FIELD(restitution), 0, 1, NULL, "", EFFECT_LIVE, N_("bounce off the floor: 0 sticks, 1 bounces back fully")},
    {"edge_samples", PARAM_INT, FIELD(edge_samples), 0, 3, NULL, "", EFFECT_LIVE, N_("0, or 3: also test 1/4, 1/2, 3/4 of every link against colliders")},
    {"self_collision", PARAM_ENUM, FIELD(self_collision), 0, 0, switch_names, "", EFFECT_LIVE, N_("keep unlinked parts of the cloth at least thickness apart")},
    {"thickness", PARAM_REAL, FIELD(thickness), 0.001, 1, NULL, N_("m"), EFFECT_LIVE, N_("cloth thickness, for self-collision; under half the spacing, a particle can pass between two linked particles of another layer")},
    {"self_friction", PARAM_REAL, FIELD(self_friction), 0, 1, NULL, "", EFFECT_LIVE, N_("fraction of the sliding two layers in contact take from each other (self-collision)")},
    {"tear", PARAM_ENUM, FIELD(tear), 0, 0, tear_names, "", EFFECT_LIVE, N_("off, naive (breaks at once) or hysteresis (after tear_hold steps)")},
    {"tear_hold", PARAM_INT, FIELD(tear_hold), 1, 1000, NULL, "", EFFECT_LIVE, N_("hysteresis: consecutive steps over the limit before a link breaks")},
    /* xgettext:no-c-format */
    {"tear_limit", PARAM_REAL, FIELD(tear_limit), 0.001, 100, NULL, "", EFFECT_LIVE, N_("strain at which a link starts to tear (0.15 = 15 % over rest)")},
    {"pull_speed", PARAM_REAL, FIELD(pull_speed), 0, 10, NULL, N_("m/s"), EFFECT_LIVE, N_("tear: speed at which each held edge moves out; heap: the held centre down")},
};
/* clang-format on */
const int params_count = (int)(sizeof params_table / sizeof params_table[0]);

void params_default(Params *p, SceneKind scene)
{
    *p = (Params){
        .scene = scene,
        .dim = 3,
        .cols = 30,
        .rows = 24,
        .spacing = 0.05,
        .pin = PIN_TOP,
        .span = 0.6,
        .integrator = INTEGRATOR_JAKOBSEN,
        .dt = 1.0 / 60.0,
        .substeps = 5,
        .iterations = 12,
        .order = ORDER_SEQUENTIAL,
        .threads = 0, /* the idle cores (solver_start_threads) */
        .strain_limit = 0.0,
        .spring_damping = 0.02,
        .cg_tolerance = 1e-4,
        .cg_max_iterations = 200,
        .compliance = 0.0, /* these and the stiffnesses: params_apply_material */
        /* seed 000: Verlet keeps 0.99 of the velocity per 1/60 s frame,
         * i.e. a rate of -60 ln 0.99 = 0.603 per second */
        .damping = 0.6,
        .gravity = 9.81,
        .wind_x = 0.0,
        .wind_z = 0.0,
        .turbulence = 0.0,
        .seed = 1,
        .collider = COLLIDER_NONE,
        .sphere_radius = 0.25,
        .sphere_x = 0.0,
        .sphere_y = 0.9,
        .sphere_z = 0.0,
        .sphere_travel = 0.0,
        .sphere_period = 10.0,
        .box_size = 1.0,
        .box_x = 0.0,
        .box_y = 0.5,
        .box_z = 0.0,
        .cone_radius = 0.4,
        .cone_height = 0.8,
        .cone_x = 0.0,
        .cone_y = 0.0,
        .cone_z = 0.0,
        .floor = 0,
        .floor_y = 0.0,
        /* seed 001's skin is 0.15 of its units on a cloth about ten units
         * wide; scaled to our 1.45 m curtain that is about 2 cm */
        .margin = 0.02,
        .friction = 0.3,
        .restitution = 0.3, /* seed 002 */
        .edge_samples = 0,
        .self_collision = 0,
        .thickness = 0.01,
        .self_friction = 1.0,
        .material = MATERIAL_COTTON,
        .tear = TEAR_OFF,
        .tear_hold = 4, /* seed 003: an impact spike lasts a frame or two */
        .pull_speed = 0.05,
    };
    params_apply_material(p, MATERIAL_COTTON);
    switch (scene) {
    case SCENE_CURTAIN:
        p->wind_z = 1.0;
        p->turbulence = 0.8;
        p->collider = COLLIDER_SPHERE;
        p->sphere_travel = 0.6;
        break;
    case SCENE_FLAG:
        p->cols = 32;
        p->rows = 20;
        p->pin = PIN_LEFT;
        p->wind_x = 8.0;
        p->wind_z = 1.5;
        p->turbulence = 3.0;
        break;
    case SCENE_CHAIN:
        p->dim = 2;
        p->cols = 41;
        p->rows = 1;
        p->spacing = 0.025;
        p->pin = PIN_ENDS;
        p->bend_stiffness = 0.0; /* a rope of links: no bending resistance */
        p->bend_compliance = 0.0;
        p->iterations = 40;
        p->damping = 2.0;
        break;
    case SCENE_NET:
        p->dim = 2;
        p->cols = 20;
        p->rows = 20;
        p->pin = PIN_CORNERS;
        p->iterations = 8; /* seed 002's PBD example */
        break;
    case SCENE_DRAPE:
        /* seed 003: 2 m square, 40 x 40, about 10 passes at 120 steps/s */
        p->cols = 40;
        p->rows = 40;
        p->spacing = 2.0 / 39.0;
        p->pin = PIN_NONE;
        p->integrator = INTEGRATOR_XPBD;
        p->dt = 1.0 / 120.0;
        p->substeps = 1;
        p->iterations = 10;
        p->collider = COLLIDER_BOX;
        p->floor = 1;
        p->margin = 0.004; /* edge samples then bring the corner under 1 mm */
        break;
    case SCENE_TEAR:
        p->cols = 30;
        p->rows = 20;
        p->pin = PIN_SIDES;
        p->tear = TEAR_HYSTERESIS;
        break;
    case SCENE_HEAP:
        /* a light, floppy cloth folds into many layers: silk */
        params_apply_material(p, MATERIAL_SILK);
        p->cols = 30;
        p->rows = 30;
        p->spacing = 0.04;
        p->pin = PIN_CENTRE;
        p->integrator = INTEGRATOR_XPBD;
        p->dt = 1.0 / 120.0;
        p->substeps = 1;
        p->iterations = 10;
        p->floor = 1;
        p->self_collision = 1;
        /* contact is particle against particle: a particle of one layer
         * slips between two linked neighbours of another unless it meets
         * them there, half a spacing from each, so the cloth is half a
         * spacing thick (at 1 cm, 433 of 900 particles stayed on cloth) */
        p->thickness = 0.5 * p->spacing;
        /* the floor grips a resting heap as its layers grip each other
         * (self_friction 1): at 0.3 of the sliding a step, a sideways push
         * however small slides the bottom layer, which crept out from under
         * the weight above (609 of 900 on cloth at 10 s with 1, 511 with
         * 0.3, at this thickness) */
        p->friction = 1.0;
        p->pull_speed = 0.8;
        break;
    case SCENE_COUNT:
        break;
    }
}

/* Material values. Densities are those of real fabrics (silk about 80 g/m^2,
 * cotton shirting 200, canvas 400, sheet rubber 500). The stiffnesses and
 * compliances are not measured moduli: they are what this solver can
 * resolve at about 10 passes per step and still show each fabric's character
 * (silk small folds, canvas large ones, rubber stretch).
 *
 * spring_k (the force-based integrators): cotton's 10 N/m puts the curtain's
 * stiffest spring mode at omega*h of about 1.5 (it holds to spring_k 18), inside Verlet's limit of 2 and
 * far outside explicit Euler's (which has none without damping). Stiffer
 * springs need a smaller step: that is the lesson, not a bug. The other
 * materials keep spring_k / density, and so omega*h, near cotton's or below.
 *
 * Tear limits are above what the solver leaves unresolved, not the
 * fabrics' breaking strains. Cotton really tears at about 15 % (seed 003),
 * but 10 passes leave the drape (40 x 40 on a box, 120 steps/s) stretched
 * by 20-23 % at the box's corners once it has settled (5.6 % at 100 passes:
 * it is the method's error, not the load), so a limit of 0.15 tears it by
 * itself, with or without hysteresis. Each limit is therefore just above
 * its material's settled drape stretch at 10 passes (cotton 0.23, canvas
 * 0.23, silk 0.38, rubber 0.28; `clothsim run --scene drape --set
 * material=M --seconds 4`): cotton 0.26, canvas 0.30, silk 0.45. The
 * impact's transient pushes one cotton link past 0.26 for two steps:
 * `tear=naive` tears there, `tear=hysteresis` (tear_hold 4) does not
 * (tests/core/test_solver.c). The margin is thin: from 0.25 both tear,
 * from 0.27 neither. Rubber's 3.0 is its own: it stretches several times
 * before it goes. A more accurate solver (more passes) could lower these
 * towards the physical numbers. */
void params_apply_material(Params *p, Material material)
{
    static const struct {
        double density, stiffness[3], spring_k, compliance[3], tear_limit;
    } table[MATERIAL_COUNT] = {
        [MATERIAL_SILK] = {0.08, {0.9, 0.4, 0.05}, 4.0, {0.002, 0.05, 5.0}, 0.45},
        [MATERIAL_COTTON] = {0.2, {0.9, 0.6, 0.3}, 10.0, {0.001, 0.01, 0.1}, 0.26},
        [MATERIAL_CANVAS] = {0.4, {1.0, 0.8, 0.6}, 20.0, {0.0002, 0.002, 0.005}, 0.30},
        [MATERIAL_RUBBER] = {0.5, {0.25, 0.25, 0.1}, 4.0, {0.2, 0.2, 1.0}, 3.0},
    };
    p->material = material;
    p->density = table[material].density;
    p->stiffness = table[material].stiffness[0];
    p->shear_stiffness = table[material].stiffness[1];
    p->bend_stiffness = table[material].stiffness[2];
    p->spring_k = table[material].spring_k;
    p->compliance = table[material].compliance[0];
    p->shear_compliance = table[material].compliance[1];
    p->bend_compliance = table[material].compliance[2];
    p->tear_limit = table[material].tear_limit;
}

const ParamInfo *params_find(const char *name)
{
    for (int i = 0; i < params_count; i++)
        if (strcmp(params_table[i].name, name) == 0)
            return &params_table[i];
    return NULL;
}

int params_lookup_name(const char *const *names, const char *name)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

const char *params_suggest(const char *name)
{
    const char *names[64];
    int n = 0;
    for (int i = 0; i < params_count && n < 64; i++)
        names[n++] = params_table[i].name;
    return text_suggest(name, names, n);
}

void params_describe_range(const ParamInfo *info, char *out, size_t out_size)
{
    switch (info->type) {
    case PARAM_INT:
        snprintf(out, out_size, T_("%d to %d"), (int)info->min, (int)info->max);
        break;
    case PARAM_REAL:
        snprintf(out, out_size, T_("%g to %g"), info->min, info->max);
        break;
    case PARAM_SEED:
        snprintf(out, out_size, T_("%d to %s"), 0, "18446744073709551615");
        break;
    case PARAM_ENUM: {
        size_t used = 0;
        out[0] = '\0';
        for (int i = 0; info->names[i] && used < out_size; i++)
            used += (size_t)snprintf(out + used, out_size - used, "%s%s", i ? "|" : "", info->names[i]);
        break;
    }
    }
}

void params_format(const Params *params, const ParamInfo *info, char *out, size_t out_size)
{
    const char *base = (const char *)params + info->offset;
    switch (info->type) {
    case PARAM_INT:
        snprintf(out, out_size, "%d", *(const int *)base);
        break;
    case PARAM_REAL: {
        /* short when that is exact, every digit when it is not: the text
         * must read back as the same number */
        double v = *(const double *)base;
        snprintf(out, out_size, "%.9g", v);
        if (strtod(out, NULL) != v)
            snprintf(out, out_size, "%.17g", v);
        break;
    }
    case PARAM_SEED:
        snprintf(out, out_size, "%llu", (unsigned long long)*(const uint64_t *)base);
        break;
    case PARAM_ENUM:
        snprintf(out, out_size, "%s", info->names[*(const int *)base]);
        break;
    }
}

bool params_set(Params *params, const char *key, const char *value, char *err, size_t err_size)
{
    const ParamInfo *info = params_find(key);
    if (!info) {
        const char *near = params_suggest(key);
        if (near)
            snprintf(err, err_size, T_("unknown key '%s'; did you mean '%s'? (clothsim params lists them)"), key, near);
        else
            snprintf(err, err_size, T_("unknown key '%s' (clothsim params lists them)"), key);
        return false;
    }
    char range[160];
    params_describe_range(info, range, sizeof range);
    char *base = (char *)params + info->offset;
    char *end = NULL;
    errno = 0;
    switch (info->type) {
    case PARAM_ENUM: {
        int index = params_lookup_name(info->names, value);
        if (index < 0) {
            int count = 0;
            while (info->names[count])
                count++;
            const char *near = text_suggest(value, info->names, count);
            if (near)
                snprintf(err, err_size, T_("%s: unknown value '%s'; did you mean '%s'? (one of %s)"), key, value, near,
                         range);
            else
                snprintf(err, err_size, T_("%s: unknown value '%s' (one of %s)"), key, value, range);
            return false;
        }
        *(int *)base = index;
        if (info->offset == offsetof(Params, material))
            params_apply_material(params, (Material)index);
        return true;
    }
    case PARAM_INT: {
        long v = strtol(value, &end, 10);
        if (end == value || *end != '\0' || errno == ERANGE || isspace((unsigned char)value[0])) {
            snprintf(err, err_size, T_("%s: '%s' is not a whole number (%s)"), key, value, range);
            return false;
        }
        if (v < (long)info->min || v > (long)info->max) {
            snprintf(err, err_size, T_("%s: %s is out of range (%s)"), key, value, range);
            return false;
        }
        /* cols x rows is bounded as a whole too, so a grid cannot exhaust memory */
        if (info->offset == offsetof(Params, cols) || info->offset == offsetof(Params, rows)) {
            long other = info->offset == offsetof(Params, cols) ? params->rows : params->cols;
            if (v * other > CLOTH_MAX_PARTICLES) {
                snprintf(err, err_size, T_("%s: %s makes %ld particles; the limit is %d (cols x rows)"), key, value,
                         v * other, CLOTH_MAX_PARTICLES);
                return false;
            }
        }
        if (info->offset == offsetof(Params, edge_samples) && v != 0 && v != 3) {
            snprintf(err, err_size, T_("%s: %s is not 0 or 3 (0 = ends only, 3 = also 1/4, 1/2, 3/4 of every link)"),
                     key, value);
            return false;
        }
        *(int *)base = (int)v;
        return true;
    }
    case PARAM_REAL: {
        double v = strtod(value, &end);
        /* strtod also reads hexadecimal (0x10): not a way to write a setting */
        if (end == value || *end != '\0' || !isfinite(v) || isspace((unsigned char)value[0]) || strpbrk(value, "xX")) {
            snprintf(err, err_size, T_("%s: '%s' is not a number (%s%s%s)"), key, value, range,
                     info->unit[0] ? " " : "", info->unit[0] ? T_(info->unit) : "");
            return false;
        }
        if (v < info->min || v > info->max) {
            snprintf(err, err_size, T_("%s: %s is out of range (%s%s%s)"), key, value, range, info->unit[0] ? " " : "",
                     info->unit[0] ? T_(info->unit) : "");
            return false;
        }
        *(double *)base = v;
        return true;
    }
    case PARAM_SEED: {
        if (value[0] == '-' || value[0] == '+' || isspace((unsigned char)value[0])) {
            snprintf(err, err_size, T_("%s: '%s' is not a whole number (%s)"), key, value, range);
            return false;
        }
        unsigned long long v = strtoull(value, &end, 10);
        if (end == value || *end != '\0' || errno == ERANGE) {
            snprintf(err, err_size, T_("%s: '%s' is not a whole number (%s)"), key, value, range);
            return false;
        }
        *(uint64_t *)base = (uint64_t)v;
        return true;
    }
    }
    return false;
}

bool params_assign(Params *params, const char *assignment, char *err, size_t err_size)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment) {
        snprintf(err, err_size, T_("'%s' is not KEY=VALUE"), assignment);
        return false;
    }
    char key[64];
    size_t len = (size_t)(eq - assignment);
    if (len >= sizeof key) {
        snprintf(err, err_size, T_("unknown key '%.40s...'"), assignment);
        return false;
    }
    memcpy(key, assignment, len);
    key[len] = '\0';
    return params_set(params, key, eq + 1, err, err_size);
}
