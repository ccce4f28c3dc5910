/* inspect_fence.c: the last block's pattern read from the PTX, once for every suite that
 * teaches it (labs 05 and 10). Each block stores its partial to global memory, fences
 * (__threadfence), then draws a ticket (atomicInc, or an integer atomicAdd); the block that
 * draws the last ticket adds the partials. This file finds those instructions and follows
 * the entry's control flow between them (labels, guarded branches, barriers). The verdict,
 * gl_expect_last_block, names what is out of place and ends with the lab's own sentence. */
#define _GNU_SOURCE
#include "inspect.h"

#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STATEMENTS 4096
#define MAX_REGS 256

enum { OTHER, LABEL, STORE, FENCE, BLOCK_FENCE, TICKET, BARRIER, BRANCH, END };

typedef struct {
    int kind;
    char text[128];  /* as written, guard included, words one space apart, no ';' */
    char guard[16];  /* @%p1, @!%p1 or "" */
    char opcode[64]; /* "" for a label */
    char label[64];  /* a label's name, a branch's target */
    char dst[32];    /* the register the first operand names: what it writes */
    char addr[32];   /* the register inside the first [...]: the address */
    int through;     /* the address derives from the partials parameter */
} statement;

/* An entry's statements, with scratch for the path searches: one slot each (4096 statements,
 * about 1.5 MiB: on the heap). */
typedef struct {
    statement st[MAX_STATEMENTS];
    int n;
    int stack[MAX_STATEMENTS];
    unsigned char seen[MAX_STATEMENTS];
    unsigned char near[MAX_STATEMENTS]; /* what the store reaches with no fence */
} body;

/* Does opcode carry modifier (".inc", ".cta")? A whole one: ".gl" is not ".global", and
 * ".shared" is in ".shared::cta". */
static int has(const char *opcode, const char *modifier)
{
    size_t k = strlen(modifier);
    const char *s;
    for (s = strchr(opcode, '.'); s; s = strchr(s + 1, '.'))
        if (!strncmp(s, modifier, k) && (s[k] == '.' || s[k] == ':' || s[k] == '\0'))
            return 1;
    return 0;
}

/* FENCE: one for the whole GPU (__threadfence: membar.gl, fence.sc.gpu, fence.acq_rel.gpu);
 * BLOCK_FENCE: a narrower one (__threadfence_block: membar.cta, fence...cta or .cluster);
 * OTHER: no fence, or one that orders nothing stored before it (proxy, acquire only). */
static int fence_kind(const char *op)
{
    if (!strncmp(op, "membar.", 7))
        return has(op, ".gl") || has(op, ".sys") ? FENCE : has(op, ".cta") ? BLOCK_FENCE : OTHER;
    if (strncmp(op, "fence.", 6) != 0 || has(op, ".proxy") || strstr(op, "mbarrier") ||
        strstr(op, "restrict"))
        return OTHER;
    if (has(op, ".acquire") && !has(op, ".sc") && !has(op, ".acq_rel") && !has(op, ".release"))
        return OTHER;
    return has(op, ".gpu") || has(op, ".sys") ? FENCE : BLOCK_FENCE;
}

/* A ticket: an atomic on global (or generic) memory whose old value comes back (atom, not
 * red): atomicInc, or with GL_TICKET_ADD an integer atomicAdd. */
static int is_ticket(const char *op, int tickets)
{
    if (strncmp(op, "atom.", 5) != 0 || has(op, ".shared"))
        return 0;
    return has(op, ".inc") || ((tickets & GL_TICKET_ADD) && has(op, ".add") &&
                               (has(op, ".u32") || has(op, ".s32") || has(op, ".u64")));
}

