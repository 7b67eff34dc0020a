/* bench.c - `clothsim bench`: the solver's and the renderer's cost.
 *
 * The solver: the curtain scene (wind and the moving sphere on) at 20 x 20
 * up to 200 x 200 particles, 10 iterations, for jakobsen, pbd and xpbd; the
 * classic sequential loop, the sequential order's fast path (the same
 * bits) and the colored order's, each on 1 thread and on every thread count
 * the machine has. The cost is the whole step
 * (forces, integration, relaxation, contact, velocities, checks) divided by
 * links x substeps x iterations: ns per link per relaxation pass.
 * The renderer: render_solver into a canvas, per mode, at 80 x 24 and
 * 200 x 60 cells, on the default scene after a second of simulated time.
 * The terminal output: the sandbox's own frames (tui_draw) of the default
 * scene at 80 x 24, ncurses writing into a pseudo-terminal opened here and
 * drained by a thread that counts the bytes: bytes per frame at 30 fps.
 *
 * Each figure is measured `reps` times; the table gives the median and the
 * range (min..max). Clocks are read here only: core never reads one.
 */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_setaffinity: the solver on each core in turn */
#endif
#include "bench.h"

#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#if defined(__linux__)
#include <sched.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench_course.h"
#include "bench_node.h"
#include "cli.h"
#include "fast/relax_fast.h"
#include "core/level.h"
#include "core/solver.h"
#include "render/render.h"
#include "tui_draw.h"
#include "tui_panes.h"
#include "tui_session.h"
#include "i18n.h"

/* the benchmark's own kernels (floor_work) */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define BENCH_X86 1
#include <immintrin.h>
#define BENCH_AVX2 __attribute__((target("avx2,fma")))
#define BENCH_AVX512 __attribute__((target("avx512f,avx2,fma")))
#else
#define BENCH_X86 0
#endif

/* text, or its translation when `read`: the report a person reads follows
 * the locale, while the JSON (data) and the terminal note's English copy
 * keep the msgid as it is */
__attribute__((format_arg(2))) static const char *in(bool read, const char *text)
{
    return read ? gettext(text) : text;
}

static const char bench_usage[] = N_("usage: clothsim bench [--quick] [--levels] [--json] [--reps N]\n"
                                     "\n"
                                     "Measures the solver, the renderer and the bytes the sandbox sends its terminal\n"
                                     "on this machine (about a minute; no terminal needed).\n"
                                     "  --quick   a fast smoke run: fewer, shorter repetitions (a few seconds)\n"
                                     "  --levels  only the default order at each instruction-set level (some seconds)\n"
                                     "  --json    the same figures as JSON on standard output\n"
                                     "  --reps N  repetitions of each measurement (default 7, quick 3)\n");

#define BENCH_SIZES 4
#define BENCH_INTEGRATORS 3
#define BENCH_MAX_THREADS RELAX_FAST_MAX_THREADS
#define BENCH_ITERATIONS 10
#define RENDER_SIZES 2

static const int bench_sizes[BENCH_SIZES] = {20, 40, 100, 200};
static const int bench_integrators[BENCH_INTEGRATORS] = {INTEGRATOR_JAKOBSEN, INTEGRATOR_PBD, INTEGRATOR_XPBD};
static const int render_sizes[RENDER_SIZES][2] = {{80, 24}, {200, 60}};

#define SANDBOX_FPS 30.0

/* The terminal output: frames drawn before counting (a second at 30 fps,
 * the first a whole screen), then frames counted per repetition. */
#define BYTES_COLS 80
#define BYTES_ROWS 24
#define BYTES_SETTLE_FRAMES 30
#define BYTES_FRAMES 300
#define BYTES_FRAMES_QUICK 60
#define BYTES_TERM "xterm-256color" /* when TERM is unset or dumb */
#define BYTES_SYNC_SECONDS 10.0     /* longest wait for the drain to catch up */

typedef struct Config {
    int reps;
    double rep_seconds;  /* length of one repetition */
    double warm_seconds; /* at most this long settling the scene first */
    bool json;
    bool quick;
    bool levels_only; /* --levels */
} Config;

typedef struct Stat {
    double median, min, max;
} Stat;

/* One solver measurement: ns per link per pass and steps per second. */
typedef struct SolverFigure {
    Stat ns;
    double ns_by_rep[BENCH_MAX_REPS]; /* in the order measured: repetition r of figures measured together ran
                                         in the same round */
    Stat steps_per_second;
    bool exploded;
    bool ok;
} SolverFigure;

/* The default order (sequential) at one instruction-set level, one thread,
 * by processor time: seed 000's workload, jakobsen 200 x 200, and the
 * sandbox's frames at 80 x 24 (processor seconds a frame). */
typedef struct LevelRow {
    RelaxFastKernels kernels;
    SolverFigure seed, big;
    int core_ran[2]; /* the level core's loops ran at in the last repetition of seed and big (core_level_ran) */
    Stat sandbox_cpu;
    bool sandbox_ok;
} LevelRow;

typedef struct SolverRow {
    int integrator, size, links, substeps;
    SolverFigure sequential;                     /* the plain loop, classic order */
    SolverFigure colored[BENCH_MAX_THREADS + 1]; /* by thread count */
    SolverFigure fast[BENCH_MAX_THREADS + 1];    /* the sequential order's fast path, by thread count */
} SolverRow;

typedef struct Results {
    int threads;              /* the machine's */
    RelaxFastKernels kernels; /* the widest the CPU runs */
    SolverRow rows[BENCH_INTEGRATORS][BENCH_SIZES];
    Stat frame_ms[RENDER_SIZES][RENDER_MODE_COUNT];
    bool frame_ok[RENDER_SIZES][RENDER_MODE_COUNT];
    SolverFigure sandbox_sequential, sandbox_colored; /* the default scene */
    SolverFigure seed_sequential, seed_colored;       /* seed 000's workload (seed_params) */
    SolverFigure seed_plain;                          /* the same, sequential through the plain loop */
    BenchNodeFigure node;                             /* the same in JavaScript, in node (bench_node.c) */
    bool node_ok;
    BenchCourseFigure course; /* check --run over the course (bench_course.c); not with --quick */
    bool course_ok;
    FrameBytes bytes; /* written to the terminal per frame, 80 x 24 */
    bool bytes_ok;
    Stat bytes_per_frame;
    Stat sandbox_cpu;          /* processor seconds a frame, the sandbox's frames into the pseudo-terminal */
    FrameBytes bytes_implicit; /* the same under integrator=implicit */
    bool bytes_implicit_ok;
    Stat sandbox_cpu_implicit;
    /* every integrator's step of the curtain, at 40 x 40 and 200 x 200 (STEP_SIZES) */
    SolverFigure step_cost[INTEGRATOR_COUNT][2];
    int step_cg[INTEGRATOR_COUNT][2]; /* implicit: the last step's conjugate-gradient iterations */
    Stat floor_ns;                    /* a square root and a division, 8 lanes at a time: ns a link */
    Stat floor_wide_ns;               /* the same 16 lanes at a time (AVX-512 only) */
    Stat solve_ns;                    /* a link's whole correction in registers, 8 lanes at a time: ns a link */
    Stat solve_wide_ns;               /* the same 16 lanes at a time (AVX-512 only) */
    /* jakobsen 200 x 200 on one thread, on each core in turn (Linux) */
    int cores;
    int core_id[BENCH_MAX_THREADS];
    SolverFigure core[BENCH_MAX_THREADS];
    long peak_kib;
    /* the default order at each instruction-set level the processor has */
    int level_count;
    LevelRow levels[RELAX_FAST_LEVELS];
} Results;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Processor time of the whole process, all threads (s). */
static double process_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static Stat stat_of(double *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, compare_double);
    double median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
    return (Stat){.median = median, .min = values[0], .max = values[n - 1]};
}

/* One configuration being timed. */
typedef struct Timing {
    Solver *solver;
    long steps; /* a repetition */
    double ns[BENCH_MAX_REPS], rate[BENCH_MAX_REPS];
} Timing;

/* Creates the solver and settles the scene; false if it cannot. */
static bool timing_start(Timing *t, const Params *params, int threads, bool plain, const Config *cfg)
{
    t->solver = solver_create(params);
    if (!t->solver)
        return false;
    t->solver->plain_relax = plain;
    if (threads > 1 && !solver_set_threads(t->solver, threads)) {
        solver_destroy(t->solver);
        t->solver = NULL;
        return false;
    }
    double start = now();
    int warm = 0;
    while (warm < 2 || (warm < 60 && now() - start < cfg->warm_seconds)) {
        solver_step(t->solver);
        warm++;
    }
    double per_step = (now() - start) / warm;
    long steps = (long)(cfg->rep_seconds / per_step);
    t->steps = steps < 1 ? 1 : steps > 100000 ? 100000 : steps;
    return true;
}

/* clock: now (wall time) or process_seconds (processor time) */
static void timing_rep(Timing *t, int r, double (*clock)(void))
{
    Solver *s = t->solver;
    double passes = (double)s->cloth->link_count * s->params.substeps * s->params.iterations;
    double t0 = clock();
    for (long n = 0; n < t->steps; n++)
        solver_step(s);
    double seconds = clock() - t0;
    t->ns[r] = 1e9 * seconds / (passes * (double)t->steps);
    t->rate[r] = (double)t->steps / seconds;
}

static SolverFigure timing_end(Timing *t, const Config *cfg)
{
    if (!t->solver)
        return (SolverFigure){.ok = false};
    SolverFigure out = {.ok = true, .exploded = t->solver->exploded};
    memcpy(out.ns_by_rep, t->ns, sizeof out.ns_by_rep);
    out.ns = stat_of(t->ns, cfg->reps);
    out.steps_per_second = stat_of(t->rate, cfg->reps);
    solver_destroy(t->solver);
    t->solver = NULL;
    return out;
}

/* Times configurations that are compared with each other: their
 * repetitions take turns, so that a moment when the machine is busy with
 * something else (other users, other virtual machines) slows them all
 * alike instead of one. params[k] on threads[k] into out[k]. */
static void measure_together(const Params *params, const int *threads, const bool *plain, int count, const Config *cfg,
                             SolverFigure *out)
{
    Timing timing[BENCH_INTEGRATORS * (2 * BENCH_MAX_THREADS + 1)];
    for (int k = 0; k < count; k++)
        if (!timing_start(&timing[k], &params[k], threads[k], plain[k], cfg))
            timing[k].solver = NULL;
    for (int r = 0; r < cfg->reps; r++)
        for (int k = 0; k < count; k++)
            if (timing[k].solver)
                timing_rep(&timing[k], r, now);
    for (int k = 0; k < count; k++)
        out[k] = timing_end(&timing[k], cfg);
}

static void bench_params(Params *p, int integrator, int size, int order)
{
    params_default(p, SCENE_CURTAIN); /* wind, turbulence and the moving sphere on */
    p->cols = p->rows = size;
    p->integrator = integrator;
    p->iterations = BENCH_ITERATIONS;
    p->order = order;
}

/* Seed 000's workload, whose JavaScript takes about 16 ns a link a pass
 * (issue 6): 40 x 40, a Verlet step and 10 Jakobsen passes a frame (one
 * substep), gravity and a sphere (the curtain's, moving); no wind. */
static void seed_params(Params *p, int order)
{
    bench_params(p, INTEGRATOR_JAKOBSEN, 40, order);
    p->substeps = 1;
    p->wind_x = p->wind_z = p->turbulence = 0.0;
}

