/* relax_kernels_avx2.c - the fast path's kernels eight at a time (AVX2):
 * a block of eight links of one colour, loaded and stored with plain
 * vector moves (the stride-2 colours unzipped and zipped with shuffles),
 * the sphere contact eight particles at a time, and the stages around the
 * passes: gravity and the gusts' field, the wind on eight cells and eight
 * particles, the explosion check's halves. The same float
 * operations in the same order as the scalar kernels (relax_fast_internal.h)
 * and the plain loop, without fused multiply-add: the same bits.
 * relax_fast.c opens with why this is faster. */
#include <string.h>

#include "relax_fast_internal.h"

#if RELAX_FAST_X86


AVX2_INLINE void load_ends(ParticleLayout layout, const float *v, int pa, int pb, __m256 *a, __m256 *b)
{
    if (layout == ROWS) {
        *a = _mm256_loadu_ps(v + pa);
        *b = _mm256_loadu_ps(v + pb);
        return;
    }
    __m256 lo = _mm256_loadu_ps(v + pa), hi = _mm256_loadu_ps(v + pa + LANES);
    if (layout == PAIRS) { /* lanes hold offsets 0 2 8 10 4 6 12 14, and one more */
        *a = _mm256_shuffle_ps(lo, hi, 0x88);
        *b = _mm256_shuffle_ps(lo, hi, 0xDD);
    } else { /* offsets 0 1 8 9 4 5 12 13, and two more */
        *a = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(lo), _mm256_castps_pd(hi)));
        *b = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(lo), _mm256_castps_pd(hi)));
    }
}

AVX2_INLINE void store_ends(ParticleLayout layout, float *v, int pa, int pb, __m256 a, __m256 b)
{
    if (layout == ROWS) {
        _mm256_storeu_ps(v + pa, a);
        _mm256_storeu_ps(v + pb, b);
    } else if (layout == PAIRS) {
        _mm256_storeu_ps(v + pa, _mm256_unpacklo_ps(a, b));
        _mm256_storeu_ps(v + pa + LANES, _mm256_unpackhi_ps(a, b));
    } else {
        __m256d da = _mm256_castps_pd(a), db = _mm256_castps_pd(b);
        _mm256_storeu_ps(v + pa, _mm256_castpd_ps(_mm256_unpacklo_pd(da, db)));
        _mm256_storeu_ps(v + pa + LANES, _mm256_castpd_ps(_mm256_unpackhi_pd(da, db)));
    }
}

/* Rest lengths and "not torn" masks of a block's links, in its lanes' order. */
AVX2_INLINE void load_links(LinkLayout layout, const Cloth *c, const Block *bk, __m256 *rest, __m256i *intact)
{
    const float *r = c->rest_length + bk->link;
    const uint8_t *t = c->torn + bk->link;
    __m128i torn8;
    if (layout == LINKS_NEXT) {
        *rest = _mm256_loadu_ps(r);
        torn8 = _mm_loadl_epi64((const __m128i *)t);
    } else {
        __m256 lo = _mm256_loadu_ps(r), hi = _mm256_loadu_ps(r + LANES);
        __m128i bytes = _mm_loadu_si128((const __m128i *)t), pick;
        if (layout == LINKS_PAIRS) {
            *rest = _mm256_shuffle_ps(lo, hi, 0x88);
            pick = _mm_setr_epi8(0, 2, 8, 10, 4, 6, 12, 14, -1, -1, -1, -1, -1, -1, -1, -1);
        } else if (layout == LINKS_EVEN) {
            *rest = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(lo, hi, 0x88)), 0xD8));
            pick = _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1, -1, -1, -1, -1);
        } else {
            *rest = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(lo), _mm256_castps_pd(hi)));
            pick = _mm_setr_epi8(0, 1, 8, 9, 4, 5, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
        }
        torn8 = _mm_shuffle_epi8(bytes, pick);
    }
    *intact = _mm256_cmpeq_epi32(_mm256_cvtepu8_epi32(torn8), _mm256_setzero_si256());
}

/* A block's two ends: inverse masses and positions. */
typedef struct Ends {
    __m256 xa, xb, ya, yb, za, zb, wa, wb;
} Ends;

