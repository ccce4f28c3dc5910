/* lab.c: lab 07-vectorized-loads described once (lab.h): its launchers, and its problem with
 * the inputs, the reference and the hints. */
#include "lab.h"

#include <stdio.h>
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
    return !strncmp(launcher, "copy", 4) || !strcmp(launcher, "gl_copy");
}

void vl_run(const char *name, int *out, const int *a, const int *b, int k, int n)
{
    gl_arg copy[] = {GL_P(out), GL_P(a), GL_I(n)};
    gl_arg add[] = {GL_P(out), GL_P(a), GL_P(b), GL_I(k), GL_I(n)};
    gl_exec(name, vl_is_copy(name) ? copy : add);
}

/* Where buffer k of a call starts its array, in ints: a (a copy's in), b (none in a copy), out */
static int start_of(const vl_size *z, int copy, int k)
{
    return z->offset + (k == 0 ? z->at.a : k == 1 && !copy ? z->at.b : z->at.out);
}

/* The inputs random; out, where it is made (its array starts past the boundary), all poison:
 * the ints before its array must stay so, and the array's are found unwritten as in a check. */
static void make(const vl_size *z, int copy, int k, void *dst, unsigned long long seed)
{
    size_t ints = (size_t)start_of(z, copy, k) + (size_t)z->n;
    if (k == (copy ? 1 : 2))
        GL_CUDA(cudaMemset(dst, GL_POISON_BYTE, ints * sizeof(int)));
    else
        gl_device_fill_int(dst, ints, -1000000, 1000000, seed);
}

static void make_copy(void *ctx, int k, void *dst, unsigned long long seed)
{
    make(ctx, 1, k, dst, seed);
}

static void make_add(void *ctx, int k, void *dst, unsigned long long seed)
{
    make(ctx, 0, k, dst, seed);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const vl_size *z = ctx;
    int copy = vl_is_copy(launcher), k = z->k ? z->k : 3;
    int *a = (int *)buf[0] + start_of(z, copy, 0);
    int *b_or_out = (int *)buf[1] + start_of(z, copy, 1);
    if (!strcmp(launcher, "gl_copy"))
        gl_copy(b_or_out, a, (size_t)z->n * sizeof(int));
    else if (copy)
        vl_run(launcher, b_or_out, a, NULL, k, z->n);
    else
        vl_run(launcher, (int *)buf[2] + start_of(z, 0, 2), a, b_or_out, k, z->n);
}

/* What usually causes what the comparison found, in the lab's terms. Indices count from out's
 * allocation, whose array starts start ints in. */
static const char *hint(void *ctx, const char *launcher, const gl_cmp *c)
{
    static char why[320];
    const vl_size *z = ctx;
    int copy = vl_is_copy(launcher);
    size_t start = (size_t)start_of(z, copy, copy ? 1 : 2),
           first = c->shown ? c->diff[0].index : start;
    if (first < start) {
        snprintf(why, sizeof why, "The array is out[%zu .. %zu), and an int before it was "
                 "written: the vector loop or the tail goes outside its n ints",
                 start, start + (size_t)z->n);
        return why;
    }
    if (c->unwritten == (size_t)z->n)
        return "Is the kernel still a TODO, or is it never launched?";
    if (c->unwritten && c->unwritten <= 3 && first - start + 4 >= (size_t)(z->n / 4 * 4))
        return "Only the last elements are missing: the tail (n % 4 elements, or n % 2) is "
               "not copied. Whichever thread takes it must exist for every n: with a "
               "grid-stride loop, thread n / 4 may be beyond the grid";
    if (c->unwritten)
        return "Some elements were never written: does the loop cover n / 4 vectors, and "
               "the tail after them?";
    return "Wrong values: are the vector indices counted in vectors (i), not in ints (4 * i)?";
}

gl_problem vl_problem(const char *launcher, void *size)
{
    static const char *const copy_names[] = {"in", "out"}, *const add_names[] = {"a", "b", "out"};
    vl_size *z = size;
    int copy = vl_is_copy(launcher), start[3], k, w;
    gl_problem p = {.what = z->what, .inputs = copy ? 1 : 2, .outputs = 1, .ctx = z,
                    .make = copy ? make_copy : make_add, .call = problem_call,
                    .reference = copy ? "copy_int" : "scaled_add_int", .inputs_read_only = 1,
                    .hint_of = hint, .work = (copy ? 2.0 : 3.0) * (double)z->n * sizeof(int),
                    .sets = 16, .rounds = 5};
    for (k = 0; k <= p.inputs; k++)
        start[k] = start_of(z, copy, k);
    w = snprintf(z->what, sizeof z->what, "with n = %d", z->n);
    if (copy && (start[0] || start[1]))
        snprintf(z->what + w, sizeof z->what - (size_t)w, ", out %d and in %d ints past a "
                 "256-byte boundary", start[1], start[0]);
    else if (!copy && (start[0] || start[1] || start[2]))
        snprintf(z->what + w, sizeof z->what - (size_t)w, ", out %d, a %d and b %d ints past "
                 "a 256-byte boundary", start[2], start[0], start[1]);
    for (k = 0; k <= p.inputs; k++)
        p.buf[k] = (gl_problem_buf){
            .name = (copy ? copy_names : add_names)[k],
            .bytes = ((size_t)start[k] + (size_t)z->n) * sizeof(int),
            .guard = 4096 + 256, /* a page past the farthest stray vector store or tail */
            .made = k == p.inputs && start[k] > 0, /* out's ints before its array: kept */
            .outside = k < p.inputs ? "the inputs are read-only"
                                    : "the vector loop or the tail goes past n: a vector store "
                                      "past the end? The tail must be written one int at a time"};
    return p;
}
