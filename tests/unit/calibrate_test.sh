#!/bin/bash
# gl-report --calibrate: each verdict's margin from the runners' "margin" facts, a margin under
# 1.5x flagged, exit 1 then (make calibrate's table, without a GPU)
set -u
report=${1:-build/tools/gl-report}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
t=$(printf '\t')
cat > "$dir/08.results" <<END
#lab${t}08-transpose
#gpu${t}NVIDIA H100 80GB HBM3 (sm_90)
#build${t}ok
#margin${t}padded_vs_naive\\t5.2\\t4\\t1
#margin${t}padded_conflict_free\\t1.0\\t1.25\\t0
END
out=$("$report" --calibrate "$dir/08.results"); s=$?
fail=0
check() { if grep -q -- "$1" <<< "$out"; then echo "PASS $2"; else echo "FAIL $2"; echo "$out"; fail=1; fi; }
check "padded_vs_naive .* 1.30x  THIN" "a ratio of 5.2 against at least 4 is a thin 1.30x"
check "padded_conflict_free .* 1.25x  THIN" "1.0 against at most 1.25 is 1.25x"
check "2 verdicts: 2 with a margin under 1.5x" "the count of thin margins"
[ $s -eq 1 ] && echo "PASS thin margins exit 1" || { echo "FAIL exit status $s, expected 1"; fail=1; }
sed -i 's/5.2\\t4/8\\t4/; s/1.0\\t1.25/0.5\\t1.25/' "$dir/08.results"
"$report" --calibrate "$dir/08.results" > /dev/null; s=$?
[ $s -eq 0 ] && echo "PASS wide margins exit 0" || { echo "FAIL exit status $s, expected 0"; fail=1; }
exit $fail
