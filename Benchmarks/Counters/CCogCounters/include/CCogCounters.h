// C shims behind the CogCounters producers. Each counter has one small file here and one
// Swift producer in CogCounters; nothing in this target allocates on the counting paths.
#ifndef CCOGCOUNTERS_H
#define CCOGCOUNTERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Retains and releases (arc.c)

/// Counts of the current thread while enabled. `retains` includes retain_n's n,
/// `releases` includes release_n's n.
typedef struct {
  uint64_t retains;
  uint64_t releases;
} cog_arc_counts;

/// Installs the runtime hooks once (idempotent; hooks are never uninstalled). Returns 1 when
/// the hooks are live, 0 otherwise with a reason written to `reason`.
int cog_arc_install(char *reason, size_t reason_size);
void cog_arc_set_enabled(int enabled);
void cog_arc_reset(void);
cog_arc_counts cog_arc_snapshot(void);

// MARK: Allocations (allocations.c)

/// Counts of the current thread (interposer) or of the process (jemalloc) since the last reset.
typedef struct {
  uint64_t allocations;  ///< malloc, calloc, realloc, memalign-family requests
  uint64_t frees;        ///< free calls with a non-null pointer (interposer only)
  uint64_t bytes;        ///< bytes allocated (requested: interposer; size-class: jemalloc)
  int64_t live_bytes;    ///< allocated minus freed (usable sizes), since the reset
  int64_t peak_bytes;    ///< highest `live_bytes` since the reset
} cog_alloc_counts;

enum {
  COG_ALLOC_SOURCE_INTERPOSER = 1,
  COG_ALLOC_SOURCE_JEMALLOC = 2,
};

/// Which counter this build has: COG_ALLOC_SOURCE_JEMALLOC when built with
/// COG_HAVE_JEMALLOC, else COG_ALLOC_SOURCE_INTERPOSER.
int cog_alloc_source(void);
/// Prepares the counter. Returns 1 when it works, 0 with a reason otherwise.
int cog_alloc_install(char *reason, size_t reason_size);
void cog_alloc_set_enabled(int enabled);
/// Starts a counted region: zeroes the thread's counts (interposer) or records the
/// statistics baseline (jemalloc: tcache flush, epoch, nrequests, thread.allocated, peak reset).
void cog_alloc_reset(void);
/// Counts since the last reset (jemalloc: flushes the tcache and advances the epoch first).
cog_alloc_counts cog_alloc_snapshot(void);
/// 1 when the peak reading is available in this build (jemalloc needs thread.peak).
int cog_alloc_has_peak(void);
/// Puts the calling thread on allocator state that does not depend on its history (jemalloc:
/// a new arena, a new thread cache, every thread event's countdown restarted), so that a
/// region's allocator work depends only on what runs after the call. Returns 1 when done, 0
/// with a reason otherwise. The interposer (glibc's malloc) has no such reset: returns 1.
int cog_alloc_fresh_heap(char *reason, size_t reason_size);

// MARK: Callgrind client requests (callgrind.c)

/// 1 when the binary was compiled with <valgrind/callgrind.h>.
int cog_cg_compiled(void);
/// 1 under valgrind (RUNNING_ON_VALGRIND), 0 natively or without the header.
int cog_cg_running_on_valgrind(void);
void cog_cg_start_instrumentation(void);
void cog_cg_stop_instrumentation(void);
void cog_cg_toggle_collect(void);
void cog_cg_zero_stats(void);
void cog_cg_dump_stats_at(const char *name);

// MARK: Hardware counters (perf.c)

/// Tries perf_event_open(PERF_COUNT_HW_INSTRUCTIONS, user space only) for this thread.
/// Returns a file descriptor >= 0, or -errno.
int cog_perf_open_instructions(void);
int cog_perf_enable(int fd);
int cog_perf_disable(int fd);
int cog_perf_reset(int fd);
/// Reads the counter; returns 0 on success, -errno otherwise.
int cog_perf_read(int fd, uint64_t *value);
void cog_perf_close(int fd);

// MARK: Clocks (clock.c)

uint64_t cog_monotonic_ns(void);
uint64_t cog_thread_cpu_ns(void);

// MARK: Opaque sinks (clock.c)

/// Keeps a value alive and opaque to the optimizer.
void cog_black_hole(uint64_t value);
/// Returns its argument through an opaque call so the optimizer cannot fold it.
uint64_t cog_opaque(uint64_t value);

#ifdef __cplusplus
}
#endif
#endif
