#!/bin/bash
# A grading that breaks is never a quiet one (GRADING.md rule 11): a runner that dies in the
# middle of a kind leaves its tests NOT RUN, lowers no total, and the run exits 2.
#   1. gl-report on a results file whose runner died: NOT RUN for every planned test it did not
#      report, in the scoreboard and in results.json, exit 2;
#   2. make check on lab 08's starting file, technique tests (no GPU needed), with the runner
#      killed as it starts its third test (GL_TEST_DIE_AT): NOT RUN, exit 2;
#   3. lab 10's technique test that reads the given kernel's PTX, with the kit's baselines' PTX
#      missing: NOT RUN (the kit's failure, not the student's), and the runner exits 2.
set -u
report=${1:-build/tools/gl-report}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
t=$(printf '\t')
fail=0
check() { if grep -q -- "$1" <<< "$out"; then echo "PASS $2"; else echo "FAIL $2"; echo "$out" | head -40; fail=1; fi; }

cat > "$dir/08.results" <<END
#lab${t}08-transpose
#gpu${t}none
#build${t}ok
#plan${t}tiled_shared_tile\\ttechnique\\t3\\ttiled: a shared tile
#plan${t}tiled_barrier\\ttechnique\\t2\\ttiled: __syncthreads()
#plan${t}padded_pitch\\ttechnique\\t4\\tpadded: row pitch not a multiple of 32
test${t}08-transpose${t}tiled_shared_tile${t}technique${t}pass${t}3${t}3${t}0.1${t}tiled: a shared tile${t}
END
out=$("$report" --out "$dir" "$dir/08.results"); s=$?
check "08-transpose .* 3/9 .*GRADING BROKE: 6 points NOT RUN (the grader did not finish)" "a died runner's planned tests are NOT RUN"
check "Total .* 3/9 .*6 points NOT RUN" "the total says what was not run, and does not call it lost"
[ $s -eq 2 ] && echo "PASS a broken grading exits 2" || { echo "FAIL exit status $s, expected 2"; fail=1; }
out=$(cat "$dir/results.json")
check '"grading_broke_points": 6' "results.json counts the points not run"
check '\[NOT RUN\] 08-transpose: technique: padded: row pitch' "results.json lists each test NOT RUN"
check '"max_score": 0, "tags": \["technique"\], "output": "NOT RUN' "a test NOT RUN is worth 0 of 0, not a zero"
printf '#end\tok\n' >> "$dir/08.results"
sed -i '/^#plan.*padded_pitch/d; /^#plan.*tiled_barrier/d' "$dir/08.results"
"$report" --out "$dir" "$dir/08.results" > /dev/null; s=$?
[ $s -eq 0 ] && echo "PASS a runner that finished and reported its plan exits 0" || { echo "FAIL exit status $s, expected 0"; fail=1; }

if [ -x build/tests/08-transpose/runner ]; then
    out=$(GL_TEST_DIE_AT=tiled_barrier make --no-print-directory check SRC=labs LAB=08 KIND=technique 2>&1); s=$?
    check "NOT RUN" "a runner killed mid-kind shows its tests NOT RUN"
    check "GRADING BROKE" "and says the grading broke"
    [ $s -ne 0 ] && echo "PASS make check fails ($s)" || { echo "FAIL make check exited 0"; fail=1; }
    [ "$(sed -n 's/^#plan\t\([a-z_]*\).*/\1/p' build/grade/labs/08-transpose.results | wc -l)" -gt 3 ] &&
        echo "PASS the runner planned the kind before it died" || { echo "FAIL no plan in the results"; fail=1; }
else
    echo "SKIP make check with a runner killed mid-kind: build/tests/08-transpose/runner is not built"
fi

runner=build/tests/10-reduction/runner
if [ -x "$runner" ] && [ -f build/tests/10-reduction/baselines.ptx ]; then
    mkdir -p "$dir/bin"
    tools/compile-submission --nvcc "${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}" \
        --lab-header labs/10-reduction/reduction.h --src labs/10-reduction/reduction.cu \
        --out "$dir/lab10" -- -arch=sm_75 >/dev/null 2>&1
    cp "$runner" "$dir/bin/runner" # beside it no baselines.ptx, and --baseline names none
    out=$("$dir/bin/runner" --dir "$dir/lab10" --baseline "$dir/none/baselines.so" \
        --subject build/tests/10-reduction/subject --results "$dir/10.results" \
        --kind technique --only sequential_tree 2>&1); s=$?
    check "sequential.*NOT RUN" "a technique test whose given kernel's PTX is missing is NOT RUN"
    check "baselines' PTX .* is missing" "and says which file the kit lacks"
    [ $s -eq 2 ] && echo "PASS the runner exits 2" || { echo "FAIL exit status $s, expected 2"; fail=1; }
else
    echo "SKIP a missing baselines' PTX: build/tests/10-reduction/runner is not built"
fi
exit $fail
