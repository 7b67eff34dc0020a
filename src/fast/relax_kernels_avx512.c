/* relax_kernels_avx512.c - the fast path's pass kernels sixteen links at
 * a time (AVX-512). Where the CPU has AVX-512 (and the vectors are as wide
 * as the registers, as on Zen 4 and 5), two blocks that follow each other in a row are solved
 * as one vector of 16: the particles of block i + 1 come right after those
 * of block i, and so do its rest lengths and its byte of live lanes. The
 * lanes keep the AVX2 kernel's order (block i in lanes 0 to 7, block i + 1
 * in 8 to 15), so block_rest and block_live serve both, and the arithmetic is
 * the same, operation for operation: the same bits. A block with no
 * neighbour to pair with goes through the AVX2 kernel. */
#include "relax_fast_internal.h"

#if RELAX_FAST_X86

/* Particle offset of AVX2 lane p of a block (the a end): shuffle_ps and
 * unpack_pd leave lanes 2, 3 and 4, 5 swapped against the links' order. */
static int lane_offset(ParticleLayout layout, int p)
{
    static const int ordinal[LANES] = {0, 1, 4, 5, 2, 3, 6, 7};
    return particle_offset(layout, layout == ROWS ? p : ordinal[p]);
}

/* The four index vectors of _mm512_permutex2var_ps for a PAIRS or QUADS
 * pair of blocks (32 particles from a: lo = the first 16, hi = the next):
 * gathering the a ends and the b ends into lanes, and scattering both back
 * into lo and hi. */
static void make_wide_indices(ParticleLayout layout, int32_t out[4][2 * LANES])
{
    int gap = layout == PAIRS ? 1 : 2; /* b = a + gap */
    for (int p = 0; p < 2 * LANES; p++) {
        int offset = lane_offset(layout, p % LANES) + (p / LANES) * 2 * LANES;
        out[0][p] = offset, out[1][p] = offset + gap;
    }
    for (int p = 0; p < 2 * LANES; p++)
        for (int q = 0; q < 2 * LANES; q++) {
            /* particle q of lo (and of hi) is the a end or the b end of some lane */
            for (int half = 0; half < 2; half++) {
                if (out[0][p] == q + half * 2 * LANES)
                    out[2 + half][q] = p;
                if (out[1][p] == q + half * 2 * LANES)
                    out[2 + half][q] = 2 * LANES + p;
            }
        }
}

#define AVX512 __attribute__((target("avx512f,avx512dq,avx2,fma")))
#define AVX512_INLINE static inline __attribute__((target("avx512f,avx512dq,avx2,fma"), always_inline))

typedef struct WideEnds {
    __m512 xa, xb, ya, yb, za, zb, wa, wb;
} WideEnds;

AVX512_INLINE void wide_load(ParticleLayout layout, const float *v, int pa, int pb, const __m512i *index, __m512 *a,
                             __m512 *b)
{
    if (layout == ROWS) {
        *a = _mm512_loadu_ps(v + pa), *b = _mm512_loadu_ps(v + pb);
        return;
    }
    __m512 lo = _mm512_loadu_ps(v + pa), hi = _mm512_loadu_ps(v + pa + 2 * LANES);
    *a = _mm512_permutex2var_ps(lo, index[0], hi);
    *b = _mm512_permutex2var_ps(lo, index[1], hi);
}

AVX512_INLINE void wide_store(ParticleLayout layout, float *v, int pa, int pb, const __m512i *index, __m512 a,
                              __m512 b)
{
    if (layout == ROWS) {
        _mm512_storeu_ps(v + pa, a), _mm512_storeu_ps(v + pb, b);
        return;
    }
    _mm512_storeu_ps(v + pa, _mm512_permutex2var_ps(a, index[2], b));
    _mm512_storeu_ps(v + pa + 2 * LANES, _mm512_permutex2var_ps(a, index[3], b));
}

/* solve_loaded for blocks i and i + 1 of a row at once. */
/* The ends of a pair of blocks. */
AVX512_INLINE void wide_fetch(ParticleLayout particles, const float *x, const float *y, const float *z, const float *w,
                              const BlockEnds *pair, const __m512i *index, WideEnds *e)
{
    wide_load(particles, w, pair->a, pair->b, index, &e->wa, &e->wb);
    wide_load(particles, x, pair->a, pair->b, index, &e->xa, &e->xb);
    wide_load(particles, y, pair->a, pair->b, index, &e->ya, &e->yb);
    wide_load(particles, z, pair->a, pair->b, index, &e->za, &e->zb);
}

