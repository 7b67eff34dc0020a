/* relax_lanes.h - what a lane is at each instruction-set level: the
 * operations the sequential walk (relax_helix_walk.h) and the colored
 * order's kernels (relax_kernels.h) are written in, over GCC and Clang
 * vector types of VLANES floats.
 *
 * As Box2D v3's b2FloatW: the kernel is written once, over these; each
 * level's translation unit defines one of LANES_AVX512 (16 lanes),
 * LANES_AVX2 (8), LANES_NEON (4) or LANES_PORTABLE (4, plain C: the
 * compiler picks whatever the build's baseline has) before including it,
 * and is compiled with that level's flags (Makefile). Most operations are
 * the vector types' own (+ - * /, negation, comparisons); only those C
 * cannot say are defined per level: the fused multiply-adds, the square
 * root, the least and the most, the masks (AVX-512 has mask registers;
 * elsewhere a mask is a vector of all-ones or zero lanes), their tests and
 * selects, and masked loads and stores.
 *
 * Each operation rounds as the plain loop's C does (solver.h): v_fma and
 * v_fnma are one rounding, as fmaf; the others are IEEE's single
 * operations. The bits are the same at every level.
 */
#ifndef CLOTHSIM_RELAX_LANES_H
#define CLOTHSIM_RELAX_LANES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(LANES_AVX512)
#include <immintrin.h>
#define VLANES 16
#elif defined(LANES_AVX2)
#include <immintrin.h>
#define VLANES 8
#elif defined(LANES_NEON)
#include <arm_neon.h>
#define VLANES 4
#elif defined(LANES_PORTABLE)
#define VLANES 4
#else
#error "define one of LANES_AVX512, LANES_AVX2, LANES_NEON, LANES_PORTABLE"
#endif

#define LANES_INLINE static inline __attribute__((always_inline))

typedef float vf __attribute__((vector_size(4 * VLANES)));
typedef int32_t vi __attribute__((vector_size(4 * VLANES)));
typedef double vd __attribute__((vector_size(8 * VLANES)));
typedef int64_t vl __attribute__((vector_size(8 * VLANES)));
/* The same, at any address (memcpy's view of memory: no aliasing claims). */
typedef float vf_u __attribute__((vector_size(4 * VLANES), aligned(4), may_alias));

/* Index vectors for __builtin_shuffle: lanes i + s of the pair (a, b). */
#if VLANES == 16
#define LANE_INDEX(s)                                                                                                  \
    {                                                                                                                  \
        (s), (s) + 1, (s) + 2, (s) + 3, (s) + 4, (s) + 5, (s) + 6, (s) + 7, (s) + 8, (s) + 9, (s) + 10, (s) + 11,      \
            (s) + 12, (s) + 13, (s) + 14, (s) + 15                                                                     \
    }
#elif VLANES == 8
#define LANE_INDEX(s)                                                                                                  \
    {                                                                                                                  \
        (s), (s) + 1, (s) + 2, (s) + 3, (s) + 4, (s) + 5, (s) + 6, (s) + 7                                             \
    }
#else
#define LANE_INDEX(s)                                                                                                  \
    {                                                                                                                  \
        (s), (s) + 1, (s) + 2, (s) + 3                                                                                 \
    }
#endif

/* ---------------------------------------------------------------- loads, stores, constants */

/* p aligned to a vector */
LANES_INLINE vf v_load(const float *p)
{
    return *(const vf_u *)__builtin_assume_aligned(p, 4 * VLANES);
}
LANES_INLINE void v_store(float *p, vf v)
{
    *(vf_u *)__builtin_assume_aligned(p, 4 * VLANES) = v;
}
/* p anywhere */
LANES_INLINE vf v_loadu(const float *p)
{
    return *(const vf_u *)p;
}
LANES_INLINE void v_storeu(float *p, vf v)
{
    *(vf_u *)p = v;
}
LANES_INLINE vd vd_load(const double *p)
{
    vd v;
    memcpy(&v, __builtin_assume_aligned(p, 64), sizeof v);
    return v;
}
LANES_INLINE void vd_store(double *p, vd v)
{
    memcpy(__builtin_assume_aligned(p, 64), &v, sizeof v);
}

LANES_INLINE vf v_splat(float x)
{
    vf v;
    for (int i = 0; i < VLANES; i++)
        v[i] = x;
    return v;
}

LANES_INLINE vf v_zero(void)
{
    return (vf){0};
}

