/* lab.c: lab 01-divergence described once (lab.h). */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*div_fn)(unsigned *out, const unsigned *in, int n);

static long long call_div(void *fn, const gl_arg *a)
{
    ((div_fn)fn)((unsigned *)a[0].p, (const unsigned *)a[1].p, (int)a[2].i);
    return 0;
}

const gl_launcher LAB_LAUNCHERS[] = {
    {"branch_by_lane", "ppi", call_div, GL_GIVEN},
    {"branch_by_warp", "ppi", call_div, 0},
    {"same_code_by_lane", "ppi", call_div, GL_GIVEN},
    {"same_code_by_warp", "ppi", call_div, GL_GIVEN},
    {"classify", "ppi", call_div, GL_GIVEN},
    {"classify_partitioned", "ppi", call_div, 0},
    {"block_products_interleaved", "ppi", call_div, GL_GIVEN},
    {"block_products_contiguous", "ppi", call_div, 0},
    {NULL, NULL, NULL, 0},
};

void div_run(const char *name, unsigned *out, const unsigned *in, int n)
{
    gl_arg a[] = {GL_P(out), GL_P(in), GL_I(n)};
    gl_exec(name, a);
}

div_work div_work_of(const char *launcher)
{
    if (!strncmp(launcher, "branch_by_", 10))
        return DIV_HASH;
    if (!strcmp(launcher, "same_code_by_warp"))
        return DIV_SAME_CODE_BY_WARP;
    if (!strncmp(launcher, "same_code_", 10))
        return DIV_SAME_CODE;
    if (!strncmp(launcher, "classify", 8))
        return DIV_CLASSIFY;
    return DIV_BLOCK_PRODUCTS;
}

size_t div_outputs(div_work what, int n)
{
    return what == DIV_BLOCK_PRODUCTS ? (size_t)div_blocks(n) : (size_t)n;
}

void div_reference(div_work what, const unsigned *in, unsigned *ref, int n)
{
    int i, b;
    if (what == DIV_BLOCK_PRODUCTS) /* from 1, the identity: elements from n on change nothing */
        for (b = 0; b < div_blocks(n); b++)
            ref[b] = 1u;
    for (i = 0; i < n; i++)
        switch (what) {
        case DIV_HASH:
            ref[i] = i % 2 == 0 ? hash_even(in[i]) : hash_odd(in[i]);
            break;
        case DIV_SAME_CODE:
            ref[i] = hash_with(in[i], i % 2 == 0 ? DIV_MULT_EVEN : DIV_MULT_ODD);
            break;
        case DIV_SAME_CODE_BY_WARP:
            ref[i] = hash_with(in[i], i / 32 % 2 == 0 ? DIV_MULT_EVEN : DIV_MULT_ODD);
            break;
        case DIV_CLASSIFY:
            ref[i] = classify_one(in[i]);
            break;
        case DIV_BLOCK_PRODUCTS:
            ref[i / DIV_BLOCK] = gf_mul(ref[i / DIV_BLOCK], in[i]);
            break;
        }
}

const char *div_input_name(div_input kind)
{
    static const char *names[] = {"random input", "every element heavy", "every element light",
                                  "classes alternating", "input partitioned by class"};
    return names[kind];
}

static void *alloc_or_fail(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return p;
}

void div_partition(unsigned *x, int n)
{
    unsigned *heavy = alloc_or_fail((size_t)n * sizeof(unsigned));
    int i, light = 0, h = 0;
    for (i = 0; i < n; i++)
        if (is_heavy(x[i]))
            heavy[h++] = x[i];
        else
            x[light++] = x[i];
    memcpy(x + light, heavy, (size_t)h * sizeof(unsigned));
    free(heavy);
}

unsigned *div_make(gl_rng *rng, int n, div_input kind)
{
    size_t room = (size_t)n + DIV_ROOM, i;
    unsigned *x = alloc_or_fail(room * sizeof(unsigned));
    for (i = 0; i < room; i++) {
        unsigned v = (unsigned)gl_rng_next(rng);
        if (kind == DIV_ALL_HEAVY || (kind == DIV_ALTERNATING && i % 2))
            v |= DIV_HEAVY_MIN;
        else if (kind == DIV_ALL_LIGHT || kind == DIV_ALTERNATING)
            v &= ~DIV_HEAVY_MIN;
        x[i] = v;
    }
    if (kind == DIV_PARTITIONED)
        div_partition(x, n);
    return x;
}

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(div_work what, const gl_cmp *c)
{
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched?";
    switch (what) {
    case DIV_HASH:
    case DIV_SAME_CODE:
        if (c->unwritten)
            return "Some elements were never written and others twice: the mapping from "
                   "thread to element must take every element exactly once (within each 64 "
                   "elements, lane l of the even warp takes 2 l, of the odd warp 2 l + 1)";
        return "Wrong values: element i gets hash_even when i is even, hash_odd when it is "
               "odd, whichever thread computes it";
    case DIV_SAME_CODE_BY_WARP:
        return "Wrong values: element i is hashed with DIV_MULT_EVEN when i / 32 is even, "
               "DIV_MULT_ODD when it is odd";
    case DIV_CLASSIFY:
        if (c->unwritten)
            return "Some elements were never written: does every filed element get a slot, and "
                   "does thread t process slot t both below `heavy` and from DIV_BLOCK - light "
                   "on? Are the counters zeroed, and a __syncthreads() between the steps?";
        return "Wrong values: the heavy work goes to the elements is_heavy() picks, the light "
               "work to the others; the element a thread processes is slot[t], not its own i";
    case DIV_BLOCK_PRODUCTS:
        if (c->unwritten)
            return "Some block products were never written: thread 0 of every block writes "
                   "partial[0], at products[blockIdx.x]";
        return "Wrong products: at step s, thread tid combines partial[2 s tid + s] into "
               "partial[2 s tid] with gf_mul when 2 s tid < blockDim.x, and a "
               "__syncthreads() follows every step; elements from n on count as 1 (the "
               "identity), not 0";
    }
    return "";
}

