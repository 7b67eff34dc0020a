/* relax_pool.c - the fast path's worker threads (relax_pool.h).
 *
 * A job is announced by bumping `generation`; a worker that sees it runs
 * the job and counts itself in `finished`, which the caller waits for.
 * Between jobs a worker spins IDLE_SPINS times before it sleeps on `wake`,
 * and the caller broadcasts only when someone sleeps: a substep's jobs
 * follow each other within microseconds, and a futex each way for each of
 * them cost more than the job at 200 x 200.
 */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_getaffinity: the cores this process may use */
#endif
#include "relax_pool.h"

#include <assert.h>
#include <signal.h>
#include <unistd.h>

/* A worker that finds no job spins this many times before it sleeps:
 * passes follow each other within microseconds, but between frames the
 * threads must cost nothing. A pause takes about 60 ns on Zen 3 but 19 ns
 * on Zen 5: 1000 spins were 19 us there, shorter than the main thread's
 * gaps between jobs at times, and a 200 x 200 step on two threads went to
 * sleep and was woken (a futex each way) some 9 times a substep. 4000:
 * 75 to 240 us. */
#define IDLE_SPINS 4000

static void *worker_main(void *arg)
{
    RelaxPoolWorker *w = arg;
    RelaxPool *p = w->pool;
    unsigned seen = 0;
    for (;;) {
        unsigned generation;
        int spins = 0;
        while ((generation = atomic_load(&p->generation)) == seen && !atomic_load(&p->stop)) {
            if (++spins < IDLE_SPINS) {
                relax_pool_pause();
                continue;
            }
            pthread_mutex_lock(&p->lock);
            atomic_fetch_add(&p->sleepers, 1);
            while (atomic_load(&p->generation) == seen && !atomic_load(&p->stop))
                pthread_cond_wait(&p->wake, &p->lock);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->lock);
            spins = 0;
        }
        if (atomic_load(&p->stop))
            return NULL;
        seen = generation;
        if (w->index < p->running)
            p->job(p->context, w->index);
        atomic_fetch_add(&p->finished, 1);
    }
}

void relax_pool_run(RelaxPool *p, int running)
{
    assert(running >= 1 && running <= p->threads);
    p->running = running;
    if (running == 1) {
        p->job(p->context, 0);
        return;
    }
    atomic_store(&p->finished, 0);
    atomic_fetch_add(&p->generation, 1);
    if (atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
    p->job(p->context, 0);
    int spins = 0;
    while (atomic_load(&p->finished) < p->threads - 1)
        relax_pool_wait_a_little(&spins);
}

void relax_pool_barrier(RelaxPool *p)
{
    if (p->running == 1)
        return;
    unsigned generation = atomic_load(&p->barrier_generation);
    if (atomic_fetch_add(&p->arrived, 1) == p->running - 1) {
        atomic_store(&p->arrived, 0);
        atomic_fetch_add(&p->barrier_generation, 1);
    } else {
        int spins = 0;
        while (atomic_load(&p->barrier_generation) == generation)
            relax_pool_wait_a_little(&spins);
    }
}

/* The workers are started with the signals a person sends (interrupt,
 * terminate, suspend, a resized window) blocked, so that those reach the
 * thread that owns the terminal; a fault in a worker still reaches its
 * handler, which restores the terminal. */
bool relax_pool_start(RelaxPool *p, int threads, RelaxPoolJob job, void *context)
{
    p->threads = p->running = 1;
    p->job = job;
    p->context = context;
    if (pthread_mutex_init(&p->lock, NULL) != 0)
        return false;
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        return false;
    }
    p->sync_made = true;
    threads = threads < 1 ? 1 : threads > RELAX_POOL_MAX_THREADS ? RELAX_POOL_MAX_THREADS : threads;
    sigset_t asynchronous, old;
    sigfillset(&asynchronous);
    const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t k = 0; k < sizeof faults / sizeof faults[0]; k++)
        sigdelset(&asynchronous, faults[k]);
    pthread_sigmask(SIG_BLOCK, &asynchronous, &old);
    for (int t = 1; t < threads; t++) {
        p->worker[t] = (RelaxPoolWorker){.pool = p, .index = t};
        if (pthread_create(&p->thread[t], NULL, worker_main, &p->worker[t]) != 0)
            break; /* run on the threads we have */
        p->threads = t + 1;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return true;
}

void relax_pool_stop(RelaxPool *p)
{
    if (p->threads > 1) {
        atomic_store(&p->stop, 1);
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
        for (int t = 1; t < p->threads; t++)
            pthread_join(p->thread[t], NULL);
    }
    p->threads = 1;
    if (p->sync_made) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        p->sync_made = false;
    }
}

int relax_pool_usable_cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
#if defined(__linux__)
    cpu_set_t allowed; /* taskset, a container's cpuset */
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
        cores = CPU_COUNT(&allowed);
#endif
    return cores < 1 ? 1 : cores > RELAX_POOL_MAX_THREADS ? RELAX_POOL_MAX_THREADS : (int)cores;
}
