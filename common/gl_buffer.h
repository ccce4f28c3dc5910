/* gl_buffer.h: device buffers that catch unwritten outputs and stray writes.
 *
 * A gl_buf is one cudaMalloc: a guard zone, the payload, another guard zone.
 * Guards hold a pattern of bytes that depends on the buffer and the offset
 * (gl_guard_byte), so any stray write changes it, even one that copies bytes
 * from another buffer's guard. An output payload is filled with
 * GL_POISON_BYTE before a run (a NaN as float, -1 as int), so an element the
 * code under test never wrote is still poison afterwards. */
#ifndef GL_BUFFER_H
#define GL_BUFFER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GL_POISON_BYTE 0xFF
#define GL_GUARD_ALIGN 512 /* guards are whole multiples: the payload stays 512-byte aligned (any
                            * GPU's textureAlignment: a texture may read a buffer where it starts) */

typedef struct gl_buf_s {
    unsigned char *base; /* the whole allocation */
    void *ptr;           /* the payload, handed to the code under test */
    size_t bytes;        /* payload size */
    size_t guard;        /* guard size before and after the payload */
    unsigned salt;       /* the front guard's pattern; the back guard's is salt + 1 */
    int host;            /* pinned host memory (gl_buf_alloc_host), reached by the GPU */
} gl_buf;

typedef struct {
    size_t guard;               /* size of each guard */
    size_t before, after;       /* guard bytes changed before / after the payload */
    size_t first_before;        /* offset into the front guard of the lowest change */
    size_t first_after;         /* offset past the payload's end of the lowest change */
    size_t last_after;          /* offset past the payload's end of the highest change */
} gl_guard_report;

/* Where buffers come from: cudaMalloc by default; the grader's judge hands
 * out pieces of the memory it shares with the subject process. */
typedef void *(*gl_dev_alloc)(size_t bytes);
typedef void (*gl_dev_free)(void *p);
void gl_buf_set_allocator(gl_dev_alloc alloc, gl_dev_free release);
/* Where host buffers come from (gl_buf_alloc_host): cudaMallocHost by default; the grader's
 * judge hands out pieces of the pinned host memory it shares with the subject. */
void gl_buf_set_host_allocator(gl_dev_alloc alloc, gl_dev_free release);

/* Told of every buffer poisoned (the grader's judge: a timed round's outputs, whose
 * contents it fingerprints when the code under test says it is done); NULL: nobody. */
typedef void (*gl_poison_hook)(void *ptr, size_t bytes);
void gl_buf_set_poison_hook(gl_poison_hook hook);
/* Told of an output poisoned and then made (one a call updates in place): its contents now
 * are what it was made as, so only what differs from them later was written (the grader's
 * count of the bytes a profiled run's kernels must have stored); NULL: nobody. */
typedef void (*gl_made_hook)(void *ptr, size_t bytes);
void gl_buf_set_made_hook(gl_made_hook hook);
void gl_buf_made(const gl_buf *b);

/* guard: bytes on each side, rounded up to GL_GUARD_ALIGN (0 gives 4096). */
gl_buf gl_buf_alloc(size_t bytes, size_t guard);
/* The same in pinned host memory (a lab whose launchers copy between the host and the
 * device): the GPU reaches it by the same pointer (UVA), so every function here works on it. */
gl_buf gl_buf_alloc_host(size_t bytes, size_t guard);
void gl_buf_free(gl_buf *b);
void gl_buf_upload(gl_buf *b, const void *host);
void gl_buf_download(const gl_buf *b, void *host);
void gl_buf_poison(gl_buf *b);

/* Downloads both guards; returns the number of changed bytes (0: intact). */
size_t gl_buf_check_guards(const gl_buf *b, gl_guard_report *r);

/* The guard pattern's byte at offset, for a salt. */
unsigned char gl_guard_byte(unsigned salt, size_t offset);
void gl_guard_fill(unsigned char *guard, size_t n, unsigned salt);

/* Host-side scan of a guard copy: changed bytes, lowest and highest offset. */
size_t gl_guard_scan(const unsigned char *guard, size_t n, unsigned salt, size_t *first,
                     size_t *last);

/* One sentence on a damaged guard, in elements of elem_size bytes of the
 * array called name (e.g. "out"), into buf. */
void gl_guard_describe(const gl_guard_report *r, size_t payload_bytes, size_t elem_size,
                       const char *name, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
