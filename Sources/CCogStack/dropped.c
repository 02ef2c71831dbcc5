#include "CCogStack.h"

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