/* The physical floor the solver's figures are compared with: rounds x 64
 * square roots and divisions, 8 lanes at a time (AVX2), 16 (AVX-512) or
 * one (scalar), the widest of `kernels` this CPU has; the caller times it.
 * Returns a value that depends on all of them. The benchmark's own kernels,
 * kept here rather than among the solver's. */
#if BENCH_X86
BENCH_AVX2 static float divider_avx2(long rounds)
{
    __m256 v[8];
    const __m256 one = _mm256_set1_ps(1.0f);
    for (int i = 0; i < 8; i++)
        v[i] = _mm256_set1_ps(1.5f + (float)i);
    for (long r = 0; r < rounds; r++)
        for (int i = 0; i < 8; i++) /* eight independent chains: throughput, not latency */
            v[i] = _mm256_div_ps(one, _mm256_sqrt_ps(v[i]));
    float out[8];
    _mm256_storeu_ps(out, _mm256_add_ps(v[0], v[7]));
    return out[0];
}

/* The same with 16 lanes: half the rounds, as many square roots. */
BENCH_AVX512 static float divider_avx512(long rounds)
{
    __m512 v[8];
    const __m512 one = _mm512_set1_ps(1.0f);
    for (int i = 0; i < 8; i++)
        v[i] = _mm512_set1_ps(1.5f + (float)i);
    for (long r = 0; r < rounds / 2; r++)
        for (int i = 0; i < 8; i++)
            v[i] = _mm512_div_ps(one, _mm512_sqrt_ps(v[i]));
    float out[16];
    _mm512_storeu_ps(out, _mm512_add_ps(v[0], v[7]));
    return out[0];
}

/* The other floor: a link's whole correction and its two moves, the plain
 * loop's arithmetic operation for operation (solver_link_correction and
 * solver_relax_link: fused multiply-adds where they call fmaf, the lanes
 * it skips left as they were), on eight independent links a lane kept in
 * registers, with fixed inverse masses: what any order of the passes pays for its
 * arithmetic, with no load, store, copy or wait. rounds x 64 links, as
 * the divider floor. */
BENCH_AVX2 static float solve_avx2(long rounds)
{
    __m256 ax[8], ay[8], az[8], bx[8], by[8], bz[8];
    const __m256 wa = _mm256_set1_ps(1.0f), wb = _mm256_set1_ps(0.5f), rest = _mm256_set1_ps(0.02f),
                 k = _mm256_set1_ps(0.9f), zero = _mm256_setzero_ps(), tiny = _mm256_set1_ps(1e-12f);
    for (int i = 0; i < 8; i++) {
        ax[i] = ay[i] = az[i] = _mm256_set1_ps(0.01f * (float)i);
        bx[i] = _mm256_set1_ps(0.01f * (float)i + 0.03f), by[i] = _mm256_set1_ps(0.01f * (float)i - 0.01f);
        bz[i] = _mm256_set1_ps(0.01f * (float)i + 0.005f);
    }
    for (long r = 0; r < rounds; r++)
        for (int i = 0; i < 8; i++) {
            __m256 w = _mm256_add_ps(wa, wb);
            __m256 dx = _mm256_sub_ps(bx[i], ax[i]), dy = _mm256_sub_ps(by[i], ay[i]), dz = _mm256_sub_ps(bz[i], az[i]);
            __m256 length = _mm256_sqrt_ps(_mm256_fmadd_ps(dz, dz, _mm256_fmadd_ps(dy, dy, _mm256_mul_ps(dx, dx))));
            __m256 live = _mm256_and_ps(_mm256_cmp_ps(w, zero, _CMP_NEQ_UQ), _mm256_cmp_ps(length, tiny, _CMP_NLT_UQ));
            __m256 scale = _mm256_div_ps(_mm256_mul_ps(k, _mm256_sub_ps(length, rest)), _mm256_mul_ps(length, w));
            __m256 ma = _mm256_and_ps(live, _mm256_mul_ps(wa, scale)),
                   mb = _mm256_and_ps(live, _mm256_mul_ps(wb, scale));
            ax[i] = _mm256_fmadd_ps(ma, dx, ax[i]), ay[i] = _mm256_fmadd_ps(ma, dy, ay[i]);
            az[i] = _mm256_fmadd_ps(ma, dz, az[i]);
            bx[i] = _mm256_fnmadd_ps(mb, dx, bx[i]), by[i] = _mm256_fnmadd_ps(mb, dy, by[i]);
            bz[i] = _mm256_fnmadd_ps(mb, dz, bz[i]);
        }
    float out[8];
    _mm256_storeu_ps(out, _mm256_add_ps(_mm256_add_ps(ax[0], bz[7]), _mm256_add_ps(ay[3], bx[4])));
    return out[0];
}

/* The same with 16 lanes (half the rounds), the lanes it skips masked as
 * the sequential order's AVX-512 walks mask them. */
BENCH_AVX512 static float solve_avx512(long rounds)
{
    __m512 ax[8], ay[8], az[8], bx[8], by[8], bz[8];
    const __m512 wa = _mm512_set1_ps(1.0f), wb = _mm512_set1_ps(0.5f), rest = _mm512_set1_ps(0.02f),
                 k = _mm512_set1_ps(0.9f), zero = _mm512_setzero_ps(), tiny = _mm512_set1_ps(1e-12f);
    for (int i = 0; i < 8; i++) {
        ax[i] = ay[i] = az[i] = _mm512_set1_ps(0.01f * (float)i);
        bx[i] = _mm512_set1_ps(0.01f * (float)i + 0.03f), by[i] = _mm512_set1_ps(0.01f * (float)i - 0.01f);
        bz[i] = _mm512_set1_ps(0.01f * (float)i + 0.005f);
    }
    for (long r = 0; r < rounds / 2; r++)
        for (int i = 0; i < 8; i++) {
            __m512 w = _mm512_add_ps(wa, wb);
            __mmask16 live = _mm512_cmp_ps_mask(w, zero, _CMP_NEQ_UQ);
            __m512 dx = _mm512_sub_ps(bx[i], ax[i]), dy = _mm512_sub_ps(by[i], ay[i]), dz = _mm512_sub_ps(bz[i], az[i]);
            __m512 length = _mm512_sqrt_ps(_mm512_fmadd_ps(dz, dz, _mm512_fmadd_ps(dy, dy, _mm512_mul_ps(dx, dx))));
            live &= _mm512_cmp_ps_mask(length, tiny, _CMP_NLT_UQ);
            __m512 scale = _mm512_div_ps(_mm512_mul_ps(k, _mm512_sub_ps(length, rest)), _mm512_mul_ps(length, w));
            __m512 ma = _mm512_mul_ps(wa, scale), mb = _mm512_mul_ps(wb, scale);
            ax[i] = _mm512_mask3_fmadd_ps(ma, dx, ax[i], live), ay[i] = _mm512_mask3_fmadd_ps(ma, dy, ay[i], live);
            az[i] = _mm512_mask3_fmadd_ps(ma, dz, az[i], live), bx[i] = _mm512_mask3_fnmadd_ps(mb, dx, bx[i], live);
            by[i] = _mm512_mask3_fnmadd_ps(mb, dy, by[i], live), bz[i] = _mm512_mask3_fnmadd_ps(mb, dz, bz[i], live);
        }
    float out[16];
    _mm512_storeu_ps(out, _mm512_add_ps(_mm512_add_ps(ax[0], bz[7]), _mm512_add_ps(ay[3], bx[4])));
    return out[0];
}
#endif

/* The two floors one link at a time, where the CPU has neither AVX2 nor
 * AVX-512: eight chains, 8 rounds of them for a round's 64 links. */
static float solve_scalar(long rounds)
{
    float a[8][3], b[8][3];
    for (int i = 0; i < 8; i++)
        for (int q = 0; q < 3; q++)
            a[i][q] = 0.01f * (float)i, b[i][q] = 0.01f * (float)i + 0.01f * (float)(q + 1);
    for (long r = 0; r < 8 * rounds; r++)
        for (int i = 0; i < 8; i++) {
            float d[3] = {b[i][0] - a[i][0], b[i][1] - a[i][1], b[i][2] - a[i][2]};
            float length = sqrtf(fmaf(d[2], d[2], fmaf(d[1], d[1], d[0] * d[0])));
            if (length < 1e-12f)
                continue;
            float scale = 0.9f * (length - 0.02f) / (length * 1.5f);
            for (int q = 0; q < 3; q++)
                a[i][q] = fmaf(1.0f * scale, d[q], a[i][q]), b[i][q] = fmaf(-(0.5f * scale), d[q], b[i][q]);
        }
    return a[0][0] + b[7][2];
}

static float divider_scalar(long rounds)
{
    float v[8];
    for (int i = 0; i < 8; i++)
        v[i] = 1.5f + (float)i;
    for (long r = 0; r < 8 * rounds; r++)
        for (int i = 0; i < 8; i++)
            v[i] = 1.0f / sqrtf(v[i]);
    return v[0] + v[7];
}

/* rounds x 64 links of a floor (whole: the correction, else the square
 * root and division), the widest of `kernels` this CPU has. */
static float floor_work(long rounds, RelaxFastKernels kernels, bool whole)
{
#if BENCH_X86
    if (kernels >= RELAX_FAST_AVX512 && relax_fast_cpu_has_wide())
        return whole ? solve_avx512(rounds) : divider_avx512(rounds);
    if (kernels >= RELAX_FAST_AVX2 && relax_fast_cpu_has_simd())
        return whole ? solve_avx2(rounds) : divider_avx2(rounds);
#else
    (void)kernels;
#endif
    return whole ? solve_scalar(rounds) : divider_scalar(rounds);
}

/* The physical floor: the square root and the division one link needs,
 * eight or sixteen lanes at a time (kernels), nothing else; or (whole) a
 * link's whole correction. */
static Stat measure_floor(const Config *cfg, RelaxFastKernels kernels, bool whole)
{
    double ns[BENCH_MAX_REPS];
    long rounds = cfg->quick ? 20000 : 400000; /* 64 lanes a round */
    static volatile float sink;
    for (int r = 0; r < cfg->reps; r++) {
        double t0 = now();
        sink = floor_work(rounds, kernels, whole);
        ns[r] = 1e9 * (now() - t0) / (64.0 * (double)rounds);
    }
    (void)sink;
    return stat_of(ns, cfg->reps);
}

