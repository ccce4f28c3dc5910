/* sgemm.cu: lab 11-sgemm (reference solution).
 *
 * C = A B in FP32, row-major: A is m x k, B is k x n, C is m x n. Each step
 * of the worklog makes a thread do more multiply-adds per float it reads:
 * from shared memory into registers (tasks 1 and 2), with fewer and wider
 * instructions (task 3), and with the global loads of the next tile hidden
 * behind the math on this one (task 4). The given steps (naive, 32 x 32
 * tiles) and cuBLAS are in labs/11-sgemm/baselines.cu. */
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
    __shared__ float as[BM1][BK1];
    __shared__ float bs[BK1][BN1];
    int t = threadIdx.x;
    int row0 = blockIdx.y * BM1, col0 = blockIdx.x * BN1;
    int a_row = t / BK1, a_col = t % BK1; /* the element of each tile this thread loads */
    int b_row = t / BN1, b_col = t % BN1;
    int row = t / BN1 * TM1, col = t % BN1; /* its results: rows row .. row + TM1 - 1 of col */
    float acc[TM1] = {0.0f};

    for (int k0 = 0; k0 < k; k0 += BK1) {
        as[a_row][a_col] =
            row0 + a_row < m && k0 + a_col < k ? a[(row0 + a_row) * k + k0 + a_col] : 0.0f;
        bs[b_row][b_col] =
            k0 + b_row < k && col0 + b_col < n ? b[(k0 + b_row) * n + col0 + b_col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < BK1; i++) {
            float b_i = bs[i][col]; /* one shared load, TM1 multiply-adds */
#pragma unroll
            for (int r = 0; r < TM1; r++)
                acc[r] += as[row + r][i] * b_i;
        }
        __syncthreads(); /* the next step overwrites the tiles */
    }
#pragma unroll
    for (int r = 0; r < TM1; r++)
        if (row0 + row + r < m && col0 + col < n)
            c[(row0 + row + r) * n + col0 + col] = acc[r];
}

/* Task 2: 2D block tiling. A block of THREADS_2D threads computes a BM x BN
 * tile of C; thread (ty, tx) = (t / 16, t % 16) owns the TM x TN results from
 * row ty * TM and column tx * TN of it, in registers. Per step of k it reads
 * TM values of A and TN of B from shared memory for TM * TN multiply-adds. */
__global__ __launch_bounds__(THREADS_2D) void sgemm_blocktiled_2d_kernel(float *c, const float *a,
                                                                         const float *b, int m,
                                                                         int n, int k)
{
    __shared__ float as[BM][BK];
    __shared__ float bs[BK][BN];
    int t = threadIdx.x;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int ty = t / (BN / TN), tx = t % (BN / TN);
    float acc[TM][TN] = {{0.0f}};
    float a_reg[TM], b_reg[TN];

    for (int k0 = 0; k0 < k; k0 += BK) {
        /* BM * BK = 1024 floats of A, 4 per thread: rows t / BK + 32 j */
#pragma unroll
        for (int j = 0; j < BM * BK / THREADS_2D; j++) {
            int r = t / BK + j * (THREADS_2D / BK), i = t % BK;
            as[r][i] = row0 + r < m && k0 + i < k ? a[(row0 + r) * k + k0 + i] : 0.0f;
        }
        /* BK * BN = 1024 floats of B, 4 per thread: rows t / BN + 2 j */
#pragma unroll
        for (int j = 0; j < BK * BN / THREADS_2D; j++) {
            int i = t / BN + j * (THREADS_2D / BN), col = t % BN;
            bs[i][col] = k0 + i < k && col0 + col < n ? b[(k0 + i) * n + col0 + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < BK; i++) {
#pragma unroll
            for (int r = 0; r < TM; r++)
                a_reg[r] = as[ty * TM + r][i];
#pragma unroll
            for (int q = 0; q < TN; q++)
                b_reg[q] = bs[i][tx * TN + q];
#pragma unroll
            for (int r = 0; r < TM; r++)
#pragma unroll
                for (int q = 0; q < TN; q++)
                    acc[r][q] += a_reg[r] * b_reg[q];
        }
        __syncthreads(); /* the next step overwrites the tiles */
    }
#pragma unroll
    for (int r = 0; r < TM; r++)
#pragma unroll
        for (int q = 0; q < TN; q++)
            if (row0 + ty * TM + r < m && col0 + tx * TN + q < n)
                c[(row0 + ty * TM + r) * n + col0 + tx * TN + q] = acc[r][q];
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
    __shared__ __align__(16) float as[BK][BM];
    __shared__ __align__(16) float bs[BK][BN];
    int t = threadIdx.x;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int a_row = t / 2, a_col = t % 2 * 4;
    int b_row = t / 32, b_col = t % 32 * 4;
    int ty = t / 16, tx = t % 16;
    float acc[TM][TN] = {{0.0f}};

    for (int k0 = 0; k0 < k; k0 += BK) {
        float4 va = load4(a, row0 + a_row, k0 + a_col, m, k, vec);
        float4 vb = load4(b, k0 + b_row, col0 + b_col, k, n, vec);
        as[a_col][a_row] = va.x; /* transposed: four rows of as */
        as[a_col + 1][a_row] = va.y;
        as[a_col + 2][a_row] = va.z;
        as[a_col + 3][a_row] = va.w;
        *reinterpret_cast<float4 *>(&bs[b_row][b_col]) = vb;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < BK; i++) {
            float4 a_top = *reinterpret_cast<const float4 *>(&as[i][ty * 4]);
            float4 a_bottom = *reinterpret_cast<const float4 *>(&as[i][64 + ty * 4]);
            float4 b_left = *reinterpret_cast<const float4 *>(&bs[i][tx * 4]);
            float4 b_right = *reinterpret_cast<const float4 *>(&bs[i][64 + tx * 4]);
            float a_reg[TM] = {a_top.x, a_top.y, a_top.z, a_top.w,
                               a_bottom.x, a_bottom.y, a_bottom.z, a_bottom.w};
            float b_reg[TN] = {b_left.x, b_left.y, b_left.z, b_left.w,
                               b_right.x, b_right.y, b_right.z, b_right.w};
#pragma unroll
            for (int r = 0; r < TM; r++)
#pragma unroll
                for (int q = 0; q < TN; q++)
                    acc[r][q] += a_reg[r] * b_reg[q];
        }
        __syncthreads();
    }
    /* acc[r][q]: row ty * 4 + r % 4 (+ 64 for r >= 4), column tx * 4 + q % 4
     * (+ 64 for q >= 4) of the block's tile */
#pragma unroll
    for (int r = 0; r < TM; r++)
#pragma unroll
        for (int q = 0; q < TN; q += 4)
            store4(c, row0 + ty * 4 + r % 4 + r / 4 * 64, col0 + tx * 4 + q / 4 * 64, m, n,
                   make_float4(acc[r][q], acc[r][q + 1], acc[r][q + 2], acc[r][q + 3]), vec);
}

