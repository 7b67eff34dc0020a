/* springs.c - the springs direction by direction (springs.h).
 *
 * The order a particle collects its pulls in
 * ------------------------------------------
 * cloth_create lists the right links row by row, then the down links, then
 * each cell's two diagonals (top left to bottom right first, then top
 * right to bottom left), then the links skipping one particle to the right,
 * then those skipping one down. The plain loop adds a link's pull to its
 * first particle and takes it from its second, link after link, so a
 * particle p at (col, row) sees, in this order:
 *
 *   right:        - the link from p - 1,        + the link from p
 *   down:         - the link from p - cols,     + the link from p
 *   diagonals:    - the down-right one from p - cols - 1,
 *                 - the down-left one from p - cols + 1,
 *                 + the down-left one from p,   + the down-right one from p
 *   skip right:   - the link from p - 2,        + the link from p
 *   skip down:    - the link from p - 2 cols,   + the link from p
 *
 * (a down-left diagonal starts at the top right corner of its cell). Every
 * direction's arrays are keyed by a link's first particle; where no link
 * starts (the last column for a right link, a particle above the cloth for
 * p - 2 cols, ...) the entry says "no pull", and the particle keeps its sum
 * as the plain loop's `continue` does. Before the first particle each array
 * has 2 cols entries of "no pull", so that p - 2 cols can be read for any p.
 *
 * A sum keeps its value where a link does not pull through a select, not
 * by adding zero: x + 0 is not x when x is -0.
 */
#include "springs.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "level.h"

/* As in integrate.c: GCC on x86-64 builds these loops for AVX2 and for any
 * x86-64 (core/level.h), and each call runs the build of the level chosen
 * at start (AVX2's at avx512 too). Every lane does the
 * scalar loop's operations (no fused multiply-add, -std=c17 keeps the
 * compiler from contracting): the same bits whichever runs. Built with
 * -fno-math-errno (Makefile) so that the square root vectorises: a sum of
 * squares is never negative. */

enum { RIGHT, DOWN, DOWN_RIGHT, DOWN_LEFT, SKIP_RIGHT, SKIP_DOWN, DIRECTIONS };

typedef struct Direction {
    int offset;                      /* second particle minus first */
    float k;                         /* the spring constant of every link of the direction */
    bool any;                        /* some link of the direction pulls (not torn, a constant) */
    float *dashpot;                  /* per first particle: the link's dashpot coefficient, */
    float *rest;                     /* its rest length, */
    uint32_t *live;                  /* all ones where a link starts that is not torn and has a constant */
    float *pull_x, *pull_y, *pull_z; /* this substep: its pull on the first particle, */
    uint32_t *on;                    /* and all ones where it pulls (live, and of some length) */
} Direction;

struct Springs {
    int cols, rows, count, pad;
    bool stale; /* the constants must be taken again */
    bool grid;  /* the links are cloth_create's, in its order */
    unsigned torn_generation;
    Direction dir[DIRECTIONS];
    void *block;
};

Springs *springs_create(const Cloth *cloth)
{
    Springs *sp = calloc(1, sizeof *sp);
    if (!sp)
        return NULL;
    sp->cols = cloth->cols, sp->rows = cloth->rows, sp->count = cloth->count;
    sp->pad = 2 * cloth->cols;
    size_t length = (size_t)sp->pad + (size_t)sp->count;
    enum { ARRAYS = 7 };
    float *block = calloc((size_t)DIRECTIONS * ARRAYS * length, sizeof(float));
    if (!block) {
        free(sp);
        return NULL;
    }
    _Static_assert(sizeof(float) == sizeof(uint32_t), "one block holds both");
    sp->block = block;
    const int offsets[DIRECTIONS] = {
        [RIGHT] = 1,      [DOWN] = cloth->cols,          [DOWN_RIGHT] = cloth->cols + 1, [DOWN_LEFT] = cloth->cols - 1,
        [SKIP_RIGHT] = 2, [SKIP_DOWN] = 2 * cloth->cols,
    };
    for (int d = 0; d < DIRECTIONS; d++) {
        Direction *dir = &sp->dir[d];
        float *at = block + (size_t)d * ARRAYS * length + sp->pad;
        dir->offset = offsets[d];
        dir->dashpot = at;
        dir->rest = at + length;
        dir->live = (uint32_t *)(void *)(at + 2 * length);
        dir->pull_x = at + 3 * length;
        dir->pull_y = at + 4 * length;
        dir->pull_z = at + 5 * length;
        dir->on = (uint32_t *)(void *)(at + 6 * length);
    }
    sp->stale = true;
    return sp;
}

