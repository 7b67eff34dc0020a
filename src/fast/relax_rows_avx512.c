/* relax_rows_avx512.c - the sequential order's pass, family by family,
 * sixteen links a vector (relax_rows.h tells the idea).
 *
 * The dependencies
 * ----------------
 * A link must run after every link listed before it that shares one of
 * its particles; links that share none may run in any order, and then
 * every particle ends with the plain loop's bits. The families are listed
 * one after the other, so each family runs whole before the next (a
 * barrier of the pool between them). Inside a family:
 * - vertical (r, c)-(r + g, c), g = 1 or 2: a row's links share nothing,
 *   and row r + g's follow row r's. Rows in order, a row sixteen columns
 *   a vector: the particles are row-major, so these are plain loads.
 * - horizontal (r, c)-(r, c + g): link c shares particle c + g with link
 *   c + g of its row, and nothing with the other rows. Sixteen rows (a
 *   strip) go side by side, one lane a row, column by column.
 * - shear: cell (r, c) has d1 = (r, c)-(r+1, c+1), then d2 = (r, c+1)-(r+1, c).
 *   Listed row by row, a cell must follow the cell left of it and the
 *   cells (r-1, c-1 .. c+1) above it, whose bottom ends are its top row.
 *   Lane j of a strip does row r0 + j, and at step t its cell (r0 + j,
 *   t - 2j): each row two columns behind the one above, so the three cells
 *   above are done a step or more before (the skew). Its d1 and d2 share
 *   nothing, and no two lanes of a step share a particle.
 *
 * The strips' buffers
 * -------------------
 * A horizontal or shear step needs sixteen rows' particles of one column
 * (or skewed diagonal) in one vector. The strip is copied into a small
 * buffer where that is one vector: 16 rows x 16 columns of row-major
 * particles are loaded (row j from column k0 - skew j) and transposed in
 * registers (transpose16), so that key k of the buffer holds, lane j,
 * particle (r0 + j, k - skew j). The steps read and write the buffer; a
 * block of 16 keys is transposed back once its steps are done. The buffer
 * is a ring of RING keys: the block being walked and the next one (a step
 * reads up to three keys ahead), 8 or 16 KB a strip, in the first-level
 * cache. A shear strip's buffer has a 17th lane (the row below the strip,
 * the bottom ends of its last row), stored beside the 16 (S_STRIDE): the
 * bottom ends of a step are then one unaligned load at lane 1.
 *
 * The copies cost about as much as the steps (a transpose is 64 shuffles
 * for 256 particles, on the one port that shuffles). Measured on the
 * 2-core Xeon (AVX-512) this was written on, 200 x 200 curtain, one
 * thread: the sequential pass went from 5.6 to about 1.8 ns a link (the
 * whole step counted), the shear strips a third of it, the horizontal
 * ones (half copies) a bit less, the vertical rows a sixth. Tried and
 * left out, no faster there: copies through 128-bit pieces (loads and
 * inserts instead of half the shuffles); a shear group whose strips hand
 * their shared row over in registers, two blocks apart instead of four
 * (a few per cent faster at 40 x 40, slower at 200 x 200: through the
 * buffers instead, S_NEAR, the 40 x 40 shear strips are 9 % faster, the
 * pass 4 %, and 100 x 100 and 200 x 200 the same); larger groups;
 * on one thread, the vertical families' vectors done a few at a time
 * inside the shear and horizontal bend walks, to fill their waits (no
 * faster at 40 x 40 or 200 x 200: the walks are bound by what they
 * compute more than by their chains).
 *
 * What a step costs, measured there (rdtsc, 2.3 GHz ticks, the fastest of
 * many passes): sixteen links' solve() with its loads and stores, eight
 * independent chains of them, about 35 ticks (one chain alone: 65 to 95,
 * its latency), where the square root and the division alone take 17.
 * A 200 x 200 pass is some 16,000 such vectors, so about 1.0 ns a link
 * even with no copies; the strips take about 1.3 (min 714,000 ticks a pass:
 * horizontal structural 139, vertical 68, shear 305, horizontal bend
 * 134, vertical bend 68; the horizontal walks 75 without their copies).
 * A 40 x 40 pass (min 45,000 ticks) waits more on its chains: its shear
 * strips, one group of 3 walked in 9 blocks of 16 steps (13 with the
 * strips S_LAG apart), take 20,500 of it. Later: the vertical families
 * carry a link's bottom ends to the next link in registers (vertical_blocks:
 * the two take 35 % less time at 40 x 40, 17 % at 200 x 200, the fastest of
 * three runs each), and a shear strip of fewer rows walks fewer blocks (40 x 40:
 * the last strip 4, not 5, so the group 8 blocks, not 9). A 40 x 40 pass
 * is then about 910 vector solves (448 of them the shear's, for 190
 * vectors' worth of links: the lanes idle at a skewed strip's two ends)
 * at some 35 ticks each, with the copies beside them: about 43,000 ticks,
 * as measured. The idle lanes are not what bounds it, it turned out. A
 * helix (lane j takes rows j, j + 16, j + 32 ... one after the other, so
 * the skew is paid once down the cloth, and lane 15 hands the row below it
 * to lane 0 through a row of the cloth's width: 144 steps of one vector at
 * 40 x 40 instead of a group's 224) took the same time at 30 x 30 and 40 x
 * 40 (the shear 11,500 and 19,500 ticks, against 11,300 and 19,200) and 6 %
 * more at 200 x 200: with one vector a step, each step waits for the one
 * before (some 85 ticks with the copies), where a group's strips fill each
 * other's waits. Nor is it where the copies go: spread among the steps, as
 * a horizontal group's are, the shear took 0 to 12 % more (40 x 40: 21,800
 * against 19,300; the copies then compete with the steps for the shuffle
 * port). Both tried on one thread, December 2026, and left out.
 *
 * Why strips go in groups
 * -----------------------
 * A step's square root and division wait some 80 cycles for the step
 * before (the same row's previous link), while the divider can start a
 * vector every 20 or so. So a group of strips is walked step by step
 * together: independent chains that the processor overlaps. A horizontal
 * group walks its strips side by side, the copies in and out spread among
 * its steps (horizontal_task); in a shear group each strip runs S_NEAR
 * blocks behind the strip above it, whose last row (its 17th lane) is this
 * strip's first: it takes that row's particles from the buffer of the
 * strip above, a step at a time (shear_step), where they are final 31
 * steps on, long before the strip above writes them back; the strip above
 * has read them from the cloth long before this one changes them, and
 * this one writes them back after the strip above (in the same step of
 * the group, the strips in order). A shear strip that starts a group
 * waits for the strip above it (another thread's, or this one's earlier
 * group) through its published progress, S_LAG blocks behind: it reads
 * that row from the cloth, a block ahead, once the strip above has
 * written it back.
 *
 * The threads
 * -----------
 * The strips go in bands of up to S_GROUP (a shear group), and band g is
 * thread g mod threads' in every family, the stages between the passes
 * included (relax_rows_owner): what a thread moves stays in its core's
 * caches from one family to the next. Taking the groups from a counter as
 * they came (and the vertical families by chunks of columns) was fairer
 * to a slower core, but moved half the cloth between the cores at every
 * family: on the 2-core Xeon, two threads made 1.1 times one thread's
 * speed; by bands, 1.4 to 1.6 (clothsim run, 200 x 200, the whole step).
 * There is no barrier between the families: a band starts a family once
 * the bands beside it have finished the family before (wait_for_bands),
 * and each thread takes its bands' work as a wavefront down the cloth
 * (run_bands): the top band of the shear before the bottom band of the
 * vertical family, so that the thread of the next band need not wait for
 * the end of a family to start its part of the next. In a vertical family
 * a band follows the band above it a chunk of columns behind; a shear
 * group follows the one above as before. Family by family, thread 0 of two
 * spent a quarter of a pass waiting (for thread 1's shear band, which
 * waited for thread 0's last vertical band); as a wavefront, 5 % (rdtsc,
 * 200 x 200: the pass 14 % shorter). The bits do not depend on the
 * number of threads.
 *
 * The arithmetic is solve(): solver_link_correction and the moves of
 * solver_relax_link, operation for operation (fused multiply-adds where they
 * call fmaf, IEEE square root and division); a lane the plain loop skips keeps its values.
 * The rest lengths and the links that take part (not torn) of the
 * horizontal and shear families are laid out per strip and key when links
 * tear (relax_rows_refresh); inverse masses are read fresh every pass
 * (a particle can be pinned or grabbed at any time); xpbd's multipliers
 * stay in the solver's array (gathered and scattered a vector at a time).
 */
