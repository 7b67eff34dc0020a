/* relax_helix_avx512.c - the sequential order's passes, all five families
 * in one walk, a pass a thread (relax_helix.h tells the idea).
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
 * Pass n is thread n mod threads'. The sphere's push of key k is done at
 * step k + d_push of the walk, one step after the last link of the pass
 * that moves a particle of k (bend down from lane 14 or 15: anchored
 * P - 28 keys on). A step t reads and writes keys up to t + 1 only, so
 * pass n + 1 may run its step t once pass n has done step t + 1 + d_push:
 * every key it touches has then had pass n's last link and push, and pass
 * n touches no key under t + 2 again. Each pass publishes its steps done
 * (PassDone, every PUBLISH steps), and the next waits on them; the thread
 * of the last pass copies the buffer back. The bits do not depend on the
 * number of threads.
 *
 * Each key then goes from core to core once a pass. Right on the heels of
 * the pass before, a pass finds its next key still in the other core's
 * cache, or still being written there: on a 2-core AMD EPYC (Zen 5,
 * AVX-512) a 200 x 200 pass took 490,000 rdtsc ticks of work on two
 * threads against 300,000 on one, and two threads ran the step only 1.05
 * to 1.2 times as fast as one. A pass on another thread therefore keeps
 * MARGIN steps further behind and prefetches the positions of the key
 * AHEAD keys on: its passes then take 330,000 to 350,000 ticks, and the
 * step runs 1.7 times as fast (margins 16 to 64 and distances 4 to 16
 * all gave within 3 % of that; the prefetch alone, or the margin alone,
 * 10 to 20 % less; on one thread the prefetch costs 2 %, so it is off).
 *
 * Why
 * ---
 * Measured on the 2-core Xeon (AVX-512, 2.3 GHz, a shared virtual machine)
 * this was written on, rdtsc around a pass, the fastest of thousands:
 * family by family (relax_rows_avx512.c) a 200 x 200 pass took 714,000 to
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

struct RelaxHelix {
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
    unsigned torn_generation;
    bool fresh;
};

/* The particle of lane j at key k: false where none is. */
static bool lane_particle(const RelaxHelix *h, int k, int j, int *row, int *col)
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

