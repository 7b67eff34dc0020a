/* params.h - every setting of a simulation, under one vocabulary.
 *
 * A key has one name everywhere: on the command line (--set iterations=20), in
 * lesson scripts, on screen, in the CSV and in this struct. The table in
 * params.c is the single place that lists the keys with their type, range,
 * default and meaning; `clothsim params` prints it.
 *
 * Units are SI (metres, seconds, kilograms), y up.
 */
#ifndef CLOTHSIM_PARAMS_H
#define CLOTHSIM_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum SceneKind {
    SCENE_CURTAIN, /* 30 x 24 from a crossbar, wind, a moving sphere (seed 001) */
    SCENE_FLAG,    /* held along one edge in strong gusty wind */
    SCENE_CHAIN,   /* a 2D rope between two pins: the catenary (seed 004) */
    SCENE_NET,     /* a 2D grid hung from its top corners (seed 002) */
    SCENE_DRAPE,   /* a 2 m square of 40 x 40 falling onto a box (seed 003) */
    SCENE_TEAR,    /* held by two opposite edges that move apart until it tears */
    SCENE_HEAP,    /* hung from its centre, lowered to the floor: a heap (self-collision) */
    SCENE_COUNT
} SceneKind;

typedef enum Integrator {
    INTEGRATOR_EULER,      /* explicit Euler, Hooke springs with damping */
    INTEGRATOR_SYMPLECTIC, /* semi-implicit Euler, the same springs */
    INTEGRATOR_VERLET,     /* Stormer-Verlet on positions, the same springs */
    INTEGRATOR_JAKOBSEN,   /* Verlet + Gauss-Seidel relaxation (Jakobsen 2001) */
    INTEGRATOR_PBD,        /* position-based dynamics (Mueller et al. 2007) */
    INTEGRATOR_XPBD,       /* compliant PBD (Macklin et al. 2016) */
    INTEGRATOR_IMPLICIT,   /* backward Euler on the springs, one linear solve a substep (Baraff and Witkin 1998) */
    INTEGRATOR_COUNT
} Integrator;

typedef enum PinMode { PIN_TOP, PIN_CORNERS, PIN_LEFT, PIN_ENDS, PIN_SIDES, PIN_CENTRE, PIN_NONE, PIN_COUNT } PinMode;

/* ORDER_COLORED: colour by colour (colour.h), the order whose passes the fast
 * path runs group by group, vectors at a time. */
typedef enum LinkOrder { ORDER_SEQUENTIAL, ORDER_SHUFFLED, ORDER_JACOBI, ORDER_COLORED, ORDER_COUNT } LinkOrder;

typedef enum ColliderKind { COLLIDER_NONE, COLLIDER_SPHERE, COLLIDER_BOX, COLLIDER_CONE, COLLIDER_COUNT } ColliderKind;

/* Materials (source document 003, README "Sources"): each sets density, the three link
 * stiffnesses, spring_k, the three compliances and the tear limit. */
typedef enum Material { MATERIAL_SILK, MATERIAL_COTTON, MATERIAL_CANVAS, MATERIAL_RUBBER, MATERIAL_COUNT } Material;

typedef enum TearMode {
    TEAR_OFF,
    TEAR_NAIVE,      /* a link breaks the first step it is over its limit */
    TEAR_HYSTERESIS, /* only after tear_hold consecutive steps over it */
    TEAR_COUNT
} TearMode;

