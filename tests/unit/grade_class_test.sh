#!/usr/bin/env bash
# grade_class_test.sh: tools/grade-class (make grade CLASS=dir), without a GPU.
# A fake class from the kit's own files, graded on labs 08 and 07 only:
#   "Ana María"          labs/08-transpose/transpose.cu (the reference): 07 missing
#   "O'Brien, Pat"       a flat folder: transpose.cu (the starting file), named as Moodle
#                        names it ("O'Brien, Pat_1234_assignsubmission_file_")
#   "-x"                 my work/src/transpose.cu (the reference), and a starting file
#                        under solutions/08-transpose/ that must not be the one taken
#   "élève 3"            two labs: 08-transpose/ and 07-vectorized-loads/ (the references)
#   'Zoë "syntax" Error' transpose.cu with a syntax error
#   "Empty Student"      nothing
# and a loose file beside them. Checks the gradebook's rows, the zeros of missing labs,
# the did-not-compile flag, the exit status (no GPU: the GPU tests are skipped, so 1:
# a file did not compile, labs are missing), points not run left empty (never 0), the
# feedback and results.json, resuming, a changed file graded again, a broken grading
# (exit 2), --single with FRESH=1, and the names of LMS exports (Moodle, Canvas,
# Blackboard, Brightspace), staged only.
# Needs the kit's toolchain (nvcc, Check); takes about 2 minutes on 2 cores.
set -u
cd "$(dirname "$0")/../.." || exit 2
# the fake class is made of the references: a student release has none
[ -d solutions ] || { echo "grade-class: skipped (no solutions/ here: the student release)"; exit 0; }
export LC_ALL=C

OUT=build/unit-grade-class OUT1=build/unit-grade-class-single OUT2=build/unit-grade-class-lms
tmp=$(mktemp -d "${TMPDIR:-/tmp}/grade-class-test.XXXXXX") || exit 2
cleanup() { rm -rf -- "$tmp" "$OUT" "$OUT1" "$OUT2" build/grade/build_unit-grade-class*; }
trap cleanup EXIT
[ -z "${KEEP:-}" ] || trap - EXIT
cleanup
mkdir -p "$tmp"
. tests/unit/lib.sh # passed, failed, result
expect() { # NAME COMMAND...: passes when the command succeeds
    local name=$1
    shift
    if "$@" >/dev/null 2>&1; then result "$name" ""; else result "$name" "not so: $*"; fi
}

# ---- the class ----
C=$tmp/class
P="O'Brien, Pat_1234_assignsubmission_file_"
mkdir -p "$C/Ana María/labs/08-transpose" "$C/$P" "$C/-x/my work/src" \
    "$C/-x/solutions/08-transpose" "$C/élève 3/08-transpose" "$C/élève 3/07-vectorized-loads" \
    "$C/Zoë \"syntax\" Error" "$C/Empty Student"
cp solutions/08-transpose/transpose.cu "$C/Ana María/labs/08-transpose/"
cp labs/08-transpose/transpose.cu "$C/$P/"
cp solutions/08-transpose/transpose.cu "$C/-x/my work/src/"
cp labs/08-transpose/transpose.cu "$C/-x/solutions/08-transpose/"
cp solutions/08-transpose/transpose.cu "$C/élève 3/08-transpose/"
cp solutions/07-vectorized-loads/vectorized_loads.cu "$C/élève 3/07-vectorized-loads/"
{ cat solutions/08-transpose/transpose.cu; echo 'this is not C;'; } >"$C/Zoë \"syntax\" Error/transpose.cu"
echo "not a student" >"$C/notes.txt"

# as `make grade CLASS=... LAB="08 07"` will call it
grade() { CLASS=$C LAB="08 07" CLASS_OUT=$OUT GPUS=none JOBS=2 tools/grade-class; }

# the gradebook's row of a student, as fields (a CSV reader for quoted fields)
row() { # NAME -> the row's fields, one a line
    awk -v who="$1" '
        function parse(line,   n, c, i, f, inq) {
            n = 0; f = ""; inq = 0
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (inq) {
                    if (c == "\"" && substr(line, i + 1, 1) == "\"") { f = f c; i++ }
                    else if (c == "\"") inq = 0
                    else f = f c
                } else if (c == "\"") inq = 1
                else if (c == ",") { F[++n] = f; f = "" }
                else f = f c
            }
            F[++n] = f
            return n
        }
        NR == 1 { nh = parse($0); for (i = 1; i <= nh; i++) H[i] = F[i]; next }
        { n = parse($0); if (F[1] == who) { for (i = 1; i <= n; i++) print H[i] "=" F[i]; found = 1 } }
        END { exit !found }' "$OUT/gradebook.csv"
}
field() { row "$1" | sed -n "s/^$2=//p" | head -n 1; } # NAME HEADER-PREFIX (a sed pattern)

