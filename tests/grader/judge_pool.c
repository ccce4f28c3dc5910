/* judge_pool.c: the judge's state (judge_state.h: J, the one instance every part of the
 * judge shares) and its memory pool: allocated up front by gl_judge_init (judge.c), shared
 * with the subject, handed out in pieces by gl_buf_alloc (first fit), taken back whole at
 * every test's start. */
#include "grader.h"
#include "judge_state.h"

#include <string.h>

struct judge_state J;

/* ---- the pool: first fit over a list of pieces ---- */

#define POOL_ALIGN 256

struct judge_piece used[MAX_PIECES];
int nused;

void *pool_alloc(size_t bytes)
{
    size_t at = 0;
    int i, k;
    bytes = (bytes + POOL_ALIGN - 1) / POOL_ALIGN * POOL_ALIGN;
    if (bytes == 0)
        bytes = POOL_ALIGN;
    for (i = 0; i <= nused; i++) {
        size_t end = i < nused ? used[i].off : J.pool_bytes;
        if (end >= at && end - at >= bytes)
            break;
        if (i < nused)
            at = used[i].off + used[i].bytes;
    }
    if (i > nused || nused == MAX_PIECES)
        gl_kit_error("the grader's memory pool (%zu MiB) is full: a test asked for %zu MiB "
                     "more (a bug of the kit: make the lab's pool larger)",
                     J.pool_bytes >> 20, bytes >> 20);
    for (k = nused; k > i; k--)
        used[k] = used[k - 1];
    used[i].off = at;
    used[i].bytes = bytes;
    nused++;
    return J.pool + at;
}

void pool_free(void *p)
{
    size_t off = (size_t)((unsigned char *)p - J.pool);
    int i;
    for (i = 0; i < nused; i++)
        if (used[i].off == off) {
            memmove(&used[i], &used[i + 1], (size_t)(nused - i - 1) * sizeof used[0]);
            nused--;
            return;
        }
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
