/* relax_fast_internal.h - what the files of the fast path share, and no
 * one else: its data (struct RelaxFast, the blocks and units of the colored
 * order, a job for the threads), the scalar kernels that are the readable
 * reference, and the table of pass kernels per instruction set.
 *
 * relax_fast.c            the jobs and how the threads share them, the
 *                         kernel table, lifetime
 * relax_colour.c          the colored order: colours, bands, units, blocks
 * relax_kernels.h         the colored order's passes and the stages around
 *                         them, written once over relax_lanes.h's vectors
 *                         and built per level by relax_kernels_portable.c,
 *                         _neon.c, _avx2.c and _avx512.c
 * relax_pool.c            the worker threads
 * relax_schedule.c        the sequential and jacobi orders' schedule and
 *                         its kernels
 * relax_helix_walk.h      the sequential order, every family in one walk
 *                         and the passes of a substep together, on one
 *                         thread or cut among several, written once over
 *                         relax_lanes.h's vectors and built per level by
 *                         relax_helix_avx512.c, _avx2.c, _neon.c and
 *                         _portable.c (relax_helix.c calls the one in use)
 *
 * As zlib-ng does (arch/x86/), each instruction set's kernels are in files
 * of their own, and one table per level (RelaxPassKernels) is filled once
 * from what the processor has: relax_fast_pass_kernels. The scalar path is
 * the readable reference; every level gives its bits.
 */
#ifndef CLOTHSIM_RELAX_FAST_INTERNAL_H
#define CLOTHSIM_RELAX_FAST_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/cloth.h"
#include "core/collide.h"
#include "relax_fast.h"
#include "relax_helix.h"
#include "relax_pool.h"
#include "relax_schedule.h"
#include "core/solver.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define RELAX_FAST_X86 1
#include <immintrin.h>
#else
#define RELAX_FAST_X86 0
#endif

/* Links a block holds (relax_colour.c). */
#define LANES 8

typedef struct RelaxPassKernels RelaxPassKernels;

/* How the particles of a colour's links sit in memory, along a row. */
typedef enum ParticleLayout {
    ROWS,  /* a and b each run on by one: a = a0 + j, b = b0 + j */
    PAIRS, /* a, b, a, b ...: b = a + 1, links two apart (structural horizontal) */
    QUADS, /* a, a', b, b', ...: b = a + 2, links in pairs four apart (bend horizontal) */
} ParticleLayout;

/* How the same links sit in the link arrays. */
typedef enum LinkLayout {
    LINKS_NEXT,  /* one apart, in lane order */
    LINKS_PAIRS, /* as the particles of PAIRS */
    LINKS_EVEN,  /* two apart (the shear links alternate diagonals), lanes in order */
    LINKS_QUADS, /* as the particles of QUADS */
} LinkLayout;

typedef struct Colour {
    int family; /* LinkFamily */
    ParticleLayout particles;
    LinkLayout links;
} Colour;

/* One colour of one band of rows: the links of that colour whose top
 * particle lies in the band; unit u's are f->order[group_start[u] ..
 * group_start[u + 1]). No two share a particle. The fast path solves them
 * as vectors of 8, blocks[block_begin .. block_end), and the rest one by
 * one, tails[tail_begin .. tail_end). The blocks come in three runs:
 * - up to single_begin, pairs: blocks 2n and 2n + 1 follow each other in
 *   a row (the particles of the second start where the first's end);
 * - up to overlap_begin, the blocks left over from the pairs;
 * - then the blocks that overlap the one before them in their row, with
 *   the lanes already solved masked off. */
typedef struct Unit {
    int colour, band;
    int block_begin, single_begin, overlap_begin, block_end;
    int tail_begin, tail_end;
} Unit;

/* Eight links of one row of one colour. */
typedef struct Block {
    int32_t a, b; /* first particle loaded for the a ends (and the b ends in ROWS) */
    int32_t link; /* first link loaded */
    int32_t skip; /* lanes of ordinal below this were solved by the previous block */
} Block;

/* What a pass reads of a block, in an array of its own: half the bytes,
 * and the pass's data (positions, rest lengths, these) then fits the
 * caches of two cores at 200 x 200. */
typedef struct BlockEnds {
    int32_t a, b;
} BlockEnds;

/* What the threads are asked to do: a relaxation pass, or one of the
 * stages around the passes, each split by particles or rows. */
typedef enum JobKind {
    JOB_PASS,
    JOB_SEQUENTIAL,
    JOB_HELIX, /* passes of the sequential order through relax_helix.h */
    JOB_FORCES,
    JOB_RANGE, /* a per-particle stage of integrate.c: job.range */
    JOB_CONTACT,
    JOB_BLEW_UP
} JobKind;

