/* vmm_pool.c: see vmm_pool.h. */
#define _GNU_SOURCE
#include "vmm_pool.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static struct {
    int loaded;
    CUresult (*create)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *,
                       unsigned long long);
    CUresult (*granularity)(size_t *, const CUmemAllocationProp *,
                            CUmemAllocationGranularity_flags);
    CUresult (*reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
                    unsigned long long);
    CUresult (*access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    CUresult (*export_fd)(void *, CUmemGenericAllocationHandle, CUmemAllocationHandleType,
                          unsigned long long);
    CUresult (*import_fd)(CUmemGenericAllocationHandle *, void *, CUmemAllocationHandleType);
    CUresult (*current_device)(CUdevice *);
    CUresult (*unmap)(CUdeviceptr, size_t);
    CUresult (*address_free)(CUdeviceptr, size_t);
    CUresult (*release)(CUmemGenericAllocationHandle);
    CUmemGenericAllocationHandle created; /* gl_vmm_create's, for gl_vmm_destroy */
} d;

static int load(char *why, size_t len)
{
    void *lib;
    if (d.loaded)
        return d.loaded > 0 ? 0 : -1;
    d.loaded = -1;
    if (!(lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL))) {
        snprintf(why, len, "no CUDA driver library (libcuda.so.1)");
        return -1;
    }
    *(void **)&d.create = dlsym(lib, "cuMemCreate");
    *(void **)&d.granularity = dlsym(lib, "cuMemGetAllocationGranularity");
    *(void **)&d.reserve = dlsym(lib, "cuMemAddressReserve");
    *(void **)&d.map = dlsym(lib, "cuMemMap");
    *(void **)&d.access = dlsym(lib, "cuMemSetAccess");
    *(void **)&d.export_fd = dlsym(lib, "cuMemExportToShareableHandle");
    *(void **)&d.import_fd = dlsym(lib, "cuMemImportFromShareableHandle");
    *(void **)&d.current_device = dlsym(lib, "cuCtxGetDevice");
    *(void **)&d.unmap = dlsym(lib, "cuMemUnmap");
    *(void **)&d.address_free = dlsym(lib, "cuMemAddressFree");
    *(void **)&d.release = dlsym(lib, "cuMemRelease");
    if (!d.create || !d.granularity || !d.reserve || !d.map || !d.access || !d.export_fd ||
        !d.import_fd || !d.current_device) {
        snprintf(why, len, "the CUDA driver has no virtual memory API");
        return -1;
    }
    d.loaded = 1;
    return 0;
}

static int prop_of_current(CUmemAllocationProp *p, char *why, size_t len)
{
    CUdevice dev = 0;
    memset(p, 0, sizeof *p);
    if (d.current_device(&dev) != CUDA_SUCCESS) {
        snprintf(why, len, "no current CUDA context");
        return -1;
    }
    p->type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p->location.id = dev;
    p->requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return 0;
}

static int map_here(CUmemGenericAllocationHandle h, size_t bytes, int dev, void **ptr,
                    char *why, size_t len)
{
    CUdeviceptr va = 0;
    CUmemAccessDesc a;
    CUresult r;
    memset(&a, 0, sizeof a);
    a.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    a.location.id = dev;
    a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if ((r = d.reserve(&va, bytes, 0, 0, 0)) != CUDA_SUCCESS ||
        (r = d.map(va, bytes, 0, h, 0)) != CUDA_SUCCESS ||
        (r = d.access(va, bytes, &a, 1)) != CUDA_SUCCESS) {
        snprintf(why, len, "the pool could not be mapped (CUDA driver error %d)", (int)r);
        return -1;
    }
    *ptr = (void *)(uintptr_t)va;
    return 0;
}

int gl_vmm_create(size_t *bytes, void **ptr, int *fd, char *why, size_t len)
{
    CUmemAllocationProp p;
    CUmemGenericAllocationHandle h;
    size_t g = 0;
    CUresult r;
    if (load(why, len) || prop_of_current(&p, why, len))
        return -1;
    if ((r = d.granularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)) != CUDA_SUCCESS || !g)
        g = 2 << 20;
    *bytes = (*bytes + g - 1) / g * g;
    if ((r = d.create(&h, *bytes, &p, 0)) != CUDA_SUCCESS) {
        snprintf(why, len, "the driver could not allocate a shareable pool (error %d)", (int)r);
        return -1;
    }
    d.created = h;
    if ((r = d.export_fd(fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0)) != CUDA_SUCCESS) {
        snprintf(why, len, "the driver could not export the pool (error %d)", (int)r);
        return -1;
    }
    return map_here(h, *bytes, p.location.id, ptr, why, len);
}

int gl_vmm_import(int fd, size_t bytes, void **ptr, char *why, size_t len)
{
    CUmemAllocationProp p;
    CUmemGenericAllocationHandle h;
    CUresult r;
    if (load(why, len) || prop_of_current(&p, why, len))
        return -1;
    if ((r = d.import_fd(&h, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)) !=
        CUDA_SUCCESS) {
        snprintf(why, len, "the judge's pool could not be imported (CUDA driver error %d)",
                 (int)r);
        return -1;
    }
    return map_here(h, bytes, p.location.id, ptr, why, len);
}

void gl_vmm_destroy(void *ptr, size_t bytes)
{
    CUdeviceptr va = (CUdeviceptr)(uintptr_t)ptr;
    if (d.loaded <= 0 || !d.unmap || !d.address_free || !d.release)
        return;
    d.unmap(va, bytes);
    d.address_free(va, bytes);
    d.release(d.created);
}