static int kind_of(const char *op, int tickets)
{
    int fence = fence_kind(op);
    if (fence != OTHER)
        return fence;
    if (!strncmp(op, "st.", 3) && !has(op, ".shared") && !has(op, ".local") && !has(op, ".param"))
        return STORE; /* global (or generic) memory: where a partial goes */
    if (is_ticket(op, tickets))
        return TICKET;
    if ((!strncmp(op, "bar.", 4) || !strncmp(op, "barrier.", 8)) && !has(op, ".warp") &&
        !has(op, ".arrive"))
        return BARRIER; /* __syncthreads and its kin, not __syncwarp */
    if (!strcmp(op, "bra") || !strncmp(op, "bra.", 4))
        return BRANCH;
    if (!strcmp(op, "ret") || !strncmp(op, "ret.", 4) || !strcmp(op, "exit") ||
        !strncmp(op, "exit.", 5))
        return END;
    return OTHER;
}

/* The next register (%name) in s, copied to r; returns what follows it, or NULL. */
static const char *next_reg(const char *s, char *r, size_t len)
{
    size_t n = 0;
    if (!(s = strchr(s, '%')))
        return NULL;
    while (n + 1 < len && (s[n] == '%' || isalnum((unsigned char)s[n]) || s[n] == '_'))
        r[n] = s[n], n++;
    r[n] = '\0';
    return s + n;
}

/* The registers an instruction writes (its first operand) and addresses (inside [...]). */
static void read_operands(char *ops, statement *s)
{
    char *br = strchr(ops, '['), *close = br ? strchr(br, ']') : NULL;
    while (isspace((unsigned char)*ops) || *ops == '{')
        ops++;
    if (*ops == '%')
        next_reg(ops, s->dst, sizeof s->dst);
    if (close) {
        *close = '\0';
        next_reg(br, s->addr, sizeof s->addr);
    }
}

/* One line of the body into s; 0 when it holds no statement (blank, a directive such as
 * .reg or .loc, a comment, a brace). One statement a line, as nvcc writes them. */
static int read_statement(const char *t, size_t len, statement *s, int tickets)
{
    char line[256], *p, *ops;
    size_t n;
    while (len && (isspace((unsigned char)*t) || *t == '{' || *t == '}'))
        t++, len--;
    while (len && isspace((unsigned char)t[len - 1]))
        len--;
    if (len == 0 || len >= sizeof line || *t == '.' || *t == '/')
        return 0;
    memcpy(line, t, len);
    line[len] = '\0';
    memset(s, 0, sizeof *s);
    n = strcspn(line, " \t;:");
    if (line[n] == ':') {
        snprintf(s->label, sizeof s->label, "%.*s", (int)n, line);
        s->kind = LABEL;
        return 1;
    }
    if ((p = strchr(line, ';')))
        *p = '\0';
    for (p = line, n = 0; *p && n + 1 < sizeof s->text; p++) /* words one space apart */
        if (!isspace((unsigned char)*p) || (n && s->text[n - 1] != ' '))
            s->text[n++] = isspace((unsigned char)*p) ? ' ' : *p;
    if (n && s->text[n - 1] == ' ')
        n--;
    s->text[n] = '\0';
    p = line;
    if (*p == '@') { /* a guard: @%p1 or @!%p1 */
        n = strcspn(p, " \t");
        snprintf(s->guard, sizeof s->guard, "%.*s", (int)n, p);
        p += n;
    }
    while (isspace((unsigned char)*p))
        p++;
    ops = p + strcspn(p, " \t");
    if (*ops)
        *ops++ = '\0';
    snprintf(s->opcode, sizeof s->opcode, "%s", p);
    s->kind = kind_of(s->opcode, tickets);
    if (s->kind == BRANCH) {
        while (isspace((unsigned char)*ops))
            ops++;
        snprintf(s->label, sizeof s->label, "%.*s", (int)strcspn(ops, " \t"), ops);
    } else {
        read_operands(ops, s);
    }
    return 1;
}

