/* strain_limit.c - Provot's strain limit, eight rows or columns at a time
 * (strain_limit.h).
 *
 * A pass is two phases. The right links: a vector holds one column of
 * eight rows, taken from the cloth (a gather) and worked on in the copy
 * kept column by column, where the rows of a column sit next to each
 * other; each step is one link of each of the eight rows, the step after
 * it the next link along. The down links: a vector holds eight columns of
 * one row, taken from the copy (a gather) and worked on in the cloth
 * itself. A step's two particles are written back at once, so the next
 * step of a row (or column) reads its shared particle as this one left it,
 * as the plain loop does. Several groups of eight go side by side so that
 * one's square root and divisions wait while another's run.
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

#include "relax_fast.h"

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

struct StrainLimit {
    int cols, rows, rows_pad, cols_pad;
    bool grid; /* the structural links are cloth_create's, in its order */
    /* column by column, [col * rows_pad + row], cols_pad columns: */
    float *copy[6]; /* x, y, z and the moves' sums jx, jy, jz */
    float *inv_mass;
    float *rest_right;    /* the right link from each particle: its rest length, */
    uint32_t *live_right; /* all ones where it is there and not torn */
    /* row by row, [particle], LANES more: the down link from each particle */
    float *rest_down;
    uint32_t *live_down;
    void *block;
};

static int round_up(int n) { return (n + LANES - 1) / LANES * LANES; }

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
    size_t copy = (size_t)sl->rows_pad * (size_t)sl->cols_pad, rows = (size_t)cloth->count + LANES;
    /* 32-byte lines, so that a vector of a column never splits */
    size_t floats = 9 * copy + 2 * rows;
    size_t bytes = (floats * sizeof(float) + 63) / 64 * 64;
    float *block = aligned_alloc(64, bytes);
    if (!block) {
        free(sl);
        return NULL;
    }
    memset(block, 0, bytes);
    sl->block = block;
    for (int k = 0; k < 6; k++)
        sl->copy[k] = block + (size_t)k * copy;
    sl->inv_mass = block + 6 * copy;
    sl->rest_right = block + 7 * copy;
    sl->live_right = (uint32_t *)(void *)(block + 8 * copy);
    sl->rest_down = block + 9 * copy;
    sl->live_down = (uint32_t *)(void *)(block + 9 * copy + rows);
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

/* The masses, rest lengths and torn marks of this substep into the
 * copies' layouts. */
static void prepare(StrainLimit *sl, const Cloth *c)
{
    const int cols = c->cols, rows = c->rows, pad = sl->rows_pad, right = rows * (cols - 1);
    for (int row = 0; row < rows; row++)
        for (int col = 0; col < cols; col++) {
            int i = row * cols + col, at = col * pad + row;
            sl->inv_mass[at] = c->inv_mass[i];
            if (col + 1 < cols) {
                int l = row * (cols - 1) + col;
                sl->rest_right[at] = c->rest_length[l];
                sl->live_right[at] = c->torn[l] ? 0 : UINT32_MAX;
            }
            if (row + 1 < rows) {
                int l = right + i;
                sl->rest_down[i] = c->rest_length[l];
                sl->live_down[i] = c->torn[l] ? 0 : UINT32_MAX;
            }
        }
}

#if STRAIN_LIMIT_X86

typedef struct Constants {
    __m256 stretch, inside, tolerance, one, zero;
} Constants;

/* A particle in each lane: its x, y, z and the moves' sums jx, jy, jz;
 * and where those are kept, in the cloth or in the copy. */
typedef struct Six {
    __m256 x, y, z, jx, jy, jz;
} Six;

typedef struct Arrays {
    float *x, *y, *z, *jx, *jy, *jz;
} Arrays;

AVX2_INLINE Six gather_six(Arrays p, __m256i at)
{
    return (Six){_mm256_i32gather_ps(p.x, at, 4),  _mm256_i32gather_ps(p.y, at, 4),
                 _mm256_i32gather_ps(p.z, at, 4),  _mm256_i32gather_ps(p.jx, at, 4),
                 _mm256_i32gather_ps(p.jy, at, 4), _mm256_i32gather_ps(p.jz, at, 4)};
}

AVX2_INLINE Six load_six(Arrays p, int at)
{
    return (Six){_mm256_loadu_ps(p.x + at),  _mm256_loadu_ps(p.y + at),  _mm256_loadu_ps(p.z + at),
                 _mm256_loadu_ps(p.jx + at), _mm256_loadu_ps(p.jy + at), _mm256_loadu_ps(p.jz + at)};
}

