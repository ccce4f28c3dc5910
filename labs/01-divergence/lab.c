/* lab.c: lab 01-divergence described once (lab.h): its launchers, and its problem with the
 * inputs, the reference and the hints. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GL_INVOKER(call_div, branch_by_lane, a, a[0].p, a[1].p, (int)a[2].i)

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

/* The lab's outputs (divergence.h), each by a part of its launchers' names (the first row that
 * fits): its given launcher, the student's reference (a given one is its own), and what usually
 * causes elements never written (NULL: as wrong values) and wrong values, in the lab's terms. */
static const struct { const char *part, *given, *unwritten, *wrong; } outputs[] = {
    {"same_code_by_warp", NULL, NULL, "Wrong values: element i is hashed with DIV_MULT_EVEN when "
     "i / 32 is even, DIV_MULT_ODD when it is odd"},
    {"_by_", "branch_by_lane", /* the lane-parity hashes: task 1's, and the trap's by lane */
     "Some elements were never written and others twice: the mapping from thread to element "
     "must take every element exactly once (within each 64 elements, lane l of the even warp "
     "takes 2 l, of the odd warp 2 l + 1)",
     "Wrong values: element i gets hash_even when i is even, hash_odd when it is odd, "
     "whichever thread computes it"},
    {"classify", "classify", "Some elements were never written: does every filed element get a "
     "slot, and does thread t process slot t both below `heavy` and from DIV_BLOCK - light on? "
     "Are the counters zeroed, and a __syncthreads() between the steps?",
     "Wrong values: the heavy work goes to the elements is_heavy() picks, the light work to the "
     "others; the element a thread processes is slot[t], not its own i"},
    {"block_products_", "block_products_interleaved", "Some block products were never written: "
     "thread 0 of every block writes partial[0], at products[blockIdx.x]",
     "Wrong products: at step s, thread tid combines partial[2 s tid + s] into partial[2 s tid] "
     "with gf_mul when 2 s tid < blockDim.x, and a __syncthreads() follows every step; "
     "elements from n on count as 1 (the identity), not 0"},
};

/* each input as a run names it, and as the messages say it */
static const struct { const char *word, *name; } inputs[] = {
    {"random", "random input"}, {"heavy", "every element heavy"}, {"light", "every element light"},
    {"alternating", "classes alternating"}, {"partitioned", "input partitioned by class"}};

int div_input_of(const char *word)
{
    int i = DIV_PARTITIONED;
    while (i >= 0 && strcmp(word, inputs[i].word))
        i--;
    return i;
}

/* Random bits made on the GPU; the other inputs set each element's class on the host, and the
 * partitioned one regroups the elements stably: the light ones first, then the heavy ones. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const div_size *z = ctx;
    size_t n = (size_t)z->n, bytes = n * sizeof(unsigned), i, light = 0, heavy = 0;
    (void)k;
    gl_device_fill_bytes(dst, bytes, seed);
    if (z->input == DIV_RANDOM)
        return;
    unsigned *x = gl_host_alloc(2 * bytes); /* n elements, and room for the heavy ones after them */
    GL_CUDA(cudaMemcpy(x, dst, bytes, cudaMemcpyDeviceToHost));
    for (i = 0; i < n; i++) {
        if (z->input == DIV_ALL_HEAVY || (z->input == DIV_ALTERNATING && i % 2))
            x[i] |= DIV_HEAVY_MIN;
        else if (z->input == DIV_ALL_LIGHT || z->input == DIV_ALTERNATING)
            x[i] &= ~DIV_HEAVY_MIN;
        else if (is_heavy(x[i])) /* partitioned: the heavy ones set aside past n, */
            x[n + heavy++] = x[i];
        else /* the light ones moved to the front (light <= i), */
            x[light++] = x[i];
    }
    memcpy(x + light, x + n, heavy * sizeof(unsigned)); /* the heavy ones after them */
    GL_CUDA(cudaMemcpy(dst, x, bytes, cudaMemcpyHostToDevice));
    free(x);
}

static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    gl_arg a[] = {GL_P(buf[1]), GL_P(buf[0]), GL_I(((const div_size *)ctx)->n)};
    gl_exec(launcher, a);
}

gl_problem div_problem(const char *launcher, void *size)
{
    div_size *z = size;
    const gl_launcher *l = gl_launcher_find(launcher); /* NULL: gl_exec will say so */
    int o = 0;
    /* guard zones past a stray write's reach: the last block's threads past n (a missing
     * bounds test), and a page more; block products indexed by element reach n */
    size_t bytes = (size_t)z->n * sizeof(unsigned), guard = DIV_BLOCK * sizeof(unsigned) + 4096;
    while (o < 3 && !strstr(launcher, outputs[o].part)) /* else the last: block products */
        o++;
    gl_problem p = {.what = z->what, .sets = 16, .rounds = 5, .inputs = 1, .outputs = 1,
                    .ctx = z, .make = problem_make, .call = problem_call, .inputs_read_only = 1,
                    .reference = l && l->flags & GL_GIVEN ? launcher : outputs[o].given,
                    .hint_none = "Is the kernel still a TODO, or is it never launched?",
                    .hint_partly = outputs[o].unwritten, .hint = outputs[o].wrong};
    snprintf(z->what, sizeof z->what, "with n = %d, %s", z->n, inputs[z->input].name);
    p.buf[0] = (gl_problem_buf){.name = "in", .bytes = bytes, .guard = guard,
                                .outside = "in is the read-only input"};
    if (strstr(launcher, "block_products"))
        p.buf[1] = (gl_problem_buf){
            .name = "products", .bytes = (size_t)div_blocks(z->n) * sizeof(unsigned),
            .cmp = GL_CMP_UINT, .guard = guard + bytes,
            .outside = "only thread 0 of each block writes, at products[blockIdx.x]"};
    else
        p.buf[1] = (gl_problem_buf){.name = "out", .bytes = bytes, .cmp = GL_CMP_UINT,
                                    .guard = guard, .outside = "only elements i < n are written "
                                    "(is the bounds test i < n missing?)"};
    return p;
}
