#!/usr/bin/env bash
# The clock check: a region's counts must not depend on the values its clock returns.
# Counts the quick case that reads a clock in its region (`cog/cache-steady-turn`: `.cache`
# retention reads the context's clock after every turn) on the cog* systems twice, with the
# children's clock replaced by scripts/fake-clock.c (COG_BENCH_CHILD_PRELOAD): once advancing
# 1 µs a read, and once 13.8 s a read (three quarters of 2^64 attoseconds, so the low word of
# a 128-bit attosecond count wraps at most reads). Every count must be equal
# (`cog-bench same-counts`). Stop 55 found a `Duration` subtraction whose instructions moved
# with that wrap, so a region counted 64 more when the time of day crossed it
# (impl/perf-notes.md, "Stop 55").
#
# Usage: scripts/clock-check.sh   (the gate's build: .build, as scripts/ci-gate.sh makes it)
# Environment: COG_BENCH_BIN a cog-bench executable to use instead; CC the C compiler (default
# cc, else clang).
# Exit status: 0 every count equal; 1 an error (no compiler, no valgrind, a run failed);
# 2 a count differs between the two clocks (each is printed with both values).
set -euo pipefail

cd "$(dirname "$0")/.."
start=$SECONDS
dir=".bench-tmp/clock-check"
rm -rf "$dir"
mkdir -p "$dir"
if [[ -n "${COG_BENCH_BIN:-}" ]]; then
  bin="$COG_BENCH_BIN"
else
  build=(swift build -c release --scratch-path .build --product cog-bench -Xcc -gdwarf-4)
  scripts/release-build.sh .build --product cog-bench -Xcc -gdwarf-4 --manifest-cache none
  bin="$("${build[@]}" --show-bin-path)/cog-bench"
fi
command -v valgrind >/dev/null || { echo "clock-check: valgrind is not installed" >&2; exit 1; }
# cc, else the toolchain's clang (beside swift on the PATH).
compiler="${CC:-$(command -v cc || command -v clang || true)}"
[[ -n "$compiler" ]] || { echo "clock-check: no C compiler (cc or clang; set CC)" >&2; exit 1; }
"$compiler" -O1 -shared -fPIC -o "$dir/fake-clock.so" scripts/fake-clock.c || {
  echo "clock-check: cannot compile scripts/fake-clock.c with $compiler" >&2
  exit 1
}

cases="cog/cache-steady-turn"
count() {  # count NAME STEP_NS: prints the result file
  COG_BENCH_CHILD_PRELOAD="$PWD/$dir/fake-clock.so" COG_FAKE_CLOCK_BASE_NS=1000000000000 \
    COG_FAKE_CLOCK_STEP_NS="$2" SWIFT_DETERMINISTIC_HASHING=1 \
    "$bin" run --size quick --cases "$cases" --systems 'cog*' --metrics instructions \
    --output-dir "$dir/$1" >"$dir/$1.txt" 2>&1 || {
    cat "$dir/$1.txt" >&2
    echo "clock-check: the run with the $1 clock failed" >&2
    exit 1
  }
  sed -n 's/^wrote \(.*\.json\)$/\1/p' "$dir/$1.txt" | tail -n 1
}
slow="$(count slow 1000)"
fast="$(count fast 13835058055)"

. scripts/same-counts-report.sh
compare_counts clock-check "$dir/same-counts.txt" "these counts depend on the clock's values" \
  " (slow clock)" " (fast clock)" "$bin" same-counts "$slow" "$fast" --systems 'cog*' || exit $?
echo "clock-check: passed in $(( SECONDS - start )) s" >&2