static void run_solver(Results *res, const Config *cfg)
{
    res->floor_ns = measure_floor(cfg, RELAX_FAST_AVX2, false);
    res->solve_ns = measure_floor(cfg, RELAX_FAST_AVX2, true);
    if (res->kernels >= RELAX_FAST_AVX512) {
        res->floor_wide_ns = measure_floor(cfg, RELAX_FAST_AVX512, false);
        res->solve_wide_ns = measure_floor(cfg, RELAX_FAST_AVX512, true);
    }
    /* a size at a time, the three methods and every order and thread count
     * together: the ratios between them are what the targets read */
    enum { PER_SIZE = BENCH_INTEGRATORS * (2 * BENCH_MAX_THREADS + 1) };
    for (int z = 0; z < BENCH_SIZES; z++) {
        Params variant[PER_SIZE];
        int threads[PER_SIZE], count = 0;
        bool plain[PER_SIZE] = {false};
        SolverFigure figure[PER_SIZE];
        for (int i = 0; i < BENCH_INTEGRATORS; i++) {
            SolverRow *row = &res->rows[i][z];
            Params p;
            bench_params(&p, bench_integrators[i], bench_sizes[z], ORDER_SEQUENTIAL);
            row->integrator = p.integrator;
            row->size = bench_sizes[z];
            row->substeps = p.substeps;
            Cloth *probe = cloth_create(p.cols, p.rows);
            row->links = probe ? probe->link_count : 0;
            cloth_destroy(probe);
            plain[count] = true, variant[count] = p, threads[count++] = 1;
            for (int t = 1; t <= res->threads; t++)
                variant[count] = p, threads[count++] = t;
            p.order = ORDER_COLORED;
            for (int t = 1; t <= res->threads; t++)
                variant[count] = p, threads[count++] = t;
        }
        {
            char line[160];
            snprintf(line, sizeof line, _("clothsim bench: %dx%d"), bench_sizes[z], bench_sizes[z]);
            cli_say(line);
        }
        measure_together(variant, threads, plain, count, cfg, figure);
        for (int i = 0, k = 0; i < BENCH_INTEGRATORS; i++) {
            SolverRow *row = &res->rows[i][z];
            row->sequential = figure[k++];
            for (int t = 1; t <= res->threads; t++)
                row->fast[t] = figure[k++];
            for (int t = 1; t <= res->threads; t++)
                row->colored[t] = figure[k++];
        }
    }
    cli_say(_("clothsim bench: the default scene and seed 000's workload"));
    Params variant[5];
    const int one[5] = {1, 1, 1, 1, 1};
    const bool plain[5] = {false, false, false, false, true};
    SolverFigure figure[5];
    params_default(&variant[0], SCENE_CURTAIN);
    variant[1] = variant[0];
    variant[1].order = ORDER_COLORED;
    seed_params(&variant[2], ORDER_SEQUENTIAL);
    seed_params(&variant[3], ORDER_COLORED);
    seed_params(&variant[4], ORDER_SEQUENTIAL);
    measure_together(variant, one, plain, 5, cfg, figure);
    res->sandbox_sequential = figure[0], res->sandbox_colored = figure[1];
    res->seed_sequential = figure[2], res->seed_colored = figure[3], res->seed_plain = figure[4];
    cli_say(_("clothsim bench: seed 000's workload in JavaScript, in node"));
    res->node_ok = bench_node_seed(cfg->reps, cfg->quick ? 0.05 : 0.5, &res->node);
}

/* One thread of jakobsen 200 x 200 on each core the process may use, in
 * turns: on a shared machine one core can be slower than the other for
 * minutes (another tenant's work), which no thread count can make up for.
 * Two threads are then at most 1 + fast / slow times one on the faster. */
static void run_cores(Results *res, const Config *cfg)
{
#if defined(__linux__)
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return;
    res->cores = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && res->cores < BENCH_MAX_THREADS; cpu++)
        if (CPU_ISSET(cpu, &allowed))
            res->core_id[res->cores++] = cpu;
    if (res->cores < 2) {
        res->cores = 0;
        return;
    }
    Params p;
    bench_params(&p, INTEGRATOR_JAKOBSEN, 200, ORDER_COLORED);
    Timing timing;
    if (!timing_start(&timing, &p, 1, false, cfg)) {
        res->cores = 0;
        return;
    }
    double ns[BENCH_MAX_THREADS][BENCH_MAX_REPS];
    for (int r = 0; r < cfg->reps; r++)
        for (int k = 0; k < res->cores; k++) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(res->core_id[k], &one);
            sched_setaffinity(0, sizeof one, &one);
            timing_rep(&timing, r, now);
            ns[k][r] = timing.ns[r];
        }
    sched_setaffinity(0, sizeof allowed, &allowed);
    for (int k = 0; k < res->cores; k++)
        res->core[k] = (SolverFigure){.ok = true, .ns = stat_of(ns[k], cfg->reps)};
    timing_end(&timing, cfg);
#else
    (void)res, (void)cfg;
#endif
}

/* The fastest and the slowest core's medians, if measured. */
static bool core_range(const Results *res, double *fast, double *slow)
{
    if (res->cores < 2)
        return false;
    *fast = INFINITY, *slow = 0.0;
    for (int k = 0; k < res->cores; k++) {
        *fast = fmin(*fast, res->core[k].ns.median);
        *slow = fmax(*slow, res->core[k].ns.median);
    }
    return true;
}

static void run_render(Results *res, const Config *cfg)
{
    Params p;
    params_default(&p, SCENE_CURTAIN);
    Solver *s = solver_create(&p);
    if (!s)
        return;
    for (int n = 0; n < 60; n++) /* a second: the cloth hangs and flutters */
        solver_step(s);
    for (int z = 0; z < RENDER_SIZES; z++) {
        int width = render_sizes[z][0], height = render_sizes[z][1];
        Canvas *canvas = canvas_create(width, height);
        if (!canvas || !render_reserve(canvas, s->cloth)) {
            canvas_destroy(canvas);
            continue;
        }
        Camera camera;
        camera_init(&camera, p.dim, width, height);
        camera_fit_solver(&camera, s);
        for (int mode = 0; mode < RENDER_MODE_COUNT; mode++) {
            RenderOptions options;
            render_options_default(&options);
            options.mode = (RenderMode)mode;
            double start = now();
            int warm = 0;
            while (warm < 3 || (warm < 1000 && now() - start < 0.02)) {
                render_solver(canvas, &camera, s, &options);
                warm++;
            }
            double per_frame = (now() - start) / warm;
            long frames = (long)(cfg->rep_seconds / per_frame);
            frames = frames < 1 ? 1 : frames > 1000000 ? 1000000 : frames;
            double ms[BENCH_MAX_REPS];
            for (int r = 0; r < cfg->reps; r++) {
                double t0 = now();
                for (long n = 0; n < frames; n++)
                    render_solver(canvas, &camera, s, &options);
                ms[r] = 1e3 * (now() - t0) / (double)frames;
            }
            res->frame_ms[z][mode] = stat_of(ms, cfg->reps);
            res->frame_ok[z][mode] = true;
        }
        canvas_destroy(canvas);
    }
    solver_destroy(s);
}

/* ------------------------------------------------------------ the terminal output */

static const char *bytes_term_name(void)
{
    const char *name = getenv("TERM");
    return name && name[0] && strcmp(name, "dumb") != 0 ? name : BYTES_TERM;
}