#include "relax_rows.h"

#include <assert.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "relax_fast.h"
#include "relax_rows_simd.h"


/* Keys a strip's buffer holds: the block of 16 being walked and the next. */
#define RING 32
/* Floats a key of a horizontal strip (its 16 rows) and of a shear strip
 * (17 rows: the strip and the row below it), padded to whole vectors. */
#define H_STRIDE 16
#define S_STRIDE 32
/* Floats a coordinate (x, y, z, inverse mass) of a strip's buffer. */
#define H_COORD (RING * H_STRIDE)
#define S_COORD (RING * S_STRIDE)
/* Strips walked together: enough independent chains to keep the divider
 * busy (a horizontal structural step is one vector of links, a shear step
 * two), few enough that the group's buffers stay in the first-level cache. */
#define H_GROUP 4
#define S_GROUP 3
/* Blocks a shear strip that starts a group runs behind the one above it
 * (the last of the group before, maybe another thread's): it reads block b + 1
 * of its first row before walking block b, and that row is the block
 * b + 3 of the strip above's last lane (two columns a row, 32 keys). */
#define S_LAG 4
/* Blocks a shear strip runs behind the one above it in its group: it
 * takes the row they share from that strip's buffer (ShearStrip.first),
 * the particle of column c at its step c - 1, which the strip above
 * finished at its step c + 30 (key c + 32 of its 17th lane). */
#define S_NEAR 2
/* A thread waiting for another (wait_for) spins this many times, then
 * yields its core at every look. */
#define WAIT_SPINS 200

/* Floats of one thread's buffers: the larger of a horizontal and a shear group. */
#define SCRATCH_FLOATS (S_GROUP * 4 * S_COORD > H_GROUP * 4 * H_COORD ? S_GROUP * 4 * S_COORD : H_GROUP * 4 * H_COORD)

/* Column blocks of 16 in a chunk of a band of a vertical family on
 * several threads: its rows go down them side by side, chains of links
 * for the processor to overlap; the thread of the band below waits a
 * chunk behind. */
#define V_CHUNK 7

typedef struct StripDone {
    _Alignas(64) atomic_uint done; /* serial * (blocks + 1) + blocks written back, this pass */
} StripDone;

struct RelaxRows {
    int cols, rows, threads;
    int strips;   /* horizontal strips: rows / 16, rounded up */
    int h_keys;   /* keys of a horizontal strip: cols rounded up to 16 */
    int s_strips; /* shear strips: (rows - 1) / 16 rounded up (rows of cells) */
    int s_keys;   /* keys of a shear strip: cols + 32 rounded up to 16 */
    /* per horizontal family (structural, bend), strip and key: the
     * lanes' rest lengths, and a bit a lane where its link is in the grid
     * and not torn */
    float *h_rest[2];
    uint16_t *h_live[2];
    /* per shear strip, key and diagonal (d1, d2): the same */
    float *s_rest;
    uint16_t *s_live;
    float *scratch;       /* SCRATCH_FLOATS a thread */
    StripDone *done;      /* per shear strip: blocks written back */
    StripDone *down_done; /* per band: chunks of a vertical family done */
    StripDone *band_done; /* per band: families done (FAMILIES a pass) */
    unsigned torn_generation;
    bool fresh;
};

#if ROWS_X86

bool relax_rows_usable(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl");
}

#else

bool relax_rows_usable(void) { return false; }

#endif

