#!/bin/bash
# run.sh BIN PLAN OUTDIR
bin=$1; plan=$2; d=$3; mkdir -p $d
toggles=""; for f in malloc free calloc realloc posix_memalign aligned_alloc memalign malloc_usable_size; do toggles="$toggles --toggle-collect=$f"; done
env -i SWIFT_DETERMINISTIC_HASHING=1 MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1 \
  valgrind --tool=callgrind --collect-atstart=no --instr-atstart=no --dump-instr=yes --callgrind-out-file=$d/cg.out --log-file=$d/vg.log $toggles $bin __region < $plan > $d/out.txt 2>&1
grep -h "^summary:" $d/cg.out.1
