# markdown.awk: a Markdown file of the kit as the student release shows it
# (tools/release). Three kinds of marker, all HTML comments on lines of their
# own, so that GitHub and Marp show nothing of them in the kit:
#
#   <!-- instructor -->           everything from this line to the closing one is
#   ...                           left out of the release (a README section on
#   <!-- /instructor -->          grading, a handout's calibration, a slide for
#                                 instructors)
#
#   <!-- student                  the lines between, a comment in the kit, are
#   ...                           shown in the release, the marker lines left
#   -->                           out: the student's version of what an
#                                 instructor region says for the kit (README's
#                                 set-up); they hold no "--" and no marker
#
#   <!-- solution: task 1, lines 2-3 -->
#   <!-- solution: tasks 1 2, lines 1-15 -->
#   ```cuda                       right before a fenced code block (more than one
#   ...                           may stand there): lines A to B of the block
#   ```                           (1 = the line after the opening fence) become
#                                 "// TODO(n): your work (README.md, task n)",
#                                 one line per task, indented like line A
#
# Run as: awk [-v stats=FILE] -f markdown.awk FILE > OUT. Exits 1 naming FILE:LINE for a
# marker it cannot apply (unclosed, misplaced, misspelt, a range outside its
# block or overlapping another, a region inside another); the release is then
# not written.

function fail(line, msg) {
    printf "%s:%d: %s\n", FILENAME, line, msg > "/dev/stderr"
    failed = 1
    exit 1
}

# blank lines outside code are held back, so that a left-out region does not
# leave the blank lines of both its sides
function emit(s) {
    if (s ~ /^[ \t]*$/ && !in_fence) {
        held++
        return
    }
    if (held > 0) {
        n = joined && held > 1 ? 1 : held
        for (k = 0; k < n; k++)
            print ""
    }
    held = 0
    joined = 0
    print s
}