/* What one job asks of every thread. */
typedef struct Job {
    JobKind kind;
    Cloth *cloth;
    float k[LINK_FAMILY_COUNT], alpha[LINK_FAMILY_COUNT];
    bool xpbd;
    bool refresh;  /* gather the block lanes' rest lengths and live masks first */
    int passes;    /* passes in this job, one after the other */
    float *lambda; /* the solver's, one per link: for the tail links */
    bool sphere;
    Collider collider;
    float margin;
    /* the stages: */
    struct Solver *solver;
    RelaxFastRange range;
    float gravity, friction;
    bool windy;
    /* the explosion check: each thread's verdict and bounding box; with
     * `finish`, the contact and the velocity come first, chunk by chunk */
    bool finish;
    float stretch;
    bool bad[RELAX_FAST_MAX_THREADS];
    float least[RELAX_FAST_MAX_THREADS][3], most[RELAX_FAST_MAX_THREADS][3];
    int threads; /* taking part in this job */
    /* a sequential pass: its schedule (relax_schedule.h) and constants */
    RelaxSchedule *schedule;
    RelaxPassConstants constants;
    unsigned serial;
} Job;

typedef struct BandDone {
    _Alignas(64) atomic_uint serial;
} BandDone;

struct RelaxFast {
    int link_count;
    uint32_t *order;
    int *group_start; /* unit_count + 1 entries: unit u is order[group_start[u] .. group_start[u + 1]) */
    Colour colour[RELAX_FAST_COLOURS];
    /* the units, even bands first (phase 0), then odd ones (phase 1); a
     * band's RELAX_FAST_COLOURS units follow each other */
    Unit *units;
    int unit_count;
    int phase_unit_start[2], phase_bands[2];
    int band_rows; /* rows of a band */
    Block *blocks;
    BlockEnds *ends; /* blocks[i].a and .b */
    int block_count;
    float *lambda; /* xpbd multipliers of the block lanes, LANES per block */
    /* refreshed by the first pass after links tore: per block lane, the
     * rest length; per block, a bit a lane (bit p: lane p), set where the
     * lane's link is solved (not torn, and not left to the block before in
     * its row). A byte a block, not a mask vector: a pass reads 1 byte for
     * 8 links instead of 32, a fifth less memory traffic. */
    float *block_rest;
    uint8_t *block_live;
    bool blocks_stale;        /* refresh before the next pass */
    unsigned torn_generation; /* the cloth's when they were refreshed */
    uint32_t *tails;
    int tail_count;
    const RelaxPassKernels *kernels; /* the pass kernels: relax_fast_use_kernels */
    bool simd;                       /* the level is AVX2 or above (kernels->level): the sequential order's schedule */
    bool wide;                       /* AVX-512 */

    /* wind: solver_wind_cells and solver_wind_to_particles on the threads'
     * rows, which need the triangles cloth_create makes */
    bool wind_grid;       /* the triangles are cloth_create's: two a cell, row by row */
    bool structural_grid; /* the structural links are cloth_create's: across row by row, then down */

    Job job;

    /* order=sequential: its schedule for one thread, and for `threads` */
    RelaxSchedule *sequential[2];
    unsigned sequential_serial;
    /* and every family in one walk, a pass or a substep's, on one thread
     * or cut among several (NULL when out of memory: the schedule serves) */
    RelaxHelix *helix; /* walked by kernels->helix */
    const Cloth *grid; /* the cloth relax_fast_create was given: the helix's layout */

    /* the threads: the caller is thread 0 */
    RelaxPool pool;
    bool adapt; /* relax_fast_adapt: a job takes the threads the machine's idle cores fit */
    int taken;  /* relax_fast_take_threads: if not 0, the threads a job takes */
    /* A pass job's bands, in the order they are taken: for each pass, its
     * even bands, then its odd ones. next_task counts those taken. */
    atomic_int next_task;
    /* a stage job's next chunk to take, for each of its parts */
    atomic_int next_chunk[4];
    /* per band (global index), the pass that last finished it (a serial
     * number): a band waits for its neighbours, not for all. One cache line
     * each, so that a thread marking its band does not take the line from
     * the one polling the band next to it. */
    BandDone *band_done;
    unsigned pass_serial; /* the serial of a job's first pass */
    unsigned next_serial; /* the next job's, from 1 */
};

/* The natural lane offset of lane j in a layout (0 .. 15). */
static inline int particle_offset(ParticleLayout layout, int j)
{
    return layout == ROWS ? j : layout == PAIRS ? 2 * j : (j / 2) * 4 + j % 2;
}

static inline int link_offset(LinkLayout layout, int j)
{
    return layout == LINKS_NEXT ? j : layout == LINKS_QUADS ? (j / 2) * 4 + j % 2 : 2 * j;
}

/* ------------------------------------------------------------ the scalar kernels */

