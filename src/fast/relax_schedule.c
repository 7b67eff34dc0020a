/* relax_schedule.c - the sequential order, many links at a time
 * (relax_schedule.h tells the idea).
 *
 * The links of a level are laid out as slots, in groups padded to a
 * multiple of 16, in the order each thread runs them: thread by thread,
 * level by level, and inside a level in their listed order. A slot holds
 * the link and its two particles, so a pass reads the link arrays in order.
 * The padding slots and the torn links are dead: the kernels compute them
 * and keep nothing (the plain loop's `continue`).
 *
 * The kernels: the plain loop's solver_relax_link over a level's slots (a
 * level's links share nothing, so the processor overlaps their square roots
 * and divisions instead of waiting for each), or, where the processor has
 * AVX-512, sixteen slots a vector: gathers, the same float operations in
 * the same order (fused where the plain loop calls fmaf), masked scatters. Corrections kept
 * as remainders (substeps below SOLVER_KEEP_BELOW), and order=jacobi's
 * sums, always take the plain functions: the remainders are doubles, and
 * their gathers would cost more than they gain.
 */
#include "relax_schedule.h"

#include <assert.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/solver.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define SCHEDULE_X86 1
#else
#define SCHEDULE_X86 0
#endif

/* Slots a group is padded to: one AVX-512 vector of links. */
#define SLOT_LANES 16

/* The horizontal families go through a band in strips of this many rows,
 * a level of the strip (a column, for the structural links) at a time:
 * enough independent links for the processor to overlap, few enough rows
 * to stay in the first-level cache. */
#define STRIP_ROWS 16

/* The shear links go through a band in blocks this many columns wide,
 * leaning one column left a row down (see phase_place). */
#define SHEAR_BLOCK 32

/* A thread waiting for another spins this many times, then yields its core
 * at every look (the machine may be busy with other work, or run more
 * threads than it has cores). */
#define WAIT_SPINS 200

typedef struct Progress {
    _Alignas(64) atomic_uint done; /* serial * (most groups + 1) + groups done, at the last published */
} Progress;

/* A wait: until thread `thread` has done its group `group` (its own index). */
typedef struct Wait {
    int thread, group;
} Wait;

/* The families' blocks in the listed order (cloth_create). */
typedef enum Phase { PHASE_ACROSS, PHASE_DOWN, PHASE_SHEAR, PHASE_BEND_ACROSS, PHASE_BEND_DOWN, PHASES } Phase;

struct RelaxSchedule {
    int threads, levels, link_count;
    int slot_count;
    int32_t *slot_link, *slot_a, *slot_b, *slot_family;
    uint8_t *slot_real; /* 0 for padding */
    uint8_t *slot_live; /* real and not torn */
    /* per vector of SLOT_LANES slots: 1 where its real slots are a prefix
     * and their links, a ends and b ends each run on by one (the vertical
     * families): plain vector loads and stores instead of gathers */
    uint8_t *vector_run;
    int group_count;
    int *group_start; /* group_count + 1 entries: group g is slots group_start[g] .. group_start[g + 1] */
    int *wait_start;  /* group_count + 1 entries: group g waits for waits[wait_start[g] .. wait_start[g + 1]] */
    Wait *waits;
    uint8_t *publish;                             /* another thread waits for this group: say when it is done */
    int thread_group[RELAX_FAST_MAX_THREADS + 1]; /* thread t runs groups thread_group[t] .. [t + 1] */
    int most_groups;                              /* of one thread */
    unsigned torn_generation;
    bool fresh; /* slot_live matches torn_generation */
    Progress *progress;
};

/* Where link l runs: its phase, its thread, and its place in the thread's
 * order (phase, then `sub`, then level); links with equal places share
 * no particle and form a group. The horizontal families go to the band of
 * their row and through it strip by strip (a row's links are a chain:
 * one level a link); the vertical ones to the thread of their column (a
 * column's links are a chain, the rows side by side are not), row by row;
 * the shear links to the band of their top row, where a cell waits for the
 * cell left of it and the cell up and right: blocks of SHEAR_BLOCK columns
 * leaning one column a row hold both. */
typedef struct Place {
    int phase, thread;
    uint64_t key; /* the order in the thread */
} Place;

static int band_of_row(int row, int rows, int threads)
{
    return (int)((long)row * threads / rows);
}

