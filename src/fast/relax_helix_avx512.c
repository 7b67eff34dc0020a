/* relax_helix_avx512.c - the sequential order's walk at the AVX-512 level,
 * in intrinsics: relax_helix_walk.h is the same walk written once for
 * every level, and the reference for what follows; built at sixteen lanes
 * it took 4 to 10 % longer than this (README.md beside this file), so the
 * AVX-512 level keeps this copy.
 * (relax_helix.h tells the idea; the text below is this file's first
 * version, and relax_helix_walk.h's header gives it for L lanes.)
 *
 * The layout
 * ----------
 * P = max(cols, 32) keys a period. Lane j of key k holds particle
 * (16 m + j, k - 2 j - m P), m the period: lane j takes rows j, j + 16,
 * j + 32 ... one after the other, P keys each, and each row starts two
 * keys after the one above it (row 16 m + 15 starts at 30 + m P, row
 * 16 (m + 1) at (m + 1) P, P - 30 >= 2 keys later). A key is KEY floats:
 * x, y, z and the inverse mass of its sixteen lanes, and the inverse masses
 * of the rows above them; keys outside the grid are 0. One copy in (a
 * 16 x 16 transpose a block of keys, each lane one or two pieces of rows)
 * before the passes, one copy back after.
 *
 * A link is kept at the key of its lowest, then leftmost, particle, its
 * anchor (r, c):
 *   across  (r, c)-(r, c + 1)      bend across  (r, c)-(r, c + 2)
 *   down    (r - 1, c)-(r, c)      bend down    (r - 2, c)-(r, c)
 *   shear   (r - 1, c)-(r, c + 1) and (r - 1, c + 1)-(r, c): the cell
 *           above-left of the anchor, both diagonals
 * The particles of a link across are lane j of keys k and k + 1 (or
 * k + 2). The upper end of a link down is lane j - 1 of key k - 2 (row r - 1 is the row
 * above in the same lane period), or for lane 0, lane 15 of key k + 30 - P
 * (row r - 1 is lane 15's, a period before): one vector made of two with
 * one shift (valignd), written back the same way. Bend down: lanes j - 2 of
 * k - 4, or 14 and 15 of k + 28 - P.
 *
 * The dependencies
 * ----------------
 * Two links that share no particle can go in either order without
 * changing a bit; those that share one must go in the listed order
 * (families in blocks, each row by row). Each family walks its keys in
 * order, one vector a step, starting D steps after the across family: at
 * step t it does the links anchored at key t - D. In a step the families
 * go in the listed order. That keeps every pair:
 * - inside a family, a link follows the ones it shares a particle with by
 *   at least a key (across: k - 1 before k; down: the link above is two
 *   keys before, P - 30 at a period's change; shear: the cell left one key,
 *   the cells above one to P - 31; bend across two; bend down four), and
 *   no two lanes of a key share one;
 * - across families: at a particle p of key k, the links of each family
 *   that touch it are anchored at k - 1 .. k (across), k .. k + g (down,
 *   g = 2, or P - 30 for lane 15, whose row below is the next period's),
 *   k - 1 .. k + g (shear), k - 2 .. k (bend across), k .. k + g' (bend
 *   down, g' = 4, P - 28 for lanes 14 and 15). A family must start on p
 *   no sooner than the one before it has finished with it:
 *   D(down) >= D(across), D(shear) >= D(down) + P - 29,
 *   D(bend) >= D(shear) + P - 28, D(bend down) >= D(bend across).
 * The walk uses D = 0, 0, P - 29 + SLACK, 2 P - 57 + 2 SLACK, the same.
 * test_fast.c compares the bits with the plain loop's; one step less of
 * either delay fails 7 of its tests.
 *
 * Remainders
 * ----------
 * Below 1 ms substeps (pass->kept) the corrections move x + r, the float
 * position and its remainder in double (solver_move_kept). Each key then
 * has the remainders of its lanes too (`remainder`, copied in and back
 * particle by particle); a link down shifts them between lanes as it
 * shifts the positions (valignq across the two halves of eight doubles),
 * and the moves are ADD_KEPT's, eight lanes of doubles at a time. The
 * shear's upper ends then go through memory (no carry). At 100 substeps
 * of the default scene this is 4.5 times the colored order's time (the
 * conversions between float and double, six moves a link).
 *
 * Several threads
 * ---------------
 * The sphere's push of key k is done at step k + d_push of the walk, one
 * step after the last link of the pass that moves a particle of k (bend
 * down from lane 14 or 15: anchored P - 28 keys on). A step t reads and
 * writes keys up to t + 1 only, so pass n + 1 may run its step t once
 * pass n has done step t + 1 + d_push: every key it touches has then had
 * pass n's last link and push, and pass n touches no key under t + 2
 * again. Each pass publishes its steps done (PassDone, every PUBLISH
 * steps), and the next waits on them.
 *
 * Each pass's steps are cut into one piece a thread: thread t walks steps
 * cut[t] .. cut[t + 1] - 1 of it once thread t - 1 has published the end
 * of its piece. The registers a piece carries go back into the buffer
 * before that (flush), and the next piece loads them where it starts, so
 * a pass's steps still go one after the other, in the walk's order,
 * wherever the cuts fall: the bits of one thread, and of the plain loop
 * (test_fast.c cuts anywhere, often where a family starts or ends). Each
 * thread copies its share of the keys in and back; thread 0 goes on into
 * its first piece without waiting for the others when the piece stays
 * among its own keys.
 *
 * The pieces go through the threads like the stages of a pipeline
 * (choose_cuts): the first pass gives the threads but the last only a
 * lead, the last pass the threads but the first, and the passes between
 * are cut so that every thread ends at once, by what a unit of work cost
 * each thread in the runs before (a core the machine's other work slows
 * gets less). A key crosses from core to core where a cut falls, about a
 * d_push of them a pass, not all of them.
 *
 * It was a pass a thread before (pass n on thread n mod threads', MARGIN
 * steps behind the one before, prefetching AHEAD keys on): every key then
 * went from core to core once a pass. On a 2-core AMD EPYC (Zen 5,
 * AVX-512, a virtual machine whose two cores pass a cache line there and
 * back in about 1,300 rdtsc ticks) a 200 x 200 pass then took 306,000
 * ticks of work on two threads against 267,000 on one in quiet moments,
 * and up to 470,000 in spells, when two threads made 1.2 times one. Cut
 * into pieces, the two threads' work comes to 1.1 times one thread's, and
 * the full bench read 1.66, 1.70 and 1.70 times one thread where the pass
 * a thread read 1.49, 1.58 and 1.48 (three rounds, one after the other).
 * Tried and left out: prefetching the keys the piece before left for the
 * shear, the bend families and the push (2 % slower); the copy in and
 * back by one thread (on thread 0 alone the copy in took 220,000 ticks,
 * shared 95,000: the stages before leave the cloth's rows in both cores);
 * the stages around the passes given each thread the rows of its share
 * (no change). Writing the inverse masses (W, W_UP1, W_UP2) only where
 * they changed took the copy in from 95,000 ticks to 40,000: the walks on
 * both cores read them, and a store took each line from the other core.
 *
 * Why
 * ---
 * Measured on the 2-core Xeon (AVX-512, 2.3 GHz, a shared virtual machine)
 * this was written on, rdtsc around a pass, the fastest of thousands:
 * family by family (the kernels src/fast/README.md tells of) a 200 x 200 pass took 714,000 to
 * 840,000 ticks, some 45 % of its horizontal and shear walks in copies;
 * this walk 474,000 (40 x 40: 24,200 against about 42,000), and 395,000
 * (20,100) once the squared length and the moves were fused multiply-adds
 * (solver.h). Each step has six independent vectors (the shear two), so
 * the chains (a link waits some 80 ticks for the one before it) overlap
 * without grouping strips. SLACK: a key written with a masked store and
 * read back within a step or two stalls the load; four steps more before
 * the shear and the bend families took a 200 x 200 pass (its copies then
 * included) from 726,000 ticks to 613,000, and 40 x 40 from 40,400 to
 * 33,700. Carrying the shear's upper ends from d2 to the next d1 in
 * registers, and keeping the inverse masses of the rows above in each key
 * (W_UP1, W_UP2), took 4 % more off; adding the ends' inverse masses once
 * a run instead of in every link gained 1 % and was left out. Keeping in
 * registers the keys that a family's links across (and the shear's d1)
 * moved, until its links down (d2) have had them too, instead of storing
 * and loading them again (across_down, shear): on a 2-core AMD EPYC (Zen
 * 5) a 200 x 200 pass from 301,000 ticks to 267,000, 40 x 40 from 14,300
 * to 12,500 (the fastest of 5 runs each; most of it the bend families').
 * With remainders a key is ten vectors, and the same held keys took the
 * walk 30 % longer (they no longer fit the registers): there each link
 * still loads its keys and stores them (across_kept, down_kept).
 */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)

