#!/usr/bin/env bash
# compile_submission_test.sh: tools/compile-submission on the files it must
# compile and the ones it must refuse (GRADING.md, rule 6). Needs nvcc, no GPU.
#
#   tests/unit/compile_submission_test.sh [NVCC [FLAGS...]]
#
# NVCC: else $NVCC, else nvcc on PATH, else /usr/local/cuda/bin/nvcc.
# FLAGS: else -O3 -lineinfo -gencode arch=compute_75,code=[sm_75,compute_75].
# One line a case; exits non-zero when any expectation fails.
set -u
cd "$(dirname "$0")/../.." || exit 2
kit=$(pwd -P)
tool=$kit/tools/compile-submission
nvcc=${1:-${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}}
[ $# -gt 0 ] && shift
if [ $# -gt 0 ]; then flags=("$@"); else
    flags=(-O3 -lineinfo -gencode 'arch=compute_75,code=[sm_75,compute_75]')
fi
if ! [ -x "$nvcc" ] && ! command -v "$nvcc" >/dev/null 2>&1; then
    echo "SKIP compile-submission: no nvcc at $nvcc"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
header=$kit/labs/08-transpose/transpose.h
reference=$kit/solutions/08-transpose/transpose.cu
# the student release has no solutions/: the starting file, which compiles too, stands in
[ -f "$reference" ] || reference=$kit/labs/08-transpose/transpose.cu

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compile-submission-test.XXXXXX") || exit 2
trap 'rm -rf -- "$tmp"' EXIT
passed=0 failed=0

# compile NAME SRC OUT [EXTRA TOOL ARGS...]: run the tool; sets rc, log, err
compile() {
    local name=$1 src=$2 out=$3
    shift 3
    "$tool" --nvcc "$nvcc" --lab-header "$header" --src "$src" --out "$out" "$@" -- "${flags[@]}" \
        >"$tmp/$name.stdout" 2>"$tmp/$name.stderr"
    rc=$?
    err=$(cat "$tmp/$name.stderr")
    log=$(cat "$out/build.log" 2>/dev/null)
}
result() { # NAME WHY-IT-FAILED (empty: passed)
    if [ -z "$2" ]; then
        echo "PASS $1"
        passed=$((passed + 1))
    else
        echo "FAIL $1: $2"
        [ -n "$log" ] && printf '%s\n' "$log" | head -n 8 | sed 's/^/    build.log: /'
        [ -n "$err" ] && printf '%s\n' "$err" | head -n 4 | sed 's/^/    stderr: /'
        failed=$((failed + 1))
    fi
}
# expect_built NAME OUT: exit 0, both outputs, the ptxas report, src/ holds the two files
expect_built() {
    local why='' n
    [ "$rc" = 0 ] || why="exit $rc, not 0"
    [ -z "$why" ] && { [ -s "$2/submission.so" ] && [ -s "$2/submission.ptx" ] || why="no submission.so or .ptx"; }
    [ -z "$why" ] && { printf '%s' "$log" | grep -q 'ptxas info' || why="no ptxas report in build.log"; }
    [ -z "$why" ] && { grep -qx 'src/transpose.h' "$2/deps.txt" 2>/dev/null || why="deps.txt does not list src/transpose.h"; }
    n=$(find "$2/src" -mindepth 1 | wc -l)
    [ -z "$why" ] && { [ "$n" = 2 ] && [ -f "$2/src/transpose.cu" ] && [ -f "$2/src/transpose.h" ] ||
        why="src/ holds $n entries, not transpose.cu and transpose.h"; }
    result "$1" "$why"
}
# expect_refused NAME OUT RC PATTERN: exit RC, no submission.so, build.log (or stderr for 2) matches PATTERN
expect_refused() {
    local why='' text=$log
    [ "$3" = 2 ] && text=$err
    [ "$rc" = "$3" ] || why="exit $rc, not $3"
    [ -z "$why" ] && [ -e "$2/submission.so" ] && why="submission.so was produced"
    [ -z "$why" ] && { printf '%s' "$text" | grep -q -F -- "$4" || why="the message lacks: $4"; }
    result "$1" "$why"
}
student() { # FILE LINES...: a student's file of the lab's header and LINES
    mkdir -p -- "$(dirname -- "$1")"
    { echo '#include "transpose.h"'; shift; printf '%s\n' "$@"; } >"$1"
}

# 1-2. the reference and the starting file compile
compile reference "$reference" "$tmp/out/reference"
expect_built "the reference solution compiles" "$tmp/out/reference"
compile starting "$kit/labs/08-transpose/transpose.cu" "$tmp/out/starting"
expect_built "the starting file compiles" "$tmp/out/starting"

# 3. a relative #include of the reference, from a DIR where that path resolves;
# a stale submission.so of an earlier build must go too
mkdir -p "$tmp/kit/solutions/08-transpose" "$tmp/kit/grade/08-transpose"
cp "$reference" "$tmp/kit/solutions/08-transpose/transpose.cu"
echo stale >"$tmp/kit/grade/08-transpose/submission.so"
student "$tmp/sub/relative/transpose.cu" '#include "../../../solutions/08-transpose/transpose.cu"'
compile relative "$tmp/sub/relative/transpose.cu" "$tmp/kit/grade/08-transpose"
expect_refused "a relative #include of the reference is refused" "$tmp/kit/grade/08-transpose" 1 \
    "transpose.cu includes $tmp/kit/solutions/08-transpose/transpose.cu, which is not part of the lab: a submission may include only its lab's header (transpose.h) and the CUDA and C headers"

# 4. an absolute #include of a kit file
student "$tmp/sub/absolute/transpose.cu" "#include \"$reference\""
compile absolute "$tmp/sub/absolute/transpose.cu" "$tmp/out/absolute"
expect_refused "an absolute #include of a kit file is refused" "$tmp/out/absolute" 1 \
    "transpose.cu includes $reference, which is not part of the lab"

# 5. a syntax error: the compiler's own message
student "$tmp/sub/syntax/transpose.cu" 'void transpose_tiled(float *out, const float *in, int rows, int cols) { int x = ; }'
compile syntax "$tmp/sub/syntax/transpose.cu" "$tmp/out/syntax"
expect_refused "a syntax error does not compile, with the compiler's message" "$tmp/out/syntax" 1 "error"
result "the compiler's message names the student's file and line, not the copy in src/" \
    "$(grep -q -F "$tmp/sub/syntax/transpose.cu(2): error" "$tmp/out/syntax/build.log" &&
        ! grep -q 'src/transpose.cu' "$tmp/out/syntax/build.log" || echo 'not so')"
compile syntax_named "$tmp/sub/syntax/transpose.cu" "$tmp/out/syntax_named" --name labs/08-transpose/transpose.cu
result "--name: the messages name the file so" \
    "$(grep -q -F "labs/08-transpose/transpose.cu(2): error" "$tmp/out/syntax_named/build.log" || echo 'not so')"

# 6. spaces, quotes and UTF-8 in the folders of the file and of DIR
mkdir -p "$tmp/a b'c/é"
cp "$reference" "$tmp/a b'c/é/transpose.cu"
compile odd "$tmp/a b'c/é/transpose.cu" "$tmp/out/o d'd é"
expect_built "a file in a folder named a b'c/é compiles (into DIR o d'd é)" "$tmp/out/o d'd é"
# nvcc writes DIR's path into the PTX between quotes: a " there is refused up front
compile quote "$reference" "$tmp/out/q\"q"
expect_refused "a DIR path with a double quote exits 2" "$tmp/out/q\"q" 2 'holds " or'

# 7. a bogus nvcc: a toolchain problem, not the student's
nvcc_saved=$nvcc nvcc=$tmp/no/such/nvcc
compile bogus "$reference" "$tmp/out/bogus"
nvcc=$nvcc_saved
expect_refused "a bogus --nvcc exits 2 (toolchain)" "$tmp/out/bogus" 2 "no nvcc at"

# 8. flags this nvcc rejects: also the toolchain's (2), whatever the file
flags_saved=("${flags[@]}") flags=(-gencode 'arch=compute_1,code=sm_1')
compile badflags "$reference" "$tmp/out/badflags"
flags=("${flags_saved[@]}")
expect_refused "flags nvcc rejects exit 2 (toolchain)" "$tmp/out/badflags" 2 "a toolchain problem"

flags_saved=("${flags[@]}") flags=("${flags[@]}" -Icommon)
compile includeflag "$reference" "$tmp/out/includeflag"
flags=("${flags_saved[@]}")
expect_refused "an include folder among the flags exits 2 (the script adds -I src alone)" \
    "$tmp/out/includeflag" 2 "may not name include folders"

# 9. an include only the device pass sees
student "$tmp/sub/device/transpose.cu" '#ifdef __CUDA_ARCH__' "#include \"$tmp/kit/solutions/08-transpose/transpose.cu\"" '#endif'
compile device "$tmp/sub/device/transpose.cu" "$tmp/out/device"
expect_refused "an #include only the device pass sees is refused" "$tmp/out/device" 1 \
    "includes $tmp/kit/solutions/08-transpose/transpose.cu, which is not part of the lab"

# 10. a kit header that is not the lab's: not found, with a hint
student "$tmp/sub/kitheader/transpose.cu" '#include "gl_check.h"'
compile kitheader "$tmp/sub/kitheader/transpose.cu" "$tmp/out/kitheader"
expect_refused "a kit header (gl_check.h) is not in view" "$tmp/out/kitheader" 1 \
    "a submission is compiled with only its lab's header (transpose.h)"

# 11-15. the assembler's file inclusion: as written, in pieces, in escapes, behind line
# markers of its own; and a comment that only mentions it
student "$tmp/sub/incbin/transpose.cu" 'asm(".section .rodata\n.incbin \"/etc/hostname\"\n.previous");'
compile incbin "$tmp/sub/incbin/transpose.cu" "$tmp/out/incbin"
expect_refused ".incbin is refused, naming the line" "$tmp/out/incbin" 1 "transpose.cu line 2 uses .incbin"
student "$tmp/sub/pieces/transpose.cu" '#define DOT "."' 'asm(DOT "inc" "bi" "n \"/etc/hostname\"");'
compile pieces "$tmp/sub/pieces/transpose.cu" "$tmp/out/pieces"
expect_refused ".incbin in string pieces is refused" "$tmp/out/pieces" 1 "transpose.cu line 3 uses .incbin"
student "$tmp/sub/escapes/transpose.cu" '' '' 'asm("\x2e\151ncb\u0069n \"/etc/hostname\"");'
compile escapes "$tmp/sub/escapes/transpose.cu" "$tmp/out/escapes"
expect_refused ".incbin in escapes is refused" "$tmp/out/escapes" 1 "transpose.cu line 4 uses .incbin"

student "$tmp/sub/marker/transpose.cu" '# 1 "/usr/include/stdio.h" 1 3' 'asm(".inc" "bin \"/etc/hostname\"");'
compile marker "$tmp/sub/marker/transpose.cu" "$tmp/out/marker"
expect_refused ".incbin behind a line marker of its own is refused" "$tmp/out/marker" 1 "transpose.cu uses .incbin"
# what a comment says is no use of it
mkdir -p "$tmp/sub/comment"
{ cat "$reference"; echo '/* no asm(".incbin \"x\"") here; // .include "y" */'; } >"$tmp/sub/comment/transpose.cu"
compile comment "$tmp/sub/comment/transpose.cu" "$tmp/out/comment"
expect_built "a comment that mentions .incbin compiles" "$tmp/out/comment"

# 16. --src inside DIR/src: grading the copy of an earlier run again
compile again "$tmp/out/reference/src/transpose.cu" "$tmp/out/reference"
expect_built "DIR/src/transpose.cu given as --src compiles again" "$tmp/out/reference"

# 17-18. symbolic links a handed-in folder may hold (git keeps them)
mkdir -p "$tmp/sub/link" "$tmp/sub/linkdir"
ln -s "$reference" "$tmp/sub/link/transpose.cu"
compile link "$tmp/sub/link/transpose.cu" "$tmp/out/link"
expect_refused "a file that is a symbolic link is refused" "$tmp/out/link" 1 "transpose.cu is a symbolic link"
ln -s "$(dirname "$reference")" "$tmp/sub/linkdir/08-transpose"
compile linkdir "$tmp/sub/linkdir/08-transpose/transpose.cu" "$tmp/out/linkdir"
expect_refused "a lab folder that is a symbolic link is refused" "$tmp/out/linkdir" 1 \
    "the folder of transpose.cu (08-transpose) is a symbolic link"

# 19. the tool's own arguments
"$tool" --nvcc "$nvcc" --src "$reference" --out "$tmp/out/args" -- "${flags[@]}" >/dev/null 2>"$tmp/args.stderr"
rc=$? err=$(cat "$tmp/args.stderr") log=''
result "a missing --lab-header exits 2" "$([ "$rc" = 2 ] || echo "exit $rc, not 2")"

echo "compile-submission: $passed passed, $failed failed"
[ "$failed" = 0 ]
