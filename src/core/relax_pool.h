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
    atomic_uint generation; /* bumped for each job */
    atomic_int finished;    /* workers done with the current job */
    atomic_int sleepers;
    atomic_int stop;
    atomic_int arrived;             /* at the barrier */
    atomic_uint barrier_generation; /* bumped when all have arrived */
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

/* Inside a job: returns when every running thread has arrived. */
void relax_pool_barrier(RelaxPool *pool);

/* A thread at a barrier spins this many times (75 to 240 us: longer than
 * the threads of a 200 x 200 pass drift apart in a phase; a pause takes
 * about 60 ns on Zen 3 but 19 ns on Zen 5) and then yields its core at
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