# ---- the first run ----
t0=$(date +%s)
grade >"$tmp/run1.log" 2>&1
rc=$?
result "a class with a file that does not compile and missing labs: exit 1" \
    "$([ $rc -eq 1 ] || { echo "exit $rc"; tail -n 20 "$tmp/run1.log"; })"
result "a gradebook with a header and one row per student" \
    "$([ -f "$OUT/gradebook.csv" ] && [ "$(wc -l <"$OUT/gradebook.csv")" -eq 7 ] || cat "$OUT/gradebook.csv" 2>&1)"
for who in "Ana María" "O'Brien, Pat" "'-x" "élève 3" "Zoë \"syntax\" Error" "Empty Student"; do
    expect "the gradebook has a row for $who" row "$who"
done
expect "the loose file is not a student" grep -q "ignored: notes.txt" "$tmp/run1.log"
expect "names are quoted in the CSV" grep -q '^"Zoë ""syntax"" Error",' "$OUT/gradebook.csv"
expect "a name with a comma keeps its comma" grep -q "^\"O'Brien, Pat\"," "$OUT/gradebook.csv"
result "a Moodle folder: the student's name, and the folder's beside it" \
    "$(v=$(field "O'Brien, Pat" 'folder'); [ "$v" = "$P" ] || echo "folder = '$v'")"
pat=$(awk -F'\t' '$2 == "O'"'"'Brien, Pat" { print $1 }' "$OUT/students.tsv")
expect "the feedback is addressed to the student's name, not the folder's" \
    grep -qx "Your gpulabs grade, O'Brien, Pat" "$OUT/$pat/feedback.txt"
expect "a name a spreadsheet would read as a formula is quoted with '" grep -q "^\"'-x\"," "$OUT/gradebook.csv"
result "staged folders have safe names" \
    "$(cut -f1 "$OUT/students.tsv" | grep -v '^[a-z0-9][a-z0-9._-]*-[0-9a-f]\{8\}$')"
expect "the staged layout is NN-slug/slug.cu" \
    test -f "$OUT/$(awk -F'\t' '$2 == "-x" { print $1 }' "$OUT/students.tsv")/08-transpose/transpose.cu"

# missing labs count 0 and say so
result "Ana María: 07 missing counts 0" \
    "$(v=$(field "Ana María" '07-vectorized-loads ([0-9]*)'); [ "$v" = 0 ] || echo "07 = '$v'")"
expect "Ana María: flagged missing 07" sh -c "grep -F 'Ana María' '$OUT/gradebook.csv' | grep -q 'missing: 07-vectorized-loads'"
result "Empty Student: both labs 0, total 0" \
    "$(a=$(field "Empty Student" '07-vectorized-loads ([0-9]*)'); b=$(field "Empty Student" '08-transpose ([0-9]*)')
       t=$(field "Empty Student" 'total ([0-9]*)'); [ "$a/$b/$t" = 0/0/0 ] || echo "$a/$b/$t")"
expect "Empty Student: flagged missing both" sh -c "grep -F 'Empty Student' '$OUT/gradebook.csv' | grep 'missing: 07-vectorized-loads' | grep -q 'missing: 08-transpose'"
ana=$(awk -F'\t' '$2 == "Ana Mar\303\255a" { print $1 }' "$OUT/students.tsv")
expect "Ana María's feedback says 07 is missing" grep -q "We found no vectorized_loads.cu" "$OUT/$ana/feedback.txt"
expect "Ana María's feedback is addressed to her" grep -q "Ana María" "$OUT/$ana/feedback.txt"
expect "Ana María's results.json lists the missing lab" grep -q '"07-vectorized-loads: no vectorized_loads.cu in the submission"' "$OUT/$ana/results.json"

# did not compile
zoe=$(awk -F'\t' 'index($2, "syntax") { print $1 }' "$OUT/students.tsv")
expect "Zoë: flagged did not compile" sh -c "grep -F 'syntax' '$OUT/gradebook.csv' | grep -q 'did not compile: 08-transpose'"
expect "Zoë's feedback quotes the compiler" grep -q "| .*error" "$OUT/$zoe/feedback.txt"
expect "Zoë's results.json holds the compiler's messages" grep -q 'The compiler said' "$OUT/$zoe/results.json"

# where files are taken from
x=$(awk -F'\t' '$2 == "-x" { print $1 }' "$OUT/students.tsv")
expect "-x: the file outside solutions/ is the one graded" cmp -s "$OUT/$x/08-transpose/transpose.cu" solutions/08-transpose/transpose.cu
expect "-x: flagged several files" sh -c "grep -q 'several files: 08-transpose (took my work/src/transpose.cu)' '$OUT/gradebook.csv'"
result "élève 3: both labs graded" \
    "$(grep -c found "$OUT/$(awk -F'\t' 'index($2, "l\303\250ve") { print $1 }' "$OUT/students.tsv")/found.tsv" | grep -qx 2 || echo 'not 2 labs found')"

