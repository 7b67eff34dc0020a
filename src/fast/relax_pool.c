/* relax_pool.c - the fast path's worker threads (relax_pool.h).
 *
 * A job is announced by bumping `generation`; a worker that sees it and
 * takes part runs the job and counts itself in `finished`, which the
 * caller waits for.
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
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

/* A worker that finds no job spins this many times before it sleeps:
 * passes follow each other within microseconds, but between frames the
 * threads must cost nothing. A pause is three times shorter on some
 * processors than on others: 1000 spins there were shorter than the main
 * thread's gaps between jobs at times, and a 200 x 200 step on two threads
 * went to sleep and was woken (a futex each way) some 9 times a substep
 * (README.md beside this file, "Measured for the code", has the figures). */
#define IDLE_SPINS 4000

/* A job's generation carries in its low bits how many threads run it: a
 * worker left out needs not even count itself, and the caller waits only
 * for those taking part (relax_pool_worth may leave some out because other
 * programs hold their cores: they must not be needed to run at all). */
#define RUNNING_BITS 5
#define RUNNING_MASK ((1u << RUNNING_BITS) - 1u)
_Static_assert(RELAX_POOL_MAX_THREADS <= RUNNING_MASK, "the running count fits a generation's low bits");

static void *worker_main(void *arg)
{
    RelaxPoolWorker *w = arg;
    RelaxPool *p = w->pool;
#if defined(__linux__)
    atomic_store(&p->tid[w->index], (int)syscall(SYS_gettid)); /* the watcher reads its schedstat */
#endif
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
        if (w->index < (int)(generation & RUNNING_MASK)) {
            p->job(p->context, w->index);
            atomic_fetch_add(&p->finished, 1);
        }
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
    unsigned generation = atomic_load(&p->generation);
    atomic_store(&p->generation, ((generation >> RUNNING_BITS) + 1) << RUNNING_BITS | (unsigned)running);
    if (atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
    p->job(p->context, 0);
    int spins = 0;
    while (atomic_load(&p->finished) < running - 1)
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

/* ------------------------------------------------------------ the watcher */

/* How often the watcher looks at the machine's load. Passes follow each
 * other within microseconds, and a time slice on a busy core is some
 * milliseconds: a tenth of a second of two threads fighting another
 * program for a core is a few per cent of a long run, and a look (one
 * read of /proc/stat) costs some hundredths of a per cent of a core
 * (README.md beside this file). */
#define WATCH_NS 100000000L
/* A job takes n threads while the cores idle or ours come to n - 1/4 or
 * more: a core another program keeps a quarter busy is not ours (/proc/stat
 * counts in ticks of 10 ms, so a window holds 10 a core, give or take one). */
#define WATCH_SLACK 0.25

#if defined(__linux__)
/* Adds a "cpuN user nice system idle iowait irq softirq steal ..." line of
 * /proc/stat to load if N is one of `mine`. */
static void load_add_line(const char *line, const cpu_set_t *mine, RelaxPoolLoad *load)
{
    if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
        return; /* "cpu " is all of them together */
    char *end;
    unsigned long cpu = strtoul(line + 3, &end, 10);
    if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, mine))
        return;
    double field[8] = {0};
    for (int k = 0; k < 8; k++)
        field[k] = (double)strtoull(end, &end, 10);
    load->idle += field[3] + field[4]; /* waiting for input or output is idle too */
    for (int k = 0; k < 8; k++)        /* steal: the hypervisor ran another machine */
        load->total += field[k];
    load->cores++;
}
#endif

/* The load now; false where it cannot be read. The lines of the cores come
 * first in /proc/stat, and a line is read whole into buffer however the
 * reads cut it; no allocation. */
