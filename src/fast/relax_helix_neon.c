/* relax_helix_neon.c - the sequential order's walk (relax_helix_walk.h)
 * at the NEON level (aarch64): four lanes, vfmaq_f32 and vsqrtq_f32. */
#if defined(__aarch64__) && defined(__GNUC__)
#define LANES_NEON
#define HELIX_LEVEL neon
#include "relax_helix_walk.h"
#else
typedef int relax_helix_neon_empty; /* ISO C: no empty file */
#endif
