/* level.h - the instruction-set level core's own vectorised loops run at.
 *
 * forces.c, integrate.c, relax.c, springs.c and implicit.c write their
 * particle loops once in plain C and build each of them per level (LEVEL_LOOPS below stamps the
 * builds from the one source); each call goes to the build of the level
 * set here, a branch that is the same every time. The level starts as the
 * widest this processor has; the program may lower it once at start, before
 * any solver steps (the fast path does, from CLOTHSIM_KERNELS: app/main.c,
 * src/fast/README.md's "Levels"), so that a forced level reaches every
 * vectorised loop, core's as well as the fast path's. Every level gives the
 * same bits: the lanes do the scalar loop's operations (-std=c17 contracts
 * nothing into an FMA), and where a loop fuses it says so (fmaf), exact
 * with the instruction or without.
 */
#ifndef CLOTHSIM_LEVEL_H
#define CLOTHSIM_LEVEL_H

#include <stdatomic.h>

typedef enum CoreLevel {
    CORE_LEVEL_BASELINE, /* any processor: on x86-64 SSE2, no FMA */
    CORE_LEVEL_AVX2,     /* AVX2 and FMA */
    CORE_LEVEL_AVX512,   /* and AVX-512F */
    CORE_LEVELS
} CoreLevel;

/* The loops' families, each of which says which build of it ran last
 * (core_level_ran): the tests check that a forced level reaches them. */
typedef enum CoreLoops {
    CORE_LOOPS_INTEGRATE,    /* integrate.c: integrate_euler, _symplectic, _verlet, _implicit */
    CORE_LOOPS_VELOCITY,     /* integrate.c: velocity_from_move, _damped, _limited */
    CORE_LOOPS_SPRING_LINKS, /* forces.c: spring_links */
    CORE_LOOPS_FUSED,        /* relax.c: project_links (fmaf) */
    CORE_LOOPS_SPRINGS,      /* springs.c */
    CORE_LOOPS_IMPLICIT,     /* implicit.c */
    CORE_LOOPS
} CoreLoops;

/* The widest level this processor has. */
CoreLevel core_level_cpu(void);
/* From now on the loops run at `level`, or at the widest this processor
 * has if it lacks that one; returns the level that runs. */
CoreLevel core_level_set(CoreLevel level);
/* The level that runs. */
CoreLevel core_level(void);
/* The level of the build of `loops` that ran last; -1: none since
 * core_level_forget. */
int core_level_ran(CoreLoops loops);
void core_level_forget(void);

/* Read on every call of a loop: a plain load. */
extern _Atomic int core_level_now;
extern _Atomic int core_level_last[CORE_LOOPS];

/* LEVEL_LOOPS(FAMILY, name, (params), (args)): after `LEVEL_BODY static
 * void name_body(params) { a loop }`, defines static void name(params),
 * which calls the build of name_body for core_level() (the same source,
 * vectorised for each level) and notes it in core_level_last[FAMILY].
 * LEVEL_LOOPS_RETURNING(FAMILY, type, ...) for a loop that returns a type.
 * LEVEL_FUSED_LOOPS and LEVEL_FUSED_BODY for a loop that calls fmaf and is
 * not to be vectorised: one build with the FMA instructions (fmaf inline)
 * for AVX2 and up, one without (fmaf the C library's, the same bits). GCC
 * on x86-64 only; elsewhere name calls name_body. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define LEVEL_BODY __attribute__((always_inline, optimize("tree-vectorize"))) inline
#define LEVEL_FUSED_BODY __attribute__((always_inline)) inline
#define LEVEL_AVX512 __attribute__((target("avx512f,avx2,fma")))
#define LEVEL_AVX2 __attribute__((target("avx2,fma")))
#define LEVEL_BUILD(family, level, type, ret, name, suffix, attributes, params, args)                                  \
    __attribute__((noinline)) attributes static type name##_##suffix params                                            \
    {                                                                                                                  \
        atomic_store_explicit(&core_level_last[family], level, memory_order_relaxed);                                  \
        ret name##_body args;                                                                                          \
    }
/* The AVX2 and baseline builds every stamped loop has. */
#define LEVEL_BUILDS_AVX2_BASELINE(family, type, ret, name, params, args)                                              \
    LEVEL_BUILD(family, CORE_LEVEL_AVX2, type, ret, name, avx2,                                                        \
                LEVEL_AVX2 __attribute__((optimize("tree-vectorize"))), params, args)                                  \
    LEVEL_BUILD(family, CORE_LEVEL_BASELINE, type, ret, name, baseline, __attribute__((optimize("tree-vectorize"))),   \
                params, args)