AVX2_INLINE void load_block(ParticleLayout particles, const float *x, const float *y, const float *z, const float *w,
                            int a, int b, Ends *e)
{
    load_ends(particles, w, a, b, &e->wa, &e->wb);
    load_ends(particles, x, a, b, &e->xa, &e->xb);
    load_ends(particles, y, a, b, &e->ya, &e->yb);
    load_ends(particles, z, a, b, &e->za, &e->zb);
}

/* The lanes whose bits are set in mask, as a vector mask. */
AVX2_INLINE __m256 lanes_of(unsigned mask)
{
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)mask), bit), bit));
}

/* Solves the 8 links of a block whose ends `ends` holds: solve_link lane
 * by lane. A lane whose link is skipped is computed all the same and then
 * left out by a blend. block_rest, block_live: the block's. */
AVX2_INLINE void solve_loaded(ParticleLayout particles, bool xpbd, float *x, float *y, float *z, int a, int b,
                              const Ends *ends, const float *block_rest, const uint8_t *block_live, float k,
                              float alpha, float *lambda)
{
    Ends e = *ends;
    __m256 scale;
    __m256 dx = _mm256_sub_ps(e.xb, e.xa), dy = _mm256_sub_ps(e.yb, e.ya), dz = _mm256_sub_ps(e.zb, e.za);
    __m256 rest = _mm256_load_ps(block_rest);
    __m256 w = _mm256_add_ps(e.wa, e.wb);
    __m256 length = _mm256_sqrt_ps(_mm256_fmadd_ps(dz, dz, _mm256_fmadd_ps(dy, dy, _mm256_mul_ps(dx, dx))));
    /* w == 0: both ends fixed; length < 1e-12: no direction (NaN goes on,
     * as in C). Every lane solved is the usual case: the mask vector and
     * the blends only when not. */
    __m256 live = _mm256_and_ps(_mm256_cmp_ps(w, _mm256_setzero_ps(), _CMP_NEQ_UQ),
                                _mm256_cmp_ps(length, _mm256_set1_ps(1e-12f), _CMP_NLT_UQ));
    bool all = (_mm256_movemask_ps(live) & *block_live) == 0xFF;
    if (!all)
        live = _mm256_and_ps(live, lanes_of(*block_live));
    __m256 error = _mm256_sub_ps(length, rest);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    if (xpbd) {
        __m256 old = _mm256_load_ps(lambda);
        __m256 alpha_link = _mm256_mul_ps(_mm256_set1_ps(alpha), rest);
        __m256 dlambda = _mm256_div_ps(_mm256_sub_ps(_mm256_xor_ps(error, sign), _mm256_mul_ps(alpha_link, old)),
                                       _mm256_add_ps(w, alpha_link));
        __m256 sum = _mm256_add_ps(old, dlambda);
        _mm256_store_ps(lambda, all ? sum : _mm256_blendv_ps(old, sum, live));
        scale = _mm256_div_ps(_mm256_xor_ps(dlambda, sign), length);
    } else {
        scale = _mm256_div_ps(_mm256_mul_ps(_mm256_set1_ps(k), error), _mm256_mul_ps(length, w));
    }
    __m256 move_a = _mm256_mul_ps(e.wa, scale), move_b = _mm256_mul_ps(e.wb, scale);
    __m256 xa = _mm256_fmadd_ps(move_a, dx, e.xa), ya = _mm256_fmadd_ps(move_a, dy, e.ya);
    __m256 za = _mm256_fmadd_ps(move_a, dz, e.za), xb = _mm256_fnmadd_ps(move_b, dx, e.xb);
    __m256 yb = _mm256_fnmadd_ps(move_b, dy, e.yb), zb = _mm256_fnmadd_ps(move_b, dz, e.zb);
    if (!all) { /* rare: a lane to leave as it was */
        xa = _mm256_blendv_ps(e.xa, xa, live), ya = _mm256_blendv_ps(e.ya, ya, live);
        za = _mm256_blendv_ps(e.za, za, live), xb = _mm256_blendv_ps(e.xb, xb, live);
        yb = _mm256_blendv_ps(e.yb, yb, live), zb = _mm256_blendv_ps(e.zb, zb, live);
    }
    store_ends(particles, x, a, b, xa, xb);
    store_ends(particles, y, a, b, ya, yb);
    store_ends(particles, z, a, b, za, zb);
}

/* One instance per layout and method, so that each inner loop is straight.
 * Each block's indices are copied into locals first, for the same reason
 * as the arrays (KERNEL_ARRAYS). */
