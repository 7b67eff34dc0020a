/* relax_kernels_neon.c - the colored order's kernels (relax_kernels.h) at
 * the NEON level (aarch64): four lanes, vfmaq_f32 and vsqrtq_f32. */
#if defined(__aarch64__) && defined(__GNUC__)
#define LANES_NEON
#define KERNELS_LEVEL neon
#include "relax_kernels.h"
#else
typedef int relax_kernels_neon_empty; /* ISO C: no empty file */
#endif