#define LEVEL_STAMP(family, type, ret, name, params, args)                                                             \
    LEVEL_BUILD(family, CORE_LEVEL_AVX512, type, ret, name, avx512,                                                    \
                LEVEL_AVX512 __attribute__((optimize("tree-vectorize"))), params, args)                                \
    LEVEL_BUILDS_AVX2_BASELINE(family, type, ret, name, params, args)                                                  \
    static type name params                                                                                            \
    {                                                                                                                  \
        switch (atomic_load_explicit(&core_level_now, memory_order_relaxed)) {                                         \
        case CORE_LEVEL_AVX512:                                                                                        \
            ret name##_avx512 args;                                                                                    \
            break;                                                                                                     \
        case CORE_LEVEL_AVX2:                                                                                          \
            ret name##_avx2 args;                                                                                      \
            break;                                                                                                     \
        default:                                                                                                       \
            ret name##_baseline args;                                                                                  \
        }                                                                                                              \
    }
#define LEVEL_STAMP_AVX2(family, type, ret, name, params, args)                                                        \
    LEVEL_BUILDS_AVX2_BASELINE(family, type, ret, name, params, args)                                                  \
    static type name params                                                                                            \
    {                                                                                                                  \
        if (atomic_load_explicit(&core_level_now, memory_order_relaxed) >= CORE_LEVEL_AVX2)                            \
            ret name##_avx2 args;                                                                                      \
        else                                                                                                           \
            ret name##_baseline args;                                                                                  \
    }
#define LEVEL_FUSED_LOOPS(family, name, params, args)                                                                  \
    LEVEL_BUILD(family, CORE_LEVEL_AVX2, void, , name, fma, LEVEL_AVX2, params, args)                                  \
    LEVEL_BUILD(family, CORE_LEVEL_BASELINE, void, , name, baseline, , params, args)                                   \
    static void name params                                                                                            \
    {                                                                                                                  \
        if (atomic_load_explicit(&core_level_now, memory_order_relaxed) >= CORE_LEVEL_AVX2)                            \
            name##_fma args;                                                                                           \
        else                                                                                                           \
            name##_baseline args;                                                                                      \
    }
#else
#define LEVEL_BODY inline
#define LEVEL_FUSED_BODY inline
#define LEVEL_STAMP(family, type, ret, name, params, args)                                                             \
    static type name params                                                                                            \
    {                                                                                                                  \
        atomic_store_explicit(&core_level_last[family], CORE_LEVEL_BASELINE, memory_order_relaxed);                    \
        ret name##_body args;                                                                                          \
    }
#define LEVEL_FUSED_LOOPS(family, name, params, args) LEVEL_STAMP(family, void, , name, params, args)
#define LEVEL_STAMP_AVX2(family, type, ret, name, params, args) LEVEL_STAMP(family, type, ret, name, params, args)
#endif
#define LEVEL_LOOPS(family, name, params, args) LEVEL_STAMP(family, void, , name, params, args)
#define LEVEL_LOOPS_RETURNING(family, type, name, params, args) LEVEL_STAMP(family, type, return, name, params, args)
/* The same with no AVX-512 build: the AVX2 one runs at avx512 too. */
#define LEVEL_LOOPS_AVX2(family, name, params, args) LEVEL_STAMP_AVX2(family, void, , name, params, args)
#define LEVEL_LOOPS_AVX2_RETURNING(family, type, name, params, args)                                                   \
    LEVEL_STAMP_AVX2(family, type, return, name, params, args)

#endif
