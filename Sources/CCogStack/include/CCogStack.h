#ifndef CCOGSTACK_H
#define CCOGSTACK_H

// Stack segments for deep first evaluations.
//
// A row that never ran has unknown dependencies, so its first evaluation runs the bodies of
// its never-run dependencies nested inside its own: one native frame chain per level. Instead
// of overflowing the thread's stack on a deep fresh chain, the core asks how much stack is left
// before running a nested body and, when it is low, runs that body on a fresh segment
// (`cog_run_on_fresh_stack`), the way rustc's `ensure_sufficient_stack` (the stacker crate)
// grows its stack. The thread never changes, so main-actor isolation is unaffected.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>

/// Stack left below which a nested body runs on a fresh segment (192 KiB): room for one more
/// level (a body, its reads, a refresh and a recompute: about 0.3 KiB in release, 6 KiB in
/// debug, measured on the deep-chain test) plus whatever library code a body calls.
#define COG_STACK_RED_ZONE 196608

/// The lowest usable address of the stack segment the calling thread runs on (0: not yet
/// known). Thread-local; read only through `cog_stack_remaining`.
extern _Thread_local uintptr_t cog_stack_limit;

/// `cog_stack_limit` plus `COG_STACK_RED_ZONE`: a frame below it is in the red zone. Kept so
/// that the check before every nested body is one compare (`cog_stack_is_low`). Starts at
/// `UINTPTR_MAX` (bounds not yet known), so a thread's first check takes the slow path, which
/// finds them. Thread-local; set only with `cog_stack_limit`.
extern _Thread_local uintptr_t cog_stack_switch_below;

/// Finds the calling thread's stack bounds (once per thread) and returns the lowest address.
uintptr_t cog_stack_limit_slow(void);

/// Whether the current frame may be in the red zone: true in it, and on a thread whose bounds
/// are not known yet (the caller then asks `cog_stack_remaining`, which finds them).
static inline bool cog_stack_is_low(void) {
  return (uintptr_t)__builtin_frame_address(0) < cog_stack_switch_below;
}

/// Bytes between the current frame and the bottom of the current stack segment.
static inline size_t cog_stack_remaining(void) {
  uintptr_t limit = cog_stack_limit;
  if (limit == 0) limit = cog_stack_limit_slow();
  uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
  return sp > limit ? (size_t)(sp - limit) : 0;
}

/// Whether `cog_run_on_fresh_stack` can switch stacks on this platform.
int cog_can_switch_stacks(void);

/// Runs `fn(context)` on a fresh stack segment of at least `size` bytes (guard page below it),
/// then frees the segment. Returns 0 when `fn` ran; -1 when no segment could be made or this
/// platform cannot switch stacks (then `fn` did not run).
int cog_run_on_fresh_stack(size_t size, void (*fn)(void *), void *context);

/// The graph whose bodies are running (the innermost outermost recompute), or NULL: a body
/// or reaction context checks it before it touches its graph, so one used after its body
/// (or after its context is gone) stops with a message rather than reading freed memory.
/// Main thread only (graphs are main-actor objects).
extern void *cog_body_graph;
/// The graph whose turn body is running, or NULL: a writer's check, likewise.
extern void *cog_turn_graph;

/// How many graphs are alive: no descriptor has more context holds. Changed on the main
/// thread only (a graph's init and deinit), read by a descriptor's `deinit` on any thread
/// (`cog_park_details`), hence atomic; the main thread's reads are relaxed (plain loads).
extern _Atomic(intptr_t) cog_live_graphs;

static inline intptr_t cog_get_live_graphs(void) {
  return __c11_atomic_load(&cog_live_graphs, __ATOMIC_RELAXED);
}
static inline void cog_add_live_graphs(intptr_t delta) {
  __c11_atomic_fetch_add(&cog_live_graphs, delta, __ATOMIC_SEQ_CST);
}

