/* relax_helix_portable.c - the sequential order's walk (relax_helix_walk.h)
 * in plain C: four lanes of the compiler's vector types, whatever the
 * build's baseline makes of them, each fused multiply-add a fmaf: on
 * x86, as the plain loop's (solver.h, SOLVER_FUSED_LOOP), one walk for
 * processors with FMA, where fmaf is one instruction, and one for the
 * others. Every processor runs it. */
#define LANES_PORTABLE
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define HELIX_LOOP __attribute__((target_clones("fma", "default")))
#endif
#define HELIX_LEVEL portable
#include "relax_helix_walk.h"
