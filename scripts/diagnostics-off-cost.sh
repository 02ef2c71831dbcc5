#!/usr/bin/env bash
# What run counts and explained turns cost a context that uses neither (issue 26): counts the
# same cases on two release builds of this commit, one as shipped and one with the core's
# diagnostics tests compiled out (COG_NO_DIAGNOSTICS=1, in a scratch path of its own), writes
# both result files to Results/diagnostics-off/ (new files, never overwriting), and renders
# the record, whose "Diagnostics off" section compares them (goal: at most 0.5% more
# instructions as shipped). Instructions only, counted under callgrind (valgrind needed).
#
# Usage: scripts/diagnostics-off-cost.sh
# Environment: COG_DIAGNOSTICS_CASES  the cases (default 'cog/steady-turn,kairo/*': the gate's
#              steady turn and the Kairo cases, issue 26's measure)
# Exit status: 0 the goal is met on every case; 1 an error (a build or run failed, no
# instruction counts, the section missing); 2 a case costs more than the goal (printed).
set -euo pipefail

cd "$(dirname "$0")/.."
start=$SECONDS
cases="${COG_DIAGNOSTICS_CASES:-cog/steady-turn,kairo/*}"
out="Results/diagnostics-off"
mkdir -p "$out"
if ! command -v valgrind >/dev/null; then
  echo "diagnostics-off-cost: valgrind is not installed: instructions cannot be counted" >&2
  exit 1
fi

count() { # scratch path, label; prints the result file's path
  local scratch="$1" label="$2"
  local args=(--product cog-bench -Xcc -gdwarf-4)
  local build=(swift build -c release --scratch-path "$scratch" "${args[@]}")
  echo "diagnostics-off-cost: building ($label)" >&2
  scripts/release-build.sh "$scratch" "${args[@]}" --manifest-cache none
  local bin
  bin="$("${build[@]}" --show-bin-path)/cog-bench"
  scripts/check-no-merge.sh "$bin"
  echo "diagnostics-off-cost: counting $cases ($label)" >&2
  local log
  log="$(COG_BENCH_BUILD_COMMAND="${build[*]}" SWIFT_DETERMINISTIC_HASHING=1 \
    "$bin" run --size quick --cases "$cases" --systems cog --metrics instructions \
    --output-dir "$out")" || { echo "$log" >&2; exit 1; }
  sed -n 's/^wrote \(.*\.json\)$/\1/p' <<<"$log" | tail -n 1
}

shipped="$(count .build "as shipped")"
off="$(COG_NO_DIAGNOSTICS=1 count .bench-tmp/diagnostics-off/build "tests compiled out")"
[[ -f "$shipped" && -f "$off" ]] || { echo "diagnostics-off-cost: a result file is missing" >&2; exit 1; }
bin="$(swift build -c release --product cog-bench --scratch-path .build --show-bin-path)/cog-bench"
"$bin" render >&2
# The section as rendered (read whole before sed: see scripts/isolation-check.sh).
record="$(cat impl/perf.md)"
section="$(sed -n '/^## Diagnostics off/,/^## /p' <<<"$record" | sed '$d')"
if [[ -z "$section" ]]; then
  echo "diagnostics-off-cost: the record has no \"Diagnostics off\" section (no instruction counts?)" >&2
  exit 1
fi
echo "$section"
echo "diagnostics-off-cost: $shipped and $off in $(( SECONDS - start )) s" >&2
if grep -q 'Not met on' <<<"$section"; then exit 2; fi
