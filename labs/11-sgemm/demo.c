/* demo.c: lab 11-sgemm's table (make run LAB=11: your sgemm.cu; make demo LAB=11: the reference;
 * build/.../demo [--csv FILE] [SIZE ...], m = n = k = SIZE): at each size, each kernel of the
 * worklog checked as the grader checks it, then timed, against cuBLAS FP32 in the same run and the
 * row before it (x_prev: that row's time over this one's). By default 4096, then 4001: a multiple
 * neither of the 128 x 128 block tile nor of 4 (tasks 3 and 4 take their scalar path there). */
#include "lab.h" /* and, through gpulabs.h, <stdio.h> */

#define NVARIANTS 7 /* naive, tiled, 1d, 2d, vectorized, prefetch, cuBLAS */

static const char *const variants[NVARIANTS][2] = {
    {"sgemm_naive", "naive (given)"}, {"sgemm_tiled", "tiled 32x32 (given)"},
    {"sgemm_blocktiled_1d", "1d blocktiling"}, {"sgemm_blocktiled_2d", "2d blocktiling"},
    {"sgemm_vectorized", "vectorized"}, {"sgemm_prefetch", "prefetch"},
    {"sgemm_cublas", "cuBLAS FP32"}};
static gl_demo_case cases[GL_DEMO_MAX_VALUES * NVARIANTS + 1];
static gl_matmul sizes[GL_DEMO_MAX_VALUES];
static char dims[GL_DEMO_MAX_VALUES][16];

int main(int argc, char **argv)
{
    static char check[512];
    static const char *const notes[] = {
        "kernels", "1d to prefetch are this build's sgemm.cu: yours under make run, the "
        "reference under make demo; cuBLAS is cublasSgemm with CUBLAS_PEDANTIC_MATH (FP32 on the "
        "CUDA cores, no TF32)", "check", check,
        "timing", "median of 21 runs, L2 flushed before each; GFLOP/s = 2 m n k / time", NULL};
    static const gl_demo_options options = {.variant = "kernel", .keys = {"size"},
        .keys_first = 1, .time_digits = 3, .no_memcpy = 1, .share = "pct_of_cublas",
        .speedup = "x_prev", .notes = notes};
    gl_demo_args args;
    int nsizes, s, v, c = 0;

    gl_demo_parse(argc, argv, "[--csv FILE] [SIZE ...]  (default 4096 4001: m = n = k = SIZE)",
                  GL_DEMO_MAX_VALUES, 1, 46340, &args);
    nsizes = args.nvalues > 0 ? args.nvalues : 2;
    for (s = 0; s < nsizes; s++) { /* the worklog, then the roof */
        int dim = (int)(args.nvalues > 0 ? args.values[s] : s == 0 ? 4096 : 4001);
        sizes[s] = (gl_matmul){.m = dim, .n = dim, .k = dim, .sample = SGEMM_SAMPLE};
        snprintf(dims[s], sizeof dims[s], "%d", dim);
        for (v = 0; v < NVARIANTS; v++, c++)
            cases[c] = (gl_demo_case){.launcher = variants[v][0], .label = variants[v][1],
                .keys = {dims[s]}, .size = &sizes[s], .over = v ? &cases[c - 1] : NULL,
                .share_of = &cases[c - v + NVARIANTS - 1]};
    }
    snprintf(check, sizeof check, "every element of C up to 2^20 elements, else its first and "
             "last rows and columns and %d random elements (on the GPU), against a reference "
             "summed in double with each element's FP32 error bound (the CPU takes minutes for "
             "all of a 4096^3 product)", SGEMM_SAMPLE);
    return gl_demo_cases("11-sgemm", "C = A B in FP32, m = n = k = size, row-major", cases,
                         sgemm_describe, &options, &args);
}
