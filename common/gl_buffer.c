/* gl_buffer.c: guarded, poisoned device buffers. */
#include "gl_buffer.h"

#include "gl_check.h"

#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned char gl_guard_byte(unsigned salt, size_t offset)
{
    uint32_t x = (uint32_t)offset * 0x9e3779b1u ^ (uint32_t)salt * 0x85ebca6bu;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    return (unsigned char)x;
}

void gl_guard_fill(unsigned char *guard, size_t n, unsigned salt)
{
    size_t i;
    for (i = 0; i < n; i++)
        guard[i] = gl_guard_byte(salt, i);
}

static gl_dev_alloc dev_alloc;
static gl_dev_free dev_free;

void gl_buf_set_allocator(gl_dev_alloc alloc, gl_dev_free release)
{
    dev_alloc = alloc;
    dev_free = release;
}

static gl_dev_alloc host_alloc;
static gl_dev_free host_free;

void gl_buf_set_host_allocator(gl_dev_alloc alloc, gl_dev_free release)
{
    host_alloc = alloc;
    host_free = release;
}

static gl_poison_hook poison_hook;

void gl_buf_set_poison_hook(gl_poison_hook hook)
{
    poison_hook = hook;
}

static gl_made_hook made_hook;

void gl_buf_set_made_hook(gl_made_hook hook)
{
    made_hook = hook;
}

void gl_buf_made(const gl_buf *b)
{
    if (made_hook)
        made_hook(b->ptr, b->bytes);
}

static gl_buf buf_alloc(size_t bytes, size_t guard, int host)
{
    static unsigned next_salt = 0x2545f491u;
    unsigned char *h;
    gl_buf b;
    if (guard == 0)
        guard = 4096;
    guard = (guard + GL_GUARD_ALIGN - 1) / GL_GUARD_ALIGN * GL_GUARD_ALIGN;
    b.bytes = bytes;
    b.guard = guard;
    b.salt = next_salt;
    next_salt += 2; /* every buffer's guards differ from every other's */
    if (!(h = malloc(guard)))
        gl_fail("out of host memory for a %zu-byte guard", guard);
    b.host = host;
    if (host && host_alloc)
        b.base = host_alloc(bytes + 2 * guard);
    else if (host)
        GL_CUDA(cudaMallocHost((void **)&b.base, bytes + 2 * guard));
    else if (dev_alloc)
        b.base = dev_alloc(bytes + 2 * guard);
    else
        GL_CUDA(cudaMalloc((void **)&b.base, bytes + 2 * guard));
    gl_guard_fill(h, guard, b.salt);
    GL_CUDA(cudaMemcpy(b.base, h, guard, cudaMemcpyDefault));
    gl_guard_fill(h, guard, b.salt + 1);
    GL_CUDA(cudaMemcpy(b.base + guard + bytes, h, guard, cudaMemcpyDefault));
    free(h);
    b.ptr = b.base + guard;
    if ((uintptr_t)b.ptr % GL_GUARD_ALIGN)
        gl_fail("a %zu-byte buffer at %p is not %d-byte aligned (the kit's error: its allocator "
                "must align every buffer so)", bytes, (void *)b.ptr, GL_GUARD_ALIGN);
    return b;
}

gl_buf gl_buf_alloc(size_t bytes, size_t guard)
{
    return buf_alloc(bytes, guard, 0);
}

gl_buf gl_buf_alloc_host(size_t bytes, size_t guard)
{
    return buf_alloc(bytes, guard, 1);
}

void gl_buf_free(gl_buf *b)
{
    if (b->base && b->host && host_free)
        host_free(b->base);
    else if (b->base && b->host)
        GL_CUDA(cudaFreeHost(b->base));
    else if (b->base && dev_free)
        dev_free(b->base);
    else if (b->base)
        GL_CUDA(cudaFree(b->base));
    memset(b, 0, sizeof *b);
}

void gl_buf_upload(gl_buf *b, const void *host)
{
    if (b->bytes)
        GL_CUDA(cudaMemcpy(b->ptr, host, b->bytes, cudaMemcpyDefault));
}

void gl_buf_download(const gl_buf *b, void *host)
{
    if (b->bytes)
        GL_CUDA(cudaMemcpy(host, b->ptr, b->bytes, cudaMemcpyDefault));
}

void gl_buf_poison(gl_buf *b)
{
    if (b->bytes)
        GL_CUDA(cudaMemset(b->ptr, GL_POISON_BYTE, b->bytes));
    if (poison_hook)
        poison_hook(b->ptr, b->bytes);
}

size_t gl_guard_scan(const unsigned char *guard, size_t n, unsigned salt, size_t *first,
                     size_t *last)
{
    size_t i, changed = 0;
    for (i = 0; i < n; i++) {
        if (guard[i] != gl_guard_byte(salt, i)) {
            if (changed == 0 && first)
                *first = i;
            if (last)
                *last = i;
            changed++;
        }
    }
    return changed;
}

size_t gl_buf_check_guards(const gl_buf *b, gl_guard_report *r)
{
    unsigned char *h = malloc(b->guard);
    gl_guard_report local;
    size_t ignored;

    if (!h)
        gl_fail("out of host memory for a %zu-byte guard", b->guard);
    if (!r)
        r = &local;
    memset(r, 0, sizeof *r);
    r->guard = b->guard;
    GL_CUDA(cudaMemcpy(h, b->base, b->guard, cudaMemcpyDefault));
    r->before = gl_guard_scan(h, b->guard, b->salt, &r->first_before, &ignored);
    GL_CUDA(cudaMemcpy(h, b->base + b->guard + b->bytes, b->guard, cudaMemcpyDefault));
    r->after = gl_guard_scan(h, b->guard, b->salt + 1, &r->first_after, &r->last_after);
    free(h);
    return r->before + r->after;
}

void gl_guard_describe(const gl_guard_report *r, size_t payload_bytes, size_t elem_size,
                       const char *name, char *buf, size_t len)
{
    size_t n = payload_bytes / elem_size;
    int w = 0;
    buf[0] = '\0';
    if (r->after) {
        w = snprintf(buf, len,
                     "wrote past the end of %s (%zu elements): %zu bytes changed after it, "
                     "from %s[%zu] to %s[%zu]",
                     name, n, r->after, name, n + r->first_after / elem_size, name,
                     n + r->last_after / elem_size);
    }
    if (r->before && (size_t)w < len) {
        snprintf(buf + w, len - (size_t)w,
                 "%swrote before the start of %s: %zu bytes changed, the lowest at %s[-%zu]",
                 w ? "; " : "", name, r->before, name,
                 (r->guard - r->first_before + elem_size - 1) / elem_size);
    }
}
