#!/usr/bin/env bash
# release_test.sh: the student release (tools/release) hands out no answer, and its leak
# check finds one. It writes the release into a temporary folder (the check of every file
# against the references runs there; its line is printed), checks what is left out and what
# the student's README and handouts no longer say, then plants answers in a copy: lab 09's
# tiled kernel under other names in lab 11's baselines.cu, and lab 01's mapping in a test
# file; tools/release --leaks must report both. SKIP in the release itself (no tools/release,
# no solutions/). About 20 s.
set -u
cd "$(dirname "$0")/../.." || exit 2
if [ ! -x tools/release ] || [ ! -d solutions ]; then
    echo "SKIP release: no tools/release or solutions/ here (the student release)"
    echo "release: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
export LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/release-test.XXXXXX") || exit 2
trap 'rm -rf -- "$tmp"' EXIT
. tests/unit/lib.sh # passed, failed, result

tools/release "$tmp/out" >"$tmp/release.log" 2>&1
rc=$?
grep -E '^release: (no answer|these lines)' "$tmp/release.log"
result "tools/release writes the release: no file hands out an answer" \
    "$([ $rc = 0 ] && grep -q '^release: no answer handed out' "$tmp/release.log" || { echo "exit $rc"; tail -n 20 "$tmp/release.log"; })"
r=$tmp/out/gpulabs
[ -d "$r" ] || { echo "release: $passed passed, $((failed + 1)) failed"; exit 1; }
result "no solutions/, tests/wrong/ or tests/right/ in it" \
    "$(ls -d "$r/solutions" "$r/tests/wrong" "$r/tests/right" 2>/dev/null)"
result "a given kernel that is an earlier lab's answer ships as PTX, never as source" \
    "$(ls "$r"/labs/*/compiled/*.cu 2>/dev/null; ls "$r"/labs/11-sgemm/compiled/sgemm_tiled.ptx >/dev/null 2>&1 || echo 'no sgemm_tiled.ptx')"
result "the student's README: no make demo, no solutions/, a quick start without a GPU" \
    "$(grep -n 'make demo\|solutions/\|tests/wrong' "$r/README.md"; grep -q 'Without a GPU' "$r/README.md" || echo 'no quick start without a GPU')"
result "the handouts: no calibration, no make demo to run, no wrong solutions" \
    "$(grep -l '^## Calibration\|^make demo\|tests/wrong/' "$r"/labs/*/README.md)"

# planted answers: the check must find them
cp -r "$r" "$tmp/planted"
p=$tmp/planted
sed -n '/^__global__ void matmul_tiled_kernel/,/^}/p' solutions/09-matmul-tiling/matmul_tiling.cu |
    sed 's/matmul_tiled_kernel/given_tiles_kernel/; s/a_tile/sa/g; s/b_tile/sb/g; s/\bTILE\b/SGEMM_TILE/g' \
        >>"$p/labs/11-sgemm/baselines.cu"
printf 'static int planted(int t)\n{\n    int i = t / 64 * 64 + 2 * (t %% 32) + (t / 32) %% 2;\n    return i;\n}\n' \
    >>"$p/tests/grader/report.c"
tools/release --leaks "$p" >"$tmp/leaks.out" 2>&1
rc=$?
result "planted answers: tools/release --leaks exits 1" "$([ $rc = 1 ] || { echo "exit $rc"; cat "$tmp/leaks.out"; })"
result "it finds lab 09's kernel under other names" \
    "$(grep -q 'labs/11-sgemm/baselines.cu:[0-9]*: given_tiles_kernel holds .* matmul_tiled_kernel' "$tmp/leaks.out" || cat "$tmp/leaks.out")"
result "it finds lab 01's mapping line in a file of tests/" \
    "$(grep -q 'tests/grader/report.c:[0-9]*: .*t / 64 \* 64' "$tmp/leaks.out" || cat "$tmp/leaks.out")"

echo "release: $passed passed, $failed failed"
[ $failed -eq 0 ]
