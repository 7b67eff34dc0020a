/* relax_helix_portable.c - the sequential order's walk (relax_helix_walk.h)
 * in plain C: four lanes of the compiler's vector types, whatever the
 * build's baseline makes of them, each fused multiply-add a fmaf. Every
 * processor runs it. */
#define LANES_PORTABLE
#define HELIX_LEVEL portable
#include "relax_helix_walk.h"
