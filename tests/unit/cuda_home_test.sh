#!/usr/bin/env bash
# cuda_home_test.sh: the kit finds the toolkit nvcc runs from when the nvcc it is given is a
# wrapper script or a link outside the toolkit (/usr/local/bin/nvcc on a PATH without
# /usr/local/cuda/bin, as on some CI machines and Gradescope images): tools/cuda-home, the
# Makefile's CUDA_HOME and tools/compile-submission's allowed headers all follow it.
# Needs nvcc (NVCC=, else on PATH, else /usr/local/cuda/bin/nvcc).
set -u
cd "$(dirname "$0")/../.." || exit 2
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "SKIP no nvcc at $nvcc"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuda-home-test.XXXXXX") || exit 2
trap 'rm -rf -- "$tmp"' EXIT
. tests/unit/lib.sh # passed, failed, result
real=$(tools/cuda-home "$nvcc") || { echo "FAIL tools/cuda-home $nvcc: no toolkit ($real)"; exit 1; }
mkdir -p "$tmp/wrap/bin" "$tmp/link/bin"
printf '#!/bin/sh\nexec %s "$@"\n' "$nvcc" >"$tmp/wrap/bin/nvcc" && chmod +x "$tmp/wrap/bin/nvcc"
ln -s "$nvcc" "$tmp/link/bin/nvcc"
for w in wrap link; do
    got=$(tools/cuda-home "$tmp/$w/bin/nvcc")
    result "tools/cuda-home: an nvcc $w outside the toolkit names $real" \
        "$([ "$got" = "$real" ] || echo "it named '$got'")"
    got=$(env -u CUDA_HOME make -pnq help NVCC="$tmp/$w/bin/nvcc" 2>/dev/null | sed -n 's/^CUDA_HOME := //p')
    result "make NVCC=<an nvcc $w>: CUDA_HOME is $real" "$([ "$got" = "$real" ] || echo "it is '$got'")"
done
printf '#include <cuda_runtime.h>\n#include "lab.h"\n' >"$tmp/student.cu"
printf '#pragma once\n' >"$tmp/lab.h"
tools/compile-submission --nvcc "$tmp/wrap/bin/nvcc" --lab-header "$tmp/lab.h" --src "$tmp/student.cu" \
    --out "$tmp/out" -- -arch=sm_75 >"$tmp/compile.log" 2>&1
result "compile-submission --nvcc <a wrapper>: the toolkit's headers are allowed" \
    "$([ -s "$tmp/out/submission.so" ] || { tail -n 5 "$tmp/compile.log"; tail -n 5 "$tmp/out/build.log"; })"
echo "cuda-home: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
