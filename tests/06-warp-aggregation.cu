/* tests/06-warp-aggregation.cu: the suite's own kernels (the judge's, never a student's).
 *
 * The digest of what a timed call must append, computed from its input without writing
 * it: the emitters' reference (emit_atomic) takes 20 ms a call on the timed input, with
 * every thread's atomic on one counter; this takes a fraction of a millisecond. */
#include "warp_aggregation.h"

#include "gl_check.h"
#include "gl_device_data.h"

#include <cuda_runtime.h>

__global__ void expected_digest_kernel(const int *in, int n, int filter, unsigned long long key,
                                       unsigned long long *out)
{
    unsigned long long count = 0, sum = 0, x = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (filter) {
            if (v > 0) {
                unsigned long long h = gl_digest_hash(v, key);
                count++, sum += h, x ^= h;
            }
        } else {
            for (int j = 0; j < items_of(v); j++) {
                unsigned long long h = gl_digest_hash(item_value(v, j), key);
                count++, sum += h, x ^= h;
            }
        }
    }
    for (int d = 16; d > 0; d /= 2) { /* one atomic per warp */
        count += __shfl_xor_sync(0xffffffffu, count, d);
        sum += __shfl_xor_sync(0xffffffffu, sum, d);
        x ^= __shfl_xor_sync(0xffffffffu, x, d);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(&out[0], count);
        atomicAdd(&out[1], sum);
        atomicXor(&out[2], x);
    }
}

/* What filter (1) or an emitter (0) must append for in[0, n): how many values, and the
 * digest of their multiset (gl_device_digest_ints of a right output gives the same). */
extern "C" gl_digest wa_expected_digest(const int *in, int n, int filter, unsigned long long key)
{
    static unsigned long long *d;
    unsigned long long h[3] = {0, 0, 0};
    gl_digest r;
    if (!d)
        GL_CUDA(cudaMalloc((void **)&d, sizeof h));
    GL_CUDA(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    if (n > 0)
        expected_digest_kernel<<<1024, 256>>>(in, n, filter, key, d);
    GL_CUDA(cudaGetLastError());
    GL_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    r.count = (size_t)h[0];
    r.sum = h[1];
    r.xor_ = h[2];
    return r;
}
