// A clock_gettime for LD_PRELOAD: every clock reads FAKE_BASE_NS plus 1 ms per call made so
// far, so that a run's clock values, and where among its calls the clock's attosecond count
// crosses a multiple of 2^64, are chosen by the caller (clock-sweep.sh).
#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>

static long long calls;

int clock_gettime(clockid_t clock, struct timespec *t) {
  (void)clock;
  static long long base = -1;
  if (base < 0) {
    const char *s = getenv("FAKE_BASE_NS");
    base = s ? atoll(s) : 0;
  }
  long long now = base + (calls++) * 1000000LL;
  t->tv_sec = now / 1000000000LL;
  t->tv_nsec = now % 1000000000LL;
  return 0;
}
