/* selfcollide.c - self-collision through a spatial hash.
 *
 * Seed 000 §6 lists the options: pair tests are O(n^2); a spatial hash over
 * a grid of cells one thickness wide finds every pair closer than the
 * thickness among the particles of the 27 cells around each particle, in
 * expected O(n) (Teschner et al. 2003, "Optimized spatial hashing for
 * collision detection of deformable objects", whose three primes the hash
 * uses). The table is rebuilt every call by a counting sort: particles of
 * one bucket lie together in one array, in index order, and nothing is
 * allocated. A close pair is pushed apart to the thickness along its
 * separation, shared by inverse mass, like a link that only resists
 * compression. Seed 000 adds that this with more iterations fixes about 90%
 * of visible self-intersection; the rest needs continuous collision
 * detection, which this module does not do. The displacement clamp is its
 * cheap substitute: a particle that moves less than half the thickness per
 * substep cannot pass through a layer unseen.
 *
 * Friction: a pair pushed apart also loses `friction` of its sliding, the
 * part of its relative move over the substep (since px) across the
 * separation, shared by inverse mass, as the colliders' contact takes that
 * fraction of a particle's sliding (collide.c). Without it the layers of a
 * heap slid off one another as if oiled: lowered onto the floor, the silk
 * square of the heap scene spread back into one sheet within 6 s (0 of 900
 * particles above 3 cm, all at 2 cm over 1.57 m), which is not what cloth
 * on cloth does. The solver asks for it in the first push of a substep
 * only, with self_friction (params.h): taking all of it (1, the default)
 * the heap keeps 464 of its 900 particles on cloth at 8 s, within 0.80 m;
 * at 0.3, 322 within 1.09 m (both at 1 cm thick). Particles, not surfaces,
 * touch here: a particle passes between two of another layer unless it
 * meets them, half their distance from each, so a layer slips through the
 * 4 cm holes of another at a 1 cm thickness, and only the pairs that do
 * meet can hold each other. The heap scene is therefore half a spacing
 * thick (2 cm), and its floor grips (friction 1): 610 of 900 a whole
 * thickness over the floor at 8 s.
 */
#include "selfcollide.h"

#include <assert.h>
#include <math.h>
#include <string.h>

struct SelfCollision {
    int count;           /* particles the hash was sized for */
    uint32_t mask;       /* table size - 1; the size is a power of two */
    uint32_t *start;     /* table size + 1: bucket b is entry[start[b] .. start[b+1]) */
    uint32_t *entry;     /* particle indices, grouped by bucket, ascending inside one */
    int32_t *cell[3];    /* each particle's cell when the hash was built */
    uint32_t *bucket_of; /* each particle's bucket */
};

/* Cells are a little wider than the search range so that rounding in
 * x / cell can never put two particles closer than the range more than one
 * cell apart. */
#define CELL_SLACK 1.001f

/* Cell coordinates are clamped to +-CELL_LIMIT so that a far or non-finite
 * coordinate (an exploding cloth) cannot overflow the int conversion; such
 * particles share border cells and are still tested by distance. */
#define CELL_LIMIT 1e6f

SelfCollision *selfcollide_create(const Cloth *cloth)
{
    SelfCollision *sc = calloc(1, sizeof *sc);
    if (!sc)
        return NULL;
    size_t n = (size_t)cloth->count, size = 2;
    while (size < 2 * n)
        size *= 2;
    sc->count = cloth->count;
    sc->mask = (uint32_t)(size - 1);
    sc->start = calloc(size + 1, sizeof *sc->start);
    sc->entry = calloc(n, sizeof *sc->entry);
    sc->bucket_of = calloc(n, sizeof *sc->bucket_of);
    bool ok = sc->start && sc->entry && sc->bucket_of;
    for (int k = 0; k < 3; k++)
        ok &= (sc->cell[k] = calloc(n, sizeof *sc->cell[k])) != NULL;
    if (!ok) {
        selfcollide_destroy(sc);
        return NULL;
    }
    return sc;
}

void selfcollide_destroy(SelfCollision *sc)
{
    if (!sc)
        return;
    free(sc->start), free(sc->entry), free(sc->bucket_of);
    for (int k = 0; k < 3; k++)
        free(sc->cell[k]);
    free(sc);
}