static void read_body(const gl_ptx_entry *e, int tickets, body *b)
{
    const char *p = e->body + 1, *stop = e->body + e->body_len;
    b->n = 0;
    while (p < stop && b->n < MAX_STATEMENTS) {
        const char *eol = memchr(p, '\n', (size_t)(stop - p));
        size_t len = eol ? (size_t)(eol - p) : (size_t)(stop - p);
        b->n += read_statement(p, len, &b->st[b->n], tickets);
        p += len + 1;
    }
}

static int tainted(char (*regs)[32], int n, const char *r)
{
    int i;
    for (i = 0; i < n; i++)
        if (!strcmp(regs[i], r))
            return 1;
    return 0;
}

/* Marks the stores whose address derives from parameter number param: the registers loaded
 * from it, and those computed from them (not loaded through them: a value read from memory
 * is no address into the partials). */
static void mark_stores_through(body *b, int param)
{
    char pat[32], r[32], regs[MAX_REGS][32];
    int pass, i, nregs = 0, changed = 1;
    snprintf(pat, sizeof pat, "_param_%d]", param);
    for (pass = 0; pass < 8 && changed; pass++) { /* until nothing changes (loops) */
        changed = 0;
        for (i = 0; i < b->n; i++) {
            const statement *s = &b->st[i];
            const char *src;
            int from = 0;
            if (!s->opcode[0] || !s->dst[0] || tainted(regs, nregs, s->dst) || nregs == MAX_REGS)
                continue;
            if (!strncmp(s->opcode, "ld.param", 8))
                from = strstr(s->text, pat) != NULL;
            else if (strncmp(s->opcode, "ld.", 3) && strncmp(s->opcode, "st.", 3) &&
                     strncmp(s->opcode, "atom", 4))
                /* the sources: every register after the first operand */
                for (src = strchr(s->text, ','); src && (src = next_reg(src, r, sizeof r));)
                    from |= tainted(regs, nregs, r);
            if (from) {
                snprintf(regs[nregs++], sizeof regs[0], "%s", s->dst);
                changed = 1;
            }
        }
    }
    for (i = 0; i < b->n; i++)
        b->st[i].through = b->st[i].addr[0] && tainted(regs, nregs, b->st[i].addr);
}

static int label_at(const body *b, const char *name)
{
    int i;
    for (i = 0; i < b->n; i++)
        if (b->st[i].kind == LABEL && !strcmp(b->st[i].label, name))
            return i;
    return -1;
}

/* Is there a path from statement from (included) to statement to that passes no statement
 * of kind wall (unguarded, or with the guard both ends share)? Follows fall-throughs and
 * branches, and stops at to; seen: what the search reached. */
static int path_around(body *b, int from, int to, int wall, const char *guard,
                       unsigned char *seen)
{
    int top = 0, found = 0, i;
    memset(seen, 0, (size_t)b->n);
#define PUSH(k)                                                                               \
    do {                                                                                      \
        if ((k) >= 0 && (k) < b->n && !seen[k])                                               \
            seen[k] = 1, b->stack[top++] = (k);                                               \
    } while (0)
    PUSH(from);
    while (top > 0) {
        const statement *s = &b->st[i = b->stack[--top]];
        if (i == to) {
            found = 1;
            continue;
        }
        if (s->kind == wall && (!s->guard[0] || !strcmp(s->guard, guard)))
            continue; /* passes the fence (or barrier) on this path */
        if (s->kind == END && !s->guard[0])
            continue;
        if (s->kind == BRANCH) {
            PUSH(label_at(b, s->label));
            if (!s->guard[0])
                continue; /* always taken */
        }
        PUSH(i + 1);
    }
#undef PUSH
    return found;
}

/* Do two statements run one after the other on the same thread's straight path (the same
 * guard, no label, branch or end between them)? */
static int straight(const body *b, int a, int z)
{
    int i;
    if (strcmp(b->st[a].guard, b->st[z].guard) != 0)
        return 0;
    for (i = a + 1; i < z; i++)
        if (b->st[i].kind == LABEL || b->st[i].kind == BRANCH || b->st[i].kind == END)
            return 0;
    return 1;
}

