/* relax_helix.c - relax_helix.h's functions: each calls the walk of the
 * level the buffers were made for (relax_helix_walk.h, built once per
 * level in relax_helix_avx512.c, _avx2.c, _neon.c and _portable.c).
 */
#include "relax_helix.h"

#include <stdlib.h>

struct RelaxHelix {
    const RelaxHelixLevel *level;
    void *walk;
};

extern const RelaxHelixLevel relax_helix_level_portable;
#if defined(__x86_64__) && defined(__GNUC__)
extern const RelaxHelixLevel relax_helix_level_avx2, relax_helix_level_avx512;
#endif
#if defined(__aarch64__) && defined(__GNUC__)
extern const RelaxHelixLevel relax_helix_level_neon;
#endif

const RelaxHelixLevel *relax_helix_level(RelaxFastKernels kernels)
{
    switch (kernels) {
    case RELAX_FAST_PORTABLE:
        return &relax_helix_level_portable;
#if defined(__aarch64__) && defined(__GNUC__)
    case RELAX_FAST_NEON:
        return &relax_helix_level_neon;
#endif
#if defined(__x86_64__) && defined(__GNUC__)
    case RELAX_FAST_AVX2:
        return &relax_helix_level_avx2;
    case RELAX_FAST_AVX512:
        return &relax_helix_level_avx512;
#endif
    default:
        return NULL;
    }
}

RelaxHelix *relax_helix_create(const Cloth *cloth, const RelaxHelixLevel *level)
{
    RelaxHelix *h = malloc(sizeof *h);
    if (!h)
        return NULL;
    h->level = level;
    if (!(h->walk = level->create(cloth))) {
        free(h);
        return NULL;
    }
    return h;
}

void relax_helix_destroy(RelaxHelix *h)
{
    if (!h)
        return;
    h->level->destroy(h->walk);
    free(h);
}

const RelaxHelixLevel *relax_helix_walks(const RelaxHelix *h)
{
    return h->level;
}

void relax_helix_run(RelaxHelix *h, Cloth *cloth, float *lambda, const RelaxPassConstants *pass, int passes,
                     const Collider *sphere, float margin, int t, int threads, unsigned serial)
{
    h->level->run(h->walk, cloth, lambda, pass, passes, sphere, margin, t, threads, serial);
}

void relax_helix_cut_anywhere(RelaxHelix *h, unsigned seed)
{
    h->level->cut_anywhere(h->walk, seed);
}
