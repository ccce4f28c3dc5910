/* baselines.cu: lab 03-bank-conflicts's given kernels, the ones you measure
 * against. Read them; do not edit them: the grader builds its own copy. */
#include "bank_conflicts.h"

/* One block of 32 x 32 threads per tile of 32 rows. Warp s (threadIdx.y) loads
 * row s of the tile, coalesced, then computes row s of the tile's Gram matrix:
 * lane r (threadIdx.x) takes the dot product of rows s and r. At step k the 32
 * lanes read tile[s][k], one word for all of them (a broadcast), and
 * tile[0][k], tile[1][k], ... tile[31][k], a column of the tile. With rows of
 * 32 words, that column is all in bank k: a 32-way bank conflict. Each thread
 * makes 64 shared loads, 32 of them column reads, for one element it loads
 * from global memory and one it stores. */
__global__ void tile_gram_kernel(float *out, const float *in, int rows)
{
    __shared__ float tile[BC_TILE][BC_TILE];
    int first = blockIdx.x * BC_TILE; /* the tile's first row */
    int s = threadIdx.y, r = threadIdx.x;

    /* rows past the last one are rows of zeros */
    tile[s][r] = first + s < rows ? in[(first + s) * BC_TILE + r] : 0.0f;
    __syncthreads();

    if (first + s < rows) {
        float sum = 0.0f;
#pragma unroll 1 /* one load per element (README.md, "Wide loads") */
        for (int k = 0; k < BC_TILE; k++)
            sum += tile[s][k] * tile[r][k];
        out[(first + s) * BC_TILE + r] = sum; /* lanes write consecutive words */
    }
}

/* The same on doubles: each element takes two banks. */
__global__ void tile_gram_double_kernel(double *out, const double *in, int rows)
{
    __shared__ double tile[BC_TILE][BC_TILE];
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

void tile_gram(float *out, const float *in, int rows)
{
    dim3 block(BC_TILE, BC_TILE); /* 32 warps: warp s computes row s of a tile's matrix */
    if (rows > 0)
        tile_gram_kernel<<<(rows + BC_TILE - 1) / BC_TILE, block>>>(out, in, rows);
}

void tile_gram_double(double *out, const double *in, int rows)
{
    dim3 block(BC_TILE, BC_TILE);
    if (rows > 0)
        tile_gram_double_kernel<<<(rows + BC_TILE - 1) / BC_TILE, block>>>(out, in, rows);
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