static bool codeset_is_utf8(void)
{
    const char *codeset = nl_langinfo(CODESET);
    return codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

/* The sandbox's choice (tui_locale); where the locale is not UTF-8, a UTF-8
 * one if the system has it: braille on a UTF-8 terminal is what the sandbox
 * shows by default, and the figure should not depend on where bench runs. */
static void bytes_locale(Tui *tui)
{
    tui_locale(tui);
    if (tui->utf8)
        return;
    static const char *const utf8_locales[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8"};
    for (size_t k = 0; k < sizeof utf8_locales / sizeof utf8_locales[0]; k++)
        if (setlocale(LC_CTYPE, utf8_locales[k]) && codeset_is_utf8()) {
            tui->utf8 = true;
            tui->ascii_only = false;
            tui->render.glyphs = GLYPHS_BRAILLE;
            return;
        }
    setlocale(LC_CTYPE, "");
}

/* One frame of the sandbox's loop at tui->fps (tui.c, run): the physics the
 * frame owes, the plot samples, the explosion watch (a copy of the state
 * each frame, to show a blow-up from the step before it), the drawing.
 * Allocates and prints nothing after the first frame. */
static void bytes_frame(Tui *tui)
{
    tui_advance(tui, 1.0 / tui->fps, false);
    tui_sample(tui, false);
    tui_blasts_update(tui, true);
    tui_draw(tui);
}

/* an msgid (N_): in() gives the word the note needs */
static const char *colour_name(TuiColour colour)
{
    switch (colour) {
    case COLOUR_256:
        return N_("256 colours");
    case COLOUR_16:
        return N_("16 colours");
    case COLOUR_8:
        return N_("8 colours");
    case COLOUR_NONE:
        break;
    }
    return N_("no colour");
}

/* The frames of one session; false if the drain did not keep up. */
static bool bytes_count(Tui *tui, FrameBytes *fb)
{
    unsigned long long before = 0, after = 0;
    for (int n = 0; n < fb->settle_frames; n++) {
        bytes_frame(tui);
        if (n == 0) {
            if (!tui_term_sync(&tui->term, BYTES_SYNC_SECONDS, &after))
                return false;
            fb->first_frame = (double)after;
        }
    }
    if (!tui_term_sync(&tui->term, BYTES_SYNC_SECONDS, &before))
        return false;
    for (int r = 0; r < fb->reps; r++) {
        double cpu = process_seconds();
        for (int n = 0; n < fb->frames; n++)
            bytes_frame(tui);
        if (!tui_term_sync(&tui->term, BYTES_SYNC_SECONDS, &after))
            return false;
        fb->cpu_per_frame[r] = (process_seconds() - cpu) / (double)fb->frames;
        fb->per_frame[r] = (double)(after - before) / (double)fb->frames;
        before = after;
    }
    return true;
}

/* fb->how in English (the JSON's note) and fb->note in the user's language
 * (the report's), from one format, an msgid (N_) */
__attribute__((format(printf, 2, 3))) static void frame_note(FrameBytes *fb, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(fb->how, sizeof fb->how, format, args);
    va_end(args);
    va_start(args, format);
    vsnprintf(fb->note, sizeof fb->note, gettext(format), args);
    va_end(args);
}

bool bench_frame_bytes(FrameBytes *fb)
{
    fb->first_frame = 0.0;
    memset(fb->per_frame, 0, sizeof fb->per_frame);
    if (fb->cols < TUI_MIN_COLS || fb->rows < TUI_MIN_ROWS || fb->frames < 1 || fb->settle_frames < 1 || fb->reps < 1 ||
        fb->reps > BENCH_MAX_REPS) {
        frame_note(fb, N_("n/a: asked for %dx%d, %d frames, %d settling, %d repetitions"), fb->cols, fb->rows,
                   fb->frames, fb->settle_frames, fb->reps);
        return false;
    }
    char saved_locale[512];
    const char *locale_now = setlocale(LC_ALL, NULL);
    snprintf(saved_locale, sizeof saved_locale, "%s", locale_now ? locale_now : "C");
    Tui *tui = calloc(1, sizeof *tui);
    if (!tui) {
        frame_note(fb, "%s", N_("n/a: out of memory"));
        return false;
    }
    /* the sandbox with no options (tui_main): the default scene at 30 fps */
    tui_defaults(tui);
    params_default(&tui->base, SCENE_CURTAIN); /* order=sequential, as in tui_main */
    if (fb->implicit)
        tui->base.integrator = INTEGRATOR_IMPLICIT; /* as key 7 sets it */
    tui->pane_count = 1;
    bytes_locale(tui);
    bool ok = false;
    if (!tui_rebuild_panes(tui)) {
        frame_note(fb, N_("n/a: %.300s"), tui->message);
        goto done;
    }
    tui->message[0] = '\0'; /* the start-up hint is gone after 4 s */

    const char *name = bytes_term_name();
    bool through_pipe = false;
    char err[TEXT_MESSAGE_SIZE];
    bool started = tui_session_start_measured(tui, name, fb->cols, fb->rows, &through_pipe, err, sizeof err);
    if (!started && strcmp(name, BYTES_TERM) != 0) {
        name = BYTES_TERM; /* a TERM this system has no terminfo for */
        started = tui_session_start_measured(tui, name, fb->cols, fb->rows, &through_pipe, err, sizeof err);
    }
    if (!started) {
        frame_note(fb, N_("n/a: %.300s"), err);
        goto done;
    }
    if (!tui_layout(tui) || tui->too_small) {
        frame_note(fb, N_("n/a: the sandbox cannot lay out %dx%d"), fb->cols, fb->rows);
    } else {
        tui_sample(tui, true);
        tui->fps_measured = tui->fps; /* the status line as it reads at full speed */
        ok = bytes_count(tui, fb);
        if (!ok && through_pipe)
            frame_note(fb, N_("n/a: the pipe was not drained within %.0f s"), BYTES_SYNC_SECONDS);
        else if (!ok)
            frame_note(fb, N_("n/a: the pseudo-terminal was not drained within %.0f s"), BYTES_SYNC_SECONDS);
        else
            for (int read = 0; read < 2; read++)
                snprintf(read ? fb->note : fb->how, read ? sizeof fb->note : sizeof fb->how,
                         in(read, N_("the sandbox's frames, ncurses into %s: TERM=%.40s, %s, %s; %d frames a "
                                     "repetition at %d fps, after %d not counted, the first of them the whole "
                                     "screen: %.0f bytes")),
                         in(read, through_pipe ? N_("a pipe (no pseudo-terminal here)") : N_("a pseudo-terminal")),
                         name, in(read, colour_name(tui->colour)), in(read, tui->ascii_only ? "ASCII" : N_("braille")),
                         fb->frames, tui->fps, fb->settle_frames, fb->first_frame);
    }
    tui_session_stop(tui);
done:
    for (int i = 0; i < TUI_MAX_PANES; i++)
        solver_destroy(tui->panes[i].solver);
    free(tui);
    setlocale(LC_ALL, saved_locale);
    return ok;
}

static void run_bytes(Results *res, const Config *cfg)
{
    {
        char line[160];
        snprintf(line, sizeof line, _("clothsim bench: bytes a frame at %dx%d"), BYTES_COLS, BYTES_ROWS);
        cli_say(line);
    }
    for (int implicit = 0; implicit < 2; implicit++) {
        FrameBytes *fb = implicit ? &res->bytes_implicit : &res->bytes;
        fb->cols = BYTES_COLS;
        fb->rows = BYTES_ROWS;
        fb->settle_frames = BYTES_SETTLE_FRAMES;
        fb->frames = cfg->quick ? BYTES_FRAMES_QUICK : BYTES_FRAMES;
        fb->reps = cfg->reps;
        fb->implicit = implicit;
        bool ok = bench_frame_bytes(fb);
        *(implicit ? &res->bytes_implicit_ok : &res->bytes_ok) = ok;
        if (ok) {
            double values[BENCH_MAX_REPS];
            memcpy(values, fb->cpu_per_frame, sizeof values);
            *(implicit ? &res->sandbox_cpu_implicit : &res->sandbox_cpu) = stat_of(values, fb->reps);
            memcpy(values, fb->per_frame, sizeof values);
            if (!implicit)
                res->bytes_per_frame = stat_of(values, fb->reps);
        }
    }
}

/* Every integrator's step of the curtain (wind, gusts, the moving sphere;
 * 5 substeps of 1/300 s, 12 passes for the position-based ones, the
 * sequential order) on one thread, at two sizes: what a step of each
 * costs, implicit's linear solve beside the others' passes. */
static const int step_sizes[2] = {40, 200};

static void run_step_costs(Results *res, const Config *cfg)
{
    cli_say(_("clothsim bench: a step of every integrator"));
    for (int z = 0; z < 2; z++) {
        Params params[INTEGRATOR_COUNT];
        int threads[INTEGRATOR_COUNT];
        bool plain[INTEGRATOR_COUNT];
        SolverFigure out[INTEGRATOR_COUNT];
        for (int i = 0; i < INTEGRATOR_COUNT; i++) {
            bench_params(&params[i], i, step_sizes[z], ORDER_SEQUENTIAL);
            threads[i] = 1, plain[i] = false;
        }
        measure_together(params, threads, plain, INTEGRATOR_COUNT, cfg, out);
        for (int i = 0; i < INTEGRATOR_COUNT; i++)
            res->step_cost[i][z] = out[i];
        /* the solve's iterations at the end of such a run */
        Solver *s = solver_create(&params[INTEGRATOR_IMPLICIT]);
        if (s) {
            solver_step(s);
            res->step_cg[INTEGRATOR_IMPLICIT][z] = s->cg_iterations;
            solver_destroy(s);
        }
    }
}

/* ------------------------------------------------------------ the levels */

/* The default order (sequential, what clothsim run and the sandbox use) at
 * each instruction-set level this processor has, as CLOTHSIM_KERNELS would
 * force it: seed 000's workload and jakobsen 200 x 200 on one thread, in
 * turns, by processor time (the machine may be shared), then the sandbox's
 * frames level by level. */
static void run_levels(Results *res, const Config *cfg)
{
    cli_say(_("clothsim bench: the default order at each instruction-set level"));
    const RelaxFastKernels chosen = relax_fast_default_kernels();
    Params workload[2];
    seed_params(&workload[0], ORDER_SEQUENTIAL);
    bench_params(&workload[1], INTEGRATOR_JAKOBSEN, 200, ORDER_SEQUENTIAL);
    Timing timing[2 * RELAX_FAST_LEVELS];
    res->level_count = 0;
    for (int k = 0; k < RELAX_FAST_LEVELS; k++) {
        if (!relax_fast_cpu_has((RelaxFastKernels)k))
            continue;
        int at = res->level_count++;
        res->levels[at].kernels = (RelaxFastKernels)k;
        res->levels[at].core_ran[0] = res->levels[at].core_ran[1] = -1;
        relax_fast_set_default_kernels((RelaxFastKernels)k); /* the solvers made now use it */
        for (int w = 0; w < 2; w++)
            if (!timing_start(&timing[2 * at + w], &workload[w], 1, false, cfg))
                timing[2 * at + w].solver = NULL;
    }
    /* Each repetition with core's loops at its row's level too, as
     * CLOTHSIM_KERNELS sets both: the level is the process's, and the
     * solvers above were made at each level in turn, leaving the widest
     * (a row at AVX2 with 512-bit integration beside it is no processor's:
     * src/fast/README.md, "Levels"). */
    for (int r = 0; r < cfg->reps; r++)
        for (int k = 0; k < 2 * res->level_count; k++)
            if (timing[k].solver) {
                LevelRow *row = &res->levels[k / 2];
                relax_fast_set_default_kernels(row->kernels);
                core_level_forget();
                timing_rep(&timing[k], r, process_seconds);
                row->core_ran[k % 2] = core_level_ran(CORE_LOOPS_INTEGRATE);
            }
    for (int at = 0; at < res->level_count; at++) {
        LevelRow *row = &res->levels[at];
        row->seed = timing_end(&timing[2 * at], cfg);
        row->big = timing_end(&timing[2 * at + 1], cfg);
        relax_fast_set_default_kernels(row->kernels);
        FrameBytes fb = {.cols = BYTES_COLS,
                         .rows = BYTES_ROWS,
                         .settle_frames = BYTES_SETTLE_FRAMES,
                         .frames = cfg->quick ? BYTES_FRAMES_QUICK : BYTES_FRAMES,
                         .reps = cfg->reps};
        if ((row->sandbox_ok = bench_frame_bytes(&fb)))
            row->sandbox_cpu = stat_of(fb.cpu_per_frame, fb.reps);
    }
    relax_fast_set_default_kernels(chosen);
}

/* ------------------------------------------------------------ the verdicts */

/* The median over the repetitions of a's time over b's, round by round:
 * figures measured together met the same moments of a busy machine. */
static double paired_ratio(const SolverFigure *a, const SolverFigure *b, int reps)
{
    double ratio[BENCH_MAX_REPS];
    for (int r = 0; r < reps; r++)
        ratio[r] = a->ns_by_rep[r] / b->ns_by_rep[r];
    return stat_of(ratio, reps).median;
}

/* A target's unit: a word the report translates, or a symbol kept as it
 * is ("s" is a msgid elsewhere, translated there). */
typedef enum { UNIT_NS, UNIT_TIMES, UNIT_SECONDS, UNIT_MS, UNIT_CORE } TargetUnit;
static const struct {
    const char *text;
    bool translated;
} target_units[] = {
    [UNIT_NS] = {N_("ns/link/pass"), true},
    [UNIT_TIMES] = {"x", false},
    [UNIT_SECONDS] = {"s", false},
    [UNIT_MS] = {N_("ms/frame"), true},
    /* xgettext:no-c-format */
    [UNIT_CORE] = {N_("% of a core"), true},
};

typedef enum { AT_LEAST, AT_MOST } TargetBound;

typedef struct TargetRow TargetRow;

/* What a row's figure is read from. */
typedef struct Reading {
    const TargetRow *row;
    const Results *res;
    int reps; /* paired_ratio's */
} Reading;

/* One target: what is measured (a msgid; %s: the row's method or level,
 * %d twice: its grid's side), how its figure is read from the results
 * (NAN: not measured in this run, and the row is left out), the bound and
 * the threshold, and the issue that set it. */
struct TargetRow {
    const char *what;
    double (*figure)(const Reading *r);
    TargetBound bound;
    double limit;
    TargetUnit unit;
    int issue;
    int method, size; /* bench_integrators[method] at bench_sizes[size] */
    bool of_level;    /* run_levels' row of `level`: bench --levels prints these alone */
    RelaxFastKernels level;
};

static double seed_colored(const Reading *r)
{
    return r->res->seed_colored.ns.median;
}
static double seed_sequential(const Reading *r)
{
    return r->res->seed_sequential.ns.median;
}
static double colored_one_thread(const Reading *r)
{
    return r->res->rows[r->row->method][r->row->size].colored[1].ns.median;
}
static double sequential_one_thread(const Reading *r)
{
    return r->res->rows[r->row->method][r->row->size].fast[1].ns.median;
}
static double seed_over_node(const Reading *r)
{
    return r->res->node_ok ? r->res->node.median / r->res->seed_sequential.ns.median : NAN;
}
static double course_seconds(const Reading *r)
{
    return r->res->course_ok && r->res->course.passed ? r->res->course.cpu_seconds : NAN;
}
/* two threads over one: one's time over two's, where the machine has two */
static double sequential_two_over_one(const Reading *r)
{
    const SolverRow *row = &r->res->rows[r->row->method][r->row->size];
    return r->res->threads >= 2 ? paired_ratio(&row->fast[1], &row->fast[2], r->reps) : NAN;
}
static double colored_two_over_one(const Reading *r)
{
    const SolverRow *row = &r->res->rows[r->row->method][r->row->size];
    return r->res->threads >= 2 ? paired_ratio(&row->colored[1], &row->colored[2], r->reps) : NAN;
}
/* the row's method over jakobsen, one thread each, at the row's size */
static double sequential_over_jakobsen(const Reading *r)
{
    const SolverRow *row = &r->res->rows[r->row->method][r->row->size], *jakobsen = &r->res->rows[0][r->row->size];
    return paired_ratio(&row->fast[1], &jakobsen->fast[1], r->reps);
}
static double colored_over_jakobsen(const Reading *r)
{
    const SolverRow *row = &r->res->rows[r->row->method][r->row->size], *jakobsen = &r->res->rows[0][r->row->size];
    return paired_ratio(&row->colored[1], &jakobsen->colored[1], r->reps);
}
static double render_slowest(const Reading *r)
{
    double slowest = 0.0;
    for (int mode = 0; mode < RENDER_MODE_COUNT; mode++)
        if (r->res->frame_ok[1][mode] && r->res->frame_ms[1][mode].median > slowest)
            slowest = r->res->frame_ms[1][mode].median;
    return slowest;
}
/* the sandbox: its frames at SANDBOX_FPS, measured end to end when the
 * terminal output could be (physics, drawing, ncurses, the pipe to the
 * terminal); else physics (1/dt steps a second) and drawing: % of a core */
static double sandbox_counted(const Reading *r)
{
    return r->res->bytes_ok ? 100.0 * SANDBOX_FPS * r->res->sandbox_cpu.median : NAN;
}
static double sandbox_implicit(const Reading *r)
{
    return r->res->bytes_ok && r->res->bytes_implicit_ok ? 100.0 * SANDBOX_FPS * r->res->sandbox_cpu_implicit.median
                                                         : NAN;
}
static double sandbox_estimated(const Reading *r)
{
    if (r->res->bytes_ok)
        return NAN;
    Params p;
    params_default(&p, SCENE_CURTAIN);
    double steps_per_second = 1.0 / p.dt;
    double physics = steps_per_second / r->res->sandbox_sequential.steps_per_second.median;
    double drawing = SANDBOX_FPS * r->res->frame_ms[0][RENDER_SHADED].median * 1e-3;
    return 100.0 * (physics + drawing);
}
static const LevelRow *level_row(const Reading *r)
{
    for (int at = 0; at < r->res->level_count; at++)
        if (r->res->levels[at].kernels == r->row->level)
            return &r->res->levels[at];
    return NULL;
}
static double level_over_node(const Reading *r)
{
    const LevelRow *row = level_row(r);
    return row && r->res->node_ok && row->seed.ok ? r->res->node.median / row->seed.ns.median : NAN;
}
static double level_sandbox(const Reading *r)
{
    const LevelRow *row = level_row(r);
    return row && row->sandbox_ok ? 100.0 * SANDBOX_FPS * row->sandbox_cpu.median : NAN;
}

/* Every target, in the order the report lists them. Issue 6's: the solver
 * (jakobsen is method 0, 200x200 size 3), the course, the renderer, the
 * sandbox. Issue 33's, a level at a time: seed 000's workload over node's
 * JavaScript (11 times at AVX2 and AVX-512, 4 at the others), and the
 * sandbox's share of a core (at AVX2 and AVX-512). */
static const TargetRow target_table[] = {
    {N_("seed 000's workload (jakobsen 40x40, sphere), 1 thread"), seed_colored, AT_MOST, 1.5, UNIT_NS, .issue = 6},
    {N_("jakobsen 200x200, 1 thread"), colored_one_thread, AT_MOST, 1.0, UNIT_NS, .issue = 6, .size = 3},
    {N_("seed 000's workload, sequential (clothsim run), 1 thread"), seed_sequential, AT_MOST, 1.5, UNIT_NS,
     .issue = 6},
    {N_("seed 000's workload, clothsim run over node's JavaScript"), seed_over_node, AT_LEAST, 11.0, UNIT_TIMES,
     .issue = 6},
    {N_("jakobsen 200x200, sequential, 1 thread"), sequential_one_thread, AT_MOST, 1.0, UNIT_NS, .issue = 6, .size = 3},
    /* five times faster than the 53.8 s of processor time it took when
     * the issue was filed (db6da49, 30 lessons) */
    {N_("check --run over the course (processor time)"), course_seconds, AT_MOST, 53.8 / 5.0, UNIT_SECONDS, .issue = 6},
    {N_("jakobsen 200x200, sequential, 2 threads over 1"), sequential_two_over_one, AT_LEAST, 1.7, UNIT_TIMES,
     .issue = 6, .size = 3},
    {N_("%s over jakobsen, sequential, 200x200, 1 thread"), sequential_over_jakobsen, AT_MOST, 1.5, UNIT_TIMES,
     .issue = 6, .method = 1, .size = 3},
    {N_("%s over jakobsen, sequential, 200x200, 1 thread"), sequential_over_jakobsen, AT_MOST, 1.5, UNIT_TIMES,
     .issue = 6, .method = 2, .size = 3},
    {N_("jakobsen 200x200, 2 threads over 1"), colored_two_over_one, AT_LEAST, 1.7, UNIT_TIMES, .issue = 6, .size = 3},
    {N_("%s over jakobsen, %dx%d, 1 thread"), colored_over_jakobsen, AT_MOST, 1.5, UNIT_TIMES, .issue = 6, .method = 1,
     .size = 1},
    {N_("%s over jakobsen, %dx%d, 1 thread"), colored_over_jakobsen, AT_MOST, 1.5, UNIT_TIMES, .issue = 6, .method = 1,
     .size = 3},
    {N_("%s over jakobsen, %dx%d, 1 thread"), colored_over_jakobsen, AT_MOST, 1.5, UNIT_TIMES, .issue = 6, .method = 2,
     .size = 1},
    {N_("%s over jakobsen, %dx%d, 1 thread"), colored_over_jakobsen, AT_MOST, 1.5, UNIT_TIMES, .issue = 6, .method = 2,
     .size = 3},
    {N_("render 200x60, slowest mode"), render_slowest, AT_MOST, 1.0, UNIT_MS, .issue = 6},
    {N_("sandbox 80x24 at 30 fps (its frames into a terminal, all counted)"), sandbox_counted, AT_MOST, 5.0, UNIT_CORE,
     .issue = 6},
    {N_("sandbox 80x24 at 30 fps, integrator=implicit"), sandbox_implicit, AT_MOST, 5.0, UNIT_CORE, .issue = 6},
    {N_("sandbox 80x24 at 30 fps (physics + drawing, no terminal output)"), sandbox_estimated, AT_MOST, 5.0, UNIT_CORE,
     .issue = 6},
    {N_("seed 000's workload at %s, clothsim run over node's JavaScript"), level_over_node, AT_LEAST, 4.0, UNIT_TIMES,
     .issue = 33, .of_level = true, .level = RELAX_FAST_PORTABLE},
    {N_("seed 000's workload at %s, clothsim run over node's JavaScript"), level_over_node, AT_LEAST, 4.0, UNIT_TIMES,
     .issue = 33, .of_level = true, .level = RELAX_FAST_NEON},
    {N_("seed 000's workload at %s, clothsim run over node's JavaScript"), level_over_node, AT_LEAST, 11.0, UNIT_TIMES,
     .issue = 33, .of_level = true, .level = RELAX_FAST_AVX2},
    {N_("sandbox 80x24 at 30 fps at %s (all counted)"), level_sandbox, AT_MOST, 5.0, UNIT_CORE, .issue = 33,
     .of_level = true, .level = RELAX_FAST_AVX2},
    {N_("seed 000's workload at %s, clothsim run over node's JavaScript"), level_over_node, AT_LEAST, 11.0, UNIT_TIMES,
     .issue = 33, .of_level = true, .level = RELAX_FAST_AVX512},
    {N_("sandbox 80x24 at 30 fps at %s (all counted)"), level_sandbox, AT_MOST, 5.0, UNIT_CORE, .issue = 33,
     .of_level = true, .level = RELAX_FAST_AVX512},
};

#define TARGET_ROWS (sizeof target_table / sizeof target_table[0])

/* A target measured in this run: its text and unit in the user's language
 * for the report, as written for the JSON (targets' `read`). */
typedef struct Target {
    char what[256]; /* a translation in Cyrillic takes two bytes a letter */
    double value, limit;
    bool at_most, met;
    const char *unit;
} Target;

/* The rows of `table` whose figure this run measured (only run_levels'
 * with `levels_only`), checked against their thresholds. */
static int targets(const TargetRow *table, size_t rows, const Results *res, int reps, bool levels_only, bool read,
                   Target *out)
{
    int n = 0;
    for (size_t k = 0; k < rows; k++) {
        const TargetRow *row = &table[k];
        double value = levels_only && !row->of_level ? NAN : row->figure(&(Reading){row, res, reps});
        if (isnan(value))
            continue;
        const char *subject =
            row->of_level ? relax_fast_kernel_name(row->level) : integrator_names[bench_integrators[row->method]];
        int side = bench_sizes[row->size];
        const char *unit = target_units[row->unit].text;
        Target *t = &out[n++];
        *t = (Target){.value = value,
                      .limit = row->limit,
                      .at_most = row->bound == AT_MOST,
                      .unit = target_units[row->unit].translated ? in(read, unit) : unit};
        snprintf(t->what, sizeof t->what, in(read, row->what), subject, side, side);
        t->met = t->at_most ? value <= row->limit : value >= row->limit;
    }
    return n;
}

/* ------------------------------------------------------------ output */

/* The report a person reads follows the locale: its words, and its numbers'
 * decimal separator (i18n_decimals). The JSON is data and does not. The
 * report's columns are padded by the cells a text takes on the terminal
 * (tui_text_cells), not by its bytes: a Cyrillic letter is two bytes and
 * one cell. */

/* text, then spaces up to `cells` columns; or, right-aligned, the spaces first */
static void put_cell(const char *text, int cells, bool right)
{
    int pad = cells - tui_text_cells(text);
    if (pad < 0)
        pad = 0;
    if (right)
        printf("%*s", pad, "");
    fputs(text, stdout);
    if (!right)
        printf("%*s", pad, "");
}

/* A column's width: at least `cells`, and as wide as `text` (its heading, a cell). */
static int column_width(int cells, const char *text)
{
    int n = tui_text_cells(text);
    return n > cells ? n : cells;
}

/* printf for the report: the line's numbers take the locale's decimal separator */
__attribute__((format(printf, 1, 2))) static void say(const char *format, ...)
{
    char line[4096];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof line, format, args);
    va_end(args);
    i18n_decimals(line, sizeof line);
    fputs(line, stdout);
}

/* "median (min..max)", for the report */
static void format_stat(char *out, size_t size, Stat s, int precision)
{
    snprintf(out, size, "%.*f (%.*f..%.*f)", precision, s.median, precision, s.min, precision, s.max);
    i18n_decimals(out, size);
}

static void format_figure(char *out, size_t size, const SolverFigure *f)
{
    if (!f->ok) {
        snprintf(out, size, "%s", _("n/a"));
        return;
    }
    format_stat(out, size, f->ns, f->ns.median < 10.0 ? 2 : 1);
    if (f->exploded) {
        strncat(out, " ", size - strlen(out) - 1);
        strncat(out, _("exploded"), size - strlen(out) - 1);
    }
}

/* a ratio as the tables show it: "6.4x" */
static void format_ratio(char *out, size_t size, double ratio)
{
    snprintf(out, size, "%.1fx", ratio);
    i18n_decimals(out, size);
}

/* A cell of a table: its row, and its column's `arg` (a thread count, a
 * render mode, a size). */
typedef struct Cell {
    const Results *res;
    int row, arg;
} Cell;

/* A column of a table the report prints: its heading (as printed); its
 * width, at least `cells` and its heading's (0: each cell as wide as it
 * is, for a last column); the spaces before it; its alignment (the
 * heading's too, unless heading_left); how a row's cell is written. */
typedef struct Column {
    const char *heading;
    int cells, gap;
    bool right, heading_left;
    void (*format)(char *out, size_t size, const Cell *c);
    int arg;
} Column;

#define MAX_COLUMNS (6 + BENCH_MAX_THREADS)

/* A table: the headings, then `rows` rows, each line after `indent`. */
static void print_columns(const Column *column, int count, const Results *res, int rows, const char *indent)
{
    for (int row = -1; row < rows; row++) {
        fputs(indent, stdout);
        for (const Column *c = column; c < column + count; c++) {
            char cell[128];
            if (row < 0)
                snprintf(cell, sizeof cell, "%s", c->heading);
            else
                c->format(cell, sizeof cell, &(Cell){res, row, c->arg});
            printf("%*s", c->gap, "");
            put_cell(cell, c->cells ? column_width(c->cells, c->heading) : 0,
                     c->right && (row >= 0 || !c->heading_left));
        }
        putchar('\n');
    }
}

/* The solver's tables: a row per method and size. */
static const SolverRow *solver_row(const Cell *c)
{
    return &c->res->rows[c->row / BENCH_SIZES][c->row % BENCH_SIZES];
}

/* the fastest of by_threads[1 .. threads] */
static int fastest(const SolverFigure *by_threads, int threads)
{
    int best = 1;
    for (int t = 1; t <= threads; t++)
        if (by_threads[t].ok && by_threads[t].ns.median < by_threads[best].ns.median)
            best = t;
    return best;
}

static void cell_method(char *out, size_t size, const Cell *c)
{
    snprintf(out, size, "%s", integrator_names[solver_row(c)->integrator]);
}
static void cell_grid(char *out, size_t size, const Cell *c)
{
    snprintf(out, size, "%dx%d", solver_row(c)->size, solver_row(c)->size);
}
static void cell_links(char *out, size_t size, const Cell *c)
{
    snprintf(out, size, "%d", solver_row(c)->links);
}
static void cell_plain(char *out, size_t size, const Cell *c)
{
    format_figure(out, size, &solver_row(c)->sequential);
}
static void cell_colored(char *out, size_t size, const Cell *c)
{
    format_figure(out, size, &solver_row(c)->colored[c->arg]);
}
static void cell_fast(char *out, size_t size, const Cell *c)
{
    format_figure(out, size, &solver_row(c)->fast[c->arg]);
}
/* the plain loop over the best colored */
static void cell_colored_speedup(char *out, size_t size, const Cell *c)
{
    const SolverRow *row = solver_row(c);
    format_ratio(out, size, row->sequential.ns.median / row->colored[fastest(row->colored, c->res->threads)].ns.median);
}
static void cell_colored_rate(char *out, size_t size, const Cell *c)
{
    const SolverRow *row = solver_row(c);
    snprintf(out, size, "%.0f", row->colored[fastest(row->colored, c->res->threads)].steps_per_second.median);
}
/* the plain loop over the best of the fast path's arg threads at most */
static void cell_fast_speedup(char *out, size_t size, const Cell *c)
{
    const SolverRow *row = solver_row(c);
    int threads = c->res->threads < c->arg ? c->res->threads : c->arg;
    format_ratio(out, size, row->sequential.ns.median / row->fast[fastest(row->fast, threads)].ns.median);
}

/* The renderer's table: a row per size, a column per mode. */
static void cell_render_size(char *out, size_t size, const Cell *c)
{
    snprintf(out, size, "%dx%d", render_sizes[c->row][0], render_sizes[c->row][1]);
}
static void cell_render_ms(char *out, size_t size, const Cell *c)
{
    snprintf(out, size, "%s", _("n/a"));
    if (c->res->frame_ok[c->row][c->arg])
        format_stat(out, size, c->res->frame_ms[c->row][c->arg], 3);
}

/* The steps' table: a row per integrator, a column per size (STEP_SIZES). */
static void cell_integrator(char *out, size_t size, const Cell *c)
{
    snprintf(out, size, "%s", integrator_names[c->row]);
}
static void cell_step_ms(char *out, size_t size, const Cell *c)
{
    const SolverFigure *f = &c->res->step_cost[c->row][c->arg];
    if (!f->ok) {
        snprintf(out, size, "%s", _("n/a"));
        return;
    }
    /* ms a step from steps a second: the slowest repetition is the largest */
    Stat ms = {1e3 / f->steps_per_second.median, 1e3 / f->steps_per_second.max, 1e3 / f->steps_per_second.min};
    format_stat(out, size, ms, 3);
    if (f->exploded)
        strncat(out, " x", size - strlen(out) - 1);
}

/* The levels' table: a row per level. */
static void cell_level(char *out, size_t size, const Cell *c)
{
    snprintf(out, size, "%s", relax_fast_kernel_name(c->res->levels[c->row].kernels));
}
static void cell_level_seed(char *out, size_t size, const Cell *c)
{
    format_figure(out, size, &c->res->levels[c->row].seed);
}
static void cell_level_big(char *out, size_t size, const Cell *c)
{
    format_figure(out, size, &c->res->levels[c->row].big);
}
static void cell_level_node(char *out, size_t size, const Cell *c)
{
    const LevelRow *row = &c->res->levels[c->row];
    snprintf(out, size, "%s", _("n/a"));
    if (c->res->node_ok && row->seed.ok)
        format_ratio(out, size, c->res->node.median / row->seed.ns.median);
}
static void cell_level_sandbox(char *out, size_t size, const Cell *c)
{
    const LevelRow *row = &c->res->levels[c->row];
    snprintf(out, size, "%s", _("n/a"));
    if (row->sandbox_ok) {
        /* TRANSLATORS: %s: a percentage of a processor core */
        snprintf(out, size, _("%.1f %% of a core"), 100.0 * SANDBOX_FPS * row->sandbox_cpu.median);
        i18n_decimals(out, size);
    }
}

/* A figure whose median came out further above its fastest repetition
 * than this (the median over the fastest, less 1) says that something else
 * was using the machine. The median, not the slowest: one slow repetition
 * happens in a quiet run too. On the shared 2-core Xeon of src/fast/README.md's
 * Speed section a quiet full run kept every figure within 11 %, and runs beside
 * a busy neighbour had figures 24 to 69 % above. */
#define NOISY_SPREAD 0.15

static double spread(Stat s)
{
    return s.min > 0.0 ? s.median / s.min - 1.0 : 0.0;
}

/* The widest spread among the figures the targets read. */
static double widest_spread(const Results *res)
{
    double widest = 0.0;
    const SolverFigure *figures[] = {&res->seed_sequential, &res->seed_colored};
    for (size_t k = 0; k < sizeof figures / sizeof figures[0]; k++)
        if (figures[k]->ok && spread(figures[k]->ns) > widest)
            widest = spread(figures[k]->ns);
    for (int i = 0; i < BENCH_INTEGRATORS; i++)
        for (int z = 0; z < BENCH_SIZES; z++)
            for (int t = 1; t <= res->threads; t++) {
                const SolverFigure *row[] = {&res->rows[i][z].colored[t], &res->rows[i][z].fast[t]};
                for (int k = 0; k < 2; k++)
                    if (row[k]->ok && spread(row[k]->ns) > widest)
                        widest = spread(row[k]->ns);
            }
    if (res->bytes_ok && spread(res->sandbox_cpu) > widest)
        widest = spread(res->sandbox_cpu);
    if (res->bytes_implicit_ok && spread(res->sandbox_cpu_implicit) > widest)
        widest = spread(res->sandbox_cpu_implicit);
    return widest;
}

/* The verdicts' lines, a target a line: met or MISS, its text padded to
 * `what_cells`, its figure and its threshold. */
static void print_verdicts(const Target *t, int n, int what_cells)
{
    /* TRANSLATORS: a target's verdict at the start of its line: met, or missed (in capitals, to stand out) */
    const char *met = _("met"), *miss = _("MISS");
    int w_verdict = column_width(column_width(4, met), miss);
    for (int k = 0; k < n; k++) {
        printf("  "), put_cell(t[k].met ? met : miss, w_verdict, false), printf(" ");
        put_cell(t[k].what, what_cells, false);
        say(_(" %8.2f %s (target %s %.2f)\n"), t[k].value, t[k].unit, t[k].at_most ? "<=" : ">=", t[k].limit);
    }
}

/* run_levels' table: a row per level; with the targets when `alone`
 * (--levels). */
static void print_levels(const Results *res, bool alone)
{
    say("%s", _("\nthe default order (sequential) at each instruction-set level this processor has\n"
                "(CLOTHSIM_KERNELS=LEVEL forces one), 1 thread, by processor time:\n"));
    const Column column[] = {
        {_("level"), 9, .format = cell_level},
        {_("seed 000, ns/link/pass"), 22, 2, .format = cell_level_seed},
        {_("over node"), 9, 2, true, true, .format = cell_level_node},
        {_("jakobsen 200x200, ns/link/pass"), 22, 2, .format = cell_level_big},
        {_("sandbox 80x24, 30 fps"), 0, 2, .format = cell_level_sandbox},
    };
    print_columns(column, sizeof column / sizeof column[0], res, res->level_count, "  ");
    say("%s", _("(seed 000's workload: jakobsen 40x40, 10 passes a step, one substep, the sphere; the sandbox: its\n"
                "frames into a terminal, physics, drawing and ncurses, processor time a frame times 30)\n"));
    if (!alone)
        return;
    Target t[TARGET_ROWS];
    print_verdicts(t, targets(target_table, TARGET_ROWS, res, 0, true, true, t), 64);
}

/* The solver's table: the plain loop and the colored order at each thread count. */
static void print_solver(const Results *res)
{
    char heading[BENCH_MAX_THREADS + 1][96];
    Column column[MAX_COLUMNS] = {
        {_("method"), 9, .format = cell_method},
        {_("grid"), 8, 1, .format = cell_grid},
        {_("links"), 7, 1, true, .format = cell_links},
        {_("sequential (plain)"), 22, 2, .format = cell_plain},
    };
    int n = 4, cells = 22; /* the thread counts' columns as wide as the widest heading */
    for (int t = 1; t <= res->threads; t++) {
        snprintf(heading[t], sizeof heading[t], ngettext("colored %d thread", "colored %d threads", (unsigned long)t),
                 t);
        cells = column_width(cells, heading[t]);
    }
    for (int t = 1; t <= res->threads; t++)
        column[n++] = (Column){heading[t], cells, 2, .format = cell_colored, .arg = t};
    column[n++] = (Column){_("speed-up"), 10, 2, true, .format = cell_colored_speedup};
    column[n++] = (Column){_("steps/s"), 10, 2, true, .format = cell_colored_rate};
    print_columns(column, n, res, BENCH_INTEGRATORS * BENCH_SIZES, "");
    say("%s", _("(speed-up: sequential over the best colored; steps/s: the best colored)\n"));
}

/* The sequential order's fast path (the plain loop's bits), on 1 and 2 threads. */
static void print_fast(const Results *res)
{
    say("%s", _("\nsequential order on the fast path (the plain loop's bits), ns/link/pass:\n"));
    char heading[3][64];
    Column column[MAX_COLUMNS] = {
        {_("method"), 9, .format = cell_method},
        {_("grid"), 8, 1, .format = cell_grid},
        {_("links"), 7, 1, true, .format = cell_links},
    };
    int n = 3, cells = 19;
    for (int t = 1; t <= res->threads && t <= 2; t++) {
        snprintf(heading[t], sizeof heading[t], ngettext("%d thread", "%d threads", (unsigned long)t), t);
        cells = column_width(cells, heading[t]);
    }
    for (int t = 1; t <= res->threads && t <= 2; t++)
        column[n++] = (Column){heading[t], cells, 2, .format = cell_fast, .arg = t};
    column[n++] = (Column){_("speed-up"), 8, 2, true, .format = cell_fast_speedup, .arg = 2};
    print_columns(column, n, res, BENCH_INTEGRATORS * BENCH_SIZES, "");
    say("%s", _("(speed-up: the plain loop over the best of these)\n"));
}

/* jakobsen 200 x 200 on each core in turn (run_cores), when measured. */
static void print_cores(const Results *res)
{
    double fast, slow;
    if (!core_range(res, &fast, &slow))
        return;
    say("%s", _("jakobsen 200x200 on one thread, on each core in turn:"));
    for (int k = 0; k < res->cores; k++) {
        char cell[64];
        format_stat(cell, sizeof cell, res->core[k].ns, 2);
        /* TRANSLATORS: one core's figure on the line "jakobsen 200x200 on one thread, on each core in turn:",
           ", cpu 1 1.26 (1.20..1.37)": a comma between figures (or nothing), the CPU's number, its figure */
        say(_("%s cpu %d %s"), k ? "," : "", res->core_id[k], cell);
    }
    say("%s", _(" ns/link/pass\n"));
    if (slow > 1.15 * fast)
        say(_("  the cores are not alike now (%.2f x): on a shared machine another tenant's work slows one;\n"
              "  two threads can then be at most %.2f x one thread on the faster core\n"),
            slow / fast, 1.0 + fast / slow);
}

/* The renderer's table: a row per size, a column per mode. */
static void print_render(const Results *res)
{
    say("%s", _("renderer: default scene, render_solver into a canvas; ms per frame\n"));
    Column column[1 + RENDER_MODE_COUNT] = {{_("size"), 8, .format = cell_render_size}};
    for (int mode = 0; mode < RENDER_MODE_COUNT; mode++)
        column[1 + mode] = (Column){render_mode_names[mode], 22, 2, .format = cell_render_ms, .arg = mode};
    print_columns(column, 1 + RENDER_MODE_COUNT, res, RENDER_SIZES, "");
}

/* A step of every integrator (run_step_costs): a row per integrator. */
static void print_steps(const Results *res)
{
    say(_("\na step of the curtain (wind, gusts, moving sphere; 5 substeps, %d passes where there are passes; "
          "sequential order, 1 thread), ms a step:\n"),
        BENCH_ITERATIONS);
    const Column column[] = {
        {_("integrator"), 11, .format = cell_integrator},
        {"40x40", 24, 2, .format = cell_step_ms, .arg = 0},
        {"200x200", 24, 2, .format = cell_step_ms, .arg = 1},
    };
    print_columns(column, sizeof column / sizeof column[0], res, INTEGRATOR_COUNT, "");
    say(_("(x: exploded during the run, so its later steps cost less; implicit: %d and %d conjugate-gradient "
          "iterations a substep at the start)\n"),
        res->step_cg[INTEGRATOR_IMPLICIT][0], res->step_cg[INTEGRATOR_IMPLICIT][1]);
}

/* The targets, a line each, with a word when the machine was busy. */
static void print_targets(const Results *res, const Config *cfg)
{
    Target t[TARGET_ROWS];
    int n = targets(target_table, TARGET_ROWS, res, cfg->reps, false, true, t), w_what = 60;
    for (int k = 0; k < n; k++)
        w_what = column_width(w_what, t[k].what);
    say("%s", _("targets (issue 6; a ratio is the median of its round-by-round ratios):\n"));
    print_verdicts(t, n, w_what);
    double widest = widest_spread(res);
    if (widest > NOISY_SPREAD)
        say(_("(the median of one of these figures came out %.0f %% above its fastest repetition: something "
              "else was using this machine, so the figures may read high; run again when it is quiet)\n"),
            100.0 * widest);
}

/* The default scene, the two floors and seed 000's workload (here and in node). */
static void print_workloads(const Results *res)
{
    char seq[96], col[96];
    format_figure(seq, sizeof seq, &res->sandbox_sequential);
    format_figure(col, sizeof col, &res->sandbox_colored);
    say(_("\ndefault scene (curtain 30x24, 12 iterations): sequential %s, colored %s ns/link/pass;\n"
          "  %.0f and %.0f steps/s on 1 thread\n"),
        seq, col, res->sandbox_sequential.steps_per_second.median, res->sandbox_colored.steps_per_second.median);
    format_figure(seq, sizeof seq, &res->seed_sequential);
    format_figure(col, sizeof col, &res->seed_colored);
    char floor[64], wide[64];
    format_stat(floor, sizeof floor, res->floor_ns, 2);
    char times[256];
    snprintf(times, sizeof times, _("%.1f times the floor"), res->seed_colored.ns.median / res->floor_ns.median);
    if (res->kernels >= RELAX_FAST_AVX512) {
        format_stat(wide, sizeof wide, res->floor_wide_ns, 2);
        say(_("the floor: a square root and a division a link, nothing else: %s ns/link 8 lanes at a time (AVX2),\n"
              "  %s 16 at a time (AVX-512, as the passes here)\n"),
            floor, wide);
        snprintf(times, sizeof times, _("%.1f times the AVX2 floor, %.1f times the AVX-512 one"),
                 res->seed_colored.ns.median / res->floor_ns.median,
                 res->seed_colored.ns.median / res->floor_wide_ns.median);
    }
    /* without AVX-512: how many at a time, the widest this CPU has */
    const char *lanes = res->kernels >= RELAX_FAST_AVX2 ? _("8 lanes at a time") : _("one link at a time");
    if (res->kernels < RELAX_FAST_AVX512)
        say(_("the floor: a square root and a division a link, %s, nothing else: %s ns/link\n"), lanes, floor);
    format_stat(floor, sizeof floor, res->solve_ns, 2);
    if (res->kernels >= RELAX_FAST_AVX512) {
        format_stat(wide, sizeof wide, res->solve_wide_ns, 2);
        say(_("a link's whole correction, the plain loop's arithmetic in registers (no load, store, copy or wait):\n"
              "  %s ns/link 8 lanes at a time, %s 16 at a time\n"),
            floor, wide);
    } else {
        say(_("a link's whole correction, the plain loop's arithmetic in registers (no load, store, copy or wait):\n"
              "  %s ns/link %s\n"),
            floor, lanes);
    }
    say(_("seed 000's workload (jakobsen 40x40, 10 passes a step, one substep, the moving sphere, no wind):\n"
          "  sequential %s, colored %s ns/link/pass (%s); %.0f and %.0f steps/s on 1 thread\n"),
        seq, col, times, res->seed_sequential.steps_per_second.median, res->seed_colored.steps_per_second.median);
    format_figure(seq, sizeof seq, &res->seed_plain);
    say(_("  sequential, the plain loop (the same bits): %s ns/link/pass\n"), seq);
    if (res->node_ok) {
        Stat node = {res->node.median, res->node.min, res->node.max};
        format_stat(seq, sizeof seq, node, 2);
        say(_("  in JavaScript, in node (source document 000's design, bench_node.c): %s ns/link/pass, %d links;\n"
              "  clothsim run (sequential) is %.1f times as fast\n"),
            seq, res->node.links, res->node.median / res->seed_sequential.ns.median);
    } else {
        say(_("  in JavaScript, in node: not measured: %s\n"), res->node.why);
    }
}

/* The course's check, and the sandbox's frames into a terminal: bytes and processor time. */
static void print_course_and_terminal(const Results *res)
{
    if (res->course_ok)
        say(_("check --run over the course (%d lessons): %.1f s of processor time, %.1f s of wall time%s%s\n"),
            res->course.lessons, res->course.cpu_seconds, res->course.wall_seconds, res->course.passed ? "" : "; ",
            res->course.why);
    else
        say(_("check --run over the course: not measured: %s\n"), res->course.why);
    char bytes[64];
    snprintf(bytes, sizeof bytes, "%s", _("n/a"));
    if (res->bytes_ok)
        format_stat(bytes, sizeof bytes, res->bytes_per_frame, 0);
    say(_("bytes written per frame by the front end for the default scene at %d x %d: %s%s\n  (%s)\n"), res->bytes.cols,
        res->bytes.rows, bytes, res->bytes_ok ? _(" bytes") : "", res->bytes.note);
    if (res->bytes_ok) {
        Stat ms = {1e3 * res->sandbox_cpu.median, 1e3 * res->sandbox_cpu.min, 1e3 * res->sandbox_cpu.max};
        char cpu[64];
        format_stat(cpu, sizeof cpu, ms, 3);
        say(_("processor time a frame of those (physics, drawing, ncurses, the terminal's pipe): %s ms\n"), cpu);
    }
    if (res->bytes_implicit_ok) {
        Stat ms = {1e3 * res->sandbox_cpu_implicit.median, 1e3 * res->sandbox_cpu_implicit.min,
                   1e3 * res->sandbox_cpu_implicit.max};
        char cpu[64];
        format_stat(cpu, sizeof cpu, ms, 3);
        say(_("  the same under integrator=implicit (key 7): %s ms a frame\n"), cpu);
    } else {
        say(_("  the same under integrator=implicit: not measured: %s\n"), res->bytes_implicit.note);
    }
}

/* The vector kernels of each level, as the report's first line says them:
 * one entry a level, by its name. */
static const char *const kernel_words[RELAX_FAST_LEVELS] = {
    [RELAX_FAST_PORTABLE] = N_("none (the scalar fallback)"),
    [RELAX_FAST_NEON] = N_("NEON (4 links at a time)"),
    [RELAX_FAST_AVX2] = N_("AVX2 (8 links at a time)"),
    [RELAX_FAST_AVX512] = N_("AVX-512 (16 links at a time in the passes, AVX2 around them)")};

static void print_table(const Results *res, const Config *cfg)
{
    char threads[64], reps[64];
    snprintf(threads, sizeof threads, ngettext("%d thread", "%d threads", (unsigned long)res->threads), res->threads);
    snprintf(reps, sizeof reps, ngettext("%d repetition", "%d repetitions", (unsigned long)cfg->reps), cfg->reps);
    say(_("clothsim bench: %s on this machine, vector kernels: %s; %s, median (min..max)\n\n"), threads,
        _(kernel_words[res->kernels]), reps);
    say(_("solver: curtain scene (wind, turbulence, moving sphere), %d iterations, %d substeps a step;\n"
          "ns per link per relaxation pass, all of the step counted\n"),
        BENCH_ITERATIONS, res->rows[0][0].substeps);
    print_solver(res);
    print_fast(res);
    print_cores(res);
    printf("\n");
    print_render(res);
    print_workloads(res);
    print_course_and_terminal(res);
    print_steps(res);
    say(_("peak memory: %ld KiB (resident, the whole run)\n"), res->peak_kib);
    print_levels(res, false);
    printf("\n");
    print_targets(res, cfg);
}

static void json_stat(const char *name, Stat s, const char *tail)
{
    printf("\"%s\": {\"median\": %.6g, \"min\": %.6g, \"max\": %.6g}%s", name, s.median, s.min, s.max, tail);
}

static void json_figure(const SolverFigure *f)
{
    if (!f->ok) {
        printf("null");
        return;
    }
    printf("{");
    json_stat("ns_per_link_pass", f->ns, ", ");
    json_stat("steps_per_second", f->steps_per_second, ", ");
    printf("\"exploded\": %s}", f->exploded ? "true" : "false");
}

/* text as a JSON string; a byte past ASCII (a strange TERM, a translated
 * error) as its Latin-1 character, so that the JSON is valid whatever it is */
static void json_string(const char *text)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7F)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

