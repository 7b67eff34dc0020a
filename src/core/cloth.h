/* cloth.h - the cloth: a grid of point masses joined by links.
 *
 * Particles are stored as structure-of-arrays (x[], y[], z[] ...) because the
 * solver reads them in order in its hot loop. Links are index pairs with a rest
 * length, a family and a state. Triangles (two per grid cell) carry the wind
 * and are what the renderer fills.
 *
 * Units: metres, kilograms, seconds; y points up.
 * Particle i sits at grid column i % cols, row i / cols (row 0 at the top).
 */
#ifndef CLOTHSIM_CLOTH_H
#define CLOTHSIM_CLOTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The three link families of every source document (README, "Sources"). */
typedef enum LinkFamily {
    LINK_STRUCTURAL = 0, /* horizontal and vertical neighbours: stretch */
    LINK_SHEAR = 1,      /* both diagonals of a cell: shear */
    LINK_BEND = 2,       /* skip one node, along rows and columns: bending */
    LINK_FAMILY_COUNT
} LinkFamily;

typedef struct Cloth {
    int cols, rows; /* grid size, particles per row and number of rows */
    int count;      /* cols * rows */

    /* Particle state. x/y/z: position (m). px/py/pz: position at the start of
     * the current substep (m); Verlet reads its implied velocity from them.
     * vx/vy/vz: velocity (m/s). Every integrator leaves all three consistent
     * at the end of a substep. */
    float *x, *y, *z;
    float *px, *py, *pz;
    float *vx, *vy, *vz;
    /* What float32 rounds off: the position is x + rx (and so on), the
     * previous position px + prx, the velocity vx + rvx, each remainder
     * about half a unit in the last place of its float or less. The integrators add
     * their steps in double and keep the remainder (solver_integrate_range),
     * so that a step of g h^2 far below a float's resolution (at h = 1e-5,
     * a ten-thousandth of one at 1 m) still adds up; every other stage moves
     * x alone and leaves the remainder as it was, which changes the
     * position by less than float32 resolves. Whatever sets a previous
     * position sets its remainder to match (cloth_pin, the solver's). */
    double *rx, *ry, *rz; /* double: a position's velocity lives in its differences, and a remainder rounded
                             to float would feed its rounding back step after step */
    double *prx, *pry, *prz;
    float *rvx, *rvy, *rvz;
    float *mass;     /* lumped mass (kg), never 0 */
    float *inv_mass; /* 1/mass, or 0 for a pinned or grabbed particle */
    uint8_t *pinned; /* 1 where the scene or the user pinned it */

    /* Links. */
    int link_count;
    uint32_t *link_a, *link_b; /* particle indices */
    float *rest_length;        /* m */
    uint8_t *family;           /* LinkFamily */
    uint8_t *torn;             /* 1 once the link has broken */
    uint16_t *over_limit;      /* consecutive steps over its tear limit */
    unsigned torn_generation;  /* goes up whenever torn changes (cloth_tear_link, cloth_copy): tear links only
                                  through those, so that the solver's fast path sees it */

    /* Triangles: two per grid cell, three particle indices each, wound so
     * that the normal (b-a) x (c-a) points to +z for a flat cloth in the
     * z = 0 plane seen from +z. */
    int triangle_count;
    uint32_t (*triangle)[3];
    uint8_t *triangle_torn; /* 1 once any of its edges has torn: no wind, not drawn */
} Cloth;

/* Largest grid accepted: bounded so that a typo cannot exhaust memory. */
#define CLOTH_MAX_SIDE 1000
#define CLOTH_MAX_PARTICLES 250000

/* Allocates a cols x rows cloth with its structural, shear and bend links and
 * its triangles. Positions are zero; the caller (a scene) places the particles
 * and sets rest lengths and masses. Returns NULL when out of memory or when
 * the size is outside 1..CLOTH_MAX_SIDE or above CLOTH_MAX_PARTICLES.
 * Free with cloth_destroy. */
Cloth *cloth_create(int cols, int rows);
void cloth_destroy(Cloth *cloth);

/* Copies every array of src into dst, which must have the same grid size. */
void cloth_copy(Cloth *dst, const Cloth *src);

static inline int cloth_index(const Cloth *cloth, int col, int row)
{
    return row * cloth->cols + col;
}

/* Particle i's position and velocity to the precision the solver keeps (the
 * float and its remainder). */
static inline void cloth_position(const Cloth *c, int i, double p[3])
{
    p[0] = (double)c->x[i] + c->rx[i], p[1] = (double)c->y[i] + c->ry[i], p[2] = (double)c->z[i] + c->rz[i];
}
static inline void cloth_velocity(const Cloth *c, int i, double v[3])
{
    v[0] = (double)c->vx[i] + c->rvx[i], v[1] = (double)c->vy[i] + c->rvy[i], v[2] = (double)c->vz[i] + c->rvz[i];
}

/* Lumped masses: density (kg/m^2) times the area each particle stands for:
 * a quarter cell at a corner, half at an edge, a whole cell inside
 * (source document 004, README "Sources"). A one-row cloth (a rope) is a ribbon one spacing
 * wide. Keeps pinned particles pinned. */
void cloth_set_lumped_mass(Cloth *cloth, float density, float spacing);

/* Rest length of every link from the current positions. */
void cloth_set_rest_from_positions(Cloth *cloth);

/* Pin (inverse mass 0, velocity 0) or release one particle. */
void cloth_pin(Cloth *cloth, int i, bool pinned);

/* Index of a link from its place in the grid (see cloth_create for the
 * order): the structural link right of / below (col, row), the shear link
 * of the cell whose top-left is (col, row) (which 0: top-left to
 * bottom-right, 1: top-right to bottom-left), the bend link skipping one node
 * right of / below (col, row). */
/* `bytes` zeroed, starting on a cache line (64 bytes) and rounded up to
 * whole lines (at least one); NULL when out of memory. Free with free().
 * The particle arrays are made so: the fast path's vectors of 16 then
 * cross one line boundary where they would cross two (about 7 % of a
 * pass); its own buffers too. */
void *cloth_zeroed(size_t bytes);

int cloth_link_right(const Cloth *cloth, int col, int row);
int cloth_link_below(const Cloth *cloth, int col, int row);
int cloth_link_shear(const Cloth *cloth, int col, int row, int which);
int cloth_link_bend_right(const Cloth *cloth, int col, int row);
int cloth_link_bend_below(const Cloth *cloth, int col, int row);

/* Marks link l torn, with the bend links that span it and the triangles
 * that use it. Returns true if it was intact. */
bool cloth_tear_link(Cloth *cloth, int l);

/* Length of link l now (m), and its strain length/rest - 1. */
float cloth_link_length(const Cloth *cloth, int l);
float cloth_link_strain(const Cloth *cloth, int l);

#endif