static inline void *cog_get_body_graph(void) { return cog_body_graph; }
static inline void cog_set_body_graph(void *graph) { cog_body_graph = graph; }
static inline void *cog_get_turn_graph(void) { return cog_turn_graph; }
static inline void cog_set_turn_graph(void *graph) { cog_turn_graph = graph; }

/// Plain manual descriptors (no label, no equality of their own) whose rows do not hold them
/// (swift/0008, "A plain manual cog is not held"): their `deinit` marks the id here, on
/// whatever thread it runs, and a context's sweep reads the mark by its row's descriptor id,
/// never touching the freed object. A bit per descriptor id, in pages of 65,536 ids (8 KiB)
/// made on a page's first mark and kept for the process's life; ids are never reused.
void cog_mark_descriptor_dropped(int32_t id);
/// Whether `cog_mark_descriptor_dropped(id)` has run (any thread; 0 for a negative id).
int cog_descriptor_is_dropped(int32_t id);

/// Keyless descriptors' details (CogCore's `KeylessDetails`) handed over by the `deinit` of a
/// descriptor that made rows, on whatever thread it ran, while rows of it may still exist:
/// each entry is a retained reference (+1) that only main-actor graph code may give back
/// (`KeylessDetails.orphan`), or any thread once no graph is alive (then no row is). Guarded
/// by a mutex: a descriptor's `deinit` is a cold path.
///
/// Pushes `object` (retained); returns 1 when no graph is alive after the push, so that the
/// caller should take its own entry back (`cog_unpark_details`; only its own: another thread
/// may have parked one for rows of a graph made since), and 0 otherwise:
/// a graph's deinit decrements the count before it takes the list, and a push checks the
/// count after it, so one of the two sees every entry.
int cog_park_details(void *object);
/// Takes up to `capacity` parked entries into `out`; returns how many (0: none left).
intptr_t cog_take_parked_details(void **out, intptr_t capacity);
/// Takes `object` back out of the parked entries (the last one that is `object`); returns 1
/// if it was there, 0 if main-actor graph code already took it.
int cog_unpark_details(void *object);

/// How many entries are parked, kept beside the list (changed under its mutex, sequentially
/// consistent), so that a caller with nothing to take takes no lock
/// (`KeylessDetails.releaseParked`; the release of each dropped descriptor's last row calls
/// it). Its store in a push and a graph deinit's decrement of `cog_live_graphs` are both
/// sequentially consistent, as are the push's load of that count and the deinit's load of
/// this one, so one of the two still sees every entry.
extern _Atomic(intptr_t) cog_parked_pending;
static inline intptr_t cog_parked_details_pending(void) {
  return __c11_atomic_load(&cog_parked_pending, __ATOMIC_SEQ_CST);
}

/// Nanoseconds on the clock `ContinuousClock` reads (Linux: `CLOCK_BOOTTIME`; Apple:
/// `CLOCK_MONOTONIC_RAW`), as one integer: a context's cache retention compares these every
/// turn, in 64-bit arithmetic whose instructions do not depend on the time (see
/// `ContextTime`).
int64_t cog_continuous_nanoseconds(void);

/// The Swift runtime's release without an atomic operation (libswiftCore exports it beside
/// `swift_release`, with the C calling convention). Called through C: Swift may not name a
/// runtime entry point with `@_silgen_name` (the compiler warns that it will become an error).
/// Safety: `object` is a live native Swift object whose reference count no other thread
/// touches (a reaction's object: CogCore's `Graph.endReaction`).
extern void swift_nonatomic_release(void *object);
static inline void cog_nonatomic_release(void *object) { swift_nonatomic_release(object); }

/// The calling thread's descriptor teardown (CogCore's `Teardown.swift`): how many
/// descriptor `deinit`s are under way, whether the pending bodies are being released, and
/// the thread's list of them (a retained Swift object).
typedef struct {
  intptr_t depth;
  intptr_t draining;
  void *pending;
} cog_teardown_state;

/// The calling thread's teardown state (thread-local, zeroed at thread start).
cog_teardown_state *cog_teardown(void);

#ifdef __cplusplus
}
#endif

#endif
