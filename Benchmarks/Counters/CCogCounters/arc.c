// Retain/release counting through the Swift runtime's hook pointers, with the workaround for
// the Swift 6.3 Linux retain-adapter bug (see shared/research/measurement.md, section 1):
// retain is hooked through the static adapter slot that `swift_retain` jumps through once the
// swizzling flag is on, never through `_swift_retain`, because the default adapter masks the
// pointer before validating it. The hooks are never uninstalled; counting is toggled with a
// thread-local flag.
#define _GNU_SOURCE
#include "CCogCounters.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef void *(*retain_fn)(void *);
typedef void (*release_fn)(void *);
typedef void *(*retain_n_fn)(void *, uint32_t);
typedef void (*release_n_fn)(void *, uint32_t);

static retain_fn orig_retain;
static release_fn orig_release;
static retain_n_fn orig_retain_n;
static release_n_fn orig_release_n;
static int installed;  // 1 ok, -1 failed
static char failure[256];

static _Thread_local int arc_enabled;
static _Thread_local uint64_t arc_retains;
static _Thread_local uint64_t arc_releases;

// Count only what the runtime itself treats as a heap object on x86_64: a positive pointer.
static void *hook_retain(void *object) {
  if (arc_enabled && (intptr_t)object > 0) arc_retains += 1;
  return orig_retain(object);
}

static void hook_release(void *object) {
  if (arc_enabled && (intptr_t)object > 0) arc_releases += 1;
  orig_release(object);
}

static void *hook_retain_n(void *object, uint32_t n) {
  if (arc_enabled && (intptr_t)object > 0) arc_retains += n;
  return orig_retain_n(object, n);
}

static void hook_release_n(void *object, uint32_t n) {
  if (arc_enabled && (intptr_t)object > 0) arc_releases += n;
  orig_release_n(object, n);
}

/// Finds `mov slot(%rip),%rax; pop %rbp; jmp *%rax` in the first 0x100 bytes of swift_retain.
static void **find_retain_adapter_slot(void) {
#if defined(__x86_64__)
  unsigned char *f = (unsigned char *)dlsym(RTLD_DEFAULT, "swift_retain");
  if (!f) return NULL;
  for (int i = 0; i < 0x100 - 10; i++) {
    if (f[i] == 0x48 && f[i + 1] == 0x8b && f[i + 2] == 0x05 && f[i + 7] == 0x5d &&
        f[i + 8] == 0xff && f[i + 9] == 0xe0) {
      int32_t displacement;
      memcpy(&displacement, f + i + 3, 4);
      return (void **)(f + i + 7 + displacement);
    }
  }
#endif
  return NULL;
}

static int fail(const char *message, char *reason, size_t reason_size) {
  installed = -1;
  snprintf(failure, sizeof failure, "%s", message);
  if (reason && reason_size) snprintf(reason, reason_size, "%s", failure);
  return 0;
}

int cog_arc_install(char *reason, size_t reason_size) {
  if (installed == 1) return 1;
  if (installed == -1) {
    if (reason && reason_size) snprintf(reason, reason_size, "%s", failure);
    return 0;
  }
  void **p_retain = (void **)dlsym(RTLD_DEFAULT, "_swift_retain");
  void **p_release = (void **)dlsym(RTLD_DEFAULT, "_swift_release");
  void **p_retain_n = (void **)dlsym(RTLD_DEFAULT, "_swift_retain_n");
  void **p_release_n = (void **)dlsym(RTLD_DEFAULT, "_swift_release_n");
  unsigned char *flag = (unsigned char *)dlsym(
    RTLD_DEFAULT, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly");
  if (!p_retain || !p_release || !p_retain_n || !p_release_n)
    return fail("the Swift runtime does not export the _swift_retain/_swift_release hook pointers",
                reason, reason_size);
  if (!flag)
    return fail("the Swift runtime does not export the swizzling flag "
                "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly",
                reason, reason_size);
  void **slot = find_retain_adapter_slot();
  if (!slot)
    return fail("retain adapter slot not found in swift_retain (pattern 48 8b 05 .. 5d ff e0 is "
                "specific to x86_64 Swift 6.3 runtimes)", reason, reason_size);
  orig_retain = (retain_fn)*p_retain;
  orig_release = (release_fn)*p_release;
  orig_retain_n = (retain_n_fn)*p_retain_n;
  orig_release_n = (release_n_fn)*p_release_n;
  *slot = (void *)hook_retain;
  *p_release = (void *)hook_release;
  *p_retain_n = (void *)hook_retain_n;
  *p_release_n = (void *)hook_release_n;
  __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
  installed = 1;
  return 1;
}

void cog_arc_set_enabled(int enabled) { arc_enabled = enabled; }

void cog_arc_reset(void) {
  arc_retains = 0;
  arc_releases = 0;
}

cog_arc_counts cog_arc_snapshot(void) {
  cog_arc_counts counts = {arc_retains, arc_releases};
  return counts;
}
