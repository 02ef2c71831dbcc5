# Sourced by the scripts that require two runs' counts to be equal (isolation-check.sh,
# clock-check.sh).
#
# compare_counts NAME REPORT HEADLINE BEFORE_LABEL AFTER_LABEL COMMAND...
#   Runs COMMAND (a `cog-bench same-counts` invocation) with its output in REPORT, prints
#   it, and returns 0 when it found every count equal; on a moved count, prints "NAME:
#   FAILED: HEADLINE:" and each moved count with both values (labelled) and the difference
#   to stderr and returns 2; on any other failure (an error, a missing count) returns 1.
compare_counts() {
  local name="$1" report="$2" headline="$3" before="$4" after="$5"
  shift 5
  local status=0
  "$@" >"$report" || status=$?
  cat "$report"
  if (( status == 0 )); then return 0; fi
  if grep -q '^DIFFERENT [^ ]*@' "$report"; then
    echo "$name: FAILED: $headline:" >&2
    sed -n 's/^DIFFERENT \([^ ]*@[^:]*\): \([0-9-]*\) in the reference, \([0-9-]*\) in the other$/\1 \2 \3/p' \
      "$report" | awk -v a="$before" -v b="$after" \
      '{ printf "  %s %s: %s%s -> %s%s (%+d)\n", $1, $2, $3, a, $4, b, $4 - $3 }' >&2
    return 2
  fi
  return 1
}