typedef struct Params {
    /* the scene */
    int scene;      /* SceneKind */
    int dim;        /* 2: everything stays in the z = 0 plane; 3 */
    int cols, rows; /* particles per row, rows */
    double spacing; /* rest distance between neighbours, m */
    double density; /* cloth mass per area, kg/m^2 */
    int pin;        /* PinMode */
    double span;    /* chain: distance between the pins / rope length, (0,1) */

    /* the solver */
    int integrator;      /* Integrator */
    double dt;           /* time step, s */
    int substeps;        /* substeps per step */
    int iterations;      /* relaxation passes per substep */
    int order;           /* LinkOrder */
    int threads;         /* threads the solver may run on: 0 = the cores other programs leave idle */
    double strain_limit; /* Provot: max stretch over rest, 0 = off */
    double stiffness;    /* structural link stiffness, [0,1] */
    double shear_stiffness;
    double bend_stiffness;
    double spring_k;       /* Hooke constant at stiffness 1, N/m (springs) */
    double spring_damping; /* damping ratio of a link's dashpot (springs) */
    double cg_tolerance;   /* implicit: the solve stops at this residual over the right-hand side */
    int cg_max_iterations; /* implicit: and after this many conjugate-gradient iterations */
    double compliance;     /* xpbd structural compliance: strain per newton, 1/N */
    double shear_compliance;
    double bend_compliance;
    double damping; /* velocity decays as exp(-damping * t), 1/s */

    /* forces */
    double gravity;    /* m/s^2, pulls towards -y */
    double wind_x;     /* m/s */
    double wind_z;     /* m/s */
    double turbulence; /* amplitude of the gusts, m/s */
    uint64_t seed;     /* seeds the turbulence and the shuffled order */

    /* the collider */
    int collider;                        /* ColliderKind */
    double sphere_radius;                /* m */
    double sphere_x, sphere_y, sphere_z; /* centre at rest, m */
    double sphere_travel;                /* amplitude of its back-and-forth along z, m */
    double sphere_period;                /* s */
    double box_size;                     /* edge of the cube, m */
    double box_x, box_y, box_z;          /* its centre, m */
    double cone_radius;                  /* radius of its base, m */
    double cone_height;                  /* m */
    double cone_x, cone_y, cone_z;       /* centre of its base, m */
    int floor;                           /* 0 off, 1 on */
    double floor_y;                      /* height of the floor, m */
    double margin;                       /* collision skin, m */
    double friction;                     /* fraction of sliding removed on contact, [0,1] */
    double restitution;                  /* bounce off the floor, [0,1] */
    int edge_samples;                    /* 0, or 3: also test 1/4, 1/2, 3/4 of every link */
    int self_collision;                  /* 0 off, 1 on */
    double thickness;                    /* cloth thickness for self-collision, m */
    double self_friction;                /* fraction of sliding two layers in contact take away, [0,1] */

    /* material and damage */
    int material;      /* Material: sets the values below it names */
    int tear;          /* TearMode */
    int tear_hold;     /* steps over the limit before a link breaks */
    double tear_limit; /* strain at which a link starts to tear */
    double pull_speed; /* tear: speed of each held edge; heap: of the held centre, m/s */
} Params;

typedef enum ParamType { PARAM_INT, PARAM_REAL, PARAM_ENUM, PARAM_SEED } ParamType;

/* How a change to the key takes effect in a running simulation. */
typedef enum ParamEffect {
    EFFECT_LIVE,    /* read every step: changes at once */
    EFFECT_REBUILD, /* shapes the cloth: takes effect on reset */
} ParamEffect;

typedef struct ParamInfo {
    const char *name;
    ParamType type;
    size_t offset;            /* into Params */
    double min, max;          /* for PARAM_INT and PARAM_REAL, inclusive */
    const char *const *names; /* for PARAM_ENUM: NULL-terminated value names */
    const char *unit;         /* "" when unitless */
    ParamEffect effect;
    const char *help; /* one line */
} ParamInfo;

/* The key table, in the order `clothsim params` lists it. */
extern const ParamInfo params_table[];
extern const int params_count;

extern const char *const scene_names[];      /* indexed by SceneKind, NULL-terminated */
extern const char *const scene_summaries[];  /* one line each */
extern const char *const integrator_names[]; /* indexed by Integrator */
extern const char *const pin_names[];
extern const char *const order_names[];
extern const char *const collider_names[];
extern const char *const material_names[];
extern const char *const tear_names[];
extern const char *const switch_names[]; /* "off", "on" */

/* Sets the fields a material stands for: density, stiffnesses, spring_k,
 * compliances, tear_limit. */
void params_apply_material(Params *params, Material material);

/* Fills every field with the defaults of the given scene. */
void params_default(Params *params, SceneKind scene);

/* Looks a key up by its exact name; NULL if unknown. */
const ParamInfo *params_find(const char *name);

/* The known key nearest to name, or NULL if none is close (text_suggest). */
const char *params_suggest(const char *name);

/* Sets key to the text value. On success returns true. On a bad key or value
 * returns false and writes one line (no newline) naming the culprit and what
 * is accepted into err. */
bool params_set(Params *params, const char *key, const char *value, char *err, size_t err_size);

/* Parses "key=value" and sets it, as params_set. */
bool params_assign(Params *params, const char *assignment, char *err, size_t err_size);

/* Writes the value of info in params as text ("12", "0.016666667", "verlet"). */
void params_format(const Params *params, const ParamInfo *info, char *out, size_t out_size);

/* The range or accepted names of info as text ("1 to 500", "euler|verlet|..."). */
void params_describe_range(const ParamInfo *info, char *out, size_t out_size);

/* Index of name in a NULL-terminated list, or -1. */
int params_lookup_name(const char *const *names, const char *name);

#define CLOTHSIM_PI 3.14159265358979323846

/* The substep length dt / substeps, s. */
static inline double params_substep(const Params *params)
{
    return params->dt / params->substeps;
}

#endif