static int band_start(int band, int rows, int threads)
{
    return (int)(((long)band * rows + threads - 1) / threads);
}

static Place phase_place(const Cloth *c, int phase, uint32_t l, int level, int threads)
{
    uint32_t a = c->link_a[l], b = c->link_b[l];
    int row = (int)((a < b ? a : b) / (uint32_t)c->cols);
    int ca = (int)(a % (uint32_t)c->cols), cb = (int)(b % (uint32_t)c->cols);
    int col = ca < cb ? ca : cb;
    Place p = {phase, 0, 0};
    uint64_t sub = 0;
    switch (phase) {
    case PHASE_ACROSS:
    case PHASE_BEND_ACROSS:
        p.thread = band_of_row(row, c->rows, threads);
        sub = (uint64_t)((row - band_start(p.thread, c->rows, threads)) / STRIP_ROWS);
        break;
    case PHASE_DOWN:
    case PHASE_BEND_DOWN:
        p.thread = (int)((long)col * threads / c->cols);
        break;
    default: /* PHASE_SHEAR */
        p.thread = band_of_row(row, c->rows, threads);
        sub = (uint64_t)((col + row - band_start(p.thread, c->rows, threads)) / SHEAR_BLOCK);
        break;
    }
    p.key = (uint64_t)phase << 56 | sub << 32 | (uint64_t)level;
    return p;
}

/* The phase of link l: cloth_create lists the horizontal structural links,
 * the vertical ones, the shear links, the horizontal bend links, then the
 * vertical ones. */
static int link_phase(const Cloth *c, int l)
{
    int cols = c->cols, rows = c->rows;
    int ends[PHASES] = {(cols - 1) * rows, cols * (rows - 1), 2 * (cols - 1) * (rows - 1),
                        cols > 2 ? (cols - 2) * rows : 0, rows > 2 ? cols * (rows - 2) : 0};
    int phase = 0, end = ends[0];
    while (phase < PHASES - 1 && l >= end)
        end += ends[++phase];
    return phase;
}

typedef struct Slot {
    uint64_t key;
    int link;
} Slot;

static int compare_slots(const void *x, const void *y)
{
    const Slot *p = x, *q = y;
    return p->key < q->key ? -1 : p->key > q->key ? 1 : (p->link > q->link) - (p->link < q->link);
}

/* The invariants every pass relies on: no particle twice in a group; a
 * link after the last link before it at either end, in an earlier group
 * of its thread or behind a wait; and every wait for a group that runs no
 * later: of an earlier phase, or of the same phase on a thread of lower
 * index (the shear bands; so no two threads wait for each other). */
static void check_schedule(const RelaxSchedule *s, const Cloth *c, const int *link_group, const int *dep,
                           const int *group_thread, const int *group_phase, const int *group_local)
{
#ifndef NDEBUG
    int *seen = malloc((size_t)(c->count > 0 ? c->count : 1) * sizeof *seen);
    if (!seen)
        return;
    for (int i = 0; i < c->count; i++)
        seen[i] = -1;
    for (int g = 0; g < s->group_count; g++) {
        for (int i = s->group_start[g]; i < s->group_start[g + 1]; i++) {
            if (!s->slot_real[i])
                continue;
            int a = s->slot_a[i], b = s->slot_b[i];
            assert(seen[a] != g && seen[b] != g);
            seen[a] = seen[b] = g;
        }
        for (int w = s->wait_start[g]; w < s->wait_start[g + 1]; w++) {
            int h = s->thread_group[s->waits[w].thread] + s->waits[w].group;
            assert(group_phase[h] < group_phase[g] ||
                   (group_phase[h] == group_phase[g] && group_thread[h] < group_thread[g]));
            assert(s->publish[h]);
        }
    }
    for (int l = 0; l < s->link_count; l++)
        for (int e = 0; e < 2; e++) {
            int d = dep[2 * l + e];
            if (d < 0)
                continue;
            int g = link_group[l], h = link_group[d];
            if (group_thread[g] == group_thread[h]) {
                assert(group_local[h] < group_local[g]);
                continue;
            }
            bool waits = false;
            for (int w = s->wait_start[g]; w < s->wait_start[g + 1]; w++)
                waits |= s->waits[w].thread == group_thread[h] && s->waits[w].group >= group_local[h];
            assert(waits);
        }
    free(seen);
#else
    (void)s, (void)c, (void)link_group, (void)dep, (void)group_thread, (void)group_phase, (void)group_local;
#endif
}