static bool load_read(const void *mine, RelaxPoolLoad *load)
{
    *load = (RelaxPoolLoad){0};
#if defined(__linux__)
    int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char buffer[4096];
    size_t have = 0;
    bool cpu_lines = true;
    while (cpu_lines) {
        ssize_t got = read(fd, buffer + have, sizeof buffer - 1 - have);
        if (got <= 0)
            break;
        have += (size_t)got;
        buffer[have] = '\0';
        char *line = buffer, *end;
        while (cpu_lines && (end = strchr(line, '\n'))) {
            *end = '\0';
            if (strncmp(line, "cpu", 3) != 0)
                cpu_lines = false;
            else
                load_add_line(line, mine, load);
            line = end + 1;
        }
        have -= (size_t)(line - buffer);
        if (have == sizeof buffer - 1)
            break; /* a line longer than the buffer: not /proc/stat as we know it */
        memmove(buffer, line, have);
    }
    close(fd);
    struct timespec t;
    if (load->cores == 0 || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0)
        return false;
    load->ours = ((double)t.tv_sec + (double)t.tv_nsec * 1e-9) * (double)sysconf(_SC_CLK_TCK);
    return true;
#else
    (void)mine;
    return false;
#endif
}

int relax_pool_fits(const RelaxPoolLoad *before, const RelaxPoolLoad *now, int threads)
{
    double span = (now->total - before->total) / now->cores; /* ticks a core */
    if (now->cores != before->cores || span < 1.0)
        return 0;
    double free = (now->idle - before->idle + now->ours - before->ours) / span;
    int fits = (int)(free + WATCH_SLACK);
    return fits < 1 ? 1 : fits > threads ? threads : fits;
}

/* Looks in a row that must find cores free before a job takes more
 * threads: at first WATCH_HOLD_FIRST (the first look after a busy one may
 * still hold some of it), twice that each time the threads had to come
 * back down, up to WATCH_HOLD_MOST (6.4 s), and back to the first after as
 * many looks with every thread at work. Other programs' load comes and
 * goes (a compiler, a class's sandboxes); a look at the wrong time costs
 * a tenth of a second of threads fighting for a core, at up to 5 times one
 * thread's wall time: the backing off keeps that to a few per cent. */
#define WATCH_HOLD_FIRST 2
#define WATCH_HOLD_MOST 64

void relax_pool_choice_start(RelaxPoolChoice *c, int threads)
{
    *c = (RelaxPoolChoice){.worth = 1, .threads = threads, .hold = WATCH_HOLD_FIRST};
}

void relax_pool_choose(RelaxPoolChoice *c, int fits)
{
    if (fits < 1)
        return; /* the look said nothing */
    if (fits < c->worth) {
        c->worth = fits;
        c->hold = c->hold * 2 < WATCH_HOLD_MOST ? c->hold * 2 : WATCH_HOLD_MOST;
        c->free_looks = c->settled = 0;
    } else if (fits > c->worth) {
        c->least = c->free_looks++ == 0 || fits < c->least ? fits : c->least;
        if (c->free_looks >= c->hold)
            c->worth = c->least, c->free_looks = 0;
    } else {
        c->free_looks = 0;
        if (c->worth == c->threads && ++c->settled >= WATCH_HOLD_MOST)
            c->hold = WATCH_HOLD_FIRST, c->settled = 0;
    }
}

/* While jobs take more than one thread, the watcher also looks every
 * WATCH_FAST_NS at how long the workers stood ready to run on a core
 * another program held (/proc/self/task/TID/schedstat, in nanoseconds:
 * no ticks to wait for); a tenth of that time or more and the jobs go
 * back to one thread at once, as after a busy look. On a quiet machine a
 * worker stands ready only for the microseconds of a wake-up. */
#define WATCH_FAST_NS 10000000L
#define WATCH_READY_SHARE 0.1

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The seconds the workers have stood ready to run so far; negative where
 * it cannot be read. */
static double workers_ready(RelaxPool *p)
{
#if defined(__linux__)
    double ready = 0.0;
    for (int t = 1; t < p->threads; t++) {
        int tid = atomic_load(&p->tid[t]);
        char path[64], text[128];
        snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", tid);
        int fd = tid > 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
        if (fd < 0)
            return -1.0;
        ssize_t got = read(fd, text, sizeof text - 1);
        close(fd);
        if (got <= 0)
            return -1.0;
        text[got] = '\0';
        char *end;
        strtoull(text, &end, 10); /* on a core */
        ready += (double)strtoull(end, NULL, 10) * 1e-9;
    }
    return ready;
#else
    (void)p;
    return -1.0;
#endif
}

