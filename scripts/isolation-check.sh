#!/usr/bin/env bash
# The isolation check: a layout variant's counts must not depend on which other variants are
# built (swift/0003-edge-layouts.md, "One module per variant"). Counts the quick suite on the
# cog* systems (scripts/ci-gate.sh's build and count, COG_GATE_COUNT_ONLY) with the workbench
# as it is and with the throwaway variant `cog[overflow3+inline]` compiled in
# (COG_ISOLATION_PROBE=1, in a scratch path of its own), then requires every count of every
# cog* system of the first build to be equal in the second (`cog-bench same-counts
# --other-build`: two builds of one commit).
#
# Usage: scripts/isolation-check.sh [WITHOUT.json]
#   WITHOUT.json  a quick cog* count of this commit's build without the throwaway variant, e.g.
#                 the gate's (CI passes it: the gate's build and count are reused); without
#                 it, the script builds and counts that side too.
# Environment: COG_GATE_METRICS as for scripts/ci-gate.sh (default: every gated count).
# Exit status: 0 every count equal; 1 an error (a build or a run failed, a result is missing);
# 2 a count of an existing cog* system differs between the two builds (isolation broken: each
# moved count is printed, with both values and the difference).
set -euo pipefail

cd "$(dirname "$0")/.."
start=$SECONDS
dir=".bench-tmp/isolation"
mkdir -p "$dir"

if [[ $# -ge 1 ]]; then
  without="$1"
  [[ -f "$without" ]] || { echo "isolation-check: no result file $without" >&2; exit 1; }
else
  rm -rf "$dir/without"
  without="$(COG_GATE_COUNT_ONLY="$dir/without" scripts/ci-gate.sh)" || exit 1
fi

rm -rf "$dir/with"
with="$(COG_ISOLATION_PROBE=1 COG_BENCH_SCRATCH="$dir/build" COG_GATE_COUNT_ONLY="$dir/with" \
  scripts/ci-gate.sh)" || exit 1
bin="$(swift build -c release --product cog-bench --scratch-path "$dir/build" --show-bin-path)/cog-bench"
# Read whole before grep: `list | grep -q` under pipefail fails when grep exits first (SIGPIPE).
listing="$("$bin" list)"
if ! grep -qxF '  cog[overflow3+inline]' <<<"$listing"; then
  echo "isolation-check: the second build has no cog[overflow3+inline]: COG_ISOLATION_PROBE was not read" >&2
  exit 1
fi

. scripts/same-counts-report.sh
compare_counts isolation-check "$dir/same-counts.txt" \
  "adding cog[overflow3+inline] moved these counts" "" "" \
  "$bin" same-counts "$without" "$with" --systems 'cog*' --other-build || exit $?
echo "isolation-check: passed in $(( SECONDS - start )) s" >&2
