#!/usr/bin/env bash
# clock-sweep.sh BIN OUT: counts cog/cache-steady-turn's instructions on the four cog*
# systems under a fake clock (fake-clock.c), once with the clock far from a 2^64-attosecond
# boundary and then with the boundary crossed at call k = 0, 6, …, 126 of the child's ~123
# clock reads. Each line of OUT: system, k ("far" for the first), instructions. The child is
# run as `cog-bench run` runs it (the `__region` protocol of this commit, the environment of
# `CallgrindRun.childEnvironment` and the allocator toggles), with LD_PRELOAD added.
set -euo pipefail
bin="$1"; out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
cc -O1 -shared -fPIC -o "$work/fake-clock.so" "$here/fake-clock.c"
toggles=()
for f in malloc free calloc realloc posix_memalign aligned_alloc memalign malloc_usable_size; do
  toggles+=("--toggle-collect=$f")
done
tunables="glibc.cpu.hwcaps=-AVX,-AVX2,-AVX512F,-AVX512CD,-AVX512BW,-AVX512DQ,-AVX512VL,-ERMS,-FSRM,-SSSE3,-SSE4_1,-SSE4_2,-POPCNT,-BMI1,-BMI2,-LZCNT,-MOVBE,-FMA,-F16C,-RTM,-Fast_Unaligned_Load,-Fast_Unaligned_Copy,-AVX_Fast_Unaligned_Load,-Prefer_No_VZEROUPPER,-Fast_Rep_String"
# 36028797014963968 ns × 10^9 ≡ 2^64 − 4·10^15 (mod 2^64): the low word of the attosecond
# count wraps 4 ms (4 calls) after this base; base − k ms moves the wrap to call k + 4.
wrap=36028797014963968
: >"$out"
for system in 'cog' 'cog[pool+inline]' 'cog[prefix+inline]' 'cog[overflow2+inline]'; do
  plan="{\"caseID\":\"cog\\/cache-steady-turn\",\"system\":\"$system\",\"kind\":\"instructions\",\"size\":\"quick\",\"metrics\":[\"instructions\"]}"
  for k in far $(seq 0 6 126); do
    if [[ $k == far ]]; then base=100000000000; else base=$((wrap - k * 1000000)); fi
    rm -f "$work"/cg.out*
    env -i LD_PRELOAD="$work/fake-clock.so" FAKE_BASE_NS="$base" SWIFT_DETERMINISTIC_HASHING=1 \
      MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1 GLIBC_TUNABLES="$tunables" \
      valgrind --tool=callgrind --collect-atstart=no --instr-atstart=no --dump-instr=no \
      --callgrind-out-file="$work/cg.out" --log-file="$work/vg.log" "${toggles[@]}" \
      "$bin" __region <<<"$plan" >"$work/child.txt" 2>&1
    grep -q '"passed":true' "$work/child.txt" || { cat "$work/child.txt" >&2; exit 1; }
    echo "$system $k $(sed -n 's/^summary: //p' "$work"/cg.out.1)" >>"$out"
  done
done
rm -rf "$work"
