#!/usr/bin/env bash
# check_handouts_test.sh: tools/check-handouts fails a handout that no longer says what its
# suite grades. On a copy of lab 08 (its suite, its handout; its built runner): the kit's own
# copy passes; a wrong total, a wrong row of points, a claim's bound changed in the suite alone, a
# calibration row left out or given another threshold each fail, naming what disagrees.
# Needs build/tests/08-transpose/runner (make test builds it).
set -u
cd "$(dirname "$0")/../.." || exit 2
kit=$(pwd -P)
lab=08-transpose
runner=$kit/build/tests/$lab/runner
[ -x "$runner" ] || { echo "FAIL no $runner (make all builds it)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-handouts-test.XXXXXX") || exit 2
trap 'rm -rf -- "$tmp"' EXIT
. tests/unit/lib.sh # passed, failed, result
fresh() { # a copy of the lab's suite and handout, beside the real runner
    rm -rf "$tmp/kit" && mkdir -p "$tmp/kit/tests" "$tmp/kit/labs/$lab" "$tmp/kit/build/tests/$lab"
    cp "tests/$lab.c" "$tmp/kit/tests/" && cp "labs/$lab/README.md" "$tmp/kit/labs/$lab/"
    ln -s "$runner" "$tmp/kit/build/tests/$lab/runner"
}
check() { (cd "$tmp/kit" && "$kit/tools/check-handouts" build "$lab") >"$tmp/out" 2>&1; }
expect_stale() { # NAME WORDS-THE-MESSAGE-HAS
    check
    local rc=$?
    result "$1" "$([ $rc = 1 ] && grep -q -- "$2" "$tmp/out" || { echo "exit $rc, wanted 1 and '$2':"; cat "$tmp/out"; })"
}
h=$tmp/kit/labs/$lab/README.md s=$tmp/kit/tests/$lab.c

fresh; check
result "the kit's own handout agrees with its suite" "$([ $? = 0 ] || cat "$tmp/out")"
fresh; sed -i 's/`tests\/08-transpose.c`, 61 points/`tests\/08-transpose.c`, 60 points/' "$h"
expect_stale "a wrong total in the heading" "61 points"
fresh; sed -i 's/^\(| profile (Nsight Compute) |.*| \)6 |$/\17 |/' "$h"
expect_stale "a row with points the suite does not give" "profile 7 points; the suite 6"
fresh; sed -i 's/\.factor = 1\.25,/.factor = 1.35,/' "$s"
expect_stale "a claim's factor changed in the suite alone" "MIN_(tiled_vs_naive.factor) = 1.35"
fresh; sed -i 's/\.at_most = 1\.6,/.at_most = 1.7,/' "$s"
expect_stale "a counter's bound changed in the suite alone" "MAX_(padded_conflict_free.at_most) = 1.7"
if ! grep -q '^## Calibration' "labs/$lab/README.md"; then # the student release has none
    echo "check-handouts: $passed passed, $failed failed (no calibration table in this kit)"
    exit $((failed > 0))
fi
fresh; sed -i '/^| `tiled_conflicts` |/d' "$h"
expect_stale "a calibration table without a timed test" "no row for tiled_conflicts"
fresh; sed -i 's/^| `padded_vs_copy` | &ge; 52 |/| `padded_vs_copy` | \&ge; 50 |/' "$h"
expect_stale "a calibration row with another threshold" "padded_vs_copy the threshold"
echo "check-handouts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