static int32_t cell_coordinate(float position, float inv_cell)
{
    float c = floorf(position * inv_cell);
    if (!(c > -CELL_LIMIT)) /* also NaN */
        c = -CELL_LIMIT;
    if (c > CELL_LIMIT)
        c = CELL_LIMIT;
    return (int32_t)c;
}

static uint32_t cell_bucket(const SelfCollision *sc, int32_t cx, int32_t cy, int32_t cz)
{
    uint32_t h = ((uint32_t)cx * 73856093u) ^ ((uint32_t)cy * 19349663u) ^ ((uint32_t)cz * 83492791u);
    /* the table keeps the low bits only: mix the high ones into them */
    h ^= h >> 16;
    h *= 0x45d9f3bu;
    h ^= h >> 16;
    return h & sc->mask;
}

static void build_hash(SelfCollision *sc, const Cloth *cloth, float cell_size)
{
    assert(cloth->count == sc->count && cell_size > 0.0f);
    float inv_cell = 1.0f / cell_size;
    uint32_t buckets = sc->mask + 1;
    memset(sc->start, 0, (buckets + 1) * sizeof *sc->start);
    const float *position[3] = {cloth->x, cloth->y, cloth->z};
    for (int i = 0; i < sc->count; i++) {
        for (int k = 0; k < 3; k++)
            sc->cell[k][i] = cell_coordinate(position[k][i], inv_cell);
        uint32_t b = cell_bucket(sc, sc->cell[0][i], sc->cell[1][i], sc->cell[2][i]);
        sc->bucket_of[i] = b;
        sc->start[b]++;
    }
    /* counting sort: start[b] first becomes the end of bucket b, then
     * filling from the last particle down leaves it at the bucket's start
     * with every bucket in ascending index order */
    uint32_t sum = 0;
    for (uint32_t b = 0; b < buckets; b++) {
        sum += sc->start[b];
        sc->start[b] = sum;
    }
    sc->start[buckets] = sum;
    for (int i = sc->count - 1; i >= 0; i--)
        sc->entry[--sc->start[sc->bucket_of[i]]] = (uint32_t)i;
}

/* What to do with a close pair: dist2 is their squared distance now. */
typedef void (*PairVisitor)(void *context, int i, int j, float dist2);

/* Calls visit for every non-exempt pair i < j closer than range, i in
 * ascending order, then the 27 cells around i in a fixed order, then the
 * bucket in index order. visit may move particles: distances are read after
 * every earlier correction, cells are those of the build. */
static void visit_pairs(SelfCollision *sc, const Cloth *cloth, float range, PairVisitor visit, void *context)
{
    build_hash(sc, cloth, range * CELL_SLACK);
    float range2 = range * range;
    for (int i = 0; i < sc->count; i++) {
        int32_t ci[3] = {sc->cell[0][i], sc->cell[1][i], sc->cell[2][i]};
        for (int32_t ox = -1; ox <= 1; ox++)
            for (int32_t oy = -1; oy <= 1; oy++)
                for (int32_t oz = -1; oz <= 1; oz++) {
                    int32_t cx = ci[0] + ox, cy = ci[1] + oy, cz = ci[2] + oz;
                    uint32_t b = cell_bucket(sc, cx, cy, cz);
                    for (uint32_t e = sc->start[b]; e < sc->start[b + 1]; e++) {
                        int j = (int)sc->entry[e];
                        /* j's own cell only: a bucket also holds other cells
                         * that hash alike, and a pair must be seen once */
                        if (j <= i || sc->cell[0][j] != cx || sc->cell[1][j] != cy || sc->cell[2][j] != cz)
                            continue;
                        if (selfcollide_exempt(cloth, i, j))
                            continue;
                        float dx = cloth->x[j] - cloth->x[i], dy = cloth->y[j] - cloth->y[i];
                        float dz = cloth->z[j] - cloth->z[i];
                        float dist2 = dx * dx + dy * dy + dz * dz;
                        if (dist2 < range2)
                            visit(context, i, j, dist2);
                    }
                }
    }
}

typedef struct PushContext {
    Cloth *cloth;
    float thickness, friction;
    int corrected;
} PushContext;

