#!/usr/bin/env bash
# The main job: build cog-bench in release, measure the quick suite on every system (with
# instruction counts under callgrind when valgrind is installed), write a new result file
# under Results/runs/, render impl/perf.md, impl/perf-history.md and impl/charts/, and print
# a compact table. See swift/Benchmarks/Runner/README.md.
#
# Environment:
#   COG_BENCH_SIZE      quick (default) or full
#   COG_BENCH_SYSTEMS   systems to measure (ids or globs, comma-separated; default: all)
#   COG_BENCH_CASES     cases to measure (default: all)
#   COG_BENCH_SCRATCH   SwiftPM scratch path (default: .build)
#   COG_NO_JEMALLOC     set to build with the in-process malloc counter instead of jemalloc
#   COG_BENCH_DEADLINE  seconds the whole script may take (default 540): the callgrind phase
#                       counts the regions that fit in what is left after the native phases
#                       and records the others as unavailable with their estimate
# Exit status: that of `cog-bench run` (0 ok, 1 failure or failed case checks); the record is
# rendered either way.
set -euo pipefail

cd "$(dirname "$0")/.."
start=$SECONDS
size="${COG_BENCH_SIZE:-quick}"
deadline="${COG_BENCH_DEADLINE:-540}"
scratch="${COG_BENCH_SCRATCH:-.build}"

# 1. Allocation counter: jemalloc when libjemalloc-dev is (or can be) installed.
if [[ -z "${COG_NO_JEMALLOC:-}" && ! -f /usr/include/jemalloc/jemalloc.h ]]; then
  if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
    echo "compare.sh: installing libjemalloc-dev for the allocation counter" >&2
    if ! apt-get install -y -q libjemalloc-dev >/dev/null 2>&1; then
      apt-get update -q >/dev/null 2>&1 || true
      apt-get install -y -q libjemalloc-dev >/dev/null 2>&1 || true
    fi
  fi
fi
if [[ -z "${COG_NO_JEMALLOC:-}" && -f /usr/include/jemalloc/jemalloc.h ]]; then
  echo "compare.sh: allocation counter: jemalloc statistics" >&2
else
  echo "compare.sh: allocation counter: the in-process malloc interposer (fallback;" \
    "libjemalloc-dev not installed or COG_NO_JEMALLOC set)" >&2
fi

# 2. Release build. DWARF 4 keeps valgrind 3.19 able to read the debug info; the manifest is
# re-evaluated (no cache) because it looks for the jemalloc header.
build=(swift build -c release --product cog-bench --scratch-path "$scratch" -Xcc -gdwarf-4)
echo "compare.sh: ${build[*]}" >&2
"${build[@]}" --manifest-cache none >&2
bin="$("${build[@]}" --show-bin-path)/cog-bench"

# 3. Measure. Instructions only when valgrind exists (otherwise the runner would report them
# unavailable for every case, which says nothing new).
metrics="wallTime,cpuTime,allocations,allocatedBytes,peakBytes,graphBytes,retains,releases"
if command -v valgrind >/dev/null; then
  metrics="instructions,$metrics"
else
  echo "compare.sh: valgrind not found: no instruction counts (apt-get install valgrind)" >&2
fi
left=$(( deadline - (SECONDS - start) - 20 ))
(( left < 60 )) && left=60
args=(run --size "$size" --metrics "$metrics" --finish-within "$left")
[[ -n "${COG_BENCH_SYSTEMS:-}" ]] && args+=(--systems "$COG_BENCH_SYSTEMS")
[[ -n "${COG_BENCH_CASES:-}" ]] && args+=(--cases "$COG_BENCH_CASES")

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
status=0
COG_BENCH_BUILD_COMMAND="${build[*]}" SWIFT_DETERMINISTIC_HASHING=1 \
  "$bin" "${args[@]}" >"$out" || status=$?
result="$(sed -n 's/^wrote \(.*\.json\)$/\1/p' "$out" | tail -n 1)"
if [[ -z "$result" ]]; then
  cat "$out"
  echo "compare.sh: cog-bench run wrote no result file (exit $status)" >&2
  exit "$(( status == 0 ? 1 : status ))"
fi

# 4. Render the record from the result files, then print the compact table.
"$bin" render >&2
cat "$out"
echo "compare.sh: result $result; rendered impl/perf.md" >&2
exit "$status"
