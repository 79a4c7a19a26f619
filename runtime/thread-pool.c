/* The thread pool that bundles compiled with -num-threads=N use: a bundle calls
 * glow_parallel_for(step, areas, nparts) for each step it splits (a weak
 * reference: without this file linked, the bundle runs each step whole on its
 * own thread). nparts may exceed the threads: the parts are then shared out.
 *
 * Each of the n threads (the caller and n - 1 workers, created on first use and
 * kept) owns a run of the parts, [t nparts / n, (t + 1) nparts / n), and takes
 * them from the front; a thread whose run is done takes the others' from the
 * back. With the threads equally fast each runs its own share, so that the
 * parts of one step and the next fall on the same thread as with a fixed split;
 * where one is late or slow (a vCPU the host gives to another guest for a
 * while: the 2-vCPU Zen 5 VM ran one of its two 1.5x slower, on and off, for
 * hours), the other takes its parts instead of waiting, as ONNX Runtime's pool
 * does. A run is one 64-bit word (next << 32 | end) on its own cache line,
 * changed by compare-and-swap.
 *
 * A thread reads the job (function, areas, nparts) only after it took a part,
 * and the caller changes the job only after every part is done, so a worker
 * that wakes late (after the job it was woken for ended) takes parts of the job
 * then running, or none. Workers spin a little on the job counter before they
 * sleep, so that a dispatch costs under a microsecond (the 2-vCPU VM: 0.5-0.8
 * us round trip). One job at a time: a second caller while one runs does its
 * step alone. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "glow-runtime.h"

#define GLOW_POOL_MAX 256
#define SPIN_ROUNDS 200000

typedef void (*glow_step_fn)(void *ctx, int32_t part, int32_t nparts);

/* A thread's run of parts: next << 32 | end. */
typedef struct {
  _Alignas(64) _Atomic uint64_t r;
} glow_run;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER; /* held by the one dispatching caller */
static pthread_mutex_t sleep_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static atomic_uint job_count; /* incremented once per dispatch */
static unsigned first_seen[GLOW_POOL_MAX]; /* job_count when worker i started */
static glow_run runs[GLOW_POOL_MAX];
static _Alignas(64) atomic_int finished; /* the job's parts done, as the workers report them */
static atomic_int job_threads;           /* threads sharing the job: runs [0, job_threads) */
static glow_step_fn job_fn;
static void *job_ctx;
static int32_t job_parts;
static int nworkers;  /* started so far */
static int last_threads; /* threads of the last job: runs to empty */
static int thread_cap; /* glow_threads_set; 0: the online CPUs */
static int cpus;       /* the online CPUs, read once */

/* A spinning thread's hint to the core (x86 pause, Arm yield), so that it takes
 * less from a sibling hardware thread and wakes on the store sooner. */
static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

/* Takes the front (owner) or back (another thread) part of run r into *part; 0: none left. */
static int take(glow_run *r, int front, int32_t *part) {
  uint64_t v = atomic_load_explicit(&r->r, memory_order_relaxed);
  for (;;) {
    uint32_t next = (uint32_t)(v >> 32), end = (uint32_t)v;
    if (next >= end)
      return 0;
    uint64_t nv = front ? v + ((uint64_t)1 << 32) : v - 1;
    if (atomic_compare_exchange_weak_explicit(&r->r, &v, nv, memory_order_acquire, memory_order_relaxed)) {
      *part = (int32_t)(front ? next : end - 1);
      return 1;
    }
  }
}

/* Thread me's parts: its own run, then the others' from the back. @return parts run. */
static int run_parts(int me) {
  int n = atomic_load_explicit(&job_threads, memory_order_relaxed), done = 0;
  int32_t part;
  while (take(&runs[me], 1, &part)) {
    job_fn(job_ctx, part, job_parts);
    done++;
  }
  for (int k = 1; k < n; k++)
    while (take(&runs[(me + k) % n], 0, &part)) {
      job_fn(job_ctx, part, job_parts);
      done++;
    }
  return done;
}

static void *worker(void *arg) {
  int me = (int)(intptr_t)arg;    /* its run: 1.. */
  unsigned seen = first_seen[me]; /* jobs before it started are not its own */
  for (;;) {
    unsigned now;
    int spins = 0;
    while ((now = atomic_load_explicit(&job_count, memory_order_acquire)) == seen && spins < SPIN_ROUNDS) {
      relax();
      spins++;
    }
    if (now == seen) {
      pthread_mutex_lock(&sleep_lock);
      while ((now = atomic_load_explicit(&job_count, memory_order_acquire)) == seen)
        pthread_cond_wait(&wake, &sleep_lock);
      pthread_mutex_unlock(&sleep_lock);
    }
    seen = now;
    int done = run_parts(me);
    if (done)
      atomic_fetch_add_explicit(&finished, done, memory_order_release);
  }
  return NULL;
}

static int online_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > GLOW_POOL_MAX ? GLOW_POOL_MAX : (int)n;
}

int glow_threads_set(int n) {
  if (n < 0 || n > GLOW_POOL_MAX)
    return GLOW_RT_ERR_ARG;
  pthread_mutex_lock(&pool_lock);
  thread_cap = n;
  pthread_mutex_unlock(&pool_lock);
  return GLOW_RT_OK;
}

int glow_threads_get(void) { return thread_cap ? thread_cap : online_cpus(); }

void glow_parallel_for(glow_step_fn fn, void *ctx, int32_t nparts) {
  if (nparts <= 1 || pthread_mutex_trylock(&pool_lock)) {
    fn(ctx, 0, 1);
    return;
  }
  if (!cpus) /* sysconf reads /sys: once, not at every step */
    cpus = online_cpus();
  int cap = thread_cap ? thread_cap : cpus;
  int n = nparts < cap ? nparts : cap;
  while (nworkers < n - 1) { /* start the workers this job needs */
    pthread_t t;
    first_seen[nworkers + 1] = atomic_load_explicit(&job_count, memory_order_relaxed);
    if (pthread_create(&t, NULL, worker, (void *)(intptr_t)(nworkers + 1)))
      break;
    pthread_detach(t);
    nworkers++;
  }
  n = n < nworkers + 1 ? n : nworkers + 1;
  if (n <= 1) {
    pthread_mutex_unlock(&pool_lock);
    fn(ctx, 0, 1);
    return;
  }
  /* The job, then the runs (release: a thread that takes a part sees the job). */
  job_fn = fn;
  job_ctx = ctx;
  job_parts = nparts;
  atomic_store_explicit(&finished, 0, memory_order_relaxed);
  atomic_store_explicit(&job_threads, n, memory_order_relaxed);
  for (int t = 0; t < (n > last_threads ? n : last_threads); t++) {
    uint64_t lo = t < n ? (uint64_t)nparts * (uint64_t)t / (uint64_t)n : 0;
    uint64_t hi = t < n ? (uint64_t)nparts * (uint64_t)(t + 1) / (uint64_t)n : 0;
    atomic_store_explicit(&runs[t].r, lo << 32 | hi, memory_order_release);
  }
  last_threads = n;
  pthread_mutex_lock(&sleep_lock);
  atomic_fetch_add_explicit(&job_count, 1, memory_order_release);
  pthread_cond_broadcast(&wake);
  pthread_mutex_unlock(&sleep_lock);
  int done = run_parts(0);
  while (atomic_load_explicit(&finished, memory_order_acquire) + done < nparts)
    relax();
  pthread_mutex_unlock(&pool_lock);
}
