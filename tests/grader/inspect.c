/* inspect.c: reading the PTX (entries, shared and constant arrays, instruction counts, a
 * taint from %tid.x), the ptxas report and Nsight Compute's CSV; the technique claims that fail
 * a test (gl_expect_barriers, gl_expect_shared_rw, ...). The last block's pattern, which
 * follows an entry's control flow: inspect_fence.c. */
#define _GNU_SOURCE
#include "inspect.h"

#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_ident(int c)
{
    return isalnum(c) || c == '_' || c == '$';
}

int gl_symbol_is(const char *symbol, size_t len, const char *kernel)
{
    size_t k = strlen(kernel), i;
    char needle[300];
    size_t nl;
    if (len == k && !strncmp(symbol, kernel, k))
        return 1; /* extern "C" */
    if (len < 2 || strncmp(symbol, "_Z", 2) != 0)
        return 0;
    /* Itanium mangling: the name appears as <length><name>, not preceded by a digit */
    nl = (size_t)snprintf(needle, sizeof needle, "%zu%s", k, kernel);
    for (i = 2; i + nl <= len; i++)
        if (!strncmp(symbol + i, needle, nl) && !isdigit((unsigned char)symbol[i - 1]))
            return 1;
    return 0;
}

int gl_ptx_entry_find(const char *ptx, const char *kernel, gl_ptx_entry *e)
{
    const char *p = ptx;
    while ((p = strstr(p, ".entry")) != NULL) {
        const char *name = p + 6, *end, *brace;
        int depth = 0;
        p += 6;
        while (*name == ' ' || *name == '\t')
            name++;
        end = name;
        while (is_ident((unsigned char)*end))
            end++;
        if (!gl_symbol_is(name, (size_t)(end - name), kernel))
            continue;
        brace = strchr(end, '{');
        if (!brace)
            return -1;
        /* the body runs to the matching brace */
        for (p = brace; *p; p++) {
            if (*p == '{')
                depth++;
            else if (*p == '}' && --depth == 0)
                break;
        }
        e->name = name;
        e->name_len = (size_t)(end - name);
        e->body = brace;
        e->body_len = (size_t)(p - brace) + (*p != '\0');
        return 0;
    }
    return -1;
}

/* Does [s, s+n) contain identifier `id` as a whole word? */
static int names(const char *s, size_t n, const char *id)
{
    size_t k = strlen(id), i;
    for (i = 0; i + k <= n; i++)
        if (!strncmp(s + i, id, k) && (i == 0 || !is_ident((unsigned char)s[i - 1])) &&
            (i + k == n || !is_ident((unsigned char)s[i + k])))
            return 1;
    return 0;
}

/* Parses "[.extern] .shared .align A .TYPE NAME[COUNT];" (or .const) from p (no COUNT for
 * extern, dynamic shared memory: bytes -1; no brackets for a scalar: its
 * size); returns 0 and fills sh. */
static int parse_shared(const char *p, gl_ptx_shared *sh)
{
    const char *q = p;
    long elem = 1;
    memset(sh, 0, sizeof *sh);
    sh->bytes = -1;
    while (*q && *q != ';' && *q != '\n') {
        while (*q == ' ' || *q == '\t')
            q++;
        if (!strncmp(q, ".align", 6)) {
            sh->align = (int)strtol(q + 6, (char **)&q, 10);
        } else if (*q == '.') { /* .extern, .shared, or a type such as .b8, .f32 */
            if (strchr("bfsu", q[1]) && isdigit((unsigned char)q[2]))
                elem = strtol(q + 2, NULL, 10) / 8;
            while (*q && *q != ' ' && *q != '\t' && *q != ';')
                q++;
        } else {
            const char *name = q;
            size_t n;
            while (is_ident((unsigned char)*q))
                q++;
            n = (size_t)(q - name);
            if (n == 0 || n >= sizeof sh->name)
                return -1;
            memcpy(sh->name, name, n);
            sh->name[n] = '\0';
            if (*q != '[') /* a scalar, such as a __shared__ int counter */
                sh->bytes = elem > 0 ? elem : 1;
            else if (q[1] != ']')
                sh->bytes = strtol(q + 1, NULL, 10) * (elem > 0 ? elem : 1);
            return 0;
        }
    }
    return -1;
}