#include "relax_helix.h"

#include <assert.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "relax_rows.h"
#include "relax_rows_simd.h"

/* The kinds of link a key holds (the shear's two diagonals apart). */
enum { HS, VS, D1, D2, HB, VB, KINDS };

/* Steps the shear and bend families wait beyond what the order needs. */
#define SLACK 4
/* Keys after the last, read by the links across and never in the grid. */
#define PAD_AFTER 8
/* Floats a key: x, y, z and the inverse mass of its sixteen lanes, then
 * the inverse masses of the particles one and two rows above them (lanes
 * j - 1 and j - 2, as upper_in takes them): fixed during a run, so the
 * links down need not shift them. */
#define KEY 96
enum { X = 0, Y = 16, Z = 32, W = 48, W_UP1 = 64, W_UP2 = 80 };
/* Steps between two publications of a pass's progress. */
#define PUBLISH 8
/* Steps a pass keeps behind the pass before it on another thread beyond
 * what the order needs, and keys it reads ahead of its walk: the keys it
 * reads first are then ones the other core finished with some steps
 * before, fetched while the walk still works on earlier ones. */
#define MARGIN 32
#define AHEAD 8
/* A thread waiting for the pass before spins this many times, then yields
 * its core at every look. */
#define WAIT_SPINS 200

/* A pass's progress: serial * (steps + 1) + the steps done in this run. */
typedef struct PassDone {
    _Alignas(64) atomic_ullong steps;
} PassDone;

/* The threads' arrivals at the parts of a run (arrive). */
typedef struct RunCount {
    _Alignas(64) atomic_ullong arrived;
} RunCount;

typedef struct WideHelix WideHelix;

struct WideHelix {
    int cols, rows;
    int period;                  /* P */
    int keys;                    /* a multiple of 16 */
    int used;                    /* keys up to the last particle's: the walk's */
    int pad;                     /* keys before key 0, read by the links down of the first keys */
    float *buffer;               /* (pad + keys + PAD_AFTER) keys of KEY floats */
    double *remainder;           /* the same keys' x, y, z remainders (cloth.h), 16 lanes each */
    int32_t *link;               /* KINDS x keys x 16: the link anchored there, or -1 */
    float *rest;                 /* the same: its rest length */
    uint16_t *live;              /* KINDS x keys: the lanes whose link is there and not torn */
    float *lambda;               /* KINDS x keys x 16: xpbd's multipliers during a run */
    int32_t *piece;              /* keys x 2: lane j of block k0 / 16, its two pieces' first particle */
    uint16_t *piece_in;          /* and their columns in the grid */
    int d_shear, d_bend, d_push; /* the steps the families and the push wait (walk) */
    int steps;                   /* of a pass */
    PassDone *done;              /* RELAX_HELIX_MAX_PASSES */
    RunCount *arrived;           /* 2: the threads through the copy in, and through W_UP1 and W_UP2 */
    /* this run's pieces: thread t walks steps cut[c][t] .. cut[c][t + 1] - 1
     * of the first pass (c = 0), of those between (1) and of the last (2) */
    int cut[3][RELAX_HELIX_MAX_THREADS + 1];
    double work[RELAX_HELIX_MAX_THREADS]; /* the work (work_before) of each thread's pieces in the last run, */
    unsigned long long busy[RELAX_HELIX_MAX_THREADS]; /* and the ticks each thread spent in them, waits left out */
    double cost[RELAX_HELIX_MAX_THREADS]; /* ticks a unit of work on thread t, over the runs (0: not yet known) */
    unsigned cut_seed;                    /* relax_helix_cut_anywhere's (0: cuts from the costs) */
    unsigned torn_generation;
    bool fresh;
};

/* The particle of lane j at key k: false where none is. */
static bool lane_particle(const WideHelix *h, int k, int j, int *row, int *col)
{
    if (k < 2 * j)
        return false;
    int m = (k - 2 * j) / h->period;
    *row = 16 * m + j, *col = k - 2 * j - m * h->period;
    return *row < h->rows && *col < h->cols;
}

static int anchored_link(const Cloth *c, int kind, int row, int col)
{
    switch (kind) {
    case HS:
        return col + 1 < c->cols ? cloth_link_right(c, col, row) : -1;
    case VS:
        return row >= 1 ? cloth_link_below(c, col, row - 1) : -1;
    case D1:
    case D2:
        return row >= 1 && col + 1 < c->cols ? cloth_link_shear(c, col, row - 1, kind - D1) : -1;
    case HB:
        return col + 2 < c->cols ? cloth_link_bend_right(c, col, row) : -1;
    default:
        return row >= 2 ? cloth_link_bend_below(c, col, row - 2) : -1;
    }
}

static void destroy(void *walk);