/* Bits equal (not values: -0 and 0 differ, a NaN equals itself). */
LANES_INLINE bool v_same_bits(vf a, vf b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

LANES_INLINE vd v_widen(vf v)
{
    return __builtin_convertvector(v, vd);
}
LANES_INLINE vf v_narrow(vd v)
{
    return __builtin_convertvector(v, vf);
}

/* GCC's two-vector shuffle: lane i of (a, b) laid end to end at index[i].
 * Clang has no __builtin_shuffle (its __builtin_shufflevector takes the
 * indices as constants, not a vector): there the same, lane by lane, which
 * its optimiser turns into shuffles once the indices are known. */
#if defined(__clang__)
LANES_INLINE vf lanes_shuffle_f(vf a, vf b, vi index)
{
    vf out;
    for (int i = 0; i < VLANES; i++)
        out[i] = index[i] < VLANES ? a[index[i]] : b[index[i] - VLANES];
    return out;
}
LANES_INLINE vd lanes_shuffle_d(vd a, vd b, vl index)
{
    vd out;
    for (int i = 0; i < VLANES; i++)
        out[i] = index[i] < VLANES ? a[index[i]] : b[index[i] - VLANES];
    return out;
}
#define SHUFFLE_F(a, b, index) lanes_shuffle_f((a), (b), (index))
#define SHUFFLE_D(a, b, index) lanes_shuffle_d((a), (b), (index))
#else
#define SHUFFLE_F(a, b, index) __builtin_shuffle((a), (b), (index))
#define SHUFFLE_D(a, b, index) __builtin_shuffle((a), (b), (index))
#endif

/* Lanes j >= s of near's lanes j - s, lanes j < s of far's VLANES - s + j
 * (a row's particles one row down the lanes; s a constant). */
#define V_SHIFT_IN(near, far, s) SHUFFLE_F((far), (near), (vi)LANE_INDEX(VLANES - (s)))
#define VD_SHIFT_IN(near, far, s) SHUFFLE_D((far), (near), (vl)LANE_INDEX(VLANES - (s)))
/* Lane i of lane i + s, mod VLANES. */
#define V_ROTATE(v, s) SHUFFLE_F((v), (v), (vi)LANE_INDEX(s))
#define VD_ROTATE(v, s) SHUFFLE_D((v), (v), (vl)LANE_INDEX(s))

/* ---------------------------------------------------------------- per level */

#if defined(LANES_AVX512)

typedef __mmask16 vmask;
LANES_INLINE vf v_fma(vf a, vf b, vf c)
{
    return _mm512_fmadd_ps(a, b, c);
}
/* c - a b, one rounding */
LANES_INLINE vf v_fnma(vf a, vf b, vf c)
{
    return _mm512_fnmadd_ps(a, b, c);
}
LANES_INLINE vf v_sqrt(vf a)
{
    return _mm512_sqrt_ps(a);
}
/* as minps and maxps: b where a NaN */
LANES_INLINE vf v_min(vf a, vf b)
{
    return _mm512_min_ps(a, b);
}
LANES_INLINE vf v_max(vf a, vf b)
{
    return _mm512_max_ps(a, b);
}
LANES_INLINE vmask v_ne(vf a, vf b)
{
    return _mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ);
}
LANES_INLINE vmask v_not_lt(vf a, vf b)
{
    return _mm512_cmp_ps_mask(a, b, _CMP_NLT_UQ);
}
LANES_INLINE vmask v_not_ge(vf a, vf b)
{
    return _mm512_cmp_ps_mask(a, b, _CMP_NGE_UQ);
}
LANES_INLINE vmask v_gt(vf a, vf b)
{
    return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ);
}
LANES_INLINE vmask v_lt(vf a, vf b)
{
    return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ);
}
LANES_INLINE vmask m_bits(unsigned bits)
{
    return (vmask)bits;
}
/* m_bits' inverse: bit p for lane p */
LANES_INLINE unsigned m_to_bits(vmask m)
{
    return m;
}
/* lanes first .. VLANES - 1 */
LANES_INLINE vmask m_from(int first)
{
    return (vmask)(0xffffu << first);
}
/* the lanes whose byte at p is 0 */
LANES_INLINE vmask m_zero_bytes(const uint8_t *p)
{
    __m512i bytes = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p));
    return _mm512_cmpeq_epi32_mask(bytes, _mm512_setzero_si512());
}
LANES_INLINE vmask m_and(vmask a, vmask b)
{
    return a & b;
}
LANES_INLINE bool m_any(vmask m)
{
    return m != 0;
}
LANES_INLINE bool m_all(vmask m)
{
    return m == 0xffff;
}
LANES_INLINE vf v_select(vmask m, vf a, vf b)
{
    return _mm512_mask_blend_ps(m, b, a);
}
LANES_INLINE vd vd_select(vmask m, vd a, vd b)
{
    __m512d half[2][2]; /* [a, b][low, high] */
    memcpy(half[0], &a, sizeof a), memcpy(half[1], &b, sizeof b);
    half[0][0] = _mm512_mask_blend_pd((__mmask8)m, half[1][0], half[0][0]);
    half[0][1] = _mm512_mask_blend_pd((__mmask8)(m >> 8), half[1][1], half[0][1]);
    memcpy(&a, half[0], sizeof a);
    return a;
}
/* lanes 0 .. n - 1, or VLANES - n .. VLANES - 1 (n a constant) */
LANES_INLINE void v_store_first(float *p, vf v, int n)
{
    _mm512_mask_storeu_ps(p, (__mmask16)((1u << n) - 1u), v);
}
LANES_INLINE void v_store_last(float *p, vf v, int n)
{
    _mm512_mask_storeu_ps(p, (__mmask16) ~((1u << (VLANES - n)) - 1u), v);
}
/* lanes of bits only; the others read nothing and are 0, or are not written */
LANES_INLINE vf v_load_bits(const float *p, unsigned bits)
{
    return _mm512_maskz_loadu_ps((__mmask16)bits, p);
}
LANES_INLINE void v_store_bits(float *p, unsigned bits, vf v)
{
    _mm512_mask_storeu_ps(p, (__mmask16)bits, v);
}

