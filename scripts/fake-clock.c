// A clock for scripts/clock-check.sh, loaded into the workbench's children only
// (`COG_BENCH_CHILD_PRELOAD`): every clock_gettime, of any clock, returns
// COG_FAKE_CLOCK_BASE_NS plus COG_FAKE_CLOCK_STEP_NS for each call made before it, so that
// a region's clock values are chosen by the caller and not by the time of day.
#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>

static long long fake_calls;

static long long fake_setting(const char *name, long long fallback) {
  const char *s = getenv(name);
  return s ? atoll(s) : fallback;
}

int clock_gettime(clockid_t clock, struct timespec *t) {
  (void)clock;
  static long long base = -1, step = -1;
  if (base < 0) {
    base = fake_setting("COG_FAKE_CLOCK_BASE_NS", 1000000000000LL);
    step = fake_setting("COG_FAKE_CLOCK_STEP_NS", 1000LL);
  }
  long long now = base + (fake_calls++) * step;
  t->tv_sec = now / 1000000000LL;
  t->tv_nsec = now % 1000000000LL;
  return 0;
}
