/* relax_levels.h - what every file of the fast path names, below them all:
 * the instruction-set levels its kernels are built for, and the most
 * threads a job runs on. Which level the processor has, and which one a
 * RelaxFast uses, is relax_fast.h's. */
#ifndef CLOTHSIM_RELAX_LEVELS_H
#define CLOTHSIM_RELAX_LEVELS_H

/* The kernels the fast path may use, by instruction set: portable C (every
 * processor), NEON (aarch64), AVX2 with FMA, AVX-512 (x86-64). Each x86
 * level includes the ones below it but NEON. */
typedef enum RelaxFastKernels {
    RELAX_FAST_PORTABLE,
    RELAX_FAST_NEON,
    RELAX_FAST_AVX2,
    RELAX_FAST_AVX512,
    RELAX_FAST_LEVELS
} RelaxFastKernels;

#define RELAX_FAST_MAX_THREADS 16

#endif
