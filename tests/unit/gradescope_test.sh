#!/usr/bin/env bash
# gradescope_test.sh: tools/gradescope/build-package and a dry run of its autograder,
# without a GPU: the zip of one lab (08) holds what grading needs and nothing an instructor
# keeps (solutions/, tests/wrong/, tests/right/, the handouts, other labs), its kit builds
# the graders as setup.sh does after apt, and run_autograder grades the reference into a
# results.json of Gradescope's format (the GPU tests SKIPPED), and a submission without the
# lab's file into a failed test that says which file was looked for.
# Needs the kit's toolchain (nvcc, Check); about a minute on 2 cores.
set -u
cd "$(dirname "$0")/../.." || exit 2
kit=$(pwd -P)
export LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gradescope-test.XXXXXX") || exit 2
trap 'rm -rf -- "$tmp"' EXIT
. tests/unit/lib.sh # passed, failed, result

zip=$tmp/autograder.zip
tools/gradescope/build-package --lab 08 --out "$zip" >"$tmp/build.log" 2>&1
result "build-package --lab 08 writes the zip" "$([ -s "$zip" ] || cat "$tmp/build.log")"
ag=$tmp/ag
mkdir -p "$ag/source" "$ag/submission"
(cd "$ag/source" && { unzip -q "$zip" 2>/dev/null || python3 -m zipfile -e "$zip" .; })
files=$(cd "$ag/source" && find . -type f | sed 's|^\./||' | sort)
result "the zip holds no instructor's file (solutions, wrong or right solutions, handouts, slides)" \
    "$(grep -E '(^|/)(solutions|wrong|right|slides)/|README\.md$|\.patch$' <<<"$files")"
result "the zip holds no other lab, and no demo or starting file" \
    "$(grep -E '^gpulabs/(labs|tests)/' <<<"$files" | grep -v -E '08-transpose|^gpulabs/tests/grader/' ;
       grep -E '^gpulabs/labs/.*/demo\.c$|labs/08-transpose/transpose\.cu$' <<<"$files")"
for f in setup.sh run_autograder gradescope.env gpulabs/Makefile gpulabs/tools/grade-class \
    gpulabs/tools/compile-submission gpulabs/labs/08-transpose/lab.c gpulabs/labs/08-transpose/baselines.cu \
    gpulabs/tests/08-transpose.c gpulabs/tests/grader/runner.c; do
    result "the zip holds $f" "$(grep -qx "$f" <<<"$files" || echo missing)"
done

# what setup.sh does after apt: build the graders of the assignment
(cd "$ag/source/gpulabs" && . ../gradescope.env && LAB=$GS_LAB KIND=$GS_KIND ARCH=$GS_ARCH \
    CLASS_OUT=build/gradescope JOBS=$(nproc) tools/grade-class --build) >"$tmp/setup.log" 2>&1
result "its kit builds the graders (setup.sh's step)" "$(grep -q 'built for' "$tmp/setup.log" || tail -n 15 "$tmp/setup.log")"

# a submission: the reference, in a folder of its own
cp solutions/08-transpose/transpose.cu "$ag/submission/" 2>/dev/null || cp labs/08-transpose/transpose.cu "$ag/submission/"
AUTOGRADER_ROOT=$ag "$ag/source/run_autograder" >"$tmp/run1.log" 2>&1
rc=$?
result "run_autograder grades a submission: exit 0, results.json written" \
    "$([ $rc = 0 ] && [ -s "$ag/results/results.json" ] || { echo "exit $rc"; tail -n 15 "$tmp/run1.log"; })"
if command -v python3 >/dev/null; then
    result "results.json is valid JSON with its tests" \
        "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["tests"], "no tests"' "$ag/results/results.json" 2>&1 | tail -n 1)"
fi
result "without a GPU, its GPU tests are SKIPPED, worth 0 of 0" \
    "$(grep -q 'SKIPPED' "$ag/results/results.json" || echo 'no SKIPPED test')"
result "the instructor's output has the student's feedback" "$(grep -q 'Your gpulabs grade' "$tmp/run1.log" || echo 'not there')"

rm -rf "$ag/submission" "$ag/results" && mkdir -p "$ag/submission" && echo 'hello' >"$ag/submission/notes.txt"
AUTOGRADER_ROOT=$ag "$ag/source/run_autograder" >"$tmp/run2.log" 2>&1
rc=$?
result "a submission without the lab's file: a failed test that names the file looked for" \
    "$([ $rc = 0 ] && grep -q 'no transpose.cu in the submission' "$ag/results/results.json" || { echo "exit $rc"; tail -n 8 "$tmp/run2.log"; })"

echo "gradescope: $passed passed, $failed failed"
[ $failed -eq 0 ]
