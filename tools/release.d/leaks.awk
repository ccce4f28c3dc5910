# leaks.awk: the lines of the references that a release's Markdown still shows
# (tools/release). A line of solutions/*/*.cu counts when, comments and
# spacing aside, it is 12 characters or more and no file of code the student
# gets (labs/*/*.c, .cu, .h and common/) holds it, in its code or as a line of
# a comment: the student's work, not given code. Each such line found in a checked file is printed as
# FILE:LINE: TEXT (REFERENCE), paths without the prefixes `root` and `kit`;
# exits 1 when there is one.
#
#   awk -v root=DIR/ -v kit=KIT/ -f leaks.awk mode=given FILES... mode=solution FILES... mode=check FILES...
#
# Files are named by absolute paths (an operand with = in it would be an
# assignment). A safety net for the slide markers: it finds copies, not
# paraphrases.

# the code of a line, without its comments, in one spacing; a /* comment
# runs on across the lines of a C file, but never across those of Markdown
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

FNR == 1 { in_comment = 0 }

# given code, and the code a comment of it hands out ("*     extern __shared__
# unsigned hist[];" in a TODO): the student has that line already
mode == "given" {
    given[code($0)] = 1
    t = $0
    if (sub(/^[ \t]*(\/\*+|\*+|\/\/+)/, "", t)) {
        saved = in_comment
        in_comment = 0
        given[code(t)] = 1
        in_comment = saved
    }
    next
}

mode == "solution" {
    c = code($0)
    if (length(c) >= 12 && !(c in given) && !(c in solution))
        solution[c] = FILENAME
    next
}

mode == "check" {
    c = code($0)
    in_comment = 0
    if (c in solution) {
        name = FILENAME
        if (root != "" && index(name, root) == 1)
            name = substr(name, length(root) + 1)
        ref = solution[c]
        if (kit != "" && index(ref, kit) == 1)
            ref = substr(ref, length(kit) + 1)
        printf "%s:%d: %s   (%s)\n", name, FNR, $0, ref
        found++
    }
}

END { exit found > 0 }
