// Callgrind client requests. Without <valgrind/callgrind.h> (Package.swift defines
// COG_HAVE_CALLGRIND when it is installed) they compile to no-ops and `cog_cg_compiled`
// returns 0, so the runner reports instructions as unavailable.
#include "CCogCounters.h"

#if defined(COG_HAVE_CALLGRIND) && __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define COG_CALLGRIND_REQUESTS 1
#else
#define COG_CALLGRIND_REQUESTS 0
#endif

int cog_cg_compiled(void) { return COG_CALLGRIND_REQUESTS; }

#if COG_CALLGRIND_REQUESTS
int cog_cg_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void cog_cg_start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
void cog_cg_stop_instrumentation(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void cog_cg_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }
void cog_cg_zero_stats(void) { CALLGRIND_ZERO_STATS; }
void cog_cg_dump_stats_at(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
#else
int cog_cg_running_on_valgrind(void) { return 0; }
void cog_cg_start_instrumentation(void) {}
void cog_cg_stop_instrumentation(void) {}
void cog_cg_toggle_collect(void) {}
void cog_cg_zero_stats(void) {}
void cog_cg_dump_stats_at(const char *name) { (void)name; }
#endif
