/* relax_fast.c - the fast path (relax_fast.h): its jobs and the colored order's passes.
 *
 * Why the plain loop is slow
 * --------------------------
 * A relaxation pass (Jakobsen 2001) visits the links one at a time. Each
 * visit reads its two particles, takes a square root for the length and a
 * division for the correction, and moves both particles. The next link of
 * the classic order shares a particle with this one (the link right of
 * particle i and the link right of i + 1 share i + 1), so it cannot start
 * before this one has finished: the pass is one long chain of dependent
 * square roots and divisions. A core can start a new square root every few
 * cycles, but waits some 40 cycles for the chain's results: most of the
 * machine idles, in C as in JavaScript (README.md beside this file has
 * the figures).
 *
 * What this one does differently
 * ------------------------------
 * The grid's links are split into 12 colours, chosen once: in one colour no
 * two links share a particle. Horizontal structural links alternate: those
 * starting at an even column form one colour, the odd ones another. Vertical
 * ones and both diagonals go by row parity; bend links (which skip a node)
 * need columns or rows 0,1 | 2,3 mod 4. Inside a colour no link reads what
 * another one writes, so the links of a colour can be solved in any order,
 * or all at once, and every particle ends with the same bits.
 *
 * The rows are also cut into bands of RELAX_FAST_BAND_ROWS (8) on a large
 * grid (a small one is one band), and a link belongs to the band of its top
 * particle. A pass visits the even bands,
 * then the odd ones, and inside a band its 12 colours one after the other.
 * A band's links reach at most two rows below it, so two even bands (or two
 * odd ones) never share a particle: they too can run in any order, or at
 * the same time. Working band by band keeps a few rows in the cache while
 * all 12 colours go over them; colour by colour over the whole grid, a
 * 200 x 200 cloth (640 KB of positions) would come from memory 12 times a
 * pass.
 *
 * That order, group by group (relax_fast_order, core/colour.c), is what
 * order=colored means; project_links in relax.c walks it link by link as
 * the readable reference, and tests/fast/test_fast.c checks that this path gives its
 * bits.
 *
 * "All at once" is used twice:
 * - eight links per instruction (AVX2; two vectors of four at the portable
 *   level and NEON): a row of a colour is eight
 *   independent square roots and divisions in one vector, loaded and stored
 *   with plain vector moves because a colour's links in a row sit at fixed
 *   strides in the structure-of-arrays particles (the stride-2 colours are
 *   unzipped with two shuffles and zipped back the same way). Where the CPU
 *   has AVX-512, two such blocks that follow each other in a row go through
 *   one vector of sixteen (the "wide" kernels), and each pair's particles
 *   are loaded while the pair before it is being solved: they share none,
 *   and with 32 registers the loads no longer wait for the division.
 * - the bands shared among threads. An odd band waits only for the two
 *   even bands beside it, and the next pass's even band for the odd bands
 *   beside it, so the ten passes of a substep are one job with no barrier:
 *   a thread that finishes early goes on into the next pass.
 * The arithmetic is the plain loop's, operation for operation: the same
 * products in the same order, IEEE square root and division (never the
 * approximate reciprocals), fused multiply-adds exactly where the plain
 * loop calls fmaf (the squared length and the moves, solver.h) and nowhere
 * else (the Makefile's -ffp-contract=off keeps the compiler from
 * contracting the rest of the scalar code). A skipped link (torn, pinned at both ends,
 * zero length) is computed and then discarded lane by lane with a blend or
 * a masked add, so it changes nothing, as the plain loop's `continue`.
 *
 * Rows whose colour holds fewer than 8 links, and the links a row's last
 * vector cannot cover, are solved one by one with the same scalar code.
 * The contact with a sphere that follows every pass is vectorised the same
 * way; other colliders, edge samples and the floor use collide.c as is.
 *
 * What is left of a step once the passes are fast is worth as much again,
 * so the fast path also has vectorised twins of the stages of core (forces.c, collide.c, checks.c)
 * around the passes, each with the plain stage's operations and order, and
 * each cut into chunks that the threads take as they come: gravity and the
 * gusts' field (stage_forces), the wind (solver_wind_cells, then
 * solver_wind_to_particles: eight cells and eight particles at a time where
 * no triangle is torn, the rest by those functions themselves), the
 * Verlet / PBD update (STAGE_INTEGRATE), and at the end of a
 * substep, in one sweep, the sphere contact with friction (collide_points),
 * the velocity update (stage_velocity) and the explosion check (blew_up).
 *
 * A pair of blocks (16 links) is some 65 instructions (8 to 16 loads, the
 * shuffles of the stride-2 colours, 6 stores, the arithmetic); README.md
 * beside this file has what they cost on the machines measured. What
 * would go faster still is fewer instructions a link, not a faster square
 * root: the arithmetic here is pinned to the plain loop's.
 *
 * Where things are
 * ----------------
 * The solver calls this file's functions through core's table
 * (core/fast_table.h; relax_table.c fills it). This file: the jobs (a pass, the stages around it) and how the threads
 * share them, lifetime, and the table of pass kernels per level, filled
 * once from what the processor has (relax_fast_pass_kernels). The
 * colouring into units and blocks: relax_colour.c. The kernels themselves:
 * relax_kernels.h, written once in vector C and built per level (four
 * lanes at the portable level and NEON, eight at AVX2, sixteen at AVX-512:
 * pairs of blocks), and the scalar ones, the readable reference (and the
 * links no block takes), in relax_fast_internal.h with the data the files
 * share. The threads: relax_pool.c. The sequential order's passes, one or
 * a substep's, on one thread or several: relax_helix.h's walk; its
 * schedule (jacobi, and where the walk's buffers could not be had):
 * relax_schedule.c.
 */
