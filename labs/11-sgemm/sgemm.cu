/* sgemm.cu: lab 11-sgemm. Your file: the only one graded.
 *
 * C = A B in FP32, row-major: A is m x k, B is k x n, C is m x n. Each step
 * of the worklog makes a thread do more multiply-adds per float it reads:
 * from shared memory into registers (tasks 1 and 2), with fewer and wider
 * instructions (task 3), and with the global loads of the next tile hidden
 * behind the math on this one (task 4). The given steps (naive, 32 x 32
 * tiles) and cuBLAS are in baselines.cu. README.md tells the story and the
 * tasks; `make run LAB=11` shows where you are, `make check LAB=11` grades
 * it. */
#include "sgemm.h"

#include <stdint.h>

/* ---- given: 128-bit accesses that fall back to scalar ones ---- */

/* Four consecutive floats of row `row` of a row-major rows x cols matrix p,
 * from column col on; zeros for those outside the matrix (the edges of the
 * last tiles). One 128-bit load when vec says every row starts 16-byte
 * aligned (cols % 4 == 0 and p aligned: the launcher checks) and all four
 * are inside; four guarded scalar loads otherwise. col is a multiple of 4. */
__device__ __forceinline__ float4 load4(const float *p, int row, int col, int rows, int cols,
                                        int vec)
{
    float4 v;
    if (vec && row < rows && col + 3 < cols)
        return *reinterpret_cast<const float4 *>(&p[row * cols + col]);
    v.x = row < rows && col < cols ? p[row * cols + col] : 0.0f;
    v.y = row < rows && col + 1 < cols ? p[row * cols + col + 1] : 0.0f;
    v.z = row < rows && col + 2 < cols ? p[row * cols + col + 2] : 0.0f;
    v.w = row < rows && col + 3 < cols ? p[row * cols + col + 3] : 0.0f;
    return v;
}

/* The other way: v into columns col .. col + 3 of row `row` of c, leaving out
 * what is outside the matrix. */
__device__ __forceinline__ void store4(float *c, int row, int col, int rows, int cols, float4 v,
                                       int vec)
{
    if (row >= rows)
        return;
    if (vec && col + 3 < cols) {
        *reinterpret_cast<float4 *>(&c[row * cols + col]) = v;
        return;
    }
    if (col < cols)
        c[row * cols + col] = v.x;
    if (col + 1 < cols)
        c[row * cols + col + 1] = v.y;
    if (col + 2 < cols)
        c[row * cols + col + 2] = v.z;
    if (col + 3 < cols)
        c[row * cols + col + 3] = v.w;
}

/* Task 1 (README.md): 1D block tiling. A block of THREADS_1D threads
 * computes a BM1 x BN1 tile of C; thread t owns column t % BN1 of it and the
 * TM1 rows from (t / BN1) * TM1 on. Per step of k, each value of B it reads
 * from shared memory serves TM1 multiply-adds. */
__global__ __launch_bounds__(THREADS_1D) void sgemm_blocktiled_1d_kernel(float *c, const float *a,
                                                                         const float *b, int m,
                                                                         int n, int k)
{
    /* TODO(1): with
     *     __shared__ float as[BM1][BK1];   the block's rows of A, BK1 columns
     *     __shared__ float bs[BK1][BN1];   BK1 rows of B, the block's columns
     * and t = threadIdx.x, the block's tile starting at row0 = blockIdx.y * BM1,
     * col0 = blockIdx.x * BN1, for k0 = 0, BK1, 2 BK1, ... < k:
     * 1. Load one element of each tile per thread: as[t / BK1][t % BK1] and
     *    bs[t / BN1][t % BN1], from A and B; 0.0f for an element outside A or
     *    B (the last tiles stick out of the matrices when m, n or k are not
     *    multiples of the tile). __syncthreads().
     * 2. For i = 0 .. BK1 - 1: read bs[i][t % BN1] once into a register, and
     *    add its product with as[row + r][i] to acc[r] for r = 0 .. TM1 - 1,
     *    where row = (t / BN1) * TM1. acc is a float[TM1] in registers:
     *    loops with constant bounds (#pragma unroll) keep it there.
     *    __syncthreads() before the next step overwrites the tiles.
     * Then write acc[r] to C(row0 + row + r, col0 + t % BN1), inside C only. */
}

/* Task 2: 2D block tiling. A block of THREADS_2D threads computes a BM x BN
 * tile of C; thread (ty, tx) = (t / 16, t % 16) owns the TM x TN results from
 * row ty * TM and column tx * TN of it, in registers. Per step of k it reads
 * TM values of A and TN of B from shared memory for TM * TN multiply-adds. */
__global__ __launch_bounds__(THREADS_2D) void sgemm_blocktiled_2d_kernel(float *c, const float *a,
                                                                         const float *b, int m,
                                                                         int n, int k)
{
    /* TODO(2): as task 1 with
     *     __shared__ float as[BM][BK];
     *     __shared__ float bs[BK][BN];
     * the block's tile at row0 = blockIdx.y * BM, col0 = blockIdx.x * BN, and
     * thread t = threadIdx.x owning the TM x TN results from row ty * TM and
     * column tx * TN of it, where ty = t / (BN / TN) and tx = t % (BN / TN):
     *     float acc[TM][TN], a_reg[TM], b_reg[TN];
     * 1. Each tile has BM * BK = 1024 floats for 256 threads: thread t loads
     *    4 of A, as[t / BK + 32 j][t % BK] for j = 0 .. 3, and 4 of B,
     *    bs[t / BN + 2 j][t % BN]; zeros outside the matrices.
     *    __syncthreads().
     * 2. For i = 0 .. BK - 1: a_reg[r] = as[ty * TM + r][i],
     *    b_reg[q] = bs[i][tx * TN + q], then acc[r][q] += a_reg[r] * b_reg[q]
     *    for every r and q: 64 multiply-adds for 16 shared loads. Every loop
     *    over r and q with constant bounds and #pragma unroll: a register tile
     *    indexed by a run-time value goes to (slow) local memory.
     *    __syncthreads().
     * Then write the 64 results, inside C only. */
}