/* The branch on a path from the store around the fence to the ticket: one the store reaches
 * with no fence, whose target reaches the ticket with none; preferably one that jumps over
 * the fence. -1 when none does (a guard on the fence skips it). */
static int skipping_branch(body *b, int store, int ticket, int fence, const char *guard)
{
    int i, k, first = -1;
    path_around(b, store + 1, ticket, FENCE, guard, b->near);
    for (i = 0; i < b->n; i++) {
        if (b->st[i].kind != BRANCH || !b->near[i] || (k = label_at(b, b->st[i].label)) < 0 ||
            !path_around(b, k, ticket, FENCE, guard, b->seen))
            continue;
        if (i < fence && k > fence)
            return i;
        if (first < 0)
            first = i;
    }
    return b->st[fence].guard[0] ? -1 : first;
}

static void take(gl_ptx_insn *out, const body *b, int at)
{
    out->at = at;
    snprintf(out->text, sizeof out->text, "%s", at >= 0 ? b->st[at].text : "");
    snprintf(out->guard, sizeof out->guard, "%s", at >= 0 ? b->st[at].guard : "");
}

/* An atomic with release semantics at GPU scope is its own fence. */
static int releases(const char *op)
{
    return (has(op, ".release") || has(op, ".acq_rel")) && !has(op, ".cta") && !has(op, ".cluster");
}

/* The store of the partial: the last global store before the ticket (through the partials
 * parameter when the entry stores through it anywhere). */
static int partial_store(const body *b, int ticket, int param)
{
    int i, any = 0, store = -1;
    for (i = 0; param >= 0 && i < b->n; i++)
        any |= b->st[i].kind == STORE && b->st[i].through;
    for (i = 0; i < ticket; i++)
        if (b->st[i].kind == STORE && (b->st[i].through || !any))
            store = i;
    return store;
}

/* The fences, by where they lie against the store and the ticket. */
static void place_fences(const body *b, int store, int ticket, gl_last_block *lb)
{
    int i, fence = -1, narrow = -1, after = -1, before = -1;
    for (i = 0; i < b->n; i++) {
        int k = b->st[i].kind;
        lb->fences += k == FENCE || k == BLOCK_FENCE;
        if (k == FENCE && i > store && i < ticket)
            fence = i;
        else if (k == FENCE && i > ticket && after < 0)
            after = i;
        else if (k == FENCE && i < store)
            before = i;
        else if (k == BLOCK_FENCE && i > store && i < ticket)
            narrow = i;
    }
    if (fence < 0 && releases(b->st[ticket].opcode))
        fence = ticket;
    take(&lb->fence, b, fence);
    take(&lb->block_fence, b, narrow);
    take(&lb->fence_after, b, after);
    take(&lb->fence_before, b, before);
}

/* The paths from the store to the ticket: around the fence, around every barrier. */
static void follow_paths(body *b, int store, int ticket, gl_last_block *lb)
{
    int fence = lb->fence.at;
    /* a guarded fence or barrier counts where store and ticket share its guard */
    const char *guard = !strcmp(b->st[store].guard, b->st[ticket].guard) ? b->st[ticket].guard : "";
    lb->skipped = fence >= 0 && fence != ticket &&
                  path_around(b, store + 1, ticket, FENCE, guard, b->seen);
    if (lb->skipped)
        take(&lb->skip, b, skipping_branch(b, store, ticket, fence, guard));
    lb->apart = !straight(b, store, ticket) &&
                path_around(b, store + 1, ticket, BARRIER, guard, b->seen);
}

