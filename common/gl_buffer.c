/* gl_buffer.c: guarded, poisoned device buffers. */
#include "gl_buffer.h"

#include "gl_check.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gl_buf gl_buf_alloc(size_t bytes, size_t guard)
{
    gl_buf b;
    if (guard == 0)
        guard = 4096;
    guard = (guard + GL_GUARD_ALIGN - 1) / GL_GUARD_ALIGN * GL_GUARD_ALIGN;
    b.bytes = bytes;
    b.guard = guard;
    GL_CUDA(cudaMalloc((void **)&b.base, bytes + 2 * guard));
    GL_CUDA(cudaMemset(b.base, GL_GUARD_BYTE, guard));
    GL_CUDA(cudaMemset(b.base + guard + bytes, GL_GUARD_BYTE, guard));
    b.ptr = b.base + guard;
    return b;
}

void gl_buf_free(gl_buf *b)
{
    if (b->base)
        GL_CUDA(cudaFree(b->base));
    memset(b, 0, sizeof *b);
}

void gl_buf_upload(gl_buf *b, const void *host)
{
    if (b->bytes)
        GL_CUDA(cudaMemcpy(b->ptr, host, b->bytes, cudaMemcpyHostToDevice));
}

void gl_buf_download(const gl_buf *b, void *host)
{
    if (b->bytes)
        GL_CUDA(cudaMemcpy(host, b->ptr, b->bytes, cudaMemcpyDeviceToHost));
}

void gl_buf_poison(gl_buf *b)
{
    if (b->bytes)
        GL_CUDA(cudaMemset(b->ptr, GL_POISON_BYTE, b->bytes));
}

size_t gl_guard_scan(const unsigned char *guard, size_t n, size_t *first, size_t *last)
{
    size_t i, changed = 0;
    for (i = 0; i < n; i++) {
        if (guard[i] != GL_GUARD_BYTE) {
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
    GL_CUDA(cudaMemcpy(h, b->base, b->guard, cudaMemcpyDeviceToHost));
    r->before = gl_guard_scan(h, b->guard, &r->first_before, &ignored);
    GL_CUDA(cudaMemcpy(h, b->base + b->guard + b->bytes, b->guard, cudaMemcpyDeviceToHost));
    r->after = gl_guard_scan(h, b->guard, &r->first_after, &r->last_after);
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
