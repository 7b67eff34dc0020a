/* relax_kernels.h - the colored order's kernels, written once in vector C
 * (GCC and Clang vector extensions) and built once per instruction-set
 * level: a run of blocks of eight links of one colour (loaded and stored
 * with plain vector moves, the stride-2 colours unzipped and zipped with
 * shuffles), the block lanes' rest lengths and live masks, the sphere
 * contact a vector of particles at a time, and the stages around the
 * passes: gravity and the gusts' field, the wind on a vector of cells and
 * of particles, the explosion check's halves.
 *
 * Each level's file (relax_kernels_portable.c, _avx2.c, _avx512.c,
 * _neon.c) defines KERNELS_LEVEL and one of LANES_PORTABLE (4 lanes, the
 * build's baseline), LANES_NEON (4), LANES_AVX2 (8) or LANES_AVX512 (16)
 * before including this, and the Makefile gives it that level's flags.
 * The operations C cannot say (the fused multiply-adds, the square root,
 * the masks' tests and selects) are relax_lanes.h's, as the sequential
 * walk's; everything else is the vector types' own + - * / and
 * comparisons.
 *
 * A block's lanes are in one order at every level (relax_colour.c's
 * blocks; refresh_unit writes block_rest and block_live in it): a ROWS
 * block's lane p holds link p; a PAIRS or QUADS block's lane p link
 * ORDINAL[p], {0, 1, 4, 5, 2, 3, 6, 7}, the order in which eight lanes made
 * of two halves of four unzip the particles with in-half shuffles. Four
 * lanes take a block as two vectors (its halves), eight as one, sixteen
 * take two blocks that follow each other in a row (the AVX-512 "pairs":
 * block i in lanes 0 to 7, block i + 1 in 8 to 15).
 *
 * The same float operations in the same order as the scalar kernels
 * (relax_fast_internal.h) and the plain loop, fused multiply-adds exactly
 * where it calls fmaf: the same bits at every level. relax_fast.c opens
 * with why this is faster.
 */
#ifndef CLOTHSIM_RELAX_KERNELS_H
#define CLOTHSIM_RELAX_KERNELS_H

#include <string.h>

#include "relax_fast_internal.h"
#include "relax_lanes.h"

#ifndef KERNEL_LOOP
#define KERNEL_LOOP
#endif
#define KERNEL_NAME_(level, name) relax_kernels_##level##_##name
#define KERNEL_NAME(level, name) KERNEL_NAME_(level, name)

/* Blocks a vector takes, and vectors a block takes. */
#define STEP_BLOCKS (VLANES > LANES ? VLANES / LANES : 1)
#define BLOCK_VECTORS (VLANES < LANES ? LANES / VLANES : 1)

/* Lane index vectors of __builtin_shufflevector (GCC 12 and Clang):
 * - LOAD_*: the a ends (and the b ends, _B) of a PAIRS or QUADS vector
 *   from two loads laid end to end, lo at the vector's first particle and
 *   hi LOAD_GAP further on (the block's second half of particles, or at
 *   sixteen lanes the next block);
 * - STORE_*: what goes back into lo and into hi from (a, b) laid end to
 *   end. */
