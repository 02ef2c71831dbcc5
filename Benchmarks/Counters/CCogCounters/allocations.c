// Allocation counting. Two sources, chosen at build time (Package.swift):
// - COG_HAVE_JEMALLOC: the executable links jemalloc; counts come from its statistics
//   (tcache flush, epoch, small + large nrequests summed over all arenas; bytes from
//   thread.allocated). These statistics are process-wide, so other threads add noise.
// - otherwise: this file defines malloc, calloc, realloc, free and the memalign family,
//   forwarding to glibc's __libc_* entry points and counting, per thread, only while counting
//   is enabled on that thread. Exact: requested bytes, frees, live and peak bytes.
// See shared/research/measurement.md, section 2. The two cannot be combined.
#define _GNU_SOURCE
#include "CCogCounters.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(COG_HAVE_JEMALLOC)
#include <jemalloc/jemalloc.h>

static uint64_t base_requests;
static uint64_t base_allocated;
static uint64_t base_deallocated;

int cog_alloc_source(void) { return COG_ALLOC_SOURCE_JEMALLOC; }

static int read_u64(const char *name, uint64_t *value) {
  size_t size = sizeof *value;
  return mallctl(name, value, &size, NULL, 0);
}

static uint64_t requests_now(void) {
  mallctl("thread.tcache.flush", NULL, NULL, NULL, 0);
  uint64_t epoch = 1;
  size_t size = sizeof epoch;
  mallctl("epoch", &epoch, &size, &epoch, size);
  char name[96];
  uint64_t small = 0, large = 0;
  snprintf(name, sizeof name, "stats.arenas.%u.small.nrequests", (unsigned)MALLCTL_ARENAS_ALL);
  read_u64(name, &small);
  snprintf(name, sizeof name, "stats.arenas.%u.large.nrequests", (unsigned)MALLCTL_ARENAS_ALL);
  read_u64(name, &large);
  return small + large;
}

int cog_alloc_install(char *reason, size_t reason_size) {
  bool stats = false;
  size_t size = sizeof stats;
  int rc = mallctl("config.stats", &stats, &size, NULL, 0);
  if (rc != 0 || !stats) {
    if (reason && reason_size)
      snprintf(reason, reason_size, "jemalloc was built without statistics (config.stats: %s)",
               rc ? strerror(rc) : "false");
    return 0;
  }
  uint64_t probe;
  rc = read_u64("thread.allocated", &probe);
  if (rc != 0) {
    if (reason && reason_size)
      snprintf(reason, reason_size, "jemalloc thread.allocated unreadable: %s", strerror(rc));
    return 0;
  }
  return 1;
}

void cog_alloc_set_enabled(int enabled) { (void)enabled; }

void cog_alloc_reset(void) {
  base_requests = requests_now();
  read_u64("thread.allocated", &base_allocated);
  read_u64("thread.deallocated", &base_deallocated);
}

cog_alloc_counts cog_alloc_snapshot(void) {
  uint64_t allocated = 0, deallocated = 0;
  read_u64("thread.allocated", &allocated);
  read_u64("thread.deallocated", &deallocated);
  uint64_t requests = requests_now();
  cog_alloc_counts counts;
  counts.allocations = requests - base_requests;
  counts.frees = 0;
  counts.bytes = allocated - base_allocated;
  counts.live_bytes = (int64_t)(allocated - base_allocated) - (int64_t)(deallocated - base_deallocated);
  counts.peak_bytes = 0;
  return counts;
}

int cog_alloc_has_peak(void) { return 0; }