const char *div_check(const char *launcher, int n, const unsigned *h_in)
{
    static char why[2048];
    div_work what = div_work_of(launcher);
    const char *name = what == DIV_BLOCK_PRODUCTS ? "products" : "out";
    size_t room = (size_t)n + DIV_ROOM, bytes = room * sizeof(unsigned),
           count = div_outputs(what, n), i;
    unsigned *h_out = alloc_or_fail(bytes), *h_ref = alloc_or_fail(bytes),
             *h_back = alloc_or_fail(bytes);
    gl_buf in = gl_buf_alloc(bytes, 0), out = gl_buf_alloc(bytes, 0);
    gl_guard_report g;
    gl_cmp cmp;

    why[0] = '\0';
    div_reference(what, h_in, h_ref, n);
    gl_buf_upload(&in, h_in);
    gl_buf_poison(&out);
    div_run(launcher, out.ptr, in.ptr, n);
    GL_CHECK_LAUNCH(launcher);
    if (gl_buf_check_guards(&out, &g)) {
        char d[512];
        gl_guard_describe(&g, out.bytes, sizeof(unsigned), "out's allocation", d, sizeof d);
        snprintf(why, sizeof why, "%s: is the bounds test (i < n) missing?", d);
    } else if (gl_buf_check_guards(&in, &g)) {
        snprintf(why, sizeof why, "wrote outside `in`, which is read-only input");
    } else {
        gl_buf_download(&in, h_back);
        gl_buf_download(&out, h_out);
        for (i = count; i < room; i++)
            if (h_out[i] != 0xffffffffu)
                break;
        if (memcmp(h_back, h_in, bytes) != 0)
            snprintf(why, sizeof why, "changed `in`: the input is read-only");
        else if (i < room)
            snprintf(why, sizeof why, "wrote %s[%zu], past the last of its %zu %s: only %s",
                     name, i, count, what == DIV_BLOCK_PRODUCTS ? "block products" : "elements",
                     what == DIV_BLOCK_PRODUCTS
                         ? "thread 0 of each block writes, at products[blockIdx.x]"
                         : "elements i < n are written");
        else if (gl_compare_uint(h_ref, h_out, count, &cmp)) {
            char d[1024];
            gl_cmp_describe(&cmp, name, NULL, NULL, d, sizeof d);
            snprintf(why, sizeof why, "%s. %s", d, hint(what, &cmp));
        }
    }
    gl_buf_free(&in);
    gl_buf_free(&out);
    free(h_out);
    free(h_ref);
    free(h_back);
    return why;
}

static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const div_size *z = ctx;
    size_t bytes = (size_t)z->n * sizeof(unsigned);
    unsigned *x;
    (void)k;
    gl_device_fill_bytes(dst, bytes, seed);
    if (!z->partitioned)
        return;
    x = alloc_or_fail(bytes); /* the demo's: the same values, the light ones first */
    GL_CUDA(cudaMemcpy(x, dst, bytes, cudaMemcpyDeviceToHost));
    div_partition(x, z->n);
    GL_CUDA(cudaMemcpy(dst, x, bytes, cudaMemcpyHostToDevice));
    free(x);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    div_run(launcher, buf[1], buf[0], ((div_size *)ctx)->n);
}

gl_problem div_problem(const char *launcher, void *size)
{
    static const char *const given[] = {[DIV_HASH] = "branch_by_lane", [DIV_CLASSIFY] = "classify",
                                        [DIV_BLOCK_PRODUCTS] = "block_products_interleaved"};
    div_size *z = size;
    div_work what = div_work_of(launcher);
    gl_problem p = {.what = z->what, .sets = 16, .rounds = 5, .inputs = 1, .outputs = 1,
                    .ctx = z, .make = problem_make, .call = problem_call,
                    .reference = given[what] ? given[what] : launcher};
    snprintf(z->what, sizeof z->what, "with n = %d (%s input)", z->n,
             z->partitioned ? "partitioned" : "random");
    p.buf[0] = (gl_problem_buf){.name = "in", .bytes = (size_t)z->n * sizeof(unsigned)};
    p.buf[1] = (gl_problem_buf){.name = "out", .bytes = div_outputs(what, z->n) * sizeof(unsigned)};
    return p;
}
