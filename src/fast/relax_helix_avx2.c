/* relax_helix_avx2.c - the sequential order's walk (relax_helix_walk.h)
 * at the AVX2 level: eight lanes, built with -mavx2 -mfma (Makefile). Only
 * called where the processor has them (relax_fast.c). */
#if defined(__x86_64__) && defined(__GNUC__)
#define LANES_AVX2
#define HELIX_CARRY_BEND 0
#define HELIX_LEVEL avx2
#include "relax_helix_walk.h"
#else
typedef int relax_helix_avx2_empty; /* ISO C: no empty file */
#endif
