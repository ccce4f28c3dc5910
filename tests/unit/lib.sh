# lib.sh: what the kit's shell unit tests share (tests/unit/*_test.sh source it from the kit's
# root): the counts their checks add to, and result, one check's line.
passed=0 failed=0

result() { # NAME WHY-IT-FAILED (empty: passed)
    if [ -z "$2" ]; then echo "PASS $1"; passed=$((passed + 1)); else
        echo "FAIL $1: $2"; failed=$((failed + 1)); fi
}