/* run_levels' figures: "levels": [...] */
static void json_levels(const Results *res)
{
    printf(" \"levels\": [");
    for (int at = 0; at < res->level_count; at++) {
        const LevelRow *row = &res->levels[at];
        static const char *const core_names[CORE_LEVELS] = {"baseline", "avx2", "avx512"};
        printf("%s\n  {\"level\": \"%s\", \"core_loops\": [", at ? "," : "", relax_fast_kernel_name(row->kernels));
        for (int w = 0; w < 2; w++) {
            int ran = row->core_ran[w];
            if (ran >= 0 && ran < CORE_LEVELS)
                printf("%s\"%s\"", w ? ", " : "", core_names[ran]);
            else
                printf("%snull", w ? ", " : "");
        }
        printf("], \"seed_workload\": ");
        json_figure(&row->seed);
        printf(", \"jakobsen_200\": ");
        json_figure(&row->big);
        printf(", \"sandbox\": ");
        if (row->sandbox_ok) {
            printf("{");
            json_stat("cpu_seconds", row->sandbox_cpu, "}}");
        } else {
            printf("null}");
        }
    }
    printf("]");
}

/* "solver": a row per method and size, each order by thread count */
static void json_solver(const Results *res)
{
    for (int i = 0; i < BENCH_INTEGRATORS; i++)
        for (int z = 0; z < BENCH_SIZES; z++) {
            const SolverRow *row = &res->rows[i][z];
            printf("  {\"integrator\": \"%s\", \"cols\": %d, \"rows\": %d, \"links\": %d, \"substeps\": %d, "
                   "\"sequential\": ",
                   integrator_names[row->integrator], row->size, row->size, row->links, row->substeps);
            json_figure(&row->sequential);
            printf(", \"sequential_fast\": {");
            for (int t = 1; t <= res->threads; t++) {
                printf("\"%d\": ", t);
                json_figure(&row->fast[t]);
                printf("%s", t < res->threads ? ", " : "");
            }
            printf("}, \"colored\": {");
            for (int t = 1; t <= res->threads; t++) {
                printf("\"%d\": ", t);
                json_figure(&row->colored[t]);
                printf("%s", t < res->threads ? ", " : "");
            }
            printf("}}%s\n", i == BENCH_INTEGRATORS - 1 && z == BENCH_SIZES - 1 ? "" : ",");
        }
}