static void *create(const Cloth *c)
{
    if (!relax_rows_usable())
        return NULL;
    WideHelix *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->cols = c->cols, h->rows = c->rows;
    h->period = c->cols > 32 ? c->cols : 32;
    h->keys = (30 + (c->rows + 15) / 16 * h->period + 15) / 16 * 16;
    h->pad = h->period + 8;
    const int P = h->period;
    h->d_shear = P - 29 + SLACK, h->d_bend = h->d_shear + P - 28 + SLACK, h->d_push = h->d_bend + P - 27;
    /* the last particle is the last row's (lane rows - 1 - 16 m, m the
     * last period) last column */
    const int last_period = (c->rows - 1) / 16, last_lane = c->rows - 1 - 16 * last_period;
    h->used = c->cols + 2 * last_lane + last_period * P;
    h->steps = h->used + h->d_push;
    const size_t keys = (size_t)h->keys, lanes = KINDS * keys * 16;
    h->buffer = cloth_zeroed(((size_t)h->pad + keys + PAD_AFTER) * KEY * sizeof(float));
    h->remainder = cloth_zeroed(((size_t)h->pad + keys + PAD_AFTER) * 48 * sizeof(double));
    h->link = malloc(lanes * sizeof *h->link);
    h->rest = cloth_zeroed(lanes * sizeof(float));
    h->lambda = cloth_zeroed(lanes * sizeof(float));
    h->live = calloc(KINDS * keys, sizeof *h->live);
    h->piece = calloc(keys * 2, sizeof *h->piece);
    h->piece_in = calloc(keys * 2, sizeof *h->piece_in);
    h->done = aligned_alloc(64, RELAX_HELIX_MAX_PASSES * sizeof *h->done);
    h->arrived = aligned_alloc(64, 2 * sizeof *h->arrived);
    if (!h->buffer || !h->remainder || !h->link || !h->rest || !h->lambda || !h->live || !h->piece || !h->piece_in ||
        !h->done || !h->arrived) {
        destroy(h);
        return NULL;
    }
    for (int n = 0; n < RELAX_HELIX_MAX_PASSES; n++)
        atomic_init(&h->done[n].steps, 0ull);
    atomic_init(&h->arrived[0].arrived, 0ull);
    atomic_init(&h->arrived[1].arrived, 0ull);
    for (int kind = 0; kind < KINDS; kind++)
        for (int k = 0; k < h->keys; k++)
            for (int j = 0; j < 16; j++) {
                int row, col;
                h->link[((size_t)kind * keys + (size_t)k) * 16 + (size_t)j] =
                    lane_particle(h, k, j, &row, &col) ? anchored_link(c, kind, row, col) : -1;
            }
    /* lane j of keys k0 .. k0 + 15 is row 16 m + j from column
     * k0 - 2 j - m P, for the one or two periods m they span */
    for (int k0 = 0; k0 < h->keys; k0 += 16)
        for (int j = 0; j < 16; j++) {
            int first = k0 - 2 * j, m = first >= 0 ? first / h->period : -1;
            for (int i = 0; i < 2; i++, m++) {
                size_t at = ((size_t)k0 + (size_t)j) * 2 + (size_t)i;
                int row = 16 * m + j, c0 = first - m * h->period;
                unsigned in = 0;
                for (int l = 0; l < 16 && m >= 0 && row < c->rows; l++)
                    if (c0 + l >= 0 && c0 + l < c->cols)
                        in |= 1u << l;
                h->piece_in[at] = (uint16_t)in;
                h->piece[at] = in ? row * c->cols + c0 : 0;
            }
        }
    return h;
}

static void destroy(void *walk)
{
    WideHelix *h = walk;
    if (!h)
        return;
    free(h->buffer), free(h->link), free(h->rest), free(h->lambda), free(h->live), free(h->piece), free(h->piece_in);
    free(h->done), free(h->remainder), free(h->arrived);
    free(h);
}

/* The rest lengths and the links that take part, when links tore. */
static void refresh(WideHelix *h, const Cloth *c)
{
    if (h->fresh && h->torn_generation == c->torn_generation)
        return;
    const size_t keys = (size_t)h->keys;
    for (size_t at = 0; at < KINDS * keys; at++) {
        unsigned live = 0;
        for (int j = 0; j < 16; j++) {
            int l = h->link[at * 16 + (size_t)j];
            h->rest[at * 16 + (size_t)j] = l >= 0 ? c->rest_length[l] : 0.0f;
            if (l >= 0 && !c->torn[l])
                live |= 1u << j;
        }
        h->live[at] = (uint16_t)live;
    }
    h->torn_generation = c->torn_generation;
    h->fresh = true;
}


static inline float *key_at(const WideHelix *h, int k)
{
    return h->buffer + (size_t)(k + h->pad) * KEY;
}

/* Thread t's first of n things shared by `threads` threads (t = threads:
 * the end). */
static int share(int n, int t, int threads) { return (int)((long)n * t / threads); }

/* xpbd's multipliers of keys k0 .. k0 + 15 into the walk's layout (in)
 * or back (!in), sixteen lanes at a time. */
ROWS_TARGET static void move_lambda(WideHelix *h, float *lambda, bool in, int k0)
{
    for (int kind = 0; kind < KINDS; kind++)
        for (size_t v = (size_t)kind * (size_t)h->keys + (size_t)k0, end = v + 16; v < end; v++) {
            __m512i link = _mm512_loadu_si512(h->link + v * 16);
            __mmask16 some = _mm512_cmp_epi32_mask(link, _mm512_setzero_si512(), _MM_CMPINT_NLT);
            if (in)
                _mm512_store_ps(h->lambda + v * 16,
                                _mm512_mask_i32gather_ps(_mm512_setzero_ps(), some, link, lambda, 4));
            else if (some)
                _mm512_mask_i32scatter_ps(lambda, some, link, _mm512_load_ps(h->lambda + v * 16), 4);
        }
}

/* The inverse masses change between runs only where a particle was
 * pinned, let go or grabbed: their vectors are written only then. The walks
 * on several threads read them, so that each core has a copy; a store
 * would take it from the others (on a 2-core AMD EPYC, Zen 5, 200 x 200
 * on two threads: W_UP1 and W_UP2 of half the keys took 48,000 rdtsc
 * ticks a run on each thread, against 16,000 for all of them on one
 * thread; thread 0's whole copy in 95,000 with the stores, 40,000 without). */
ROWS_INLINE void store_if_changed(float *at, __m512 v)
{
    if (_mm512_cmp_epi32_mask(_mm512_castps_si512(v), _mm512_load_si512(at), _MM_CMPINT_NE))
        _mm512_store_ps(at, v);
}

/* Keys k0 .. k0 + 15 from the cloth (in: positions and inverse masses),
 * or their positions back. */
ROWS_TARGET static void copy(WideHelix *h, Cloth *c, bool in, int k0)
{
    float *v[4] = {c->x, c->y, c->z, c->inv_mass};
    const int coords = in ? 4 : 3;
    const int32_t *at = h->piece + (size_t)k0 * 2;
    const uint16_t *mask = h->piece_in + (size_t)k0 * 2;
    float *key = key_at(h, k0);
    for (int q = 0; q < coords; q++) {
        __m512 m[16];
        if (in) {
#pragma GCC unroll 16
            for (int j = 0; j < 16; j++)
                m[j] = _mm512_mask_loadu_ps(_mm512_maskz_loadu_ps(mask[2 * j], v[q] + at[2 * j]), mask[2 * j + 1],
                                            v[q] + at[2 * j + 1]);
            transpose16(m);
#pragma GCC unroll 16
            for (int i = 0; i < 16; i++)
                if (q < 3)
                    _mm512_store_ps(key + KEY * i + 16 * q, m[i]);
                else
                    store_if_changed(key + KEY * i + W, m[i]);
        } else {
#pragma GCC unroll 16
            for (int i = 0; i < 16; i++)
                m[i] = _mm512_load_ps(key + KEY * i + 16 * q);
            transpose16(m);
#pragma GCC unroll 16
            for (int j = 0; j < 16; j++) {
                _mm512_mask_storeu_ps(v[q] + at[2 * j], mask[2 * j], m[j]);
                _mm512_mask_storeu_ps(v[q] + at[2 * j + 1], mask[2 * j + 1], m[j]);
            }
        }
    }
}

