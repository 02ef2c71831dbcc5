#!/usr/bin/env bash
# Checks that a cog-bench executable holds no merged function of the workbench's modules
# (cases, systems, variants, baselines, counters, runner). Those modules build without LLVM's
# function merging (Package.swift, `workbenchSettings`): merging folds functions of identical
# code into one, so a case's body became a thunk of another case's identical body and its
# counts moved with what else was compiled beside it. The scripts that build and count call it
# after the build (scripts/ci-gate.sh, compare.sh, gate-power.sh, diagnostics-off-cost.sh).
#
# Usage: scripts/check-no-merge.sh COG-BENCH   (needs `nm`, from binutils)
# Exit status: 0 none; 1 merged functions found (some are printed) or the symbols unreadable.
set -euo pipefail

bin="${1:?usage: scripts/check-no-merge.sh COG-BENCH}"
command -v nm >/dev/null || { echo "check-no-merge: nm not found (install binutils)" >&2; exit 1; }
# Read whole before grep: `... | grep -q` under pipefail fails when grep exits first (SIGPIPE).
symbols="$(nm "$bin" | swift demangle)" || { echo "check-no-merge: cannot read the symbols of $bin" >&2; exit 1; }
# The targets built with Package.swift's `workbenchSettings`, by module name.
workbench='CogBench|CogVariant|CogCounters|CogSimpleCore|CogObjectGraph|CogObservationBaseline'
merged="$(grep -E '^[0-9a-f]+ [tT] merged ' <<<"$symbols" | grep -E "$workbench" || true)"
[[ -z "$merged" ]] && exit 0
echo "check-no-merge: $bin has $(wc -l <<<"$merged") merged function(s) of the workbench's modules, e.g.:" >&2
head -n 3 <<<"$merged" | cut -c1-200 >&2
cat >&2 <<'MSG'
check-no-merge: the workbench's modules must build with Package.swift's `workbenchSettings`
(-disable-llvm-merge-functions-pass). A build directory from before that setting keeps its old
objects (the compiler reuses an object whose IR did not change, whatever the LLVM flags):
remove the build directory (e.g. rm -rf .build) and build again.
MSG
exit 1