RelaxSchedule *relax_schedule_create(const Cloth *c, int threads)
{
    threads = threads < 1 ? 1 : threads > RELAX_FAST_MAX_THREADS ? RELAX_FAST_MAX_THREADS : threads;
    threads = threads > c->rows ? c->rows : threads;
    threads = threads > c->cols ? c->cols : threads;
    RelaxSchedule *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    int links = c->link_count;
    size_t link_slots = (size_t)(links > 0 ? links : 1);
    s->threads = threads, s->link_count = links;
    int *level = malloc(link_slots * sizeof *level);
    int *last = malloc((size_t)c->count * sizeof *last);
    int *dep = malloc(2 * link_slots * sizeof *dep);
    int *link_group = malloc(link_slots * sizeof *link_group);
    Slot *order = malloc(link_slots * sizeof *order);
    int *thread_of = malloc(link_slots * sizeof *thread_of);
    int *phase_of = malloc(link_slots * sizeof *phase_of);
    int *group_thread = NULL, *group_phase = NULL, *group_local = NULL, *dense = NULL;
    if (!level || !last || !dep || !link_group || !order || !thread_of || !phase_of)
        goto fail;

    /* each link's last predecessor at either end, over the whole list, and
     * its level inside its phase */
    for (int i = 0; i < c->count; i++)
        last[i] = -1;
    int levels = 0;
    for (int l = 0; l < links; l++) {
        uint32_t a = c->link_a[l], b = c->link_b[l];
        phase_of[l] = link_phase(c, l);
        dep[2 * l] = last[a], dep[2 * l + 1] = last[b];
        int la = last[a] >= 0 && phase_of[last[a]] == phase_of[l] ? level[last[a]] : 0;
        int lb = last[b] >= 0 && phase_of[last[b]] == phase_of[l] ? level[last[b]] : 0;
        level[l] = (la > lb ? la : lb) + 1;
        levels = level[l] > levels ? level[l] : levels;
        last[a] = last[b] = l;
    }
    s->levels = levels;

    /* each thread's links in its order; equal keys make a group */
    int count[RELAX_FAST_MAX_THREADS + 1] = {0};
    for (int l = 0; l < links; l++) {
        Place p = phase_place(c, phase_of[l], (uint32_t)l, level[l], threads);
        thread_of[l] = p.thread;
        order[l] = (Slot){p.key, l};
        count[p.thread + 1]++;
    }
    for (int t = 0; t < threads; t++)
        count[t + 1] += count[t];
    {
        int *next = last; /* reused: the next place of each thread */
        for (int t = 0; t < threads; t++)
            next[t] = count[t];
        Slot *by_thread = malloc(link_slots * sizeof *by_thread);
        if (!by_thread)
            goto fail;
        for (int l = 0; l < links; l++)
            by_thread[next[thread_of[l]]++] = order[l];
        for (int t = 0; t < threads; t++)
            qsort(by_thread + count[t], (size_t)(count[t + 1] - count[t]), sizeof *by_thread, compare_slots);
        memcpy(order, by_thread, link_slots * sizeof *order);
        free(by_thread);
    }
    int groups = 0, slots = 0;
    for (int t = 0; t < threads; t++) {
        int size = 0;
        for (int i = count[t]; i < count[t + 1]; i++) {
            size++;
            if (i + 1 == count[t + 1] || order[i + 1].key != order[i].key) {
                groups++;
                slots += (size + SLOT_LANES - 1) / SLOT_LANES * SLOT_LANES;
                size = 0;
            }
        }
    }
    s->group_count = groups, s->slot_count = slots;
    size_t group_slots = (size_t)(groups > 0 ? groups : 1);
    s->group_start = malloc((group_slots + 1) * sizeof *s->group_start);
    s->wait_start = malloc((group_slots + 1) * sizeof *s->wait_start);
    s->waits = malloc(group_slots * (size_t)threads * sizeof *s->waits);
    s->publish = calloc(group_slots, 1);
    const size_t slot_bytes = (size_t)slots * sizeof(int32_t);
    s->slot_link = cloth_zeroed(slot_bytes), s->slot_a = cloth_zeroed(slot_bytes);
    s->slot_b = cloth_zeroed(slot_bytes), s->slot_family = cloth_zeroed(slot_bytes);
    s->slot_real = calloc((size_t)slots + 64, 1);
    s->slot_live = calloc((size_t)slots + 64, 1);
    s->vector_run = calloc((size_t)slots / SLOT_LANES + 1, 1);
    s->progress = aligned_alloc(64, (size_t)threads * sizeof *s->progress);
    group_thread = malloc(group_slots * sizeof *group_thread);
    group_phase = malloc(group_slots * sizeof *group_phase);
    group_local = malloc(group_slots * sizeof *group_local);
    dense = malloc(group_slots * (size_t)threads * sizeof *dense);
    if (!s->group_start || !s->wait_start || !s->waits || !s->publish || !s->slot_link || !s->slot_a || !s->slot_b ||
        !s->slot_family || !s->slot_real || !s->slot_live || !s->vector_run || !s->progress || !group_thread ||
        !group_phase || !group_local || !dense)
        goto fail;
    for (int t = 0; t < threads; t++)
        atomic_init(&s->progress[t].done, 0u);

    /* the slots, group by group, each padded to SLOT_LANES (padding reads
     * particle 0 and keeps nothing) */
    int g = 0, slot = 0;
    for (int t = 0; t < threads; t++) {
        s->thread_group[t] = g;
        for (int i = count[t]; i < count[t + 1]; i++) {
            if (i == count[t] || order[i].key != order[i - 1].key) {
                if (i > count[t])
                    slot = (slot + SLOT_LANES - 1) / SLOT_LANES * SLOT_LANES;
                s->group_start[g] = slot;
                group_thread[g] = t, group_phase[g] = (int)(order[i].key >> 56),
                group_local[g] = g - s->thread_group[t];
                g++;
            }
            int l = order[i].link;
            s->slot_link[slot] = l, s->slot_a[slot] = (int32_t)c->link_a[l], s->slot_b[slot] = (int32_t)c->link_b[l];
            s->slot_family[slot] = c->family[l], s->slot_real[slot] = 1;
            link_group[l] = g - 1;
            slot++;
        }
        slot = (slot + SLOT_LANES - 1) / SLOT_LANES * SLOT_LANES;
        int local = g - s->thread_group[t];
        s->most_groups = local > s->most_groups ? local : s->most_groups;
    }
    s->thread_group[threads] = g;
    s->group_start[g] = slot;
    assert(g == groups && slot == slots);

    /* the waits: for a predecessor on another thread, until that thread
     * has done its group */
    for (size_t k = 0; k < group_slots * (size_t)threads; k++)
        dense[k] = -1;
    for (int l = 0; l < links; l++)
        for (int e = 0; e < 2; e++) {
            int d = dep[2 * l + e];
            if (d < 0 || thread_of[d] == thread_of[l])
                continue;
            int *wait = &dense[(size_t)link_group[l] * (size_t)threads + (size_t)thread_of[d]];
            *wait = group_local[link_group[d]] > *wait ? group_local[link_group[d]] : *wait;
        }
    int w = 0;
    for (int h = 0; h < groups; h++) {
        s->wait_start[h] = w;
        for (int u = 0; u < threads; u++) {
            int wanted = dense[(size_t)h * (size_t)threads + (size_t)u];
            if (wanted < 0)
                continue;
            s->waits[w++] = (Wait){u, wanted};
            s->publish[s->thread_group[u] + wanted] = 1;
        }
    }
    s->wait_start[groups] = w;
    for (int v = 0; v < slots / SLOT_LANES; v++) {
        const int i = v * SLOT_LANES;
        bool run = s->slot_real[i];
        for (int j = 1; j < SLOT_LANES && run; j++)
            run =
                !s->slot_real[i + j] || (s->slot_real[i + j - 1] && s->slot_link[i + j] == s->slot_link[i] + j &&
                                         s->slot_a[i + j] == s->slot_a[i] + j && s->slot_b[i + j] == s->slot_b[i] + j);
        s->vector_run[v] = run;
    }
    check_schedule(s, c, link_group, dep, group_thread, group_phase, group_local);
    free(level), free(last), free(dep), free(link_group), free(order), free(thread_of), free(phase_of);
    free(group_thread), free(group_phase), free(group_local), free(dense);
    return s;
fail:
    free(level), free(last), free(dep), free(link_group), free(order), free(thread_of), free(phase_of);
    free(group_thread), free(group_phase), free(group_local), free(dense);
    relax_schedule_destroy(s);
    return NULL;
}

