/* baselines.cu: lab 03-bank-conflicts's given kernels, the ones you measure
 * against. Read them; do not edit them: the grader builds its own copy. */
#include "bank_conflicts.h"

/* One warp per tile of 32 rows. The load is coalesced: lane l reads column l
 * of each row. Then lane l sums row l of the tile: at step k the 32 lanes
 * read tile[0][k], tile[1][k], ... tile[31][k], a column of the tile. With
 * rows of 32 words, all of them are in bank k: a 32-way bank conflict. */
__global__ void row_sums_kernel(float *out, const float *in, int rows)
{
    __shared__ float tile[BC_TILE][BC_TILE];
    int first = blockIdx.x * BC_TILE; /* the tile's first row */

    for (int r = 0; r < BC_TILE; r++)
        if (first + r < rows)
            tile[r][threadIdx.x] = in[(first + r) * BC_TILE + threadIdx.x];
    __syncthreads();

    if (first + threadIdx.x < rows) {
        float sum = 0.0f;
        for (int k = 0; k < BC_TILE; k++)
            sum += tile[threadIdx.x][k];
        out[first + threadIdx.x] = sum;
    }
}

/* The same on doubles: each element takes two banks. */
__global__ void row_sums_double_kernel(double *out, const double *in, int rows)
{
    __shared__ double tile[BC_TILE][BC_TILE];
    int first = blockIdx.x * BC_TILE;

    for (int r = 0; r < BC_TILE; r++)
        if (first + r < rows)
            tile[r][threadIdx.x] = in[(first + r) * BC_TILE + threadIdx.x];
    __syncthreads();

    if (first + threadIdx.x < rows) {
        double sum = 0.0;
        for (int k = 0; k < BC_TILE; k++)
            sum += tile[threadIdx.x][k];
        out[first + threadIdx.x] = sum;
    }
}

/* Lane i reads word words[i] over and over; volatile makes every read a
 * shared-memory load. The sum is never stored (it cannot be that value), but
 * the compiler cannot know. */
__global__ void bank_probe_kernel(int *sink, const int *words, int iters)
{
    __shared__ int smem[BC_PROBE_WORDS];
    volatile int *s = smem;
    int w = words[threadIdx.x % 32], acc = 0;

    for (int i = threadIdx.x; i < BC_PROBE_WORDS; i += blockDim.x)
        smem[i] = i;
    __syncthreads();
    for (int it = 0; it < iters; it++)
        acc += s[w];
    if (acc == 0x7fffffff)
        *sink = acc;
}

void row_sums(float *out, const float *in, int rows)
{
    if (rows > 0)
        row_sums_kernel<<<(rows + BC_TILE - 1) / BC_TILE, BC_TILE>>>(out, in, rows);
}

void row_sums_double(double *out, const double *in, int rows)
{
    if (rows > 0)
        row_sums_double_kernel<<<(rows + BC_TILE - 1) / BC_TILE, BC_TILE>>>(out, in, rows);
}

void bank_probe(int *sink, const int *words, int iters)
{
    static int sms;
    if (sms == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    }
    bank_probe_kernel<<<4 * sms, 256>>>(sink, words, iters);
}
