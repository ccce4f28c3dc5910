#!/usr/bin/env bash
# review_test.sh: gl-review (tests/grader/review.c), GRADING.md rule 8. Needs a
# C compiler ($CC, else gcc), no GPU, no CUDA.
#   - a file with one construct of each kind: the right kinds on the right
#     lines, nothing from comments or literals, --allow and --header at work;
#   - every reference solution and starting file: nothing to review, given its
#     lab's header and the lab's allow list (the Makefile's REVIEW_ALLOW_ lines).
# One line a case; exits non-zero when any expectation fails.
set -u
cd "$(dirname "$0")/../.." || exit 2

# what each lab legitimately needs beyond the defaults (LAB <TAB> --allow): the Makefile's
# REVIEW_ALLOW_LAB lines, the list make check passes
ALLOW=$(sed -n 's/^REVIEW_ALLOW_\([^ ]*\) := \(.*\)$/\1	\2/p' Makefile)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/review-test.XXXXXX") || exit 2
trap 'rm -rf -- "$tmp"' EXIT
. tests/unit/lib.sh # passed, failed, result

review=$tmp/gl-review
if ! ${CC:-gcc} -std=c11 -O2 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
    tests/grader/review.c -o "$review" 2>"$tmp/cc.log"; then
    result "gl-review builds with -Wall -Wextra -Werror" "$(head -n 5 "$tmp/cc.log")"
    echo "review: $passed passed, $failed failed"
    exit 1
fi
result "gl-review builds with -Wall -Wextra -Werror" ""

# one of each kind; decoys in comments and literals must stay silent
cat >"$tmp/one.cu" <<'EOF'
#include "transpose.h"
#include <stdio.h>
#include <unistd.h>
#include <thrust/sort.h>
/* getenv("HOME"); fork(); dlopen(0, 0); cudaMemcpy(a, b, n, k);
   __attribute__((constructor)) #include <evil.h> cudaStreamCreate(&s); */
// system("rm -rf /"); exit(1); clock_gettime(0, 0); malloc(4); asm("nop");
static const char *decoy = "getenv fork dlopen cudaMalloc cudaDeviceSynchronize exit(1) asm";
static const char *raw = R"x(open("/etc/passwd", 0); std::thread t; cublasSgemm(0);)x";
char quote = '"'; int million = 1'000'000; int open_count, time_s; struct s { int open; } o;
__attribute__((constructor)) static void init(void) { }
static int env(void) { return getenv("HOME") != 0; }
static int file(void) { return open("/tmp/x", 0) + o.open + open_count; }
static void proc(void) { if (fork() == 0) _exit(0); }
static void *dyn(void) { return dlsym(0, "cudaLaunchKernel"); }
__device__ unsigned asmb(void) { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
static void stream(void) { cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); }
static void copy(float *a, const float *b) { cudaMemcpyAsync(a, b, 4, cudaMemcpyDeviceToDevice); }
static void sync(void) { cudaDeviceSynchronize(); }
static void mem(void) { float *p; cudaMalloc(&p, 4); }
static void lib(void) { cublasSgemm(0); }
static double timing(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec; }
__device__ unsigned long long tick(void) { unsigned long long t; asm("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
static void spliced(void) { get\
env("X"); }
void *p = ::malloc(1); int x = time_s + std::exit; [[gnu::destructor]] void fini(void) { }
EOF
cat >"$tmp/one.expected" <<'EOF'
3	include
4	library
11	constructor
12	environment
13	file
14	process
15	dynamic-loading
16	inline-assembly
17	stream-event
18	copy
19	synchronisation
20	memory
21	library
22	timing
23	inline-assembly
23	timing
24	environment
26	memory
26	process
26	constructor
EOF
"$review" --header labs/08-transpose/transpose.h "$tmp/one.cu" >"$tmp/one.out" 2>"$tmp/one.err"
rc=$?
cut -f 1,2 "$tmp/one.out" >"$tmp/one.got"
why=''
[ "$rc" = 0 ] || why="exit $rc, not 0"
[ -z "$why" ] && ! cmp -s "$tmp/one.expected" "$tmp/one.got" &&
    why="LINE<TAB>WHAT differs from the expected (< expected, > got): $(diff "$tmp/one.expected" "$tmp/one.got" | grep '^[<>]' | tr '\t\n' ' ;')"
result "one of each kind, on its line, none from comments or literals" "$why"

tab=$'\t'
line=$(grep "^11$tab" "$tmp/one.out")
result "a finding prints LINE, WHAT and the source line" \
    "$([ "$line" = "$(printf '11\tconstructor\t__attribute__((constructor)) static void init(void) { }')" ] || echo "got: $line")"

"$review" --header transpose.h --allow process,memory --allow cudaMemcpyAsync,unistd.h "$tmp/one.cu" |
    cut -f 1,2 >"$tmp/allow.got"
grep -v -E "$tab(process|memory)\$" "$tmp/one.expected" | grep -v -x -e "18${tab}copy" -e "3${tab}include" \
    >"$tmp/allow.expected"
result "--allow takes kinds, identifiers and headers, and may be given again" \
    "$(cmp -s "$tmp/allow.expected" "$tmp/allow.got" || diff "$tmp/allow.expected" "$tmp/allow.got" | grep '^[<>]' | tr '\t\n' ' ;')"

why="line 1 not reported"
"$review" "$tmp/one.cu" | cut -f 1,2 | grep -q -x "1${tab}include" && why=''
result "without --header the lab's header is an include to review" "$why"

{ printf 'int x = 1; /* %s */ int y = fork();\n' "$(printf 'é%.0s' $(seq 80))"; } >"$tmp/long.cu"
out=$("$review" "$tmp/long.cu" | cut -f 3)
result "the source line is trimmed to 120 bytes, between characters" \
    "$([ "${#out}" -le 120 ] && printf '%s' "$out" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 || echo "got ${#out} characters: $out")"

"$review" "$tmp/no-such-file.cu" >/dev/null 2>&1
rc=$?
result "an unreadable file exits 2" "$([ $rc = 2 ] || echo "exit $rc")"

# the kit's own files: nothing to review, with each lab's allow list
for f in solutions/*/*.cu labs/*/*.cu; do
    [ -f "$f" ] || continue # the student release has no solutions/
    lab=$(basename "$(dirname "$f")")
    name=$(basename "$f" .cu)
    [ "$name" = baselines ] && continue # the kit's given code, never a student's file
    allow=$(printf '%s\n' "$ALLOW" | awk -F '\t' -v l="$lab" '$1 == l { print $2 }')
    out=$("$review" --header "$name.h" ${allow:+--allow "$allow"} "$f")
    rc=$?
    result "$f: nothing to review${allow:+ (allowed: $allow)}" \
        "$([ $rc = 0 ] || echo "exit $rc"; [ -z "$out" ] || printf '%s\n' "$out" | head -n 5 | tr '\t\n' ' ;')"
done

echo "review: $passed passed, $failed failed"
[ "$failed" = 0 ]