#if VLANES == 4
#define LOAD_GAP 8
#define PAIRS_A 0, 2, 4, 6
#define PAIRS_B 1, 3, 5, 7
#define PAIRS_LO 0, 4, 1, 5
#define PAIRS_HI 2, 6, 3, 7
#define QUADS_A 0, 1, 4, 5
#define QUADS_B 2, 3, 6, 7
#define QUADS_LO 0, 1, 4, 5
#define QUADS_HI 2, 3, 6, 7
#elif VLANES == 8
#define LOAD_GAP 8
#define PAIRS_A 0, 2, 8, 10, 4, 6, 12, 14
#define PAIRS_B 1, 3, 9, 11, 5, 7, 13, 15
#define PAIRS_LO 0, 8, 1, 9, 4, 12, 5, 13
#define PAIRS_HI 2, 10, 3, 11, 6, 14, 7, 15
#define QUADS_A 0, 1, 8, 9, 4, 5, 12, 13
#define QUADS_B 2, 3, 10, 11, 6, 7, 14, 15
#define QUADS_LO 0, 1, 8, 9, 4, 5, 12, 13
#define QUADS_HI 2, 3, 10, 11, 6, 7, 14, 15
#else
#define LOAD_GAP 16
#define PAIRS_A 0, 2, 8, 10, 4, 6, 12, 14, 16, 18, 24, 26, 20, 22, 28, 30
#define PAIRS_B 1, 3, 9, 11, 5, 7, 13, 15, 17, 19, 25, 27, 21, 23, 29, 31
#define PAIRS_LO 0, 16, 1, 17, 4, 20, 5, 21, 2, 18, 3, 19, 6, 22, 7, 23
#define PAIRS_HI 8, 24, 9, 25, 12, 28, 13, 29, 10, 26, 11, 27, 14, 30, 15, 31
#define QUADS_A 0, 1, 8, 9, 4, 5, 12, 13, 16, 17, 24, 25, 20, 21, 28, 29
#define QUADS_B 2, 3, 10, 11, 6, 7, 14, 15, 18, 19, 26, 27, 22, 23, 30, 31
#define QUADS_LO 0, 1, 16, 17, 4, 5, 20, 21, 2, 3, 18, 19, 6, 7, 22, 23
#define QUADS_HI 8, 9, 24, 25, 12, 13, 28, 29, 10, 11, 26, 27, 14, 15, 30, 31
#endif

/* ---------------------------------------------------------------- a block's lanes */

/* Vector h of a unit's ends in array v: the a ends from particle pa on,
 * the b ends from pb (ROWS). */
LANES_INLINE void load_ends(ParticleLayout layout, const float *v, int pa, int pb, int h, vf *a, vf *b)
{
    if (layout == ROWS) {
        *a = v_loadu(v + pa + h * VLANES);
        *b = v_loadu(v + pb + h * VLANES);
        return;
    }
    vf lo = v_loadu(v + pa + h * VLANES), hi = v_loadu(v + pa + h * VLANES + LOAD_GAP);
    if (layout == PAIRS) {
        *a = __builtin_shufflevector(lo, hi, PAIRS_A);
        *b = __builtin_shufflevector(lo, hi, PAIRS_B);
    } else {
        *a = __builtin_shufflevector(lo, hi, QUADS_A);
        *b = __builtin_shufflevector(lo, hi, QUADS_B);
    }
}

LANES_INLINE void store_ends(ParticleLayout layout, float *v, int pa, int pb, int h, vf a, vf b)
{
    if (layout == ROWS) {
        v_storeu(v + pa + h * VLANES, a);
        v_storeu(v + pb + h * VLANES, b);
    } else if (layout == PAIRS) {
        v_storeu(v + pa + h * VLANES, __builtin_shufflevector(a, b, PAIRS_LO));
        v_storeu(v + pa + h * VLANES + LOAD_GAP, __builtin_shufflevector(a, b, PAIRS_HI));
    } else {
        v_storeu(v + pa + h * VLANES, __builtin_shufflevector(a, b, QUADS_LO));
        v_storeu(v + pa + h * VLANES + LOAD_GAP, __builtin_shufflevector(a, b, QUADS_HI));
    }
}

/* A vector's two ends: inverse masses and positions. */
typedef struct Ends {
    vf xa, xb, ya, yb, za, zb, wa, wb;
} Ends;

LANES_INLINE void load_block(ParticleLayout particles, const float *x, const float *y, const float *z, const float *w,
                             int a, int b, int h, Ends *e)
{
    load_ends(particles, w, a, b, h, &e->wa, &e->wb);
    load_ends(particles, x, a, b, h, &e->xa, &e->xb);
    load_ends(particles, y, a, b, h, &e->ya, &e->yb);
    load_ends(particles, z, a, b, h, &e->za, &e->zb);
}

/* Solves the links of vector h whose ends `ends` holds: solve_link lane by
 * lane. A lane whose link is skipped is computed all the same and then
 * left out by a select. rest, lambda: the vector's; bits: its live lanes. */