int cog_alloc_fresh_heap(char *reason, size_t reason_size) {
  // A new arena: its bins and slabs have seen nothing of what this thread did before.
  unsigned arena = 0;
  size_t size = sizeof arena;
  int rc = mallctl("arenas.create", &arena, &size, NULL, 0);
  if (rc == 0) rc = mallctl("thread.arena", NULL, NULL, &arena, sizeof arena);
  // A new thread cache: empty bins, initial fill sizes and low-water marks, first GC bin.
  bool off = false, on = true;
  if (rc == 0) rc = mallctl("thread.tcache.enabled", NULL, NULL, &off, sizeof off);
  if (rc == 0) rc = mallctl("thread.tcache.enabled", NULL, NULL, &on, sizeof on);
  if (rc != 0) {
    if (reason && reason_size)
      snprintf(reason, reason_size, "jemalloc could not give the thread a fresh arena: %s",
               strerror(rc));
    return 0;
  }
  // One allocation and one free larger than every thread event's interval fire each pending
  // event (tcache GC, peak tracking) here and restart its countdown from its full interval,
  // whatever this thread allocated before. Volatile: the pair must not be optimized away.
  void *volatile block = malloc((size_t)1 << 22);
  free(block);
  return 1;
}

#else  // the in-process interposer

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern size_t malloc_usable_size(void *pointer);

static _Thread_local int alloc_enabled;
static _Thread_local cog_alloc_counts alloc_counts;

int cog_alloc_source(void) { return COG_ALLOC_SOURCE_INTERPOSER; }

int cog_alloc_install(char *reason, size_t reason_size) {
  (void)reason;
  (void)reason_size;
  return 1;
}

void cog_alloc_set_enabled(int enabled) { alloc_enabled = enabled; }

void cog_alloc_reset(void) { memset(&alloc_counts, 0, sizeof alloc_counts); }

cog_alloc_counts cog_alloc_snapshot(void) { return alloc_counts; }

int cog_alloc_has_peak(void) { return 1; }

int cog_alloc_fresh_heap(char *reason, size_t reason_size) {
  (void)reason;
  (void)reason_size;
  return 1;
}

static inline void note_allocation(void *pointer, size_t size) {
  alloc_counts.allocations += 1;
  alloc_counts.bytes += size;
  alloc_counts.live_bytes += (int64_t)malloc_usable_size(pointer);
  if (alloc_counts.live_bytes > alloc_counts.peak_bytes)
    alloc_counts.peak_bytes = alloc_counts.live_bytes;
}

void *malloc(size_t size) {
  void *pointer = __libc_malloc(size);
  if (alloc_enabled && pointer) note_allocation(pointer, size);
  return pointer;
}

void *calloc(size_t count, size_t size) {
  void *pointer = __libc_calloc(count, size);
  if (alloc_enabled && pointer) note_allocation(pointer, count * size);
  return pointer;
}

void *realloc(void *old, size_t size) {
  if (!alloc_enabled) return __libc_realloc(old, size);
  size_t old_usable = old ? malloc_usable_size(old) : 0;
  void *pointer = __libc_realloc(old, size);
  if (pointer) {
    alloc_counts.live_bytes -= (int64_t)old_usable;
    note_allocation(pointer, size);
  } else if (old && size == 0) {
    alloc_counts.frees += 1;
    alloc_counts.live_bytes -= (int64_t)old_usable;
  }
  return pointer;
}

void free(void *pointer) {
  if (alloc_enabled && pointer) {
    alloc_counts.frees += 1;
    alloc_counts.live_bytes -= (int64_t)malloc_usable_size(pointer);
  }
  __libc_free(pointer);
}

static void *aligned(size_t alignment, size_t size) {
  void *pointer = __libc_memalign(alignment, size);
  if (alloc_enabled && pointer) note_allocation(pointer, size);
  return pointer;
}

void *memalign(size_t alignment, size_t size) { return aligned(alignment, size); }

void *aligned_alloc(size_t alignment, size_t size) { return aligned(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void *) != 0)
    return EINVAL;
  void *pointer = aligned(alignment, size);
  if (!pointer) return ENOMEM;
  *out = pointer;
  return 0;
}

void *valloc(size_t size) { return aligned((size_t)sysconf(_SC_PAGESIZE), size); }

#endif
