/* relax_helix_avx512.c - the sequential order's walk (relax_helix_walk.h)
 * at the AVX-512 level: sixteen lanes, built with -mavx512f -mavx512dq
 * (Makefile). Only called where the processor has them (relax_fast.c). */
#if defined(__x86_64__) && defined(__GNUC__)
#define LANES_AVX512
#define HELIX_LEVEL avx512
#include "relax_helix_walk.h"
#else
typedef int relax_helix_avx512_empty; /* ISO C: no empty file */
#endif
