#!/usr/bin/env bash
# The main job: build cog-bench in release, measure the quick suite on every system (every
# metric: instructions under callgrind, allocations, retains/releases, time; the opt-in
# cache counters on CellX × cog*), write a new result file under Results/runs/, render
# impl/perf.md, impl/perf-history.md and impl/charts/, and print a table. See
# swift/Benchmarks/Runner/README.md.
#
# On a fresh machine it brings what it measures with: valgrind (instruction counts) and
# libjemalloc-dev (the allocation counter). As root with apt-get it installs them; otherwise
# it prints the exact command, measures without them (instructions are then recorded as
# unavailable, never as 0; allocations fall back to the in-process malloc interposer), and
# says again at the end, next to the table, which counters are missing and why.
#
# Usage: scripts/compare.sh [m6]
#   (no argument)  the quick suite on every system: the main record (impl/perf.md)
#   m6             the M6 layout comparison (issue 12, swift/0006-reference-layouts.md): `cog`
#                  and every layout system `cog[<edges>+<references>]` (every edge layout with
#                  inline references on every case; the interned and generic references with
#                  the pool on the keyed cases), every metric, one result file under
#                  Results/m6/, rendered into the record's "M6 comparison" section. Takes at
#                  most COG_BENCH_DEADLINE seconds (default 900 for m6), the build included.
#
# Environment:
#   COG_BENCH_SIZE        quick (default) or full
#   COG_BENCH_SYSTEMS     systems to measure (ids or globs, comma-separated; default: all;
#                         m6: cog*)
#   COG_BENCH_CASES       cases to measure (default: all)
#   COG_BENCH_SCRATCH     SwiftPM scratch path (default: .build)
#   COG_BENCH_OUTPUT_DIR  where the result file goes (default: Results/runs; m6: Results/m6). The record is
#                         rendered only from Results/runs (its M6 section from Results/m6): a
#                         result elsewhere is not the record.
#   COG_NO_JEMALLOC       set to build with the in-process malloc counter instead of jemalloc
#   COG_NO_INSTALL        set to never install packages (only say what is missing)
#   COG_BENCH_DEADLINE    seconds the whole script may take (default 540; m6: 900): the callgrind phase
#                         counts the regions that fit in what is left after the native phases
#                         and records the others as unavailable with their estimate
# A run with COG_BENCH_SYSTEMS or COG_BENCH_CASES is partial: it is kept, and listed in
# impl/perf-history.md, but never becomes the record (impl/perf.md).
# Exit status: that of `cog-bench run` (0 ok, 1 failure or failed case checks); the record is
# rendered either way.
set -euo pipefail

cd "$(dirname "$0")/.."
start=$SECONDS
mode="${1:-main}"
case "$mode" in
  main | m6) ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "compare.sh: unknown mode '$mode' (expected no argument, or m6; see --help)" >&2
    exit 1
    ;;
esac
size="${COG_BENCH_SIZE:-quick}"
scratch="${COG_BENCH_SCRATCH:-.build}"
if [[ "$mode" == m6 ]]; then
  deadline="${COG_BENCH_DEADLINE:-900}"
  output_dir="${COG_BENCH_OUTPUT_DIR:-Results/m6}"
  # `cog*` selects `cog` (the wall-time reference) and every `cog[…]` layout system; the
  # reference-layout systems bind the keyed cases only, so this is exactly the M6 set.
  systems="${COG_BENCH_SYSTEMS:-cog*}"
else
  deadline="${COG_BENCH_DEADLINE:-540}"
  output_dir="${COG_BENCH_OUTPUT_DIR:-Results/runs}"
  systems="${COG_BENCH_SYSTEMS:-}"
fi