RelaxRows *relax_rows_create(const Cloth *c, int threads)
{
    if (!relax_rows_usable())
        return NULL;
    threads = threads < 1 ? 1 : threads > RELAX_FAST_MAX_THREADS ? RELAX_FAST_MAX_THREADS : threads;
    RelaxRows *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->cols = c->cols, r->rows = c->rows, r->threads = threads;
    r->strips = (c->rows + 15) / 16;
    r->h_keys = (c->cols + 15) / 16 * 16;
    r->s_strips = c->rows > 1 && c->cols > 1 ? (c->rows - 1 + 15) / 16 : 0;
    r->s_keys = (c->cols + 32 + 15) / 16 * 16;
    size_t h_keys = (size_t)r->strips * (size_t)r->h_keys, s_keys = (size_t)r->s_strips * (size_t)r->s_keys;
    bool ok = true;
    for (int f = 0; f < 2; f++) {
        ok &= (r->h_rest[f] = cloth_zeroed(h_keys * 16 * sizeof(float))) != NULL;
        ok &= (r->h_live[f] = calloc(h_keys + 1, sizeof(uint16_t))) != NULL;
    }
    ok &= (r->s_rest = cloth_zeroed(s_keys * 2 * 16 * sizeof(float))) != NULL;
    ok &= (r->s_live = calloc(s_keys * 2 + 1, sizeof(uint16_t))) != NULL;
    ok &= (r->scratch = cloth_zeroed((size_t)threads * SCRATCH_FLOATS * sizeof(float))) != NULL;
    size_t done_bytes = (size_t)(r->s_strips > 0 ? r->s_strips : 1) * sizeof *r->done;
    ok &= (r->done = aligned_alloc(64, done_bytes)) != NULL;
    ok &= (r->down_done = aligned_alloc(64, (size_t)r->strips * sizeof *r->down_done)) != NULL;
    ok &= (r->band_done = aligned_alloc(64, (size_t)r->strips * sizeof *r->band_done)) != NULL;
    if (!ok) {
        relax_rows_destroy(r);
        return NULL;
    }
    for (int s = 0; s < (r->s_strips > 0 ? r->s_strips : 1); s++)
        atomic_init(&r->done[s].done, 0u);
    for (int g = 0; g < r->strips; g++)
        atomic_init(&r->down_done[g].done, 0u), atomic_init(&r->band_done[g].done, 0u);
    return r;
}

void relax_rows_destroy(RelaxRows *r)
{
    if (!r)
        return;
    for (int f = 0; f < 2; f++)
        free(r->h_rest[f]), free(r->h_live[f]);
    free(r->s_rest), free(r->s_live), free(r->scratch), free(r->done), free(r->down_done), free(r->band_done);
    free(r);
}

void relax_rows_refresh(RelaxRows *r, const Cloth *c)
{
    if (r->fresh && r->torn_generation == c->torn_generation)
        return;
    /* horizontal: lane j of key k is the link from (16 s + j, k) */
    for (int f = 0; f < 2; f++) {
        int gap = f + 1;
        for (int s = 0; s < r->strips; s++)
            for (int k = 0; k < r->h_keys; k++) {
                size_t at = (size_t)s * (size_t)r->h_keys + (size_t)k;
                unsigned live = 0;
                for (int j = 0; j < 16; j++) {
                    int row = 16 * s + j;
                    float rest = 0.0f;
                    if (row < c->rows && k + gap < c->cols) {
                        int l = f == 0 ? cloth_link_right(c, k, row) : cloth_link_bend_right(c, k, row);
                        rest = c->rest_length[l];
                        live |= (unsigned)!c->torn[l] << j;
                    }
                    r->h_rest[f][at * 16 + (size_t)j] = rest;
                }
                r->h_live[f][at] = (uint16_t)live;
            }
    }
    /* shear: lane j of key k is cell (16 s + j, k - 2 j) */
    for (int s = 0; s < r->s_strips; s++)
        for (int k = 0; k < r->s_keys; k++)
            for (int which = 0; which < 2; which++) {
                size_t at = ((size_t)s * (size_t)r->s_keys + (size_t)k) * 2 + (size_t)which;
                unsigned live = 0;
                for (int j = 0; j < 16; j++) {
                    int row = 16 * s + j, col = k - 2 * j;
                    float rest = 0.0f;
                    if (row + 1 < c->rows && col >= 0 && col + 1 < c->cols) {
                        int l = cloth_link_shear(c, col, row, which);
                        rest = c->rest_length[l];
                        live |= (unsigned)!c->torn[l] << j;
                    }
                    r->s_rest[at * 16 + (size_t)j] = rest;
                }
                r->s_live[at] = (uint16_t)live;
            }
    r->torn_generation = c->torn_generation;
    r->fresh = true;
}

/* The bands: the strips in runs of up to S_GROUP, as even as can be
 * (13 strips: 2, 3, 2, 3, 3), band g the strips band_first(g) to
 * band_first(g + 1) - 1. A band is a shear group; on several threads band
 * g is thread g mod threads' in every family, so that the rows a thread
 * moves stay in its core's caches from one family to the next. */
static int band_count(int strips) { return (strips + S_GROUP - 1) / S_GROUP; }
static int band_first(int strips, int g) { return (int)((long)g * strips / band_count(strips)); }

int relax_rows_owner(const RelaxRows *r, int row, int threads)
{
    const int n = r->strips, bands = band_count(n), strip = row / 16;
    int g = 0;
    while (g + 1 < bands && band_first(n, g + 1) <= strip)
        g++;
    return g % threads;
}

#if ROWS_X86

/* Keys k0 .. k0 + 15 of a strip's buffer (one coordinate) from v: lane j
 * of key k is particle (r0 + j, k - skew j), for the strip's n rows (up
 * to 16; lanes past them are 0). */
ROWS_INLINE void strip_in(float *v, int cols, int r0, int n, int k0, int skew, float *buffer, int stride)
{
    __m512 m[16];
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++) {
        int c0 = k0 - skew * j;
        __mmask16 in = j < n ? column_mask(c0, cols) : 0;
        m[j] = in ? _mm512_maskz_loadu_ps(in, row_at(v, cols, r0 + j, c0)) : _mm512_setzero_ps();
    }
    transpose16(m);
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        _mm512_store_ps(buffer + ((k0 + i) & (RING - 1)) * stride, m[i]);
}

/* The inverse of strip_in: keys k0 .. k0 + 15 back into v. */
ROWS_INLINE void strip_out(float *v, int cols, int r0, int n, int k0, int skew, const float *buffer, int stride)
{
    __m512 m[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        m[i] = _mm512_load_ps(buffer + ((k0 + i) & (RING - 1)) * stride);
    transpose16(m);
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++) {
        if (j >= n)
            break;
        int c0 = k0 - skew * j;
        __mmask16 in = column_mask(c0, cols);
        if (in)
            _mm512_mask_storeu_ps(row_at(v, cols, r0 + j, c0), in, m[j]);
    }
}

/* Until another thread has published `wanted` or more in *done (counts
 * that wrap: compared by their difference). Spins, then yields its core
 * at every look. */
static void wait_for(const atomic_uint *done, unsigned wanted)
{
    int spins = 0;
    while ((int)(atomic_load_explicit(done, memory_order_acquire) - wanted) < 0) {
        if (++spins < WAIT_SPINS)
            __builtin_ia32_pause();
        else
            sched_yield();
    }
}


/* The families in the order the links are listed. */
enum { FAMILY_ACROSS, FAMILY_DOWN, FAMILY_SHEAR, FAMILY_BEND_ACROSS, FAMILY_BEND_DOWN, FAMILIES };