#define BLOCK_LOOP(name, particles, xpbd)                                                                            \
    AVX2 static void name(Cloth *c, const RelaxFast *f, int begin, int end, float k, float alpha)                \
    {                                                                                                              \
        KERNEL_ARRAYS(c, f)                                                                                        \
        for (int i = begin; i < end; i++) {                                                                        \
            Ends e;                                                                                                \
            int a = blocks[i].a, b = blocks[i].b;                                                                  \
            size_t lane = (size_t)i * LANES;                                                                       \
            load_block(particles, x, y, z, w, a, b, &e);                                                           \
            solve_loaded(particles, xpbd, x, y, z, a, b, &e, rest + lane, live + i, k, alpha, lambda + lane);      \
        }                                                                                                          \
    }
BLOCK_LOOP(blocks_pairs, PAIRS, false)
BLOCK_LOOP(blocks_rows, ROWS, false)
BLOCK_LOOP(blocks_quads, QUADS, false)
BLOCK_LOOP(blocks_pairs_xpbd, PAIRS, true)
BLOCK_LOOP(blocks_rows_xpbd, ROWS, true)
BLOCK_LOOP(blocks_quads_xpbd, QUADS, true)

/* The block lanes' rest lengths and live masks of unit u, from its links
 * (their lane order is load_links'). */
AVX2 static void refresh_unit(RelaxFast *f, const Cloth *c, const Unit *u)
{
    const Colour *col = &f->colour[u->colour];
    __m256i ordinal = col->particles == ROWS ? _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
                                             : _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
    for (int i = u->block_begin; i < u->block_end; i++) {
        const Block *bk = &f->blocks[i];
        __m256 rest;
        __m256i intact;
        load_links(col->links, c, bk, &rest, &intact);
        /* lanes' ordinals along the row: a lane the previous block solved is off */
        __m256i fresh = _mm256_cmpgt_epi32(ordinal, _mm256_set1_epi32(bk->skip - 1));
        _mm256_store_ps(f->block_rest + (size_t)i * LANES, rest);
        f->block_live[i] = (uint8_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_and_si256(intact, fresh)));
    }
}

/* sphere_push on particles begin .. end, eight at a time. */
AVX2 static void sphere_range_avx2(Cloth *c, int begin, int end, const Collider *sphere, float margin, float friction)
{
    const __m256 cx = _mm256_set1_ps(sphere->center[0]), cy = _mm256_set1_ps(sphere->center[1]),
                 cz = _mm256_set1_ps(sphere->center[2]), radius = _mm256_set1_ps(sphere->radius),
                 skin = _mm256_set1_ps(margin), zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f),
                 tiny = _mm256_set1_ps(1e-9f);
    /* a vector whose squared distances all exceed this, a little more than
     * (radius + margin)^2, has no lane in contact: it skips the square root */
    float reach = (sphere->radius + margin) * 1.001f + 1e-6f;
    const __m256 far = _mm256_set1_ps(reach * reach);
    int i = begin;
    for (; i + LANES <= end; i += LANES) {
        __m256 x = _mm256_loadu_ps(c->x + i), y = _mm256_loadu_ps(c->y + i), z = _mm256_loadu_ps(c->z + i);
        __m256 dx = _mm256_sub_ps(x, cx), dy = _mm256_sub_ps(y, cy), dz = _mm256_sub_ps(z, cz);
        __m256 d2 = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz));
        if (_mm256_movemask_ps(_mm256_cmp_ps(d2, far, _CMP_GT_OQ)) == 0xFF)
            continue;
        __m256 d = _mm256_sqrt_ps(d2);
        __m256 distance = _mm256_sub_ps(d, radius);
        __m256 hit = _mm256_and_ps(_mm256_cmp_ps(distance, skin, _CMP_NGE_UQ),
                                   _mm256_cmp_ps(_mm256_loadu_ps(c->inv_mass + i), zero, _CMP_NEQ_UQ));
        if (_mm256_movemask_ps(hit) == 0)
            continue;
        __m256 away = _mm256_cmp_ps(d, tiny, _CMP_GT_OQ);
        __m256 nx = _mm256_blendv_ps(zero, _mm256_div_ps(dx, d), away);
        __m256 ny = _mm256_blendv_ps(one, _mm256_div_ps(dy, d), away);
        __m256 nz = _mm256_blendv_ps(zero, _mm256_div_ps(dz, d), away);
        __m256 push = _mm256_sub_ps(skin, distance);
        __m256 px = _mm256_add_ps(x, _mm256_mul_ps(push, nx)), py = _mm256_add_ps(y, _mm256_mul_ps(push, ny)),
               pz = _mm256_add_ps(z, _mm256_mul_ps(push, nz));
        if (friction > 0.0f) { /* the tangential part of the move since the substep began, cut */
            __m256 mx = _mm256_sub_ps(px, _mm256_loadu_ps(c->px + i)), my = _mm256_sub_ps(py, _mm256_loadu_ps(c->py + i)),
                   mz = _mm256_sub_ps(pz, _mm256_loadu_ps(c->pz + i));
            __m256 along =
                _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(mx, nx), _mm256_mul_ps(my, ny)), _mm256_mul_ps(mz, nz));
            __m256 cut = _mm256_set1_ps(friction);
            px = _mm256_sub_ps(px, _mm256_mul_ps(cut, _mm256_sub_ps(mx, _mm256_mul_ps(along, nx))));
            py = _mm256_sub_ps(py, _mm256_mul_ps(cut, _mm256_sub_ps(my, _mm256_mul_ps(along, ny))));
            pz = _mm256_sub_ps(pz, _mm256_mul_ps(cut, _mm256_sub_ps(mz, _mm256_mul_ps(along, nz))));
        }
        _mm256_storeu_ps(c->x + i, _mm256_blendv_ps(x, px, hit));
        _mm256_storeu_ps(c->y + i, _mm256_blendv_ps(y, py, hit));
        _mm256_storeu_ps(c->z + i, _mm256_blendv_ps(z, pz, hit));
    }
    for (; i < end; i++)
        sphere_push(c, i, sphere, margin, friction);
}