AVX2_INLINE Six maskload_six(Arrays p, int at, __m256i on)
{
    return (Six){_mm256_maskload_ps(p.x + at, on),  _mm256_maskload_ps(p.y + at, on),
                 _mm256_maskload_ps(p.z + at, on),  _mm256_maskload_ps(p.jx + at, on),
                 _mm256_maskload_ps(p.jy + at, on), _mm256_maskload_ps(p.jz + at, on)};
}

AVX2_INLINE void store_six(Arrays p, int at, Six v)
{
    _mm256_storeu_ps(p.x + at, v.x), _mm256_storeu_ps(p.y + at, v.y), _mm256_storeu_ps(p.z + at, v.z);
    _mm256_storeu_ps(p.jx + at, v.jx), _mm256_storeu_ps(p.jy + at, v.jy), _mm256_storeu_ps(p.jz + at, v.jz);
}

AVX2_INLINE void maskstore_six(Arrays p, int at, __m256i on, Six v)
{
    _mm256_maskstore_ps(p.x + at, on, v.x), _mm256_maskstore_ps(p.y + at, on, v.y);
    _mm256_maskstore_ps(p.z + at, on, v.z), _mm256_maskstore_ps(p.jx + at, on, v.jx);
    _mm256_maskstore_ps(p.jy + at, on, v.jy), _mm256_maskstore_ps(p.jz + at, on, v.jz);
}

/* One link in each lane from particle a to particle b: stage_strain_limit's
 * operations (solver.c), and the lanes whose link went past the limit by
 * more than the tolerance. */
AVX2_INLINE __m256 limit_link(Six *a, Six *b, __m256 wa, __m256 wb, __m256 rest, __m256 live, const Constants *k)
{
    __m256 dx = _mm256_sub_ps(b->x, a->x), dy = _mm256_sub_ps(b->y, a->y), dz = _mm256_sub_ps(b->z, a->z);
    __m256 length = _mm256_sqrt_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz)));
    __m256 longest = _mm256_mul_ps(rest, k->stretch);
    __m256 w = _mm256_add_ps(wa, wb);
    /* not torn, not both fixed (w == 0), and not within (length <= longest) */
    __m256 act = _mm256_and_ps(live, _mm256_and_ps(_mm256_cmp_ps(w, k->zero, _CMP_NEQ_UQ),
                                                   _mm256_cmp_ps(length, longest, _CMP_NLE_UQ)));
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

static inline int min_int(int a, int b) { return a < b ? a : b; }

/* The right links of every row, from the cloth into the copy. */
AVX2 static __m256 right_links(const StrainLimit *sl, Arrays cloth, const Constants *k)
{
    const int cols = sl->cols, rows = sl->rows, pad = sl->rows_pad, groups = pad / LANES;
    const Arrays copy = {sl->copy[0], sl->copy[1], sl->copy[2], sl->copy[3], sl->copy[4], sl->copy[5]};
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256 exceeded = _mm256_setzero_ps();
    for (int g0 = 0; g0 < groups; g0 += SIDE_BY_SIDE) {
        int g1 = min_int(g0 + SIDE_BY_SIDE, groups);
        /* each lane's row start in the cloth (past the last row: the last
         * row again, whose link there is not live) */
        __m256i start[SIDE_BY_SIDE];
        for (int g = g0; g < g1; g++) {
            __m256i row = _mm256_min_epi32(_mm256_add_epi32(_mm256_set1_epi32(g * LANES), lane),
                                           _mm256_set1_epi32(rows - 1));
            start[g - g0] = _mm256_mullo_epi32(row, _mm256_set1_epi32(cols));
            store_six(copy, g * LANES, gather_six(cloth, start[g - g0]));
        }
        for (int col = 0; col + 1 < cols; col++)
            for (int g = g0; g < g1; g++) {
                int at = col * pad + g * LANES;
                Six a = load_six(copy, at), b = gather_six(cloth, _mm256_add_epi32(start[g - g0], _mm256_set1_epi32(col + 1)));
                __m256 live = _mm256_loadu_ps((const float *)(const void *)(sl->live_right + at));
                exceeded = _mm256_or_ps(exceeded, limit_link(&a, &b, _mm256_loadu_ps(sl->inv_mass + at),
                                                             _mm256_loadu_ps(sl->inv_mass + at + pad),
                                                             _mm256_loadu_ps(sl->rest_right + at), live, k));
                store_six(copy, at, a);
                store_six(copy, at + pad, b);
            }
    }
    return exceeded;
}

