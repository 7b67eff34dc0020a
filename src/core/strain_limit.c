/* strain_limit.c - Provot's strain limit, eight rows or columns at a time
 * (strain_limit.h).
 *
 * The particles are copied for the substep into two layouts padded to
 * whole groups of eight rows and columns: row by row, and column by
 * column. A pass is two phases. The right links work column by column: a
 * vector holds one column of eight rows, and each step is one link of each
 * of those rows, the step after it the next link along. The down links
 * work row by row: a vector holds eight columns of one row. Between the
 * phases the particles are turned from one layout into the other eight by
 * eight (a transpose of six arrays, cheaper than gathering each step's
 * particles). A step's two particles are written back at once, so the next step of a row (or
 * column) reads its shared particle as this one left it, as the plain loop
 * does. Several groups of eight go side by side so that one's square root
 * and divisions wait while another's run.
 *
 * Each lane does the plain loop's operations in its order: the same square
 * root, divisions and products (no fused multiply-add: this file asks for
 * AVX2 only). A lane whose link is torn, has both particles fixed, or is
 * within the limit computes and then keeps its old values through a
 * select, as the plain loop's `continue`; lanes past the last row or
 * column do the same. The plain loop skips a link it found within the
 * limit whose particles have not moved since; measured again it is still
 * within (the same numbers), so measuring every link changes nothing.
 */
#include "strain_limit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "level.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define STRAIN_LIMIT_X86 1
#include <immintrin.h>
#define AVX2 __attribute__((target("avx2")))
#define AVX2_INLINE static inline __attribute__((target("avx2"), always_inline))
#else
#define STRAIN_LIMIT_X86 0
#endif

#define LANES 8
/* Groups of eight rows (or columns) worked on side by side. */
#define SIDE_BY_SIDE 4

/* The cloth's particles laid out for one phase, both padded to whole
 * groups of eight rows and columns: by rows, [row * cols_pad + col], for
 * the down links; by columns, [col * rows_pad + row], for the right links.
 * Past the cloth's last row or column no link is live and no particle
 * moves. */
typedef struct Layout {
    float *six[6]; /* x, y, z and the moves' sums jx, jy, jz */
    float *inv_mass;
    float *rest;    /* the phase's link from each particle: its rest length, */
    uint32_t *live; /* all ones where it is there and not torn */
} Layout;

struct StrainLimit {
    int cols, rows, rows_pad, cols_pad;
    bool grid; /* the structural links are cloth_create's, in its order */
    Layout by_rows, by_columns;
    void *block;
};

static int round_up(int n)
{
    return (n + LANES - 1) / LANES * LANES;
}

/* Whether the structural links are cloth_create's: right links row by row,
 * then down links row by row, and no other structural link after them. */
static bool grid_links(const Cloth *c)
{
    int right = c->rows * (c->cols - 1), structural = right + c->cols * (c->rows - 1);
    if (c->link_count < structural)
        return false;
    for (int l = 0; l < c->link_count; l++) {
        bool is_structural = c->family[l] == LINK_STRUCTURAL;
        if (l >= structural) {
            if (is_structural)
                return false;
            continue;
        }
        int a, b;
        if (l < right) {
            int row = l / (c->cols - 1), col = l % (c->cols - 1);
            a = row * c->cols + col, b = a + 1;
        } else {
            a = l - right, b = a + c->cols;
        }
        if (!is_structural || c->link_a[l] != (uint32_t)a || c->link_b[l] != (uint32_t)b)
            return false;
    }
    return true;
}

StrainLimit *strain_limit_create(const Cloth *cloth)
{
    StrainLimit *sl = calloc(1, sizeof *sl);
    if (!sl)
        return NULL;
    sl->cols = cloth->cols, sl->rows = cloth->rows;
    sl->rows_pad = round_up(cloth->rows), sl->cols_pad = round_up(cloth->cols);
    size_t size = (size_t)sl->rows_pad * (size_t)sl->cols_pad;
    /* every array starts on a 32-byte line: whole vectors never split */
    size_t bytes = 2 * 9 * size * sizeof(float);
    float *block = aligned_alloc(64, bytes);
    if (!block) {
        free(sl);
        return NULL;
    }
    memset(block, 0, bytes);
    sl->block = block;
    Layout *layouts[2] = {&sl->by_rows, &sl->by_columns};
    for (int k = 0; k < 2; k++) {
        float *at = block + (size_t)k * 9 * size;
        for (int n = 0; n < 6; n++)
            layouts[k]->six[n] = at + (size_t)n * size;
        layouts[k]->inv_mass = at + 6 * size;
        layouts[k]->rest = at + 7 * size;
        layouts[k]->live = (uint32_t *)(void *)(at + 8 * size);
    }
    sl->grid = grid_links(cloth);
    return sl;
}

