#!/usr/bin/env bash
# setup.sh: Gradescope runs this once, as root, when it builds the autograder's image
# (Ubuntu). It installs what the kit needs besides CUDA (Check, pkg-config, make, gcc, g++),
# checks that the image has the CUDA toolkit, and builds the kit's graders for the labs of
# this assignment, so that each submission only compiles the student's file.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kit=$here/gpulabs
# shellcheck disable=SC1091
. "$here/gradescope.env"

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends check pkg-config make gcc g++ libc6-dev coreutils gawk

nvcc=$(command -v nvcc 2>/dev/null || true)
[ -n "$nvcc" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
    cat >&2 <<'MSG'
setup.sh: this image has no CUDA toolkit (no nvcc on the PATH or in /usr/local/cuda/bin).
  gpulabs compiles each submission with nvcc (CUDA 11.x to 13.x) and grades it on an NVIDIA
  GPU: build this autograder on a base image that has the toolkit and a GPU runner
  (see tools/gradescope/README.md in the kit).
MSG
    exit 1
fi
echo "setup.sh: $nvcc: $("$nvcc" --version | tail -n 1)"

chmod +x "$here/run_autograder" "$kit"/tools/* 2>/dev/null || true
[ ! -f /autograder/run_autograder ] || chmod +x /autograder/run_autograder

cd "$kit"
# ARCH: the one given to make gradescope, else the GPU here (tools/gpu-arch; sm_75 without one)
LAB=$GS_LAB KIND=$GS_KIND CLASS_OUT=build/gradescope ARCH=$GS_ARCH NVCC=$nvcc \
    JOBS=$(nproc) tools/grade-class --build
echo "setup.sh: the graders of ${GS_LAB:-every lab} are built ($(grep KIT_ARCH build/gradescope/kit.env))"
