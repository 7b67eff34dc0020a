/* relax_kernels_avx2.c - the colored order's kernels (relax_kernels.h) at
 * the AVX2 level: eight lanes, a block a vector, built with -mavx2 -mfma
 * (Makefile). Only called where the processor has them (relax_fast.c). */
#if defined(__x86_64__) && defined(__GNUC__)
#define LANES_AVX2
#define KERNELS_LEVEL avx2
#include "relax_kernels.h"
#else
typedef int relax_kernels_avx2_empty; /* ISO C: no empty file */
#endif