/* blew_up's link half on cloth_create's grid (relax_fast.c,
 * structural_grid), rows from .. to - 1: whether a structural link across
 * a row or down from it is over stretch times its rest length, eight links
 * a vector read straight from the particle, rest and torn arrays (a row's
 * links across, and its links down, lie side by side; gathered through
 * the colours' blocks this was 3 % of a 200 x 200 step). */
AVX2 bool relax_kernels_avx2_rows_overstretched(const Cloth *c, int from, int to, float stretch)
{
    const int cols = c->cols;
    const __m256 factor = _mm256_set1_ps(stretch);
    for (int row = from; row < to; row++)
        for (int down = 0; down < 2; down++) {
            int n = !down ? cols - 1 : row + 1 < c->rows ? cols : 0;
            if (n == 0)
                continue;
            int first = !down ? cloth_link_right(c, 0, row) : cloth_link_below(c, 0, row), gap = !down ? 1 : cols;
            int i = 0;
            for (; i + LANES <= n; i += LANES) {
                int a = row * cols + i, b = a + gap, l = first + i;
                __m256 dx = _mm256_sub_ps(_mm256_loadu_ps(c->x + b), _mm256_loadu_ps(c->x + a));
                __m256 dy = _mm256_sub_ps(_mm256_loadu_ps(c->y + b), _mm256_loadu_ps(c->y + a));
                __m256 dz = _mm256_sub_ps(_mm256_loadu_ps(c->z + b), _mm256_loadu_ps(c->z + a));
                __m256 d2 =
                    _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz));
                __m256 longest = _mm256_mul_ps(factor, _mm256_loadu_ps(c->rest_length + l));
                __m256 over = _mm256_cmp_ps(d2, _mm256_mul_ps(longest, longest), _CMP_GT_OQ);
                __m256i torn = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(c->torn + l)));
                __m256 intact = _mm256_castsi256_ps(_mm256_cmpeq_epi32(torn, _mm256_setzero_si256()));
                if (_mm256_movemask_ps(_mm256_and_ps(over, intact)))
                    return true;
            }
            for (; i < n; i++) {
                int a = row * cols + i, b = a + gap, l = first + i;
                float dx = c->x[b] - c->x[a], dy = c->y[b] - c->y[a], dz = c->z[b] - c->z[a];
                float longest = stretch * c->rest_length[l];
                if (!c->torn[l] && dx * dx + dy * dy + dz * dz > longest * longest)
                    return true;
            }
        }
    return false;
}