/* Where a family's band g starts on several threads: once the bands
 * beside it (g - 1 to g + 1) have finished the family run before it
 * (`before`; -1: none in this pass). Those are all the links of earlier
 * families that share a particle with this band's (a link reaches two
 * rows down at most, and a band has 16 rows or more, but the last), and
 * they finished only after the bands beside them had finished the family
 * before theirs, and so on back. (Band g - 1 has always finished by then:
 * the vertical families and the shear end each band after the one above
 * it, and a band has two strips or more. It is waited for all the same,
 * at the cost of one look.) Every wait is for an earlier family, or in a
 * family for the band above, and each thread takes its work in that
 * order: the earliest unfinished work never waits, so nothing deadlocks. */
static void wait_for_bands(RelaxRows *r, int g, int bands, unsigned serial, int before)
{
    if (before < 0)
        return;
    const unsigned wanted = serial * FAMILIES + (unsigned)before + 1u;
    for (int h = g > 0 ? g - 1 : 0; h <= g + 1 && h < bands; h++)
        wait_for(&r->band_done[h].done, wanted);
}

static void band_finished(RelaxRows *r, int g, unsigned serial, int family)
{
    atomic_store_explicit(&r->band_done[g].done, serial * FAMILIES + (unsigned)family + 1u, memory_order_release);
}

/* ------------------------------------------------------------ vertical families */

/* Columns in blocks of 16 that a vertical walk takes down side by side,
 * at most: each block's links, and each of a bend family's two phases
 * (rows r and r + 1 share no particle), are a chain down the rows for the
 * processor to overlap; what a chain carries stays in registers. */
#define V_SIDE_STRUCTURAL 4
#define V_SIDE_BEND 3

/* A load or store of a row's 16 particles from a block's first column:
 * whole where the row has 16 columns left, else only the lanes `in`. */
ROWS_INLINE __m512 load_in(__mmask16 in, const float *p)
{
    return in == 0xffff ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(in, p);
}

ROWS_INLINE void store_in(__mmask16 in, float *p, __m512 v)
{
    if (in == 0xffff)
        _mm512_storeu_ps(p, v);
    else
        _mm512_mask_storeu_ps(p, in, v);
}

/* Links (r, c)-(r + gap, c) from rows row0 .. row1 - 1, in order, the
 * columns of blocks b0 .. b0 + count - 1 (count up to V_SIDE_*). A
 * particle's last link in the family is the one it tops, so a link's top
 * ends are stored once it is done; its bottom ends, which the link a gap
 * down tops, go to that link in registers (not through a store and a
 * load on the chain), and to memory after the last row. Inlined with gap
 * a constant, so that the carried ends are registers. */
ROWS_INLINE void vertical_blocks(const RelaxRows *r, Cloth *c, float *lambda, const Family *f, const int gap,
                                 int row0, int row1, int b0, int count)
{
    enum { SIDE = V_SIDE_STRUCTURAL > V_SIDE_BEND ? V_SIDE_STRUCTURAL : V_SIDE_BEND };
    const int cols = r->cols;
    const size_t base = (size_t)(gap == 1 ? cloth_link_below(c, 0, 0) : cloth_link_bend_below(c, 0, 0));
    float *restrict x = c->x, *restrict y = c->y, *restrict z = c->z;
    const float *restrict w = c->inv_mass, *restrict rest_length = c->rest_length;
    row1 = row1 < r->rows - gap ? row1 : r->rows - gap;
    __mmask16 in[SIDE];
    __m512 carry_x[2][SIDE], carry_y[2][SIDE], carry_z[2][SIDE]; /* [phase][block] */
#pragma GCC unroll 4
    for (int k = 0; k < SIDE; k++) {
        in[k] = k < count ? column_mask(16 * (b0 + k), cols) : 0;
        for (int phase = 0; phase < 2; phase++) /* (set before use: for the compiler) */
            carry_x[phase][k] = carry_y[phase][k] = carry_z[phase][k] = _mm512_setzero_ps();
    }
    for (int row = row0; row < row1; row += gap)
#pragma GCC unroll 2
        for (int phase = 0; phase < gap; phase++) {
            const int link_row = row + phase;
            if (link_row >= row1)
                break;
#pragma GCC unroll 4
            for (int k = 0; k < SIDE; k++) {
                if (k >= count)
                    break;
                const size_t pa = (size_t)link_row * (size_t)cols + (size_t)(16 * (b0 + k));
                const size_t pb = pa + (size_t)gap * (size_t)cols, l = base + pa;
                Ends ea = {0}, eb;
                if (link_row - row0 < gap) /* its top ends from the cloth */
                    ea.x = load_in(in[k], x + pa), ea.y = load_in(in[k], y + pa), ea.z = load_in(in[k], z + pa);
                else
                    ea.x = carry_x[phase][k], ea.y = carry_y[phase][k], ea.z = carry_z[phase][k];
                ea.w = load_in(in[k], w + pa);
                eb = (Ends){load_in(in[k], x + pb), load_in(in[k], y + pb), load_in(in[k], z + pb),
                            load_in(in[k], w + pb)};
                __mmask16 torn =
                    _mm_mask_test_epi8_mask(in[k], _mm_maskz_loadu_epi8(in[k], c->torn + l), _mm_set1_epi8(-1));
                __mmask16 live = in[k] & (__mmask16)~torn;
                if (live) {
                    __m512 rest = _mm512_maskz_loadu_ps(live, rest_length + l);
                    __m512 multiplier = f->xpbd ? _mm512_maskz_loadu_ps(live, lambda + l) : _mm512_setzero_ps();
                    solve(&ea, &eb, rest, live, f, &multiplier);
                    if (f->xpbd)
                        _mm512_mask_storeu_ps(lambda + l, live, multiplier);
                }
                store_in(in[k], x + pa, ea.x), store_in(in[k], y + pa, ea.y), store_in(in[k], z + pa, ea.z);
                carry_x[phase][k] = eb.x, carry_y[phase][k] = eb.y, carry_z[phase][k] = eb.z;
            }
        }
    /* the bottom ends of each phase's last link */
#pragma GCC unroll 2
    for (int phase = 0; phase < gap; phase++) {
        if (row0 + phase >= row1)
            break;
        const int last = row0 + phase + (row1 - 1 - row0 - phase) / gap * gap;
#pragma GCC unroll 4
        for (int k = 0; k < SIDE; k++) {
            if (k >= count)
                break;
            const size_t pb = (size_t)(last + gap) * (size_t)cols + (size_t)(16 * (b0 + k));
            store_in(in[k], x + pb, carry_x[phase][k]), store_in(in[k], y + pb, carry_y[phase][k]);
            store_in(in[k], z + pb, carry_z[phase][k]);
        }
    }
}

