# leaks.awk: the answers that a student release would hand out (tools/release). It
# compares every reference (solutions/NN-slug/*.cu) with every file of the release.
#
# The answer of lab L is what its reference holds beyond the code the lab gives the
# student to start from. That given code is: the starting file labs/L/SLUG.cu (its code,
# and code written in its comments: a TODO that spells a line out gives it), the lab's
# headers labs/L/*.h, its handout labs/L/README.md (its code blocks are the lesson),
# common/, and a function of the lab's other files (baselines.cu, lab.c, demo.c) that the
# starting file names in a comment (a TODO that says "copy tile_gram_kernel from
# baselines.cu" gives that kernel). Nothing else is given: a given kernel of baselines.cu
# that the starting file does not name, another lab's files, the slides, tests/ and tools/
# are all checked. Two comparisons:
#
#   lines    an answer line: a line of the reference that, comments and spacing aside, is
#            12 characters or more and is not given code of its lab, nor of any other lab
#            (a line that some lab gives is commonplace: `if (i < n) {`), nor spelt out
#            in a given line (the statement of `int col = ...;` inside a TODO's comment),
#            nor plain (a variable set to a number or another variable, or returned:
#            `int seen = 0;`). Found in a file of the release, it is printed.
#   kernels  a function of a release file (in Markdown, a fenced code block; in a file that
#            is not C, CUDA or Markdown, the whole file) that holds 60% or more, and at
#            least 4, of the lines that a function of a reference adds to what its lab
#            gives, each line compared with its names set aside (every identifier but
#            C's and CUDA's own reads as one word): the same kernel with other names.
#
# Each finding is printed as FILE:LINE: TEXT   (REFERENCE), paths without the prefixes
# `root` (the release) and `kit`; exits 1 when there is one. The last line of the output
# counts what was compared (also when nothing was found).
#
#   awk -v root=REL/ -v kit=KIT/ -f leaks.awk \
#       lab=L mode=start FILE mode=given FILES... mode=named FILES... [lab=M ...] \
#       lab= mode=given COMMON_FILES... mode=solution SOLUTION_FILES... mode=check FILES...
#
# Files are named by absolute paths (an operand with = in it would be an assignment);
# a solution's lab is the name of its folder. Every lab's files come before the solutions,
# the solutions before the files checked.

BEGIN {
    # C's and CUDA's own words: kept when lines are compared with their names set aside
    n = split("auto break case char const continue default do double else enum extern float " \
              "for goto if inline int long register restrict return short signed sizeof " \
              "static struct switch typedef union unsigned void volatile while bool true false " \
              "size_t threadIdx blockIdx blockDim gridDim warpSize dim3 float2 float4 int2 " \
              "int4 uint2 uint4 double2 pragma unroll define include template typename " \
              "namespace cg sizeof", w, " ")
    for (i = 1; i <= n; i++)
        OWN[w[i]] = 1
    nans = 0; nkern = 0; found = 0; nchecked = 0; nunits = 0
}

# ---- reading code ----

# the code of a line, without its comments, in one spacing; a /* comment runs on
# across the lines of a file (in_comment is reset for each file)
function code(s,    out, p1, p2, p) {
    out = ""
    while (s != "") {
        if (in_comment) {
            p = index(s, "*/")
            if (!p)
                break
            s = substr(s, p + 2)
            in_comment = 0
            continue
        }
        p1 = index(s, "/*")
        p2 = index(s, "//")
        if (p2 && (!p1 || p2 < p1)) {
            out = out substr(s, 1, p2 - 1)
            break
        }
        if (p1) {
            out = out substr(s, 1, p1 - 1) " "
            s = substr(s, p1 + 2)
            in_comment = 1
            continue
        }
        out = out s
        s = ""
    }
    gsub(/[ \t\r]+/, " ", out)
    sub(/^ /, "", out)
    sub(/ $/, "", out)
    return out
}

# the code a comment line spells out ("*     extern __shared__ unsigned hist[];"), or ""
function comment_code(s,    t, saved, c) {
    t = s
    if (!sub(/^[ \t]*(\/\*+|\*+|\/\/+)/, "", t))
        return ""
    saved = in_comment
    in_comment = 0
    c = code(t)
    in_comment = saved
    return c
}

