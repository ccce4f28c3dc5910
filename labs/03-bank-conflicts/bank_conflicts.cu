/* bank_conflicts.cu: lab 03-bank-conflicts. Your file: the only one graded.
 *
 * Shared memory has 32 banks of 4-byte words; word w is in bank w % 32.
 * Lanes of a warp that read different words of one bank are served one
 * after the other; lanes that read the same word get it at once (broadcast).
 * The given kernels are in baselines.cu. README.md tells the story and the
 * tasks; `make run LAB=03` shows where you are, `make check LAB=03` grades it. */
#include "bank_conflicts.h"

/* TODO(1): copy tile_gram_kernel from baselines.cu and pad its tile so that
 * the 32 lanes reading a column of it hit 32 different banks. */
__global__ void tile_gram_padded_kernel(float *out, const float *in, int rows)
{
}

/* TODO(2): how many wavefronts does the access take? For each bank, count
 * the different words that the lanes read in it (lanes reading the same word
 * count once); return the largest count. */
int bank_conflict_degree(const int *words, int lanes)
{
    return 0;
}

/* TODO(3): copy tile_gram_double_kernel from baselines.cu and pad its tile.
 * A double takes two banks, and a warp's 8-byte reads are served half a warp
 * at a time: work out which row lengths let 16 lanes reading a column hit 16
 * different bank pairs. Is one word of padding possible? Is it enough? */
__global__ void tile_gram_double_padded_kernel(double *out, const double *in, int rows)
{
}

void tile_gram_padded(float *out, const float *in, int rows)
{
    dim3 block(BC_TILE, BC_TILE); /* 32 warps: warp s computes row s of a tile's matrix */
    if (rows > 0)
        tile_gram_padded_kernel<<<(rows + BC_TILE - 1) / BC_TILE, block>>>(out, in, rows);
}

void tile_gram_double_padded(double *out, const double *in, int rows)
{
    dim3 block(BC_TILE, BC_TILE);
    if (rows > 0)
        tile_gram_double_padded_kernel<<<(rows + BC_TILE - 1) / BC_TILE, block>>>(out, in, rows);
}
