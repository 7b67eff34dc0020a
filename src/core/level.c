/* level.c - the level core's vectorised loops run at (level.h). */
#include "level.h"

_Atomic int core_level_now = CORE_LEVEL_BASELINE;
_Atomic int core_level_last[CORE_LOOPS] = {-1, -1, -1, -1, -1, -1};

CoreLevel core_level_cpu(void)
{
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return __builtin_cpu_supports("avx512f") ? CORE_LEVEL_AVX512 : CORE_LEVEL_AVX2;
#endif
    return CORE_LEVEL_BASELINE;
}

/* The widest level until told otherwise, before main and before any test. */
__attribute__((constructor)) static void core_level_start(void)
{
    atomic_store(&core_level_now, core_level_cpu());
}

CoreLevel core_level_set(CoreLevel level)
{
    CoreLevel best = core_level_cpu();
    CoreLevel now = level >= CORE_LEVEL_BASELINE && level <= best ? level : best;
    atomic_store(&core_level_now, now);
    return now;
}

CoreLevel core_level(void)
{
    return (CoreLevel)atomic_load(&core_level_now);
}

int core_level_ran(CoreLoops loops)
{
    return atomic_load(&core_level_last[loops]);
}

void core_level_forget(void)
{
    for (int k = 0; k < CORE_LOOPS; k++)
        atomic_store(&core_level_last[k], -1);
}