void relax_schedule_destroy(RelaxSchedule *s)
{
    if (!s)
        return;
    free(s->slot_link), free(s->slot_a), free(s->slot_b), free(s->slot_family);
    free(s->slot_real), free(s->slot_live), free(s->vector_run);
    free(s->group_start), free(s->wait_start), free(s->waits), free(s->publish);
    free(s->progress);
    free(s);
}

int relax_schedule_threads(const RelaxSchedule *s)
{
    return s->threads;
}

int relax_schedule_levels(const RelaxSchedule *s)
{
    return s->levels;
}

void relax_schedule_refresh(RelaxSchedule *s, const Cloth *c)
{
    if (s->fresh && s->torn_generation == c->torn_generation)
        return;
    for (int i = 0; i < s->slot_count; i++)
        s->slot_live[i] = s->slot_real[i] && !c->torn[s->slot_link[i]];
    s->torn_generation = c->torn_generation;
    s->fresh = true;
}

/* ------------------------------------------------------------ kernels */

/* The plain loop's function, slot by slot. */
SOLVER_FUSED_LOOP static void run_plain(const RelaxSchedule *s, Cloth *c, float *lambda, const RelaxPassConstants *p,
                                        int from, int to)
{
    for (int i = from; i < to; i++) {
        if (!s->slot_live[i])
            continue;
        int f = s->slot_family[i];
        uint32_t l = (uint32_t)s->slot_link[i];
        if (p->jacobi)
            solver_jacobi_link(c, l, p->k[f], p->alpha[f], p->xpbd, p->jacobi_count, &lambda[l], p->jx, p->jy, p->jz);
        else
            solver_relax_link(c, l, p->k[f], p->alpha[f], p->xpbd, p->kept, &lambda[l]);
    }
}