/* The links of a vertical family from rows row0 .. row1 - 1, in the
 * columns of blocks from .. to - 1, in walks of blocks side by side as
 * even as can be. */
ROWS_TARGET static void vertical_chunk(const RelaxRows *r, Cloth *c, float *lambda, const Family *f, int gap, int row0,
                                       int row1, int from, int to)
{
    const int side = gap == 1 ? V_SIDE_STRUCTURAL : V_SIDE_BEND, n = to - from, walks = (n + side - 1) / side;
    for (int k = 0; k < walks; k++) {
        const int b0 = from + k * n / walks, count = from + (k + 1) * n / walks - b0;
        if (gap == 1)
            vertical_blocks(r, c, lambda, f, 1, row0, row1, b0, count);
        else
            vertical_blocks(r, c, lambda, f, 2, row0, row1, b0, count);
    }
}

/* Band g of a vertical family on several threads: its rows in chunks of
 * columns, chunk u after chunk u of the band above (their links share the
 * particles of this band's first rows), so that the bands go down the
 * cloth one chunk apart. */
static void vertical_band(RelaxRows *r, Cloth *c, float *lambda, const Family *f, int gap, int g, unsigned serial)
{
    const int blocks = (r->cols + 15) / 16, n = r->strips;
    int chunks = (blocks + V_CHUNK - 1) / V_CHUNK;
    chunks = chunks < 2 && blocks >= 2 ? 2 : chunks; /* a pipeline, however short */
    /* two families a pass: a count that grows through both */
    const unsigned base = (2u * serial + (unsigned)(gap - 1)) * (unsigned)(chunks + 1);
    const int row0 = 16 * band_first(n, g), row1 = 16 * band_first(n, g + 1);
    for (int u = 0; u < chunks; u++) {
        if (g > 0)
            wait_for(&r->down_done[g - 1].done, base + (unsigned)u + 1u);
        vertical_chunk(r, c, lambda, f, gap, row0, row1, u * blocks / chunks, (u + 1) * blocks / chunks);
        atomic_store_explicit(&r->down_done[g].done, base + (unsigned)u + 1u, memory_order_release);
    }
}

/* ------------------------------------------------------------ horizontal families */

typedef struct HorizontalStrip {
    int r0, n;                /* rows r0 .. r0 + n - 1 */
    float *buffer;            /* x, y, z, inverse mass: H_COORD floats each */
    const float *rest;        /* at key 0 */
    const uint16_t *live;     /* at key 0 */
    __m512i lambda_at;        /* the multiplier of lane j's link at key 0 (key k: + k) */
} HorizontalStrip;

/* Step t of a strip: the links from column t to t + gap. The link at t +
 * gap reads what this one stores (a load of what was just stored, whole:
 * the processor forwards it). */
ROWS_INLINE void horizontal_step(const HorizontalStrip *s, int t, int gap, const Family *f, float *lambda)
{
    const __mmask16 live = s->live[t];
    if (!live)
        return;
    float *pa = s->buffer + (t & (RING - 1)) * H_STRIDE, *pb = s->buffer + ((t + gap) & (RING - 1)) * H_STRIDE;
    Ends a = {_mm512_load_ps(pa), _mm512_load_ps(pa + H_COORD), _mm512_load_ps(pa + 2 * H_COORD),
              _mm512_load_ps(pa + 3 * H_COORD)};
    Ends b = {_mm512_load_ps(pb), _mm512_load_ps(pb + H_COORD), _mm512_load_ps(pb + 2 * H_COORD),
              _mm512_load_ps(pb + 3 * H_COORD)};
    __m512 rest = _mm512_load_ps(s->rest + (size_t)t * 16);
    __m512 multiplier = _mm512_setzero_ps();
    __m512i index = _mm512_add_epi32(s->lambda_at, _mm512_set1_epi32(t));
    if (f->xpbd)
        multiplier = _mm512_mask_i32gather_ps(multiplier, live, index, lambda, 4);
    solve(&a, &b, rest, live, f, &multiplier);
    _mm512_store_ps(pa, a.x), _mm512_store_ps(pa + H_COORD, a.y), _mm512_store_ps(pa + 2 * H_COORD, a.z);
    _mm512_store_ps(pb, b.x), _mm512_store_ps(pb + H_COORD, b.y), _mm512_store_ps(pb + 2 * H_COORD, b.z);
    if (f->xpbd)
        _mm512_mask_i32scatter_ps(lambda, live, index, multiplier, 4);
}

/* Copy task `task` of a strip's block `block` (see the walks below):
 * tasks 0 to 2 write x, y, z of block - 1 back to the cloth, tasks 3 to 6
 * read x, y, z and the inverse masses of block + 1 into the slots block -
 * 1 had (a coordinate's slots are written back before they are reused).
 * Not inlined: a step keeps nothing in registers across it. */
__attribute__((noinline)) ROWS_TARGET static void horizontal_task(const HorizontalStrip *s, Cloth *c, int keys,
                                                                  int block, int task)
{
    float *coord[4] = {c->x, c->y, c->z, c->inv_mass};
    if (task < 3 && block >= 1)
        strip_out(coord[task], c->cols, s->r0, s->n, 16 * (block - 1), 0, s->buffer + task * H_COORD, H_STRIDE);
    else if (task >= 3 && 16 * (block + 1) < keys)
        strip_in(coord[task - 3], c->cols, s->r0, s->n, 16 * (block + 1), 0, s->buffer + (task - 3) * H_COORD,
                 H_STRIDE);
}

/* Strips index[0 .. count - 1] (count up to H_GROUP) of a horizontal
 * family, walked side by side. The copies in and out of the buffers are
 * spread among the steps (a task every other step, done by step 13,
 * before a step reads the next block): a step waits on its square root
 * and division, a copy on the shuffle port, and so the processor does
 * both at once instead of one after the other. */