/* Looks every WATCH_NS (and, while jobs take more than one thread, at the
 * workers every WATCH_FAST_NS) and chooses (relax_pool_choose). */
static void *watch_main(void *arg)
{
    RelaxPool *p = arg;
#if defined(__linux__)
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0)
        CPU_ZERO(&mine);
#else
    int mine = 0;
#endif
    RelaxPoolLoad before, now;
    if (!load_read(&mine, &before)) {
        atomic_store(&p->worth, p->threads); /* blind: every thread, as without a watcher */
        return NULL;
    }
    RelaxPoolChoice choice;
    relax_pool_choice_start(&choice, p->threads);
    double look_due = seconds_now() + WATCH_NS * 1e-9, ready_before = -1.0, ready_at = 0.0;
    pthread_mutex_lock(&p->lock);
    while (!atomic_load(&p->stop)) {
        double wake = seconds_now() + (choice.worth > 1 ? WATCH_FAST_NS : WATCH_NS) * 1e-9;
        wake = wake < look_due ? wake : look_due;
        struct timespec due = {(time_t)wake, (long)((wake - (double)(time_t)wake) * 1e9)};
        while (!atomic_load(&p->stop) && pthread_cond_timedwait(&p->watch_wake, &p->lock, &due) != ETIMEDOUT) {
        }
        if (atomic_load(&p->stop))
            break;
        pthread_mutex_unlock(&p->lock);
        double at = seconds_now();
        if (choice.worth > 1) {
            double ready = workers_ready(p);
            if (ready >= 0.0 && ready_before >= 0.0 &&
                ready - ready_before > WATCH_READY_SHARE * (at - ready_at) * (p->threads - 1)) {
                relax_pool_choose(&choice, 1);
                atomic_store(&p->worth, choice.worth);
            }
            ready_before = ready, ready_at = at;
        } else {
            ready_before = -1.0;
        }
        if (at >= look_due) {
            int fits = load_read(&mine, &now) ? relax_pool_fits(&before, &now, p->threads) : 0;
            if (fits > 0) {
                relax_pool_choose(&choice, fits);
                atomic_store(&p->worth, choice.worth);
                before = now;
            }
            look_due = at + WATCH_NS * 1e-9; /* a machine too busy to wake us on time: a whole WATCH_NS on */
        }
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Blocks the signals a person sends (see relax_pool_start); old gets the
 * mask to restore. */
static void block_asynchronous_signals(sigset_t *old)
{
    sigset_t asynchronous;
    sigfillset(&asynchronous);
    const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t k = 0; k < sizeof faults / sizeof faults[0]; k++)
        sigdelset(&asynchronous, faults[k]);
    pthread_sigmask(SIG_BLOCK, &asynchronous, old);
}

bool relax_pool_watch(RelaxPool *p)
{
    if (p->watching || p->threads < 2)
        return true; /* nothing to choose */
    atomic_store(&p->worth, 1);
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0)
        return false;
    bool made = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&p->watch_wake, &attr) == 0;
    pthread_condattr_destroy(&attr);
    if (!made)
        return false;
    sigset_t old;
    block_asynchronous_signals(&old);
    p->watching = pthread_create(&p->watcher, NULL, watch_main, p) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!p->watching)
        pthread_cond_destroy(&p->watch_wake);
    return p->watching;
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
    p->watching = false;
    threads = threads < 1 ? 1 : threads > RELAX_POOL_MAX_THREADS ? RELAX_POOL_MAX_THREADS : threads;
    sigset_t old;
    block_asynchronous_signals(&old);
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
    if (p->watching) {
        atomic_store(&p->stop, 1);
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->watch_wake);
        pthread_mutex_unlock(&p->lock);
        pthread_join(p->watcher, NULL);
        pthread_cond_destroy(&p->watch_wake);
        p->watching = false;
    }
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
