/* The thread pool that bundles compiled with -num-threads=N use: a bundle calls
 * glow_parallel_for(step, areas, N) for each step it splits (a weak reference:
 * without this file linked, the bundle runs each step whole on its own thread).
 * The caller runs part 0; N - 1 workers, created on first use and kept, run the
 * others. Workers spin a little on the job counter before they sleep, so that a
 * dispatch costs microseconds (a resnet18 run dispatches about 60 times). One
 * job at a time: a second caller while one runs does its step alone. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "glow-runtime.h"

#define GLOW_POOL_MAX 256
#define SPIN_ROUNDS 200000

typedef void (*glow_step_fn)(void *ctx, int32_t part, int32_t nparts);

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER; /* held by the one dispatching caller */
static pthread_mutex_t sleep_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static atomic_uint job_count; /* incremented once per dispatch */
static unsigned first_seen[GLOW_POOL_MAX]; /* job_count when worker i started */
static atomic_int pending; /* parts not finished yet */
static glow_step_fn job_fn;
static void *job_ctx;
static int32_t job_parts;
static int nworkers; /* started so far */
static int thread_cap; /* glow_threads_set; 0: the online CPUs */

/* A spinning thread's hint to the core (x86 pause, Arm yield), so that it takes
 * less from a sibling hardware thread and wakes on the store sooner. */
static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

static void *worker(void *arg) {
  int32_t me = (int32_t)(intptr_t)arg; /* its part: 1.. */
  unsigned seen = first_seen[me];       /* jobs before it started are not its own */
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
    if (me < job_parts) {
      job_fn(job_ctx, me, job_parts);
      atomic_fetch_sub_explicit(&pending, 1, memory_order_release);
    }
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
  int cap = thread_cap ? thread_cap : online_cpus();
  int32_t n = nparts < cap ? nparts : cap;
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
  job_fn = fn;
  job_ctx = ctx;
  job_parts = n;
  atomic_store_explicit(&pending, n - 1, memory_order_relaxed);
  pthread_mutex_lock(&sleep_lock);
  atomic_fetch_add_explicit(&job_count, 1, memory_order_release);
  pthread_cond_broadcast(&wake);
  pthread_mutex_unlock(&sleep_lock);
  fn(ctx, 0, n);
  while (atomic_load_explicit(&pending, memory_order_acquire) > 0)
    relax();
  pthread_mutex_unlock(&pool_lock);
}