ROWS_TARGET static void horizontal_group(const RelaxRows *r, Cloth *c, float *lambda, const Family *f, int family,
                                         const int *index, int count, float *scratch)
{
    const int gap = family + 1, cols = r->cols, keys = r->h_keys, blocks = keys / 16;
    float *coord[4] = {c->x, c->y, c->z, c->inv_mass};
    const int row_links = cols - gap; /* links a row: the multipliers' row stride */
    const int base = family == 0 ? 0 : cloth_link_bend_right(c, 0, 0);
    HorizontalStrip strip[H_GROUP];
    for (int k = 0; k < count; k++) {
        HorizontalStrip *s = &strip[k];
        s->r0 = 16 * index[k];
        s->n = r->rows - s->r0 < 16 ? r->rows - s->r0 : 16;
        s->buffer = scratch + (size_t)k * 4 * H_COORD;
        s->rest = r->h_rest[family] + (size_t)index[k] * (size_t)keys * 16;
        s->live = r->h_live[family] + (size_t)index[k] * (size_t)keys;
        s->lambda_at = _mm512_add_epi32(
            _mm512_set1_epi32(base + s->r0 * row_links),
            _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                               _mm512_set1_epi32(row_links)));
        for (int q = 0; q < 4; q++) {
            strip_in(coord[q], cols, s->r0, s->n, 0, 0, s->buffer + q * H_COORD, H_STRIDE);
            if (blocks > 1)
                strip_in(coord[q], cols, s->r0, s->n, 16, 0, s->buffer + q * H_COORD, H_STRIDE);
        }
    }
    for (int block = 0; block < blocks; block++) {
        const int k0 = 16 * block;
        for (int i = 0; i < 16; i++) {
#pragma GCC unroll 4
            for (int k = 0; k < H_GROUP; k++)
                if (k < count)
                    horizontal_step(&strip[k], k0 + i, gap, f, lambda);
            if (block > 0 && i % 2 == 0 && i < 14)
                for (int k = 0; k < count; k++)
                    horizontal_task(&strip[k], c, keys, block, i / 2);
        }
    }
    for (int k = 0; k < count; k++)
        for (int task = 0; task < 3; task++)
            horizontal_task(&strip[k], c, keys, blocks, task);
}

/* Bands band[0 .. count - 1] of a horizontal family, their strips walked
 * together (up to H_GROUP). */
static void horizontal_bands(RelaxRows *r, Cloth *c, float *lambda, const Family *f, int family, const int *band,
                             int count, float *scratch)
{
    int index[H_GROUP], strips = 0;
    for (int k = 0; k < count; k++)
        for (int strip = band_first(r->strips, band[k]); strip < band_first(r->strips, band[k] + 1); strip++)
            index[strips++] = strip;
    assert(strips <= H_GROUP);
    if (r->cols > family + 1) /* else no links */
        horizontal_group(r, c, lambda, f, family, index, strips, scratch);
}

/* ------------------------------------------------------------ shear */

typedef struct ShearStrip {
    int index, r0, n;     /* strip index; rows r0 .. r0 + n - 1 (n up to 17: the row below) */
    int blocks;           /* of 16 keys, walked: fewer than the cloth's where the strip has fewer rows */
    float *buffer;        /* x, y, z, inverse mass: S_COORD floats each */
    const float *rest;    /* at key 0: d1's 16 lanes, then d2's */
    const uint16_t *live; /* at key 0: d1, d2 */
    __m512i lambda_at;    /* d1's multiplier of lane j at key 0 (key k: + 2k; d2: + 1) */
    /* lane 0 (its first row) at key 0: its own buffer, or the 17th lane of
     * the strip above's in the same group (key k there: its key k + 32,
     * the same slot of the ring) */
    const float *first;
    /* what a step hands the next in registers (see shear_step) */
    __m512 top_x, top_y, top_z, below_x, below_y, below_z, carry_x, carry_y, carry_z;
} ShearStrip;

/* The 17th lane (the row below a shear strip, the bottom ends of its last
 * row) of keys k0 .. k0 + 15 (k0 a multiple of 16: slots in a run of the
 * ring): particle (row, k - 32), from one row of the cloth. */
ROWS_INLINE void below_in(float *v, int cols, int row, int k0, float *buffer)
{
    const __mmask16 in = column_mask(k0 - 32, cols);
    const __m512 values = in ? _mm512_maskz_loadu_ps(in, row_at(v, cols, row, k0 - 32)) : _mm512_setzero_ps();
    const __m512i slots = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                             _mm512_set1_epi32(S_STRIDE));
    _mm512_i32scatter_ps(buffer + (k0 & (RING - 1)) * S_STRIDE + 16, slots, values, 4);
}

ROWS_INLINE void below_out(float *v, int cols, int row, int k0, const float *buffer)
{
    const __mmask16 in = column_mask(k0 - 32, cols);
    if (!in)
        return;
    const __m512i slots = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                             _mm512_set1_epi32(S_STRIDE));
    const __m512 values =
        _mm512_mask_i32gather_ps(_mm512_setzero_ps(), in, slots, buffer + (k0 & (RING - 1)) * S_STRIDE + 16, 4);
    _mm512_mask_storeu_ps(row_at(v, cols, row, k0 - 32), in, values);
}

/* Lane 0 from a broadcast of `first`, lanes 1 .. 15 from v's lanes 0 .. 14. */
ROWS_INLINE __m512 shift_up(__m512 v, float first)
{
    return _mm512_castsi512_ps(
        _mm512_alignr_epi32(_mm512_castps_si512(v), _mm512_castps_si512(_mm512_set1_ps(first)), 15));
}

/* Step t of a shear strip: lane j does cell (r0 + j, t - 2j). Lane j's
 * ends, as keys of the buffer (key k, lane j: particle (r0 + j, k - 2j)):
 * d1's top (r0 + j, t - 2j) is key t, lane j; d2's top key t + 1, lane j;
 * d2's bottom (r0 + j + 1, t - 2j) key t + 2, lane j + 1; d1's bottom key
 * t + 3, lane j + 1. The positions a step changes that the next reads stay
 * in registers: d2's top becomes the next d1's top, d1's bottom the next
 * d2's bottom, and d2's bottom, one lane up, the next d2's top (lane 0, row
 * r0, comes from the buffer, s->first: no lane wrote it yet). Only d1's top (then
 * final: key t, lanes 0 to 15) and d2's bottom (for lane 16, the row
 * below, then final) are stored; d1's bottom is fresh from the buffer. */