RelaxHelix *relax_helix_create(const Cloth *c)
{
    if (!relax_rows_usable())
        return NULL;
    RelaxHelix *h = calloc(1, sizeof *h);
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
    if (!h->buffer || !h->remainder || !h->link || !h->rest || !h->lambda || !h->live || !h->piece || !h->piece_in || !h->done) {
        relax_helix_destroy(h);
        return NULL;
    }
    for (int n = 0; n < RELAX_HELIX_MAX_PASSES; n++)
        atomic_init(&h->done[n].steps, 0ull);
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

void relax_helix_destroy(RelaxHelix *h)
{
    if (!h)
        return;
    free(h->buffer), free(h->link), free(h->rest), free(h->lambda), free(h->live), free(h->piece), free(h->piece_in);
    free(h->done), free(h->remainder);
    free(h);
}

/* The rest lengths and the links that take part, when links tore. */
static void refresh(RelaxHelix *h, const Cloth *c)
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

#if ROWS_X86

static inline float *key_at(const RelaxHelix *h, int k)
{
    return h->buffer + (size_t)(k + h->pad) * KEY;
}

/* Thread t's first of n things shared by `threads` threads (t = threads:
 * the end). */
static int share(int n, int t, int threads) { return (int)((long)n * t / threads); }

/* xpbd's multipliers into the walk's layout (in) or back (!in), sixteen
 * lanes at a time. */
ROWS_TARGET static void move_lambda(RelaxHelix *h, float *lambda, bool in, int t, int threads)
{
    const int vectors = KINDS * h->keys;
    for (size_t v = (size_t)share(vectors, t, threads); v < (size_t)share(vectors, t + 1, threads); v++) {
        __m512i link = _mm512_loadu_si512(h->link + v * 16);
        __mmask16 some = _mm512_cmp_epi32_mask(link, _mm512_setzero_si512(), _MM_CMPINT_NLT);
        if (in)
            _mm512_store_ps(h->lambda + v * 16, _mm512_mask_i32gather_ps(_mm512_setzero_ps(), some, link, lambda, 4));
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

/* The cloth into the buffer (in: positions and inverse masses) or the
 * positions back. */
ROWS_TARGET static void copy(RelaxHelix *h, Cloth *c, bool in, int t, int threads)
{
    float *v[4] = {c->x, c->y, c->z, c->inv_mass};
    const int coords = in ? 4 : 3, blocks = h->keys / 16;
    for (int k0 = 16 * share(blocks, t, threads); k0 < 16 * share(blocks, t + 1, threads); k0 += 16) {
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
}

static inline double *remainder_at(const RelaxHelix *h, int k)
{
    return h->remainder + (size_t)(k + h->pad) * 48;
}

/* The remainders of thread t's share of the keys into the buffer (in) or
 * back, particle by particle (runs with remainders only: below 1 ms). */
static void copy_remainders(RelaxHelix *h, Cloth *c, bool in, int t, int threads)
{
    double *r[3] = {c->rx, c->ry, c->rz};
    const int blocks = h->keys / 16;
    for (int k0 = 16 * share(blocks, t, threads); k0 < 16 * share(blocks, t + 1, threads); k0 += 16)
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

/* Each key's W_UP1 and W_UP2 from the inverse masses (after a copy in):
 * keys -4 on, the first a link down reads. */
ROWS_TARGET static void shifted_masses(RelaxHelix *h, int t, int threads)
{
    for (int k = t == 0 ? -4 : share(h->keys, t, threads); k < share(h->keys, t + 1, threads); k++) {
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
    RelaxHelix *h;
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
    RelaxHelix *h = w->h;
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

/* Before a family's first key (k = 0): near as across_down takes it.
 * After its last (used - 1) near holds keys from `used` on, where no lane
 * has a particle: nothing to store. */
ROWS_INLINE void near_in(const RelaxHelix *h, int gap, Ends near[2])
{
    for (int g = 0; g < gap; g++)
        near[g] = load_key(key_at(h, g));
}

/* The shear's cells anchored at key k. The upper ends of d1 are those d2
 * of the cells anchored at k - 1 moved (lanes j - 1 of key k - 2 and
 * lane 15 of k + 30 - P): *upper carries them from one to the next, so
 * they are neither written back nor read again in between. Likewise d2's
 * lower ends, key k, are those d1 of the cells at k - 1 moved: *lower
 * carries them, and is left holding key k + 1. */
ROWS_INLINE void shear(const Walk *w, int k, int P, Ends *upper, Ends *lower)
{
    RelaxHelix *h = w->h;
    float *pn = key_at(h, k - 2), *pf = key_at(h, k + 30 - P);
    if (k == 0)
        *upper = upper_in(pn, pf, 1), *lower = load_key(key_at(h, 0));
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
    RelaxHelix *h = w->h;
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
ROWS_INLINE void across_then_down(const Walk *w, int across, int down, int k, int gap, int P, Ends near[2])
{
    if (w->kept) {
        if (w->on[across])
            across_kept(w, across, k, gap);
        if (w->on[down])
            down_kept(w, down, k, k - 2 * gap, k + 32 - 2 * gap - P, k, gap);
        return;
    }
    if (k == 0)
        near_in(w->h, gap, near);
    across_down(w, across, down, k, gap, P, near);
}

/* The shear's cells anchored at key k; with remainders, the upper ends of
 * d1 go through memory, not from d2 in registers. */
ROWS_INLINE void cells(const Walk *w, int k, int P, Ends *upper, Ends *lower)
{
    if (w->kept) {
        down_kept(w, D1, k, k - 2, k + 30 - P, k + 1, 1);
        down_kept(w, D2, k, k - 1, k + 31 - P, k, 1);
    } else {
        shear(w, k, P, upper, lower);
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
ROWS_INLINE void push_key(const RelaxHelix *h, const Push *s, int k)
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

/* Until the pass before has `wanted` steps done in this run (base, its
 * serial's); returns the steps it had. Spins, then yields its core. */
static int wait_for_pass(const PassDone *before, unsigned long long base, int wanted)
{
    int spins = 0;
    for (;;) {
        unsigned long long v = atomic_load_explicit(&before->steps, memory_order_acquire);
        if (v >= base + (unsigned long long)wanted)
            return (int)(v - base);
        if (++spins < WAIT_SPINS)
            __builtin_ia32_pause();
        else
            sched_yield();
    }
}

/* One pass. Step t does the links across and down anchored at key t, the
 * shear's at t - d_shear, the bend families' at t - d_bend, and pushes key
 * t - d_push out of the sphere, one step after the last link of the pass
 * that moves it. Before step t it waits for the pass before (if any) to
 * have pushed every key this step reads (up to t + 1: d_push + 2 steps
 * more; `ahead`, the pass before on another thread: MARGIN more, and it
 * prefetches); it publishes its own steps every PUBLISH. */
ROWS_TARGET static void walk(const Walk *w, const Push *push, PassDone *mine, const PassDone *before,
                             unsigned long long base, bool ahead)
{
    const RelaxHelix *h = w->h;
    const int P = h->period, K = h->used, steps = h->steps, lag = h->d_push + 2 + (ahead ? MARGIN : 0);
    int seen = before ? 0 : steps; /* the pass before's steps done */
    Ends upper = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()}; /* shear */
    Ends lower = upper;                                            /* shear's */
    Ends structural[2] = {upper, upper}, bend[2] = {upper, upper}; /* across_then_down's */
    for (int t = 0; t < steps; t++) {
        if (seen < steps && seen < t + lag)
            seen = wait_for_pass(before, base, t + lag < steps ? t + lag : steps);
        if (ahead && t + 1 + AHEAD < K) {
            const char *next = (const char *)key_at(h, t + 1 + AHEAD);
            _mm_prefetch(next + X * sizeof(float), _MM_HINT_T0);
            _mm_prefetch(next + Y * sizeof(float), _MM_HINT_T0);
            _mm_prefetch(next + Z * sizeof(float), _MM_HINT_T0);
        }
        if (t < K)
            across_then_down(w, HS, VS, t, 1, P, structural);
        int k = t - h->d_shear;
        if (k >= 0 && k < K && w->on[D1])
            cells(w, k, P, &upper, &lower);
        k = t - h->d_bend;
        if (k >= 0 && k < K)
            across_then_down(w, HB, VB, k, 2, P, bend);
        k = t - h->d_push;
        if (push && k >= 0)
            push_key(h, push, k);
        if (t % PUBLISH == PUBLISH - 1 || t == steps - 1)
            atomic_store_explicit(&mine->steps, base + (unsigned long long)t + 1u, memory_order_release);
    }
}

ROWS_TARGET void relax_helix_run(RelaxHelix *h, Cloth *c, float *lambda, const RelaxPassConstants *p, int passes,
                                 const Collider *sphere, float margin, int t, int threads, unsigned serial,
                                 const RelaxHelixBarrier *barrier)
{
    assert(!p->jacobi && c->cols == h->cols && c->rows == h->rows);
    assert(passes >= 1 && passes <= RELAX_HELIX_MAX_PASSES && t < threads && (threads == 1 || barrier));
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
    /* the copies in and out, each thread a share of the keys */
    if (t == 0)
        refresh(h, c);
    copy(h, c, true, t, threads);
    if (p->kept)
        copy_remainders(h, c, true, t, threads);
    if (p->xpbd)
        move_lambda(h, lambda, true, t, threads);
    if (threads > 1)
        barrier->wait(barrier->context); /* W_UP1 and W_UP2 read keys of the others' shares */
    shifted_masses(h, t, threads);
    if (threads > 1)
        barrier->wait(barrier->context);
    for (int n = t; n < passes; n += threads)
        walk(&w, sphere ? &push : NULL, &h->done[n], n > 0 ? &h->done[n - 1] : NULL, base, threads > 1);
    if (threads > 1) /* the last pass done: every pass before it is */
        wait_for_pass(&h->done[passes - 1], base, h->steps);
    copy(h, c, false, t, threads);
    if (p->kept)
        copy_remainders(h, c, false, t, threads);
    if (p->xpbd)
        move_lambda(h, lambda, false, t, threads);
}

#else

void relax_helix_run(RelaxHelix *h, Cloth *c, float *lambda, const RelaxPassConstants *p, int passes,
                     const Collider *sphere, float margin, int t, int threads, unsigned serial,
                     const RelaxHelixBarrier *barrier)
{
    (void)h, (void)c, (void)lambda, (void)p, (void)passes, (void)sphere, (void)margin, (void)t, (void)threads,
        (void)serial, (void)barrier;
    (void)refresh;
    assert(!"relax_helix_create returns NULL here");
}

#endif