/* ------------------------------------------------------------ the stages around the passes */

/* Whether any of the n triangle flags from `first` on is torn. */
static bool any_torn(const uint8_t *first, int n)
{
    /* eight flags at a time: a byte at a time this was a sixth of lesson
     * 2's wind */
    uint64_t any = 0;
    int k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t flags;
        memcpy(&flags, first + k, sizeof flags);
        any |= flags;
    }
    for (; k < n; k++)
        any |= first[k];
    return any != 0;
}

/* solver_wind_cells for the 8 cells of row `row` from column col, when
 * none of their triangles is torn: each cell whole, its corners tl, bl,
 * br, tr in that order, with solver_wind_cells' operations. Where one is
 * torn or of no area, solver_wind_cells itself does the 8. */
AVX2 static void wind_on_cells(Solver *s, int row, int col)
{
    const Cloth *c = s->cloth;
    int cell = row * (c->cols - 1) + col, tl = row * c->cols + col, bl = tl + c->cols;
    if (any_torn(c->triangle_torn + 2 * cell, 2 * LANES)) {
        solver_wind_cells(s, cell, cell + LANES);
        return;
    }
    const float *v[8] = {c->x, c->y, c->z, s->wind_x_at, s->wind_z_at, c->vx, c->vy, c->vz};
    __m256 top_left[8], top_right[8], bottom_left[8], bottom_right[8];
    for (int k = 0; k < 8; k++) {
        top_left[k] = _mm256_loadu_ps(v[k] + tl), top_right[k] = _mm256_loadu_ps(v[k] + tl + 1);
        bottom_left[k] = _mm256_loadu_ps(v[k] + bl), bottom_right[k] = _mm256_loadu_ps(v[k] + bl + 1);
    }
    __m256 e1x = _mm256_sub_ps(bottom_right[0], top_left[0]), e1y = _mm256_sub_ps(bottom_right[1], top_left[1]);
    __m256 e1z = _mm256_sub_ps(bottom_right[2], top_left[2]);
    __m256 e2x = _mm256_sub_ps(top_right[0], bottom_left[0]), e2y = _mm256_sub_ps(top_right[1], bottom_left[1]);
    __m256 e2z = _mm256_sub_ps(top_right[2], bottom_left[2]);
    __m256 nx = _mm256_sub_ps(_mm256_mul_ps(e1y, e2z), _mm256_mul_ps(e1z, e2y));
    __m256 ny = _mm256_sub_ps(_mm256_mul_ps(e1z, e2x), _mm256_mul_ps(e1x, e2z));
    __m256 nz = _mm256_sub_ps(_mm256_mul_ps(e1x, e2y), _mm256_mul_ps(e1y, e2x));
    __m256 length = _mm256_sqrt_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(nx, nx), _mm256_mul_ps(ny, ny)), _mm256_mul_ps(nz, nz)));
    if (_mm256_movemask_ps(_mm256_cmp_ps(length, _mm256_set1_ps(1e-12f), _CMP_NGE_UQ)) != 0) {
        solver_wind_cells(s, cell, cell + LANES);
        return;
    }
    /* the corners' sums, from 0 in the order tl, bl, br, tr */
    __m256 sum[8];
    for (int k = 3; k < 8; k++)
        sum[k] = _mm256_add_ps(
            _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_setzero_ps(), top_left[k]), bottom_left[k]),
                          bottom_right[k]),
            top_right[k]);
    const __m256 mean = _mm256_set1_ps(0.25f), sign = _mm256_set1_ps(-0.0f);
    __m256 rx = _mm256_mul_ps(_mm256_sub_ps(sum[3], sum[5]), mean);
    __m256 ry = _mm256_mul_ps(_mm256_xor_ps(sum[6], sign), mean);
    __m256 rz = _mm256_mul_ps(_mm256_sub_ps(sum[4], sum[7]), mean);
    __m256 dot = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(nx, rx), _mm256_mul_ps(ny, ry)), _mm256_mul_ps(nz, rz));
    __m256 scale = _mm256_div_ps(_mm256_mul_ps(_mm256_set1_ps(SOLVER_WIND_DRAG * 0.5f * 0.25f), dot), length);
    _mm256_storeu_ps(s->wind_cell_x + cell, _mm256_mul_ps(nx, scale));
    _mm256_storeu_ps(s->wind_cell_y + cell, _mm256_mul_ps(ny, scale));
    _mm256_storeu_ps(s->wind_cell_z + cell, _mm256_mul_ps(nz, scale));
}

