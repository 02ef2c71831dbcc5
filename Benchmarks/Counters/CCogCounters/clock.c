// Clocks and optimizer barriers for the runner.
#include "CCogCounters.h"

#include <time.h>

uint64_t cog_monotonic_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

uint64_t cog_thread_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

__attribute__((noinline)) void cog_black_hole(uint64_t value) {
  __asm__ volatile("" : : "r"(value) : "memory");
}

__attribute__((noinline)) uint64_t cog_opaque(uint64_t value) {
  __asm__ volatile("" : "+r"(value) : : "memory");
  return value;
}
