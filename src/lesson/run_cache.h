/* run_cache.h - the checker's memory of the runs it has played.
 *
 * A solver is deterministic: from the same state, the same number of steps
 * ends in the same bits. Lesson runs often repeat one played before: a
 * translated lesson plays the same panes as the original (only the words
 * differ), and a page that resets its panes runs an unchanged pane again.
 * The cache keeps each run's starting state (solver_state_save) and the
 * state it ended in; a run that starts from a state already seen, for as
 * many steps, loads the end instead of computing it, and one for more
 * steps goes on from the end of the longest shorter one. A lookup compares the
 * whole starting state byte for byte, never a hash, so a hit is exactly the
 * run it stands for.
 *
 * Only between steps (no substep half done), and not for a solver already
 * exploded; otherwise it steps as always. The memory is bounded (the
 * budget): past it, runs are still played, only no longer remembered.
 */
#ifndef CLOTHSIM_LESSON_RUN_CACHE_H
#define CLOTHSIM_LESSON_RUN_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "core/solver.h"

/* Enough for every run of the course, English and Ukrainian, several times. */
#define RUN_CACHE_BUDGET ((size_t)256 << 20)

typedef struct RunCache RunCache;

/* NULL when out of memory. Free with run_cache_destroy. */
RunCache *run_cache_create(size_t budget);
void run_cache_destroy(RunCache *cache);

/* What `for (k = 0; k < steps && !solver->exploded; k++) solver_step(solver)`
 * does, the same bits, from memory where this state ran as far before.
 * cache may be NULL (then it steps). */
void run_cache_steps(RunCache *cache, Solver *solver, int64_t steps);

/* Runs loaded from memory (whole or in part), and runs remembered, so far. */
int run_cache_hits(const RunCache *cache);
int run_cache_stored(const RunCache *cache);

#endif
