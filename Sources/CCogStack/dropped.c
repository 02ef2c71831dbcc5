#include "CCogStack.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

// 2^15 pages of 2^16 bits: every non-negative `int32_t` id. The page table is 256 KiB of
// zero-initialized static storage, touched only where ids have been marked.
#define COG_DROPPED_PAGE_SHIFT 16
#define COG_DROPPED_PAGES (1 << 15)
#define COG_DROPPED_WORDS ((1 << COG_DROPPED_PAGE_SHIFT) / 64)

static _Atomic(_Atomic(uint64_t) *) cog_dropped_pages[COG_DROPPED_PAGES];

void cog_mark_descriptor_dropped(int32_t id) {
  if (id < 0) return;
  uint32_t u = (uint32_t)id;
  _Atomic(uint64_t) *page =
      atomic_load_explicit(&cog_dropped_pages[u >> COG_DROPPED_PAGE_SHIFT], memory_order_acquire);
  if (page == NULL) {
    _Atomic(uint64_t) *made = calloc(COG_DROPPED_WORDS, sizeof(uint64_t));
    if (made == NULL) {
      fputs("Cog: out of memory marking a dropped descriptor\n", stderr);
      abort();
    }
    _Atomic(uint64_t) *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(
            &cog_dropped_pages[u >> COG_DROPPED_PAGE_SHIFT], &expected, made,
            memory_order_acq_rel, memory_order_acquire)) {
      page = made;
    } else {
      free(made);  // another thread made the page first
      page = expected;
    }
  }
  atomic_fetch_or_explicit(
      &page[(u >> 6) & (COG_DROPPED_WORDS - 1)], (uint64_t)1 << (u & 63), memory_order_release);
}

int cog_descriptor_is_dropped(int32_t id) {
  if (id < 0) return 0;
  uint32_t u = (uint32_t)id;
  _Atomic(uint64_t) *page =
      atomic_load_explicit(&cog_dropped_pages[u >> COG_DROPPED_PAGE_SHIFT], memory_order_acquire);
  if (page == NULL) return 0;
  uint64_t word =
      atomic_load_explicit(&page[(u >> 6) & (COG_DROPPED_WORDS - 1)], memory_order_acquire);
  return (int)((word >> (u & 63)) & 1);
}

// The parked details: a growable array under a mutex (see `cog_park_details`).
static pthread_mutex_t cog_parked_lock = PTHREAD_MUTEX_INITIALIZER;
static void **cog_parked = NULL;
static intptr_t cog_parked_count = 0;
static intptr_t cog_parked_capacity = 0;
_Atomic(intptr_t) cog_parked_pending = 0;

int cog_park_details(void *object) {
  pthread_mutex_lock(&cog_parked_lock);
  if (cog_parked_count == cog_parked_capacity) {
    intptr_t grown = cog_parked_capacity == 0 ? 64 : cog_parked_capacity * 2;
    void **made = realloc(cog_parked, (size_t)grown * sizeof(void *));
    if (made == NULL) {
      fputs("Cog: out of memory parking a dropped descriptor's details\n", stderr);
      abort();
    }
    cog_parked = made;
    cog_parked_capacity = grown;
  }
  cog_parked[cog_parked_count++] = object;
  __c11_atomic_store(&cog_parked_pending, cog_parked_count, __ATOMIC_SEQ_CST);
  pthread_mutex_unlock(&cog_parked_lock);
  return __c11_atomic_load(&cog_live_graphs, __ATOMIC_SEQ_CST) == 0;
}

intptr_t cog_take_parked_details(void **out, intptr_t capacity) {
  pthread_mutex_lock(&cog_parked_lock);
  intptr_t n = cog_parked_count < capacity ? cog_parked_count : capacity;
  cog_parked_count -= n;
  __c11_atomic_store(&cog_parked_pending, cog_parked_count, __ATOMIC_SEQ_CST);
  for (intptr_t i = 0; i < n; i++) out[i] = cog_parked[cog_parked_count + i];
  pthread_mutex_unlock(&cog_parked_lock);
  return n;
}

int cog_unpark_details(void *object) {
  pthread_mutex_lock(&cog_parked_lock);
  int found = 0;
  for (intptr_t i = cog_parked_count - 1; i >= 0; i--) {
    if (cog_parked[i] == object) {
      cog_parked[i] = cog_parked[--cog_parked_count];
      __c11_atomic_store(&cog_parked_pending, cog_parked_count, __ATOMIC_SEQ_CST);
      found = 1;
      break;
    }
  }
  pthread_mutex_unlock(&cog_parked_lock);
  return found;
}