void strain_limit_destroy(StrainLimit *sl)
{
    if (!sl)
        return;
    free(sl->block);
    free(sl);
}

#if STRAIN_LIMIT_X86

/* The positions, masses, rest lengths and torn marks of this substep into
 * the layouts; the moves' sums start at 0. */
static void prepare(StrainLimit *sl, const Cloth *c)
{
    const int cols = c->cols, rows = c->rows, cols_pad = sl->cols_pad, rows_pad = sl->rows_pad;
    const int right = rows * (cols - 1);
    const float *from[3] = {c->x, c->y, c->z};
    for (int n = 0; n < 3; n++)
        for (int row = 0; row < rows; row++)
            memcpy(sl->by_rows.six[n] + row * cols_pad, from[n] + row * cols, (size_t)cols * sizeof(float));
    for (int n = 3; n < 6; n++)
        memset(sl->by_rows.six[n], 0, (size_t)rows_pad * (size_t)cols_pad * sizeof(float));
    for (int row = 0; row < rows; row++)
        for (int col = 0; col < cols; col++) {
            int i = row * cols + col, r = row * cols_pad + col, k = col * rows_pad + row;
            sl->by_rows.inv_mass[r] = sl->by_columns.inv_mass[k] = c->inv_mass[i];
            if (col + 1 < cols) {
                int l = row * (cols - 1) + col;
                sl->by_columns.rest[k] = c->rest_length[l];
                sl->by_columns.live[k] = c->torn[l] ? 0 : UINT32_MAX;
            }
            if (row + 1 < rows) {
                int l = right + i;
                sl->by_rows.rest[r] = c->rest_length[l];
                sl->by_rows.live[r] = c->torn[l] ? 0 : UINT32_MAX;
            }
        }
}

/* The positions and the moves' sums back to the cloth and j. */
static void finish(const StrainLimit *sl, Cloth *c, float *jx, float *jy, float *jz)
{
    float *to[6] = {c->x, c->y, c->z, jx, jy, jz};
    for (int n = 0; n < 6; n++)
        for (int row = 0; row < c->rows; row++)
            memcpy(to[n] + row * c->cols, sl->by_rows.six[n] + row * sl->cols_pad, (size_t)c->cols * sizeof(float));
}

typedef struct Constants {
    __m256 stretch, inside, tolerance, one, zero;
} Constants;

/* A particle in each lane: its x, y, z and the moves' sums jx, jy, jz. */
typedef struct Six {
    __m256 x, y, z, jx, jy, jz;
} Six;

/* A layout's arrays in locals: the compiler cannot tell the stores into
 * them from the Layout, and would fetch every pointer again after each. */
typedef struct Arrays {
    float *restrict x, *restrict y, *restrict z, *restrict jx, *restrict jy, *restrict jz;
    const float *restrict inv_mass, *restrict rest, *restrict live;
} Arrays;

AVX2_INLINE Six load_six(const Arrays *p, int at)
{
    return (Six){_mm256_load_ps(p->x + at),  _mm256_load_ps(p->y + at),  _mm256_load_ps(p->z + at),
                 _mm256_load_ps(p->jx + at), _mm256_load_ps(p->jy + at), _mm256_load_ps(p->jz + at)};
}

AVX2_INLINE void store_six(const Arrays *p, int at, Six v)
{
    _mm256_store_ps(p->x + at, v.x), _mm256_store_ps(p->y + at, v.y), _mm256_store_ps(p->z + at, v.z);
    _mm256_store_ps(p->jx + at, v.jx), _mm256_store_ps(p->jy + at, v.jy), _mm256_store_ps(p->jz + at, v.jz);
}

/* One link in each lane from particle a to particle b: stage_strain_limit's
 * operations (relax.c), and the lanes whose link went past the limit by
 * more than the tolerance. */