#elif defined(LANES_AVX2)

typedef vi vmask;
LANES_INLINE vf v_fma(vf a, vf b, vf c)
{
    return _mm256_fmadd_ps(a, b, c);
}
LANES_INLINE vf v_fnma(vf a, vf b, vf c)
{
    return _mm256_fnmadd_ps(a, b, c);
}
LANES_INLINE vf v_sqrt(vf a)
{
    return _mm256_sqrt_ps(a);
}
LANES_INLINE vf v_min(vf a, vf b)
{
    return _mm256_min_ps(a, b);
}
LANES_INLINE vf v_max(vf a, vf b)
{
    return _mm256_max_ps(a, b);
}
LANES_INLINE bool m_any(vmask m)
{
    return !_mm256_testz_si256((__m256i)m, (__m256i)m);
}
LANES_INLINE bool m_all(vmask m)
{
    return _mm256_movemask_ps((__m256)m) == 0xff;
}
LANES_INLINE unsigned m_to_bits(vmask m)
{
    return (unsigned)_mm256_movemask_ps((__m256)m);
}
/* compared as int32 lanes: __m256i's are int64 */
LANES_INLINE vmask m_zero_bytes(const uint8_t *p)
{
    return (vi)_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)) == (vi){0};
}
LANES_INLINE vf v_select(vmask m, vf a, vf b)
{
    return _mm256_blendv_ps(b, a, (__m256)m);
}
LANES_INLINE vmask m_bits(unsigned bits);
LANES_INLINE void v_store_first(float *p, vf v, int n)
{
    _mm256_maskstore_ps(p, (__m256i)m_bits((1u << n) - 1u), v);
}
LANES_INLINE void v_store_last(float *p, vf v, int n)
{
    _mm256_maskstore_ps(p, (__m256i)m_bits(~((1u << (VLANES - n)) - 1u)), v);
}
LANES_INLINE vf v_load_bits(const float *p, unsigned bits)
{
    return _mm256_maskload_ps(p, (__m256i)m_bits(bits));
}
LANES_INLINE void v_store_bits(float *p, unsigned bits, vf v)
{
    _mm256_maskstore_ps(p, (__m256i)m_bits(bits), v);
}

#elif defined(LANES_NEON)

typedef vi vmask;
LANES_INLINE vf v_fma(vf a, vf b, vf c)
{
    return (vf)vfmaq_f32((float32x4_t)c, (float32x4_t)a, (float32x4_t)b);
}
LANES_INLINE vf v_fnma(vf a, vf b, vf c)
{
    return (vf)vfmsq_f32((float32x4_t)c, (float32x4_t)a, (float32x4_t)b);
}
LANES_INLINE vf v_sqrt(vf a)
{
    return (vf)vsqrtq_f32((float32x4_t)a);
}
LANES_INLINE bool m_any(vmask m)
{
    return vmaxvq_u32((uint32x4_t)m) != 0;
}
LANES_INLINE bool m_all(vmask m)
{
    return vminvq_u32((uint32x4_t)m) != 0;
}
LANES_INLINE unsigned m_to_bits(vmask m)
{
    const uint32x4_t bit = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32((uint32x4_t)m, bit));
}