ROWS_INLINE void shear_step(ShearStrip *s, int t, const Family *f, float *lambda)
{
    float *p0 = s->buffer + (t & (RING - 1)) * S_STRIDE, *p1 = s->buffer + ((t + 1) & (RING - 1)) * S_STRIDE;
    float *p2 = s->buffer + ((t + 2) & (RING - 1)) * S_STRIDE, *p3 = s->buffer + ((t + 3) & (RING - 1)) * S_STRIDE;
    Ends top1 = {s->top_x, s->top_y, s->top_z, _mm512_load_ps(p0 + 3 * S_COORD)};
    const float *first = s->first + ((t + 1) & (RING - 1)) * S_STRIDE;
    Ends top2 = {shift_up(s->carry_x, first[0]), shift_up(s->carry_y, first[S_COORD]),
                 shift_up(s->carry_z, first[2 * S_COORD]), _mm512_load_ps(p1 + 3 * S_COORD)};
    Ends bottom2 = {s->below_x, s->below_y, s->below_z, _mm512_loadu_ps(p2 + 3 * S_COORD + 1)};
    Ends bottom1 = {_mm512_loadu_ps(p3 + 1), _mm512_loadu_ps(p3 + S_COORD + 1), _mm512_loadu_ps(p3 + 2 * S_COORD + 1),
                    _mm512_loadu_ps(p3 + 3 * S_COORD + 1)};
    const __mmask16 live1 = s->live[2 * t], live2 = s->live[2 * t + 1];
    const __m512i index = _mm512_add_epi32(s->lambda_at, _mm512_set1_epi32(2 * t));
    if (live1) {
        __m512 multiplier = _mm512_setzero_ps();
        if (f->xpbd)
            multiplier = _mm512_mask_i32gather_ps(multiplier, live1, index, lambda, 4);
        solve(&top1, &bottom1, _mm512_load_ps(s->rest + (size_t)t * 32), live1, f, &multiplier);
        if (f->xpbd)
            _mm512_mask_i32scatter_ps(lambda, live1, index, multiplier, 4);
    }
    if (live2) {
        const __m512i index2 = _mm512_add_epi32(index, _mm512_set1_epi32(1));
        __m512 multiplier = _mm512_setzero_ps();
        if (f->xpbd)
            multiplier = _mm512_mask_i32gather_ps(multiplier, live2, index2, lambda, 4);
        solve(&top2, &bottom2, _mm512_load_ps(s->rest + (size_t)t * 32 + 16), live2, f, &multiplier);
        if (f->xpbd)
            _mm512_mask_i32scatter_ps(lambda, live2, index2, multiplier, 4);
    }
    _mm512_store_ps(p0, top1.x), _mm512_store_ps(p0 + S_COORD, top1.y), _mm512_store_ps(p0 + 2 * S_COORD, top1.z);
    _mm512_storeu_ps(p2 + 1, bottom2.x), _mm512_storeu_ps(p2 + S_COORD + 1, bottom2.y);
    _mm512_storeu_ps(p2 + 2 * S_COORD + 1, bottom2.z);
    s->top_x = top2.x, s->top_y = top2.y, s->top_z = top2.z;
    s->below_x = bottom1.x, s->below_y = bottom1.y, s->below_z = bottom1.z;
    s->carry_x = bottom2.x, s->carry_y = bottom2.y, s->carry_z = bottom2.z;
}

/* Keys k0 .. k0 + 15 of a shear strip from the cloth (x, y, z, inverse
 * mass, with the row below), or back (x, y, z). */
ROWS_INLINE void shear_in(Cloth *c, const ShearStrip *s, int k0)
{
    float *coord[4] = {c->x, c->y, c->z, c->inv_mass};
    for (int q = 0; q < 4; q++) {
        strip_in(coord[q], c->cols, s->r0, s->n, k0, 2, s->buffer + q * S_COORD, S_STRIDE);
        if (s->n > 16)
            below_in(coord[q], c->cols, s->r0 + 16, k0, s->buffer + q * S_COORD);
    }
}

ROWS_INLINE void shear_out(Cloth *c, const ShearStrip *s, int k0)
{
    float *coord[3] = {c->x, c->y, c->z};
    for (int q = 0; q < 3; q++) {
        strip_out(coord[q], c->cols, s->r0, s->n, k0, 2, s->buffer + q * S_COORD, S_STRIDE);
        if (s->n > 16)
            below_out(coord[q], c->cols, s->r0 + 16, k0, s->buffer + q * S_COORD);
    }
}

/* Shear strips first .. first + count - 1 (count up to S_GROUP), each
 * S_NEAR blocks behind the one above it. */
ROWS_TARGET static void shear_group(RelaxRows *r, Cloth *c, float *lambda, const Family *f, int first, int count,
                                    float *scratch, unsigned serial)
{
    const int cols = r->cols, keys = r->s_keys, blocks = keys / 16;
    const unsigned base = serial * (unsigned)(blocks + 1);
    const int links_base = cloth_link_shear(c, 0, 0, 0);
    ShearStrip strip[S_GROUP];
    int steps = 0; /* of the group: blocks walked, the strips S_NEAR apart */
    for (int k = 0; k < count; k++) {
        ShearStrip *s = &strip[k];
        s->index = first + k;
        s->r0 = 16 * s->index;
        s->n = r->rows - s->r0 < 17 ? r->rows - s->r0 : 17;
        /* its n - 1 rows of cells: the last one's last cell is at step cols
         * - 2 + 2 (n - 2), which reads keys up to 3 on; every particle it
         * changes lies in those keys (a strip of 16 rows: all the cloth's) */
        s->blocks = (cols + 2 * (s->n - 1) + 15) / 16;
        assert(s->blocks <= blocks);
        steps = S_NEAR * k + s->blocks > steps ? S_NEAR * k + s->blocks : steps;
        s->buffer = scratch + (size_t)k * 4 * S_COORD;
        s->rest = r->s_rest + (size_t)s->index * (size_t)keys * 32;
        s->live = r->s_live + (size_t)s->index * (size_t)keys * 2;
        s->first = k > 0 ? strip[k - 1].buffer + 16 : s->buffer;
        /* d1 of cell (r0 + j, k - 2j): links_base + 2 ((r0 + j)(cols - 1) + k - 2j) */
        const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        s->lambda_at = _mm512_add_epi32(_mm512_set1_epi32(links_base + 2 * s->r0 * (cols - 1)),
                                        _mm512_mullo_epi32(lane, _mm512_set1_epi32(2 * (cols - 1) - 4)));
    }
    for (int step = 0; step < steps; step++) {
        for (int k = 0; k < count; k++) {
            ShearStrip *s = &strip[k];
            const int block = step - S_NEAR * k;
            if (block < 0 || block >= s->blocks)
                continue;
            if (k == 0 && s->index > 0) {
                /* the strip above has written back the blocks this one reads
                 * (its last lane, two blocks on) and read what it will write */
                wait_for(&r->done[s->index - 1].done, base + (unsigned)(block + 4 < blocks ? block + 4 : blocks));
            }
            if (block == 0) {
                shear_in(c, s, 0);
                if (s->blocks > 1)
                    shear_in(c, s, 16);
                /* the registers step 0 expects (see shear_step) */
                const float *p0 = s->buffer, *p1 = s->buffer + S_STRIDE, *p2 = s->buffer + 2 * S_STRIDE;
                s->top_x = _mm512_mask_mov_ps(_mm512_load_ps(p0), 1, _mm512_set1_ps(s->first[0]));
                s->top_y = _mm512_mask_mov_ps(_mm512_load_ps(p0 + S_COORD), 1, _mm512_set1_ps(s->first[S_COORD]));
                s->top_z = _mm512_mask_mov_ps(_mm512_load_ps(p0 + 2 * S_COORD), 1, _mm512_set1_ps(s->first[2 * S_COORD]));
                s->carry_x = _mm512_loadu_ps(p1 + 1), s->carry_y = _mm512_loadu_ps(p1 + S_COORD + 1);
                s->carry_z = _mm512_loadu_ps(p1 + 2 * S_COORD + 1);
                s->below_x = _mm512_loadu_ps(p2 + 1), s->below_y = _mm512_loadu_ps(p2 + S_COORD + 1);
                s->below_z = _mm512_loadu_ps(p2 + 2 * S_COORD + 1);
            } else if (block + 1 < s->blocks) {
                shear_in(c, s, 16 * (block + 1));
            }
        }
        for (int i = 0; i < 16; i++) {
#pragma GCC unroll 3
            for (int k = 0; k < S_GROUP; k++) {
                const int block = step - S_NEAR * k;
                if (k < count && block >= 0 && block < strip[k].blocks)
                    shear_step(&strip[k], 16 * block + i, f, lambda);
            }
        }
        for (int k = 0; k < count; k++) {
            const int block = step - S_NEAR * k;
            if (block < 0 || block >= strip[k].blocks)
                continue;
            shear_out(c, &strip[k], 16 * block);
            atomic_store_explicit(&r->done[strip[k].index].done, base + (unsigned)block + 1, memory_order_release);
        }
    }
}