static inline double *remainder_at(const WideHelix *h, int k)
{
    return h->remainder + (size_t)(k + h->pad) * 48;
}

/* The remainders of keys k0 .. k0 + 15 into the buffer (in) or back,
 * particle by particle (runs with remainders only: below 1 ms). */
static void copy_remainders(WideHelix *h, Cloth *c, bool in, int k0)
{
    double *r[3] = {c->rx, c->ry, c->rz};
    for (int j = 0; j < 16; j++)
        for (int i = 0; i < 2; i++) {
            size_t at = ((size_t)k0 + (size_t)j) * 2 + (size_t)i;
            for (int l = 0; l < 16; l++) {
                if (!(h->piece_in[at] >> l & 1))
                    continue;
                double *key = remainder_at(h, k0 + l);
                size_t particle = (size_t)h->piece[at] + (size_t)l;
                for (int q = 0; q < 3; q++)
                    if (in)
                        key[16 * q + j] = r[q][particle];
                    else
                        r[q][particle] = key[16 * q + j];
            }
        }
}

ROWS_INLINE Ends load_key(const float *key)
{
    return (Ends){_mm512_load_ps(key + X), _mm512_load_ps(key + Y), _mm512_load_ps(key + Z), _mm512_load_ps(key + W)};
}

ROWS_INLINE void store_key(float *key, const Ends *e)
{
    _mm512_store_ps(key, e->x), _mm512_store_ps(key + 16, e->y), _mm512_store_ps(key + 32, e->z);
}

/* Lanes j >= s of `near`'s lanes j - s, lanes j < s of `far`'s 16 - s + j. */
#define SHIFT_IN(near, far, s)                                                                                         \
    _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(near), _mm512_castps_si512(far), 16 - (s)))
/* Lane i of lane i + s, mod 16. */
#define ROTATE(v, s) _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(v), _mm512_castps_si512(v), (s)))

/* The upper ends of the links down of a key: rows s above, from lanes
 * j - s of key `near` and for the first s lanes, lanes 16 - s + j of key
 * `far` (the period before). s is 1 or 2 (a constant where inlined). */
ROWS_INLINE Ends upper_in(const float *near, const float *far, int s)
{
    if (s == 1)
        return (Ends){SHIFT_IN(_mm512_load_ps(near + X), _mm512_load_ps(far + X), 1),
                      SHIFT_IN(_mm512_load_ps(near + Y), _mm512_load_ps(far + Y), 1),
                      SHIFT_IN(_mm512_load_ps(near + Z), _mm512_load_ps(far + Z), 1), _mm512_load_ps(near + W_UP1)};
    return (Ends){SHIFT_IN(_mm512_load_ps(near + X), _mm512_load_ps(far + X), 2),
                  SHIFT_IN(_mm512_load_ps(near + Y), _mm512_load_ps(far + Y), 2),
                  SHIFT_IN(_mm512_load_ps(near + Z), _mm512_load_ps(far + Z), 2), _mm512_load_ps(near + W_UP2)};
}

/* W_UP1 and W_UP2 of keys k0 .. k0 + 15 from the inverse masses (after
 * their copy in, and that of the keys a period before): from key -4 at
 * k0 = 0, the first a link down reads. */
ROWS_TARGET static void shifted_masses(WideHelix *h, int k0)
{
    for (int k = k0 == 0 ? -4 : k0; k < k0 + 16; k++) {
        float *key = key_at(h, k);
        const float *far = key_at(h, k + 32 - h->period);
        store_if_changed(key + W_UP1, SHIFT_IN(_mm512_load_ps(key + W), _mm512_load_ps(far + W), 1));
        store_if_changed(key + W_UP2, SHIFT_IN(_mm512_load_ps(key + W), _mm512_load_ps(far + W), 2));
    }
}

/* upper_in's inverse (where near is far, at a period of 32, the two
 * masks make one whole key). */
ROWS_INLINE void upper_out(float *near, float *far, const Ends *e, int s)
{
    const __mmask16 lanes = s == 1 ? 0x7fff : 0x3fff;
    __m512 x = s == 1 ? ROTATE(e->x, 1) : ROTATE(e->x, 2);
    __m512 y = s == 1 ? ROTATE(e->y, 1) : ROTATE(e->y, 2);
    __m512 z = s == 1 ? ROTATE(e->z, 1) : ROTATE(e->z, 2);
    _mm512_mask_store_ps(near, lanes, x), _mm512_mask_store_ps(near + 16, lanes, y);
    _mm512_mask_store_ps(near + 32, lanes, z);
    _mm512_mask_store_ps(far, (__mmask16)~lanes, x), _mm512_mask_store_ps(far + 16, (__mmask16)~lanes, y);
    _mm512_mask_store_ps(far + 32, (__mmask16)~lanes, z);
}

/* The links of `kind` anchored at key k. */
typedef struct Walk {
    WideHelix *h;
    Family family[KINDS];
    bool on[KINDS];
    bool kept; /* corrections kept as x + r (below 1 ms substeps) */
} Walk;

ROWS_INLINE void solve_at(const Walk *w, int kind, int k, Ends *a, Ends *b)
{
    const size_t at = (size_t)kind * (size_t)w->h->keys + (size_t)k;
    const Family *f = &w->family[kind];
    __m512 lambda = _mm512_setzero_ps();
    if (f->xpbd)
        lambda = _mm512_load_ps(w->h->lambda + at * 16);
    solve(a, b, _mm512_load_ps(w->h->rest + at * 16), w->h->live[at], f, &lambda);
    if (f->xpbd)
        _mm512_store_ps(w->h->lambda + at * 16, lambda);
}

/* The links across (gap 1 or 2) anchored at key k, then those down (s =
 * gap rows up), without remainders. near[0] holds key k and near[1] (gap
 * 2) key k + 1, as the links across before moved them: kept in registers,
 * not stored and read back. Key k is stored after its links down, and the
 * others move up one. Nothing else reads or writes these keys meanwhile:
 * the shear's and the bend's keys lie at least SLACK keys away (the
 * delays), and a pass on another thread waits until they are stored. */
ROWS_INLINE void across_down(const Walk *w, int across, int down, int k, int gap, int P, Ends near[2])
{
    WideHelix *h = w->h;
    Ends right = load_key(key_at(h, k + gap));
    if (w->on[across])
        solve_at(w, across, k, &near[0], &right);
    if (w->on[down]) {
        float *pn = key_at(h, k - 2 * gap), *pf = key_at(h, k + 32 - 2 * gap - P);
        Ends a = upper_in(pn, pf, gap);
        solve_at(w, down, k, &a, &near[0]);
        upper_out(pn, pf, &a, gap);
    }
    store_key(key_at(h, k), &near[0]);
    if (gap == 2)
        near[0] = near[1], near[1] = right;
    else
        near[0] = right;
}

/* Before a family's first key in a piece (k): near as across_down takes
 * it. After its last (used - 1) near holds keys from `used` on, where no
 * lane has a particle: nothing to store; a piece that ends before that
 * stores them (flush). */
