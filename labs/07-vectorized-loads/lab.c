/* lab.c: lab 07-vectorized-loads described once (lab.h): its launchers, and its problem with
 * the inputs, the reference and the hints. */
#include "lab.h"

#include <stdio.h>
#include <string.h>

GL_INVOKER(call_copy, copy_int, a, a[0].p, a[1].p, (int)a[2].i)
GL_INVOKER(call_add, scaled_add_int, a, a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i)

const gl_launcher LAB_LAUNCHERS[] = {
    {"copy_int", "ppi", call_copy, GL_GIVEN},
    {"copy_int2", "ppi", call_copy, 0},
    {"copy_int4", "ppi", call_copy, 0},
    {"scaled_add_int", "pppii", call_add, GL_GIVEN},
    {"scaled_add_int4", "pppii", call_add, 0},
    {NULL, NULL, NULL, 0},
};

/* Where buffer k of a call starts its array, in ints: a (a copy's in), then b and out, or out */
static int start_of(const vl_size *z, int k)
{
    return k == 0 ? z->at.a : k == 1 && !z->copy ? z->at.b : z->at.out;
}

/* The inputs random; out, where it is made (its array starts past the boundary), all poison:
 * the ints before its array must stay so, and the array's are found unwritten as in a check. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const vl_size *z = ctx;
    size_t ints = (size_t)start_of(z, k) + (size_t)z->n;
    if (k == (z->copy ? 1 : 2))
        GL_CUDA(cudaMemset(dst, GL_POISON_BYTE, ints * sizeof(int)));
    else
        gl_device_fill_int(dst, ints, -1000000, 1000000, seed);
}

/* A copy: out, a (in), n (gl_copy, cudaMemcpyAsync: bytes); a scaled add: out, a, b, k, n. */
static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const vl_size *z = ctx;
    int *a = (int *)buf[0] + start_of(z, 0), *b_or_out = (int *)buf[1] + start_of(z, 1);
    long long n = strcmp(launcher, "gl_copy") ? z->n : z->n * (long long)sizeof(int);
    if (z->copy)
        gl_exec(launcher, (gl_arg[]){GL_P(b_or_out), GL_P(a), GL_I(n)});
    else
        gl_exec(launcher, (gl_arg[]){GL_P((int *)buf[2] + start_of(z, 2)), GL_P(a),
                                     GL_P(b_or_out), GL_I(z->k ? z->k : 3), GL_I(n)});
}

/* What usually causes what the comparison found, in the lab's terms. Indices count from out's
 * allocation, whose array starts start ints in. */
static const char *hint(void *ctx, const char *launcher, const gl_cmp *c)
{
    static char why[320];
    const vl_size *z = ctx;
    size_t start = (size_t)z->at.out, first = c->shown ? c->diff[0].index : start;
    (void)launcher;
    snprintf(why, sizeof why, "The array is out[%zu .. %zu), and an int before it was written: "
             "the vector loop or the tail goes outside its n ints", start, start + (size_t)z->n);
    if (first < start)
        return why;
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
    vl_size *z = size;
    int copy = z->copy = !strncmp(launcher, "copy", 4) || !strcmp(launcher, "gl_copy");
    gl_problem p = {.what = z->what, .inputs = copy ? 1 : 2, .outputs = 1, .ctx = z, .sets = 16,
                    .rounds = 5, .make = problem_make, .call = problem_call, .hint_of = hint,
                    .reference = copy ? "copy_int" : "scaled_add_int", .inputs_read_only = 1,
                    .work = (copy ? 2.0 : 3.0) * (double)z->n * sizeof(int)};
    int w = snprintf(z->what, sizeof z->what, "with n = %d", z->n);
    if (copy && (z->at.out || z->at.a))
        snprintf(z->what + w, sizeof z->what - (size_t)w, ", out %d and in %d ints past a "
                 "256-byte boundary", z->at.out, z->at.a);
    else if (!copy && (z->at.out || z->at.a || z->at.b))
        snprintf(z->what + w, sizeof z->what - (size_t)w, ", out %d, a %d and b %d ints past "
                 "a 256-byte boundary", z->at.out, z->at.a, z->at.b);
    for (int k = 0; k <= p.inputs; k++)
        p.buf[k] = (gl_problem_buf){
            .name = k == p.inputs ? "out" : copy ? "in" : k ? "b" : "a",
            .bytes = ((size_t)start_of(z, k) + (size_t)z->n) * sizeof(int),
            .guard = 4096 + 256, /* a page past the farthest stray vector store or tail */
            .made = k == p.inputs && start_of(z, k) > 0, /* out's ints before its array: kept */
            .outside = k < p.inputs ? "the inputs are read-only"
                                    : "the vector loop or the tail goes past n: a vector store "
                                      "past the end? The tail must be written one int at a time"};
    return p;
}
