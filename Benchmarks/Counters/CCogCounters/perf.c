// perf_event_open for hardware instruction counts (user space, this thread). On machines
// without a PMU (VMs) the open fails and the runner reports the errno as the reason.
#define _GNU_SOURCE
#include "CCogCounters.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

int cog_perf_open_instructions(void) {
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.type = PERF_TYPE_HARDWARE;
  attr.size = sizeof attr;
  attr.config = PERF_COUNT_HW_INSTRUCTIONS;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
  return fd < 0 ? -errno : (int)fd;
}

int cog_perf_enable(int fd) { return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0 ? -errno : 0; }
int cog_perf_disable(int fd) { return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) < 0 ? -errno : 0; }
int cog_perf_reset(int fd) { return ioctl(fd, PERF_EVENT_IOC_RESET, 0) < 0 ? -errno : 0; }

int cog_perf_read(int fd, uint64_t *value) {
  ssize_t n = read(fd, value, sizeof *value);
  if (n < 0) return -errno;
  return n == sizeof *value ? 0 : -EIO;
}

void cog_perf_close(int fd) {
  if (fd >= 0) close(fd);
}
#else
int cog_perf_open_instructions(void) { return -ENOSYS; }
int cog_perf_enable(int fd) { (void)fd; return -ENOSYS; }
int cog_perf_disable(int fd) { (void)fd; return -ENOSYS; }
int cog_perf_reset(int fd) { (void)fd; return -ENOSYS; }
int cog_perf_read(int fd, uint64_t *value) { (void)fd; (void)value; return -ENOSYS; }
void cog_perf_close(int fd) { (void)fd; }
#endif
