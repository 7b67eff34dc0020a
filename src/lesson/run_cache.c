/* run_cache.c - the checker's memory of the runs it has played (run_cache.h). */
#include "run_cache.h"

#include <stdlib.h>
#include <string.h>

typedef struct RunEntry {
    int64_t steps;
    size_t size, end_size; /* bytes of each state (a residual trace can change the size) */
    unsigned char *start;  /* the state the run began in */
    unsigned char *end;    /* and the one it ended in */
} RunEntry;

struct RunCache {
    RunEntry *entries;
    int count, capacity;
    size_t used, budget; /* bytes of states held, and the most it may hold */
    int hits;
};

RunCache *run_cache_create(size_t budget)
{
    RunCache *cache = calloc(1, sizeof *cache);
    if (cache)
        cache->budget = budget;
    return cache;
}

void run_cache_destroy(RunCache *cache)
{
    if (!cache)
        return;
    for (int k = 0; k < cache->count; k++) {
        free(cache->entries[k].start);
        free(cache->entries[k].end);
    }
    free(cache->entries);
    free(cache);
}

static void play(Solver *solver, int64_t steps)
{
    for (int64_t k = 0; k < steps && !solver->exploded; k++)
        solver_step(solver);
}

/* The longest run remembered from this start that is no longer than
 * steps, or NULL. */
static const RunEntry *find(const RunCache *cache, const unsigned char *start, size_t size, int64_t steps)
{
    const RunEntry *best = NULL;
    for (int k = 0; k < cache->count; k++) {
        const RunEntry *e = &cache->entries[k];
        if (e->steps <= steps && (!best || e->steps > best->steps) && e->size == size &&
            memcmp(e->start, start, size) == 0)
            best = e;
    }
    return best;
}

/* Keeps start and the solver's state now as a run of steps; takes start
 * over (frees it) whether or not there was room. */
static void remember(RunCache *cache, unsigned char *start, size_t size, const Solver *solver, int64_t steps)
{
    size_t end_size = solver_state_size(solver);
    unsigned char *end = NULL;
    if (cache->used + size + end_size > cache->budget || !(end = malloc(end_size))) {
        free(start);
        return;
    }
    if (cache->count == cache->capacity) {
        int capacity = cache->capacity ? 2 * cache->capacity : 32;
        RunEntry *grown = realloc(cache->entries, (size_t)capacity * sizeof *grown);
        if (!grown) {
            free(start);
            free(end);
            return;
        }
        cache->entries = grown;
        cache->capacity = capacity;
    }
    solver_state_save(solver, end);
    cache->entries[cache->count++] = (RunEntry){steps, size, end_size, start, end};
    cache->used += size + end_size;
}

void run_cache_steps(RunCache *cache, Solver *solver, int64_t steps)
{
    /* a half-done step lives partly in the scratch the state leaves out */
    if (!cache || steps <= 0 || solver->exploded || solver->phase != PHASE_BETWEEN_SUBSTEPS || solver->substep != 0) {
        play(solver, steps);
        return;
    }
    size_t size = solver_state_size(solver);
    unsigned char *start = malloc(size);
    if (!start) {
        play(solver, steps);
        return;
    }
    solver_state_save(solver, start);
    const RunEntry *seen = find(cache, start, size, steps);
    if (seen && seen->steps == steps) {
        solver_state_load(solver, seen->end);
        cache->hits++;
        free(start);
        return;
    }
    /* a shorter run from here was played: on from where it ended (an
     * exploded end steps no further, as the loop would not) */
    int64_t done = 0;
    if (seen) {
        solver_state_load(solver, seen->end);
        done = seen->steps;
        cache->hits++;
    }
    play(solver, steps - done);
    remember(cache, start, size, solver, steps);
}

int run_cache_hits(const RunCache *cache)
{
    return cache ? cache->hits : 0;
}

int run_cache_stored(const RunCache *cache)
{
    return cache ? cache->count : 0;
}