#if SCHEDULE_X86
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx2,fma")))

/* Sixteen slots at once: solver_link_correction and the moves of
 * solver_relax_link (not kept), operation for operation. A lane that the
 * plain loop skips is computed and not stored. */
AVX512 static void run_wide(const RelaxSchedule *s, Cloth *c, float *lambda, const RelaxPassConstants *p, int from,
                            int to)
{
    const __m512 k_family = _mm512_setr_ps(p->k[0], p->k[1], p->k[2], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m512 alpha_family =
        _mm512_setr_ps(p->alpha[0], p->alpha[1], p->alpha[2], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m512 zero = _mm512_setzero_ps(), tiny = _mm512_set1_ps(1e-12f);
    float *x = c->x, *y = c->y, *z = c->z;
    for (int i = from; i < to; i += SLOT_LANES) {
        __m512i link = _mm512_load_si512(s->slot_link + i);
        __m512i a = _mm512_load_si512(s->slot_a + i), b = _mm512_load_si512(s->slot_b + i);
        __m512i family = _mm512_load_si512(s->slot_family + i);
        __mmask16 live = _mm512_test_epi32_mask(_mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)(s->slot_live + i))),
                                                _mm512_set1_epi32(0xff));
        const bool run = s->vector_run[i / SLOT_LANES];
        const int a0 = s->slot_a[i], b0 = s->slot_b[i], l0 = s->slot_link[i];
        __m512 k = _mm512_permutexvar_ps(family, k_family);
        live &= _mm512_cmp_ps_mask(k, zero, _CMP_NLE_UQ); /* the plain loop skips k <= 0 */
        if (!live)
            continue;
            /* a run's lanes past the live ones are not read: masked loads */
#define LOAD(base, index, first)                                                                                       \
    (run ? _mm512_maskz_loadu_ps(live, (base) + (first)) : _mm512_mask_i32gather_ps(zero, live, index, base, 4))
#define STORE(base, index, first, value)                                                                               \
    do {                                                                                                               \
        if (run)                                                                                                       \
            _mm512_mask_storeu_ps((base) + (first), live, value);                                                      \
        else                                                                                                           \
            _mm512_mask_i32scatter_ps(base, live, index, value, 4);                                                    \
    } while (0)
        __m512 wa = LOAD(c->inv_mass, a, a0), wb = LOAD(c->inv_mass, b, b0);
        __m512 w = _mm512_add_ps(wa, wb);
        live &= _mm512_cmp_ps_mask(w, zero, _CMP_NEQ_UQ);
        __m512 xa = LOAD(x, a, a0), ya = LOAD(y, a, a0), za = LOAD(z, a, a0);
        __m512 xb = LOAD(x, b, b0), yb = LOAD(y, b, b0), zb = LOAD(z, b, b0);
        __m512 d0 = _mm512_sub_ps(xb, xa), d1 = _mm512_sub_ps(yb, ya), d2 = _mm512_sub_ps(zb, za);
        __m512 length = _mm512_sqrt_ps(_mm512_fmadd_ps(d2, d2, _mm512_fmadd_ps(d1, d1, _mm512_mul_ps(d0, d0))));
        live &= _mm512_cmp_ps_mask(length, tiny, _CMP_NLT_UQ);
        if (!live)
            continue;
        __m512 rest = LOAD(c->rest_length, link, l0);
        __m512 error = _mm512_sub_ps(length, rest);
        __m512 scale;
        if (p->xpbd) {
            __m512 alpha_link = _mm512_mul_ps(_mm512_permutexvar_ps(family, alpha_family), rest);
            __m512 old = LOAD(lambda, link, l0);
            __m512 minus_error = _mm512_xor_ps(error, _mm512_set1_ps(-0.0f)); /* the plain loop's -error */
            __m512 dlambda =
                _mm512_div_ps(_mm512_sub_ps(minus_error, _mm512_mul_ps(alpha_link, old)), _mm512_add_ps(w, alpha_link));
            STORE(lambda, link, l0, _mm512_add_ps(old, dlambda));
            scale = _mm512_div_ps(_mm512_xor_ps(dlambda, _mm512_set1_ps(-0.0f)), length);
        } else {
            scale = _mm512_div_ps(_mm512_mul_ps(k, error), _mm512_mul_ps(length, w));
        }
        __m512 ma = _mm512_mul_ps(wa, scale), mb = _mm512_mul_ps(wb, scale);
        STORE(x, a, a0, _mm512_fmadd_ps(ma, d0, xa));
        STORE(y, a, a0, _mm512_fmadd_ps(ma, d1, ya));
        STORE(z, a, a0, _mm512_fmadd_ps(ma, d2, za));
        STORE(x, b, b0, _mm512_fnmadd_ps(mb, d0, xb));
        STORE(y, b, b0, _mm512_fnmadd_ps(mb, d1, yb));
        STORE(z, b, b0, _mm512_fnmadd_ps(mb, d2, zb));
#undef LOAD
#undef STORE
    }
}
#endif

