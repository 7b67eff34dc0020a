/* relax_kernels_avx512.c - the colored order's kernels (relax_kernels.h)
 * at the AVX-512 level: sixteen lanes, two blocks that follow each other
 * in a row a vector (the blocks left over go through the AVX2 level's),
 * built with -mavx512f -mavx512dq -mavx2 -mfma (Makefile). Only called
 * where the processor has them (relax_fast.c). */
#if defined(__x86_64__) && defined(__GNUC__)
#define LANES_AVX512
#define KERNELS_LEVEL avx512
#include "relax_kernels.h"
#else
typedef int relax_kernels_avx512_empty; /* ISO C: no empty file */
#endif