LANES_INLINE void solve_loaded(ParticleLayout particles, bool xpbd, float *x, float *y, float *z, int a, int b, int h,
                               const Ends *ends, const float *rest_at, unsigned bits, float k, float alpha,
                               float *lambda)
{
    Ends e = *ends;
    vf scale;
    vf dx = e.xb - e.xa, dy = e.yb - e.ya, dz = e.zb - e.za;
    vf rest = v_loadu(rest_at);
    vf w = e.wa + e.wb;
    vf length = v_sqrt(v_fma(dz, dz, v_fma(dy, dy, dx * dx)));
    /* w == 0: both ends fixed; length < 1e-12: no direction (NaN goes on,
     * as in C). Every lane solved is the usual case: the selects only
     * when not. */
    vmask live = m_and(v_ne(w, v_splat(0.0f)), v_not_lt(length, v_splat(1e-12f)));
    bool all = (m_to_bits(live) & bits) == (1u << VLANES) - 1u;
    if (!all)
        live = m_and(live, m_bits(bits));
    vf error = length - rest;
    if (xpbd) {
        vf old = v_loadu(lambda);
        vf alpha_link = v_splat(alpha) * rest;
        vf dlambda = (-error - alpha_link * old) / (w + alpha_link);
        vf sum = old + dlambda;
        v_storeu(lambda, all ? sum : v_select(live, sum, old));
        scale = -dlambda / length;
    } else {
        scale = v_splat(k) * error / (length * w);
    }
    vf move_a = e.wa * scale, move_b = e.wb * scale;
    vf xa = v_fma(move_a, dx, e.xa), ya = v_fma(move_a, dy, e.ya), za = v_fma(move_a, dz, e.za);
    vf xb = v_fnma(move_b, dx, e.xb), yb = v_fnma(move_b, dy, e.yb), zb = v_fnma(move_b, dz, e.zb);
    if (!all) { /* rare: a lane to leave as it was */
        xa = v_select(live, xa, e.xa), ya = v_select(live, ya, e.ya), za = v_select(live, za, e.za);
        xb = v_select(live, xb, e.xb), yb = v_select(live, yb, e.yb), zb = v_select(live, zb, e.zb);
    }
    store_ends(particles, x, a, b, h, xa, xb);
    store_ends(particles, y, a, b, h, ya, yb);
    store_ends(particles, z, a, b, h, za, zb);
}

/* The live lanes of the STEP_BLOCKS blocks from i, bit p for lane p. */
LANES_INLINE unsigned unit_bits(const uint8_t *live, int i)
{
    unsigned bits = live[i];
    for (int s = 1; s < STEP_BLOCKS; s++)
        bits |= (unsigned)live[i + s] << (LANES * s);
    return bits;
}

/* A run of blocks [begin, end) (at sixteen lanes, pairs of them: an even
 * count), STEP_BLOCKS at a time, one instance per layout and method so
 * that each inner loop is straight. Each block's indices are copied into
 * locals first, for the same reason as the arrays (KERNEL_ARRAYS). With 32
 * registers (sixteen lanes) each vector's ends are loaded while the one
 * before is solved: they share no particle, so that changes nothing but
 * the time (the loads no longer wait behind the previous vector's square
 * root and division). */
#define BLOCK_LOOP(name, particles, xpbd)                                                                              \
    KERNEL_LOOP static void name(Cloth *c, const RelaxFast *f, int begin, int end, float k, float alpha)               \
    {                                                                                                                  \
        KERNEL_ARRAYS(c, f)                                                                                            \
        if (VLANES == 16) {                                                                                            \
            if (begin >= end)                                                                                          \
                return;                                                                                                \
            Ends now, next;                                                                                            \
            load_block(particles, x, y, z, w, blocks[begin].a, blocks[begin].b, 0, &now);                              \
            int i = begin;                                                                                             \
            for (; i + STEP_BLOCKS < end; i += STEP_BLOCKS) {                                                          \
                size_t lane = (size_t)i * LANES;                                                                       \
                load_block(particles, x, y, z, w, blocks[i + STEP_BLOCKS].a, blocks[i + STEP_BLOCKS].b, 0, &next);     \
                solve_loaded(particles, xpbd, x, y, z, blocks[i].a, blocks[i].b, 0, &now, rest + lane,                 \
                             unit_bits(live, i), k, alpha, lambda + lane);                                             \
                now = next;                                                                                            \
            }                                                                                                          \
            size_t lane = (size_t)i * LANES;                                                                           \
            solve_loaded(particles, xpbd, x, y, z, blocks[i].a, blocks[i].b, 0, &now, rest + lane, unit_bits(live, i), \
                         k, alpha, lambda + lane);                                                                     \
            return;                                                                                                    \
        }                                                                                                              \
        for (int i = begin; i < end; i += STEP_BLOCKS) {                                                               \
            int a = blocks[i].a, b = blocks[i].b;                                                                      \
            unsigned bits = unit_bits(live, i);                                                                        \
            for (int h = 0; h < BLOCK_VECTORS; h++) {                                                                  \
                Ends e;                                                                                                \
                size_t lane = (size_t)i * LANES + (size_t)h * VLANES;                                                  \
                load_block(particles, x, y, z, w, a, b, h, &e);                                                        \
                solve_loaded(particles, xpbd, x, y, z, a, b, h, &e, rest + lane,                                       \
                             bits >> (h * VLANES) & ((1u << VLANES) - 1u), k, alpha, lambda + lane);                   \
            }                                                                                                          \
        }                                                                                                              \
    }