/* "render_ms_per_frame": a row per size and mode */
static void json_render(const Results *res)
{
    for (int z = 0; z < RENDER_SIZES; z++)
        for (int mode = 0; mode < RENDER_MODE_COUNT; mode++) {
            printf("  {\"width\": %d, \"height\": %d, \"mode\": \"%s\", ", render_sizes[z][0], render_sizes[z][1],
                   render_mode_names[mode]);
            if (res->frame_ok[z][mode])
                json_stat("ms", res->frame_ms[z][mode], "}");
            else
                printf("\"ms\": null}");
            printf("%s\n", z == RENDER_SIZES - 1 && mode == RENDER_MODE_COUNT - 1 ? "" : ",");
        }
}

/* the default scene, the cores, the floors and seed 000's workload */
static void json_workloads(const Results *res)
{
    printf(" \"default_scene\": {\"sequential\": ");
    json_figure(&res->sandbox_sequential);
    printf(", \"colored\": ");
    json_figure(&res->sandbox_colored);
    printf("},\n ");
    printf(" \"cores\": [");
    for (int k = 0; k < res->cores; k++) {
        printf("%s{\"cpu\": %d, ", k ? ", " : "", res->core_id[k]);
        json_stat("ns_per_link_pass", res->core[k].ns, "}");
    }
    printf("],\n ");
    json_stat("floor_ns", res->floor_ns, ",\n");
    if (res->kernels >= RELAX_FAST_AVX512)
        json_stat("floor_avx512_ns", res->floor_wide_ns, ",\n");
    json_stat("solve_floor_ns", res->solve_ns, ",\n");
    if (res->kernels >= RELAX_FAST_AVX512)
        json_stat("solve_floor_avx512_ns", res->solve_wide_ns, ",\n");
    printf(" \"seed_workload\": {\"sequential_plain\": ");
    json_figure(&res->seed_plain);
    printf(", \"sequential\": ");
    json_figure(&res->seed_sequential);
    printf(", \"colored\": ");
    json_figure(&res->seed_colored);
    printf(", \"node\": ");
    if (res->node_ok) {
        Stat node = {res->node.median, res->node.min, res->node.max};
        printf("{\"links\": %d, ", res->node.links);
        json_stat("ns", node, "}");
    } else {
        printf("null");
    }
    printf("},\n");
}