# no GPU: the GPU tests are skipped, and said so
result "without a GPU: points not run are counted apart" \
    "$(v=$(field "élève 3" 'not run'); [ "${v:-0}" -gt 0 ] || echo "not run = '$v'")"
result "without a GPU: the total and the cells of tests not run are empty, never 0" \
    "$(t=$(field "élève 3" 'total ([0-9]*)'); c=$(field "élève 3" '08-transpose correctness ([0-9]*)')
       l=$(field "élève 3" '08-transpose ([0-9]*)'); [ "$t/$c/$l" = "//" ] || echo "total/correctness/lab = $t/$c/$l")"
result "without a GPU: the points of the tests that ran have a column of their own" \
    "$(v=$(field "élève 3" 'points of tests run'); [ "$v" = 0 ] || echo "points of tests run = '$v'")"
eleve=$(awk -F'\t' 'index($2, "l\303\250ve") { print $1 }' "$OUT/students.tsv")
expect "without a GPU: the feedback says the grade is not final, and what to run where" \
    sh -c "grep -q 'Tests not run are not zeros' '$OUT/$eleve/feedback.txt' && grep -q 'make check LAB=\"08 07\" KIND=technique\|make check LAB=\"07 08\" KIND=technique' '$OUT/$eleve/feedback.txt'"
expect "the time per submission is reported" grep -q "== Time per submission ==" "$tmp/run1.log"
expect "every student has results.json and feedback.txt" sh -c "for d in '$OUT'/*/; do [ -f \"\$d/results.json\" ] && [ -f \"\$d/feedback.txt\" ] || exit 1; done"
if command -v python3 >/dev/null; then
    result "every results.json is valid JSON" \
        "$(for f in "$OUT"/*/results.json; do python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f" 2>&1 | tail -n 1; done)"
fi
t1=$(date +%s)

# ---- resume: nothing changed, nothing graded again ----
cp "$OUT/gradebook.csv" "$tmp/book1.csv"
grade >"$tmp/run2.log" 2>&1
rc=$?
result "a rerun resumes: nothing graded again, the same exit status" \
    "$([ $rc -eq 1 ] && grep -q '6 already graded' "$tmp/run2.log" && grep -q '  0 to grade' "$tmp/run2.log" || { echo "exit $rc"; head -n 12 "$tmp/run2.log"; })"
result "a rerun writes the same gradebook" "$(diff "$tmp/book1.csv" "$OUT/gradebook.csv")"

# a changed file is graded again; so is a student whose grading did not finish
{ cat solutions/08-transpose/transpose.cu; } >"$C/Zoë \"syntax\" Error/transpose.cu"
empty=$(awk -F'\t' '$2 == "Empty Student" { print $1 }' "$OUT/students.tsv")
rm -f "$OUT/$empty/.graded" # as if the run had stopped before it finished that student
grade >"$tmp/run3.log" 2>&1
rc=$?
result "a changed file and an unfinished student are graded again, the others kept" \
    "$(grep -q '4 already graded' "$tmp/run3.log" && grep -q '  2 to grade' "$tmp/run3.log" || head -n 12 "$tmp/run3.log")"
result "Zoë's fixed file compiles now" \
    "$(grep -F 'syntax' "$OUT/gradebook.csv" | grep 'did not compile' || true)"
result "still exit 1 (missing labs)" "$([ $rc -eq 1 ] || echo "exit $rc")"

