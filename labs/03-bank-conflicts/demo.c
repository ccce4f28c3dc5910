/* demo.c: lab 03-bank-conflicts's bank maps and measurements (make run LAB=03: your file; make
 * demo LAB=03: the reference): access patterns (each lane's bank, your bank_conflict_degree's
 * count, the probe's time), then the tile Gram matrices, unpadded and padded, checked, timed. */
#include "lab.h" /* and, through gpulabs.h, <stdio.h> */

#define ITERS 4096 /* the probe's reads per lane */
static char predicted[6][12];   /* by bank_conflict_degree */
static gl_arg probe_args[6][3]; /* bank_probe's: its sink, the pattern's words, ITERS */
static bc_gram_size gram;       /* the correctness tests' problem, at the demo's size */
#define PROBE(i, name, stride, first, wavefronts) {.launcher = "bank_probe", .label = "probe", \
    .keys = {name, predicted[i]}, .size = (int[]){stride, first, wavefronts}, \
    .args = probe_args[i], .over = &cases[0], .slowdown = 1, .unchecked = "-"}
#define GRAM(fn, unpadded) {.launcher = fn, .label = "tile gram", .keys = {fn, "-"}, \
    .size = &gram, .over = &cases[unpadded]}
static const gl_demo_case cases[] = {
    PROBE(0, "row of tile[32][32]", 1, 5 * 32, 1), PROBE(1, "column of tile[32][32]", 32, 5, 32),
    PROBE(2, "column of tile[32][33]", 33, 5, 1), PROBE(3, "stride 2", 2, 0, 2),
    PROBE(4, "stride 3", 3, 0, 1), PROBE(5, "broadcast", 0, 7, 1),
    GRAM("tile_gram", 6), GRAM("tile_gram_padded", 6), GRAM("tile_gram_double", 8),
    GRAM("tile_gram_double_padded", 8), {.launcher = NULL}};

/* Before the cases: each pattern's bank map and predicted count, its words on the GPU */
static void bank_maps(gl_table *t)
{
    int i, l, words[32], got, *dev; /* the patterns' words, then the probe's sink */
    GL_CUDA(cudaMalloc((void **)&dev, (6 * 32 + 1) * sizeof(int)));
    printf("Bank of the word each lane reads (lanes 0 to 31), the wavefronts your\n"
           "bank_conflict_degree predicts, and the probe's time (%d reads per lane):\n\n", ITERS);
    for (i = 0; i < 6; i++) {
        const int *z = cases[i].size; /* lane l reads word z[1] + l * z[0]: z[2] wavefronts */
        printf("  %-24s", cases[i].keys[0]);
        for (l = 0; l < 32; l++) /* each lane's word, and its bank */
            printf(" %d", (words[l] = z[1] + l * z[0]) % BC_BANKS);
        const char *why = bc_degree_check(cases[i].keys[0], words, 32, z[2], &got);
        snprintf(predicted[i], sizeof predicted[i], "%d", got);
        printf("\n%s%s%s", *why ? "    " : "", why, *why ? "\n" : "");
        GL_CUDA(cudaMemcpy(dev + 32 * i, words, sizeof words, cudaMemcpyHostToDevice));
        probe_args[i][0] = GL_P(dev + 6 * 32);
        probe_args[i][1] = GL_P(dev + 32 * i);
        probe_args[i][2] = GL_I(ITERS);
    }
    printf("\n");
    gl_table_note(t, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + write)",
                  gl_memcpy_gbps(0));
    gl_table_note(t, "columns", "probe rows: slowdown against the row pattern; tile gram: GB/s of "
                  "global memory (in + out), speed-up of the padded kernel over the unpadded one");
}

int main(int argc, char **argv)
{
    static const gl_demo_options options = {.variant = "experiment", .no_memcpy = 1,
        .keys = {"pattern", "predicted_wavefronts"}, .speedup = "speedup_or_slowdown",
        .before = bank_maps};
    gl_demo_args args;
    char note[96];
    gl_demo_dims(argc, argv, "[--csv FILE] [ROWS]  (default 2^20 rows of 32)", 1, 1 << 20,
                 (1L << 31) / BC_TILE - 1, &args, &gram.rows);
    snprintf(note, sizeof note, "tile Gram matrices of %d rows of %d", gram.rows, BC_TILE);
    return gl_demo_cases("03-bank-conflicts", note, cases, bc_problem, &options, &args);
}
