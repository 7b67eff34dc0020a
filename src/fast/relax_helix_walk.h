/* relax_helix_walk.h - the sequential order's passes, all five families
 * in one walk (relax_helix.h tells the idea), written once over
 * relax_lanes.h's vectors of L lanes (VLANES). Each level's file defines
 * its lanes (LANES_AVX512 ...) and HELIX_LEVEL, then includes this, and
 * exports relax_helix_level_<level>; nothing else includes it. It began
 * as intrinsics at sixteen lanes (AVX-512); there the constants read
 * L = 16: P = max(cols, 32), and the 2 L - 2 = 30, 29, 28 of the delays.
 * What the choices below were measured at is in src/fast/README.md
 * ("Measured for the code", relax_helix_walk.h).
 *
 * The layout
 * ----------
 * P = max(cols, 2 L) keys a period. Lane j of key k holds particle
 * (L m + j, k - 2 j - m P), m the period: lane j takes rows j, j + L,
 * j + 2 L ... one after the other, P keys each, and each row starts two
 * keys after the one above it (row L m + L - 1 starts at 2 L - 2 + m P,
 * row L (m + 1) at (m + 1) P, P - (2 L - 2) >= 2 keys later). A key is KEY
 * floats: x, y, z and the inverse mass of its L lanes, and the inverse
 * masses of the rows above them; keys outside the grid are 0. One copy in
 * (an L x L transpose a block of keys, each lane one or two pieces of rows)
 * before the passes, one copy back after.
 *
 * A link is kept at the key of its lowest, then leftmost, particle, its
 * anchor (r, c):
 *   across  (r, c)-(r, c + 1)      bend across  (r, c)-(r, c + 2)
 *   down    (r - 1, c)-(r, c)      bend down    (r - 2, c)-(r, c)
 *   shear   (r - 1, c)-(r, c + 1) and (r - 1, c + 1)-(r, c): the cell
 *           above-left of the anchor, both diagonals
 * The particles of a link across are lane j of keys k and k + 1 (or
 * k + 2). The upper end of a link down is lane j - 1 of key k - 2 (row
 * r - 1 is the row above in the same lane period), or for lane 0, lane
 * L - 1 of key k + 2 L - 2 - P (row r - 1 is lane L - 1's, a period
 * before): one vector made of two with one shift (V_SHIFT_IN: valignd at
 * AVX-512), written back the same way. Bend down: lanes j - 2 of k - 4, or
 * L - 2 and L - 1 of k + 2 L - 4 - P.
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
 *   g = 2, or P - (2 L - 2) for lane L - 1, whose row below is the next
 *   period's), k - 1 .. k + g (shear), k - 2 .. k (bend across),
 *   k .. k + g' (bend down, g' = 4, P - (2 L - 4) for lanes L - 2 and
 *   L - 1). A family must start on p no sooner than the one before it has
 *   finished with it: D(down) >= D(across),
 *   D(shear) >= D(down) + P - (2 L - 3), D(bend) >= D(shear) + P - (2 L - 4),
 *   D(bend down) >= D(bend across).
 * The walk uses D = 0, 0, P - (2 L - 3) + SLACK,
 * 2 P - (4 L - 7) + 2 SLACK, the same.
 * test_fast.c compares the bits with the plain loop's; one step less of
 * either delay fails 7 of its tests.
 *
 * Remainders
 * ----------
 * Below 1 ms substeps (pass->kept) the corrections move x + r, the float
 * position and its remainder in double (solver_move_kept). Each key then
 * has the remainders of its lanes too (`remainder`, copied in and back
 * particle by particle); a link down shifts them between lanes as it
 * shifts the positions (VD_SHIFT_IN), and the moves are ADD_KEPT's, in
 * vectors of L doubles. The
 * shear's upper ends then go through memory (no carry). At 100 substeps
 * of the default scene this is 4.5 times the colored order's time (the
 * conversions between float and double, six moves a link).
 *
 * Two passes on one thread
 * ------------------------
 * A step t of a pass reads and writes keys t - d_push .. t + 2 only (the
 * push of key t - d_push, the link across of the next key; below). So
 * pass n + 1 may run its step t once pass n has done step t + 2 + d_push,
 * and the two steps then share no key. On one thread the walk does two
 * passes at once (walk_two): pass n + 1's step t - d_push - 3 in the same
 * turn of the loop as pass n's step t. Each turn then has up to twice the
 * links that do not wait for each other, and the steps at a pass's ends,
 * where the shear and the bend families have not begun or have ended (a
 * quarter of a 40 x 40 pass), overlap with the next pass's. Each pass
 * still does its own steps in order, so the bits are those of one pass
 * after the other.
 *
 * Several threads
 * ---------------
 * The sphere's push of key k is done at step k + d_push of the walk, one
 * step after the last link of the pass that moves a particle of k (bend
 * down from lane 14 or 15: anchored P - 28 keys on). A step t reads and
 * writes keys up to t + 2 only (t + 2: the link across of the next key,
 * skewed_step), so pass n + 1 may run its step t once pass n has done
 * step t + 2 + d_push: every key it touches has then had pass n's last
 * link and push, and pass n touches no key under t + 3 again. Each pass publishes its steps done (PassDone, every
 * PUBLISH steps), and the next waits on them.
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
 * went from core to core once a pass, and two threads did more work than
 * one. Cut into pieces, the two threads' work comes near one thread's.
 * Tried and left out: prefetching the keys the piece before left for the
 * shear, the bend families and the push (slower); the copy in and back by
 * one thread (the stages before leave the cloth's rows in both cores); the
 * stages around the passes given each thread the rows of its share (no
 * change). The inverse masses (W, W_UP1, W_UP2) are written only where
 * they changed: the walks on both cores read them, and a store took each
 * line from the other core.
 *
 * Why
 * ---
 * Family by family (the kernels src/fast/README.md tells of), a pass spent
 * much of its horizontal and shear walks copying; this walk copies once a
 * run. Each step has six independent vectors (the shear two), so the
 * chains (a link waits on the one before it: a square root, then a
 * division) overlap without grouping strips. SLACK: a key written with a
 * masked store and read back within a step or two stalls the load, so the
 * shear and the bend families start four steps later than the order needs.
 * The shear's upper ends go from d2 to the next d1 in registers, and each
 * key keeps the inverse masses of the rows above (W_UP1, W_UP2). The keys
 * a family's links across (and the shear's d1) moved stay in registers
 * until its links down (d2) have had them too, instead of being stored and
 * loaded again (across_down, shear). With remainders a key is ten vectors,
 * and holding keys that way made the walk slower (they no longer fit the
 * registers): there each link still loads its keys and stores them
 * (across_kept, down_kept).
 */
#ifndef HELIX_LEVEL
#error "a level's file defines HELIX_LEVEL and one of relax_lanes.h's LANES_ before including this"
#endif