# ---- a grading that broke: a results file cut short -> exit 2, and that student graded again ----
res=build/grade/${OUT//\//_}_$ana/08-transpose.results
cp "$res" "$tmp/full"
head -n 12 "$res" >"$tmp/cut" && cp "$tmp/cut" "$res"
CLASS_OUT=$OUT tools/grade-class --gather >"$tmp/gather.log" 2>&1
rc=$?
result "--gather: a results file cut short is a grading that broke: exit 2" \
    "$([ $rc -eq 2 ] || { echo "exit $rc"; tail -n 5 "$tmp/gather.log"; })"
expect "--gather: flagged grading broke" sh -c "grep -F 'Ana María' '$OUT/gradebook.csv' | grep -q 'grading broke: 08-transpose'"
expect "--gather: her cells of lab 08 are empty, not 0" sh -c "grep -F 'Ana María' '$OUT/gradebook.csv' | grep -q ',,,,,'"
# a test NOT RUN (the grader's own failure, GRADING.md rule 11) is a grading that broke too
cp "$tmp/cut" "$res" && sed -n '13,$p' "$tmp/full" >>"$res"
sed -i '0,/\tskip\t/s/\tskip\t/\tnotrun\t/' "$res"
CLASS_OUT=$OUT tools/grade-class --gather >"$tmp/gather2.log" 2>&1
rc=$?
result "--gather: a test NOT RUN is a grading that broke: exit 2" \
    "$([ $rc -eq 2 ] || { echo "exit $rc"; tail -n 5 "$tmp/gather2.log"; })"
expect "--gather: flagged, with the test NOT RUN" sh -c "grep -F 'Ana María' '$OUT/gradebook.csv' | grep -q 'NOT RUN'"

# ---- one submission alone (Gradescope, GitHub Classroom): exit 0; resumed; FRESH=1 ----
single() { LAB=08 GPUS=none JOBS=2 tools/grade-class --single "$C/$who" --out "$OUT1"; }
who="Ana María" single >"$tmp/single1.log" 2>&1
rc=$?
result "--single: the reference solution, no GPU: exit 0" "$([ $rc -eq 0 ] || { echo "exit $rc"; tail -n 8 "$tmp/single1.log"; })"
expect "--single: results.json in Gradescope's format" grep -q '"tests": \[' "$OUT1/submission/results.json"
who="Empty Student" single >"$tmp/single2.log" 2>&1 # (nothing to compile: quick)
rc=$?
result "--single: an empty submission: exit 1, graded" "$([ $rc -eq 1 ] && grep -q '  1 to grade' "$tmp/single2.log" || { echo "exit $rc"; head "$tmp/single2.log"; })"
who="Empty Student" FRESH='' single >"$tmp/single3.log" 2>&1
expect "--single: a rerun resumes" grep -q '1 already graded' "$tmp/single3.log"
who="Empty Student" FRESH=1 single >"$tmp/single4.log" 2>&1
rc=$?
result "--single with FRESH=1: graded again" \
    "$([ $rc -eq 1 ] && grep -q 'FRESH=1: forgetting' "$tmp/single4.log" && grep -q '  1 to grade' "$tmp/single4.log" || { echo "exit $rc"; head "$tmp/single4.log"; })"

# ---- the names of LMS exports (staged only: no compile) ----
L=$tmp/lms
mkdir -p "$L/12345-67890 - Li Wei - Nov 25, 2026 105 PM"
cp solutions/08-transpose/transpose.cu "$L/12345-67890 - Li Wei - Nov 25, 2026 105 PM/"
cp solutions/08-transpose/transpose.cu "$L/Ana Pérez_777_assignsubmission_file_transpose.cu"
cp solutions/08-transpose/transpose.cu "$L/oconnorsiobhan_late_45678_991122_transpose-1.cu"
cp solutions/08-transpose/transpose.cu "$L/HW3_jdoe_attempt_2026-11-20-10-00-00_transpose.cu"
printf 'Name: Jane Doe (jdoe)\r\nAssignment: HW3\r\n' >"$L/HW3_jdoe_attempt_2026-11-20-10-00-00.txt"
echo 'an earlier attempt' >"$L/HW3_jdoe_attempt_2026-11-19-10-00-00_transpose.cu"

n=$(LAB=08 tools/grade-class --stage "$L" --out "$OUT2" 2>"$tmp/lms.log")
result "an LMS export: one student per person, loose files grouped" "$([ "$n" = 4 ] || { echo "$n students"; cat "$tmp/lms.log"; })"
for pair in "Li Wei|12345-67890 - Li Wei - Nov 25, 2026 105 PM" "Ana Pérez|Ana Pérez_777_assignsubmission_file_" \
    "oconnorsiobhan|oconnorsiobhan_45678" "Jane Doe|jdoe"; do
    expect "an LMS export: ${pair%%|*} (from ${pair#*|})" grep -q -F "$(printf '\t%s\t%s' "${pair%%|*}" "${pair#*|}")" "$OUT2/students.tsv"
done
jd=$(awk -F'\t' '$3 == "jdoe" { print $1 }' "$OUT2/students.tsv")
expect "Blackboard: the last attempt is the one staged" cmp -s "$OUT2/$jd/08-transpose/transpose.cu" solutions/08-transpose/transpose.cu
oc=$(awk -F'\t' '$3 == "oconnorsiobhan_45678" { print $1 }' "$OUT2/students.tsv")
expect "Canvas: a second upload (transpose-1.cu) is the lab's file" test -f "$OUT2/$oc/08-transpose/transpose.cu"
rm -rf -- "$OUT2"

echo "grade-class: $passed passed, $failed failed (the first run took $((t1 - t0)) s, all $(($(date +%s) - t0)) s)"
[ $failed -eq 0 ]