/* solver_wind_to_particles for the 8 particles of an inner row from column
 * col (>= 1, all four cells there) but the first `done` of them, which
 * have had theirs, when no triangle of the cells they touch is torn: each
 * adds up-left, up, left, own, in that order. The particles done keep
 * their sums through a select. */
AVX2 static void wind_to_particles(Solver *s, int row, int col, int done)
{
    const Cloth *c = s->cloth;
    int cells = c->cols - 1, i = row * c->cols + col;
    int up = (row - 1) * cells + col, here = row * cells + col;
    if (any_torn(c->triangle_torn + 2 * (up - 1), 2 * (LANES + 1)) ||
        any_torn(c->triangle_torn + 2 * (here - 1), 2 * (LANES + 1))) {
        solver_wind_to_particles(s, i + done, i + LANES);
        return;
    }
    const int cell[4] = {up - 1, up, here - 1, here};
    float *acc[3] = {s->fx, s->fy, s->fz};
    const float *force[3] = {s->wind_cell_x, s->wind_cell_y, s->wind_cell_z};
    const __m256 fresh = _mm256_castsi256_ps(
        _mm256_cmpgt_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(done - 1)));
    for (int k = 0; k < 3; k++) {
        __m256 start = _mm256_loadu_ps(acc[k] + i), total = start;
        for (int n = 0; n < 4; n++)
            total = _mm256_add_ps(total, _mm256_loadu_ps(force[k] + cell[n]));
        _mm256_storeu_ps(acc[k] + i, _mm256_blendv_ps(start, total, fresh));
    }
}

/* solver_wind_cells for the cells of rows from .. to - 1, 8 at a time. */
void relax_kernels_avx2_wind_cell_rows(Solver *s, int from, int to)
{
    int cells = s->cloth->cols - 1;
    for (int row = from; row < to; row++) {
        int col = 0;
        for (; col + LANES <= cells; col += LANES)
            wind_on_cells(s, row, col);
        /* the last few cells: the row's last 8 again, those before them
         * worked out a second time to the same bits */
        if (col < cells && cells >= LANES)
            wind_on_cells(s, row, cells - LANES);
        else
            solver_wind_cells(s, row * cells + col, (row + 1) * cells);
    }
}

/* solver_wind_to_particles for the particles of rows from .. to - 1: an
 * inner row's inner particles 8 at a time, the rest one by one. */
void relax_kernels_avx2_wind_particle_rows(Solver *s, int from, int to)
{
    const Cloth *c = s->cloth;
    for (int row = from; row < to; row++) {
        int i = row * c->cols, col = 1;
        if (row == 0 || row == c->rows - 1) {
            solver_wind_to_particles(s, i, i + c->cols);
            continue;
        }
        solver_wind_to_particles(s, i, i + 1);
        for (; col + LANES <= c->cols - 1; col += LANES)
            wind_to_particles(s, row, col, 0);
        /* the last few inner particles: the row's last 8 inner ones, those
         * already done kept as they are */
        int last = c->cols - 1 - LANES;
        if (col < c->cols - 1 && last >= 1) {
            wind_to_particles(s, row, last, col - last);
            col = c->cols - 1;
        }
        solver_wind_to_particles(s, i + col, i + c->cols);
    }
}

/* stage_forces' start for particles from .. to - 1: no force but gravity,
 * and, when windy, solver_wind_field, eight at a time. */
