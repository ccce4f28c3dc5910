/* demo.c: lab 11-sgemm's comparison table.
 *
 *   make run LAB=11      your sgemm.cu           make demo LAB=11   the reference
 *   build/.../demo [--csv FILE] [SIZE ...]       (default 4096 and 4001: square)
 *
 * For each size, each kernel of the worklog runs once on the lab's problem (lab.c) and is
 * checked as the grader checks it; a right one is then timed (median of 21 runs, L2 flushed
 * before each) and reported as GFLOP/s (2 m n k per second), as a share of cuBLAS FP32 in the
 * same run, and against the row before it (x_prev: that row's time over this one's). 4001 is
 * a multiple neither of the 128 x 128 block tile nor of 4: the kernels of tasks 3 and 4 take
 * their scalar path there. */
#include "lab.h"

#include <stdio.h>

#define NVARIANTS 7 /* naive, tiled, 1d, 2d, vectorized, prefetch, cuBLAS (timed first) */
#define CUBLAS 6

static const char *const variants[NVARIANTS] = {
    "sgemm_naive",      "sgemm_tiled",    "sgemm_blocktiled_1d", "sgemm_blocktiled_2d",
    "sgemm_vectorized", "sgemm_prefetch", "sgemm_cublas"};
static const char *const labels[NVARIANTS] = {
    "naive (given)", "tiled 32x32 (given)", "1d blocktiling", "2d blocktiling",
    "vectorized",    "prefetch",            "cuBLAS FP32"};

int main(int argc, char **argv)
{
    static const char *headers[] = {"size", "kernel", "time_ms", "GFLOP/s", "pct_of_cublas",
                                    "x_prev", "check"};
    static const long default_sizes[] = {4096, 4001};
    gl_demo_args args;
    gl_device_info info;
    gl_table *table;
    int nsizes, s, v, c, wrong = 0;

    gl_demo_parse(argc, argv, "[--csv FILE] [SIZE ...]  (default 4096 4001: m = n = k = SIZE)",
                  GL_DEMO_MAX_VALUES, 1, 46340, &args);
    nsizes = args.nvalues > 0 ? args.nvalues : 2;

    gl_demo_begin(&info);
    table = gl_table_new(NULL, 7, headers);
    gl_table_note(table, "lab", "11-sgemm, C = A B in FP32, m = n = k = size, row-major");
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "kernels", "1d to prefetch are this build's sgemm.cu: yours under make "
                  "run, the reference under make demo; cuBLAS is cublasSgemm with "
                  "CUBLAS_PEDANTIC_MATH (FP32 on the CUDA cores, no TF32)");
    gl_table_note(table, "check", "every element of C up to 2^20 elements, else its first and "
                  "last rows and columns and %d random elements (on the GPU), against a reference "
                  "summed in double with each element's FP32 error bound (the CPU takes minutes "
                  "for all of a 4096^3 product)", SGEMM_SAMPLE);
    gl_table_note(table, "timing", "median of 21 runs, L2 flushed before each; "
                  "GFLOP/s = 2 m n k / time");
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (s = 0; s < nsizes; s++) {
        int dim = (int)(args.nvalues > 0 ? args.values[s] : default_sizes[s]), prev = -1;
        gl_matmul z = {.m = dim, .n = dim, .k = dim, .sample = SGEMM_SAMPLE};
        double ms[NVARIANTS];

        for (v = NVARIANTS - 1; v >= 0; v--) { /* cuBLAS first: the others are shares of it */
            gl_problem p = sgemm_describe(variants[v], &z);
            const char *why = gl_problem_check(variants[v], &p, gl_seed());
            ms[v] = -1.0; /* wrong: not timed */
            if (*why) {
                wrong++;
                printf("%s at size %d is WRONG: %s\n", labels[v], dim, why);
                continue;
            }
            ms[v] = gl_problem_time_ms(variants[v], &p, gl_seed());
        }

        for (v = 0; v < NVARIANTS; v++) { /* the worklog, then the roof */
            gl_table_cell(table, "%d", dim);
            gl_table_cell(table, "%s", labels[v]);
            if (ms[v] < 0.0) {
                for (c = 0; c < 4; c++)
                    gl_table_cell(table, "-");
                gl_table_cell(table, "WRONG");
                prev = -1;
                continue;
            }
            gl_table_cell(table, "%.3f", ms[v]);
            gl_table_cell(table, "%.0f", 2.0 * dim * (double)dim * dim / ms[v] / 1e6);
            if (ms[CUBLAS] > 0.0)
                gl_table_cell(table, "%.1f", gl_percent(ms[CUBLAS], ms[v]));
            else
                gl_table_cell(table, "-");
            if (prev >= 0)
                gl_table_cell(table, "%.2f", ms[prev] / ms[v]);
            else
                gl_table_cell(table, "-");
            gl_table_cell(table, "ok");
            prev = v;
        }
    }
    return gl_demo_end(table, &args, wrong, "11");
}
