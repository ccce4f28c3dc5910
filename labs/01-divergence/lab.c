/* lab.c: lab 01-divergence described once (lab.h): its launchers, and its problem with the
 * inputs, the reference and the hints. */
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

/* Calls launcher `name` (all take out, in, n) of the program's build: in the demo, the linked
 * one; in the grader, the student's in its own process, or the kit's own. */
static void div_run(const char *name, unsigned *out, const unsigned *in, int n)
{
    gl_arg a[] = {GL_P(out), GL_P(in), GL_I(n)};
    gl_exec(name, a);
}

/* What a launcher computes (divergence.h): the lane-parity hashes (task 1), the trap's
 * hash_with by element parity (same_code_by_lane) or by warp parity (same_code_by_warp),
 * classify_one (task 2), the block products (task 3). */
typedef enum {
    DIV_HASH,
    DIV_SAME_CODE,
    DIV_SAME_CODE_BY_WARP,
    DIV_CLASSIFY,
    DIV_BLOCK_PRODUCTS
} div_work;

static div_work work_of(const char *launcher)
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

/* each input as a run names it, and as the messages say it */
static const char *const input_words[] = {"random", "heavy", "light", "alternating",
                                          "partitioned"};
static const char *const input_names[] = {"random input", "every element heavy",
                                          "every element light", "classes alternating",
                                          "input partitioned by class"};

int div_input_of(const char *word)
{
    int i;
    for (i = 0; i <= DIV_PARTITIONED; i++)
        if (!strcmp(word, input_words[i]))
            return i;
    return -1;
}

/* Regroups x[0, n) stably: the light elements first, then the heavy ones. */
static void partition(unsigned *x, unsigned *heavy, int n)
{
    int i, light = 0, h = 0;
    for (i = 0; i < n; i++)
        if (is_heavy(x[i]))
            heavy[h++] = x[i];
        else
            x[light++] = x[i];
    memcpy(x + light, heavy, (size_t)h * sizeof(unsigned));
}

/* Random bits made on the GPU; the other inputs set each element's class on the host. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const div_size *z = ctx;
    size_t bytes = (size_t)z->n * sizeof(unsigned), i;
    unsigned *x, *spare;
    (void)k;
    gl_device_fill_bytes(dst, bytes, seed);
    if (z->input == DIV_RANDOM)
        return;
    x = malloc(bytes + 1);
    spare = malloc(bytes + 1);
    if (!x || !spare)
        gl_fail("out of host memory for %d elements", z->n);
    GL_CUDA(cudaMemcpy(x, dst, bytes, cudaMemcpyDeviceToHost));
    for (i = 0; i < (size_t)z->n; i++)
        if (z->input == DIV_ALL_HEAVY || (z->input == DIV_ALTERNATING && i % 2))
            x[i] |= DIV_HEAVY_MIN;
        else if (z->input == DIV_ALL_LIGHT || z->input == DIV_ALTERNATING)
            x[i] &= ~DIV_HEAVY_MIN;
    if (z->input == DIV_PARTITIONED)
        partition(x, spare, z->n);
    GL_CUDA(cudaMemcpy(dst, x, bytes, cudaMemcpyHostToDevice));
    free(x);
    free(spare);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    div_run(launcher, buf[1], buf[0], ((div_size *)ctx)->n);
}

/* What usually causes what the comparison found, in the lab's terms. */
static const char *hint(void *ctx, const char *launcher, const gl_cmp *c)
{
    (void)ctx;
    if (c->unwritten == c->n)
        return "Is the kernel still a TODO, or is it never launched?";
    switch (work_of(launcher)) {
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

gl_problem div_problem(const char *launcher, void *size)
{
    static const char *const given[] = {[DIV_HASH] = "branch_by_lane", [DIV_CLASSIFY] = "classify",
                                        [DIV_BLOCK_PRODUCTS] = "block_products_interleaved"};
    div_size *z = size;
    div_work what = work_of(launcher);
    int products = what == DIV_BLOCK_PRODUCTS;
    size_t bytes = (size_t)z->n * sizeof(unsigned);
    /* guard zones past a stray write's reach: the last block's threads past n (a missing
     * bounds test), and a page more; block products indexed by element reach n */
    size_t guard = DIV_BLOCK * sizeof(unsigned) + 4096;
    gl_problem p = {.what = z->what, .sets = 16, .rounds = 5, .inputs = 1, .outputs = 1,
                    .ctx = z, .make = problem_make, .call = problem_call,
                    .reference = given[what] ? given[what] : launcher, .inputs_read_only = 1,
                    .hint_of = hint};
    if (z->partitioned)
        z->input = DIV_PARTITIONED;
    snprintf(z->what, sizeof z->what, "with n = %d, %s", z->n, input_names[z->input]);
    p.buf[0] = (gl_problem_buf){.name = "in", .bytes = bytes, .guard = guard,
                                .outside = "in is the read-only input"};
    if (products)
        p.buf[1] = (gl_problem_buf){
            .name = "products", .bytes = (size_t)div_blocks(z->n) * sizeof(unsigned),
            .cmp = GL_CMP_UINT, .guard = guard + bytes,
            .outside = "only thread 0 of each block writes, at products[blockIdx.x]"};
    else
        p.buf[1] = (gl_problem_buf){.name = "out", .bytes = bytes, .cmp = GL_CMP_UINT,
                                    .guard = guard, .outside = "only elements i < n are written (is the bounds "
                                               "test i < n missing?)"};
    return p;
}
