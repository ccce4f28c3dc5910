/* demo.c: lab 02-coalescing's measurements.
 *
 *   make run LAB=02      your coalescing.cu        make demo LAB=02   the reference
 *   build/.../demo [--csv FILE] [N]                (default N = 2^24 floats)
 *
 * Four experiments on the lab's problems (lab.c), each row checked as the grader checks it
 * before it is timed (median of 21 runs, L2 flushed before each), reported as effective
 * bandwidth: useful bytes read + written per second, and as a share of cudaMemcpy.
 *   stride       your strided_copy, strides 1 to 32
 *   offset       the given copy, from a start `offset` floats past a 256-byte boundary
 *   kick         the given array of structures against your structure of arrays
 *   matrix_add   8192 x 8192, the given mapping against yours */
#include "lab.h"

#include <stdio.h>

#define ROWS (32 + 8 + 2 + 2)

static gl_demo_row rows[ROWS + 1];
static co_size sizes[ROWS];
static char params[ROWS][16];
static int nrows;

static void row(const char *experiment, const char *param, const char *launcher, co_size z)
{
    sizes[nrows] = z;
    snprintf(params[nrows], sizeof params[nrows], "%s", param);
    rows[nrows] = (gl_demo_row){launcher, experiment, params[nrows], &sizes[nrows]};
    nrows++;
}

int main(int argc, char **argv)
{
    static const int offsets[] = {0, 1, 2, 4, 8, 16, 31, 32};
    gl_demo_args args;
    gl_device_info info;
    char why[256], note[64], p[16];
    int n, i;

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 floats)", 1, 1, 1 << 25, &args);
    /* the stride-32 input is 32 N floats: 2 GiB at the default N */
    n = args.nvalues ? (int)args.values[0]
        : gl_device_query(&info, why, sizeof why) == 0 &&
                info.global_mem_bytes >= ((size_t)8 << 30) ? 1 << 24 : 1 << 22;
    for (i = 1; i <= 32; i++) {
        snprintf(p, sizeof p, "%d", i);
        row("stride", p, "strided_copy", (co_size){.n = n, .stride = i});
    }
    for (i = 0; i < (int)(sizeof offsets / sizeof offsets[0]); i++) {
        snprintf(p, sizeof p, "%d", offsets[i]);
        row("offset", p, "copy_float", (co_size){.n = n, .offset = offsets[i]});
    }
    row("kick", "aos", "kick_aos", (co_size){.n = n});
    row("kick", "soa", "kick_soa", (co_size){.n = n});
    row("matrix_add", "naive", "matrix_add_naive", (co_size){.rows = 8192, .cols = 8192});
    row("matrix_add", "coalesced", "matrix_add", (co_size){.rows = 8192, .cols = 8192});
    snprintf(note, sizeof note, "N = %d floats, matrices 8192 x 8192", n);
    return gl_demo_sweep("02-coalescing", note, "experiment", "param", rows, co_problem, &args);
}
