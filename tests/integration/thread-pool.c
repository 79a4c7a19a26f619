/* The thread pool (runtime/thread-pool.c) on its own: every part of every job
 * runs exactly once, with the job's nparts, for parts fewer than, as many as and
 * more than the threads (caps 1-4); parts that take long on some threads (so
 * that the others take them over, from the back of the slow thread's run);
 * parts run whole (0 of 1) where the pool has one thread; and two callers at
 * once (the second runs its step alone). Built plain and, where the compiler
 * has it, under ThreadSanitizer (integration.thread-pool-tsan).
 *   thread-pool */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "glow-runtime.h"

#define MAX_PARTS 64

static int failures;
static pthread_t main_thread;
static atomic_int taken_over; /* slow parts (another thread's run) that the caller ran */
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c)))

typedef struct {
  atomic_int runs[MAX_PARTS]; /* times each part ran */
  atomic_int bad;             /* calls with a part or nparts out of place */
  atomic_int whole;           /* calls of part 0 of 1 */
  int32_t nparts;
  int slow;    /* parts >= nparts / 2 sleep (the second half: another thread's run) */
  atomic_int sum; /* sum of part indices seen, to tell a lost part from a doubled one */
} job;

static void nap_us(long us) {
  struct timespec t = {0, us * 1000};
  nanosleep(&t, NULL);
}

static void step(void *ctx, int32_t part, int32_t nparts) {
  job *j = ctx;
  if (nparts == 1 && part == 0) {
    atomic_fetch_add(&j->whole, 1);
    return;
  }
  if (nparts != j->nparts || part < 0 || part >= nparts) {
    atomic_fetch_add(&j->bad, 1);
    return;
  }
  if (j->slow && part >= nparts / 2) {
    nap_us(200);
    if (pthread_equal(pthread_self(), main_thread))
      atomic_fetch_add(&taken_over, 1);
  }
  atomic_fetch_add(&j->runs[part], 1);
  atomic_fetch_add(&j->sum, part);
}

/* Runs `reps` jobs of nparts parts at cap threads; each must run every part once, or whole
 * once: where there is nothing to share (one part, one thread), or, with `shared`, where
 * another caller may hold the pool. */
static void jobs(int cap, int32_t nparts, int slow, int reps, int shared) {
  CHECK(glow_threads_set(cap) == GLOW_RT_OK);
  for (int r = 0; r < reps; r++) {
    job j;
    memset(&j, 0, sizeof j);
    j.nparts = nparts;
    j.slow = slow;
    glow_parallel_for(step, &j, nparts);
    int whole = atomic_load(&j.whole), once = 1;
    for (int p = 0; p < nparts; p++)
      once &= atomic_load(&j.runs[p]) == (whole ? 0 : 1);
    if (!(atomic_load(&j.bad) == 0 && (whole == 1 || whole == 0) && once &&
          atomic_load(&j.sum) == (whole ? 0 : nparts * (nparts - 1) / 2))) {
      fprintf(stderr, "cap %d, %d parts%s, job %d: whole %d, bad %d, part sum %d\n", cap, (int)nparts,
              slow ? " (slow half)" : "", r, whole, atomic_load(&j.bad), atomic_load(&j.sum));
      failures++;
      return;
    }
    if (!shared)
      CHECK(whole == (nparts == 1 || cap == 1));
  }
}

static void *other_caller(void *arg) {
  int *bad = arg;
  for (int r = 0; r < 200; r++) {
    job j;
    memset(&j, 0, sizeof j);
    j.nparts = 8;
    glow_parallel_for(step, &j, 8);
    int n = atomic_load(&j.whole);
    for (int p = 0; p < 8; p++)
      n += atomic_load(&j.runs[p]);
    if (atomic_load(&j.bad) || !(atomic_load(&j.whole) == 1 || n == 8))
      ++*bad; /* either alone (whole) or every part once */
  }
  return NULL;
}

int main(void) {
  static const int32_t parts[] = {1, 2, 3, 5, 8, 13, 64};
  main_thread = pthread_self();
  for (int cap = 1; cap <= 4; cap++)
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
      jobs(cap, parts[k], 0, 300, 0);
      jobs(cap, parts[k], 1, 3, 0);
    }
  /* With parts that sleep on the other threads' runs, the caller took some of them over
   * (it is done with its own run first); without that, it would wait for them. */
  printf("slow parts the caller took over from other threads: %d\n", atomic_load(&taken_over));
  CHECK(atomic_load(&taken_over) > 0);
  /* Back to fewer threads after more: the runs of the threads left out stay empty. */
  jobs(4, 16, 0, 50, 0);
  jobs(2, 16, 1, 5, 0);
  jobs(3, 7, 0, 50, 0);
  /* Two callers at once: one holds the pool, the other runs its steps whole. */
  CHECK(glow_threads_set(2) == GLOW_RT_OK);
  pthread_t t;
  int other_bad = 0;
  CHECK(pthread_create(&t, NULL, other_caller, &other_bad) == 0);
  jobs(2, 8, 0, 200, 1);
  pthread_join(t, NULL);
  CHECK(other_bad == 0);
  CHECK(glow_threads_set(-1) == GLOW_RT_ERR_ARG);
  CHECK(glow_threads_set(257) == GLOW_RT_ERR_ARG);
  CHECK(glow_threads_set(0) == GLOW_RT_OK && glow_threads_get() >= 1);
  if (failures) {
    fprintf(stderr, "thread-pool: %d failures\n", failures);
    return 1;
  }
  printf("thread-pool: every part ran once, at 1-4 threads, 1-64 parts\n");
  return 0;
}