ROWS_INLINE void near_in(const WideHelix *h, int gap, Ends near[2], int k)
{
    for (int g = 0; g < gap; g++)
        near[g] = load_key(key_at(h, k + g));
}

/* The shear's cells anchored at key k. The upper ends of d1 are those d2
 * of the cells anchored at k - 1 moved (lanes j - 1 of key k - 2 and
 * lane 15 of k + 30 - P): *upper carries them from one to the next, so
 * they are neither written back nor read again in between. Likewise d2's
 * lower ends, key k, are those d1 of the cells at k - 1 moved: *lower
 * carries them, and is left holding key k + 1. At the piece's first key
 * (first) both come from memory. */
ROWS_INLINE void shear(const Walk *w, int k, int first, int P, Ends *upper, Ends *lower)
{
    WideHelix *h = w->h;
    float *pn = key_at(h, k - 2), *pf = key_at(h, k + 30 - P);
    if (k == first)
        *upper = upper_in(pn, pf, 1), *lower = load_key(key_at(h, k));
    Ends b = load_key(key_at(h, k + 1));
    solve_at(w, D1, k, upper, &b);
    upper_out(pn, pf, upper, 1);
    *upper = upper_in(key_at(h, k - 1), key_at(h, k + 31 - P), 1);
    solve_at(w, D2, k, upper, lower);
    store_key(key_at(h, k), lower);
    *lower = b; /* after the last key (used - 1), key used: no particle there */
}

/* Sixteen lanes' x, y and z remainders (cloth.h), lanes 0-7 and 8-15. */
typedef struct Remainders {
    __m512d lo[3], hi[3];
} Remainders;

#define ALIGN_PD(a, b, n)                                                                                        \
    _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(a), _mm512_castpd_si512(b), (n)))

ROWS_INLINE Remainders load_remainders(const double *key)
{
    Remainders r;
    for (int q = 0; q < 3; q++)
        r.lo[q] = _mm512_load_pd(key + 16 * q), r.hi[q] = _mm512_load_pd(key + 16 * q + 8);
    return r;
}

ROWS_INLINE void store_remainders(double *key, const Remainders *r)
{
    for (int q = 0; q < 3; q++)
        _mm512_store_pd(key + 16 * q, r->lo[q]), _mm512_store_pd(key + 16 * q + 8, r->hi[q]);
}

/* upper_in for the remainders: lanes j >= s of near's j - s, lanes j < s of
 * far's 16 - s + j. */
ROWS_INLINE Remainders upper_remainders_in(const double *near, const double *far, int s)
{
    Remainders r;
    for (int q = 0; q < 3; q++) {
        __m512d nl = _mm512_load_pd(near + 16 * q), nh = _mm512_load_pd(near + 16 * q + 8);
        __m512d fh = _mm512_load_pd(far + 16 * q + 8);
        r.lo[q] = s == 1 ? ALIGN_PD(nl, fh, 7) : ALIGN_PD(nl, fh, 6);
        r.hi[q] = s == 1 ? ALIGN_PD(nh, nl, 7) : ALIGN_PD(nh, nl, 6);
    }
    return r;
}

/* Its inverse (at a period of 32 near is far, and the masks meet). */
ROWS_INLINE void upper_remainders_out(double *near, double *far, const Remainders *r, int s)
{
    const __mmask8 near_high = s == 1 ? 0x7f : 0x3f;
    for (int q = 0; q < 3; q++) {
        __m512d lo = r->lo[q], hi = r->hi[q];
        _mm512_store_pd(near + 16 * q, s == 1 ? ALIGN_PD(hi, lo, 1) : ALIGN_PD(hi, lo, 2));
        _mm512_mask_store_pd(near + 16 * q + 8, near_high, s == 1 ? ALIGN_PD(hi, hi, 1) : ALIGN_PD(hi, hi, 2));
        _mm512_mask_store_pd(far + 16 * q + 8, (__mmask8)~near_high, s == 1 ? ALIGN_PD(lo, lo, 1) : ALIGN_PD(lo, lo, 2));
    }
}

/* ADD_KEPT (solver.h) on sixteen lanes of one coordinate: x + r moved by
 * factor * d, in double; lanes outside live keep x and r. */
ROWS_INLINE void move_kept(__m512 *x, __m512d *r_lo, __m512d *r_hi, __m512d f_lo, __m512d f_hi, __m512 d,
                           __mmask16 live)
{
    __m512d d_lo = _mm512_cvtps_pd(_mm512_castps512_ps256(d)), d_hi = _mm512_cvtps_pd(_mm512_extractf32x8_ps(d, 1));
    __m512d x_lo = _mm512_cvtps_pd(_mm512_castps512_ps256(*x)), x_hi = _mm512_cvtps_pd(_mm512_extractf32x8_ps(*x, 1));
    __m512d t_lo = _mm512_add_pd(*r_lo, _mm512_mul_pd(f_lo, d_lo)), t_hi = _mm512_add_pd(*r_hi, _mm512_mul_pd(f_hi, d_hi));
    __m256 n_lo = _mm512_cvtpd_ps(_mm512_add_pd(x_lo, t_lo)), n_hi = _mm512_cvtpd_ps(_mm512_add_pd(x_hi, t_hi));
    __m512d nr_lo = _mm512_add_pd(_mm512_sub_pd(x_lo, _mm512_cvtps_pd(n_lo)), t_lo);
    __m512d nr_hi = _mm512_add_pd(_mm512_sub_pd(x_hi, _mm512_cvtps_pd(n_hi)), t_hi);
    *x = _mm512_mask_mov_ps(*x, live, _mm512_insertf32x8(_mm512_castps256_ps512(n_lo), n_hi, 1));
    *r_lo = _mm512_mask_mov_pd(*r_lo, (__mmask8)live, nr_lo);
    *r_hi = _mm512_mask_mov_pd(*r_hi, (__mmask8)(live >> 8), nr_hi);
}

/* solver_relax_link with kept: the correction, then a moved by
 * wa * (double)scale times d and b by -wb * (double)scale times d. */
ROWS_INLINE void solve_at_kept(const Walk *w, int kind, int k, Ends *a, Ends *b, Remainders *ra, Remainders *rb)
{
    const size_t at = (size_t)kind * (size_t)w->h->keys + (size_t)k;
    const Family *f = &w->family[kind];
    __m512 lambda = _mm512_setzero_ps();
    if (f->xpbd)
        lambda = _mm512_load_ps(w->h->lambda + at * 16);
    __mmask16 live = w->h->live[at];
    __m512 d[3];
    __m512 scale = correction(a, b, _mm512_load_ps(w->h->rest + at * 16), &live, f, &lambda, d);
    if (f->xpbd)
        _mm512_store_ps(w->h->lambda + at * 16, lambda);
    __m512d s_lo = _mm512_cvtps_pd(_mm512_castps512_ps256(scale)), s_hi = _mm512_cvtps_pd(_mm512_extractf32x8_ps(scale, 1));
    __m512 minus_wb = _mm512_xor_ps(b->w, _mm512_set1_ps(-0.0f));
    __m512d fa_lo = _mm512_mul_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(a->w)), s_lo);
    __m512d fa_hi = _mm512_mul_pd(_mm512_cvtps_pd(_mm512_extractf32x8_ps(a->w, 1)), s_hi);
    __m512d fb_lo = _mm512_mul_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(minus_wb)), s_lo);
    __m512d fb_hi = _mm512_mul_pd(_mm512_cvtps_pd(_mm512_extractf32x8_ps(minus_wb, 1)), s_hi);
    __m512 *xa[3] = {&a->x, &a->y, &a->z}, *xb[3] = {&b->x, &b->y, &b->z};
    for (int q = 0; q < 3; q++) {
        move_kept(xa[q], &ra->lo[q], &ra->hi[q], fa_lo, fa_hi, d[q], live);
        move_kept(xb[q], &rb->lo[q], &rb->hi[q], fb_lo, fb_hi, d[q], live);
    }
}

