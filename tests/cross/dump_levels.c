/* dump_levels.c - make cross-aarch64's witness: a few scenes stepped at
 * every kernel level this processor has, each level's final positions
 * and remainders written as hexadecimal bits, one line a scene, after a
 * check that all levels agree. The same lines from an x86-64 build and an
 * aarch64 one (under qemu-user) must be the same bytes: the fast path's
 * levels and the two processors give the plain loop's bits.
 *
 * Core only (libc, libm, pthreads): no terminal. Exit 1 if two levels
 * disagree or a solver cannot be made. */
#include <stdio.h>
#include <string.h>

#include "core/fast_table.h"
#include "core/params.h"
#include "core/solver.h"
#include "fast/relax_fast.h"

/* FNV-1a over bytes, continued from h */
static unsigned long long fnv(unsigned long long h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static bool run(const char *const *settings, RelaxFastKernels kernels, unsigned long long *hash)
{
    Params p;
    bool tear = strcmp(settings[0], "scene=tear") == 0;
    params_default(&p, tear ? SCENE_TEAR : SCENE_CURTAIN);
    char err[256];
    for (int k = tear; settings[k]; k++)
        if (!params_assign(&p, settings[k], err, sizeof err)) {
            fprintf(stderr, "dump_levels: %s: %s\n", settings[k], err);
            return false;
        }
    relax_fast_set_default_kernels(kernels);
    Solver *s = solver_create(&p);
    if (!s)
        return false;
    if (relax_fast_kernels(s->relax_fast) != kernels) {
        fprintf(stderr, "dump_levels: %s does not run\n", relax_fast_kernel_name(kernels));
        solver_destroy(s);
        return false;
    }
    for (int n = 0; n < 30; n++)
        solver_step(s);
    const Cloth *c = s->cloth;
    size_t floats = (size_t)c->count * sizeof(float), doubles = (size_t)c->count * sizeof(double);
    unsigned long long h = 14695981039346656037ull;
    h = fnv(h, c->x, floats), h = fnv(h, c->y, floats), h = fnv(h, c->z, floats);
    h = fnv(h, c->rx, doubles), h = fnv(h, c->ry, doubles), h = fnv(h, c->rz, doubles);
    *hash = h;
    solver_destroy(s);
    return true;
}

int main(void)
{
    static const char *const scenes[][8] = {
        {"integrator=jakobsen", "cols=40", "rows=40", "iterations=10", "substeps=1", NULL},
        {"integrator=xpbd", "cols=37", "rows=29", "iterations=6", NULL},
        {"integrator=pbd", "cols=33", "rows=35", "iterations=4", "substeps=20", NULL}, /* remainders: 0.8 ms substeps */
        {"scene=tear", "integrator=jakobsen", "iterations=5", NULL},
        /* the colored order's kernels (relax_kernels.h): the curtain's wind
         * and sphere, xpbd, a tearing cloth, and bands on two threads */
        {"order=colored", "cols=37", "rows=29", "iterations=6", NULL},
        {"order=colored", "integrator=xpbd", "cols=41", "rows=23", "iterations=5", NULL},
        {"scene=tear", "order=colored", "iterations=5", NULL},
        {"order=colored", "integrator=pbd", "cols=90", "rows=80", "iterations=3", "threads=2", NULL},
    };
    fast_table_install(relax_fast_table()); /* as main does */
    int status = 0;
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; k++) {
        unsigned long long first = 0;
        bool any = false;
        for (int level = 0; level < RELAX_FAST_LEVELS; level++) {
            if (!relax_fast_cpu_has((RelaxFastKernels)level))
                continue;
            unsigned long long h;
            if (!run(scenes[k], (RelaxFastKernels)level, &h))
                return 1;
            fprintf(stderr, "scene %zu at %s: %016llx\n", k, relax_fast_kernel_name((RelaxFastKernels)level), h);
            if (any && h != first) {
                fprintf(stderr, "dump_levels: scene %zu: %s differs\n", k,
                        relax_fast_kernel_name((RelaxFastKernels)level));
                status = 1;
            }
            first = any ? first : h, any = true;
        }
        printf("scene %zu %016llx\n", k, first);
    }
    return status;
}
