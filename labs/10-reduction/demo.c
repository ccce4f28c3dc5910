/* demo.c: lab 10-reduction's comparison table.
 *
 *   make run LAB=10      your reduction.cu       make demo LAB=10   the reference
 *   build/.../demo [--csv FILE] [N]              (default 2^28 elements: 1 GiB)
 *
 * Each variant is checked as the grader checks it (the lab's problem, lab.c), then timed on
 * its input (median of 21 runs, L2 flushed before each) as read bandwidth (n x 4 bytes read
 * per second: it writes almost nothing), as a share of the copy bandwidth (cudaMemcpy device
 * to device of the same bytes, read + written) and against the rung before it (x_prev). The
 * atomics and the last block run twice more on the same floats: whose sum changes? Not
 * gl_demo_table: its speedup is over one baseline and its copy of another size. */
#include "lab.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const variants[] = {"reduce_interleaved", "reduce_sequential",
                                       "reduce_first_add",   "reduce_shuffle",
                                       "reduce_grid_stride", "reduce_last_block",
                                       "reduce_grid_stride_int", NULL};

typedef struct {
    gl_problem p;
    const char *launcher;
    void *buf[3]; /* in, sum, partial */
} job;

static void run(void *arg)
{
    job *j = arg;
    j->p.call(j->p.ctx, j->launcher, j->buf);
}

/* Run to run, on the timed floats: the atomics add the blocks' sums in whatever order the
 * blocks finish; the last block adds them in a fixed order. exact: the exact sum too (in
 * double, on the host). */
static void twice(gl_table *t, const char *key, job *j, int exact)
{
    size_t n = (size_t)((const reduce_size *)j->p.ctx)->n, i;
    float s[2], *in = exact ? malloc(n * sizeof *in + 1) : NULL;
    unsigned u[2], x, bits = 0;
    double sum = 0.0;
    char more[64] = "";
    for (i = 0; i < 2; i++) {
        run(j);
        GL_CUDA(cudaMemcpy(&s[i], j->buf[1], sizeof s[i], cudaMemcpyDeviceToHost));
    }
    memcpy(u, s, sizeof u);
    for (x = u[0] ^ u[1]; x; x &= x - 1)
        bits++;
    if (in) {
        GL_CUDA(cudaMemcpy(in, j->buf[0], n * sizeof *in, cudaMemcpyDeviceToHost));
        for (i = 0; i < n; i++)
            sum += in[i];
        snprintf(more, sizeof more, "; the exact sum is %.9g", sum);
    }
    free(in);
    gl_table_note(t, key, "%s twice: %.9g and %.9g (%u bits differ%s)", j->launcher,
                  (double)s[0], (double)s[1], bits, more);
}

/* Checks j's launcher and times it into its row: its time, or -1 when it is wrong. */
static double row(gl_table *t, job *j, double copy_gbps, double ms_before)
{
    const char *why = gl_problem_check(j->launcher, &j->p, gl_seed());
    double ms;
    int k;
    gl_table_cell(t, "%s", j->launcher + strlen("reduce_"));
    if (*why) {
        printf("%s is WRONG: %s\n", j->launcher, why);
        for (k = 0; k < 4; k++)
            gl_table_cell(t, "-");
        gl_table_cell(t, "WRONG");
        return -1.0;
    }
    j->p.make(j->p.ctx, 0, j->buf[0], gl_problem_seed(gl_seed(), 0)); /* the input checked */
    ms = gl_time_ms(run, j, gl_timing_default());
    gl_table_cell(t, "%.4f", ms);
    gl_table_cell(t, "%.0f", gl_gbps(j->p.work, ms));
    gl_table_cell(t, "%.1f", gl_percent(gl_gbps(j->p.work, ms), copy_gbps));
    if (ms_before > 0.0)
        gl_table_cell(t, "%.2f", ms_before / ms);
    else
        gl_table_cell(t, "-");
    gl_table_cell(t, "ok");
    return ms;
}

int main(int argc, char **argv)
{
    static const char *h[] = {"variant", "time_ms", "GB/s", "pct_of_copy", "x_prev", "check"};
    gl_demo_args args;
    gl_device_info info;
    reduce_size z;
    gl_table *t;
    gl_buf b[3];
    job j;
    double copy, ms = -1.0;
    int v, k, wrong = 0, status;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^28 elements)", 1, 1, REDUCE_MAX_N,
                  &args);
    z.n = args.nvalues > 0 ? (int)args.values[0] : 1 << 28;
    gl_demo_begin(&info);
    copy = gl_memcpy_gbps((size_t)z.n * sizeof(float)); /* the same bytes as the input */
    t = gl_table_new(NULL, 6, h);
    gl_table_note(t, "lab", "10-reduction, n = %d elements (%.0f MiB read)", z.n, z.n / 262144.0);
    gl_table_note(t, "gpu", "%s (sm_%d%d, %d SMs)", info.name, info.cc_major, info.cc_minor,
                  info.sms);
    gl_table_note(t, "copy_gbps", "%.0f (cudaMemcpy device to device of the same %zu bytes, "
                  "counted read + written; theoretical %.0f). GB/s of a reduction: bytes read / "
                  "time", copy, (size_t)z.n * sizeof(float), info.theoretical_gbps);
    gl_table_note(t, "seed", "%llu", (unsigned long long)gl_seed());
    j.p = reduce_problem(variants[0], &z);
    for (k = 0; k < 3; k++) { /* the timed call's buffers: one size for every variant */
        b[k] = gl_buf_alloc(j.p.buf[k].bytes, 0);
        j.buf[k] = b[k].ptr;
    }
    for (v = 0; variants[v]; v++) {
        j.p = reduce_problem(j.launcher = variants[v], &z);
        ms = row(t, &j, copy, ms);
        wrong += ms < 0.0;
        if (ms > 0.0 && !strcmp(j.launcher, "reduce_grid_stride"))
            twice(t, "atomics_runs", &j, 1);
        if (ms > 0.0 && !strcmp(j.launcher, "reduce_last_block"))
            twice(t, "last_block_runs", &j, 0);
    }
    status = gl_demo_end(t, &args, wrong, "10");
    for (k = 0; k < 3; k++)
        gl_buf_free(&b[k]);
    return status;
}