int gl_ptx_last_block(const gl_ptx_entry *e, int tickets, int partial_param, gl_last_block *lb)
{
    body *b = malloc(sizeof *b);
    int ticket, store;
    memset(lb, 0, sizeof *lb);
    lb->ticket.at = lb->store.at = lb->fence.at = lb->block_fence.at = lb->fence_after.at =
        lb->fence_before.at = lb->skip.at = -1;
    if (!b)
        return -1;
    read_body(e, tickets, b);
    if (partial_param >= 0)
        mark_stores_through(b, partial_param);
    for (ticket = 0; ticket < b->n && b->st[ticket].kind != TICKET; ticket++)
        ;
    if (ticket < b->n) {
        take(&lb->ticket, b, ticket);
        take(&lb->store, b, store = partial_store(b, ticket, partial_param));
        place_fences(b, store, ticket, lb);
        if (store >= 0)
            follow_paths(b, store, ticket, lb);
    }
    free(b);
    return lb->ticket.at >= 0 ? 0 : -1;
}

void gl_expect_last_block(const gl_ptx_entry *e, const char *kernel, int tickets,
                          int partial_param, const char *partial, const char *why)
{
    gl_last_block lb;
    char fault[1024];
    if (gl_ptx_last_block(e, tickets, partial_param, &lb) != 0)
        ck_abort_msg("%s draws no ticket (no atom.inc%s in its PTX), so there is no order of %s, "
                     "the fence and the ticket to check. %s",
                     kernel, tickets & GL_TICKET_ADD ? " or integer atom.add" : "", partial, why);
    if (lb.store.at < 0)
        ck_abort_msg("%s stores nothing to global memory before its ticket (`%s`): each block "
                     "writes %s first, then __threadfence(), then draws its ticket. %s",
                     kernel, lb.ticket.text, partial, why);
    if (lb.fence.at >= 0 && !lb.skipped && !lb.apart)
        return;
    if (lb.fence.at >= 0 && lb.skipped && lb.skip.at >= 0)
        snprintf(fault, sizeof fault, "a __threadfence() (`%s`) lies between writing %s (`%s`) "
                 "and the ticket (`%s`) in its PTX, but a path from the one to the other skips "
                 "it: the branch `%s` jumps past it",
                 lb.fence.text, partial, lb.store.text, lb.ticket.text, lb.skip.text);
    else if (lb.fence.at >= 0 && lb.skipped)
        snprintf(fault, sizeof fault, "a __threadfence() (`%s`) lies between writing %s (`%s`) "
                 "and the ticket (`%s`) in its PTX, but a path from the one to the other skips "
                 "it: the fence is guarded, and runs only where its predicate holds",
                 lb.fence.text, partial, lb.store.text, lb.ticket.text);
    else if (lb.fence.at >= 0)
        snprintf(fault, sizeof fault, "the store of %s (`%s`) and the ticket (`%s`) may run on "
                 "different threads (they are under different branches, with no "
                 "__syncthreads() between them): one thread's fence does not order another's "
                 "ticket", partial, lb.store.text, lb.ticket.text);
    else if (lb.block_fence.at >= 0)
        snprintf(fault, sizeof fault, "between writing %s (`%s`) and the ticket (`%s`) there is "
                 "only a block-wide fence (`%s`: __threadfence_block()), which orders memory "
                 "for the threads of this block only",
                 partial, lb.store.text, lb.ticket.text, lb.block_fence.text);
    else if (lb.fence_after.at >= 0)
        snprintf(fault, sizeof fault, "its __threadfence() (`%s`) comes after the ticket (`%s`), "
                 "not between writing %s (`%s`) and drawing the ticket",
                 lb.fence_after.text, lb.ticket.text, partial, lb.store.text);
    else if (lb.fence_before.at >= 0)
        snprintf(fault, sizeof fault, "its __threadfence() (`%s`) comes before it writes %s "
                 "(`%s`), not between that store and the ticket (`%s`)",
                 lb.fence_before.text, partial, lb.store.text, lb.ticket.text);
    else
        snprintf(fault, sizeof fault, "it has no memory fence (membar or fence) between writing "
                 "%s (`%s`) and the ticket (`%s`)", partial, lb.store.text, lb.ticket.text);
    ck_abort_msg("%s: %s. %s", kernel, fault, why);
}