ROWS_INLINE void across_kept(const Walk *w, int kind, int k, int gap)
{
    float *pa = key_at(w->h, k), *pb = key_at(w->h, k + gap);
    double *qa = remainder_at(w->h, k), *qb = remainder_at(w->h, k + gap);
    Ends a = load_key(pa), b = load_key(pb);
    Remainders ra = load_remainders(qa), rb = load_remainders(qb);
    solve_at_kept(w, kind, k, &a, &b, &ra, &rb);
    store_key(pa, &a), store_key(pb, &b);
    store_remainders(qa, &ra), store_remainders(qb, &rb);
}

ROWS_INLINE void down_kept(const Walk *w, int kind, int k, int near, int far, int lower, int s)
{
    WideHelix *h = w->h;
    float *pn = key_at(h, near), *pf = key_at(h, far), *pb = key_at(h, lower);
    double *qn = remainder_at(h, near), *qf = remainder_at(h, far), *qb = remainder_at(h, lower);
    Ends a = upper_in(pn, pf, s), b = load_key(pb);
    Remainders ra = upper_remainders_in(qn, qf, s), rb = load_remainders(qb);
    solve_at_kept(w, kind, k, &a, &b, &ra, &rb);
    upper_out(pn, pf, &a, s), store_key(pb, &b);
    upper_remainders_out(qn, qf, &ra, s), store_remainders(qb, &rb);
}

/* The links across (gap 1 or 2), then down, anchored at key k: with
 * remainders through memory, without through across_down's registers
 * (near: the family pair's, loaded at its first key, stored after its
 * last). */
ROWS_INLINE void across_then_down(const Walk *w, int across, int down, int k, int first, int gap, int P,
                                  Ends near[2])
{
    if (w->kept) {
        if (w->on[across])
            across_kept(w, across, k, gap);
        if (w->on[down])
            down_kept(w, down, k, k - 2 * gap, k + 32 - 2 * gap - P, k, gap);
        return;
    }
    if (k == first)
        near_in(w->h, gap, near, k);
    across_down(w, across, down, k, gap, P, near);
}

/* The shear's cells anchored at key k; with remainders, the upper ends of
 * d1 go through memory, not from d2 in registers. */
ROWS_INLINE void cells(const Walk *w, int k, int first, int P, Ends *upper, Ends *lower)
{
    if (w->kept) {
        down_kept(w, D1, k, k - 2, k + 30 - P, k + 1, 1);
        down_kept(w, D2, k, k - 1, k + 31 - P, k, 1);
    } else {
        shear(w, k, first, P, upper, lower);
    }
}

/* The sphere's push (friction 0), as sphere_range_avx2 does it eight
 * lanes at a time: its constants. */
typedef struct Push {
    __m512 cx, cy, cz, radius, skin, far;
} Push;

ROWS_TARGET static Push push_of(const Collider *sphere, float margin)
{
    /* a key whose squared distances all exceed this, a little more than
     * (radius + margin)^2, has no lane in contact */
    float reach = (sphere->radius + margin) * 1.001f + 1e-6f;
    return (Push){_mm512_set1_ps(sphere->center[0]),
                  _mm512_set1_ps(sphere->center[1]),
                  _mm512_set1_ps(sphere->center[2]),
                  _mm512_set1_ps(sphere->radius),
                  _mm512_set1_ps(margin),
                  _mm512_set1_ps(reach * reach)};
}

/* sphere_push on the sixteen lanes of key k; lanes outside the grid have
 * no inverse mass. */
ROWS_INLINE void push_key(const WideHelix *h, const Push *s, int k)
{
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f), tiny = _mm512_set1_ps(1e-9f);
    float *key = key_at(h, k);
    __m512 x = _mm512_load_ps(key), y = _mm512_load_ps(key + 16), z = _mm512_load_ps(key + 32);
    __m512 dx = _mm512_sub_ps(x, s->cx), dy = _mm512_sub_ps(y, s->cy), dz = _mm512_sub_ps(z, s->cz);
    __m512 d2 = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy)), _mm512_mul_ps(dz, dz));
    if (_mm512_cmp_ps_mask(d2, s->far, _CMP_GT_OQ) == 0xffff)
        return;
    __m512 d = _mm512_sqrt_ps(d2);
    __m512 distance = _mm512_sub_ps(d, s->radius);
    __mmask16 hit = _mm512_cmp_ps_mask(distance, s->skin, _CMP_NGE_UQ) &
                    _mm512_cmp_ps_mask(_mm512_load_ps(key + W), zero, _CMP_NEQ_UQ);
    if (!hit)
        return;
    __mmask16 away = _mm512_cmp_ps_mask(d, tiny, _CMP_GT_OQ);
    __m512 nx = _mm512_mask_div_ps(zero, away, dx, d), ny = _mm512_mask_div_ps(one, away, dy, d),
           nz = _mm512_mask_div_ps(zero, away, dz, d);
    __m512 push = _mm512_sub_ps(s->skin, distance);
    _mm512_store_ps(key, _mm512_mask_add_ps(x, hit, x, _mm512_mul_ps(push, nx)));
    _mm512_store_ps(key + 16, _mm512_mask_add_ps(y, hit, y, _mm512_mul_ps(push, ny)));
    _mm512_store_ps(key + 32, _mm512_mask_add_ps(z, hit, z, _mm512_mul_ps(push, nz)));
}

/* Spins WAIT_SPINS times, then yields its core at every call. */
static void wait_a_little(int *spins)
{
    if (++*spins < WAIT_SPINS)
        __builtin_ia32_pause();
    else
        sched_yield();
}

/* Until the pass `before` has `wanted` steps done in this run (base, its
 * serial's); returns the steps it had. */
static int wait_for_pass(const PassDone *before, unsigned long long base, int wanted)
{
    for (int spins = 0;; wait_a_little(&spins)) {
        unsigned long long v = atomic_load_explicit(&before->steps, memory_order_acquire);
        if (v >= base + (unsigned long long)wanted)
            return (int)(v - base);
    }
}

/* A thread's arrival at a part of run `serial`: serial << 16 | arrivals. */
static void arrive(RunCount *count, unsigned serial)
{
    unsigned long long v = atomic_load(&count->arrived), want;
    do
        want = v >> 16 == serial ? v + 1 : (unsigned long long)serial << 16 | 1u;
    while (!atomic_compare_exchange_weak(&count->arrived, &v, want));
}