BLOCK_LOOP(blocks_pairs, PAIRS, false)
BLOCK_LOOP(blocks_rows, ROWS, false)
BLOCK_LOOP(blocks_quads, QUADS, false)
BLOCK_LOOP(blocks_pairs_xpbd, PAIRS, true)
BLOCK_LOOP(blocks_rows_xpbd, ROWS, true)
BLOCK_LOOP(blocks_quads_xpbd, QUADS, true)

/* The block lanes' rest lengths and live masks of unit u, from its links,
 * lane by lane in the blocks' lane order (relax_colour.c). */
static void refresh_unit(RelaxFast *f, const Cloth *c, const Unit *u)
{
    static const int ordinal[LANES] = {0, 1, 4, 5, 2, 3, 6, 7};
    const Colour *col = &f->colour[u->colour];
    for (int i = u->block_begin; i < u->block_end; i++) {
        const Block *bk = &f->blocks[i];
        unsigned bits = 0;
        for (int p = 0; p < LANES; p++) {
            int j = col->particles == ROWS ? p : ordinal[p]; /* the lane's link along the row */
            int l = bk->link + link_offset(col->links, j);
            f->block_rest[(size_t)i * LANES + (size_t)p] = c->rest_length[l];
            /* a lane the previous block solved is off */
            bits |= (unsigned)(!c->torn[l] && j >= bk->skip) << p;
        }
        f->block_live[i] = (uint8_t)bits;
    }
}

/* ---------------------------------------------------------------- contact */

/* sphere_push on particles begin .. end, VLANES at a time. */
static void sphere_range(Cloth *c, int begin, int end, const Collider *sphere, float margin, float friction)
{
    const vf cx = v_splat(sphere->center[0]), cy = v_splat(sphere->center[1]), cz = v_splat(sphere->center[2]),
             radius = v_splat(sphere->radius), skin = v_splat(margin), zero = v_splat(0.0f), one = v_splat(1.0f),
             tiny = v_splat(1e-9f);
    /* a vector whose squared distances all exceed this, a little more than
     * (radius + margin)^2, has no lane in contact: it skips the square root */
    float reach = (sphere->radius + margin) * 1.001f + 1e-6f;
    const vf far = v_splat(reach * reach);
    int i = begin;
    for (; i + VLANES <= end; i += VLANES) {
        vf x = v_loadu(c->x + i), y = v_loadu(c->y + i), z = v_loadu(c->z + i);
        vf dx = x - cx, dy = y - cy, dz = z - cz;
        vf d2 = dx * dx + dy * dy + dz * dz;
        if (m_all(v_gt(d2, far)))
            continue;
        vf d = v_sqrt(d2);
        vf distance = d - radius;
        vmask hit = m_and(v_not_ge(distance, skin), v_ne(v_loadu(c->inv_mass + i), zero));
        if (!m_any(hit))
            continue;
        vmask away = v_gt(d, tiny);
        vf nx = v_select(away, dx / d, zero), ny = v_select(away, dy / d, one), nz = v_select(away, dz / d, zero);
        vf push = skin - distance;
        vf px = x + push * nx, py = y + push * ny, pz = z + push * nz;
        if (friction > 0.0f) { /* the tangential part of the move since the substep began, cut */
            vf mx = px - v_loadu(c->px + i), my = py - v_loadu(c->py + i), mz = pz - v_loadu(c->pz + i);
            vf along = mx * nx + my * ny + mz * nz;
            vf cut = v_splat(friction);
            px = px - cut * (mx - along * nx);
            py = py - cut * (my - along * ny);
            pz = pz - cut * (mz - along * nz);
        }
        v_storeu(c->x + i, v_select(hit, px, x));
        v_storeu(c->y + i, v_select(hit, py, y));
        v_storeu(c->z + i, v_select(hit, pz, z));
    }
    for (; i < end; i++)
        sphere_push(c, i, sphere, margin, friction);
}

