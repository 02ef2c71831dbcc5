#!/usr/bin/env bash
# sitting.sh OUTDIR: three interleaved rounds, Cog and alien-signals side by side.
set -euo pipefail
out=$1; mkdir -p "$out"; tmp=$(mktemp -d)
cd /work/main
bin=.build/release/cog-bench
last() { ls -t "$1"/*.json | head -1; }
for n in 1 2 3; do
  echo "round $n: cog sbench $(date -u +%T)" >&2
  d=$tmp/s$n; $bin run --size full --cases 'sbench/*' --systems cog --metrics wallTime --output-dir $d >/dev/null
  cp "$(last $d)" "$out/cog-sbench-round$n.json"
  echo "round $n: alien sbench $(date -u +%T)" >&2
  /tmp/jssbs/run-sbench.sh "$out/alien-sbench-round$n.json"
  echo "round $n: cog kairo $(date -u +%T)" >&2
  d=$tmp/k$n; $bin run --size full --cases 'kairo/*' --systems cog --metrics wallTime --output-dir $d >/dev/null
  cp "$(last $d)" "$out/cog-kairo-round$n.json"
  echo "round $n: alien kairo $(date -u +%T)" >&2
  /tmp/jssbs/run-kairo.sh "$out/alien-kairo-round$n.json"
  echo "round $n: cog first reads $(date -u +%T)" >&2
  d=$tmp/f$n; $bin run --size full --cases 'cog/first-read,cog/first-read-computed' --systems cog --metrics wallTime,cpuTime --samples 5 --output-dir $d >/dev/null
  cp "$(last $d)" "$out/cog-firstread-round$n.json"
  echo "round $n: alien first reads $(date -u +%T)" >&2
  /tmp/jssbs/run-firstread.sh "$out/alien-firstread-round$n.json"
done
echo "done $(date -u +%T)" >&2