#else /* LANES_PORTABLE */

typedef vi vmask;
/* fmaf a lane: an instruction where the build's processor has a fused
 * multiply-add (aarch64, POWER ...); on x86-64, whose baseline has none,
 * relax_helix_portable.c builds the walk twice as the plain loop is
 * (SOLVER_FUSED_LOOP): for processors with FMA (fmaf inline) and for the
 * others (a call to the C library, the same bits; the cost of that call,
 * and of an exact fmaf in double, in README.md beside this file);
 * relax_kernels_portable.c its block loops (KERNEL_LOOP). */
LANES_INLINE vf v_fma(vf a, vf b, vf c)
{
    vf r;
    for (int i = 0; i < VLANES; i++)
        r[i] = __builtin_fmaf(a[i], b[i], c[i]);
    return r;
}
LANES_INLINE vf v_fnma(vf a, vf b, vf c)
{
    vf r;
    for (int i = 0; i < VLANES; i++)
        r[i] = __builtin_fmaf(-a[i], b[i], c[i]);
    return r;
}
LANES_INLINE vf v_sqrt(vf a)
{
    vf r;
    for (int i = 0; i < VLANES; i++)
        r[i] = __builtin_sqrtf(a[i]);
    return r;
}
LANES_INLINE bool m_any(vmask m)
{
    int32_t any = 0;
    for (int i = 0; i < VLANES; i++)
        any |= m[i];
    return any != 0;
}
LANES_INLINE bool m_all(vmask m)
{
    int32_t all = -1;
    for (int i = 0; i < VLANES; i++)
        all &= m[i];
    return all != 0;
}
LANES_INLINE unsigned m_to_bits(vmask m)
{
    unsigned bits = 0;
    for (int i = 0; i < VLANES; i++)
        bits |= (unsigned)(m[i] != 0) << i;
    return bits;
}

#endif

#if !defined(LANES_AVX512)

/* A comparison of vectors gives all-ones or zero lanes. The unordered
 * ones (NEQ_UQ ...) hold for a NaN, as C's !(a < b) does. */
LANES_INLINE vmask v_ne(vf a, vf b)
{
    return a != b;
}
LANES_INLINE vmask v_not_lt(vf a, vf b)
{
    return ~(a < b);
}
LANES_INLINE vmask v_not_ge(vf a, vf b)
{
    return ~(a >= b);
}
LANES_INLINE vmask v_gt(vf a, vf b)
{
    return a > b;
}
LANES_INLINE vmask v_lt(vf a, vf b)
{
    return a < b;
}
LANES_INLINE vmask m_and(vmask a, vmask b)
{
    return a & b;
}
LANES_INLINE vmask m_from(int first)
{
    return (vi)LANE_INDEX(0) >= (vi){0} + first;
}
LANES_INLINE vmask m_bits(unsigned bits)
{
    static const vi lane_bit = {
        1,
        2,
        4,
        8
#if VLANES >= 8
        ,
        16,
        32,
        64,
        128
#endif
    };
    return (((vi){0} + (int32_t)bits) & lane_bit) != 0;
}
#if !defined(LANES_AVX2)
LANES_INLINE vf v_select(vmask m, vf a, vf b)
{
    return (vf)(((vi)a & m) | ((vi)b & ~m));
}
LANES_INLINE void v_store_first(float *p, vf v, int n)
{
    memcpy(p, &v, (size_t)n * sizeof(float));
}
LANES_INLINE void v_store_last(float *p, vf v, int n)
{
    memcpy(p + VLANES - n, (const float *)&v + VLANES - n, (size_t)n * sizeof(float));
}
LANES_INLINE vf v_load_bits(const float *p, unsigned bits)
{
    vf v = {0};
    for (int i = 0; i < VLANES; i++)
        if (bits >> i & 1u)
            v[i] = p[i];
    return v;
}
LANES_INLINE void v_store_bits(float *p, unsigned bits, vf v)
{
    for (int i = 0; i < VLANES; i++)
        if (bits >> i & 1u)
            p[i] = v[i];
}
LANES_INLINE vf v_min(vf a, vf b)
{
    return v_select(v_lt(a, b), a, b);
}
LANES_INLINE vf v_max(vf a, vf b)
{
    return v_select(v_gt(a, b), a, b);
}
LANES_INLINE vmask m_zero_bytes(const uint8_t *p)
{
    uint8_t bytes[VLANES];
    memcpy(bytes, p, sizeof bytes);
    vi v;
    for (int i = 0; i < VLANES; i++)
        v[i] = bytes[i];
    return v == 0;
}
#endif
LANES_INLINE vd vd_select(vmask m, vd a, vd b)
{
    vl wide = __builtin_convertvector(m, vl);
    return (vd)(((vl)a & wide) | ((vl)b & ~wide));
}

