/* demo.c: lab 02-coalescing's measurements (make run LAB=02: your coalescing.cu; make demo
 * LAB=02: the reference): build/.../demo [--csv FILE] [N], by default N = 2^24 floats. Four
 * experiments on the lab's problems (lab.c), each row checked as the grader checks it, then timed
 * and shown as effective bandwidth (useful bytes read + written) and a share of cudaMemcpy's:
 * stride, your strided_copy at strides 1 to 32; offset, the given copy from `offset` floats past a
 * 256-byte boundary; kick, the given array of structures against your structure of arrays;
 * matrix_add, 8192 x 8192, the given mapping against yours. */
#include "lab.h" /* and, through gpulabs.h, <stdio.h> */

/* The rows: the strides and offsets (0 to 39) made by main, the kicks (kick.n = N), the adds */
static co_size sizes[40], kick, add = {.rows = 8192, .cols = 8192};
static char params[40][8];
static gl_demo_row rows[] = {[40] = {"kick_aos", "kick", "aos", &kick},
                             {"kick_soa", "kick", "soa", &kick},
                             {"matrix_add_naive", "matrix_add", "naive", &add},
                             {"matrix_add", "matrix_add", "coalesced", &add}, {NULL}};

int main(int argc, char **argv)
{
    static const int offsets[] = {0, 1, 2, 4, 8, 16, 31, 32};
    gl_demo_args args;
    gl_device_info info;
    char why[256], note[64];

    gl_demo_parse(argc, argv, "[--csv FILE] [N]  (default 2^24 floats)", 1, 1, 1 << 25, &args);
    /* the stride-32 input is 32 N floats: 2 GiB at the default N */
    int n = args.nvalues ? (int)args.values[0]
            : gl_device_query(&info, why, sizeof why) == 0 &&
                    info.global_mem_bytes >= ((size_t)8 << 30) ? 1 << 24 : 1 << 22;
    for (int i = 0; i < 40; i++) { /* strided_copy at strides 1 to 32, then copy_float's offsets */
        int stride = i < 32 ? i + 1 : 1, offset = i < 32 ? 0 : offsets[i - 32];
        sizes[i] = (co_size){.n = n, .stride = stride, .offset = offset};
        snprintf(params[i], sizeof params[i], "%d", i < 32 ? stride : offset);
        rows[i] = (gl_demo_row){i < 32 ? "strided_copy" : "copy_float",
                                i < 32 ? "stride" : "offset", params[i], &sizes[i]};
    }
    kick.n = n;
    snprintf(note, sizeof note, "N = %d floats, matrices 8192 x 8192", n);
    return gl_demo_sweep("02-coalescing", note, "experiment", "param", rows, co_problem, &args);
}