#include <assert.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "relax_helix.h"
#include "relax_lanes.h"

#define HELIX_CAT_(a, b) a##_##b
#define HELIX_CAT(a, b) HELIX_CAT_(a, b)
/* relax_helix_level_avx2 ... */
#define HELIX_NAME(x) HELIX_CAT(relax_helix_##x, HELIX_LEVEL)
/* The walk's loop: a level's file may build it more than once. */
#ifndef HELIX_LOOP
#define HELIX_LOOP
#endif

/* Lanes of a vector, and the layout's constants that follow from them:
 * a row of lane VLANES - 1 starts LAST_ROW_START keys after its period. */
#define L VLANES
#define LAST_ROW_START (2 * L - 2)

/* The kinds of link a key holds (the shear's two diagonals apart). */
enum { HS, VS, D1, D2, HB, VB, KINDS };

/* Whether the bend pair carries the keys its links moved from step to
 * step in registers (1: skewed_step, as the structural pair and the shear
 * do), or stores them and loads them again (0: skewed_mem). Two passes at
 * once carry 56 vectors, the bend pair 24 of them: AVX-512 and NEON have
 * 32 registers, AVX2 and x86-64's baseline 16. At AVX2 (relax_helix_avx2.c
 * sets 0) the carried keys went to the stack and back and moved up one a
 * step through it; with the bend pair through the buffer the walk is
 * faster than with every family through it or all carried; at the portable
 * level carrying all was faster. The shear must carry its ends from d2 to
 * the next d1: d2 writes them with masked stores (upper_out), which a load
 * one step later cannot take from the store buffer. */
#ifndef HELIX_CARRY_BEND
#define HELIX_CARRY_BEND 1
#endif

/* Steps the shear and bend families wait beyond what the order needs. */
#define SLACK 4
/* Keys after the last, read by the links across and never in the grid. */
#define PAD_AFTER 8
/* Floats a key: x, y, z and the inverse mass of its lanes, then the
 * inverse masses of the particles one and two rows above them (lanes
 * j - 1 and j - 2, as upper_in takes them): fixed during a run, so the
 * links down need not shift them. */
#define KEY (6 * L)
enum { X = 0, Y = L, Z = 2 * L, W = 3 * L, W_UP1 = 4 * L, W_UP2 = 5 * L };
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

typedef struct Helix {
    int cols, rows;
    int period;                  /* P */
    int keys;                    /* a multiple of L */
    int used;                    /* keys up to the last particle's: the walk's */
    int pad;                     /* keys before key 0, read by the links down of the first keys */
    float *buffer;               /* (pad + keys + PAD_AFTER) keys of KEY floats */
    float *key0;                 /* key 0's in it (pad keys on) */
    double *remainder;           /* the same keys' x, y, z remainders (cloth.h), L lanes each */
    int32_t *link;               /* keys x KINDS x L: the link anchored there, or -1 */
    float *rest;                 /* the same: its rest length */
    vmask *live;                 /* keys x KINDS: the lanes whose link is there and not torn, as a
                                    mask (a load a link, not a broadcast and a comparison) */
    float *inv_mass;             /* the cloth's inverse masses the live lanes were made with */
    float *lambda;               /* keys x KINDS x L: xpbd's multipliers during a run */
    int32_t *piece;              /* keys x 2: lane j of block k0 / L, its two pieces' first particle */
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
} Helix;

