/* demo.c: lab 03-bank-conflicts's bank maps and measurements: build/.../demo [--csv FILE] [ROWS]
 * (2^20 rows of 32 by default; make run LAB=03: your file, make demo LAB=03: the reference). A
 * few access patterns (each lane's bank, your bank_conflict_degree's count, the probe's time),
 * then the tile Gram matrices, unpadded (given) and padded (yours), each checked, then timed. */
#include "lab.h" /* and, through gpulabs.h, <stdio.h> */

static char predicted[6][12]; /* by bank_conflict_degree */
static bc_gram_size gram; /* the correctness tests' problem, at the demo's size */

/* Pattern i: lane l reads word first + l * stride (lab.h), an access of that many wavefronts */
#define PROBE(i, name, stride, first, wavefronts) {.launcher = "bank_probe", .label = "probe", \
    .keys = {name, predicted[i]}, .size = &(bc_probe_size){stride, first, wavefronts}, \
    .over = &cases[0], .slowdown = 1, .unchecked = "-"}
#define GRAM(fn, unpadded) {.launcher = fn, .label = "tile gram", .keys = {fn, "-"}, \
    .size = &gram, .over = &cases[unpadded]}
static const gl_demo_case cases[] = {
    PROBE(0, "row of tile[32][32]", 1, 5 * 32, 1), PROBE(1, "column of tile[32][32]", 32, 5, 32),
    PROBE(2, "column of tile[32][33]", 33, 5, 1), PROBE(3, "stride 2", 2, 0, 2),
    PROBE(4, "stride 3", 3, 0, 1), PROBE(5, "broadcast", 0, 7, 1),
    GRAM("tile_gram", 6), GRAM("tile_gram_padded", 6), GRAM("tile_gram_double", 8),
    GRAM("tile_gram_double_padded", 8), {.launcher = NULL}};

/* Each pattern's bank map, and what bank_conflict_degree says of it; the notes (the GPU found) */
static void bank_maps(gl_table *t)
{
    int i, l, words[32], got;
    printf("Bank of the word each lane reads (lanes 0 to 31), the wavefronts your\n"
           "bank_conflict_degree predicts, and the probe's time (%d reads per lane):\n\n",
           BC_PROBE_ITERS);
    for (i = 0; i < 6; i++) {
        const bc_probe_size *z = cases[i].size;
        printf("  %-24s", cases[i].keys[0]);
        for (l = 0; l < 32; l++) {
            words[l] = z->first + l * z->stride; /* as the probe reads them */
            printf(" %d", words[l] % BC_BANKS);
        }
        const char *why = bc_degree_check(cases[i].keys[0], words, 32, z->wavefronts, &got);
        snprintf(predicted[i], sizeof predicted[i], "%d", got);
        printf("\n%s%s%s", *why ? "    " : "", why, *why ? "\n" : "");
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
    gl_demo_parse(argc, argv, "[--csv FILE] [ROWS]  (default 2^20 rows of 32)", 1, 1,
                  (1L << 31) / BC_TILE - 1, &args);
    gram.rows = args.nvalues ? (int)args.values[0] : 1 << 20;
    snprintf(note, sizeof note, "tile Gram matrices of %d rows of %d", gram.rows, BC_TILE);
    return gl_demo_cases("03-bank-conflicts", note, cases, bc_problem, &options, &args);
}