/* The shear strips of band g (a group walked together; none where the
 * band is a last row alone). */
static void shear_band(RelaxRows *r, Cloth *c, float *lambda, const Family *f, int g, float *scratch,
                       unsigned serial)
{
    const int first = band_first(r->strips, g), next = band_first(r->strips, g + 1);
    const int last = next < r->s_strips ? next : r->s_strips;
    if (last > first)
        shear_group(r, c, lambda, f, first, last - first, scratch, serial);
}

/* ------------------------------------------------------------ the pass */


/* A family's band on several threads: its part of the pass. */
typedef struct BandWork {
    int family, band;
} BandWork;

/* The most of them a thread can have in a pass: every family's bands (a
 * cloth has 1000 rows at most: 63 strips, 21 bands). */
#define WORK_MAX (FAMILIES * 32)

/* Thread t's share of a pass on several threads, as a wavefront down the
 * cloth: the family run i-th this pass (run[i]) does band g at step g + 2
 * i, so that a band of a later family starts as soon as the bands above
 * it allow, not after the last band of the family before. Everything a
 * band waits for (the bands beside it in the family before; the band
 * above in its own) comes at an earlier step, and each thread takes its
 * work in the order of the steps: the earliest unfinished work never
 * waits, so nothing deadlocks. Horizontal work of two of this thread's
 * bands that come one after the other is walked together. */
ROWS_TARGET static void run_bands(RelaxRows *r, Cloth *c, float *lambda, const int *run, const Family *fam, int count,
                                  int t, int threads, float *scratch, unsigned serial)
{
    const int bands = band_count(r->strips);
    BandWork work[WORK_MAX];
    int works = 0;
    for (int step = 0; step < bands + 2 * (count - 1); step++)
        for (int i = 0; i < count; i++) {
            const int g = step - 2 * i;
            if (g >= 0 && g < bands && g % threads == t) {
                assert(works < WORK_MAX);
                work[works++] = (BandWork){i, g};
            }
        }
    for (int k = 0; k < works;) {
        const int i = work[k].family, family = run[i], before = i > 0 ? run[i - 1] : -1;
        const Family *f = &fam[i];
        if (family == FAMILY_ACROSS || family == FAMILY_BEND_ACROSS) {
            int band[H_GROUP], together = 0, strips = 0;
            for (; k < works && work[k].family == i; k++) {
                const int g = work[k].band, size = band_first(r->strips, g + 1) - band_first(r->strips, g);
                if (strips + size > H_GROUP)
                    break;
                wait_for_bands(r, g, bands, serial, before);
                band[together++] = g, strips += size;
            }
            horizontal_bands(r, c, lambda, f, family == FAMILY_ACROSS ? 0 : 1, band, together, scratch);
            for (int b = 0; b < together; b++)
                band_finished(r, band[b], serial, family);
            continue;
        }
        const int g = work[k++].band;
        wait_for_bands(r, g, bands, serial, before);
        if (family == FAMILY_SHEAR)
            shear_band(r, c, lambda, f, g, scratch, serial);
        else
            vertical_band(r, c, lambda, f, family == FAMILY_DOWN ? 1 : 2, g, serial);
        band_finished(r, g, serial, family);
    }
}

ROWS_TARGET void relax_rows_run(RelaxRows *r, Cloth *c, float *lambda, const RelaxPassConstants *p, int t,
                                int threads, unsigned serial)
{
    /* one thread takes the helix (relax_helix.h) */
    assert(r->fresh && !p->kept && !p->jacobi && t < r->threads && threads > 1 && threads <= r->threads);
    float *scratch = r->scratch + (size_t)t * SCRATCH_FLOATS;
    /* the families this pass runs, in the listed order: the plain loop
     * skips one whose k is not above 0 */
    int run[FAMILIES], count = 0;
    Family fam[FAMILIES];
    static const int link_family[FAMILIES] = {LINK_STRUCTURAL, LINK_STRUCTURAL, LINK_SHEAR, LINK_BEND, LINK_BEND};
    for (int family = 0; family < FAMILIES; family++)
        if (!(p->k[link_family[family]] <= 0.0f))
            fam[count] = family_of(p, link_family[family]), run[count++] = family;
    run_bands(r, c, lambda, run, fam, count, t, threads, scratch, serial);
}

#else

void relax_rows_run(RelaxRows *r, Cloth *c, float *lambda, const RelaxPassConstants *p, int t, int threads,
                    unsigned serial)
{
    (void)r, (void)c, (void)lambda, (void)p, (void)t, (void)threads, (void)serial;
    assert(!"relax_rows_create returns NULL here");
}

#endif