/* Until run `serial` has had `arrivals`. */
static void wait_arrivals(const RunCount *count, unsigned serial, int arrivals)
{
    for (int spins = 0;; wait_a_little(&spins)) {
        unsigned long long v = atomic_load_explicit(&count->arrived, memory_order_acquire);
        if (v >> 16 == serial && (int)(v & 0xffffu) >= arrivals)
            return;
    }
}

/* At the end of a piece (steps up to `to`) that is not the pass's last:
 * the keys its registers hold back into the buffer, for the next piece
 * (another thread) to load where it starts. A family that has walked all
 * its keys, or none, holds none. */
ROWS_INLINE void flush(const Walk *w, int to, const Ends structural[2], const Ends bend[2], const Ends *upper,
                       const Ends *lower)
{
    const WideHelix *h = w->h;
    const int K = h->used, P = h->period;
    int k = to - 1; /* the structural families' last key: near[0] holds k + 1 */
    if (k >= 0 && k < K - 1)
        store_key(key_at(h, k + 1), &structural[0]);
    k = to - 1 - h->d_shear;
    if (w->on[D1] && k >= 0 && k < K - 1) {
        upper_out(key_at(h, k - 1), key_at(h, k + 31 - P), upper, 1);
        store_key(key_at(h, k + 1), lower);
    }
    k = to - 1 - h->d_bend; /* near[0] and near[1]: keys k + 1 and k + 2 */
    if (k >= 0 && k < K - 1)
        store_key(key_at(h, k + 1), &bend[0]), store_key(key_at(h, k + 2), &bend[1]);
}

/* Steps from .. to - 1 of a pass (one piece). Step t does the links across
 * and down anchored at key t, the shear's at t - d_shear, the bend
 * families' at t - d_bend, and pushes key t - d_push out of the sphere,
 * one step after the last link of the pass that moves it. The piece waits
 * first for the one before it in the pass (`mine` at `from`: steps
 * before, another thread), then before step t for the pass before (if
 * any) to have pushed every key this step reads (up to t + 1: d_push + 2
 * steps more; `ahead`, on several threads: MARGIN more, and it prefetches).
 * It publishes its steps every PUBLISH, and its last once its registers
 * are stored. Returns its ticks, the waits left out. */
ROWS_TARGET static unsigned long long walk(const Walk *w, const Push *push, PassDone *mine,
                                           const PassDone *before, unsigned long long base, bool ahead, int from,
                                           int to)
{
    const WideHelix *h = w->h;
    const int P = h->period, K = h->used, steps = h->steps, lag = h->d_push + 2 + (ahead ? MARGIN : 0);
    const int first_shear = from > h->d_shear ? from - h->d_shear : 0;
    const int first_bend = from > h->d_bend ? from - h->d_bend : 0;
    if (from > 0)
        wait_for_pass(mine, base, from);
    unsigned long long start = __rdtsc(), waited = 0;
    int seen = before ? 0 : steps; /* the pass before's steps done */
    const Ends zero = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
    Ends structural[2] = {zero, zero}, bend[2] = {zero, zero}, upper = zero, lower = zero;
    for (int t = from; t < to; t++) {
        if (seen < steps && seen < t + lag) {
            unsigned long long w0 = __rdtsc();
            seen = wait_for_pass(before, base, t + lag < steps ? t + lag : steps);
            waited += __rdtsc() - w0;
        }
        if (ahead && t + 1 + AHEAD < K) {
            const char *next = (const char *)key_at(h, t + 1 + AHEAD);
            _mm_prefetch(next + X * sizeof(float), _MM_HINT_T0);
            _mm_prefetch(next + Y * sizeof(float), _MM_HINT_T0);
            _mm_prefetch(next + Z * sizeof(float), _MM_HINT_T0);
        }
        if (t < K)
            across_then_down(w, HS, VS, t, from, 1, P, structural);
        int k = t - h->d_shear;
        if (k >= 0 && k < K && w->on[D1])
            cells(w, k, first_shear, P, &upper, &lower);
        k = t - h->d_bend;
        if (k >= 0 && k < K)
            across_then_down(w, HB, VB, k, first_bend, 2, P, bend);
        k = t - h->d_push;
        if (push && k >= 0)
            push_key(h, push, k);
        if (t % PUBLISH == PUBLISH - 1 && t < to - 1)
            atomic_store_explicit(&mine->steps, base + (unsigned long long)t + 1u, memory_order_release);
    }
    if (to < steps && !w->kept)
        flush(w, to, structural, bend, &upper, &lower);
    atomic_store_explicit(&mine->steps, base + (unsigned long long)to, memory_order_release);
    return __rdtsc() - start - waited;
}

/* The links' vectors the walk's steps before t go through: two a key in
 * each family pair (across and down, the shear's diagonals, the bend
 * families), the push not counted. A measure to cut passes by; the costs
 * the threads measure make up for what it leaves out. */
static double work_before(const WideHelix *h, int t)
{
    const int delay[3] = {0, h->d_shear, h->d_bend};
    double work = 0.0;
    for (int f = 0; f < 3; f++) {
        int keys = t - delay[f];
        work += 2.0 * (keys < 0 ? 0 : keys > h->used ? h->used : keys);
    }
    return work;
}