int gl_ptx_shared_arrays(const char *ptx, const gl_ptx_entry *e, gl_ptx_shared *out, int max)
{
    const char *p = ptx;
    int n = 0;
    while ((p = strstr(p, ".shared")) != NULL && n < max) {
        const char *line = p;
        gl_ptx_shared sh;
        int inside = p >= e->body && p < e->body + e->body_len;
        /* a declaration starts its statement: ".shared .align" or ".extern .shared" */
        while (line > ptx && line[-1] != '\n' && line[-1] != ';' && line[-1] != '{')
            line--;
        while (*line == ' ' || *line == '\t')
            line++;
        p += 7;
        if (strncmp(line, ".shared", 7) != 0 && strncmp(line, ".extern", 7) != 0)
            continue; /* an instruction such as ld.shared, not a declaration */
        if (parse_shared(line, &sh) != 0)
            continue;
        if (inside || names(e->body, e->body_len, sh.name))
            out[n++] = sh;
    }
    return n;
}

int gl_ptx_count(const gl_ptx_entry *e, const char *opcode)
{
    size_t k = strlen(opcode), i;
    int n = 0;
    for (i = 0; i + k < e->body_len; i++) {
        const char *s = e->body + i;
        if (strncmp(s, opcode, k) != 0)
            continue;
        /* an instruction: preceded by whitespace (or a predicate "@%p1 "), followed by '.' or space */
        if (i > 0 && !isspace((unsigned char)s[-1]))
            continue;
        if (s[k] != '.' && s[k] != ' ' && s[k] != '\t' && s[k] != ';')
            continue;
        n++;
    }
    return n;
}

int gl_ptx_barriers(const gl_ptx_entry *e)
{
    /* __syncthreads() is bar.sync (barrier.sync in newer PTX); __syncthreads_count, _and and
     * _or are a barrier too (bar.red / barrier.red) */
    return gl_ptx_count(e, "bar.sync") + gl_ptx_count(e, "barrier.sync") +
           gl_ptx_count(e, "bar.red") + gl_ptx_count(e, "barrier.red");
}

int gl_ptx_count_with(const gl_ptx_entry *e, const char *opcode, const char *modifier)
{
    size_t k = strlen(opcode), m = strlen(modifier), i;
    int n = 0;
    for (i = 0; i + k < e->body_len; i++) {
        const char *s = e->body + i, *end;
        if (strncmp(s, opcode, k) != 0 || (i > 0 && !isspace((unsigned char)s[-1])))
            continue;
        if (s[k] != '.' && s[k] != ' ' && s[k] != '\t' && s[k] != ';')
            continue;
        /* the instruction's whole opcode, up to the first blank */
        for (end = s + k; end < e->body + e->body_len && !isspace((unsigned char)*end) && *end != ';';
             end++)
            ;
        for (s += k; s + m <= end; s++)
            if (!strncmp(s, modifier, m) && (s + m == end || s[m] == '.')) {
                n++;
                break;
            }
        i = (size_t)(end - e->body);
    }
    return n;
}

#define MAX_TAINT 512
#define MAX_OPERANDS 8

typedef struct {
    char name[MAX_TAINT][32];
    int n;
} reg_set;

static int in_set(const reg_set *t, const char *r)
{
    int i;
    if (!strcmp(r, "%tid.x"))
        return 1;
    for (i = 0; i < t->n; i++)
        if (!strcmp(t->name[i], r))
            return 1;
    return 0;
}

static int add_to_set(reg_set *t, const char *r)
{
    if (r[0] != '%' || in_set(t, r) || t->n == MAX_TAINT)
        return 0;
    snprintf(t->name[t->n++], sizeof t->name[0], "%s", r);
    return 1;
}

/* Splits "opcode a, b, c" (a statement without its ';') into the opcode and
 * its operands, stripping braces, brackets and a predicate guard. */
static int split_instruction(char *st, char **opcode, char **op, int max)
{
    char *p = st, *save = NULL, *tok;
    int n = 0;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '@') /* @%p1 or @!%p1 */
        while (*p && !isspace((unsigned char)*p))
            p++;
    while (isspace((unsigned char)*p))
        p++;
    *opcode = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    if (*p)
        *p++ = '\0';
    for (tok = strtok_r(p, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save)) {
        char *t = tok, *end;
        while (isspace((unsigned char)*t) || *t == '{' || *t == '[')
            t++;
        end = t + strlen(t);
        while (end > t && (isspace((unsigned char)end[-1]) || end[-1] == '}' || end[-1] == ']'))
            *--end = '\0';
        op[n++] = t;
    }
    return n;
}