AVX2_INLINE __m256 limit_link(Six *a, Six *b, __m256 wa, __m256 wb, __m256 rest, __m256 live, const Constants *k)
{
    __m256 dx = _mm256_sub_ps(b->x, a->x), dy = _mm256_sub_ps(b->y, a->y), dz = _mm256_sub_ps(b->z, a->z);
    __m256 length = _mm256_sqrt_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz)));
    __m256 longest = _mm256_mul_ps(rest, k->stretch);
    __m256 w = _mm256_add_ps(wa, wb);
    /* not torn, not both fixed (w == 0), and not within (length <= longest) */
    __m256 act = _mm256_and_ps(
        live, _mm256_and_ps(_mm256_cmp_ps(w, k->zero, _CMP_NEQ_UQ), _mm256_cmp_ps(length, longest, _CMP_NLE_UQ)));
    __m256 over = _mm256_sub_ps(_mm256_div_ps(length, longest), k->one);
    __m256 exceeded = _mm256_and_ps(act, _mm256_cmp_ps(over, k->tolerance, _CMP_GT_OQ));
    __m256 scale = _mm256_div_ps(_mm256_sub_ps(length, _mm256_mul_ps(longest, k->inside)), _mm256_mul_ps(length, w));
    __m256 share_a = _mm256_mul_ps(wa, scale), share_b = _mm256_mul_ps(wb, scale);
    __m256 ax = _mm256_mul_ps(share_a, dx), ay = _mm256_mul_ps(share_a, dy), az = _mm256_mul_ps(share_a, dz);
    __m256 bx = _mm256_mul_ps(share_b, dx), by = _mm256_mul_ps(share_b, dy), bz = _mm256_mul_ps(share_b, dz);
    a->x = _mm256_blendv_ps(a->x, _mm256_add_ps(a->x, ax), act);
    a->y = _mm256_blendv_ps(a->y, _mm256_add_ps(a->y, ay), act);
    a->z = _mm256_blendv_ps(a->z, _mm256_add_ps(a->z, az), act);
    b->x = _mm256_blendv_ps(b->x, _mm256_sub_ps(b->x, bx), act);
    b->y = _mm256_blendv_ps(b->y, _mm256_sub_ps(b->y, by), act);
    b->z = _mm256_blendv_ps(b->z, _mm256_sub_ps(b->z, bz), act);
    a->jx = _mm256_blendv_ps(a->jx, _mm256_add_ps(a->jx, ax), act);
    a->jy = _mm256_blendv_ps(a->jy, _mm256_add_ps(a->jy, ay), act);
    a->jz = _mm256_blendv_ps(a->jz, _mm256_add_ps(a->jz, az), act);
    b->jx = _mm256_blendv_ps(b->jx, _mm256_sub_ps(b->jx, bx), act);
    b->jy = _mm256_blendv_ps(b->jy, _mm256_sub_ps(b->jy, by), act);
    b->jz = _mm256_blendv_ps(b->jz, _mm256_sub_ps(b->jz, bz), act);
    return exceeded;
}

static inline int min_int(int a, int b)
{
    return a < b ? a : b;
}

/* A phase: the links from each particle to the one `next` further on, in
 * `groups` groups of eight lanes `group` apart, each `steps` links long,
 * a step `stride` apart. Returns the lanes over the tolerance. */
AVX2 static __m256 phase(const Layout *layout, int groups, int group, int steps, int stride, const Constants *k)
{
    const Arrays arrays = {layout->six[0],   layout->six[1], layout->six[2],
                           layout->six[3],   layout->six[4], layout->six[5],
                           layout->inv_mass, layout->rest,   (const float *)(const void *)layout->live};
    const Arrays *p = &arrays;
    __m256 exceeded = _mm256_setzero_ps();
    for (int g0 = 0; g0 < groups; g0 += SIDE_BY_SIDE) {
        int g1 = min_int(g0 + SIDE_BY_SIDE, groups);
        for (int step = 0; step < steps; step++)
            for (int g = g0; g < g1; g++) {
                int at = step * stride + g * group;
                Six a = load_six(p, at), b = load_six(p, at + stride);
                __m256 live = _mm256_load_ps(p->live + at);
                exceeded = _mm256_or_ps(exceeded, limit_link(&a, &b, _mm256_load_ps(p->inv_mass + at),
                                                             _mm256_load_ps(p->inv_mass + at + stride),
                                                             _mm256_load_ps(p->rest + at), live, k));
                store_six(p, at, a);
                store_six(p, at + stride, b);
            }
    }
    return exceeded;
}