/* the sandbox's frames into a terminal, and a step of every integrator */
static void json_terminal_and_steps(const Results *res)
{
    printf(" \"bytes_per_frame\": ");
    if (res->bytes_ok) {
        printf("{\"width\": %d, \"height\": %d, \"frames\": %d, \"settle_frames\": %d, \"first_frame\": %.0f, ",
               res->bytes.cols, res->bytes.rows, res->bytes.frames, res->bytes.settle_frames, res->bytes.first_frame);
        json_stat("bytes", res->bytes_per_frame, ", ");
        json_stat("cpu_seconds", res->sandbox_cpu, "}");
    } else {
        printf("null");
    }
    printf(", \"bytes_per_frame_note\": ");
    json_string(res->bytes.how);
    printf(",\n \"sandbox_implicit_cpu_seconds\": ");
    if (res->bytes_implicit_ok) {
        printf("{");
        json_stat("cpu_seconds", res->sandbox_cpu_implicit, "}");
    } else
        printf("null");
    printf(",\n \"step_ms\": [\n");
    for (int i = 0; i < INTEGRATOR_COUNT; i++)
        for (int z = 0; z < 2; z++) {
            const SolverFigure *f = &res->step_cost[i][z];
            printf("  {\"integrator\": \"%s\", \"size\": %d, ", integrator_names[i], step_sizes[z]);
            if (f->ok) {
                Stat ms = {1e3 / f->steps_per_second.median, 1e3 / f->steps_per_second.max,
                           1e3 / f->steps_per_second.min};
                json_stat("ms", ms, ", ");
                printf("\"exploded\": %s}", f->exploded ? "true" : "false");
            } else {
                printf("\"ms\": null}");
            }
            printf("%s\n", i == INTEGRATOR_COUNT - 1 && z == 1 ? "" : ",");
        }
    printf(" ],\n");
}