# a line of code with its names set aside: every identifier that is not C's or CUDA's
# own (nor a member after a dot: .x) reads ID; numbers, operators and __builtins stay
function shape(c,    out, tok, prev) {
    out = ""
    prev = ""
    while (c != "") {
        if (match(c, /^[A-Za-z_][A-Za-z_0-9]*/)) {
            tok = substr(c, 1, RLENGTH)
            if (!(tok in OWN) && prev != "." && substr(tok, 1, 2) != "__" && substr(tok, 1, 6) != "atomic")
                tok = "ID"
        } else if (match(c, /^[0-9][A-Za-z_0-9.]*/)) {
            tok = substr(c, 1, RLENGTH)
        } else if (match(c, /^ +/)) {
            c = substr(c, RLENGTH + 1)
            continue
        } else {
            tok = substr(c, 1, 1)
            RLENGTH = 1
        }
        out = out (out == "" || tok ~ /^[^A-Za-z_0-9]/ || prev ~ /^[^A-Za-z_0-9]/ ? "" : " ") tok
        prev = tok
        c = substr(c, RLENGTH + 1)
    }
    return out
}

# a function starts at a line in column 0 with a ( that does not end in ; and ends at
# the next } in column 0; its name is the word before the first (
function fn_start(s,    t) {
    if (s !~ /^[A-Za-z_]/ || s !~ /\(/ || s ~ /;[ \t]*$/ || s ~ /^(typedef|struct|enum|union)[ \t]/)
        return ""
    t = substr(s, 1, index(s, "(") - 1)
    sub(/[ \t]+$/, "", t)
    if (!match(t, /[A-Za-z_][A-Za-z_0-9]*$/))
        return ""
    return substr(t, RSTART, RLENGTH)
}

# follows the functions of a file, a line at a time: "start" (its name in fn_name), "end"
# (its closing line), "cancel" (it was a declaration over several lines), or ""
function fn_track(raw,    f) {
    if (fn == "") {
        f = fn_start(raw)
        if (f == "")
            return ""
        fn = f
        fn_name = f
        fn_open = raw ~ /\{/
        return "start"
    }
    if (!fn_open) {
        if (raw ~ /\{/)
            fn_open = 1
        else if (raw ~ /;[ \t]*$/) {
            fn = ""
            return "cancel"
        }
        return ""
    }
    if (raw ~ /^}/) {
        fn = ""
        return "end"
    }
    return ""
}

# a line that says nothing of a task: a variable set to a number or to another
# variable, or returned (`int seen = 0;`, `worst = distinct;`, `return worst;`)
function plain(c,    s) {
    s = shape(c)
    return s ~ /^([a-z_0-9]+ )*ID=([0-9][0-9.A-Za-z]*|ID);$/ || s ~ /^return ID;$/
}

function rel(name, prefix) {
    if (prefix != "" && index(name, prefix) == 1)
        return substr(name, length(prefix) + 1)
    return name
}

# a line given to lab l: as code, or its statement spelt out inside a given line
function given_to(l, c,    s, i) {
    if ((l SUBSEP c) in GIVEN || ("" SUBSEP c) in GIVEN)
        return 1
    s = c
    sub(/ ?[;{]$/, "", s)
    while (sub(/^(const|unsigned|int|float|double|size_t|long|short|char) /, "", s))
        ;
    if (length(s) < 8)
        return 0
    for (i = 1; i <= NG[l]; i++)
        if (index(GL[l, i], s))
            return 1
    for (i = 1; i <= NG[""]; i++)
        if (index(GL["", i], s))
            return 1
    return 0
}

function give(l, c, strict) {
    if (c == "" || (l SUBSEP c) in GIVEN)
        return
    GIVEN[l, c] = 1
    GL[l, ++NG[l]] = c
    COMMON[c] = 1
    if (strict)
        SHAPE_GIVEN[l, shape(c)] = 1
}

FNR == 1 {
    in_comment = 0
    fn = ""
    if (mode == "solution") {
        sl = FILENAME
        sub(/\/[^\/]*$/, "", sl)
        sub(/.*\//, "", sl)
    }
    if (mode == "check")
        check_begin()
}

# ---- what the lab gives ----

mode == "start" {
    give(lab, code($0), 1)
    c = comment_code($0)
    give(lab, c, 1)
    # the names in its comments: a function of the lab named there is given
    t = $0
    if (t ~ /^[ \t]*(\/\*|\*|\/\/)/)
        while (match(t, /[A-Za-z_][A-Za-z_0-9]*_[A-Za-z_0-9]*/)) {
            NAMED[lab, substr(t, RSTART, RLENGTH)] = 1
            t = substr(t, RSTART + RLENGTH)
        }
    next
}

mode == "given" {
    # the handout's code is the lesson: given for lines, not for the kernels' comparison
    give(lab, code($0), FILENAME !~ /README\.md$/)
    next
}

mode == "named" {
    c = code($0)
    e = fn_track($0)
    if (e == "start")
        nbody = 0
    if (fn != "" || e == "end")
        BODY[++nbody] = c
    if (e == "end" && (lab SUBSEP fn_name) in NAMED)
        for (i = 1; i <= nbody; i++)
            give(lab, BODY[i], 1)
    next
}

# ---- the references ----

mode == "solution" {
    c = code($0)
    if (length(c) >= 12 && !given_to(sl, c) && !(c in COMMON) && !(c in ANSWER) && !plain(c)) {
        ANSWER[c] = rel(FILENAME, kit)
        nans++
    }
    e = fn_track($0)
    if (e == "start") {
        nkern++
        KNAME[nkern] = fn_name
        KFROM[nkern] = rel(FILENAME, kit)
        KN[nkern] = 0
        split("", seen)
    } else if (e == "cancel") {
        nkern--
    }
    if (fn != "" || e == "end") {
        if (length(c) >= 12 && !given_to(sl, c)) {
            s = shape(c)
            if (!((sl SUBSEP s) in SHAPE_GIVEN) && !(s in seen)) {
                seen[s] = 1
                KL[nkern, ++KN[nkern]] = s
            }
        }
        if (e == "end" && KN[nkern] < 4) # too little of its own to tell a copy by its shape
            nkern--
    }
    next
}

# ---- the release's files ----

function check_begin() {
    unit_close() # the last one of the file before
    nchecked++
    file = rel(FILENAME, root)
    kind = file ~ /\.(c|cu|h|cuh)$/ ? "c" : file ~ /\.md$/ ? "md" : "other"
    unit = ""
    fence = 0
    if (kind == "other")
        unit_open("the file", 1)
}

function unit_open(name, line) {
    unit = name
    unit_at = line
    split("", U)
}

function unit_close(    k, j, hits) {
    if (unit == "")
        return
    nunits++
    for (k = 1; k <= nkern; k++) {
        hits = 0
        for (j = 1; j <= KN[k]; j++)
            if (KL[k, j] in U)
                hits++
        if (hits >= 4 && hits >= 0.6 * KN[k]) {
            printf "%s:%d: %s holds %d of the %d lines that %s adds to its lab's given code, names aside   (%s)\n",
                file, unit_at, unit, hits, KN[k], KNAME[k], KFROM[k]
            found++
        }
    }
    unit = ""
}

mode == "check" {
    raw = $0
    c = code(raw)
    if (kind == "md")
        in_comment = 0
    if (c in ANSWER) {
        printf "%s:%d: %s   (%s)\n", file, FNR, raw, ANSWER[c]
        found++
    }
    if (kind == "c") {
        e = fn_track(raw)
        if (e == "start")
            unit_open(fn_name, FNR)
        else if (e == "cancel")
            unit = ""
        else if (e == "end") {
            unit_close()
            next
        }
    } else if (kind == "md") {
        if (raw ~ /^[ \t]*(```|~~~)/) {
            if (unit == "")
                unit_open("the code block", FNR)
            else
                unit_close()
            next
        }
    }
    if (unit != "" && length(c) >= 12)
        U[shape(c)] = 1
    next
}

END {
    if (mode == "check")
        unit_close()
    printf "leaks: %d answer lines and %d kernels of the references, compared with %d files (%d functions and code blocks)\n",
        nans, nkern, nchecked, nunits
    exit found > 0
}