static void push_apart(void *context, int i, int j, float dist2)
{
    PushContext *push = context;
    Cloth *c = push->cloth;
    float wi = c->inv_mass[i], wj = c->inv_mass[j];
    if (wi + wj == 0.0f || dist2 <= 0.0f)
        return;
    float dist = sqrtf(dist2);
    float nx = (c->x[j] - c->x[i]) / dist, ny = (c->y[j] - c->y[i]) / dist, nz = (c->z[j] - c->z[i]) / dist;
    float step = (push->thickness - dist) / (wi + wj);
    c->x[i] -= wi * step * nx, c->y[i] -= wi * step * ny, c->z[i] -= wi * step * nz;
    c->x[j] += wj * step * nx, c->y[j] += wj * step * ny, c->z[j] += wj * step * nz;
    push->corrected++;
    if (push->friction > 0.0f) {
        /* j's move over the substep relative to i's, less its part along n */
        float sx = (c->x[j] - c->px[j]) - (c->x[i] - c->px[i]), sy = (c->y[j] - c->py[j]) - (c->y[i] - c->py[i]);
        float sz = (c->z[j] - c->pz[j]) - (c->z[i] - c->pz[i]);
        float along = sx * nx + sy * ny + sz * nz;
        float share = push->friction / (wi + wj);
        float tx = (sx - along * nx) * share, ty = (sy - along * ny) * share, tz = (sz - along * nz) * share;
        c->x[i] += wi * tx, c->y[i] += wi * ty, c->z[i] += wi * tz;
        c->x[j] -= wj * tx, c->y[j] -= wj * ty, c->z[j] -= wj * tz;
    }
}

int selfcollide_apply(SelfCollision *sc, Cloth *cloth, float thickness, float friction)
{
    PushContext push = {cloth, thickness, friction, 0};
    visit_pairs(sc, cloth, thickness, push_apart, &push);
    return push.corrected;
}

typedef struct ListContext {
    uint32_t (*pairs)[2];
    int capacity;
    int found;
} ListContext;

static void list_pair(void *context, int i, int j, float dist2)
{
    (void)dist2;
    ListContext *list = context;
    if (list->found < list->capacity) {
        list->pairs[list->found][0] = (uint32_t)i;
        list->pairs[list->found][1] = (uint32_t)j;
    }
    list->found++;
}

int selfcollide_find_pairs(SelfCollision *sc, const Cloth *cloth, float thickness, uint32_t (*pairs)[2], int capacity)
{
    assert(capacity == 0 || pairs);
    ListContext list = {pairs, capacity, 0};
    visit_pairs(sc, cloth, thickness, list_pair, &list);
    return list.found;
}

static void keep_closest(void *context, int i, int j, float dist2)
{
    (void)i, (void)j;
    float *closest2 = context;
    if (dist2 < *closest2)
        *closest2 = dist2;
}

float selfcollide_min_distance(SelfCollision *sc, const Cloth *cloth, float range)
{
    float closest2 = range * range;
    visit_pairs(sc, cloth, range, keep_closest, &closest2);
    return closest2 < range * range ? sqrtf(closest2) : range;
}

void selfcollide_clamp_displacement(Cloth *cloth, float max_step)
{
    for (int i = 0; i < cloth->count; i++) {
        if (cloth->inv_mass[i] == 0.0f)
            continue; /* moved by kinematics: the hand or the scene decides */
        float dx = cloth->x[i] - cloth->px[i], dy = cloth->y[i] - cloth->py[i], dz = cloth->z[i] - cloth->pz[i];
        float d2 = dx * dx + dy * dy + dz * dz;
        if (d2 <= max_step * max_step)
            continue;
        float scale = max_step / sqrtf(d2);
        cloth->x[i] = cloth->px[i] + dx * scale;
        cloth->y[i] = cloth->py[i] + dy * scale;
        cloth->z[i] = cloth->pz[i] + dz * scale;
        /* the remainders' part of the move, cut short alike */
        cloth->rx[i] = cloth->prx[i] + (cloth->rx[i] - cloth->prx[i]) * scale;
        cloth->ry[i] = cloth->pry[i] + (cloth->ry[i] - cloth->pry[i]) * scale;
        cloth->rz[i] = cloth->prz[i] + (cloth->rz[i] - cloth->prz[i]) * scale;
    }
}
