#!/usr/bin/env bash
# The long mode of the differential tests (Tests/CogTests/DifferentialTests.swift, the sync
# family against the simple core; Tests/CogTests/AsyncDifferentialTests.swift, the async family
# against the documented semantics): CASES seeds per runtime (the public API and every layout
# variant, or every edge layout for async), in a release build of the tests, split into SHARDS
# processes that run in parallel (shard i of n runs every n-th seed of the same sequence,
# COG_DIFF_SHARD / COG_ASYNC_DIFF_SHARD, so together they run exactly the unsharded seeds).
#
# Usage: scripts/differential-long.sh [sync|async|both] [CASES] [SHARDS]
#   defaults: sync, 100000, 2.
# Environment:
#   COG_LONG_LOGS  where each shard's output goes (default .build-long/logs/<family>-<time>)
#   COG_LONG_EVERY print a progress line every this many seconds (default 60)
#   COG_LONG_NO_BUILD=1  reuse the existing build (.build-long)
# Prints cases done per runtime while it runs, then per-runtime totals over all shards.
# Exit status: 0 every case of every runtime agreed; 1 a mismatch (its seeds are printed; replay
# one with `COG_DIFF_SEED=<seed> swift test --filter DifferentialTests`, or
# `COG_ASYNC_DIFF_SEED=<seed> swift test --filter AsyncDifferentialTests`), a shard that
# crashed or ended without reporting every runtime, or a build error; 2 bad arguments.
set -euo pipefail

cd "$(dirname "$0")/.."
family="${1:-sync}"
cases="${2:-100000}"
shards="${3:-2}"
case "$family" in sync | async | both) ;; *)
  echo "differential-long: the family is sync, async or both, not '$family'" >&2
  exit 2
  ;;
esac
[[ "$cases" =~ ^[0-9]+$ && "$shards" =~ ^[1-9][0-9]*$ ]] || {
  echo "differential-long: CASES and SHARDS are positive numbers" >&2
  exit 2
}
every="${COG_LONG_EVERY:-60}"
scratch=.build-long

# Release, with testing enabled: three test files use @testable imports.
if [[ -z "${COG_LONG_NO_BUILD:-}" ]]; then
  scripts/release-build.sh "$scratch" --build-tests -Xswiftc -enable-testing
fi
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/CogPackageTests.xctest"
[[ -x "$bin" ]] || { echo "differential-long: no test binary at $bin" >&2; exit 1; }

# Totals per runtime from the shards' logs: `COG-DIFF<TAB>kind<TAB>runtime<TAB>...` lines.
totals() { # kind logs...
  local kind="$1"
  shift
  awk -F'\t' -v kind="$kind" '
    $1 == "COG-DIFF" && $2 == kind { last[FILENAME "\t" $3] = $0; names[$3] = 1 }
    END {
      for (k in last) {
        split(last[k], f, "\t")
        done[f[3]] += f[4]
        if (kind == "progress") { total[f[3]] += f[5]; fail[f[3]] += f[6] } else { fail[f[3]] += f[5] }
        seen[f[3]] += 1
      }
      for (n in names) {
        if (kind == "progress") printf "  %s: %d of %d cases, %d failing\n", n, done[n], total[n], fail[n]
        else printf "  %s: %d cases, %d failing (%d shards reported)\n", n, done[n], fail[n], seen[n]
      }
    }' "$@" | sort
}

run_family() { # sync|async
  local fam="$1" prefix suite
  if [[ "$fam" == sync ]]; then
    prefix=COG_DIFF suite='CogTests\.DifferentialTests'
  else
    prefix=COG_ASYNC_DIFF suite='CogTests\.AsyncDifferentialTests'
  fi
  local logs="${COG_LONG_LOGS:-$scratch/logs}/$fam-$(date -u +%Y%m%dT%H%M%SZ)"
  mkdir -p "$logs"
  local start=$SECONDS pids=() i
  echo "differential-long: $fam, $cases cases per runtime, $shards shards, logs in $logs"
  for ((i = 0; i < shards; i++)); do
    env "${prefix}_CASES=$cases" "${prefix}_SHARD=$i/$shards" "${prefix}_PROGRESS=100" \
      "$bin" --testing-library swift-testing --filter "$suite" >"$logs/shard-$i.log" 2>&1 &
    pids+=($!)
  done
  local alive=1 status=0 shown=$SECONDS
  while ((alive)); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 2
    if ((SECONDS - shown >= every)); then
      shown=$SECONDS
      echo "[$((SECONDS - start)) s] $fam"
      totals progress "$logs"/shard-*.log
    fi
  done
  for ((i = 0; i < shards; i++)); do
    wait "${pids[$i]}" || {
      echo "differential-long: shard $i/$shards exited with status $? (see $logs/shard-$i.log)"
      status=1
    }
  done
  echo "differential-long: $fam finished in $((SECONDS - start)) s; per runtime, over $shards shards:"
  totals done "$logs"/shard-*.log | tee "$logs/totals.txt"
  local runtimes reported
  runtimes="$(awk -F'\t' '$1 == "COG-DIFF" && $2 == "done" { print $3 }' "$logs"/shard-*.log | sort -u | wc -l)"
  reported="$(awk -F'\t' '$1 == "COG-DIFF" && $2 == "done"' "$logs"/shard-*.log | wc -l)"
  if ((runtimes == 0 || reported != runtimes * shards)); then
    echo "differential-long: not every shard reported every runtime"
    status=1
  fi
  if grep -q $'^COG-DIFF\tfailing-seed' "$logs"/shard-*.log; then
    echo "differential-long: failing seeds (replay with ${prefix}_SEED=<seed>):"
    awk -F'\t' '$2 == "failing-seed" { print "  " $3 ", seed " $4 }' "$logs"/shard-*.log
    status=1
  fi
  return "$status"
}

result=0
if [[ "$family" != async ]]; then run_family sync || result=1; fi
if [[ "$family" != sync ]]; then run_family async || result=1; fi
exit "$result"