AVX2 void relax_kernels_avx2_forces(Solver *s, const Job *job, int from, int to)
{
    Cloth *c = s->cloth;
    const __m256 gravity = _mm256_set1_ps(job->gravity), sign = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps();
    int i = from;
    for (; i + LANES <= to; i += LANES) {
        _mm256_storeu_ps(s->fx + i, zero);
        _mm256_storeu_ps(s->fy + i, _mm256_mul_ps(_mm256_xor_ps(_mm256_loadu_ps(c->mass + i), sign), gravity));
        _mm256_storeu_ps(s->fz + i, zero);
    }
    for (; i < to; i++) {
        s->fx[i] = 0.0f;
        s->fy[i] = -c->mass[i] * job->gravity;
        s->fz[i] = 0.0f;
    }
    if (!job->windy)
        return;
    /* solver_wind_field, row by row: each row's factors broadcast, the
     * columns' tables eight at a time */
    const int cols = c->cols, rows = c->rows, waves = 2 * SOLVER_TURBULENCE_WAVES;
    const __m256 wx = _mm256_set1_ps((float)s->params.wind_x), wz = _mm256_set1_ps((float)s->params.wind_z);
    for (int row = from / cols; row * cols < to; row++) {
        int first = row * cols > from ? row * cols : from, last = (row + 1) * cols < to ? (row + 1) * cols : to;
        __m256 p[2 * SOLVER_TURBULENCE_WAVES], q[2 * SOLVER_TURBULENCE_WAVES];
        for (int w = 0; w < waves; w++)
            p[w] = _mm256_set1_ps(s->wave_p[w * rows + row]), q[w] = _mm256_set1_ps(s->wave_q[w * rows + row]);
        for (i = first; i + LANES <= last; i += LANES) {
            int col = i - row * cols;
            __m256 g[2] = {zero, zero};
            for (int w = 0; w < waves; w++) {
                __m256 term = _mm256_sub_ps(_mm256_mul_ps(p[w], _mm256_loadu_ps(s->wave_col_cos + w * cols + col)),
                                            _mm256_mul_ps(q[w], _mm256_loadu_ps(s->wave_col_sin + w * cols + col)));
                g[w / SOLVER_TURBULENCE_WAVES] = _mm256_add_ps(g[w / SOLVER_TURBULENCE_WAVES], term);
            }
            _mm256_storeu_ps(s->wind_x_at + i, _mm256_add_ps(wx, g[0]));
            _mm256_storeu_ps(s->wind_z_at + i, _mm256_add_ps(wz, g[1]));
        }
        solver_wind_field(s, i, last);
    }
}

/* blew_up's coordinate half for particles from .. to - 1: false if one is
 * not finite (or beyond 1e30); else the least and most of each axis. */
AVX2 bool relax_kernels_avx2_coordinates_sane(const Cloth *c, int from, int to, float least[3], float most[3])
{
    const float *coords[3] = {c->x, c->y, c->z};
    const __m256 low = _mm256_set1_ps(-1e30f), high = _mm256_set1_ps(1e30f);
    for (int k = 0; k < 3; k++) {
        const float *v = coords[k];
        __m256 lo = _mm256_set1_ps(INFINITY), hi = _mm256_set1_ps(-INFINITY);
        int i = from;
        for (; i + LANES <= to; i += LANES) {
            __m256 p = _mm256_loadu_ps(v + i);
            __m256 sane = _mm256_and_ps(_mm256_cmp_ps(p, low, _CMP_GT_OQ), _mm256_cmp_ps(p, high, _CMP_LT_OQ));
            if (_mm256_movemask_ps(sane) != 0xFF)
                return false;
            lo = _mm256_min_ps(p, lo), hi = _mm256_max_ps(p, hi);
        }
        float lanes_lo[LANES], lanes_hi[LANES];
        least[k] = INFINITY, most[k] = -INFINITY;
        _mm256_storeu_ps(lanes_lo, lo), _mm256_storeu_ps(lanes_hi, hi);
        for (int j = 0; j < LANES; j++) {
            least[k] = lanes_lo[j] < least[k] ? lanes_lo[j] : least[k];
            most[k] = lanes_hi[j] > most[k] ? lanes_hi[j] : most[k];
        }
        for (; i < to; i++) {
            if (!(v[i] > -1e30f && v[i] < 1e30f))
                return false;
            least[k] = v[i] < least[k] ? v[i] : least[k];
            most[k] = v[i] > most[k] ? v[i] : most[k];
        }
    }
    return true;
}

void relax_kernels_avx2_fill(RelaxPassKernels *table)
{
    const RelaxBlockLoop blocks[2][3] = {{blocks_rows, blocks_pairs, blocks_quads},
                                         {blocks_rows_xpbd, blocks_pairs_xpbd, blocks_quads_xpbd}};
    for (int xpbd = 0; xpbd < 2; xpbd++)
        for (int layout = 0; layout < 3; layout++)
            table->blocks[xpbd][layout] = blocks[xpbd][layout];
    table->refresh_unit = refresh_unit;
    table->sphere_range = sphere_range_avx2;
}

#endif
