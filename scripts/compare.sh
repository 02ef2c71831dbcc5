#!/usr/bin/env bash
# The main job: build cog-bench in release, measure the quick suite on every system (every
# metric: instructions under callgrind, allocations, retains/releases, time; the opt-in
# cache counters on CellX × cog*), write a new result file, add it to Results/runs/ and render
# impl/perf.md, impl/perf-history.md and impl/charts/ when it has every counter the current
# record has, and print a table. See swift/Benchmarks/Runner/README.md.
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
#                  the pool on the keyed cases), every metric, one result file added to
#                  Results/m6/ and rendered into the record's "M6 comparison" section by
#                  `cog-bench render --add-m6` (refused, exit 3, when it lacks a counter the
#                  current M6 run has: then nothing in Results/ or impl/ changes). Measures
#                  for at most COG_BENCH_DEADLINE seconds (default 900 for m6) after the build.
#
# Environment:
#   COG_BENCH_SIZE        quick (default) or full
#   COG_BENCH_SYSTEMS     systems to measure (ids or globs, comma-separated; default: all;
#                         m6: cog*)
#   COG_BENCH_CASES       cases to measure (default: all)
#   COG_BENCH_SCRATCH     SwiftPM scratch path (default: .build)
#   COG_BENCH_OUTPUT_DIR  where the result file goes (default: Results/runs; m6: Results/m6). The record is
#                         rendered only from Results/runs (its M6 section from Results/m6): a
#                         result elsewhere is not the record. For Results/runs the run is
#                         written to .bench-tmp/runs/ first and `cog-bench render --add` copies
#                         it in and renders the record, unless it lacks a counter the current
#                         record has (then nothing in Results/ or impl/ changes: exit 3);
#                         for Results/m6 the same through .bench-tmp/m6/ and `render --add-m6`
#   COG_NO_JEMALLOC       set to build with the in-process malloc counter instead of jemalloc
#   COG_NO_INSTALL        set to never install packages (only say what is missing)
#   COG_BENCH_BIN         a cog-bench executable to use instead of building one (the runner's
#                         tests run the script on a copy of the record with it)
#   COG_BENCH_DEADLINE    seconds the measuring may take, the build not included (default 900,
#                         m6 too): the callgrind phase counts the regions that fit in what is
#                         left after the native phases and records the others as unavailable
#                         with their estimate (such a run is not added to the record: exit 3)
# A run with COG_BENCH_SYSTEMS or COG_BENCH_CASES is partial: it stays in .bench-tmp/runs/ and
# never becomes the record (impl/perf.md).
# Exit status: 0 ok; 1 a failure, or failed case checks (the record is rendered all the same);
# 3 the run lacks counters the current record has (instructions not counted: valgrind missing,
# or regions past the deadline): its result file stays in .bench-tmp/runs/, Results/runs and
# impl/ are unchanged, and the script prints the command that adds it on purpose.
set -euo pipefail

cd "$(dirname "$0")/.."
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
  deadline="${COG_BENCH_DEADLINE:-900}"
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
args=(--product cog-bench -Xcc -gdwarf-4)
build=(swift build -c release --scratch-path "$scratch" "${args[@]}")
if [[ -n "${COG_BENCH_BIN:-}" ]]; then
  bin="$COG_BENCH_BIN"
else
  echo "compare.sh: ${build[*]} (scripts/release-build.sh)" >&2
  scripts/release-build.sh "$scratch" "${args[@]}" --manifest-cache none
  bin="$("${build[@]}" --show-bin-path)/cog-bench"
  scripts/check-no-merge.sh "$bin"
fi

