/* tests/04-constant-memory.cu: the suite's own kernel (the judge's), the reference for the timed
 * outputs of tasks 2 and 3, whose given kernels are their lessons' slow sides (25 ms and 3.4 ms
 * a call on an H100): out[i] = sum for k < terms of weight[k] * src[(start(i) + k) & mask], the
 * lookup with start(i) = idx[i], weights 1, mask CM_TABLE - 1, the convolution with start(i) = i,
 * its taps as weights, no mask; from global memory, in the same order: it takes no side. */
#include "constant_memory.h"

#include <cuda_runtime.h>

static_assert((CM_TABLE & (CM_TABLE - 1)) == 0, "CM_TABLE is a power of two");

__global__ void suite_window_sum_kernel(float *out, const float *src, const int *start,
                                        const float *weight, int terms, unsigned mask, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned from = start ? (unsigned)start[i] : (unsigned)i;
    float sum = 0.0f;
    for (int k = 0; k < terms; k++)
        sum += (weight ? weight[k] : 1.0f) * src[(from + k) & mask];
    out[i] = sum;
}

/* start NULL: start(i) = i; weight NULL: every weight 1 */
extern "C" void cm_suite_window_sum(float *out, const float *src, const int *start,
                                    const float *weight, int terms, unsigned mask, int n)
{
    if (n > 0 && terms >= 1)
        suite_window_sum_kernel<<<cm_blocks(n), CM_BLOCK>>>(out, src, start, weight, terms, mask,
                                                            n);
}