/* Task 4: task 3 with two buffers of each tile. The next tile's global loads
 * are issued into registers before the math on this one, and stored into the
 * other buffer after it: the loads are in flight while the multiply-adds run,
 * and one barrier per step is enough. */
__global__ __launch_bounds__(THREADS_2D) void sgemm_prefetch_kernel(float *c, const float *a,
                                                                    const float *b, int m, int n,
                                                                    int k, int vec)
{
    __shared__ __align__(16) float as[2][BK][BM];
    __shared__ __align__(16) float bs[2][BK][BN];
    int t = threadIdx.x;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int a_row = t / 2, a_col = t % 2 * 4;
    int b_row = t / 32, b_col = t % 32 * 4;
    int ty = t / 16, tx = t % 16;
    float acc[TM][TN] = {{0.0f}};
    float4 va = load4(a, row0 + a_row, a_col, m, k, vec);
    float4 vb = load4(b, b_row, col0 + b_col, k, n, vec);
    int buf = 0;

    /* the first tile, into buffer 0 */
    as[0][a_col][a_row] = va.x;
    as[0][a_col + 1][a_row] = va.y;
    as[0][a_col + 2][a_row] = va.z;
    as[0][a_col + 3][a_row] = va.w;
    *reinterpret_cast<float4 *>(&bs[0][b_row][b_col]) = vb;
    __syncthreads();

    for (int k0 = 0; k0 < k; k0 += BK) {
        int more = k0 + BK < k;
        if (more) { /* issue the next tile's loads now; use them after the math */
            va = load4(a, row0 + a_row, k0 + BK + a_col, m, k, vec);
            vb = load4(b, k0 + BK + b_row, col0 + b_col, k, n, vec);
        }
#pragma unroll
        for (int i = 0; i < BK; i++) {
            float4 a_top = *reinterpret_cast<const float4 *>(&as[buf][i][ty * 4]);
            float4 a_bottom = *reinterpret_cast<const float4 *>(&as[buf][i][64 + ty * 4]);
            float4 b_left = *reinterpret_cast<const float4 *>(&bs[buf][i][tx * 4]);
            float4 b_right = *reinterpret_cast<const float4 *>(&bs[buf][i][64 + tx * 4]);
            float a_reg[TM] = {a_top.x, a_top.y, a_top.z, a_top.w,
                               a_bottom.x, a_bottom.y, a_bottom.z, a_bottom.w};
            float b_reg[TN] = {b_left.x, b_left.y, b_left.z, b_left.w,
                               b_right.x, b_right.y, b_right.z, b_right.w};
#pragma unroll
            for (int r = 0; r < TM; r++)
#pragma unroll
                for (int q = 0; q < TN; q++)
                    acc[r][q] += a_reg[r] * b_reg[q];
        }
        if (more) { /* the other buffer: every thread finished reading it before the last barrier */
            int next = buf ^ 1;
            as[next][a_col][a_row] = va.x;
            as[next][a_col + 1][a_row] = va.y;
            as[next][a_col + 2][a_row] = va.z;
            as[next][a_col + 3][a_row] = va.w;
            *reinterpret_cast<float4 *>(&bs[next][b_row][b_col]) = vb;
        }
        __syncthreads(); /* the next tile is in, and everyone is done with this one */
        buf ^= 1;
    }
#pragma unroll
    for (int r = 0; r < TM; r++)
#pragma unroll
        for (int q = 0; q < TN; q += 4)
            store4(c, row0 + ty * 4 + r % 4 + r / 4 * 64, col0 + tx * 4 + q / 4 * 64, m, n,
                   make_float4(acc[r][q], acc[r][q + 1], acc[r][q + 2], acc[r][q + 3]), vec);
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