/* "targets": every row of the target table measured, as written */
static void json_targets(const Results *res, const Config *cfg)
{
    Target t[TARGET_ROWS];
    int n = targets(target_table, TARGET_ROWS, res, cfg->reps, false, false, t);
    for (int k = 0; k < n; k++)
        printf("  {\"what\": \"%s\", \"value\": %.6g, \"limit\": %.6g, \"at_most\": %s, \"unit\": \"%s\", \"met\": "
               "%s}%s\n",
               t[k].what, t[k].value, t[k].limit, t[k].at_most ? "true" : "false", t[k].unit,
               t[k].met ? "true" : "false", k == n - 1 ? "" : ",");
}

static void print_json(const Results *res, const Config *cfg)
{
    printf("{\"threads\": %d, \"simd\": %s, \"kernels\": \"%s\", \"reps\": %d, \"iterations\": %d,\n \"solver\": [\n",
           res->threads, res->kernels != RELAX_FAST_PORTABLE ? "true" : "false", relax_fast_kernel_name(res->kernels),
           cfg->reps, BENCH_ITERATIONS);
    json_solver(res);
    printf(" ],\n \"render_ms_per_frame\": [\n");
    json_render(res);
    printf(" ],\n");
    json_workloads(res);
    json_terminal_and_steps(res);
    printf(" \"course_check\": ");
    if (res->course_ok)
        printf("{\"lessons\": %d, \"cpu_seconds\": %.3f, \"wall_seconds\": %.3f, \"passed\": %s},\n",
               res->course.lessons, res->course.cpu_seconds, res->course.wall_seconds,
               res->course.passed ? "true" : "false");
    else
        printf("null,\n");
    json_levels(res);
    printf(",\n");
    printf(" \"peak_kib\": %ld,\n \"targets\": [\n", res->peak_kib);
    json_targets(res, cfg);
    printf(" ]}\n");
}

int bench_main(int argc, char **argv)
{
    Config cfg = {.reps = 7, .rep_seconds = 0.15, .warm_seconds = 0.3};
    bool quick = false;
    long reps = -1;
    for (int i = 1; i < argc; i++) {
        int matched = 0;
        const char *value;
        if ((value = cli_option_value(argc, argv, &i, "--reps", &matched)) || matched) {
            if (!value || !cli_parse_long("--reps", value, 1, BENCH_MAX_REPS, &reps))
                return EXIT_USAGE;
        } else if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (strcmp(argv[i], "--levels") == 0) {
            cfg.levels_only = true;
        } else if (strcmp(argv[i], "--json") == 0) {
            cfg.json = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(_(bench_usage), stdout);
            return EXIT_SUCCESS;
        } else {
            cli_error("bench: unknown argument '%s' (clothsim bench --help lists the options)", argv[i]);
            return EXIT_USAGE;
        }
    }
    if (quick)
        cfg.reps = 3, cfg.rep_seconds = 0.01, cfg.warm_seconds = 0.02, cfg.quick = true;
    if (reps > 0)
        cfg.reps = (int)reps;

    Results *res = calloc(1, sizeof *res);
    if (!res) {
        cli_error("bench: out of memory");
        return 1;
    }
    res->threads = relax_fast_usable_cores();
    res->kernels = relax_fast_default_kernels();
    if (cfg.levels_only) {
        cli_say(_("clothsim bench: seed 000's workload in JavaScript, in node"));
        res->node_ok = bench_node_seed(cfg.reps, cfg.quick ? 0.05 : 0.5, &res->node);
        run_levels(res, &cfg);
        if (cfg.json) {
            printf("{\"node_seed_ns\": ");
            if (res->node_ok)
                printf("%.6g,\n", res->node.median);
            else
                printf("null,\n");
            json_levels(res);
            printf("}\n");
        } else {
            print_levels(res, true);
        }
        free(res);
        return EXIT_SUCCESS;
    }
    run_solver(res, &cfg);
    cli_say(_("clothsim bench: one thread on each core"));
    run_cores(res, &cfg);
    run_render(res, &cfg);
    run_bytes(res, &cfg);
    run_levels(res, &cfg);
    run_step_costs(res, &cfg);
    if (cfg.quick) {
        snprintf(res->course.why, sizeof res->course.why, "%s", _("left out of --quick (it takes some seconds)"));
    } else {
        cli_say(_("clothsim bench: check --run over the course"));
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n > 0 && (size_t)n < sizeof self - 1) {
            self[n] = '\0';
            res->course_ok = bench_course_check(self, &res->course);
        } else {
            snprintf(res->course.why, sizeof res->course.why, "%s",
                     _("cannot find clothsim's own path (/proc/self/exe)"));
        }
    }
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0)
        res->peak_kib = usage.ru_maxrss; /* KiB on Linux */
    if (cfg.json)
        print_json(res, &cfg);
    else
        print_table(res, &cfg);
    free(res);
    return EXIT_SUCCESS;
}