/* solve_loaded for a pair of blocks whose ends are e. */
AVX512_INLINE void wide_solve(ParticleLayout particles, bool xpbd, float *x, float *y, float *z, WideEnds e,
                              const BlockEnds *pair, const __m512i *index, const float *block_rest,
                              const uint8_t *block_live, float k, float alpha, float *lambda)
{
    int a = pair->a, b = pair->b;
    __m512 dx = _mm512_sub_ps(e.xb, e.xa), dy = _mm512_sub_ps(e.yb, e.ya), dz = _mm512_sub_ps(e.zb, e.za);
    __m512 rest = _mm512_loadu_ps(block_rest);
    __m512 w_sum = _mm512_add_ps(e.wa, e.wb);
    __m512 length = _mm512_sqrt_ps(_mm512_fmadd_ps(dz, dz, _mm512_fmadd_ps(dy, dy, _mm512_mul_ps(dx, dx))));
    __mmask16 live = (__mmask16)(block_live[0] | block_live[1] << 8) &
                     _mm512_cmp_ps_mask(w_sum, _mm512_setzero_ps(), _CMP_NEQ_UQ) &
                     _mm512_cmp_ps_mask(length, _mm512_set1_ps(1e-12f), _CMP_NLT_UQ);
    __m512 error = _mm512_sub_ps(length, rest), scale;
    const __m512 sign = _mm512_set1_ps(-0.0f);
    if (xpbd) {
        __m512 old = _mm512_loadu_ps(lambda);
        __m512 alpha_link = _mm512_mul_ps(_mm512_set1_ps(alpha), rest);
        __m512 dlambda = _mm512_div_ps(_mm512_sub_ps(_mm512_xor_ps(error, sign), _mm512_mul_ps(alpha_link, old)),
                                       _mm512_add_ps(w_sum, alpha_link));
        _mm512_storeu_ps(lambda, _mm512_mask_add_ps(old, live, old, dlambda));
        scale = _mm512_div_ps(_mm512_xor_ps(dlambda, sign), length);
    } else {
        scale = _mm512_div_ps(_mm512_mul_ps(_mm512_set1_ps(k), error), _mm512_mul_ps(length, w_sum));
    }
    __m512 move_a = _mm512_mul_ps(e.wa, scale), move_b = _mm512_mul_ps(e.wb, scale);
    /* where a lane is not live, the masked operations leave it as loaded */
    __m512 xa = _mm512_mask3_fmadd_ps(move_a, dx, e.xa, live), ya = _mm512_mask3_fmadd_ps(move_a, dy, e.ya, live);
    __m512 za = _mm512_mask3_fmadd_ps(move_a, dz, e.za, live), xb = _mm512_mask3_fnmadd_ps(move_b, dx, e.xb, live);
    __m512 yb = _mm512_mask3_fnmadd_ps(move_b, dy, e.yb, live), zb = _mm512_mask3_fnmadd_ps(move_b, dz, e.zb, live);
    wide_store(particles, x, a, b, index, xa, xb);
    wide_store(particles, y, a, b, index, ya, yb);
    wide_store(particles, z, a, b, index, za, zb);
}

/* BLOCK_LOOP for a run of pairs of blocks (begin and end an even count
 * apart), a pair at a time, each pair's ends loaded while the one before is
 * solved: the pairs share no particle, so that changes nothing but the
 * time (10 % of a pass: with 32 registers the loads no longer wait behind
 * the previous pair's square root and division). */
#define WIDE_LOOP(name, particles, xpbd)                                                                             \
    AVX512 static void name(Cloth *c, const RelaxFast *f, int begin, int end, float k, float alpha)              \
    {                                                                                                              \
        KERNEL_ARRAYS(c, f)                                                                                        \
        __m512i index[4];                                                                                          \
        for (int q = 0; q < 4; q++)                                                                                \
            index[q] = _mm512_loadu_si512(f->wide_index[(particles) == QUADS][q]);                                 \
        if (begin >= end)                                                                                          \
            return;                                                                                                \
        WideEnds now, next;                                                                                        \
        wide_fetch(particles, x, y, z, w, &blocks[begin], index, &now);                                            \
        int i = begin;                                                                                             \
        for (; i + 2 < end; i += 2) {                                                                              \
            size_t lane = (size_t)i * LANES;                                                                       \
            wide_fetch(particles, x, y, z, w, &blocks[i + 2], index, &next);                                       \
            wide_solve(particles, xpbd, x, y, z, now, &blocks[i], index, rest + lane, live + i, k, alpha,          \
                       lambda + lane);                                                                             \
            now = next;                                                                                            \
        }                                                                                                          \
        size_t lane = (size_t)i * LANES;                                                                           \
        wide_solve(particles, xpbd, x, y, z, now, &blocks[i], index, rest + lane, live + i, k, alpha, lambda + lane); \
    }
WIDE_LOOP(wide_pairs, PAIRS, false)
WIDE_LOOP(wide_rows, ROWS, false)
WIDE_LOOP(wide_quads, QUADS, false)
WIDE_LOOP(wide_pairs_xpbd, PAIRS, true)
WIDE_LOOP(wide_rows_xpbd, ROWS, true)
WIDE_LOOP(wide_quads_xpbd, QUADS, true)

void relax_kernels_avx512_indices(int32_t out[2][4][2 * LANES])
{
    make_wide_indices(PAIRS, out[0]);
    make_wide_indices(QUADS, out[1]);
}

void relax_kernels_avx512_fill(RelaxPassKernels *table)
{
    const RelaxBlockLoop pairs[2][3] = {{wide_rows, wide_pairs, wide_quads},
                                        {wide_rows_xpbd, wide_pairs_xpbd, wide_quads_xpbd}};
    for (int xpbd = 0; xpbd < 2; xpbd++)
        for (int layout = 0; layout < 3; layout++)
            table->pairs[xpbd][layout] = pairs[xpbd][layout];
}

#endif