/* The down links of every column, from the copy into the cloth. */
AVX2 static __m256 down_links(const StrainLimit *sl, Arrays cloth, const float *inv_mass, const Constants *k)
{
    const int cols = sl->cols, rows = sl->rows, pad = sl->rows_pad, groups = sl->cols_pad / LANES;
    const Arrays copy = {sl->copy[0], sl->copy[1], sl->copy[2], sl->copy[3], sl->copy[4], sl->copy[5]};
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256 exceeded = _mm256_setzero_ps();
    for (int g0 = 0; g0 < groups; g0 += SIDE_BY_SIDE) {
        int g1 = min_int(g0 + SIDE_BY_SIDE, groups);
        __m256i start[SIDE_BY_SIDE], on[SIDE_BY_SIDE]; /* each lane's column in the copy; lanes on the cloth */
        for (int g = g0; g < g1; g++) {
            __m256i col = _mm256_add_epi32(_mm256_set1_epi32(g * LANES), lane);
            start[g - g0] = _mm256_mullo_epi32(col, _mm256_set1_epi32(pad));
            on[g - g0] = _mm256_cmpgt_epi32(_mm256_set1_epi32(cols), col);
            maskstore_six(cloth, g * LANES, on[g - g0], gather_six(copy, start[g - g0]));
        }
        for (int row = 0; row + 1 < rows; row++)
            for (int g = g0; g < g1; g++) {
                int at = row * cols + g * LANES;
                __m256i on_cloth = on[g - g0];
                Six b = gather_six(copy, _mm256_add_epi32(start[g - g0], _mm256_set1_epi32(row + 1)));
                __m256 live = _mm256_and_ps(_mm256_loadu_ps((const float *)(const void *)(sl->live_down + at)),
                                            _mm256_castsi256_ps(on_cloth));
                __m256 rest = _mm256_loadu_ps(sl->rest_down + at);
                if ((g + 1) * LANES <= cols) {
                    Six a = load_six(cloth, at);
                    exceeded = _mm256_or_ps(exceeded, limit_link(&a, &b, _mm256_loadu_ps(inv_mass + at),
                                                                 _mm256_loadu_ps(inv_mass + at + cols), rest, live, k));
                    store_six(cloth, at, a);
                    store_six(cloth, at + cols, b);
                } else {
                    Six a = maskload_six(cloth, at, on_cloth);
                    __m256 wa = _mm256_maskload_ps(inv_mass + at, on_cloth);
                    __m256 wb = _mm256_maskload_ps(inv_mass + at + cols, on_cloth);
                    exceeded = _mm256_or_ps(exceeded, limit_link(&a, &b, wa, wb, rest, live, k));
                    maskstore_six(cloth, at, on_cloth, a);
                    maskstore_six(cloth, at + cols, on_cloth, b);
                }
            }
    }
    return exceeded;
}

AVX2 static void run_passes(const StrainLimit *sl, Cloth *c, float *jx, float *jy, float *jz, float stretch,
                            float inside, float tolerance, int passes)
{
    const Arrays cloth = {c->x, c->y, c->z, jx, jy, jz};
    const Constants k = {_mm256_set1_ps(stretch), _mm256_set1_ps(inside), _mm256_set1_ps(tolerance),
                         _mm256_set1_ps(1.0f), _mm256_setzero_ps()};
    for (int pass = 0; pass < passes; pass++) {
        /* two statements: the right links must go first */
        __m256 exceeded = right_links(sl, cloth, &k);
        exceeded = _mm256_or_ps(exceeded, down_links(sl, cloth, c->inv_mass, &k));
        if (_mm256_movemask_ps(exceeded) == 0)
            break;
    }
}

bool strain_limit_run(StrainLimit *sl, Cloth *c, float *jx, float *jy, float *jz, float stretch, float inside,
                      float tolerance, int passes)
{
    if (!sl->grid || c->cols != sl->cols || c->rows != sl->rows || !relax_fast_cpu_has_simd())
        return false;
    prepare(sl, c);
    run_passes(sl, c, jx, jy, jz, stretch, inside, tolerance, passes);
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
