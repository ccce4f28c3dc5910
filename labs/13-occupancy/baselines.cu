/* baselines.cu: lab 13-occupancy's given kernels, the ones you measure against.
 * Read them; do not edit them: the grader builds its own copy. */
#include "occupancy.h"

/* The walk (occupancy.h), with a grid-stride loop: thread t of the grid handles
 * elements t, t + G, t + 2G, ... where G is the number of threads in the grid, so
 * any grid covers any n. */
__global__ void walk_kernel(int *out, const int *table, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int c = i;
        for (int s = 0; s < WALK_HOPS; s++)
            c = (i + table[s * n + c]) % n; /* waits for the load: its column is c */
        out[i] = c;
    }
}

static int sm_count(void)
{
    int device, sms;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
        return 1; /* the launch then shows the error */
    return sms;
}

/* One block of WALK_GIVEN_THREADS threads per SM: 2 warps per SM, out of 64 on an
 * H100. While a warp waits for its load, nothing else is there to run. */
void walk_one_block_per_sm(int *out, const int *table, int n)
{
    if (n > 0)
        walk_kernel<<<sm_count(), WALK_GIVEN_THREADS>>>(out, table, n);
}

void walk_sized(int *out, const int *table, int n, int threads, int blocks_per_sm)
{
    if (n > 0 && threads > 0 && blocks_per_sm > 0)
        walk_kernel<<<blocks_per_sm * sm_count(), threads>>>(out, table, n);
}

/* The mixed walk (occupancy.h): MIX_WORDS words of state in registers, loops the
 * compiler unrolls (constant bounds), one thread per element. ptxas gives it more
 * than 64 registers: 65536 / (68 x 512) holds one block of MIX_THREADS per SM. */
__global__ void mix_walk_kernel(int *out, const int *table, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned mix[MIX_WORDS];
    for (int k = 0; k < MIX_WORDS; k++)
        mix[k] = k;
    int c = i;
    for (int s = 0; s < WALK_HOPS; s++) {
        int value = table[s * n + c];
        c = (i + value) % n;
        for (int k = 0; k < MIX_WORDS; k++)
            mix[k] = mix[k] * 33u + (value ^ k);
    }
    unsigned h = 0;
    for (int k = 0; k < MIX_WORDS; k++)
        h ^= mix[k] >> (k % 16);
    out[i] = c ^ (int)(h & 0x7fffffff);
}

void mix_walk(int *out, const int *table, int n)
{
    if (n > 0)
        mix_walk_kernel<<<(n + MIX_THREADS - 1) / MIX_THREADS, MIX_THREADS>>>(out, table, n);
}
