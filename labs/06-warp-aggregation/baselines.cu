/* baselines.cu: lab 06-warp-aggregation's given kernels, the ones you
 * measure against. Read them; do not edit them: the grader builds its own
 * copy. */
#include "warp_aggregation.h"

/* Every thread that keeps its element takes the next slot with its own
 * atomicAdd: all of them on one address. (Look at the SASS before you
 * believe it: the compiler aggregates an atomicAdd of a constant across the
 * warp by itself. README.md shows it.) */
__global__ void filter_atomic_kernel(int *out, int *count, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0)
        out[atomicAdd(count, 1)] = in[i];
}

/* Every thread with items takes their slots with its own atomicAdd, each
 * lane with a different increment. The compiler aggregates these too, but
 * only when all 32 lanes of the warp are active; here the lanes without items
 * skip the atomic, so the warp is almost never whole, and the lanes' atomics
 * go to the one counter one after another (README.md shows the SASS). */
__global__ void emit_atomic_kernel(int *out, int *count, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = in[i];
        int k = items_of(x);
        if (k > 0) {
            int first = atomicAdd(count, k);
            for (int j = 0; j < k; j++)
                out[first + j] = item_value(x, j);
        }
    }
}

/* The kernels count on from *count: it is set to 0 on the stream, before them. */
void filter_atomic(int *out, int *count, const int *in, int n)
{
    cudaMemsetAsync(count, 0, sizeof(int));
    if (n > 0)
        filter_atomic_kernel<<<wa_blocks(n), WA_BLOCK>>>(out, count, in, n);
}

void emit_atomic(int *out, int *count, const int *in, int n)
{
    cudaMemsetAsync(count, 0, sizeof(int));
    if (n > 0)
        emit_atomic_kernel<<<wa_blocks(n), WA_BLOCK>>>(out, count, in, n);
}
