/* gl_check.c: CUDA error checks with file, line and a likely cause. */
#include "gl_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void default_fail(const char *message)
{
    fprintf(stderr, "%s\n", message);
    exit(1);
}

static gl_fail_handler fail_handler = default_fail;

gl_fail_handler gl_set_fail_handler(gl_fail_handler handler)
{
    gl_fail_handler old = fail_handler;
    fail_handler = handler ? handler : default_fail;
    return old;
}

void gl_fail(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fail_handler(buf);
    abort(); /* a handler that returns is a bug: never continue after a failure */
}

void *gl_host_alloc(size_t bytes)
{
    void *p = malloc(bytes + 1);
    if (!p)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return p;
}

const char *gl_cuda_likely_cause(cudaError_t err)
{
    switch (err) {
    case cudaErrorIllegalAddress:
        return "a kernel read or wrote outside its arrays: check the bounds test "
               "(sizes that are not a multiple of the tile or block) and the index arithmetic";
    case cudaErrorMisalignedAddress:
        return "a vector or wide access (int2, int4, float4) at an address that is not a "
               "multiple of its size: fall back to scalar accesses for unaligned pointers";
    case cudaErrorInvalidConfiguration:
        return "the grid or block is invalid: more than 1024 threads per block, a zero "
               "dimension (a size of 0?), gridDim.y or .z over 65535, or too much shared memory";
    case cudaErrorLaunchOutOfResources:
        return "the block needs more registers or shared memory than a multiprocessor has: "
               "use fewer threads per block or a smaller tile";
    case cudaErrorInvalidValue:
        return "an argument is out of range: a host pointer where a device pointer is "
               "expected, a size or copy direction that does not fit, or a symbol not declared";
    case cudaErrorInvalidDevicePointer:
        return "a pointer that is not device memory was passed where a device pointer is expected";
    case cudaErrorMemoryAllocation:
        return "the GPU is out of memory: the sizes are too large for this device, or "
               "another process holds its memory";
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidKernelImage:
        return "the program holds no code for this GPU: rebuild with make clean; make "
               "(or make ARCH=sm_XX for this GPU's compute capability)";
    case cudaErrorUnsupportedPtxVersion:
        return "the GPU driver is older than the CUDA toolkit that built the program: "
               "update the driver or build with an older toolkit";
    case cudaErrorInsufficientDriver:
        return "no NVIDIA driver for this CUDA version is loaded: is there a GPU in this machine?";
    case cudaErrorNoDevice:
        return "no CUDA-capable GPU is visible (check nvidia-smi and CUDA_VISIBLE_DEVICES)";
    case cudaErrorLaunchTimeout:
        return "a kernel ran too long and the display watchdog stopped it: an endless loop?";
    case cudaErrorAssert:
        return "an assert() inside a kernel failed";
    case cudaErrorIllegalInstruction:
        return "a kernel executed an illegal instruction: __syncthreads() or a "
               "warp-synchronous call (__shfl_sync, __ballot_sync) with the wrong mask or in a branch "
               "not all threads reach";
    case cudaErrorLaunchFailure:
        return "a kernel failed (an invalid memory access or a trap)";
    case cudaErrorInvalidDeviceFunction:
        return "the kernel was not built for this GPU, or a function pointer is not a kernel";
    case cudaErrorInvalidSymbol:
        return "the symbol is not a __constant__ or __device__ variable of this program";
    default:
        return "see the CUDA Runtime API documentation for this error";
    }
}

void gl_cuda_describe(cudaError_t err, char *buf, unsigned long len)
{
    snprintf(buf, len, "%s (%s). Likely cause: %s", cudaGetErrorName(err),
             cudaGetErrorString(err), gl_cuda_likely_cause(err));
}

void gl_cuda_check_at(cudaError_t err, const char *call, const char *file, int line)
{
    char why[1024];
    if (err == cudaSuccess)
        return;
    gl_cuda_describe(err, why, sizeof why);
    gl_fail("CUDA error at %s:%d in %s: %s", file, line, call, why);
}

void gl_check_launch_at(const char *what, const char *file, int line)
{
    char why[1024];
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        gl_cuda_describe(err, why, sizeof why);
        gl_fail("%s: the kernel launch failed (%s:%d): %s", what, file, line, why);
    }
    err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        gl_cuda_describe(err, why, sizeof why);
        gl_fail("%s: the kernel failed while running (%s:%d): %s", what, file, line, why);
    }
}