#endif

/* m[j][i] becomes m[i][j]: at each stage (h = VLANES / 2 .. 1) the two
 * off-diagonal h x h blocks of every 2h x 2h block swap, so a block is
 * transposed once its blocks are. Lane p of the first row of a pair (i,
 * i + h, i without h) takes the second's lane p - h where p has h; the
 * second's, the first's p + h where p has not. */
#define TRANSPOSE_STAGE(m, h, FIRST, SECOND)                                                                           \
    _Pragma("GCC unroll 16") for (int i_ = 0; i_ < VLANES; i_++)                                                       \
    {                                                                                                                  \
        if (i_ & (h))                                                                                                  \
            continue;                                                                                                  \
        vf a_ = (m)[i_], b_ = (m)[i_ + (h)];                                                                           \
        (m)[i_] = SHUFFLE_F(a_, b_, (vi)FIRST);                                                                        \
        (m)[i_ + (h)] = SHUFFLE_F(a_, b_, (vi)SECOND);                                                                 \
    }

LANES_INLINE void v_transpose(vf m[VLANES])
{
#if VLANES == 16
    TRANSPOSE_STAGE(m, 8, ((vi){0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23}),
                    ((vi){8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31}))
    TRANSPOSE_STAGE(m, 4, ((vi){0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27}),
                    ((vi){4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31}))
    TRANSPOSE_STAGE(m, 2, ((vi){0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29}),
                    ((vi){2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31}))
    TRANSPOSE_STAGE(m, 1, ((vi){0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30}),
                    ((vi){1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31}))
#elif VLANES == 8
    TRANSPOSE_STAGE(m, 4, ((vi){0, 1, 2, 3, 8, 9, 10, 11}), ((vi){4, 5, 6, 7, 12, 13, 14, 15}))
    TRANSPOSE_STAGE(m, 2, ((vi){0, 1, 8, 9, 4, 5, 12, 13}), ((vi){2, 3, 10, 11, 6, 7, 14, 15}))
    TRANSPOSE_STAGE(m, 1, ((vi){0, 8, 2, 10, 4, 12, 6, 14}), ((vi){1, 9, 3, 11, 5, 13, 7, 15}))
#else
    TRANSPOSE_STAGE(m, 2, ((vi){0, 1, 4, 5}), ((vi){2, 3, 6, 7}))
    TRANSPOSE_STAGE(m, 1, ((vi){0, 4, 2, 6}), ((vi){1, 5, 3, 7}))
#endif
}

/* v on the lanes of m, +0 on the others. */
LANES_INLINE vf v_keep(vmask m, vf v)
{
#if defined(LANES_AVX512)
    return _mm512_maskz_mov_ps(m, v);
#else
    return (vf)((vi)v & m);
#endif
}

/* ---------------------------------------------------------------- time and waiting */

/* A clock for the threads' relative costs: rdtsc ticks, or the nearest. */
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
LANES_INLINE unsigned long long lanes_ticks(void)
{
    return __rdtsc();
}
LANES_INLINE void lanes_pause(void)
{
    __builtin_ia32_pause();
}
#elif defined(__aarch64__)
LANES_INLINE unsigned long long lanes_ticks(void)
{
    unsigned long long t;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(t));
    return t;
}
LANES_INLINE void lanes_pause(void)
{
    __asm__ volatile("yield");
}
#else
#include <time.h>
LANES_INLINE unsigned long long lanes_ticks(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}
LANES_INLINE void lanes_pause(void) {}
#endif

/* m_bits with one comparison: a lane is on where its bit is, (bits &
 * bit) == bit, where m_bits' != 0 takes two (GCC: equal to zero, then
 * not). The same masks, for any VLANES LANE_INDEX has. */
LANES_INLINE vmask m_lanes(unsigned bits)
{
#if defined(LANES_AVX512)
    return m_bits(bits); /* a mask register is the bits already */
#else
    const vi lane_bit = ((vi){0} + 1) << (vi)LANE_INDEX(0);
    return (((vi){0} + (int32_t)bits) & lane_bit) == lane_bit;
#endif
}

#endif
