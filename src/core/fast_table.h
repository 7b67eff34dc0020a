/* fast_table.h - the fast path as the solver sees it: a table of
 * function pointers, as zlib-ng's functable.
 *
 * The fast path (src/fast/, its README tells the design) does the stages
 * of a step vectorised at the instruction-set level the processor has and
 * on several threads, with the plain code's bits. Core never includes
 * it: the program fills this table once at start (fast_table_install, from
 * src/fast/'s relax_fast_table: app/main.c, the tests, the fuzzers), and a
 * solver made afterwards calls through it. With no table a solver runs
 * the plain code, the readable reference, on one thread: the same bits.
 *
 * Each stage function returns whether it did the work (false, or -1 for
 * the int ones, doing nothing: then the solver runs the plain code); the
 * comments in src/fast/relax_fast.h, which declares them, say when.
 */
#ifndef CLOTHSIM_FAST_TABLE_H
#define CLOTHSIM_FAST_TABLE_H

#include <stdbool.h>

#include "cloth.h"
#include "collide.h"

struct Solver;
struct RelaxFast; /* the fast path's state for one cloth: opaque here */

/* A per-particle stage of integrate.c: one function over particles
 * [from, to) that reads and writes only those particles. */
typedef void (*FastRange)(struct Solver *solver, int from, int to);

typedef struct FastTable {
    /* lifetime: a cloth's colouring and schedules, and `threads` - 1
     * worker threads (1 .. RELAX_FAST_MAX_THREADS); NULL when out of memory */
    struct RelaxFast *(*create)(const Cloth *cloth, int threads);
    void (*destroy)(struct RelaxFast *fast);
    int (*threads)(const struct RelaxFast *fast); /* started, the caller's included */
    bool (*adapt)(struct RelaxFast *fast);        /* from now on take the idle cores only */
    int (*usable_cores)(void);                    /* this process's cores, 1 .. the most */

    /* the stages, in the order of a substep (solver.h) */
    bool (*forces)(struct RelaxFast *fast, struct Solver *solver, float gravity, bool windy);
    bool (*range)(struct RelaxFast *fast, struct Solver *solver, FastRange range);
    /* a relaxation pass and its contact: the colored order's */
    void (*pass)(struct RelaxFast *fast, struct Solver *solver, const float k[LINK_FAMILY_COUNT],
                 const float alpha[LINK_FAMILY_COUNT]);
    bool (*passes)(struct RelaxFast *fast, struct Solver *solver, const float k[LINK_FAMILY_COUNT],
                   const float alpha[LINK_FAMILY_COUNT], int passes);
    /* the sequential and jacobi orders' link loop; the sequential order's
     * passes left of a substep with their contact */
    void (*sequential)(struct RelaxFast *fast, struct Solver *solver, const float k[LINK_FAMILY_COUNT],
                       const float alpha[LINK_FAMILY_COUNT], bool kept, bool jacobi);
    bool (*sequential_passes)(struct RelaxFast *fast, struct Solver *solver, const float k[LINK_FAMILY_COUNT],
                              const float alpha[LINK_FAMILY_COUNT], int passes, bool kept);
    bool (*sphere)(struct RelaxFast *fast, Cloth *cloth, const Collider *sphere, float margin, float friction,
                   bool fix_velocity);
    int (*blew_up)(struct RelaxFast *fast, const Cloth *cloth, float allowed, float stretch);
    /* the end of a substep: contact, velocity and the explosion check */
    int (*finish)(struct RelaxFast *fast, struct Solver *solver, float allowed, float stretch);
} FastTable;

/* The table solvers made from now on call through; NULL: none (the plain
 * code). Once at start, before any solver is made and before any thread
 * starts; the table must outlive every solver made with it. */
void fast_table_install(const FastTable *table);
const FastTable *fast_table_installed(void);

#endif