void springs_destroy(Springs *sp)
{
    if (!sp)
        return;
    free(sp->block);
    free(sp);
}

void springs_stale(Springs *sp)
{
    sp->stale = true;
}

/* Which direction link l is and where cloth_create lists that link: -1 if
 * it is none of the six. */
static int direction_of(const Cloth *c, int l, int *listed)
{
    int a = (int)c->link_a[l], b = (int)c->link_b[l], cols = c->cols, rows = c->rows;
    int col = a % cols, row = a / cols;
    switch (c->family[l]) {
    case LINK_STRUCTURAL:
        if (b == a + 1 && col + 1 < cols)
            return *listed = cloth_link_right(c, col, row), RIGHT;
        if (b == a + cols && row + 1 < rows)
            return *listed = cloth_link_below(c, col, row), DOWN;
        return -1;
    case LINK_SHEAR:
        if (b == a + cols + 1 && col + 1 < cols && row + 1 < rows)
            return *listed = cloth_link_shear(c, col, row, 0), DOWN_RIGHT;
        if (b == a + cols - 1 && col >= 1 && row + 1 < rows)
            return *listed = cloth_link_shear(c, col - 1, row, 1), DOWN_LEFT;
        return -1;
    case LINK_BEND:
        if (b == a + 2 && col + 2 < cols)
            return *listed = cloth_link_bend_right(c, col, row), SKIP_RIGHT;
        if (b == a + 2 * cols && row + 2 < rows)
            return *listed = cloth_link_bend_below(c, col, row), SKIP_DOWN;
        return -1;
    default:
        return -1;
    }
}

/* The links' constants, rest lengths and torn marks into the directions'
 * arrays; grid false if a link is not where cloth_create puts it, or a
 * direction's links do not share one constant. */
static void refresh(Springs *sp, const Cloth *c, const float *link_k, const float *link_dashpot)
{
    sp->stale = false;
    sp->torn_generation = c->torn_generation;
    sp->grid = false;
    size_t length = (size_t)sp->pad + (size_t)sp->count;
    bool k_set[DIRECTIONS] = {false};
    for (int d = 0; d < DIRECTIONS; d++) {
        Direction *dir = &sp->dir[d];
        memset(dir->dashpot - sp->pad, 0, length * sizeof(float));
        memset(dir->rest - sp->pad, 0, length * sizeof(float));
        memset(dir->live - sp->pad, 0, length * sizeof(uint32_t));
        memset(dir->on - sp->pad, 0, length * sizeof(uint32_t));
        dir->k = 0.0f;
        dir->any = false;
    }
    if (c->cols != sp->cols || c->rows != sp->rows || c->count != sp->count)
        return;
    for (int l = 0; l < c->link_count; l++) {
        int listed = -1, d = direction_of(c, l, &listed);
        if (d < 0 || listed != l)
            return;
        Direction *dir = &sp->dir[d];
        if (!k_set[d])
            dir->k = link_k[l], k_set[d] = true;
        else if (memcmp(&dir->k, &link_k[l], sizeof dir->k) != 0)
            return;
        uint32_t a = c->link_a[l];
        bool live = c->torn[l] == 0 && link_k[l] > 0.0f;
        dir->dashpot[a] = link_dashpot[l];
        dir->rest[a] = c->rest_length[l];
        dir->live[a] = live ? UINT32_MAX : 0;
        dir->any |= live;
    }
    sp->grid = true;
}

/* a where mask is all ones, b where it is 0 (a select the vectoriser takes) */
static inline float pick(uint32_t mask, float a, float b)
{
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    uint32_t u = (ua & mask) | (ub & ~mask);
    float out;
    memcpy(&out, &u, sizeof out);
    return out;
}

typedef struct Positions {
    const float *restrict x, *restrict y, *restrict z, *restrict vx, *restrict vy, *restrict vz;
} Positions;

/* The pulls of one direction's links, the plain loop's arithmetic
 * (forces.c, spring_links) with its second particle `offset` further on:
 * for every first particle a with a + offset on the cloth. */
