#!/usr/bin/env bash
# The workbench's release build: `swift build -c release ARGS...` into the scratch path SCRATCH,
# cleaned first whenever its release products were built from other sources. SwiftPM's
# incremental release build does not always recompile a module that inlines another module's
# changed `@inlinable` code through a module in between: after a one-line change to an
# inlinable function of CogCore, `cog-bench` linked the old body in 4 of the 23 places that
# inline it (impl/perf-notes.md, stop 43), so counts measured a mixture of two commits. Every
# script that measures builds through here.
#
# Usage: scripts/release-build.sh SCRATCH [ARGS...]
#   SCRATCH  the SwiftPM scratch path (`--scratch-path`)
#   ARGS     further `swift build` arguments (the product, `-Xcc -gdwarf-4`, ...)
# The fingerprint covers the contents of Package.swift and every file under Sources, Layouts,
# Benchmarks and Tests/ReleaseProbe (the one release product under Tests; all of Tests when
# ARGS has --build-tests), the toolchain's version, ARGS, the environment variables the manifest
# reads and the system headers it looks for; it is kept as SCRATCH/release-sources.sha256 once
# a build succeeds. A build that makes cog-bench stamps it with the checkout's measured paths
# (`<bin>/cog-bench.sources.json`; result files record it as `environment.build.sources`).
# Build output goes to stderr; nothing is printed on stdout.
# Exit status: 0 built; 2 a usage error; 1 the stamp could not be written; otherwise swift
# build's.
set -euo pipefail

cd "$(dirname "$0")/.."
if [[ $# -lt 1 || -z "$1" ]]; then
  echo "release-build: usage: scripts/release-build.sh SCRATCH [swift build arguments...]" >&2
  exit 2
fi
scratch="$1"
shift

# Test targets are release products only with --build-tests; otherwise a test's edit would
# rebuild every release product from scratch.
tests=Tests/ReleaseProbe
for arg in "$@"; do
  if [[ "$arg" == --build-tests ]]; then tests=Tests; fi
done

fingerprint() {
  {
    swift --version 2>&1
    printf 'args:'
    printf ' %q' "$@"
    printf '\n'
    for name in COG_INTERNAL_CHECKS COG_NO_JEMALLOC COG_NO_DIAGNOSTICS COG_ISOLATION_PROBE; do
      printf '%s=%s\n' "$name" "${!name-}"
    done
    ls -d /usr/{,local/}include/{jemalloc/jemalloc,valgrind/callgrind}.h 2>/dev/null || true
    find Package.swift Sources Layouts Benchmarks "$tests" -type f -print0 | LC_ALL=C sort -z |
      xargs -0 sha256sum
  } | sha256sum | cut -d' ' -f1
}

stamp="$scratch/release-sources.sha256"
now="$(fingerprint "$@")"
if [[ "$(cat "$stamp" 2>/dev/null || true)" != "$now" ]]; then
  rm -f "$stamp"
  # The products' directory as SwiftPM names it (the triple's `release`; `SCRATCH/release` is
  # a link to it). Not a glob: a scratch path may hold other scratch paths (the tests' release
  # probe builds in `.build/release-probe`).
  products="$(swift build -c release --scratch-path "$scratch" "$@" --show-bin-path)"
  if [[ -d "$products" ]]; then
    echo "release-build: the sources changed since $products was built: building it afresh" >&2
    rm -rf "$products"
  fi
  if [[ -L "$scratch/release" ]]; then rm -f "$scratch/release"; fi
fi
swift build -c release --scratch-path "$scratch" "$@" >&2
mkdir -p "$scratch"
printf '%s\n' "$now" >"$stamp.tmp"
mv "$stamp.tmp" "$stamp"

# The runner's source stamp (`cog-bench __stamp-sources`): its digest and the checkout's
# measured paths, which the build just compiled (or found current), so that its result files
# name the sources of the binary, not only of the checkout they ran in. Only when this build
# made cog-bench (no --product, or --product cog-bench): a stamp names one binary's digest, and
# an older cog-bench left beside other products is not stamped afresh.
makes_runner=1
previous=""
for a in "$@"; do
  if [[ "$previous" == "--product" ]]; then
    makes_runner=0
    if [[ "$a" == "cog-bench" ]]; then makes_runner=1; break; fi
  fi
  previous="$a"
done
if (( makes_runner )); then
  products="$(swift build -c release --scratch-path "$scratch" "$@" --show-bin-path)"
  if [[ -x "$products/cog-bench" ]]; then "$products/cog-bench" __stamp-sources; fi
fi
