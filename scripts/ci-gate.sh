#!/usr/bin/env bash
# The CI gate: count the quick suite on the cog* systems (no time) and compare the counts with
# the committed thresholds in Results/thresholds/quick.json, failing both ways; then prove
# that the gate can fail: the test-only system `injected` (Cog plus one allocation, or a
# fixed loop, per iteration) must make `cog-bench check` exit 2.
#
# Usage: scripts/ci-gate.sh [RESULT.json]   (with a result file, only the check runs)
# Environment:
#   COG_GATE_SYSTEMS  systems to gate (default 'cog*': Cog and its layout variants; the
#                     baselines are compared by scripts/compare.sh, not gated)
#   COG_GATE_METRICS  metrics to gate (default: `cog-bench list --gate-metrics`: instructions,
#                     allocations, allocated bytes, graph bytes, retains, releases)
#   With either set, the check covers only the systems and metrics measured. A pattern that
#   matches nothing, or a selection with no count to check, is an error (exit 1).
#   COG_BENCH_BIN     a cog-bench executable to use instead of building one (the runner's
#                     tests use it to check the script's handling of its arguments)
#   COG_BENCH_SCRATCH the build's scratch path (default .build)
#   COG_GATE_COUNT_ONLY=DIR  only build and count, into DIR (not .bench-tmp/ci-gate), and print
#                     the result file's path: no check, no self-test (scripts/isolation-check.sh
#                     counts its second build this way)
# Instructions are gated with a 0.1% tolerance (3% for four cases whose runtime cache lookups
# move with the binary's layout: the thresholds file's toleranceOverrides), every other count
# exactly: every region is
# counted in a process of its own with fixed paths, environment and CPU features, so counts
# repeat to the instruction for one binary (the reason for 0.1% is written at
# `ThresholdFile.instructionTolerance` in Benchmarks/Runner/Thresholds.swift). Without
# valgrind the instruction thresholds cannot be checked, and the gate fails (exit 1).
# The check runs with --enforce-targets: a case's steady-state targets (no allocations, no
# retains/releases) missed by `cog` or any of its layouts (`cog[…]`) are regressions.
# The built binary must hold no merged function of the workbench's modules (exit 1 otherwise:
# scripts/check-no-merge.sh).
# Exit status: that of `cog-bench check`: 0 equal, 1 error, 2 regression or missed target,
# 4 improvements only (commit the improvement with the `cog-bench thresholds update ...`
# command it prints); 1 as well when the self-test does not see exit 2.
set -euo pipefail

cd "$(dirname "$0")/.."
start=$SECONDS
scratch="${COG_BENCH_SCRATCH:-.build}"
args=(--product cog-bench -Xcc -gdwarf-4)
build=(swift build -c release --scratch-path "$scratch" "${args[@]}")
if [[ -n "${COG_BENCH_BIN:-}" ]]; then
  bin="$COG_BENCH_BIN"
else
  scripts/release-build.sh "$scratch" "${args[@]}" --manifest-cache none
  bin="$("${build[@]}" --show-bin-path)/cog-bench"
  scripts/check-no-merge.sh "$bin"
fi
metrics="${COG_GATE_METRICS:-$("$bin" list --gate-metrics)}"
systems="${COG_GATE_SYSTEMS:-cog*}"
scope=(--systems "$systems" --metrics "$metrics")

if [[ $# -ge 1 ]]; then
  exec "$bin" check --enforce-targets "${scope[@]}" "$1"
fi

# Kept (under the git-ignored .bench-tmp/) so the update command `check` prints still works.
dir="${COG_GATE_COUNT_ONLY:-.bench-tmp/ci-gate}"
mkdir -p "$dir"
COG_BENCH_BUILD_COMMAND="${build[*]}" SWIFT_DETERMINISTIC_HASHING=1 \
  "$bin" run --size quick --systems "$systems" --metrics "$metrics" --output-dir "$dir" >"$dir/run.txt" || {
  status=$?
  cat "$dir/run.txt"
  exit "$status"
}
result="$(sed -n 's/^wrote \(.*\.json\)$/\1/p' "$dir/run.txt" | tail -n 1)"
echo "ci-gate: measured in $(( SECONDS - start )) s: $result" >&2
if [[ -n "${COG_GATE_COUNT_ONLY:-}" ]]; then
  echo "$result"
  exit 0
fi
status=0
"$bin" check --enforce-targets "${scope[@]}" "$result" || status=$?
if (( status != 0 )); then exit "$status"; fi

# Self-test: an injected regression must exit 2 (thresholds from the injected system's clean
# run, in a scratch file; the committed thresholds are not touched).
self=".bench-tmp/ci-gate/self-test"
rm -rf "$self"
mkdir -p "$self"
inject_run() {
  COG_BENCH_INJECT="$1" "$bin" run --cases kairo/deep --systems injected \
    --metrics "$metrics" --output-dir "$self/$1" >"$self/$1.txt" 2>&1 || {
    cat "$self/$1.txt"
    echo "ci-gate: self-test: the $1 run failed" >&2
    exit 1
  }
  sed -n 's/^wrote \(.*\.json\)$/\1/p' "$self/$1.txt" | tail -n 1
}
clean="$(inject_run none)"
"$bin" thresholds update "$clean" --thresholds "$self/thresholds.json" --merge --allow-dirty >/dev/null
for injection in allocation instructions; do
  if [[ "$injection" == instructions && ",$metrics," != *",instructions,"* ]]; then continue; fi
  injected="$(inject_run "$injection")"
  s=0
  "$bin" check "$injected" --thresholds "$self/thresholds.json" --systems injected \
    --metrics "$metrics" >"$self/check-$injection.txt" || s=$?
  if (( s != 2 )); then
    cat "$self/check-$injection.txt"
    echo "ci-gate: self-test FAILED: an injected $injection regression gave exit $s, not 2" >&2
    exit 1
  fi
  echo "ci-gate: self-test: injected $injection regression -> exit 2 ($(grep -c '^REGRESSION' "$self/check-$injection.txt") regression(s))" >&2
done
echo "ci-gate: passed in $(( SECONDS - start )) s" >&2
