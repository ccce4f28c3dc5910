/* lab.c: lab 07-vectorized-loads described once (lab.h). */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*copy_fn)(int *out, const int *in, int n);
typedef void (*add_fn)(int *out, const int *a, const int *b, int k, int n);

static long long call_copy(void *fn, const gl_arg *a)
{
    ((copy_fn)fn)((int *)a[0].p, (const int *)a[1].p, (int)a[2].i);
    return 0;
}

static long long call_add(void *fn, const gl_arg *a)
{
    ((add_fn)fn)((int *)a[0].p, (const int *)a[1].p, (const int *)a[2].p, (int)a[3].i,
                 (int)a[4].i);
    return 0;
}

const gl_launcher LAB_LAUNCHERS[] = {
    {"copy_int", "ppi", call_copy, GL_GIVEN},
    {"copy_int2", "ppi", call_copy, 0},
    {"copy_int4", "ppi", call_copy, 0},
    {"scaled_add_int", "pppii", call_add, GL_GIVEN},
    {"scaled_add_int4", "pppii", call_add, 0},
    {NULL, NULL, NULL, 0},
};

int vl_is_copy(const char *launcher)
{
    return !strncmp(launcher, "copy", 4);
}

void vl_run(const char *name, int *out, const int *a, const int *b, int k, int n)
{
    gl_arg copy[] = {GL_P(out), GL_P(a), GL_I(n)};
    gl_arg add[] = {GL_P(out), GL_P(a), GL_P(b), GL_I(k), GL_I(n)};
    gl_exec(name, vl_is_copy(name) ? copy : add);
}

static void *alloc_or_fail(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return p;
}

void vl_make(gl_rng *rng, int n, int **a, int **b)
{
    size_t room = (size_t)n + VL_ROOM;
    *a = alloc_or_fail(room * sizeof(int));
    *b = alloc_or_fail(room * sizeof(int));
    gl_fill_int(rng, *a, room, -1000000, 1000000);
    gl_fill_int(rng, *b, room, -1000000, 1000000);
}

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(const gl_cmp *c, int n)
{
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (c->unwritten && c->unwritten <= 3 && c->diff[0].index + 4 >= (size_t)(n / 4 * 4))
        return "Only the last elements are missing: the tail (n % 4 elements, or n % 2) is "
               "not copied. Whichever thread takes it must exist for every n: with a "
               "grid-stride loop, thread n / 4 may be beyond the grid";
    if (c->unwritten)
        return "Some elements were never written: does the loop cover n / 4 vectors, and "
               "the tail after them?";
    return "Wrong values: are the vector indices counted in vectors (i), not in ints (4 * i)?";
}

const char *vl_check(const char *launcher, int n, vl_offsets off, int k, const int *h_a,
                     const int *h_b)
{
    static char why[2048];
    int copy = vl_is_copy(launcher);
    size_t room = (size_t)n + VL_ROOM, bytes = room * sizeof(int), i;
    int *h_out = alloc_or_fail(bytes), *h_ref = alloc_or_fail(bytes),
        *h_back = alloc_or_fail(bytes);
    gl_buf a = gl_buf_alloc(bytes, 0), b = gl_buf_alloc(bytes, 0), out = gl_buf_alloc(bytes, 0);
    gl_guard_report g;
    gl_cmp cmp;

    why[0] = '\0';
    memset(h_ref, GL_POISON_BYTE, bytes);
    for (i = 0; i < (size_t)n; i++)
        h_ref[off.out + i] = copy ? h_a[off.a + i] : h_a[off.a + i] + k * h_b[off.b + i];
    gl_buf_upload(&a, h_a);
    gl_buf_upload(&b, h_b);
    gl_buf_poison(&out);
    vl_run(launcher, (int *)out.ptr + off.out, (const int *)a.ptr + off.a,
           (const int *)b.ptr + off.b, k, n);
    GL_CHECK_LAUNCH(launcher);
    if (gl_buf_check_guards(&out, &g)) {
        char d[512];
        gl_guard_describe(&g, out.bytes, sizeof(int), "out's allocation", d, sizeof d);
        snprintf(why, sizeof why, "%s: a vector store past the end? The tail must be written "
                 "one int at a time", d);
    } else if (gl_buf_check_guards(&a, &g) || gl_buf_check_guards(&b, &g)) {
        snprintf(why, sizeof why, "wrote outside the inputs, which are read-only");
    } else {
        int changed;
        gl_buf_download(&a, h_back);
        changed = memcmp(h_back, h_a, bytes) != 0;
        gl_buf_download(&b, h_back);
        changed |= !copy && memcmp(h_back, h_b, bytes) != 0;
        gl_buf_download(&out, h_out);
        for (i = 0; i < room; i++)
            if ((i < (size_t)off.out || i >= (size_t)off.out + n) && h_out[i] != h_ref[i])
                break;
        if (changed) {
            snprintf(why, sizeof why, "changed %s: the input is read-only",
                     copy ? "`in`" : "`a` or `b`");
        } else if (i < room) {
            snprintf(why, sizeof why, "wrote out[%ld], outside out[0, %d): the vector loop or "
                     "the tail goes past n", (long)i - off.out, n);
        } else if (gl_compare_int(h_ref + off.out, h_out + off.out, (size_t)n, &cmp)) {
            char d[1024];
            gl_cmp_describe(&cmp, "out", NULL, NULL, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d, hint(&cmp, n));
        }
    }
    gl_buf_free(&a);
    gl_buf_free(&b);
    gl_buf_free(&out);
    free(h_out);
    free(h_ref);
    free(h_back);
    return why;
}

static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const vl_size *z = ctx;
    (void)k;
    gl_device_fill_int(dst, (size_t)z->n + (size_t)z->offset, -1000000, 1000000, seed);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const vl_size *z = ctx;
    int *a = (int *)buf[0] + z->offset, *b_or_out = (int *)buf[1] + z->offset;
    if (!strcmp(launcher, "gl_copy"))
        gl_copy(b_or_out, a, (size_t)z->n * sizeof(int));
    else if (vl_is_copy(launcher))
        vl_run(launcher, b_or_out, a, NULL, 3, z->n);
    else
        vl_run(launcher, (int *)buf[2] + z->offset, a, b_or_out, 3, z->n);
}

gl_problem vl_problem(const char *launcher, void *size)
{
    vl_size *z = size;
    size_t bytes = ((size_t)z->n + (size_t)z->offset) * sizeof(int);
    int copy = !strcmp(launcher, "gl_copy") || vl_is_copy(launcher);
    gl_problem p = {.what = z->what, .inputs = copy ? 1 : 2, .outputs = 1, .ctx = z,
                    .make = problem_make, .call = problem_call,
                    .reference = copy ? "copy_int" : "scaled_add_int", .inputs_read_only = 1,
                    .work = (copy ? 2.0 : 3.0) * (double)z->n * sizeof(int), .sets = 16,
                    .rounds = 5};
    if (z->offset)
        snprintf(z->what, sizeof z->what, "with n = %d, arrays %d int%s past a 256-byte boundary",
                 z->n, z->offset, z->offset > 1 ? "s" : "");
    else
        snprintf(z->what, sizeof z->what, "with n = %d", z->n);
    p.buf[0] = (gl_problem_buf){.name = "a", .bytes = bytes};
    p.buf[1] = (gl_problem_buf){.name = copy ? "out" : "b", .bytes = bytes};
    p.buf[2] = (gl_problem_buf){.name = "out", .bytes = bytes};
    p.buf[p.inputs].made = z->offset > 0; /* its ints before the offset: as they were */
    return p;
}