/* Eight vectors of eight as the rows of a block, turned into its columns. */
AVX2_INLINE void transpose(__m256 v[8])
{
    __m256 t[8], u[8];
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm256_unpacklo_ps(v[2 * k], v[2 * k + 1]);
        t[2 * k + 1] = _mm256_unpackhi_ps(v[2 * k], v[2 * k + 1]);
    }
#pragma GCC unroll 2
    for (int k = 0; k < 2; k++) {
        u[4 * k] = _mm256_shuffle_ps(t[4 * k], t[4 * k + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[4 * k + 1] = _mm256_shuffle_ps(t[4 * k], t[4 * k + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[4 * k + 2] = _mm256_shuffle_ps(t[4 * k + 1], t[4 * k + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[4 * k + 3] = _mm256_shuffle_ps(t[4 * k + 1], t[4 * k + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) {
        v[k] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x20);
        v[k + 4] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x31);
    }
}

/* One array from one layout to the other, eight by eight: [a * from_pad + b]
 * to [b * to_pad + a], a_count by b_count (multiples of eight). */
AVX2 static void turn(const float *restrict from, float *restrict to, int a_count, int b_count, int from_pad,
                      int to_pad)
{
    for (int a = 0; a < a_count; a += LANES)
        for (int b = 0; b < b_count; b += LANES) {
            __m256 v[8];
#pragma GCC unroll 8
            for (int k = 0; k < LANES; k++)
                v[k] = _mm256_load_ps(from + (a + k) * from_pad + b);
            transpose(v);
#pragma GCC unroll 8
            for (int k = 0; k < LANES; k++)
                _mm256_store_ps(to + (b + k) * to_pad + a, v[k]);
        }
}

AVX2 static void run_passes(const StrainLimit *sl, float stretch, float inside, float tolerance, int passes)
{
    const Constants k = {_mm256_set1_ps(stretch), _mm256_set1_ps(inside), _mm256_set1_ps(tolerance),
                         _mm256_set1_ps(1.0f), _mm256_setzero_ps()};
    const int rows_pad = sl->rows_pad, cols_pad = sl->cols_pad;
    for (int pass = 0; pass < passes; pass++) {
        /* the right links first, as the plain loop */
        for (int n = 0; n < 6; n++)
            turn(sl->by_rows.six[n], sl->by_columns.six[n], rows_pad, cols_pad, cols_pad, rows_pad);
        __m256 exceeded = phase(&sl->by_columns, rows_pad / LANES, LANES, sl->cols - 1, rows_pad, &k);
        for (int n = 0; n < 6; n++)
            turn(sl->by_columns.six[n], sl->by_rows.six[n], cols_pad, rows_pad, rows_pad, cols_pad);
        exceeded = _mm256_or_ps(exceeded, phase(&sl->by_rows, cols_pad / LANES, LANES, sl->rows - 1, cols_pad, &k));
        if (_mm256_movemask_ps(exceeded) == 0)
            break;
    }
}

bool strain_limit_run(StrainLimit *sl, Cloth *c, float *jx, float *jy, float *jz, float stretch, float inside,
                      float tolerance, int passes)
{
    /* the solver calls this on its fast path only (relax.c); this file asks for AVX2 and no more, and
     * runs at the level core was told (level.h): not at a forced baseline */
    if (!sl->grid || c->cols != sl->cols || c->rows != sl->rows || core_level() < CORE_LEVEL_AVX2)
        return false;
    prepare(sl, c);
    run_passes(sl, stretch, inside, tolerance, passes);
    finish(sl, c, jx, jy, jz);
    return true;
}

#else

bool strain_limit_run(StrainLimit *sl, Cloth *c, float *jx, float *jy, float *jz, float stretch, float inside,
                      float tolerance, int passes)
{
    (void)sl, (void)c, (void)jx, (void)jy, (void)jz, (void)stretch, (void)inside, (void)tolerance, (void)passes;
    return false;
}

#endif