/* project_links' body for one link: the same correction, applied in place. */
static inline void solve_link(Cloth *c, uint32_t l, float k, float alpha, bool xpbd, float *lambda)
{
    float scale, d[3];
    if (!solver_link_correction(c, l, k, alpha, xpbd, 1.0f, lambda, &scale, d))
        return;
    uint32_t a = c->link_a[l], b = c->link_b[l];
    float wa = c->inv_mass[a], wb = c->inv_mass[b];
    solver_move_fused(c, a, wa * scale, d);
    solver_move_fused(c, b, -(wb * scale), d);
}

/* collide_points for a sphere (positions only), for one particle. */
static inline void sphere_push(Cloth *c, int i, const Collider *sphere, float margin, float friction)
{
    if (c->inv_mass[i] == 0.0f)
        return;
    float dx = c->x[i] - sphere->center[0], dy = c->y[i] - sphere->center[1], dz = c->z[i] - sphere->center[2];
    float d = sqrtf(dx * dx + dy * dy + dz * dz);
    float n[3];
    if (d > 1e-9f)
        n[0] = dx / d, n[1] = dy / d, n[2] = dz / d;
    else
        n[0] = 0.0f, n[1] = 1.0f, n[2] = 0.0f;
    float distance = d - sphere->radius;
    if (distance >= margin)
        return;
    collide_push_out(c, i, n, margin - distance, friction);
}

/* The arrays a block kernel reads and writes, as restrict locals: otherwise
 * every store could be changing them, and the compiler reloads them all
 * after each one. */
#define KERNEL_ARRAYS(c, f)                                                                                            \
    float *restrict x = (c)->x, *restrict y = (c)->y, *restrict z = (c)->z;                                            \
    const float *restrict w = (c)->inv_mass, *restrict rest = (f)->block_rest;                                         \
    const uint8_t *restrict live = (f)->block_live;                                                                    \
    const BlockEnds *restrict blocks = (f)->ends;                                                                      \
    float *restrict lambda = (f)->lambda;

/* ------------------------------------------------------------ the table */

/* A run of blocks [begin, end) of one colour's units, solved in place. */
typedef void (*RelaxBlockLoop)(Cloth *c, const RelaxFast *f, int begin, int end, float k, float alpha);

/* The pass kernels of one level (relax_kernels.h built for it); every
 * level has them. The links no block takes go through solve_link, the
 * particles no vector takes through sphere_push (the scalar kernels). */
struct RelaxPassKernels {
    RelaxFastKernels level;
    /* [xpbd][ParticleLayout]: a block of eight links at a time */
    RelaxBlockLoop blocks[2][3];
    /* [xpbd][ParticleLayout]: pairs of blocks that follow each other in a
     * row, sixteen links a vector (AVX-512); NULL below */
    RelaxBlockLoop pairs[2][3];
    /* the block lanes' rest lengths and live masks of unit u, from its
     * links */
    void (*refresh_unit)(RelaxFast *f, const Cloth *c, const Unit *u);
    /* sphere_push on particles begin .. end */
    void (*sphere_range)(Cloth *c, int begin, int end, const Collider *sphere, float margin, float friction);
    /* The stages around the passes, a vector of particles or cells at a
     * time, with the plain stages' operations (forces.c, checks.c): stage_forces'
     * start for particles from .. to - 1 (gravity and, when windy,
     * solver_wind_field); solver_wind_cells for
     * the cells of rows from .. to - 1; solver_wind_to_particles for the
     * particles of rows from .. to - 1; blew_up's coordinate half for
     * particles from .. to - 1 (false if one is not finite; else each
     * axis' least and most) and its link half for the rows from .. to - 1
     * of a structural_grid cloth (whether a structural link across a row
     * or down from it is over stretch times its rest length). */
    void (*forces)(Solver *s, const Job *job, int from, int to);
    void (*wind_cell_rows)(Solver *s, int from, int to);
    void (*wind_particle_rows)(Solver *s, int from, int to);
    bool (*coordinates_sane)(const Cloth *c, int from, int to, float least[3], float most[3]);
    bool (*rows_overstretched)(const Cloth *c, int from, int to, float stretch);
    /* the sequential order's walk (relax_helix.h) at this level */
    const RelaxHelixLevel *helix;
};

/* Fills f's colours, units, blocks, tails, order and group_start for
 * cloth (relax_colour.c), asserting the invariants the passes rely on.
 * False when the cloth is not the grid the colours assume. */
bool relax_colour_build(RelaxFast *f, const Cloth *cloth);

/* The table of `wanted`, or of the widest level below it that the
 * processor has (NEON: portable). */
const RelaxPassKernels *relax_fast_pass_kernels(RelaxFastKernels wanted);

/* Each level's file (relax_kernels.h built per level) fills its entries;
 * relax_kernels_avx512_fill only the pairs and the stages. */
void relax_kernels_portable_fill(RelaxPassKernels *table);
void relax_kernels_neon_fill(RelaxPassKernels *table);
void relax_kernels_avx2_fill(RelaxPassKernels *table);
void relax_kernels_avx512_fill(RelaxPassKernels *table);

#endif
