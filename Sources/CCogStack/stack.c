#define _GNU_SOURCE
#include "CCogStack.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

_Thread_local uintptr_t cog_stack_limit = 0;
_Thread_local uintptr_t cog_stack_switch_below = UINTPTR_MAX;

// The red-zone bound of a segment whose lowest usable address is `low` (saturating).
static uintptr_t switch_below(uintptr_t low) {
  return low > UINTPTR_MAX - COG_STACK_RED_ZONE ? UINTPTR_MAX : low + COG_STACK_RED_ZONE;
}

void *cog_body_graph = 0;
void *cog_turn_graph = 0;
_Atomic(intptr_t) cog_live_graphs = 0;

static _Thread_local cog_teardown_state teardown_state;

cog_teardown_state *cog_teardown(void) { return &teardown_state; }

uintptr_t cog_stack_limit_slow(void) {
  uintptr_t low = 0;
#if defined(__APPLE__)
  pthread_t self = pthread_self();
  uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(self);
  low = top - (uintptr_t)pthread_get_stacksize_np(self);
#else
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *addr = NULL;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) low = (uintptr_t)addr;
    pthread_attr_destroy(&attr);
  }
#endif
  // Unknown bounds: report plenty left (1 byte as the limit), so nothing switches.
  if (low == 0) low = 1;
  cog_stack_limit = low;
  cog_stack_switch_below = switch_below(low);
  return low;
}

// cog_switch_stack_call(top, fn, context): sets the stack pointer to `top` (16-byte aligned),
// calls fn(context), and returns on the original stack. The frame pointer chain stays intact
// (the callee's saved frame pointer points back into the old stack), so debuggers and crash
// backtraces can walk through a switch.
#if defined(__x86_64__) && (defined(__linux__) || defined(__APPLE__))
#define COG_CAN_SWITCH 1
#if defined(__APPLE__)
#define COG_SYM "_cog_switch_stack_call"
#define COG_TYPE ""
#define COG_SIZE ""
#else
#define COG_SYM "cog_switch_stack_call"
#define COG_TYPE ".type cog_switch_stack_call,@function\n"
#define COG_SIZE ".size cog_switch_stack_call, .-cog_switch_stack_call\n"
#endif
__asm__(
    ".text\n"
    ".globl " COG_SYM "\n"
    COG_TYPE
    ".p2align 4\n"
    COG_SYM ":\n"
    "  .cfi_startproc\n"
    "  pushq %rbp\n"
    "  .cfi_def_cfa_offset 16\n"
    "  .cfi_offset %rbp, -16\n"
    "  movq %rsp, %rbp\n"
    "  .cfi_def_cfa_register %rbp\n"
    "  movq %rdi, %rsp\n"
    "  movq %rdx, %rdi\n"
    "  callq *%rsi\n"
    "  movq %rbp, %rsp\n"
    "  popq %rbp\n"
    "  .cfi_def_cfa %rsp, 8\n"
    "  retq\n"
    "  .cfi_endproc\n"
    COG_SIZE);
#elif defined(__aarch64__) && (defined(__linux__) || defined(__APPLE__))
#define COG_CAN_SWITCH 1
#if defined(__APPLE__)
#define COG_SYM "_cog_switch_stack_call"
#define COG_TYPE ""
#define COG_SIZE ""
#else
#define COG_SYM "cog_switch_stack_call"
#define COG_TYPE ".type cog_switch_stack_call,%function\n"
#define COG_SIZE ".size cog_switch_stack_call, .-cog_switch_stack_call\n"
#endif
__asm__(
    ".text\n"
    ".globl " COG_SYM "\n"
    COG_TYPE
    ".p2align 2\n"
    COG_SYM ":\n"
    "  .cfi_startproc\n"
    "  stp x29, x30, [sp, #-16]!\n"
    "  .cfi_def_cfa_offset 16\n"
    "  .cfi_offset x30, -8\n"
    "  .cfi_offset x29, -16\n"
    "  mov x29, sp\n"
    "  .cfi_def_cfa_register x29\n"
    "  mov sp, x0\n"
    "  mov x0, x2\n"
    "  blr x1\n"
    "  mov sp, x29\n"
    "  .cfi_def_cfa sp, 16\n"
    "  ldp x29, x30, [sp], #16\n"
    "  .cfi_def_cfa_offset 0\n"
    "  .cfi_restore x30\n"
    "  .cfi_restore x29\n"
    "  ret\n"
    "  .cfi_endproc\n"
    COG_SIZE);
#else
#define COG_CAN_SWITCH 0
#endif

#if COG_CAN_SWITCH
void cog_switch_stack_call(void *top, void (*fn)(void *), void *context);
#endif

int cog_can_switch_stacks(void) { return COG_CAN_SWITCH; }

int cog_run_on_fresh_stack(size_t size, void (*fn)(void *), void *context) {
#if COG_CAN_SWITCH
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t usable = (size + page - 1) / page * page;
  size_t total = usable + page;  // one guard page below the segment
  int flags = MAP_PRIVATE | MAP_ANON;
#if defined(MAP_NORESERVE)
  flags |= MAP_NORESERVE;
#endif
#if defined(MAP_STACK)
  flags |= MAP_STACK;
#endif
  char *base = mmap(NULL, total, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (base == MAP_FAILED) return -1;
  mprotect(base, page, PROT_NONE);
  uintptr_t saved = cog_stack_limit;
  uintptr_t saved_below = cog_stack_switch_below;
  cog_stack_limit = (uintptr_t)(base + page);
  cog_stack_switch_below = switch_below(cog_stack_limit);
  uintptr_t top = ((uintptr_t)(base + total)) & ~(uintptr_t)15;
  cog_switch_stack_call((void *)top, fn, context);
  cog_stack_limit = saved;
  cog_stack_switch_below = saved_below;
  munmap(base, total);
  return 0;
#else
  (void)size;
  (void)fn;
  (void)context;
  return -1;
#endif
}