int gl_ptx_scales_tid_x(const gl_ptx_entry *e, char *why, size_t len)
{
    static reg_set taint;
    char line[512];
    int pass, changed = 1;
    taint.n = 0;
    /* over the body until nothing changes (values carried around a loop) */
    for (pass = 0; pass < 4 && changed; pass++) {
        const char *p = e->body + 1, *stop = e->body + e->body_len;
        changed = 0;
        while (p < stop) {
            const char *eol = memchr(p, '\n', (size_t)(stop - p)), *t;
            char *opcode, *op[MAX_OPERANDS], *semi;
            size_t n = eol ? (size_t)(eol - p) : (size_t)(stop - p);
            int nops, i, src_tainted = 0;
            t = p;
            p += n + 1;
            while (n && isspace((unsigned char)*t))
                t++, n--;
            /* one instruction per line; skip directives (.loc, .reg), labels, braces */
            if (n == 0 || *t == '.' || *t == '/' || *t == '{' || *t == '}' || n >= sizeof line)
                continue;
            memcpy(line, t, n);
            line[n] = '\0';
            if (!(semi = strchr(line, ';')))
                continue;
            *semi = '\0';
            nops = split_instruction(line, &opcode, op, MAX_OPERANDS);
            /* addresses, not the values loaded from them, carry the index */
            if (nops < 2 || !strncmp(opcode, "st.", 3) || !strncmp(opcode, "ld.", 3) ||
                strstr(opcode, ".f32") || strstr(opcode, ".f64"))
                continue;
            for (i = 1; i < nops; i++)
                src_tainted |= in_set(&taint, op[i]);
            if (!src_tainted)
                continue;
            if ((!strncmp(opcode, "mul.", 4) || !strncmp(opcode, "mad.", 4)) && nops >= 3) {
                int a = in_set(&taint, op[1]), b = in_set(&taint, op[2]);
                if ((a && op[2][0] == '%' && !b) || (b && op[1][0] == '%' && !a)) {
                    snprintf(why, len, "%s %s, %s, %s", opcode, op[0], op[1], op[2]);
                    return 1;
                }
            }
            /* a warp's index (tid / 32 and more, a shift by 5 and more): the same in all 32
             * lanes, so a row picked by it is a warp-centric mapping, not a lane's stride */
            if (nops >= 3 && in_set(&taint, op[1]) && isdigit((unsigned char)op[2][0]) &&
                ((!strncmp(opcode, "shr.", 4) && strtol(op[2], NULL, 0) >= 5) ||
                 (!strncmp(opcode, "div.", 4) && strtol(op[2], NULL, 0) >= 32 &&
                  strtol(op[2], NULL, 0) % 32 == 0)))
                continue;
            changed |= add_to_set(&taint, op[0]);
        }
    }
    return 0;
}

static long number_before(const char *line, const char *word)
{
    const char *p = strstr(line, word);
    if (!p)
        return -1;
    while (p > line && p[-1] == ' ')
        p--;
    while (p > line && isdigit((unsigned char)p[-1]))
        p--;
    return strtol(p, NULL, 10);
}

int gl_ptxas_usage_of(const char *report, const char *kernel, gl_ptxas_usage *u)
{
    const char *p = report;
    memset(u, 0, sizeof *u);
    /* "Compiling entry function 'NAME' for 'sm_90'", then "Function properties
     * for NAME" with stack and spills, then "Used N registers, ..., B bytes smem" */
    while ((p = strstr(p, "Compiling entry function '")) != NULL) {
        const char *name = p + 26, *end = strchr(name, '\''), *next, *line;
        p = name;
        if (!end || !gl_symbol_is(name, (size_t)(end - name), kernel))
            continue;
        next = strstr(end, "Compiling entry function '");
        for (line = end; line && (!next || line < next); line = strchr(line + 1, '\n')) {
            char buf[512];
            const char *eol = strchr(line + 1, '\n');
            size_t n = eol ? (size_t)(eol - line) : strlen(line);
            if (n >= sizeof buf)
                n = sizeof buf - 1;
            memcpy(buf, line, n);
            buf[n] = '\0';
            if (strstr(buf, "bytes stack frame")) {
                u->stack_bytes = number_before(buf, "bytes stack frame");
                u->spill_stores = number_before(buf, "bytes spill stores");
                u->spill_loads = number_before(buf, "bytes spill loads");
            }
            if (strstr(buf, "Used ") && strstr(buf, "registers")) {
                long v;
                u->registers = (int)number_before(buf, "registers");
                v = number_before(buf, "bytes smem");
                u->smem_bytes = v > 0 ? v : 0;
                v = number_before(buf, "barriers");
                u->barriers = v > 0 ? (int)v : 0;
                return 0;
            }
        }
        return 0;
    }
    return -1;
}