static void run_group(const RelaxSchedule *s, Cloth *c, float *lambda, const RelaxPassConstants *p, int from, int to)
{
#if SCHEDULE_X86
    if (p->kernels >= RELAX_FAST_AVX512 && !p->kept && !p->jacobi) {
        run_wide(s, c, lambda, p, from, to);
        return;
    }
#endif
    run_plain(s, c, lambda, p, from, to);
}

static inline void pause_a_little(int *spins)
{
    if (++*spins < WAIT_SPINS) {
#if SCHEDULE_X86
        __builtin_ia32_pause();
#endif
    } else {
        sched_yield();
    }
}

void relax_schedule_run(RelaxSchedule *s, Cloth *c, float *lambda, const RelaxPassConstants *p, int t, unsigned serial)
{
    assert(s->fresh);
    if (t >= s->threads)
        return; /* a cloth with fewer rows or columns than threads */
    const unsigned base = serial * (unsigned)(s->most_groups + 1);
    unsigned seen[RELAX_FAST_MAX_THREADS] = {0}; /* each thread's progress, as last read */
    const int first = s->thread_group[t];
    for (int g = first; g < s->thread_group[t + 1]; g++) {
        for (int w = s->wait_start[g]; w < s->wait_start[g + 1]; w++) {
            int u = s->waits[w].thread;
            unsigned wanted = base + (unsigned)s->waits[w].group + 1;
            int spins = 0;
            while ((int)(seen[u] - wanted) < 0) {
                seen[u] = atomic_load_explicit(&s->progress[u].done, memory_order_acquire);
                if ((int)(seen[u] - wanted) < 0)
                    pause_a_little(&spins);
            }
        }
        run_group(s, c, lambda, p, s->group_start[g], s->group_start[g + 1]);
        if (s->publish[g])
            atomic_store_explicit(&s->progress[t].done, base + (unsigned)(g - first) + 1, memory_order_release);
    }
}
