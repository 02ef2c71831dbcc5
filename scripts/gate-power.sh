#!/usr/bin/env bash
# The gate's power, measured: builds cog-bench in release (as ci-gate.sh does) and runs
# `cog-bench gate-power`: the same binary measured N times on a few cases (false alarms of
# `check`, target 0), then injected regressions of 0.1%, 0.5%, 1%, 2% and 5% of each case's
# instructions and of one allocation and one retain per iteration (which `check` catches).
# Writes Results/gate-power/<date>-<size>-<commit>.json; `cog-bench render` shows the newest
# as the record's "Gate power".
#
# Usage: scripts/gate-power.sh [gate-power options: --runs N --cases LIST --output-dir DIR]
# Environment: COG_BENCH_BIN (a cog-bench to use instead of building one),
#   COG_BENCH_SCRATCH (SwiftPM scratch path, default .build).
# Needs valgrind. The defaults (8 A/A runs, 3 cases, 7 injections) take 3–6 minutes on 2
# cores after the build.
set -euo pipefail

cd "$(dirname "$0")/.."
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
COG_BENCH_BUILD_COMMAND="${build[*]}" exec "$bin" gate-power "$@"
