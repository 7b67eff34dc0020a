/* relax_rows.h - whether this processor runs the sixteen-lane kernels of
 * relax_rows_simd.h (AVX-512 F, DQ, BW and VL, with AVX2 and FMA), in which
 * the AVX-512 level's walk (relax_helix_avx512.c) is written.
 *
 * The name is that of the kernels these files first served: the sequential
 * order family by family, sixteen rows or columns a vector, for a single
 * pass on several threads at AVX-512. They are gone: relax_helix.h's walk,
 * cut among the threads, takes the same processor time there and serves
 * every level (README.md beside this file, "Measured for the code").
 */
#ifndef CLOTHSIM_RELAX_ROWS_H
#define CLOTHSIM_RELAX_ROWS_H

#include <stdbool.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
static inline bool relax_rows_usable(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl");
}
#else
static inline bool relax_rows_usable(void) { return false; }
#endif

#endif