/* Task 3: task 2 with 128-bit accesses. A's tile is stored transposed,
 * as[i][r] = A(row0 + r, k0 + i), so a thread's values of A for one i are
 * consecutive. Thread t loads one float4 of A (row t / 2, columns (t % 2) * 4
 * on) and one of B (row t / 32, columns (t % 32) * 4 on). Thread (ty, tx) owns
 * four 4 x 4 quadrants: rows ty * 4 and 64 + ty * 4, columns tx * 4 and
 * 64 + tx * 4, so the 16 threads of a half-warp read 16 consecutive float4 of
 * bs (no bank conflicts). __align__(16): a float4 access needs it. */
__global__ __launch_bounds__(THREADS_2D) void sgemm_vectorized_kernel(float *c, const float *a,
                                                                      const float *b, int m,
                                                                      int n, int k, int vec)
{
    /* TODO(3): task 2 with 128-bit accesses (README.md, task 3):
     *     __shared__ __align__(16) float as[BK][BM];  A's tile TRANSPOSED:
     *                                    as[i][r] = A(row0 + r, k0 + i)
     *     __shared__ __align__(16) float bs[BK][BN];
     * 1. Thread t loads one float4 of A with
     *    load4(a, row0 + t / 2, k0 + t % 2 * 4, m, k, vec): row t / 2 of the
     *    tile, columns (t % 2) * 4 .. + 3, and stores its four floats down a
     *    column of as: as[t % 2 * 4 + 0 .. 3][t / 2]. It loads one float4 of
     *    B, row t / 32, columns (t % 32) * 4 .. + 3, and stores it whole:
     *    *reinterpret_cast<float4 *>(&bs[t / 32][t % 32 * 4]) = ...
     *    load4 (above) falls back to scalar loads where a float4 would be
     *    misaligned or stick out of the matrix. __syncthreads().
     * 2. Thread (ty, tx) = (t / 16, t % 16) owns four 4 x 4 quadrants of the
     *    block's tile: rows ty * 4 and 64 + ty * 4, columns tx * 4 and
     *    64 + tx * 4 (not an 8 x 8 square: the 16 threads of a half-warp then
     *    read 16 consecutive float4 of bs, with no bank conflict). For each i,
     *    read four float4 from shared memory, as[i][ty * 4], as[i][64 + ty * 4],
     *    bs[i][tx * 4] and bs[i][64 + tx * 4], and do the 64 multiply-adds
     *    into acc[TM][TN] (rows 0..3 and columns 0..3 of acc: the first
     *    quadrant, and so on). __syncthreads().
     * Then store each row of each quadrant with store4 (above), at row
     * row0 + ty * 4 + r % 4 + r / 4 * 64 and column col0 + tx * 4 + q / 4 * 64
     * for acc[r][q .. q + 3], q = 0 and 4. */
}

/* Task 4: task 3 with two buffers of each tile. The next tile's global loads
 * are issued into registers before the math on this one, and stored into the
 * other buffer after it: the loads are in flight while the multiply-adds run,
 * and one barrier per step is enough. */
__global__ __launch_bounds__(THREADS_2D) void sgemm_prefetch_kernel(float *c, const float *a,
                                                                    const float *b, int m, int n,
                                                                    int k, int vec)
{
    /* TODO(4): task 3 with two buffers of each tile (README.md, task 4):
     *     __shared__ __align__(16) float as[2][BK][BM];
     *     __shared__ __align__(16) float bs[2][BK][BN];
     * 1. Before the loop: load the first tile (k0 = 0) into buffer 0 as in
     *    task 3; __syncthreads(); buf = 0.
     * 2. At each step k0: if there is a next tile (k0 + BK < k), load it from
     *    global memory into registers (the two float4 of load4) FIRST; then
     *    do the math on buffer buf; then store the registers into the OTHER
     *    buffer, buf ^ 1 (the one everybody finished reading before the last
     *    barrier); one __syncthreads(); buf ^= 1. The loads are in flight
     *    while the multiply-adds run. Every tile, the last one too, is used.
     * 3. Store the results as in task 3. */
}

/* ---- given: the launchers ---- */

/* 128-bit accesses need 16-byte aligned addresses: every row of A, B and C
 * starts on one when k and n are multiples of 4 and the pointers are aligned. */
static int can_vectorize(const float *c, const float *a, const float *b, int n, int k)
{
    return k % 4 == 0 && n % 4 == 0 &&
           ((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) % 16 == 0;
}

void sgemm_blocktiled_1d(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 grid((n + BN1 - 1) / BN1, (m + BM1 - 1) / BM1);
    if (m > 0 && n > 0)
        sgemm_blocktiled_1d_kernel<<<grid, THREADS_1D>>>(c, a, b, m, n, k);
}

void sgemm_blocktiled_2d(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    if (m > 0 && n > 0)
        sgemm_blocktiled_2d_kernel<<<grid, THREADS_2D>>>(c, a, b, m, n, k);
}

void sgemm_vectorized(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    if (m > 0 && n > 0)
        sgemm_vectorized_kernel<<<grid, THREADS_2D>>>(c, a, b, m, n, k,
                                                      can_vectorize(c, a, b, n, k));
}

void sgemm_prefetch(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    if (m > 0 && n > 0)
        sgemm_prefetch_kernel<<<grid, THREADS_2D>>>(c, a, b, m, n, k,
                                                    can_vectorize(c, a, b, n, k));
}
