#include "CCogStack.h"

#include <time.h>

int64_t cog_continuous_nanoseconds(void) {
  struct timespec t;
#if defined(__APPLE__)
  clock_gettime(CLOCK_MONOTONIC_RAW, &t);
#else
  clock_gettime(CLOCK_BOOTTIME, &t);
#endif
  return (int64_t)t.tv_sec * 1000000000 + (int64_t)t.tv_nsec;
}