function fence_open(s) {
    if (match(s, /^[ \t]*(```+|~~~+)/)) {
        fence_mark = substr(s, RSTART, RLENGTH)
        sub(/^[ \t]*/, "", fence_mark)
        fence_lang = substr(s, RSTART + RLENGTH)
        sub(/^[ \t]*/, "", fence_lang)
        sub(/[ \t].*$/, "", fence_lang)
        return 1
    }
    return 0
}

function fence_close(s, t) {
    t = s
    sub(/^[ \t]*/, "", t)
    sub(/[ \t]*$/, "", t)
    return substr(t, 1, length(fence_mark)) == fence_mark && t ~ /^(`+|~+)$/
}

# the block held in block[1..nblock], with the ranges of the markers before it
function flush_block(i, j, r, c, lead, ntasks, tasks, lang) {
    for (i = 1; i <= nblock; i++)
        covered[i] = 0
    for (r = 1; r <= nranges; r++) {
        if (range_b[r] > nblock)
            fail(range_at[r], "the code block below has " nblock " lines, not " range_b[r])
        for (i = range_a[r]; i <= range_b[r]; i++) {
            if (covered[i])
                fail(range_at[r], "line " i " of the block is in two markers")
            covered[i] = r
        }
    }
    lang = tolower(block_lang)
    c = lang ~ /^(sh|bash|shell|console|make|makefile|python|py)$/ ? "#" : "//"
    for (i = 1; i <= nblock; i++) {
        r = covered[i]
        if (!r) {
            emit(block[i])
            continue
        }
        if (i == range_a[r]) {
            lead = block[i]
            sub(/[^ \t].*$/, "", lead)
            ntasks = split(range_tasks[r], tasks, " ")
            for (j = 1; j <= ntasks; j++)
                emit(lead c " TODO(" tasks[j] "): your work (README.md, task " tasks[j] ")")
            cut_lines += range_b[r] - range_a[r] + 1
        }
    }
    nblock = 0
    nranges = 0
}

BEGIN {
    in_fence = 0; in_region = 0; nranges = 0; nblock = 0; holding = 0
    held = 0; joined = 0; regions = 0; blocks = 0; cut_lines = 0; failed = 0
    in_student = 0; students = 0
}

{
    line = $0
    sub(/\r$/, "", line)
    t = line
    sub(/^[ \t]*/, "", t)
    sub(/[ \t]*$/, "", t)
}

# inside a fenced block: markers are text there
in_fence {
    if (fence_close(line)) {
        if (holding) {
            flush_block()
            holding = 0
        }
        in_fence = 0
        if (!in_region)
            emit(line)
    } else if (holding) {
        block[++nblock] = line
    } else if (!in_region) {
        emit(line)
    }
    next
}

# a student region: its lines as they are (a fence inside it is followed as anywhere)
in_student && t == "-->" {
    in_student = 0
    students++
    joined = 1
    next
}

in_student && (t ~ /^<!--/ || index(t, "--")) {
    fail(NR, "inside <!-- student (opened at line " student_at "): no marker and no -- before its closing -->")
}

t == "<!-- student" {
    if (in_region)
        fail(NR, "<!-- student inside the instructor region opened at line " region_at)
    if (in_student)
        fail(NR, "<!-- student inside the student region opened at line " student_at)
    if (nranges)
        fail(range_at[nranges], "a solution marker must stand right before a code block")
    in_student = 1
    student_at = NR
    next
}

t ~ /^<!--[ \t]*student/ {
    fail(NR, "a misspelt marker: write <!-- student on a line of its own, and --> to close it")
}

t == "<!-- instructor -->" {
    if (in_student)
        fail(NR, "<!-- instructor --> inside the student region opened at line " student_at)
    if (in_region)
        fail(NR, "<!-- instructor --> inside the region opened at line " region_at)
    if (nranges)
        fail(range_at[nranges], "a solution marker must stand right before a code block")
    in_region = 1
    region_at = NR
    next
}

t == "<!-- /instructor -->" {
    if (!in_region)
        fail(NR, "<!-- /instructor --> without <!-- instructor --> before it")
    in_region = 0
    regions++
    joined = 1
    next
}

t ~ /^<!--[ \t]*\/?[ \t]*instructor/ {
    fail(NR, "a misspelt marker: write <!-- instructor --> or <!-- /instructor -->")
}

in_region {
    if (fence_open(line))
        in_fence = 1
    next
}

t ~ /^<!--[ \t]*solution/ {
    if (!match(t, /^<!-- solution: tasks? [0-9]+( [0-9]+)*, lines? [0-9]+(-[0-9]+)? -->$/))
        fail(NR, "a misspelt marker: write <!-- solution: task N, lines A-B --> (or task N, line A; tasks N M)")
    spec = t
    sub(/^<!-- solution: tasks? /, "", spec)
    sub(/ -->$/, "", spec)
    split(spec, parts, /, lines? /)
    nranges++
    range_tasks[nranges] = parts[1]
    range_at[nranges] = NR
    if (split(parts[2], ab, "-") == 2) {
        range_a[nranges] = ab[1] + 0
        range_b[nranges] = ab[2] + 0
    } else {
        range_a[nranges] = range_b[nranges] = parts[2] + 0
    }
    if (range_a[nranges] < 1 || range_b[nranges] < range_a[nranges])
        fail(NR, "lines " parts[2] ": not a range of the block's lines (the first is 1)")
    next
}

{
    if (fence_open(line)) {
        in_fence = 1
        if (nranges) {
            holding = 1
            block_lang = fence_lang
            blocks++
        }
        emit(line)
        next
    }
    if (nranges)
        fail(range_at[nranges], "a solution marker must stand right before a code block")
    emit(line)
}

END {
    if (failed)
        exit 1
    if (in_region)
        fail(region_at, "<!-- instructor --> is never closed")
    if (in_student)
        fail(student_at, "<!-- student is never closed (a line --> closes it)")
    if (nranges)
        fail(range_at[nranges], "a solution marker must stand right before a code block")
    if (in_fence && holding)
        fail(NR, "the code block after a solution marker is never closed")
    # blank lines held at the end of the file are dropped; the counts go to
    # -v stats=FILE: regions left out, code blocks cut, lines cut, student regions shown
    if (stats != "")
        printf "%d %d %d %d\n", regions, blocks, cut_lines, students > stats
}