# 1. What the counters need: libjemalloc-dev for the allocation counter, valgrind (its
# callgrind.h at build time, the valgrind command at run time) for instruction counts.
missing_packages() {
  local m=()
  if [[ -z "${COG_NO_JEMALLOC:-}" && ! -f /usr/include/jemalloc/jemalloc.h ]]; then
    m+=(libjemalloc-dev)
  fi
  if ! command -v valgrind >/dev/null || [[ ! -f /usr/include/valgrind/callgrind.h ]]; then
    m+=(valgrind)
  fi
  echo "${m[*]}"
}
read -r -a need <<<"$(missing_packages)"
if (( ${#need[@]} )) && [[ -z "${COG_NO_INSTALL:-}" ]] && [[ "$(id -u)" == 0 ]] \
  && command -v apt-get >/dev/null; then
  echo "compare.sh: installing ${need[*]} (apt-get, as root)" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -q "${need[@]}" >/dev/null 2>&1; then
    apt-get update -q >/dev/null 2>&1 || true
    apt-get install -y -q "${need[@]}" >/dev/null 2>&1 || true
  fi
  read -r -a need <<<"$(missing_packages)"
  if (( ${#need[@]} )); then echo "compare.sh: could not install ${need[*]}" >&2; fi
fi
install_hint=""
if (( ${#need[@]} )); then
  if command -v apt-get >/dev/null; then
    install_hint="sudo apt-get install -y ${need[*]}"
    if [[ "$(id -u)" == 0 ]]; then install_hint="apt-get install -y ${need[*]}"; fi
  else
    install_hint="install ${need[*]} (Debian package names) with your package manager"
  fi
  echo "compare.sh: missing ${need[*]}; to install: $install_hint" >&2
fi
summary=()
for p in "${need[@]}"; do
  case "$p" in
    valgrind) summary+=("instructions: not counted (recorded as unavailable): valgrind is not installed; $install_hint") ;;
    libjemalloc-dev) summary+=("allocations: counted by the in-process malloc interposer, not jemalloc (CI's counter): libjemalloc-dev is not installed; $install_hint") ;;
  esac
done
if [[ -n "${COG_NO_JEMALLOC:-}" ]]; then
  summary+=("allocations: counted by the in-process malloc interposer (COG_NO_JEMALLOC is set)")
fi
if [[ -z "${COG_NO_JEMALLOC:-}" && -f /usr/include/jemalloc/jemalloc.h ]]; then
  echo "compare.sh: allocation counter: jemalloc statistics" >&2
else
  echo "compare.sh: allocation counter: the in-process malloc interposer (fallback)" >&2
fi

# 2. Release build. DWARF 4 keeps valgrind 3.19 able to read the debug info; the manifest is
# re-evaluated (no cache) because it looks for the jemalloc and callgrind headers.
build=(swift build -c release --product cog-bench --scratch-path "$scratch" -Xcc -gdwarf-4)
echo "compare.sh: ${build[*]}" >&2
"${build[@]}" --manifest-cache none >&2
bin="$("${build[@]}" --show-bin-path)/cog-bench"

# 3. Measure every metric; a counter that cannot run is recorded as unavailable with why.
left=$(( deadline - (SECONDS - start) - 20 ))
if (( left < 60 )); then left=60; fi
args=(run --size "$size" --finish-within "$left" --output-dir "$output_dir")
if [[ "$mode" == main ]]; then
  # The record's "Growth with graph size": the opt-in cache counters (callgrind's cache
  # simulator, one more process per region) on CellX at three sizes, on Cog and its layouts:
  # 12 regions, 50-70 s on a loaded 2-core VM, measured before the instruction phase.
  args+=(--metrics '*' --cache-cases 'cellx/*' --cache-systems 'cog*')
fi
[[ -n "$systems" ]] && args+=(--systems "$systems")
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

# 4. Render the record from the result files (only from Results/runs and Results/m6: the
# record's home), then print the table and, beside it, what could not be counted.
if [[ "$output_dir" == "Results/runs" || "$output_dir" == "Results/m6" ]]; then
  "$bin" render --m6-dir Results/m6 >&2
  rendered="rendered impl/perf.md"
  if [[ "$mode" == m6 ]]; then rendered+=" (its M6 comparison from $result)"; fi
else
  rendered="not rendered (the record is rendered from Results/runs only)"
fi
cat "$out"
if (( ${#summary[@]} )); then
  echo
  echo "compare.sh: counters missing or replaced on this machine:"
  for line in "${summary[@]}"; do echo "  - $line"; done
fi
echo "compare.sh: result $result; $rendered ($(( SECONDS - start )) s)" >&2
exit "$status"
