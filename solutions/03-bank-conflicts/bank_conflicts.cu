/* bank_conflicts.cu: lab 03-bank-conflicts (reference solution).
 *
 * Shared memory has 32 banks of 4-byte words; word w is in bank w % 32.
 * Lanes of a warp that read different words of one bank are served one
 * after the other; lanes that read the same word get it at once (broadcast).
 * The given kernels are in baselines.cu. */
#include "bank_conflicts.h"

/* Task 1: rows of 33 words. Element tile[r][k] is word 33 r + k, in bank
 * (r + k) % 32: the 32 lanes reading column k hit 32 different banks. */
__global__ void tile_gram_padded_kernel(float *out, const float *in, int rows)
{
    __shared__ float tile[BC_TILE][BC_TILE + 1];
    int first = blockIdx.x * BC_TILE;
    int s = threadIdx.y, r = threadIdx.x;

    tile[s][r] = first + s < rows ? in[(first + s) * BC_TILE + r] : 0.0f;
    __syncthreads();

    if (first + s < rows) {
        float sum = 0.0f;
#pragma unroll 1 /* one load per element (README.md, "Wide loads") */
        for (int k = 0; k < BC_TILE; k++)
            sum += tile[s][k] * tile[r][k];
        out[(first + s) * BC_TILE + r] = sum;
    }
}

/* Task 2: count the different words in each bank. */
int bank_conflict_degree(const int *words, int lanes)
{
    int worst = 0;
    for (int bank = 0; bank < BC_BANKS; bank++) {
        int distinct = 0;
        for (int i = 0; i < lanes; i++) {
            if (words[i] % BC_BANKS != bank)
                continue;
            int seen = 0; /* the same word as an earlier lane: a broadcast */
            for (int j = 0; j < i; j++)
                seen |= words[j] == words[i];
            distinct += !seen;
        }
        if (distinct > worst)
            worst = distinct;
    }
    return worst;
}

/* Task 3: a double takes two banks, and a warp's 8-byte reads are served
 * half a warp at a time (16 lanes x 8 bytes = 128 bytes). Element tile[r][k]
 * starts at word 2 (P r + k) for a row of P doubles: 16 lanes hit 16
 * different bank pairs when P is odd. P = 33: one double of padding, not one
 * word (a row of 32.5 doubles would misalign every other row). */
__global__ void tile_gram_double_padded_kernel(double *out, const double *in, int rows)
{
    __shared__ double tile[BC_TILE][BC_TILE + 1];
    int first = blockIdx.x * BC_TILE;
    int s = threadIdx.y, r = threadIdx.x;

    tile[s][r] = first + s < rows ? in[(first + s) * BC_TILE + r] : 0.0;
    __syncthreads();

    if (first + s < rows) {
        double sum = 0.0;
#pragma unroll 1 /* one load per element (README.md, "Wide loads") */
        for (int k = 0; k < BC_TILE; k++)
            sum += tile[s][k] * tile[r][k];
        out[(first + s) * BC_TILE + r] = sum;
    }
}

void tile_gram_padded(float *out, const float *in, int rows)
{
    dim3 block(BC_TILE, BC_TILE);
    if (rows > 0)
        tile_gram_padded_kernel<<<(rows + BC_TILE - 1) / BC_TILE, block>>>(out, in, rows);
}

void tile_gram_double_padded(double *out, const double *in, int rows)
{
    dim3 block(BC_TILE, BC_TILE);
    if (rows > 0)
        tile_gram_double_padded_kernel<<<(rows + BC_TILE - 1) / BC_TILE, block>>>(out, in, rows);
}