/* ---------------------------------------------------------------- the explosion check */

/* blew_up's link half on cloth_create's grid (relax_fast.c,
 * structural_grid), rows from .. to - 1: whether a structural link across
 * a row or down from it is over stretch times its rest length, a vector of
 * links read straight from the particle, rest and torn arrays (a row's
 * links across, and its links down, lie side by side; gathered through the
 * colours' blocks it took longer). */
static bool rows_overstretched(const Cloth *c, int from, int to, float stretch)
{
    const int cols = c->cols;
    const vf factor = v_splat(stretch);
    for (int row = from; row < to; row++)
        for (int down = 0; down < 2; down++) {
            int n = !down ? cols - 1 : row + 1 < c->rows ? cols : 0;
            if (n == 0)
                continue;
            int first = !down ? cloth_link_right(c, 0, row) : cloth_link_below(c, 0, row), gap = !down ? 1 : cols;
            int i = 0;
            for (; i + VLANES <= n; i += VLANES) {
                int a = row * cols + i, b = a + gap, l = first + i;
                vf dx = v_loadu(c->x + b) - v_loadu(c->x + a);
                vf dy = v_loadu(c->y + b) - v_loadu(c->y + a);
                vf dz = v_loadu(c->z + b) - v_loadu(c->z + a);
                vf d2 = dx * dx + dy * dy + dz * dz;
                vf longest = factor * v_loadu(c->rest_length + l);
                if (m_any(m_and(v_gt(d2, longest * longest), m_zero_bytes(c->torn + l))))
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

/* blew_up's coordinate half for particles from .. to - 1: false if one is
 * not finite (or beyond 1e30); else the least and most of each axis. */
static bool coordinates_sane(const Cloth *c, int from, int to, float least[3], float most[3])
{
    const float *coords[3] = {c->x, c->y, c->z};
    const vf low = v_splat(-1e30f), high = v_splat(1e30f);
    for (int k = 0; k < 3; k++) {
        const float *v = coords[k];
        vf lo = v_splat(INFINITY), hi = v_splat(-INFINITY);
        int i = from;
        for (; i + VLANES <= to; i += VLANES) {
            vf p = v_loadu(v + i);
            if (!m_all(m_and(v_gt(p, low), v_lt(p, high))))
                return false;
            lo = v_min(p, lo), hi = v_max(p, hi);
        }
        least[k] = INFINITY, most[k] = -INFINITY;
        for (int j = 0; j < VLANES; j++) {
            least[k] = lo[j] < least[k] ? lo[j] : least[k];
            most[k] = hi[j] > most[k] ? hi[j] : most[k];
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

/* ---------------------------------------------------------------- the stages around the passes */

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

/* solver_wind_cells for the VLANES cells of row `row` from column col, when
 * none of their triangles is torn: each cell whole, its corners tl, bl,
 * br, tr in that order, with solver_wind_cells' operations. Where one is
 * torn or of no area, solver_wind_cells itself does them. */
static void wind_on_cells(Solver *s, int row, int col)
{
    const Cloth *c = s->cloth;
    int cell = row * (c->cols - 1) + col, tl = row * c->cols + col, bl = tl + c->cols;
    if (any_torn(c->triangle_torn + 2 * cell, 2 * VLANES)) {
        solver_wind_cells(s, cell, cell + VLANES);
        return;
    }
    const float *v[8] = {c->x, c->y, c->z, s->wind_x_at, s->wind_z_at, c->vx, c->vy, c->vz};
    vf top_left[8], top_right[8], bottom_left[8], bottom_right[8];
    for (int k = 0; k < 8; k++) {
        top_left[k] = v_loadu(v[k] + tl), top_right[k] = v_loadu(v[k] + tl + 1);
        bottom_left[k] = v_loadu(v[k] + bl), bottom_right[k] = v_loadu(v[k] + bl + 1);
    }
    vf e1x = bottom_right[0] - top_left[0], e1y = bottom_right[1] - top_left[1], e1z = bottom_right[2] - top_left[2];
    vf e2x = top_right[0] - bottom_left[0], e2y = top_right[1] - bottom_left[1], e2z = top_right[2] - bottom_left[2];
    vf nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
    vf length = v_sqrt(nx * nx + ny * ny + nz * nz);
    if (m_any(v_not_ge(length, v_splat(1e-12f)))) {
        solver_wind_cells(s, cell, cell + VLANES);
        return;
    }
    /* the corners' sums, from 0 in the order tl, bl, br, tr */
    vf sum[8];
    for (int k = 3; k < 8; k++)
        sum[k] = v_splat(0.0f) + top_left[k] + bottom_left[k] + bottom_right[k] + top_right[k];
    const vf mean = v_splat(0.25f);
    vf rx = (sum[3] - sum[5]) * mean, ry = -sum[6] * mean, rz = (sum[4] - sum[7]) * mean;
    vf dot = nx * rx + ny * ry + nz * rz;
    vf scale = v_splat(SOLVER_WIND_DRAG * 0.5f * 0.25f) * dot / length;
    v_storeu(s->wind_cell_x + cell, nx * scale);
    v_storeu(s->wind_cell_y + cell, ny * scale);
    v_storeu(s->wind_cell_z + cell, nz * scale);
}

/* solver_wind_to_particles for the VLANES particles of an inner row from
 * column col (>= 1, all four cells there) but the first `done` of them,
 * which have had theirs, when no triangle of the cells they touch is torn:
 * each adds up-left, up, left, own, in that order. The particles done keep
 * their sums through a select. */
static void wind_to_particles(Solver *s, int row, int col, int done)
{
    const Cloth *c = s->cloth;
    int cells = c->cols - 1, i = row * c->cols + col;
    int up = (row - 1) * cells + col, here = row * cells + col;
    if (any_torn(c->triangle_torn + 2 * (up - 1), 2 * (VLANES + 1)) ||
        any_torn(c->triangle_torn + 2 * (here - 1), 2 * (VLANES + 1))) {
        solver_wind_to_particles(s, i + done, i + VLANES);
        return;
    }
    const int cell[4] = {up - 1, up, here - 1, here};
    float *acc[3] = {s->fx, s->fy, s->fz};
    const float *force[3] = {s->wind_cell_x, s->wind_cell_y, s->wind_cell_z};
    const vmask fresh = m_from(done);
    for (int k = 0; k < 3; k++) {
        vf start = v_loadu(acc[k] + i), total = start;
        for (int n = 0; n < 4; n++)
            total = total + v_loadu(force[k] + cell[n]);
        v_storeu(acc[k] + i, v_select(fresh, total, start));
    }
}

/* solver_wind_cells for the cells of rows from .. to - 1, VLANES at a time. */
static void wind_cell_rows(Solver *s, int from, int to)
{
    int cells = s->cloth->cols - 1;
    for (int row = from; row < to; row++) {
        int col = 0;
        for (; col + VLANES <= cells; col += VLANES)
            wind_on_cells(s, row, col);
        /* the last few cells: the row's last VLANES again, those before them
         * worked out a second time to the same bits */
        if (col < cells && cells >= VLANES)
            wind_on_cells(s, row, cells - VLANES);
        else
            solver_wind_cells(s, row * cells + col, (row + 1) * cells);
    }
}

/* solver_wind_to_particles for the particles of rows from .. to - 1: an
 * inner row's inner particles VLANES at a time, the rest one by one. */
static void wind_particle_rows(Solver *s, int from, int to)
{
    const Cloth *c = s->cloth;
    for (int row = from; row < to; row++) {
        int i = row * c->cols, col = 1;
        if (row == 0 || row == c->rows - 1) {
            solver_wind_to_particles(s, i, i + c->cols);
            continue;
        }
        solver_wind_to_particles(s, i, i + 1);
        for (; col + VLANES <= c->cols - 1; col += VLANES)
            wind_to_particles(s, row, col, 0);
        /* the last few inner particles: the row's last VLANES inner ones, those
         * already done kept as they are */
        int last = c->cols - 1 - VLANES;
        if (col < c->cols - 1 && last >= 1) {
            wind_to_particles(s, row, last, col - last);
            col = c->cols - 1;
        }
        solver_wind_to_particles(s, i + col, i + c->cols);
    }
}

/* stage_forces' start for particles from .. to - 1: no force but gravity,
 * and, when windy, solver_wind_field, VLANES at a time. */
static void forces(Solver *s, const Job *job, int from, int to)
{
    Cloth *c = s->cloth;
    const vf gravity = v_splat(job->gravity), zero = v_splat(0.0f);
    int i = from;
    for (; i + VLANES <= to; i += VLANES) {
        v_storeu(s->fx + i, zero);
        v_storeu(s->fy + i, -v_loadu(c->mass + i) * gravity);
        v_storeu(s->fz + i, zero);
    }
    for (; i < to; i++) {
        s->fx[i] = 0.0f;
        s->fy[i] = -c->mass[i] * job->gravity;
        s->fz[i] = 0.0f;
    }
    if (!job->windy)
        return;
    /* solver_wind_field, row by row: each row's factors broadcast, the
     * columns' tables VLANES at a time */
    const int cols = c->cols, rows = c->rows, waves = 2 * SOLVER_TURBULENCE_WAVES;
    const vf wx = v_splat((float)s->params.wind_x), wz = v_splat((float)s->params.wind_z);
    for (int row = from / cols; row * cols < to; row++) {
        int first = row * cols > from ? row * cols : from, last = (row + 1) * cols < to ? (row + 1) * cols : to;
        vf p[2 * SOLVER_TURBULENCE_WAVES], q[2 * SOLVER_TURBULENCE_WAVES];
        _Pragma("GCC unroll 16") for (int w = 0; w < waves; w++) p[w] = v_splat(s->wave_p[w * rows + row]),
                                                                 q[w] = v_splat(s->wave_q[w * rows + row]);
        for (i = first; i + VLANES <= last; i += VLANES) {
            int col = i - row * cols;
            vf g[2] = {zero, zero};
            _Pragma("GCC unroll 16") for (int w = 0; w < waves; w++)
            {
                vf term =
                    p[w] * v_loadu(s->wave_col_cos + w * cols + col) - q[w] * v_loadu(s->wave_col_sin + w * cols + col);
                g[w / SOLVER_TURBULENCE_WAVES] = g[w / SOLVER_TURBULENCE_WAVES] + term;
            }
            v_storeu(s->wind_x_at + i, wx + g[0]);
            v_storeu(s->wind_z_at + i, wz + g[1]);
        }
        solver_wind_field(s, i, last);
    }
}

/* ---------------------------------------------------------------- the table */

void KERNEL_NAME(KERNELS_LEVEL, fill)(RelaxPassKernels *table);
void KERNEL_NAME(KERNELS_LEVEL, fill)(RelaxPassKernels *table)
{
    const RelaxBlockLoop loops[2][3] = {{blocks_rows, blocks_pairs, blocks_quads},
                                        {blocks_rows_xpbd, blocks_pairs_xpbd, blocks_quads_xpbd}};
    for (int xpbd = 0; xpbd < 2; xpbd++)
        for (int layout = 0; layout < 3; layout++) {
            if (STEP_BLOCKS > 1)
                table->pairs[xpbd][layout] = loops[xpbd][layout];
            else
                table->blocks[xpbd][layout] = loops[xpbd][layout];
        }
    table->refresh_unit = refresh_unit;
    table->sphere_range = sphere_range;
    table->forces = forces;
    table->wind_cell_rows = wind_cell_rows;
    table->wind_particle_rows = wind_particle_rows;
    table->coordinates_sane = coordinates_sane;
    table->rows_overstretched = rows_overstretched;
}

#endif