#include "relax_fast.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/collide.h"
#include "relax_pool.h"
#include "relax_schedule.h"
#include "core/solver.h"

#include "relax_fast_internal.h"

_Static_assert(RELAX_FAST_MAX_THREADS == RELAX_POOL_MAX_THREADS, "the pool starts the threads a pass may use");

/* Below this many links (a grid of about 75 x 75) a pass takes under 50
 * microseconds, and waking the threads and the barriers between the phases
 * cost too large a share of it (far more on a machine busy with other
 * work): one thread does it all. */
#define RELAX_FAST_THREAD_MIN_LINKS COLOUR_BANDED_LINKS

/* ------------------------------------------------------------ what the processor has */

/* One table per level, filled once: a level the processor lacks is a
 * copy of the widest one below it that it has (NEON: portable's). */
static RelaxPassKernels pass_kernels[RELAX_FAST_LEVELS];
static pthread_once_t pass_kernels_once = PTHREAD_ONCE_INIT;

static void fill_pass_kernels(void)
{
    RelaxPassKernels table = {.level = RELAX_FAST_PORTABLE, .helix = relax_helix_level(RELAX_FAST_PORTABLE)};
    relax_kernels_portable_fill(&table);
    pass_kernels[RELAX_FAST_PORTABLE] = table;
    RelaxPassKernels neon = table;
#if defined(__aarch64__) && defined(__GNUC__)
    if (relax_fast_cpu_has(RELAX_FAST_NEON)) {
        neon.level = RELAX_FAST_NEON, neon.helix = relax_helix_level(RELAX_FAST_NEON);
        relax_kernels_neon_fill(&neon);
    }
#endif
    pass_kernels[RELAX_FAST_NEON] = neon;
#if defined(__x86_64__) && defined(__GNUC__)
    if (relax_fast_cpu_has_simd()) {
        table.level = RELAX_FAST_AVX2;
        relax_kernels_avx2_fill(&table);
        table.helix = relax_helix_level(RELAX_FAST_AVX2);
    }
    pass_kernels[RELAX_FAST_AVX2] = table;
    if (relax_fast_cpu_has_wide()) {
        table.level = RELAX_FAST_AVX512;
        relax_kernels_avx512_fill(&table); /* the pairs and the stages; the blocks left over stay AVX2's */
        table.helix = relax_helix_level(RELAX_FAST_AVX512);
    }
#else
    table = neon;
    pass_kernels[RELAX_FAST_AVX2] = table;
#endif
    pass_kernels[RELAX_FAST_AVX512] = table;
}

const RelaxPassKernels *relax_fast_pass_kernels(RelaxFastKernels wanted)
{
    pthread_once(&pass_kernels_once, fill_pass_kernels);
    const RelaxPassKernels *table = &pass_kernels[wanted];
    assert(table->level <= wanted && table->helix && table->blocks[0][0] && table->forces &&
           (table->pairs[0][0] != NULL) == (table->level >= RELAX_FAST_AVX512));
    return table;
}

bool relax_fast_cpu_has(RelaxFastKernels kernels)
{
    switch (kernels) {
    case RELAX_FAST_PORTABLE:
        return true;
    case RELAX_FAST_NEON:
        return relax_helix_level(RELAX_FAST_NEON) != NULL; /* every aarch64 processor has NEON */
    case RELAX_FAST_AVX2:
        return relax_fast_cpu_has_simd();
    default:
        return relax_fast_cpu_has_wide();
    }
}

#if RELAX_FAST_X86

