/* relax_rows_simd.h - what the sequential order's AVX-512 walk
 * (relax_helix_avx512.c) is written in: sixteen links' correction,
 * operation for operation as the plain loop's, and the transpose that
 * turns sixteen rows into sixteen lanes (relax_rows.h says whether the
 * processor runs them, and why the name). Only for files compiled for x86
 * with GCC or Clang (ROWS_X86).
 */
#ifndef CLOTHSIM_RELAX_ROWS_SIMD_H
#define CLOTHSIM_RELAX_ROWS_SIMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "relax_schedule.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define ROWS_X86 1
#else
#define ROWS_X86 0
#endif

#if ROWS_X86

#define ROWS_TARGET __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma")))
#define ROWS_INLINE static inline __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma"), always_inline))

/* Sixteen particles: position and inverse mass. */
typedef struct Ends {
    __m512 x, y, z, w;
} Ends;

/* A family's constants in this pass. */
typedef struct Family {
    __m512 k, alpha;
    bool xpbd;
} Family;

/* solver_link_correction for sixteen links a to b at once, operation for
 * operation: the scale of the moves along d (b - a); *moving loses the
 * lanes the plain loop skips (no inverse mass, no length), whose multiplier
 * (xpbd) stays as it was. solve: then solver_relax_link's moves (not kept);
 * lanes outside live keep a and b as they were. */
ROWS_INLINE __m512 correction(const Ends *a, const Ends *b, __m512 rest, __mmask16 *moving, const Family *f,
                              __m512 *lambda, __m512 d[3])
{
    const __m512 zero = _mm512_setzero_ps(), sign = _mm512_set1_ps(-0.0f);
    __mmask16 live = *moving;
    __m512 w = _mm512_add_ps(a->w, b->w);
    live &= _mm512_cmp_ps_mask(w, zero, _CMP_NEQ_UQ);
    __m512 dx = _mm512_sub_ps(b->x, a->x), dy = _mm512_sub_ps(b->y, a->y), dz = _mm512_sub_ps(b->z, a->z);
    __m512 length = _mm512_sqrt_ps(_mm512_fmadd_ps(dz, dz, _mm512_fmadd_ps(dy, dy, _mm512_mul_ps(dx, dx))));
    live &= _mm512_cmp_ps_mask(length, _mm512_set1_ps(1e-12f), _CMP_NLT_UQ);
    __m512 error = _mm512_sub_ps(length, rest);
    __m512 scale;
    if (f->xpbd) {
        __m512 alpha_link = _mm512_mul_ps(f->alpha, rest);
        __m512 dlambda = _mm512_div_ps(_mm512_sub_ps(_mm512_xor_ps(error, sign), _mm512_mul_ps(alpha_link, *lambda)),
                                       _mm512_add_ps(w, alpha_link));
        *lambda = _mm512_mask_add_ps(*lambda, live, *lambda, dlambda);
        scale = _mm512_div_ps(_mm512_xor_ps(dlambda, sign), length);
    } else {
        scale = _mm512_div_ps(_mm512_mul_ps(f->k, error), _mm512_mul_ps(length, w));
    }
    d[0] = dx, d[1] = dy, d[2] = dz;
    *moving = live;
    return scale;
}

ROWS_INLINE void solve(Ends *a, Ends *b, __m512 rest, __mmask16 live, const Family *f, __m512 *lambda)
{
    __m512 d[3];
    __m512 scale = correction(a, b, rest, &live, f, lambda, d);
    const __m512 dx = d[0], dy = d[1], dz = d[2];
    __m512 ma = _mm512_mul_ps(a->w, scale), mb = _mm512_mul_ps(b->w, scale);
    a->x = _mm512_mask3_fmadd_ps(ma, dx, a->x, live);
    a->y = _mm512_mask3_fmadd_ps(ma, dy, a->y, live);
    a->z = _mm512_mask3_fmadd_ps(ma, dz, a->z, live);
    b->x = _mm512_mask3_fnmadd_ps(mb, dx, b->x, live);
    b->y = _mm512_mask3_fnmadd_ps(mb, dy, b->y, live);
    b->z = _mm512_mask3_fnmadd_ps(mb, dz, b->z, live);
}

/* _mm512_permutex2var_ps indices of transpose16's stages (h = 8, 4, 2, 1):
 * [0] the first row of a pair, [1] the second. */
static const int32_t transpose_index[4][2][16] __attribute__((aligned(64))) = {
    {{0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23}, {8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31}},
    {{0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27}, {4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31}},
    {{0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29}, {2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31}},
    {{0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30}, {1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31}},
};

/* m[j][i] becomes m[i][j]: at each stage (h = 8, 4, 2, 1) the two
 * off-diagonal h x h blocks of every 2h x 2h block swap, so a block is
 * transposed once its blocks are: four stages of 16 two-source permutes. */
ROWS_INLINE void transpose16(__m512 m[16])
{
#pragma GCC unroll 4
    for (int stage = 0; stage < 4; stage++) {
        const int h = 8 >> stage;
        const __m512i first = _mm512_load_si512(transpose_index[stage][0]);
        const __m512i second = _mm512_load_si512(transpose_index[stage][1]);
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++) {
            if (i & h)
                continue;
            __m512 a = m[i], b = m[i + h];
            m[i] = _mm512_permutex2var_ps(a, first, b);
            m[i + h] = _mm512_permutex2var_ps(a, second, b);
        }
    }
}

/* The lanes i of a row's 16 particles from column c0 that lie in the grid. */
ROWS_INLINE __mmask16 column_mask(int c0, int cols)
{
    int lo = c0 < 0 ? -c0 : 0, hi = cols - c0 < 16 ? cols - c0 : 16;
    if (hi <= lo)
        return 0;
    return (__mmask16)((hi == 16 ? 0xffffu : (1u << hi) - 1u) & ~((1u << lo) - 1u));
}

/* A row's particle array from column c0 (which may lie left of the row:
 * only the lanes of column_mask are touched). */
ROWS_INLINE float *row_at(float *v, int cols, int row, int c0)
{
    return (float *)((uintptr_t)(v + (ptrdiff_t)row * cols) + (uintptr_t)((ptrdiff_t)c0 * (ptrdiff_t)sizeof(float)));
}

/* A family's constants in this pass: k and alpha of its kind of link. */
ROWS_INLINE Family family_of(const RelaxPassConstants *p, int family)
{
    return (Family){_mm512_set1_ps(p->k[family]), _mm512_set1_ps(p->alpha[family]), p->xpbd};
}

#endif

#endif