/* The particle of lane j at key k: false where none is. */
static bool lane_particle(const Helix *h, int k, int j, int *row, int *col)
{
    if (k < 2 * j)
        return false;
    int m = (k - 2 * j) / h->period;
    *row = L * m + j, *col = k - 2 * j - m * h->period;
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

static void destroy(void *walk)
{
    Helix *h = walk;
    if (!h)
        return;
    free(h->buffer), free(h->link), free(h->rest), free(h->lambda), free(h->live), free(h->piece), free(h->piece_in);
    free(h->done), free(h->remainder), free(h->arrived), free(h->inv_mass);
    free(h);
}

static void *create(const Cloth *c)
{
    Helix *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->cols = c->cols, h->rows = c->rows;
    h->period = c->cols > 2 * L ? c->cols : 2 * L;
    h->keys = (LAST_ROW_START + (c->rows + L - 1) / L * h->period + L - 1) / L * L;
    h->pad = h->period + 8;
    const int P = h->period;
    h->d_shear = P - (LAST_ROW_START - 1) + SLACK, h->d_bend = h->d_shear + P - (LAST_ROW_START - 2) + SLACK,
    h->d_push = h->d_bend + P - (LAST_ROW_START - 3);
    /* the last particle is the last row's (lane rows - 1 - L m, m the
     * last period) last column */
    const int last_period = (c->rows - 1) / L, last_lane = c->rows - 1 - L * last_period;
    h->used = c->cols + 2 * last_lane + last_period * P;
    h->steps = h->used + h->d_push;
    const size_t keys = (size_t)h->keys, lanes = KINDS * keys * L;
    h->buffer = cloth_zeroed(((size_t)h->pad + keys + PAD_AFTER) * KEY * sizeof(float));
    h->remainder = cloth_zeroed(((size_t)h->pad + keys + PAD_AFTER) * 3 * L * sizeof(double));
    h->link = malloc(lanes * sizeof *h->link);
    h->rest = cloth_zeroed(lanes * sizeof(float));
    h->lambda = cloth_zeroed(lanes * sizeof(float));
    h->live = cloth_zeroed(KINDS * keys * sizeof *h->live);
    h->piece = calloc(keys * 2, sizeof *h->piece);
    h->piece_in = calloc(keys * 2, sizeof *h->piece_in);
    h->done = aligned_alloc(64, RELAX_HELIX_MAX_PASSES * sizeof *h->done);
    h->arrived = aligned_alloc(64, 2 * sizeof *h->arrived);
    h->key0 = h->buffer ? h->buffer + (size_t)h->pad * KEY : NULL;
    h->inv_mass = malloc((size_t)c->count * sizeof *h->inv_mass);
    if (!h->buffer || !h->inv_mass || !h->remainder || !h->link || !h->rest || !h->lambda || !h->live || !h->piece ||
        !h->piece_in || !h->done || !h->arrived) {
        destroy(h);
        return NULL;
    }
    for (int n = 0; n < RELAX_HELIX_MAX_PASSES; n++)
        atomic_init(&h->done[n].steps, 0ull);
    atomic_init(&h->arrived[0].arrived, 0ull);
    atomic_init(&h->arrived[1].arrived, 0ull);
    for (int kind = 0; kind < KINDS; kind++)
        for (int k = 0; k < h->keys; k++)
            for (int j = 0; j < L; j++) {
                int row, col;
                h->link[((size_t)k * KINDS + (size_t)kind) * L + (size_t)j] =
                    lane_particle(h, k, j, &row, &col) ? anchored_link(c, kind, row, col) : -1;
            }
    /* lane j of keys k0 .. k0 + L - 1 is row L m + j from column
     * k0 - 2 j - m P, for the one or two periods m they span */
    for (int k0 = 0; k0 < h->keys; k0 += L)
        for (int j = 0; j < L; j++) {
            int first = k0 - 2 * j, m = first >= 0 ? first / h->period : -1;
            for (int i = 0; i < 2; i++, m++) {
                size_t at = ((size_t)k0 + (size_t)j) * 2 + (size_t)i;
                int row = L * m + j, c0 = first - m * h->period;
                unsigned in = 0;
                for (int l = 0; l < L && m >= 0 && row < c->rows; l++)
                    if (c0 + l >= 0 && c0 + l < c->cols)
                        in |= 1u << l;
                h->piece_in[at] = (uint16_t)in;
                h->piece[at] = in ? row * c->cols + c0 : 0;
            }
        }
    return h;
}

/* The rest lengths and the links that take part (solver_link_correction's
 * tests but the length's: not torn, not both ends fixed), when links tore
 * or an inverse mass changed (a particle pinned, grabbed or let go). */
static void refresh(Helix *h, const Cloth *c)
{
    const size_t masses = (size_t)c->count * sizeof *c->inv_mass;
    if (h->fresh && h->torn_generation == c->torn_generation && !memcmp(h->inv_mass, c->inv_mass, masses))
        return;
    const size_t keys = (size_t)h->keys;
    for (size_t at = 0; at < KINDS * keys; at++) {
        unsigned live = 0;
        for (int j = 0; j < L; j++) {
            int l = h->link[at * L + (size_t)j];
            h->rest[at * L + (size_t)j] = l >= 0 ? c->rest_length[l] : 0.0f;
            if (l >= 0 && !c->torn[l] && c->inv_mass[c->link_a[l]] + c->inv_mass[c->link_b[l]] != 0.0f)
                live |= 1u << j;
        }
        h->live[at] = m_lanes(live);
    }
    memcpy(h->inv_mass, c->inv_mass, masses);
    h->torn_generation = c->torn_generation;
    h->fresh = true;
}

static inline float *key_at(const Helix *h, int k)
{
    return h->key0 + (ptrdiff_t)k * KEY;
}

/* Thread t's first of n things shared by `threads` threads (t = threads:
 * the end). */
static int share(int n, int t, int threads)
{
    return (int)((long)n * t / threads);
}

/* xpbd's multipliers of keys k0 .. k0 + L - 1 into the walk's layout (in)
 * or back (!in). */
static void move_lambda(Helix *h, float *lambda, bool in, int k0)
{
    for (int kind = 0; kind < KINDS; kind++)
        for (size_t k = (size_t)k0; k < (size_t)k0 + L; k++)
            for (size_t j = 0, v = k * KINDS + (size_t)kind; j < L; j++) {
                int32_t link = h->link[v * L + j];
                if (in)
                    h->lambda[v * L + j] = link >= 0 ? lambda[link] : 0.0f;
                else if (link >= 0)
                    lambda[link] = h->lambda[v * L + j];
            }
}

/* The inverse masses change between runs only where a particle was
 * pinned, let go or grabbed: their vectors are written only then. The walks
 * on several threads read them, so that each core has a copy; a store
 * would take it from the others (on a 2-core AMD EPYC, Zen 5, 200 x 200
 * on two threads: W_UP1 and W_UP2 of half the keys took 48,000 rdtsc
 * ticks a run on each thread, against 16,000 for all of them on one
 * thread; thread 0's whole copy in 95,000 with the stores, 40,000 without). */
LANES_INLINE void store_if_changed(float *at, vf v)
{
    if (!v_same_bits(v, v_load(at)))
        v_store(at, v);
}

/* Keys k0 .. k0 + L - 1 from the cloth (in: positions and inverse masses),
 * or their positions back. A lane's two pieces of rows have no lane in
 * common: their masked loads (0 where not loaded) are or-ed together. */
static void copy(Helix *h, Cloth *c, bool in, int k0)
{
    float *v[4] = {c->x, c->y, c->z, c->inv_mass};
    const int coords = in ? 4 : 3;
    const int32_t *at = h->piece + (size_t)k0 * 2;
    const uint16_t *mask = h->piece_in + (size_t)k0 * 2;
    float *key = key_at(h, k0);
    for (int q = 0; q < coords; q++) {
        vf m[L];
        if (in) {
#pragma GCC unroll 16
            for (int j = 0; j < L; j++)
                m[j] = (vf)((vi)v_load_bits(v[q] + at[2 * j], mask[2 * j]) |
                            (vi)v_load_bits(v[q] + at[2 * j + 1], mask[2 * j + 1]));
            v_transpose(m);
#pragma GCC unroll 16
            for (int i = 0; i < L; i++)
                if (q < 3)
                    v_store(key + KEY * i + L * q, m[i]);
                else
                    store_if_changed(key + KEY * i + W, m[i]);
        } else {
#pragma GCC unroll 16
            for (int i = 0; i < L; i++)
                m[i] = v_load(key + KEY * i + L * q);
            v_transpose(m);
#pragma GCC unroll 16
            for (int j = 0; j < L; j++) {
                v_store_bits(v[q] + at[2 * j], mask[2 * j], m[j]);
                v_store_bits(v[q] + at[2 * j + 1], mask[2 * j + 1], m[j]);
            }
        }
    }
}

static inline double *remainder_at(const Helix *h, int k)
{
    return h->remainder + (size_t)(k + h->pad) * 3 * L;
}

/* The remainders of keys k0 .. k0 + L - 1 into the buffer (in) or back,
 * particle by particle (runs with remainders only: below 1 ms). */
static void copy_remainders(Helix *h, Cloth *c, bool in, int k0)
{
    double *r[3] = {c->rx, c->ry, c->rz};
    for (int j = 0; j < L; j++)
        for (int i = 0; i < 2; i++) {
            size_t at = ((size_t)k0 + (size_t)j) * 2 + (size_t)i;
            for (int l = 0; l < L; l++) {
                if (!(h->piece_in[at] >> l & 1))
                    continue;
                double *key = remainder_at(h, k0 + l);
                size_t particle = (size_t)h->piece[at] + (size_t)l;
                for (int q = 0; q < 3; q++)
                    if (in)
                        key[L * q + j] = r[q][particle];
                    else
                        r[q][particle] = key[L * q + j];
            }
        }
}

/* L particles: position and inverse mass. */
typedef struct Ends {
    vf x, y, z, w;
} Ends;

/* A family's constants in this pass. */
typedef struct Family {
    vf k, alpha;
    bool xpbd;
} Family;

LANES_INLINE Ends load_key(const float *key)
{
    return (Ends){v_load(key + X), v_load(key + Y), v_load(key + Z), v_load(key + W)};
}

LANES_INLINE void store_key(float *key, const Ends *e)
{
    v_store(key + X, e->x), v_store(key + Y, e->y), v_store(key + Z, e->z);
}

/* The upper ends of the links down of a key: rows s above, from lanes
 * j - s of key `near` and for the first s lanes, lanes L - s + j of key
 * `far` (the period before). s is 1 or 2 (a constant where inlined). */
LANES_INLINE Ends upper_in(const float *near, const float *far, int s)
{
    if (s == 1)
        return (Ends){V_SHIFT_IN(v_load(near + X), v_load(far + X), 1),
                      V_SHIFT_IN(v_load(near + Y), v_load(far + Y), 1),
                      V_SHIFT_IN(v_load(near + Z), v_load(far + Z), 1), v_load(near + W_UP1)};
    return (Ends){V_SHIFT_IN(v_load(near + X), v_load(far + X), 2), V_SHIFT_IN(v_load(near + Y), v_load(far + Y), 2),
                  V_SHIFT_IN(v_load(near + Z), v_load(far + Z), 2), v_load(near + W_UP2)};
}

/* W_UP1 and W_UP2 of keys k0 .. k0 + L - 1 from the inverse masses (after
 * their copy in, and that of the keys a period before): from key -4 at
 * k0 = 0, the first a link down reads. */
static void shifted_masses(Helix *h, int k0)
{
    for (int k = k0 == 0 ? -4 : k0; k < k0 + L; k++) {
        float *key = key_at(h, k);
        const float *far = key_at(h, k + 2 * L - h->period);
        store_if_changed(key + W_UP1, V_SHIFT_IN(v_load(key + W), v_load(far + W), 1));
        store_if_changed(key + W_UP2, V_SHIFT_IN(v_load(key + W), v_load(far + W), 2));
    }
}

/* upper_in's inverse (where near is far, at a period of 2 L, the two
 * stores make one whole key). */
LANES_INLINE void upper_out(float *near, float *far, const Ends *e, int s)
{
    const vf x = s == 1 ? V_ROTATE(e->x, 1) : V_ROTATE(e->x, 2);
    const vf y = s == 1 ? V_ROTATE(e->y, 1) : V_ROTATE(e->y, 2);
    const vf z = s == 1 ? V_ROTATE(e->z, 1) : V_ROTATE(e->z, 2);
    v_store_first(near + X, x, L - s), v_store_first(near + Y, y, L - s), v_store_first(near + Z, z, L - s);
    v_store_last(far + X, x, s), v_store_last(far + Y, y, s), v_store_last(far + Z, z, s);
}

/* solver_link_correction for L links a to b at once, operation for
 * operation: the scale of the moves along d (b - a); *moving loses the
 * lanes the plain loop skips (no inverse mass, no length), whose multiplier
 * (xpbd) stays as it was. */
LANES_INLINE vf correction(const Ends *a, const Ends *b, vf rest, vmask *moving, const Family *f, vf *lambda, vf d[3])
{
    vmask live = *moving; /* the torn links and those whose ends are both fixed left out (refresh) */
    vf w = a->w + b->w;
    vf dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
    vf squared = v_fma(dz, dz, v_fma(dy, dy, dx * dx));
    /* !(length < 1e-12f), asked of the squared length: the same for every
     * float the sum can be (tested), and not waiting for the root */
    live = m_and(live, v_not_lt(squared, v_splat(RELAX_HELIX_SHORTEST_SQUARED)));
    vf length = v_sqrt(squared);
    vf error = length - rest;
    vf scale;
    if (f->xpbd) {
        vf alpha_link = f->alpha * rest;
        vf dlambda = (-error - alpha_link * *lambda) / (w + alpha_link);
        *lambda = v_select(live, *lambda + dlambda, *lambda);
        scale = -dlambda / length;
    } else {
        scale = f->k * error / (length * w);
    }
    d[0] = dx, d[1] = dy, d[2] = dz;
    *moving = live;
    return scale;
}

/* Then solver_relax_link's moves (not kept): a by fmaf(wa * scale, d, a)
 * and b by fmaf(-(wb * scale), d, b), each lane outside live as it was.
 * Written as x - n * d with n the move's factor negated (exactly: a
 * negation rounds nothing) and d both +0 outside live: there x - (+0)
 * is x, whatever x is (-0 too), and inside it the same one rounding of the
 * same sum. This takes two and-s a factor and three for d, where a select
 * of each coordinate took six selects (two micro-operations each on
 * Intel's cores, and on the chain from one link to the next). */
LANES_INLINE void solve(Ends *a, Ends *b, vf rest, vmask live, const Family *f, vf *lambda)
{
    vf d[3];
    vf scale = correction(a, b, rest, &live, f, lambda, d);
    vf na = v_keep(live, a->w * -scale), nb = v_keep(live, b->w * scale);
    vf dx = v_keep(live, d[0]), dy = v_keep(live, d[1]), dz = v_keep(live, d[2]);
    a->x = v_fnma(na, dx, a->x);
    a->y = v_fnma(na, dy, a->y);
    a->z = v_fnma(na, dz, a->z);
    b->x = v_fnma(nb, dx, b->x);
    b->y = v_fnma(nb, dy, b->y);
    b->z = v_fnma(nb, dz, b->z);
}

/* A family's constants in this pass: k and alpha of its kind of link. */
static Family family_of(const RelaxPassConstants *p, int family)
{
    return (Family){v_splat(p->k[family]), v_splat(p->alpha[family]), p->xpbd};
}

/* The links of `kind` anchored at key k. */
typedef struct Walk {
    Helix *h;
    Family family[KINDS];
    bool on[KINDS];
    bool kept; /* corrections kept as x + r (below 1 ms substeps) */
} Walk;

/* Where a family pair is at
 * key k: its key, and its links' rest lengths, live lanes and xpbd's
 * multipliers (KINDS a key, kind by kind), reached from k once a step. */
typedef struct At {
    float *key;
    const float *rest;
    const vmask *live;
    float *lambda;
} At;

LANES_INLINE At at_key(const Helix *h, int k)
{
    const size_t link = (size_t)k * KINDS;
    return (At){key_at(h, k), h->rest + link * L, h->live + link, h->lambda + link * L};
}

/* The links of `kind` anchored at at. */
LANES_INLINE void solve_kind(const Walk *w, int kind, const At *at, Ends *a, Ends *b)
{
    const Family *f = &w->family[kind];
    vf lambda = v_zero();
    if (f->xpbd)
        lambda = v_load(at->lambda + kind * L);
    solve(a, b, v_load(at->rest + kind * L), at->live[kind], f, &lambda);
    if (f->xpbd)
        v_store(at->lambda + kind * L, lambda);
}

LANES_INLINE void solve_at(const Walk *w, int kind, int k, Ends *a, Ends *b)
{
    const At at = at_key(w->h, k);
    solve_kind(w, kind, &at, a, b);
}

/* The links across (gap 1 or 2) anchored at key k, then those down (s =
 * gap rows up), without remainders. near[0] holds key k and near[1] (gap
 * 2) key k + 1, as the links across before moved them: kept in registers,
 * not stored and read back. Key k is stored after its links down, and the
 * others move up one. Nothing else reads or writes these keys meanwhile:
 * the shear's and the bend's keys lie at least SLACK keys away (the
 * delays), and a pass on another thread waits until they are stored. */
LANES_INLINE void across_down(const Walk *w, int across, int down, int k, int gap, int P, Ends near[2])
{
    Helix *h = w->h;
    Ends right = load_key(key_at(h, k + gap));
    if (w->on[across])
        solve_at(w, across, k, &near[0], &right);
    if (w->on[down]) {
        float *pn = key_at(h, k - 2 * gap), *pf = key_at(h, k + 2 * L - 2 * gap - P);
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
LANES_INLINE void near_in(const Helix *h, int gap, Ends near[2], int k)
{
    for (int g = 0; g < gap; g++)
        near[g] = load_key(key_at(h, k + g));
}

/* The shear's cells anchored at key k. The upper ends of d1 are those d2
 * of the cells anchored at k - 1 moved (lanes j - 1 of key k - 2 and
 * lane L - 1 of k + 2 L - 2 - P): *upper carries them from one to the
 * next, so they are neither written back nor read again in between.
 * Likewise d2's lower ends, key k, are those d1 of the cells at k - 1
 * moved: *lower carries them, and is left holding key k + 1. At the
 * piece's first key (first) both come from memory. */
LANES_INLINE void shear(const Walk *w, int k, int first, int P, Ends *upper, Ends *lower)
{
    float *pk = key_at(w->h, k);
    float *pn = pk - 2 * KEY, *pf = pk + (ptrdiff_t)(2 * L - 2 - P) * KEY;
    if (k == first)
        *upper = upper_in(pn, pf, 1), *lower = load_key(pk);
    Ends b = load_key(pk + KEY);
    solve_at(w, D1, k, upper, &b);
    upper_out(pn, pf, upper, 1);
    *upper = upper_in(pn + KEY, pf + KEY, 1);
    solve_at(w, D2, k, upper, lower);
    store_key(pk, lower);
    *lower = b; /* after the last key (used - 1), key used: no particle there */
}

/* L lanes' x, y and z remainders (cloth.h). */
typedef struct Remainders {
    vd r[3];
} Remainders;

LANES_INLINE Remainders load_remainders(const double *key)
{
    Remainders r;
    for (int q = 0; q < 3; q++)
        r.r[q] = vd_load(key + L * q);
    return r;
}

LANES_INLINE void store_remainders(double *key, const Remainders *r)
{
    for (int q = 0; q < 3; q++)
        vd_store(key + L * q, r->r[q]);
}

/* upper_in for the remainders: lanes j >= s of near's j - s, lanes j < s of
 * far's L - s + j. */
LANES_INLINE Remainders upper_remainders_in(const double *near, const double *far, int s)
{
    Remainders r;
    for (int q = 0; q < 3; q++) {
        vd n = vd_load(near + L * q), f = vd_load(far + L * q);
        r.r[q] = s == 1 ? VD_SHIFT_IN(n, f, 1) : VD_SHIFT_IN(n, f, 2);
    }
    return r;
}

/* Its inverse (at a period of 2 L near is far, and the two stores meet). */
LANES_INLINE void upper_remainders_out(double *near, double *far, const Remainders *r, int s)
{
    for (int q = 0; q < 3; q++) {
        vd v = s == 1 ? VD_ROTATE(r->r[q], 1) : VD_ROTATE(r->r[q], 2);
        memcpy(near + L * q, &v, (size_t)(L - s) * sizeof(double));
        memcpy(far + L * q + L - s, (const double *)&v + L - s, (size_t)s * sizeof(double));
    }
}

/* ADD_KEPT (solver.h) on L lanes of one coordinate: x + r moved by
 * factor * d, in double; lanes outside live keep x and r. */
LANES_INLINE void move_kept(vf *x, vd *r, vd factor, vf d, vmask live)
{
    vd xd = v_widen(*x);
    vd t = *r + factor * v_widen(d);
    vf n = v_narrow(xd + t);
    vd nr = (xd - v_widen(n)) + t;
    *x = v_select(live, n, *x);
    *r = vd_select(live, nr, *r);
}

/* solver_relax_link with kept: the correction, then a moved by
 * wa * (double)scale times d and b by -wb * (double)scale times d. */
LANES_INLINE void solve_at_kept(const Walk *w, int kind, int k, Ends *a, Ends *b, Remainders *ra, Remainders *rb)
{
    const At at = at_key(w->h, k);
    const Family *f = &w->family[kind];
    vf lambda = v_zero();
    if (f->xpbd)
        lambda = v_load(at.lambda + kind * L);
    vmask live = at.live[kind];
    vf d[3];
    vf scale = correction(a, b, v_load(at.rest + kind * L), &live, f, &lambda, d);
    if (f->xpbd)
        v_store(at.lambda + kind * L, lambda);
    vd s = v_widen(scale);
    vd fa = v_widen(a->w) * s, fb = v_widen(-b->w) * s;
    vf *xa[3] = {&a->x, &a->y, &a->z}, *xb[3] = {&b->x, &b->y, &b->z};
    for (int q = 0; q < 3; q++) {
        move_kept(xa[q], &ra->r[q], fa, d[q], live);
        move_kept(xb[q], &rb->r[q], fb, d[q], live);
    }
}

LANES_INLINE void across_kept(const Walk *w, int kind, int k, int gap)
{
    float *pa = key_at(w->h, k), *pb = key_at(w->h, k + gap);
    double *qa = remainder_at(w->h, k), *qb = remainder_at(w->h, k + gap);
    Ends a = load_key(pa), b = load_key(pb);
    Remainders ra = load_remainders(qa), rb = load_remainders(qb);
    solve_at_kept(w, kind, k, &a, &b, &ra, &rb);
    store_key(pa, &a), store_key(pb, &b);
    store_remainders(qa, &ra), store_remainders(qb, &rb);
}

LANES_INLINE void down_kept(const Walk *w, int kind, int k, int near, int far, int lower, int s)
{
    Helix *h = w->h;
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
LANES_INLINE void across_then_down(const Walk *w, int across, int down, int k, int first, int gap, int P, Ends near[2])
{
    if (w->kept) {
        if (w->on[across])
            across_kept(w, across, k, gap);
        if (w->on[down])
            down_kept(w, down, k, k - 2 * gap, k + 2 * L - 2 * gap - P, k, gap);
        return;
    }
    if (k == first)
        near_in(w->h, gap, near, k);
    across_down(w, across, down, k, gap, P, near);
}

/* Without remainders, a step does the link across of the next key before
 * the links down of its own (skewed): they share no particle, and the
 * link across no longer waits for the links down of the step before. A
 * link waits some 50 cycles for the one before it (a square root, then a
 * division), and the processor sees about a step ahead: in order, a step's
 * link down waited for its link across, the next step's link across for
 * both. (More multiplications a link on that path made the walk slower,
 * as many beside it nothing: the walk waits on latency.) near: keys
 * k .. k + gap, key k and key k + gap after the link across at k (gap 1
 * or 2), as the family's first step (skewed_in) or the step before left
 * them. */
LANES_INLINE void skewed_in(const Walk *w, int across, int k, int gap, Ends near[3])
{
    for (int g = 0; g <= gap; g++)
        near[g] = load_key(key_at(w->h, k + g));
    if (w->on[across])
        solve_at(w, across, k, &near[0], &near[gap]);
}

/* Step k of a family pair, skewed: the link across at k + 1 if `next`
 * (its step is in this piece), the links down at k; near moves up one. */
LANES_INLINE void skewed_step(const Walk *w, int across, int down, int k, int gap, int P, bool next, Ends near[3])
{
    float *pk = key_at(w->h, k);
    Ends right = near[gap];
    if (next) {
        right = load_key(pk + (1 + gap) * KEY);
        if (w->on[across])
            solve_at(w, across, k + 1, &near[1], &right);
    }
    if (w->on[down]) {
        float *pn = pk - 2 * gap * KEY, *pf = pk + (ptrdiff_t)(2 * L - 2 * gap - P) * KEY;
        Ends a = upper_in(pn, pf, gap);
        solve_at(w, down, k, &a, &near[0]);
        upper_out(pn, pf, &a, gap);
    }
    store_key(pk, &near[0]);
    for (int g = 0; g < gap; g++)
        near[g] = near[g + 1];
    near[gap] = right;
}

/* The bend pair through the buffer (HELIX_CARRY_BEND 0): */
/* The link across at at (gap 1 or 2), from and back to the buffer. */
LANES_INLINE void across_mem(const Walk *w, int kind, const At *at, int gap)
{
    float *pa = at->key, *pb = pa + gap * KEY;
    Ends a = load_key(pa), b = load_key(pb);
    solve_kind(w, kind, at, &a, &b);
    store_key(pa, &a), store_key(pb, &b);
}

/* The links down at at, rows s up: the upper ends from keys near and
 * far, the lower from `lower`. */
LANES_INLINE void down_mem(const Walk *w, int kind, const At *at, float *pn, float *pf, float *pb, int s)
{
    Ends a = upper_in(pn, pf, s), b = load_key(pb);
    solve_kind(w, kind, at, &a, &b);
    upper_out(pn, pf, &a, s), store_key(pb, &b);
}

/* Step k of a family pair through the buffer, in skewed_step's order: the
 * link across at k + 1 if `next`, the links down at k (the link across at
 * k itself, at a piece's first step, by the caller). */
LANES_INLINE void skewed_mem(const Walk *w, int across, int down, const At *at, int gap, int P, bool next)
{
    float *pk = at->key;
    if (next && w->on[across]) {
        const At right = {pk + KEY, at->rest + KINDS * L, at->live + KINDS, at->lambda + KINDS * L};
        across_mem(w, across, &right, gap);
    }
    if (w->on[down])
        down_mem(w, down, at, pk - 2 * gap * KEY, pk + (ptrdiff_t)(2 * L - 2 * gap - P) * KEY, pk, gap);
}

/* The shear's cells anchored at key k; with remainders, the upper ends of
 * d1 go through memory, not from d2 in registers. */
LANES_INLINE void cells(const Walk *w, int k, int first, int P, Ends *upper, Ends *lower)
{
    if (w->kept) {
        down_kept(w, D1, k, k - 2, k + 2 * L - 2 - P, k + 1, 1);
        down_kept(w, D2, k, k - 1, k + 2 * L - 1 - P, k, 1);
    } else {
        shear(w, k, first, P, upper, lower);
    }
}

/* The sphere's push (friction 0), as sphere_push does it, L lanes at a
 * time: its constants. */
typedef struct Push {
    vf cx, cy, cz, radius, skin, far;
} Push;

static Push push_of(const Collider *sphere, float margin)
{
    /* a key whose squared distances all exceed this, a little more than
     * (radius + margin)^2, has no lane in contact */
    float reach = (sphere->radius + margin) * 1.001f + 1e-6f;
    return (Push){v_splat(sphere->center[0]),
                  v_splat(sphere->center[1]),
                  v_splat(sphere->center[2]),
                  v_splat(sphere->radius),
                  v_splat(margin),
                  v_splat(reach * reach)};
}

/* sphere_push on the lanes of key k; lanes outside the grid have no
 * inverse mass. */
LANES_INLINE void push_key(const Helix *h, const Push *s, int k)
{
    const vf zero = v_zero(), one = v_splat(1.0f), tiny = v_splat(1e-9f);
    float *key = key_at(h, k);
    vf x = v_load(key + X), y = v_load(key + Y), z = v_load(key + Z);
    vf dx = x - s->cx, dy = y - s->cy, dz = z - s->cz;
    vf d2 = (dx * dx + dy * dy) + dz * dz;
    if (m_all(v_gt(d2, s->far)))
        return;
    vf d = v_sqrt(d2);
    vf distance = d - s->radius;
    vmask hit = m_and(v_not_ge(distance, s->skin), v_ne(v_load(key + W), zero));
    if (!m_any(hit))
        return;
    vmask away = v_gt(d, tiny);
    vf nx = v_select(away, dx / d, zero), ny = v_select(away, dy / d, one), nz = v_select(away, dz / d, zero);
    vf push = s->skin - distance;
    v_store(key + X, v_select(hit, x + push * nx, x));
    v_store(key + Y, v_select(hit, y + push * ny, y));
    v_store(key + Z, v_select(hit, z + push * nz, z));
}

/* Spins WAIT_SPINS times, then yields its core at every call. */
static void wait_a_little(int *spins)
{
    if (++*spins < WAIT_SPINS)
        lanes_pause();
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
LANES_INLINE void flush(const Walk *w, int to, const Ends structural[3], const Ends bend[3], const Ends *upper,
                        const Ends *lower)
{
    const Helix *h = w->h;
    const int K = h->used, P = h->period;
    int k = to - 1; /* the structural families' last key: near[0] holds k + 1 */
    if (k >= 0 && k < K - 1)
        store_key(key_at(h, k + 1), &structural[0]);
    k = to - 1 - h->d_shear;
    if (w->on[D1] && k >= 0 && k < K - 1) {
        upper_out(key_at(h, k - 1), key_at(h, k + 2 * L - 1 - P), upper, 1);
        store_key(key_at(h, k + 1), lower);
    }
    k = to - 1 - h->d_bend; /* near[0] and near[1]: keys k + 1 and k + 2 */
    if (HELIX_CARRY_BEND && k >= 0 && k < K - 1)
        store_key(key_at(h, k + 1), &bend[0]), store_key(key_at(h, k + 2), &bend[1]);
}

/* What a pass carries from one step to the next: the keys the family
 * pairs' links across moved (skewed_step), the shear's ends (shear), and
 * where its piece began. */
typedef struct PassWalk {
    Ends structural[3], bend[3], upper, lower;
    int from, to, first_shear, first_bend;
} PassWalk;

LANES_INLINE void pass_begin(const Helix *h, PassWalk *p, int from, int to)
{
    const Ends zero = {v_zero(), v_zero(), v_zero(), v_zero()};
    for (int g = 0; g < 3; g++)
        p->structural[g] = zero, p->bend[g] = zero;
    p->upper = p->lower = zero;
    p->from = from, p->to = to;
    p->first_shear = from > h->d_shear ? from - h->d_shear : 0;
    p->first_bend = from > h->d_bend ? from - h->d_bend : 0;
}

/* Step t of a pass: the links across and down anchored at key t, the
 * shear's at t - d_shear, the bend families' at t - d_bend, and the push
 * of key t - d_push out of the sphere, one step after the last link of
 * the pass that moves it. It reads and writes keys t - d_push .. t + 2
 * only. */
LANES_INLINE void pass_step(const Walk *w, const Push *push, PassWalk *p, int t)
{
    const Helix *h = w->h;
    const int P = h->period, K = h->used;
    const int k = t - h->d_shear, kb = t - h->d_bend;
    if (w->kept) {
        if (t < K)
            across_then_down(w, HS, VS, t, p->from, 1, P, p->structural);
        if (k >= 0 && k < K && w->on[D1])
            cells(w, k, p->first_shear, P, &p->upper, &p->lower);
        if (kb >= 0 && kb < K)
            across_then_down(w, HB, VB, kb, p->first_bend, 2, P, p->bend);
    } else {
        const bool next = t + 1 < p->to;
        if (t < K) {
            if (t == p->from)
                skewed_in(w, HS, t, 1, p->structural);
            skewed_step(w, HS, VS, t, 1, P, next && t + 1 < K, p->structural);
        }
        if (k >= 0 && k < K && w->on[D1])
            cells(w, k, p->first_shear, P, &p->upper, &p->lower);
        if (kb >= 0 && kb < K && !HELIX_CARRY_BEND) {
            const At at = at_key(h, kb);
            if (kb == p->first_bend && w->on[HB])
                across_mem(w, HB, &at, 2);
            skewed_mem(w, HB, VB, &at, 2, P, next && kb + 1 < K);
        } else if (kb >= 0 && kb < K) {
            if (kb == p->first_bend)
                skewed_in(w, HB, kb, 2, p->bend);
            skewed_step(w, HB, VB, kb, 2, P, next && kb + 1 < K, p->bend);
        }
    }
    if (push && t - h->d_push >= 0)
        push_key(h, push, t - h->d_push);
}

/* Steps from .. to - 1 of a pass (one piece), pass_step by pass_step. The
 * piece waits first for the one before it in the pass (`mine` at `from`:
 * steps before, another thread), then before step t for the pass before
 * (if any) to have pushed every key this step reads (up to t + 2: d_push +
 * 3 steps more; `ahead`, on several threads: MARGIN more, and it
 * prefetches). It publishes its steps every PUBLISH, and its last once its
 * registers are stored. Returns its ticks, the waits left out. */
LANES_INLINE unsigned long long walk_steps(const Walk *w, const Push *push, PassDone *mine, const PassDone *before,
                                           unsigned long long base, bool ahead, int from, int to)
{
    const Helix *h = w->h;
    const int K = h->used, steps = h->steps, lag = h->d_push + 3 + (ahead ? MARGIN : 0);
    if (from > 0)
        wait_for_pass(mine, base, from);
    unsigned long long start = lanes_ticks(), waited = 0;
    int seen = before ? 0 : steps; /* the pass before's steps done */
    PassWalk p;
    pass_begin(h, &p, from, to);
    for (int t = from; t < to; t++) {
        if (seen < steps && seen < t + lag) {
            unsigned long long w0 = lanes_ticks();
            seen = wait_for_pass(before, base, t + lag < steps ? t + lag : steps);
            waited += lanes_ticks() - w0;
        }
        if (ahead && t + 1 + AHEAD < K) {
            const char *next = (const char *)key_at(h, t + 1 + AHEAD);
            __builtin_prefetch(next + X * sizeof(float), 0, 3);
            __builtin_prefetch(next + Y * sizeof(float), 0, 3);
            __builtin_prefetch(next + Z * sizeof(float), 0, 3);
        }
        pass_step(w, push, &p, t);
        if (t % PUBLISH == PUBLISH - 1 && t < to - 1)
            atomic_store_explicit(&mine->steps, base + (unsigned long long)t + 1u, memory_order_release);
    }
    if (to < steps && !w->kept)
        flush(w, to, p.structural, p.bend, &p.upper, &p.lower);
    atomic_store_explicit(&mine->steps, base + (unsigned long long)to, memory_order_release);
    return lanes_ticks() - start - waited;
}

/* All `passes` passes on one thread, two at a time: pass n + 1 walks its
 * step t - lag in the same turn of the loop as pass n its step t, just
 * before it, lag = d_push + 3 (the keys pass n + 1's step reads, up to
 * t - lag + 2 = t - d_push - 1, have had pass n's last link and push by
 * its step t - 1, and pass n's step t touches none of them: the two steps
 * share no key, and the processor works on both steps' chains at once).
 * The newer pass's step first (its chains, which wait on the older
 * pass's keys of some steps before, start sooner). Pass n + 2 begins once pass n has ended and
 * pass n + 1 is lag steps on: each pass's steps in the walk's order, as
 * walk_steps does them, so the bits are the same. Returns its ticks. */
LANES_INLINE unsigned long long walk_two(const Walk *w, const Push *push, int passes)
{
    const Helix *h = w->h;
    const int steps = h->steps, lag = h->d_push + 3;
    unsigned long long start = lanes_ticks();
    /* older: pass n at its step t; newer, if on: pass n + 1 at its step u.
     * Locals, not an array the turns index: the compiler keeps them apart
     * from the buffer's stores. */
    PassWalk older, newer;
    int t = 0, u = 0, started = 1;
    bool on = false;
    pass_begin(h, &older, 0, steps);
    for (;;) {
        if (!on && started < passes && t >= lag) {
            pass_begin(h, &newer, 0, steps);
            u = 0, on = true, started++;
        }
        if (on)
            pass_step(w, push, &newer, u++);
        pass_step(w, push, &older, t++);
        if (t == steps) {
            if (on) {
                older = newer, t = u, on = false;
            } else if (started < passes) {
                pass_begin(h, &older, 0, steps);
                t = 0, started++;
            } else {
                break;
            }
        }
    }
    return lanes_ticks() - start;
}

/* walk_steps built three times: with remainders, and without for xpbd and
 * for the other methods, each knowing which (every family has the run's
 * xpbd, family_of), so that no link asks: with one build for all, GCC
 * laid jakobsen's links out of line, behind jumps. The live lanes are kept
 * as whole masks (Helix.live), a load a link. The walk
 * reads the Helix's fields from a copy on the stack: a store to the buffer
 * (through relax_lanes.h's may_alias vectors) could change the Helix
 * itself as far as the compiler knows, and it would read them again after
 * each; the copy's address goes nowhere else. */
HELIX_LOOP static unsigned long long walk(const Walk *w, const Push *push, PassDone *mine, const PassDone *before,
                                          unsigned long long base, bool ahead, int from, int to)
{
    Helix local = *w->h;
    Walk known = *w;
    known.h = &local;
    if (w->kept)
        return walk_steps(&known, push, mine, before, base, ahead, from, to);
    known.kept = false;
    if (w->family[HS].xpbd) {
        for (int kind = 0; kind < KINDS; kind++)
            known.family[kind].xpbd = true;
        return walk_steps(&known, push, mine, before, base, ahead, from, to);
    }
    for (int kind = 0; kind < KINDS; kind++)
        known.family[kind].xpbd = false;
    return walk_steps(&known, push, mine, before, base, ahead, from, to);
}

/* walk_two, built as walk is. */
HELIX_LOOP static unsigned long long walk_alone(const Walk *w, const Push *push, int passes)
{
    Helix local = *w->h;
    Walk known = *w;
    known.h = &local;
    if (w->kept)
        return walk_two(&known, push, passes);
    known.kept = false;
    if (w->family[HS].xpbd) {
        for (int kind = 0; kind < KINDS; kind++)
            known.family[kind].xpbd = true;
        return walk_two(&known, push, passes);
    }
    for (int kind = 0; kind < KINDS; kind++)
        known.family[kind].xpbd = false;
    return walk_two(&known, push, passes);
}

/* The links' vectors the walk's steps before t go through: two a key in
 * each family pair (across and down, the shear's diagonals, the bend
 * families), the push not counted. A measure to cut passes by; the costs
 * the threads measure make up for what it leaves out. */
static double work_before(const Helix *h, int t)
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
static int step_at_work(const Helix *h, double work)
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
static void cut_anywhere(Helix *h, int *cut, int threads)
{
    const int edges[] = {
        1,           h->d_shear, h->d_shear + 1, h->d_bend,    h->d_bend + 1, h->d_push,    h->d_push + 1,
        h->used - 1, h->used,    h->used + 1,    h->steps - 1, h->period,     h->period + 1};
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
static void choose_cuts(Helix *h, int passes, int threads, int lead)
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

static void cut_anywhere_from(void *helix, unsigned seed)
{
    ((Helix *)helix)->cut_seed = seed;
}

/* Keys k0 .. k0 + L - 1 into the buffer (in), all a walk reads of them, or
 * back. */
static void move_block(Helix *h, Cloth *c, float *lambda, const RelaxPassConstants *p, int k0, bool in)
{
    copy(h, c, in, k0);
    if (p->kept)
        copy_remainders(h, c, in, k0);
    if (p->xpbd)
        move_lambda(h, lambda, in, k0);
}

static void run(void *helix, Cloth *c, float *lambda, const RelaxPassConstants *p, int passes, const Collider *sphere,
                float margin, int t, int threads, unsigned serial)
{
    Helix *h = helix;
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
        choose_cuts(h, passes, threads, h->d_push + 3 + MARGIN + 2 * PUBLISH);
    }
    /* The copy in, each thread a share of the blocks; W_UP1 and W_UP2 read
     * the inverse masses of the period before, which may be another
     * thread's share. Thread 0 goes on without waiting for the others if
     * its piece of the first pass stays among its own keys: the others
     * start walking after that piece anyway. */
    const int blocks = h->keys / L, mine_from = L * share(blocks, t, threads),
              mine_to = L * share(blocks, t + 1, threads);
    for (int k0 = mine_from; k0 < mine_to; k0 += L)
        move_block(h, c, lambda, p, k0, true);
    if (threads > 1) {
        arrive(&h->arrived[0], serial);
        if (t > 0)
            wait_arrivals(&h->arrived[0], serial, threads); /* and the cuts, made before thread 0 arrived */
    }
    for (int k0 = mine_from; k0 < mine_to; k0 += L)
        shifted_masses(h, k0);
    if (threads > 1) {
        arrive(&h->arrived[1], serial);
        if (t > 0 || h->cut[0][1] + 2 + AHEAD > mine_to)
            wait_arrivals(&h->arrived[1], serial, threads);
    }
    unsigned long long busy = 0;
    double work = 0.0;
    if (threads == 1 && passes > 1) {
        busy = walk_alone(&w, sphere ? &push : NULL, passes);
        work = passes * work_before(h, h->steps);
    }
    for (int n = 0; n < passes && !(threads == 1 && passes > 1); n++) {
        const int *cut = h->cut[n == 0 ? 0 : n == passes - 1 ? 2 : 1];
        const int from = cut[t], to = cut[t + 1];
        if (from < to) {
            busy += walk(&w, sphere ? &push : NULL, &h->done[n], n > 0 ? &h->done[n - 1] : NULL, base, threads > 1,
                         from, to);
            work += work_before(h, to) - work_before(h, from);
        }
    }
    h->busy[t] = busy;
    h->work[t] = work;
    /* The copy back, each block once the last pass has pushed its last
     * key (k at step k + d_push): most of it while the others end their
     * pieces of the last pass */
    for (int k0 = mine_from; k0 < mine_to; k0 += L) {
        if (threads > 1)
            wait_for_pass(&h->done[passes - 1], base, k0 + L + h->d_push < h->steps ? k0 + L + h->d_push : h->steps);
        move_block(h, c, lambda, p, k0, false);
    }
}

const RelaxHelixLevel HELIX_NAME(level) = {create, destroy, run, cut_anywhere_from};