long gl_tile_pitch(long elems, int rows, int modulus)
{
    long b, r, fallback = 0;
    /* buffers x rows x pitch: one or more buffers (double buffering), rows or rows + 1 of
     * them ([33][33] as well as [32][33]), a pitch from rows to twice as many */
    for (b = 1; b * rows * rows <= elems; b++)
        for (r = rows; r <= rows + 1; r++) {
            long p;
            if (elems % (b * r) != 0)
                continue;
            p = elems / (b * r);
            if (p < rows || p > 2L * rows)
                continue;
            if (p % modulus != 0)
                return p;
            fallback = p;
        }
    return fallback;
}

void gl_expect_barriers(const gl_ptx_entry *e, const char *kernel, int at_least, const char *why)
{
    int barriers = gl_ptx_barriers(e);
    if (barriers == 0 && at_least > 0)
        ck_abort_msg("%s has no __syncthreads() (no bar.sync in its PTX): %s", kernel, why);
    if (barriers < at_least)
        ck_abort_msg("%s has %d barrier%s (__syncthreads, bar.sync in its PTX): %s", kernel,
                     barriers, barriers == 1 ? "" : "s", why);
}

void gl_expect_shared_rw(const gl_ptx_entry *e, const char *kernel, const char *why)
{
    int stores = gl_ptx_count(e, "st.shared"), loads = gl_ptx_count(e, "ld.shared");
    if (stores == 0 || loads == 0)
        ck_abort_msg("%s does not both write and read shared memory (%d st.shared, %d ld.shared "
                     "in its PTX): %s",
                     kernel, stores, loads, why);
}

void gl_expect_tid_x_along_row(const gl_ptx_entry *e, const char *kernel, const char *apart)
{
    char why[256];
    if (!strstr(e->body, "%tid.x"))
        ck_abort_msg("%s does not use threadIdx.x: is it still a TODO?", kernel);
    if (gl_ptx_scales_tid_x(e, why, sizeof why))
        ck_abort_msg("in %s a value computed from threadIdx.x is multiplied by a run-time value "
                     "(%s): threadIdx.x picks the row, so %s. Let threadIdx.x pick the column: "
                     "col = blockIdx.x * blockDim.x + threadIdx.x",
                     kernel, why, apart);
}

void gl_expect_warp_reduction(const gl_ptx_entry *e, const char *kernel, const char *why)
{
    if (gl_ptx_count_with(e, "shfl", ".down") + gl_ptx_count_with(e, "shfl", ".bfly") +
            gl_ptx_count(e, "redux.sync") == 0)
        ck_abort_msg("%s has no shuffle (shfl.sync.down or .bfly, or redux.sync) in its PTX: %s",
                     kernel, why);
}

int gl_ptx_float_atomic_adds(const gl_ptx_entry *e)
{
    static const char *const adds[] = {".add.f32", ".add.f64", ".add.noftz.f16",
                                       ".add.noftz.f16x2", ".add.noftz.bf16", ".add.noftz.bf16x2"};
    int n = 0;
    for (size_t i = 0; i < sizeof adds / sizeof adds[0]; i++)
        n += gl_ptx_count_with(e, "atom", adds[i]) + gl_ptx_count_with(e, "red", adds[i]);
    return n;
}

int gl_ptx_names(const gl_ptx_entry *e, const char *id)
{
    return names(e->body, e->body_len, id);
}

long gl_ptx_const_bytes(const char *ptx, const char *symbol)
{
    const char *p = ptx;
    gl_ptx_shared array;
    while ((p = strstr(p, ".const")) != NULL) {
        const char *line = p;
        p += 6;
        /* a declaration is a statement of directives (".const .align 4 .b8 c[2048]", after
         * .visible or .extern), where an instruction (ld.const) starts with its opcode */
        while (line > ptx && line[-1] != '\n' && line[-1] != ';' && line[-1] != '{' &&
               line[-1] != '}')
            line--;
        while (*line == ' ' || *line == '\t')
            line++;
        if (*line == '.' && parse_shared(line, &array) == 0 && !strcmp(array.name, symbol))
            return array.bytes;
    }
    return -1;
}
