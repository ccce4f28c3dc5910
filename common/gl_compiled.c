/* gl_compiled.c: a kernel the kit ships compiled, loaded through the CUDA driver
 * (gl_compiled.h). The driver is the one the runtime loaded: its functions are looked up
 * at run time, so that nothing links libcuda and a machine without a GPU still runs the
 * programs (which then say there is no GPU before any kernel is launched). It is linked
 * into the lab's demo and into the grader's baselines.so alike, so it depends on nothing
 * else of the kit: a failure prints why and exits 1, as gl_cublas.cu does. */
#include "gl_compiled.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
    int looked_up;
    CUresult (*ctx_get_current)(CUcontext *);
    CUresult (*module_load_data)(CUmodule *, const void *);
    CUresult (*module_get_function)(CUfunction *, CUmodule, const char *);
    CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, CUstream, void **, void **);
    CUresult (*get_error_string)(CUresult, const char **);
} drv;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "the kit's compiled kernel ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

static void *driver_function(void *lib, const char *name)
{
    void *f = dlsym(lib, name);
    if (!f)
        fail("needs the CUDA driver's %s, which this driver lacks", name);
    return f;
}

static void look_up_driver(void)
{
    void *lib;
    if (drv.looked_up)
        return;
    if (!(lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) &&
        !(lib = dlopen("libcuda.so.1", RTLD_NOW)))
        fail("needs the CUDA driver (libcuda.so.1), which could not be loaded: %s", dlerror());
    *(void **)&drv.ctx_get_current = driver_function(lib, "cuCtxGetCurrent");
    *(void **)&drv.module_load_data = driver_function(lib, "cuModuleLoadData");
    *(void **)&drv.module_get_function = driver_function(lib, "cuModuleGetFunction");
    *(void **)&drv.launch_kernel = driver_function(lib, "cuLaunchKernel");
    *(void **)&drv.get_error_string = driver_function(lib, "cuGetErrorString");
    drv.looked_up = 1;
}

static const char *why(CUresult r)
{
    const char *s = NULL;
    if (drv.get_error_string(r, &s) != CUDA_SUCCESS || !s)
        s = "an unknown CUDA driver error";
    return s;
}

void gl_compiled_launch(gl_compiled_kernel *k, unsigned gx, unsigned gy, unsigned bx,
                        unsigned by, void **args)
{
    CUcontext ctx = NULL;
    CUmodule module;
    CUfunction fn;
    CUresult r;

    look_up_driver();
    /* the runtime's context for the current device, current on this thread */
    if (cudaFree(0) != cudaSuccess || drv.ctx_get_current(&ctx) != CUDA_SUCCESS || !ctx)
        fail("%s: no CUDA context to load it in", k->name);
    if (k->context != (void *)ctx) {
        if ((r = drv.module_load_data(&module, k->image)) != CUDA_SUCCESS)
            fail("%s could not be loaded on this GPU (%s): rebuild the kit for it "
                 "(make clean all)",
                 k->name, why(r));
        if ((r = drv.module_get_function(&fn, module, k->name)) != CUDA_SUCCESS)
            fail("%s is not in its fatbinary (%s)", k->name, why(r));
        k->context = ctx;
        k->function = fn;
    }
    if ((r = drv.launch_kernel((CUfunction)k->function, gx, gy, 1, bx, by, 1, 0, NULL, args,
                               NULL)) != CUDA_SUCCESS)
        fail("%s: the launch failed (%s)", k->name, why(r));
}
