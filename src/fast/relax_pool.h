/* relax_pool.h - the fast path's worker threads: a job for every thread at
 * once, and a barrier among them.
 *
 * The caller is thread 0; relax_pool_start starts threads - 1 workers that
 * spin a little between jobs (passes follow each other within
 * microseconds) and then sleep on a condition variable (between frames
 * they must cost nothing). relax_pool_run runs one job on some of the
 * threads and returns when all have finished it. Nothing here allocates
 * or prints after relax_pool_start. Used by relax_fast.c, which says what
 * the jobs are.
 *
 * The threads of a job wait for each other within microseconds, so they
 * pay only where each has a core of its own: on a machine whose other
 * cores are busy (a class of sandboxes on one school server), a thread
 * that waits for one queued behind another program loses a time slice
 * each time, and two threads took 3.1 times one thread's wall time at
 * 100 x 100. relax_pool_watch starts a thread that looks at the machine's
 * idle cores ten times a second (Linux: /proc/stat), and while jobs take
 * more than one thread, a hundred times a second at how long the workers
 * stood ready to run on a core another program held; it says in
 * relax_pool_worth how many threads a job should take.
 */
#ifndef CLOTHSIM_RELAX_POOL_H
#define CLOTHSIM_RELAX_POOL_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

#define RELAX_POOL_MAX_THREADS 16

/* A job as thread `thread` (0 .. threads - 1) runs it. */
typedef void (*RelaxPoolJob)(void *context, int thread);

typedef struct RelaxPool RelaxPool;

typedef struct RelaxPoolWorker {
    RelaxPool *pool;
    int index;
} RelaxPoolWorker;

/* In the caller's struct: no allocation of its own. */
struct RelaxPool {
    int threads; /* started, the caller's included */
    int running; /* taking part in the current job */
    RelaxPoolJob job;
    void *context;
    pthread_t thread[RELAX_POOL_MAX_THREADS];
    RelaxPoolWorker worker[RELAX_POOL_MAX_THREADS];
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool sync_made;
    atomic_uint generation; /* bumped for each job; its low bits: the threads taking part */
    atomic_int finished;    /* workers done with the current job */
    atomic_int sleepers;
    atomic_int stop;
    atomic_int arrived;             /* at the barrier */
    atomic_uint barrier_generation; /* bumped when all have arrived */
    /* relax_pool_watch's: */
    bool watching;
    pthread_t watcher;
    pthread_cond_t watch_wake;              /* on CLOCK_MONOTONIC: its naps, cut short by relax_pool_stop */
    atomic_int worth;                       /* threads a job should take, 1 .. threads */
    atomic_int tid[RELAX_POOL_MAX_THREADS]; /* the workers' thread ids (Linux; 0: not yet) */
};

/* Starts threads - 1 workers (threads clamped to 1..RELAX_POOL_MAX_THREADS;
 * fewer if the system refuses some: see pool->threads) that run job(context,
 * index). False when the lock cannot be made. Stop with relax_pool_stop,
 * also after a false return. */
bool relax_pool_start(RelaxPool *pool, int threads, RelaxPoolJob job, void *context);
void relax_pool_stop(RelaxPool *pool);

/* Runs the job on threads 0 .. running - 1 (running at most pool->threads;
 * 1: on the caller alone, no worker woken) and returns when all are done. */
void relax_pool_run(RelaxPool *pool, int running);

/* Starts the thread that watches the machine's load: from then on
 * relax_pool_worth is 1 until the cores other programs leave idle have
 * been measured (within 0.2 s), then as many threads as there are such
 * cores, at most pool->threads, looked at again every 0.1 s. Where the
 * load cannot be read (no /proc/stat) it stays pool->threads. False if
 * the thread cannot start (every job then takes pool->threads, as
 * without it). */
bool relax_pool_watch(RelaxPool *pool);

/* The machine's load so far, over the cores this process may run on: the
 * ticks (1/_SC_CLK_TCK s) they were idle and in all, and this process's
 * own processor time in the same ticks. */
typedef struct RelaxPoolLoad {
    double idle, total, ours;
    int cores;
} RelaxPoolLoad;

/* The watcher's measure: the threads that fit in the cores that were idle
 * or ours between two looks (a core another program kept a quarter busy
 * or more is not ours), 1 to threads; 0 when the looks are too close
 * together to say. */
int relax_pool_fits(const RelaxPoolLoad *before, const RelaxPoolLoad *now, int threads);

/* The watcher's choice from look to look: fewer threads at once when a
 * look fits fewer, more when `hold` looks in a row fit more (the fewest
 * of them); hold doubles each time the threads had to come back down, up
 * to 64 looks, and goes back to 2 after 64 looks with every thread at work. */
typedef struct RelaxPoolChoice {
    int worth;   /* threads a job takes, 1 .. threads; 1 at the start */
    int threads; /* started */
    int hold, free_looks, least, settled;
} RelaxPoolChoice;
void relax_pool_choice_start(RelaxPoolChoice *choice, int threads);
/* After a look: fits as relax_pool_fits gave it (0: the look said nothing). */
void relax_pool_choose(RelaxPoolChoice *choice, int fits);

/* Threads a job should run on now: pool->threads, or relax_pool_watch's
 * measure. Read it once for a job and its set-up, as it may change. */
static inline int relax_pool_worth(const RelaxPool *pool)
{
    return pool->watching ? atomic_load_explicit(&pool->worth, memory_order_relaxed) : pool->threads;
}

/* Inside a job: returns when every running thread has arrived. */
void relax_pool_barrier(RelaxPool *pool);

/* A thread at a barrier spins this many times (longer than the threads of
 * a 200 x 200 pass drift apart in a phase, on the processors measured in
 * README.md beside this file) and then yields its core at
 * every look: on a machine busy with other work the thread it waits for
 * may be queued behind it on the same core. */
#define RELAX_POOL_BARRIER_SPINS 4000

static inline void relax_pool_pause(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __builtin_ia32_pause();
#endif
}

/* Waiting for another thread: spin a while, then let the system run
 * something else (the other thread, on a machine with more threads than
 * cores to spare). spins starts at 0. */
static inline void relax_pool_wait_a_little(int *spins)
{
    if (++*spins < RELAX_POOL_BARRIER_SPINS)
        relax_pool_pause();
    else
        sched_yield();
}

/* The cores this process may run on (its affinity: taskset, a container's
 * cpuset), 1 to RELAX_POOL_MAX_THREADS. */
int relax_pool_usable_cores(void);

#endif
