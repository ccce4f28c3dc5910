/* judge_pool.c: the judge's state (judge_state.h: J, the one instance every part of the
 * judge shares) and its memory pool: allocated up front by gl_judge_init (judge.c), shared
 * with the subject, handed out in pieces by gl_buf_alloc (first fit), taken back whole at
 * every test's start. */
#include "grader.h"
#include "judge_state.h"

#include <string.h>

struct judge_state J;

/* ---- the pool: first fit over a list of pieces ---- */

#define POOL_ALIGN 512 /* GL_GUARD_ALIGN: a buffer's payload 512-byte aligned */

struct judge_piece used[MAX_PIECES];
int nused;

/* bytes from a list of pieces (*n of them) of a pool of `total` bytes at base: first fit */
static void *first_fit(struct judge_piece *list, int *n, unsigned char *base, size_t total,
                       size_t bytes, const char *what)
{
    size_t at = 0;
    int i, k;
    bytes = (bytes + POOL_ALIGN - 1) / POOL_ALIGN * POOL_ALIGN;
    if (bytes == 0)
        bytes = POOL_ALIGN;
    for (i = 0; i <= *n; i++) {
        size_t end = i < *n ? list[i].off : total;
        if (end >= at && end - at >= bytes)
            break;
        if (i < *n)
            at = list[i].off + list[i].bytes;
    }
    if (i > *n || *n == MAX_PIECES)
        gl_kit_error("the grader's %s (%zu MiB) is full: a test asked for %zu MiB "
                     "more (a bug of the kit: make the lab's pool larger)",
                     what, total >> 20, bytes >> 20);
    for (k = *n; k > i; k--)
        list[k] = list[k - 1];
    list[i].off = at;
    list[i].bytes = bytes;
    (*n)++;
    return base + at;
}

static void piece_free(struct judge_piece *list, int *n, size_t off)
{
    int i;
    for (i = 0; i < *n; i++)
        if (list[i].off == off) {
            memmove(&list[i], &list[i + 1], (size_t)(*n - i - 1) * sizeof list[0]);
            (*n)--;
            return;
        }
}

void *pool_alloc(size_t bytes)
{
    return first_fit(used, &nused, J.pool, J.pool_bytes, bytes, "memory pool");
}

void pool_free(void *p)
{
    piece_free(used, &nused, (size_t)((unsigned char *)p - J.pool));
}

/* ---- the host pool (a lab whose launchers copy between the host and the device) ---- */

static struct judge_piece host_used[MAX_PIECES];
static int host_nused;

void *host_pool_alloc(size_t bytes)
{
    if (!J.host_pool)
        gl_kit_error("a host buffer, but the lab has no host pool (GL_LAB.host_pool_mib)");
    return first_fit(host_used, &host_nused, J.host_pool, J.host_pool_bytes, bytes,
                     "pinned host pool");
}

void host_pool_free(void *p)
{
    piece_free(host_used, &host_nused, (size_t)((unsigned char *)p - J.host_pool));
}

int in_host_pool(const void *p, size_t *off)
{
    const unsigned char *c = p;
    if (!J.host_pool || c < J.host_pool || c >= J.host_pool + J.host_pool_bytes)
        return 0;
    *off = (size_t)(c - J.host_pool);
    return 1;
}

void host_pool_reset(void)
{
    host_nused = 0;
}

int in_pool(const void *p, size_t *off)
{
    const unsigned char *c = p;
    if (!J.pool || c < J.pool || c >= J.pool + J.pool_bytes)
        return 0;
    *off = (size_t)(c - J.pool);
    return 1;
}

/* The piece of the pool that holds offset off (its index), or -1. */
int piece_of(size_t off)
{
    int i;
    for (i = 0; i < nused; i++)
        if (off >= used[i].off && off < used[i].off + used[i].bytes)
            return i;
    return -1;
}

int gl_pool_mib(void)
{
    return (int)(J.pool_bytes >> 20);
}