# 3. Measure every metric; a counter that cannot run is recorded as unavailable with why. The
# deadline counts from here: a cold release build (about 10 minutes on 2 cores) must not eat
# the instruction phase's time.
start=$SECONDS
# The record's home gets the run only through `render --add` (step 4).
run_dir="$output_dir"
if [[ "$mode" == main && "$output_dir" == "Results/runs" ]]; then run_dir=".bench-tmp/runs"; fi
if [[ "$mode" == m6 && "$output_dir" == "Results/m6" ]]; then run_dir=".bench-tmp/m6"; fi
echo "compare.sh: measuring for at most $deadline s (COG_BENCH_DEADLINE; the build is done)" >&2
left=$(( deadline - 20 ))
if (( left < 60 )); then left=60; fi
args=(run --size "$size" --finish-within "$left" --output-dir "$run_dir")
if [[ "$mode" == main ]]; then
  # The record's "Growth with graph size": the opt-in cache counters (callgrind's cache
  # simulator, one more process per region) on CellX at three sizes, on Cog and its layouts:
  # 12 regions, 50-70 s on a loaded 2-core VM, measured before the instruction phase. The
  # simulated last level is the VMs' 1 MiB L2, whose misses per cell the record's goal
  # judges (with the 32 MiB L3 a cell missed only cold, 0.57 times at every size).
  args+=(--metrics '*' --cache-cases 'cellx/*' --cache-systems 'cog*' --cache-last-level 1048576)
fi
[[ -n "$systems" ]] && args+=(--systems "$systems")
[[ -n "${COG_BENCH_CASES:-}" ]] && args+=(--cases "$COG_BENCH_CASES")

out="$(mktemp)"
trap 'rm -f "$out" "$out.render"' EXIT
status=0
COG_BENCH_BUILD_COMMAND="${build[*]}" SWIFT_DETERMINISTIC_HASHING=1 \
  "$bin" "${args[@]}" >"$out" || status=$?
result="$(sed -n 's/^wrote \(.*\.json\)$/\1/p' "$out" | tail -n 1)"
if [[ -z "$result" ]]; then
  cat "$out"
  echo "compare.sh: cog-bench run wrote no result file (exit $status)" >&2
  exit "$(( status == 0 ? 1 : status ))"
fi

# 4. Render the record (only from Results/runs and Results/m6: the record's home): a main run
# is added to Results/runs by `render --add`, an M6 run to Results/m6 by `render --add-m6`;
# each refuses (exit 3, nothing changed) a run that lacks counters the current one has. Then the table and, beside it, what could not be counted.
refused=""
add=(--add "$result")
if [[ "$mode" == m6 ]]; then add=(--add-m6 "$result"); fi
if [[ "$run_dir" != "$output_dir" && -n "${COG_BENCH_SYSTEMS:-}${COG_BENCH_CASES:-}" ]]; then
  rendered="not added to the record (a partial run: COG_BENCH_SYSTEMS or COG_BENCH_CASES)"
elif [[ "$run_dir" != "$output_dir" ]]; then
  render_status=0
  "$bin" render "${add[@]}" --m6-dir Results/m6 >&2 2>"$out.render" || render_status=$?
  if (( render_status == 3 )); then
    refused="$(sed 's/^cog-bench: error: //' "$out.render")"
    rendered="NOT added to the record"
    if (( status == 0 )); then status=3; fi
  elif (( render_status != 0 )); then
    cat "$out.render" >&2
    echo "compare.sh: cog-bench render failed (exit $render_status)" >&2
    exit "$render_status"
  else
    cat "$out.render" >&2
    rendered="added to $output_dir, rendered impl/perf.md"
  fi
else
  rendered="not rendered (the record is rendered from Results/runs only)"
fi
cat "$out"
if (( ${#summary[@]} )); then
  echo
  echo "compare.sh: counters missing or replaced on this machine:"
  for line in "${summary[@]}"; do echo "  - $line"; done
fi
echo "compare.sh: result $result; $rendered ($(( SECONDS - start )) s measuring and rendering)" >&2
if [[ -n "$refused" ]]; then
  echo >&2
  echo "compare.sh: the record is unchanged (exit 3): $refused" >&2
fi
exit "$status"
