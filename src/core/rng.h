/* rng.h - a small seeded generator (splitmix64): same seed, same numbers. */
#ifndef CLOTHSIM_RNG_H
#define CLOTHSIM_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double rng_uniform(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [0, n), n > 0. */
static inline uint32_t rng_below(uint64_t *state, uint32_t n)
{
    return (uint32_t)(rng_uniform(state) * n);
}

#endif