bool relax_fast_cpu_has_simd(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

bool relax_fast_cpu_has_wide(void)
{
    return relax_fast_cpu_has_simd() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
}

#else

bool relax_fast_cpu_has_simd(void)
{
    return false;
}

bool relax_fast_cpu_has_wide(void)
{
    return false;
}

#endif

/* ------------------------------------------------------------ threads */

/* The stages are cut into chunks that the threads take one at a time
 * (a thread on a busier core takes fewer), of this many particles: a
 * whole number of vectors, about 40 for a 200 x 200 cloth. */
#define STAGE_CHUNK 1024

/* A thread's walk through the chunks of one part of a stage job. */
typedef struct Chunks {
    int part, total, size; /* counter next_chunk[part]; total items, size a chunk */
    int taken;             /* by this thread so far */
} Chunks;

/* Thread t's next chunk [from, to); false when all are taken. With two
 * threads the first takes them from the front and the other from the
 * back, as the bands of a pass: each keeps the rows it had (in its cache),
 * which counts for more than the balance (taking them in turns was
 * slower: src/fast/README.md). */
static bool next_chunk(RelaxFast *f, int t, Chunks *ch, int *from, int *to)
{
    int chunks = (ch->total + ch->size - 1) / ch->size;
    int k = atomic_fetch_add(&f->next_chunk[ch->part], 1);
    if (k >= chunks)
        return false;
    if (f->job.threads == 2)
        k = t == 0 ? ch->taken : chunks - 1 - ch->taken;
    ch->taken++;
    *from = k * ch->size;
    *to = *from + ch->size < ch->total ? *from + ch->size : ch->total;
    return true;
}

/* Rows in a chunk of STAGE_CHUNK particles (at least one). */
static int rows_a_chunk(const Cloth *c)
{
    return c->cols >= STAGE_CHUNK ? 1 : STAGE_CHUNK / c->cols;
}

static void run_job(RelaxFast *f, int t);

/* The units first .. last - 1 of one band, one after the other. */
static void solve_band(RelaxFast *f, const Unit *first, const Unit *last, bool refresh)
{
    const Job *job = &f->job;
    Cloth *c = job->cloth;
    for (const Unit *u = first; u < last; u++) {
        const Colour *col = &f->colour[u->colour];
        float k = job->k[col->family], alpha = job->alpha[col->family];
        if (refresh)
            f->kernels->refresh_unit(f, c, u);
        if (k <= 0.0f) /* the plain loop skips the family */
            continue;
        const RelaxPassKernels *kernels = f->kernels;
        int xpbd = job->xpbd, layout = col->particles;
        if (kernels->pairs[0][0]) {
            kernels->pairs[xpbd][layout](c, f, u->block_begin, u->single_begin, k, alpha);
            kernels->blocks[xpbd][layout](c, f, u->single_begin, u->block_end, k, alpha);
        } else {
            kernels->blocks[xpbd][layout](c, f, u->block_begin, u->overlap_begin, k, alpha);
            /* after the blocks they overlap */
            kernels->blocks[xpbd][layout](c, f, u->overlap_begin, u->block_end, k, alpha);
        }
        for (int i = u->tail_begin; i < u->tail_end; i++)
            solve_link(c, f->tails[i], k, alpha, job->xpbd, &job->lambda[f->tails[i]]);
    }
}

/* The sphere contact after a pass (no friction) for the particles of band
 * `band` (global index), if there is one. */
static void band_contact(RelaxFast *f, int band)
{
    const Job *job = &f->job;
    Cloth *c = job->cloth;
    int from = band * f->band_rows * c->cols, to = (band + 1) * f->band_rows * c->cols;
    to = to < c->count ? to : c->count;
    if (from >= to)
        return;
    f->kernels->sphere_range(c, from, to, &job->collider, job->margin, 0.0f);
}

/* Waits until band `band` (global index), if it exists, is done in the
 * pass of serial number `serial`. */
static void wait_for_band(RelaxFast *f, int band, int bands, unsigned serial)
{
    if (band < 0 || band >= bands)
        return;
    int spins = 0;
    while ((int)(atomic_load_explicit(&f->band_done[band].serial, memory_order_acquire) - serial) < 0)
        relax_pool_wait_a_little(&spins);
}

/* The passes of a job, as thread t sees them: for each pass, bands of the
 * even phase, then bands of the odd phase, then the sphere contact, with
 * no barrier anywhere:
 * - The bands of a phase share no particle, so any thread may take any of
 *   them. Each takes one at a time until all are taken: a thread on a
 *   busier core takes fewer. With two threads the first takes them from
 *   the top, the other from the bottom, so each keeps mostly the same rows
 *   (in its cache) from pass to pass.
 * - An odd band's links touch its own rows and the two rows below it, and
 *   the even bands on either side touch those too: it waits for just those
 *   two to be done (they were taken before any odd band was, so they are
 *   under way).
 * - A particle is touched by the links of its band and of the band above.
 *   When odd band g is done, so are even bands g - 1 and g + 1, so the rows
 *   of bands g and g + 1 are final for this pass: that thread pushes them
 *   out of the sphere (and band 0's too, after odd band 1). A cloth of one
 *   band gets its contact after it.
 * - In the next pass an even band waits for the odd bands on either side:
 *   then every link of the pass before that touches its rows is done, and
 *   the contact of those rows too. */
static void run_pass(RelaxFast *f, int t)
{
    const Job *job = &f->job;
    int n = job->threads, bands = f->phase_bands[0] + f->phase_bands[1];
    int task = -1, phase_first = 0, front = 0, back = 0, pass = 0, phase = 0;
    for (;;) {
        task = atomic_fetch_add(&f->next_task, 1);
        /* which pass and phase that is (tasks only grow, for each thread) */
        while (pass < job->passes && task >= phase_first + f->phase_bands[phase]) {
            phase_first += f->phase_bands[phase];
            front = back = 0;
            pass += phase, phase = 1 - phase;
        }
        if (pass >= job->passes)
            return;
        int count = f->phase_bands[phase], taken = task - phase_first;
        int index = n != 2 ? taken : t == 0 ? front++ : count - 1 - back++;
        int band = 2 * index + phase; /* global */
        unsigned serial = f->pass_serial + (unsigned)pass;
        /* odd: this pass's even neighbours; even: the last pass's odd ones */
        unsigned wanted = phase == 1 ? serial : serial - 1;
        if (phase == 1 || pass > 0) {
            wait_for_band(f, band - 1, bands, wanted);
            wait_for_band(f, band + 1, bands, wanted);
        }
        if (phase == 0 && pass > 0) /* itself: a cloth of one band has no neighbours */
            wait_for_band(f, band, bands, wanted);
        const Unit *first = f->units + f->phase_unit_start[phase] + index * RELAX_FAST_COLOURS;
        solve_band(f, first, first + RELAX_FAST_COLOURS, job->refresh && pass == 0);
        if (job->sphere) {
            if (phase == 0 && bands == 1)
                band_contact(f, band);
            if (phase == 1 && band == 1)
                band_contact(f, 0);
            if (phase == 1) {
                band_contact(f, band);
                band_contact(f, band + 1);
            }
        }
        atomic_store_explicit(&f->band_done[band].serial, serial, memory_order_release);
    }
}

/* The pool's job: whatever f->job says. */
static void pool_job(void *context, int t)
{
    run_job(context, t);
}

/* The threads a job takes now: one where the cloth is too small for
 * threads to pay (RELAX_FAST_THREAD_MIN_LINKS); with relax_fast_adapt, no
 * more than the cores other programs leave idle (relax_pool_worth). Read
 * once for a job and its set-up: the watcher may change it at any time. */
static int job_threads(const RelaxFast *f)
{
    if (f->pool.threads < 2 || f->link_count < RELAX_FAST_THREAD_MIN_LINKS)
        return 1;
    if (f->taken > 0)
        return f->taken < f->pool.threads ? f->taken : f->pool.threads;
    return f->adapt ? relax_pool_worth(&f->pool) : f->pool.threads;
}

/* Runs f->job on `threads` threads (one: thread 0 takes every part, in turn). */
static void run_on(RelaxFast *f, int threads)
{
    for (int part = 0; part < 4; part++)
        atomic_store(&f->next_chunk[part], 0);
    f->job.threads = threads;
    relax_pool_run(&f->pool, threads);
}

/* Runs f->job on the threads job_threads gives. */
static void run_on_threads(RelaxFast *f)
{
    run_on(f, job_threads(f));
}

/* ------------------------------------------------------------ wind and the explosion check */

static bool triangles_are_grid(const Cloth *c)
{
    if (c->triangle_count != 2 * (c->cols - 1) * (c->rows - 1))
        return false;
    for (int t = 0; t < c->triangle_count; t++) {
        int cell = t / 2, row = cell / (c->cols - 1), col = cell % (c->cols - 1);
        uint32_t tl = (uint32_t)(row * c->cols + col), bl = tl + (uint32_t)c->cols;
        uint32_t want[2][3] = {{tl, bl, bl + 1}, {tl, bl + 1, tl + 1}};
        if (memcmp(c->triangle[t], want[t % 2], sizeof want[0]) != 0)
            return false;
    }
    return true;
}

/* The forces, as thread t sees it: its particles' gravity and wind field,
 * then (all waiting for all in between) its rows of cells, its rows of
 * particles. */
static void run_forces(RelaxFast *f, int t)
{
    const Job *job = &f->job;
    Solver *s = job->solver;
    int rows = s->cloth->rows, per = rows_a_chunk(s->cloth), from, to;
    Chunks field = {0, s->cloth->count, STAGE_CHUNK, 0};
    Chunks cells = {1, rows - 1, per, 0}, sums = {2, rows, per, 0};
    while (next_chunk(f, t, &field, &from, &to))
        f->kernels->forces(s, job, from, to);
    if (!job->windy)
        return;
    relax_pool_barrier(&f->pool);
    while (next_chunk(f, t, &cells, &from, &to))
        f->kernels->wind_cell_rows(s, from, to);
    relax_pool_barrier(&f->pool);
    while (next_chunk(f, t, &sums, &from, &to))
        f->kernels->wind_particle_rows(s, from, to);
}

/* Whether the structural links are cloth_create's (cloth_link_right and
 * cloth_link_below name them, and no other link is structural): the
 * explosion check reads them row by row. Every cloth the scenes make is;
 * another goes to blew_up's plain loop. */
static bool structural_is_grid(const Cloth *c)
{
    int structural = 0;
    for (int l = 0; l < c->link_count; l++)
        structural += c->family[l] == LINK_STRUCTURAL;
    if (structural != c->rows * (c->cols - 1) + (c->rows - 1) * c->cols)
        return false;
    for (int row = 0; row < c->rows; row++)
        for (int col = 0; col < c->cols; col++) {
            uint32_t i = (uint32_t)(row * c->cols + col);
            int right = col + 1 < c->cols ? cloth_link_right(c, col, row) : -1;
            int below = row + 1 < c->rows ? cloth_link_below(c, col, row) : -1;
            if (right >= 0 &&
                (c->family[right] != LINK_STRUCTURAL || c->link_a[right] != i || c->link_b[right] != i + 1))
                return false;
            if (below >= 0 && (c->family[below] != LINK_STRUCTURAL || c->link_a[below] != i ||
                               c->link_b[below] != i + (uint32_t)c->cols))
                return false;
        }
    return true;
}

/* The explosion check, as thread t sees it: chunks of particles (with
 * `finish`, their contact and velocity first), then rows of links (a
 * structural_grid: the only cloths this job runs for). */
static void run_blew_up(RelaxFast *f, int t)
{
    Job *job = &f->job;
    const Cloth *c = job->cloth;
    int from, to;
    bool bad = false;
    for (int k = 0; k < 3; k++)
        job->least[t][k] = INFINITY, job->most[t][k] = -INFINITY;
    Chunks particles = {0, c->count, STAGE_CHUNK, 0};
    while (next_chunk(f, t, &particles, &from, &to)) {
        if (job->finish) { /* the end of the substep, for these particles */
            if (job->sphere)
                f->kernels->sphere_range(job->cloth, from, to, &job->collider, job->margin, job->friction);
            solver_velocity_range(job->solver, false, from, to);
        } else if (bad) {
            break;
        }
        float least[3], most[3];
        if (!bad && !(bad = !f->kernels->coordinates_sane(c, from, to, least, most)))
            for (int k = 0; k < 3; k++) {
                job->least[t][k] = least[k] < job->least[t][k] ? least[k] : job->least[t][k];
                job->most[t][k] = most[k] > job->most[t][k] ? most[k] : job->most[t][k];
            }
    }
    if (job->finish)
        relax_pool_barrier(&f->pool); /* a row's links down reach a row another thread may have had */
    Chunks rows = {1, c->rows, rows_a_chunk(c), 0};
    while (!bad && next_chunk(f, t, &rows, &from, &to))
        bad = f->kernels->rows_overstretched(c, from, to, job->stretch);
    job->bad[t] = bad;
}

/* The explosion check's job on the threads, and its verdict. */
static int blew_up_verdict(RelaxFast *f, float allowed, float stretch)
{
    f->job.kind = JOB_BLEW_UP;
    f->job.stretch = stretch;
    run_on_threads(f);
    float least[3] = {INFINITY, INFINITY, INFINITY}, most[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int t = 0; t < f->job.threads; t++) {
        if (f->job.bad[t])
            return 1;
        for (int k = 0; k < 3; k++) {
            least[k] = f->job.least[t][k] < least[k] ? f->job.least[t][k] : least[k];
            most[k] = f->job.most[t][k] > most[k] ? f->job.most[t][k] : most[k];
        }
    }
    for (int k = 0; k < 3; k++)
        if (most[k] - least[k] > allowed)
            return 1;
    return 0;
}

int relax_fast_blew_up(RelaxFast *f, const Cloth *c, float allowed, float stretch)
{
    if (!f->structural_grid)
        return -1;
    f->job.finish = false;
    f->job.cloth = (Cloth *)c; /* only read */
    return blew_up_verdict(f, allowed, stretch);
}

/* ------------------------------------------------------------ contact at the end of a substep */

bool relax_fast_sphere(RelaxFast *f, Cloth *c, const Collider *sphere, float margin, float friction, bool fix_velocity)
{
    if (fix_velocity || sphere->shape != SHAPE_SPHERE)
        return false;
    f->job.kind = JOB_CONTACT;
    f->job.cloth = c;
    f->job.collider = *sphere;
    f->job.margin = margin;
    f->job.friction = friction;
    run_on_threads(f);
    return true;
}

/* ------------------------------------------------------------ integration and velocity */

/* A stage's share for thread t, and the dispatcher the threads run. */
static void run_stage(RelaxFast *f, int t)
{
    const Job *job = &f->job;
    Cloth *c = job->cloth;
    int from, to;
    Chunks particles = {0, c->count, STAGE_CHUNK, 0};
    switch (job->kind) {
    case JOB_RANGE:
        while (next_chunk(f, t, &particles, &from, &to))
            job->range(job->solver, from, to);
        break;
    case JOB_CONTACT:
        while (next_chunk(f, t, &particles, &from, &to))
            f->kernels->sphere_range(c, from, to, &job->collider, job->margin, job->friction);
        break;
    case JOB_FORCES:
        run_forces(f, t);
        break;
    case JOB_BLEW_UP:
        run_blew_up(f, t);
        break;
    case JOB_PASS:
    case JOB_SEQUENTIAL:
    case JOB_HELIX:
        break;
    }
}

static void run_job(RelaxFast *f, int t)
{
    if (f->job.kind == JOB_PASS)
        run_pass(f, t);
    else if (f->job.kind == JOB_SEQUENTIAL)
        relax_schedule_run(f->job.schedule, f->job.cloth, f->job.lambda, &f->job.constants, t, f->job.serial);
    else if (f->job.kind == JOB_HELIX) {
        relax_helix_run(f->helix, f->job.cloth, f->job.lambda, &f->job.constants, f->job.passes,
                        f->job.sphere ? &f->job.collider : NULL, f->job.margin, t, f->job.threads, f->job.serial);
    } else
        run_stage(f, t);
}

/* Sets up a stage job; false where the vector kernels cannot run. The
 * forces (gravity and wind) are every integrator's; the other stages run
 * here for the position-based ones only. */
static bool stage_job(RelaxFast *f, Solver *s, JobKind kind)
{
    if (kind != JOB_FORCES && !solver_is_position_based(s->params.integrator))
        return false;
    f->job.kind = kind;
    f->job.solver = s;
    f->job.cloth = s->cloth;
    return true;
}

bool relax_fast_forces(RelaxFast *f, Solver *s, float gravity, bool windy)
{
    if ((windy && !f->wind_grid) || !stage_job(f, s, JOB_FORCES))
        return false;
    f->job.gravity = gravity;
    f->job.windy = windy;
    run_on_threads(f);
    return true;
}

bool relax_fast_range(RelaxFast *f, Solver *s, RelaxFastRange range)
{
    if (!stage_job(f, s, JOB_RANGE))
        return false;
    f->job.range = range;
    run_on_threads(f);
    return true;
}

/* Whether the contact of s's scene can run inside a job on the threads:
 * the sphere or no collider, no edge samples, no floor (their contact runs
 * on the calling thread, collide.c as is). The collider into *collider. */
static bool contact_fits_job(Solver *s, Collider *collider)
{
    const Params *p = &s->params;
    solver_contact_collider(s, collider);
    return !p->floor && (collider->shape == SHAPE_NONE || (collider->shape == SHAPE_SPHERE && p->edge_samples != 3));
}

int relax_fast_finish(RelaxFast *f, Solver *s, float allowed, float stretch)
{
    const Params *p = &s->params;
    Collider collider;
    if (!f->structural_grid || !contact_fits_job(s, &collider) || !stage_job(f, s, JOB_BLEW_UP))
        return -1;
    Job *job = &f->job;
    job->finish = true;
    job->sphere = collider.shape == SHAPE_SPHERE;
    job->collider = collider;
    job->margin = (float)p->margin;
    job->friction = (float)p->friction;
    return blew_up_verdict(f, allowed, stretch);
}

/* ------------------------------------------------------------ lifetime */

RelaxFast *relax_fast_create(const Cloth *cloth, int threads)
{
    RelaxFast *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->link_count = cloth->link_count;
    size_t links = (size_t)(cloth->link_count > 0 ? cloth->link_count : 1);
    /* a row of a colour gives at most one block more than its links / 8 */
    size_t blocks = links / LANES + 8 * (size_t)cloth->rows + 8;
    size_t lambda_bytes = (blocks * LANES * sizeof(float) + 63) / 64 * 64;
    f->order = malloc(links * sizeof *f->order);
    f->tails = malloc(links * sizeof *f->tails);
    f->blocks = malloc(blocks * sizeof *f->blocks);
    f->ends = malloc(blocks * sizeof *f->ends);
    f->lambda = aligned_alloc(64, lambda_bytes);
    f->block_rest = aligned_alloc(64, lambda_bytes);
    f->block_live = calloc(blocks, 1);
    /* a grid that one thread solves is one band: it fits the cache anyway,
     * and each unit costs a little to start */
    f->band_rows = colour_band_rows(cloth);
    size_t units = (size_t)((cloth->rows + f->band_rows - 1) / f->band_rows) * RELAX_FAST_COLOURS;
    f->units = malloc(units * sizeof *f->units);
    f->band_done = aligned_alloc(64, (units / RELAX_FAST_COLOURS + 1) * sizeof *f->band_done);
    if (f->band_done)
        memset(f->band_done, 0, (units / RELAX_FAST_COLOURS + 1) * sizeof *f->band_done);
    f->group_start = malloc((units + 1) * sizeof *f->group_start);
    threads = threads < 1 ? 1 : threads > RELAX_FAST_MAX_THREADS ? RELAX_FAST_MAX_THREADS : threads;
    if (!f->order || !f->tails || !f->blocks || !f->ends || !f->lambda || !f->block_rest || !f->block_live ||
        !f->units || !f->band_done || !f->group_start || !relax_colour_build(f, cloth)) {
        relax_fast_destroy(f);
        return NULL;
    }
    for (int i = 0; i < f->block_count; i++)
        f->ends[i] = (BlockEnds){f->blocks[i].a, f->blocks[i].b};
    memset(f->lambda, 0, lambda_bytes);
    memset(f->block_rest, 0, lambda_bytes);
    f->blocks_stale = true;
    f->next_serial = 1; /* band_done starts at 0: no pass */
    f->wind_grid = triangles_are_grid(cloth);
    f->structural_grid = structural_is_grid(cloth);
    f->grid = cloth;
    relax_fast_use_kernels(f, relax_fast_default_kernels());
    if (!relax_pool_start(&f->pool, threads, pool_job, f))
        return relax_fast_destroy(f), NULL;
    f->sequential[0] = relax_schedule_create(cloth, 1);
    f->sequential[1] = f->pool.threads > 1 ? relax_schedule_create(cloth, f->pool.threads) : NULL;
    if (!f->sequential[0] || (f->pool.threads > 1 && !f->sequential[1]))
        return relax_fast_destroy(f), NULL;
    return f;
}

void relax_fast_destroy(RelaxFast *f)
{
    if (!f)
        return;
    relax_pool_stop(&f->pool);
    free(f->order), free(f->tails), free(f->blocks), free(f->ends), free(f->lambda), free(f->block_rest),
        free(f->block_live);
    free(f->units), free((void *)f->band_done), free(f->group_start);
    relax_schedule_destroy(f->sequential[0]), relax_schedule_destroy(f->sequential[1]);
    relax_helix_destroy(f->helix);
    free(f);
}

int relax_fast_threads(const RelaxFast *f)
{
    return f->pool.threads;
}

void relax_fast_take_threads(RelaxFast *f, int threads)
{
    f->taken = threads;
}

bool relax_fast_adapt(RelaxFast *f)
{
    if (f->link_count < RELAX_FAST_THREAD_MIN_LINKS)
        return true; /* its jobs take one thread whatever the load */
    f->adapt = relax_pool_watch(&f->pool);
    return f->adapt;
}

int relax_fast_usable_cores(void)
{
    return relax_pool_usable_cores();
}

const uint32_t *relax_fast_order(const RelaxFast *f)
{
    return f->order;
}

int relax_fast_group_count(const RelaxFast *f)
{
    return f->unit_count;
}

const int *relax_fast_group_start(const RelaxFast *f)
{
    return f->group_start;
}

int relax_fast_group_band(const RelaxFast *f, int group)
{
    return f->units[group].band;
}

int relax_fast_band_rows(const RelaxFast *f)
{
    return f->band_rows;
}

void relax_fast_use_kernels(RelaxFast *f, RelaxFastKernels kernels)
{
    f->kernels = relax_fast_pass_kernels(kernels);
    f->simd = f->kernels->level >= RELAX_FAST_AVX2;
    f->wide = f->kernels->level >= RELAX_FAST_AVX512;
    f->blocks_stale = true;
    /* the walk's buffers hold a level's lanes: new ones for another level
     * (none when out of memory: then the sequential schedule serves) */
    if (!f->helix || relax_helix_walks(f->helix) != f->kernels->helix) {
        relax_helix_destroy(f->helix);
        f->helix = relax_helix_create(f->grid, f->kernels->helix);
    }
}

RelaxFastKernels relax_fast_kernels(const RelaxFast *f)
{
    return f->kernels->level;
}

void relax_fast_cut_anywhere(RelaxFast *f, unsigned seed)
{
    if (f->helix)
        relax_helix_cut_anywhere(f->helix, seed);
}

RelaxFastKernels relax_fast_cpu_kernels(void)
{
    return relax_fast_cpu_has_wide()             ? RELAX_FAST_AVX512
           : relax_fast_cpu_has_simd()           ? RELAX_FAST_AVX2
           : relax_fast_cpu_has(RELAX_FAST_NEON) ? RELAX_FAST_NEON
                                                 : RELAX_FAST_PORTABLE;
}

static const char *const kernel_names[RELAX_FAST_LEVELS] = {"portable", "neon", "avx2", "avx512"};

const char *relax_fast_kernel_name(RelaxFastKernels kernels)
{
    return kernel_names[kernels];
}

bool relax_fast_kernels_named(const char *name, RelaxFastKernels *kernels)
{
    for (int k = 0; k < RELAX_FAST_LEVELS; k++)
        if (strcmp(name, kernel_names[k]) == 0) {
            *kernels = (RelaxFastKernels)k;
            return true;
        }
    return false;
}

/* -1: not set, the widest the CPU has */
static _Atomic int default_kernels = -1;

void relax_fast_set_default_kernels(RelaxFastKernels kernels)
{
    atomic_store(&default_kernels, relax_fast_cpu_has(kernels) ? (int)kernels : (int)relax_fast_cpu_kernels());
    core_level_set(relax_fast_core_level(relax_fast_default_kernels()));
}

CoreLevel relax_fast_core_level(RelaxFastKernels kernels)
{
    return kernels == RELAX_FAST_AVX512 ? CORE_LEVEL_AVX512
           : kernels == RELAX_FAST_AVX2 ? CORE_LEVEL_AVX2
                                        : CORE_LEVEL_BASELINE;
}

RelaxFastKernels relax_fast_default_kernels(void)
{
    int k = atomic_load(&default_kernels);
    return k < 0 ? relax_fast_cpu_kernels() : (RelaxFastKernels)k;
}

/* ------------------------------------------------------------ the pass */

/* Sets up a job of `passes` passes. */
static void pass_job(RelaxFast *f, Solver *s, const float k[LINK_FAMILY_COUNT], const float alpha[LINK_FAMILY_COUNT],
                     int passes)
{
    Cloth *c = s->cloth;
    Job *job = &f->job;
    job->kind = JOB_PASS;
    job->cloth = c;
    job->passes = passes;
    f->pass_serial = f->next_serial;
    f->next_serial += (unsigned)passes;
    for (int fam = 0; fam < LINK_FAMILY_COUNT; fam++)
        job->k[fam] = k[fam], job->alpha[fam] = alpha[fam];
    job->xpbd = s->params.integrator == INTEGRATOR_XPBD;
    job->lambda = s->lambda;
    /* the solver zeroes its multipliers when a substep begins; these too */
    if (job->xpbd && s->pass == 0)
        memset(f->lambda, 0, (size_t)f->block_count * LANES * sizeof(float));
    /* rest lengths are fixed; links tear through cloth_tear_link */
    job->refresh = f->blocks_stale || c->torn_generation != f->torn_generation;
    f->blocks_stale = false;
    f->torn_generation = c->torn_generation;
    atomic_store(&f->next_task, 0);
    solver_contact_collider(s, &job->collider);
    job->sphere = job->collider.shape == SHAPE_SPHERE;
    job->margin = (float)s->params.margin;
}

void relax_fast_pass(RelaxFast *f, Solver *s, const float k[LINK_FAMILY_COUNT], const float alpha[LINK_FAMILY_COUNT])
{
    pass_job(f, s, k, alpha, 1);
    run_on_threads(f);
    /* contact as stage_collide(s, false, false): collider, edges, floor */
    Cloth *c = s->cloth;
    const Params *p = &s->params;
    Job *job = &f->job;
    if (job->collider.shape != SHAPE_NONE) {
        if (!job->sphere)
            collide_points(c, &job->collider, job->margin, 0.0f, false);
        if (p->edge_samples == 3)
            collide_edges(c, &job->collider, job->margin);
    }
    if (p->floor)
        collide_floor(c, (float)p->floor_y, job->margin, (float)p->restitution, 0.0f);
}

bool relax_fast_passes(RelaxFast *f, Solver *s, const float k[LINK_FAMILY_COUNT], const float alpha[LINK_FAMILY_COUNT],
                       int passes)
{
    Collider collider;
    if (passes < 1 || !contact_fits_job(s, &collider))
        return false; /* their contact runs on this thread between passes */
    pass_job(f, s, k, alpha, passes);
    run_on_threads(f);
    return true;
}

/* ------------------------------------------------------------ the sequential order */

/* The constants of a pass of the sequential or jacobi order. */
static RelaxPassConstants sequential_constants(const RelaxFast *f, const Solver *s, const float k[LINK_FAMILY_COUNT],
                                               const float alpha[LINK_FAMILY_COUNT], bool kept, bool jacobi)
{
    RelaxPassConstants c = {.xpbd = s->params.integrator == INTEGRATOR_XPBD, .kept = kept, .jacobi = jacobi};
    for (int fam = 0; fam < LINK_FAMILY_COUNT; fam++)
        c.k[fam] = k[fam], c.alpha[fam] = alpha[fam];
    c.jacobi_count = s->jacobi_count;
    c.jx = s->jx, c.jy = s->jy, c.jz = s->jz;
    c.kernels = f->wide ? RELAX_FAST_AVX512 : f->simd ? RELAX_FAST_AVX2 : RELAX_FAST_PORTABLE;
    return c;
}

/* Whether the sequential order's passes can go through the helix: not
 * jacobi (every level has a walk). */
static bool helix_serves(const RelaxFast *f, bool jacobi)
{
    return f->helix && !jacobi;
}

void relax_fast_sequential(RelaxFast *f, Solver *s, const float k[LINK_FAMILY_COUNT],
                           const float alpha[LINK_FAMILY_COUNT], bool kept, bool jacobi)
{
    Job *job = &f->job;
    job->constants = sequential_constants(f, s, k, alpha, kept, jacobi);
    int threads = job_threads(f);
    if (helix_serves(f, jacobi) && threads == 1) { /* one pass: the helix on this thread */
        relax_helix_run(f->helix, s->cloth, s->lambda, &job->constants, 1, NULL, 0.0f, 0, 1, ++f->sequential_serial);
        return;
    }
    job->cloth = s->cloth;
    job->lambda = s->lambda;
    job->serial = ++f->sequential_serial;
    if (helix_serves(f, jacobi)) { /* one pass, cut among the threads; its contact is the caller's */
        job->kind = JOB_HELIX;
        job->passes = 1;
        job->sphere = false;
        job->margin = 0.0f;
        run_on(f, threads);
        return;
    }
    job->kind = JOB_SEQUENTIAL;
    if (threads < f->pool.threads)
        threads = 1; /* the schedule is cut for every thread or for one */
    job->schedule = f->sequential[threads > 1];
    relax_schedule_refresh(job->schedule, s->cloth);
    run_on(f, threads);
}

bool relax_fast_sequential_passes(RelaxFast *f, Solver *s, const float k[LINK_FAMILY_COUNT],
                                  const float alpha[LINK_FAMILY_COUNT], int passes, bool kept)
{
    Job *job = &f->job;
    if (passes < 1 || passes > RELAX_HELIX_MAX_PASSES || !helix_serves(f, false) ||
        !contact_fits_job(s, &job->collider))
        return false; /* pass by pass, the contact between them on this thread */
    job->kind = JOB_HELIX;
    job->cloth = s->cloth;
    job->lambda = s->lambda;
    job->constants = sequential_constants(f, s, k, alpha, kept, false);
    job->passes = passes;
    job->sphere = job->collider.shape == SHAPE_SPHERE;
    job->margin = (float)s->params.margin;
    job->serial = ++f->sequential_serial;
    run_on_threads(f);
    return true;
}