LEVEL_BODY static void direction_pulls_body(Positions p, float k, const float *restrict dashpot,
                                            const float *restrict rest, const uint32_t *restrict live, int offset,
                                            int firsts, float *restrict pull_x, float *restrict pull_y,
                                            float *restrict pull_z, uint32_t *restrict on)
{
    for (int a = 0; a < firsts; a++) {
        int b = a + offset;
        float dx = p.x[b] - p.x[a], dy = p.y[b] - p.y[a], dz = p.z[b] - p.z[a];
        float length = sqrtf(dx * dx + dy * dy + dz * dz);
        float nx = dx / length, ny = dy / length, nz = dz / length;
        float closing = (p.vx[b] - p.vx[a]) * nx + (p.vy[b] - p.vy[a]) * ny + (p.vz[b] - p.vz[a]) * nz;
        float tension = k * (length - rest[a]) + dashpot[a] * closing;
        pull_x[a] = tension * nx, pull_y[a] = tension * ny, pull_z[a] = tension * nz;
        on[a] = live[a] & -(uint32_t) !(length < 1e-12f);
    }
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_SPRINGS, direction_pulls,
                 (Positions p, float k, const float *restrict dashpot, const float *restrict rest,
                  const uint32_t *restrict live, int offset, int firsts, float *restrict pull_x, float *restrict pull_y,
                  float *restrict pull_z, uint32_t *restrict on),
                 (p, k, dashpot, rest, live, offset, firsts, pull_x, pull_y, pull_z, on))

/* One coordinate of every direction's pulls and where they pull, as the
 * particles collect them. */
typedef struct Pulls {
    const float *restrict pull[DIRECTIONS];
    const uint32_t *restrict on[DIRECTIONS];
} Pulls;

/* Every particle's sum f, plus and minus its links' pulls in the listed
 * order (above), in one sweep. A direction none of whose links pulls has
 * "no pull" everywhere and changes nothing. */
LEVEL_BODY static void collect_body(float *restrict f, Pulls p, int cols, int count)
{
    for (int i = 0; i < count; i++) {
        float sum = f[i];
        int from = i - 1;
        sum = pick(p.on[RIGHT][from], sum - p.pull[RIGHT][from], sum);
        sum = pick(p.on[RIGHT][i], sum + p.pull[RIGHT][i], sum);
        from = i - cols;
        sum = pick(p.on[DOWN][from], sum - p.pull[DOWN][from], sum);
        sum = pick(p.on[DOWN][i], sum + p.pull[DOWN][i], sum);
        from = i - cols - 1;
        sum = pick(p.on[DOWN_RIGHT][from], sum - p.pull[DOWN_RIGHT][from], sum);
        from = i - cols + 1;
        sum = pick(p.on[DOWN_LEFT][from], sum - p.pull[DOWN_LEFT][from], sum);
        sum = pick(p.on[DOWN_LEFT][i], sum + p.pull[DOWN_LEFT][i], sum);
        sum = pick(p.on[DOWN_RIGHT][i], sum + p.pull[DOWN_RIGHT][i], sum);
        from = i - 2;
        sum = pick(p.on[SKIP_RIGHT][from], sum - p.pull[SKIP_RIGHT][from], sum);
        sum = pick(p.on[SKIP_RIGHT][i], sum + p.pull[SKIP_RIGHT][i], sum);
        from = i - 2 * cols;
        sum = pick(p.on[SKIP_DOWN][from], sum - p.pull[SKIP_DOWN][from], sum);
        sum = pick(p.on[SKIP_DOWN][i], sum + p.pull[SKIP_DOWN][i], sum);
        f[i] = sum;
    }
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_SPRINGS, collect, (float *restrict f, Pulls p, int cols, int count), (f, p, cols, count))

bool springs_add(Springs *sp, const Cloth *c, const float *link_k, const float *link_dashpot, float *fx, float *fy,
                 float *fz)
{
    if (sp->stale || sp->torn_generation != c->torn_generation)
        refresh(sp, c, link_k, link_dashpot);
    if (!sp->grid)
        return false;
    const Positions p = {c->x, c->y, c->z, c->vx, c->vy, c->vz};
    const int n = c->count;
    /* a direction none of whose links pulls is not worked out: refresh
     * left it saying "no pull" everywhere */
    for (int d = 0; d < DIRECTIONS; d++) {
        Direction *dir = &sp->dir[d];
        if (dir->any && dir->offset < n)
            direction_pulls(p, dir->k, dir->dashpot, dir->rest, dir->live, dir->offset, n - dir->offset, dir->pull_x,
                            dir->pull_y, dir->pull_z, dir->on);
    }
    float *f[3] = {fx, fy, fz};
    for (int k = 0; k < 3; k++) {
        Pulls pulls;
        for (int d = 0; d < DIRECTIONS; d++) {
            const Direction *dir = &sp->dir[d];
            pulls.pull[d] = k == 0 ? dir->pull_x : k == 1 ? dir->pull_y : dir->pull_z;
            pulls.on[d] = dir->on;
        }
        collect(f[k], pulls, c->cols, n);
    }
    return true;
}