/* The first step before which the walk has `work` to do. */
static int step_at_work(const WideHelix *h, double work)
{
    int lo = 0, hi = h->steps;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (work_before(h, mid) < work)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Tests: cuts anywhere, the families' edges often, in order. */
static void cut_anywhere(WideHelix *h, int *cut, int threads)
{
    const int edges[] = {1, h->d_shear, h->d_shear + 1, h->d_bend, h->d_bend + 1, h->d_push, h->d_push + 1,
                         h->used - 1, h->used, h->used + 1, h->steps - 1, h->period, h->period + 1};
    const int n_edges = (int)(sizeof edges / sizeof edges[0]);
    for (int t = 1; t < threads; t++) {
        h->cut_seed = h->cut_seed * 1103515245u + 12345u;
        unsigned r = h->cut_seed >> 8;
        int at = r % 2 ? edges[(r >> 1) % (unsigned)n_edges] : (int)((r >> 1) % (unsigned)(h->steps + 1));
        cut[t] = at < 0 ? 0 : at > h->steps ? h->steps : at;
        for (int u = t; u > 1 && cut[u - 1] > cut[u]; u--) {
            int swap = cut[u];
            cut[u] = cut[u - 1], cut[u - 1] = swap;
        }
    }
}

/* This run's cuts (thread 0, before the others look).
 *
 * Piece t of a pass starts once piece t - 1 of it has ended, and a step of
 * a pass once the pass before is `lag` steps ahead (walk): the pieces go
 * through the threads like the stages of a pipeline. Cut alike in every
 * pass, a run would take one pass more than the passes over the threads:
 * thread t could not start before the pieces before it of the first pass
 * had ended, and thread 0 would wait at the end for the others' pieces of
 * the last. So the first pass gives each thread but the last only `lead`
 * steps, enough for the next pass to follow without waiting, and the last
 * pass the threads but the first as few. The passes between are cut so
 * that all threads end at once: each thread's work over the run times its
 * cost of a unit of work (work_before), measured in the runs before, the
 * same for all (a core the machine's other work slows gets less). Only the
 * keys near a cut go from core to core.
 *
 * One pass cannot be shared: it all goes to thread 0. */
static void choose_cuts(WideHelix *h, int passes, int threads, int lead)
{
    for (int c = 0; c < 3; c++)
        h->cut[c][0] = 0, h->cut[c][threads] = h->steps;
    if (threads == 1)
        return;
    if (h->cut_seed) {
        for (int c = 0; c < 3; c++)
            cut_anywhere(h, h->cut[c], threads);
        return;
    }
    if (passes == 1) {
        for (int t = 1; t < threads; t++)
            h->cut[0][t] = h->steps;
        return;
    }
    double speed = 0.0; /* the threads' units of work a tick, together */
    for (int t = 0; t < threads; t++) {
        if (h->work[t] > 0.0 && h->busy[t] > 0) {
            double measured = (double)h->busy[t] / h->work[t];
            h->cost[t] = h->cost[t] > 0.0 ? 0.5 * (h->cost[t] + measured) : measured;
        }
        if (!(h->cost[t] > 0.0))
            h->cost[t] = 1.0;
        speed += 1.0 / h->cost[t];
    }
    for (int t = 1; t < threads; t++) {
        int first = t * lead, last = h->steps - (threads - t) * lead;
        h->cut[0][t] = first < h->steps ? first : h->steps;
        h->cut[2][t] = last > 0 ? last : 0;
    }
    if (passes == 2)
        return;
    /* each thread's work in the passes between: all end at `end` */
    const double total = work_before(h, h->steps), end = passes * total / speed;
    double middle[RELAX_HELIX_MAX_THREADS], sum = 0.0;
    for (int t = 0; t < threads; t++) {
        double ends = work_before(h, h->cut[0][t + 1]) - work_before(h, h->cut[0][t]) +
                      work_before(h, h->cut[2][t + 1]) - work_before(h, h->cut[2][t]);
        middle[t] = (end / h->cost[t] - ends) / (passes - 2);
        middle[t] = middle[t] > 0.0 ? middle[t] : 0.0;
        sum += middle[t];
    }
    double done = 0.0;
    for (int t = 1; t < threads; t++) {
        done += sum > 0.0 ? middle[t - 1] / sum : 1.0 / threads;
        h->cut[1][t] = step_at_work(h, done * total);
    }
    if (threads == 2) {
        /* The first steps of a pass are the cheapest (the shear and the
         * bend families start later), so that thread 0's piece of the third
         * pass would catch up with the second pass, which thread 1 starts
         * only after its piece of the first: unless that piece takes no
         * longer than thread 0's pieces of the second pass and of the third
         * up to `lead` steps before its end. */
        const int m = h->cut[1][1];
        double catch_up = work_before(h, m) + work_before(h, m > lead ? m - lead : 0);
        int at = step_at_work(h, total - h->cost[0] / h->cost[1] * catch_up);
        if (at > h->cut[0][1])
            h->cut[0][1] = at < m ? at : m;
    }
}

static void cut_anywhere_from(void *walk, unsigned seed) { ((WideHelix *)walk)->cut_seed = seed; }

/* Keys k0 .. k0 + 15 into the buffer (in), all a walk reads of them, or
 * back. */
ROWS_TARGET static void move_block(WideHelix *h, Cloth *c, float *lambda, const RelaxPassConstants *p, int k0,
                                   bool in)
{
    copy(h, c, in, k0);
    if (p->kept)
        copy_remainders(h, c, in, k0);
    if (p->xpbd)
        move_lambda(h, lambda, in, k0);
}

ROWS_TARGET static void run(void *helix, Cloth *c, float *lambda, const RelaxPassConstants *p, int passes,
                            const Collider *sphere, float margin, int t, int threads, unsigned serial)
{
    WideHelix *h = helix;
    assert(!p->jacobi && c->cols == h->cols && c->rows == h->rows);
    assert(passes >= 1 && passes <= RELAX_HELIX_MAX_PASSES && t < threads && threads <= RELAX_HELIX_MAX_THREADS);
    static const int link_family[KINDS] = {LINK_STRUCTURAL, LINK_STRUCTURAL, LINK_SHEAR,
                                           LINK_SHEAR,      LINK_BEND,       LINK_BEND};
    Walk w = {.h = h, .kept = p->kept};
    for (int kind = 0; kind < KINDS; kind++) {
        w.family[kind] = family_of(p, link_family[kind]);
        w.on[kind] = !(p->k[link_family[kind]] <= 0.0f); /* the plain loop skips a family whose k is not above 0 */
    }
    Push push;
    if (sphere)
        push = push_of(sphere, margin);
    else
        memset(&push, 0, sizeof push);
    /* every pass of this run publishes serial * (steps + 1) + its steps:
     * more than any count of an earlier run */
    const unsigned long long base = (unsigned long long)serial * (unsigned long long)(h->steps + 1);
    if (t == 0) {
        refresh(h, c);
        choose_cuts(h, passes, threads, h->d_push + 2 + MARGIN + 2 * PUBLISH);
    }
    /* The copy in, each thread a share of the blocks; W_UP1 and W_UP2 read
     * the inverse masses of the period before, which may be another
     * thread's share. Thread 0 goes on without waiting for the others if
     * its piece of the first pass stays among its own keys: the others
     * start walking after that piece anyway. */
    const int blocks = h->keys / 16, mine_from = 16 * share(blocks, t, threads),
              mine_to = 16 * share(blocks, t + 1, threads);
    for (int k0 = mine_from; k0 < mine_to; k0 += 16)
        move_block(h, c, lambda, p, k0, true);
    if (threads > 1) {
        arrive(&h->arrived[0], serial);
        if (t > 0)
            wait_arrivals(&h->arrived[0], serial, threads); /* and the cuts, made before thread 0 arrived */
    }
    for (int k0 = mine_from; k0 < mine_to; k0 += 16)
        shifted_masses(h, k0);
    if (threads > 1) {
        arrive(&h->arrived[1], serial);
        if (t > 0 || h->cut[0][1] + 2 + AHEAD > mine_to)
            wait_arrivals(&h->arrived[1], serial, threads);
    }
    unsigned long long busy = 0;
    double work = 0.0;
    for (int n = 0; n < passes; n++) {
        const int *cut = h->cut[n == 0 ? 0 : n == passes - 1 ? 2 : 1];
        const int from = cut[t], to = cut[t + 1];
        if (from < to) {
            busy += walk(&w, sphere ? &push : NULL, &h->done[n], n > 0 ? &h->done[n - 1] : NULL, base,
                         threads > 1, from, to);
            work += work_before(h, to) - work_before(h, from);
        }
    }
    h->busy[t] = busy;
    h->work[t] = work;
    /* The copy back, each block once the last pass has pushed its last
     * key (k at step k + d_push): most of it while the others end their
     * pieces of the last pass */
    for (int k0 = mine_from; k0 < mine_to; k0 += 16) {
        if (threads > 1)
            wait_for_pass(&h->done[passes - 1], base,
                          k0 + 16 + h->d_push < h->steps ? k0 + 16 + h->d_push : h->steps);
        move_block(h, c, lambda, p, k0, false);
    }
}

const RelaxHelixLevel relax_helix_level_avx512 = {create, destroy, run, cut_anywhere_from};

#else

typedef int relax_helix_avx512_empty; /* ISO C: no empty file */

#endif
