/* relax_kernels_portable.c - the colored order's kernels (relax_kernels.h)
 * in plain C: four lanes of the compiler's vector types, whatever the
 * build's baseline makes of them, each fused multiply-add a fmaf: on x86,
 * as the plain loop's (solver.h, SOLVER_FUSED_LOOP), the block loops once
 * for processors with FMA, where fmaf is one instruction, and once for the
 * others. Every processor runs it. */
#define LANES_PORTABLE
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define KERNEL_LOOP __attribute__((target_clones("fma", "default")))
#endif
#define KERNELS_LEVEL portable
#include "relax_kernels.h"
