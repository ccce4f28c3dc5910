/* gl_any_order.c: an output whose slots come in any order (gl_any_order.h): checked on the
 * GPU where the toolkit can sort (gl_any_order_gpu.cu), else on the host; what differs is found
 * and said on the host. */
#include "gl_any_order.h"

#include "gl_check.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON_WORD 0xffffffffu /* a word of GL_POISON_BYTE: never written */

static unsigned *host_words(const void *device, size_t n)
{
    unsigned *h = malloc(n * sizeof *h + 1);
    if (!h)
        gl_fail("out of host memory to compare %zu words", n);
    if (device)
        GL_CUDA(cudaMemcpy(h, device, n * sizeof *h, cudaMemcpyDeviceToHost));
    return h;
}

/* Sorts v[0, n) as ints by LSD radix, a byte at a time, the sign bit flipped so that negative
 * values come first; tmp has room for n. */
static void sort_ints(unsigned *v, unsigned *tmp, size_t n)
{
    size_t count[256], i, sum;
    int shift, b;
    for (shift = 0; shift < 32; shift += 8) {
        memset(count, 0, sizeof count);
        for (i = 0; i < n; i++)
            count[((v[i] ^ 0x80000000u) >> shift) & 255]++;
        for (sum = 0, b = 0; b < 256; b++) {
            size_t t = count[b];
            count[b] = sum;
            sum += t;
        }
        for (i = 0; i < n; i++)
            tmp[count[((v[i] ^ 0x80000000u) >> shift) & 255]++] = v[i];
        memcpy(v, tmp, n * sizeof *v);
    }
}

/* The slots expected writes are all written in got, and nothing else: the values, in any
 * order, sorted (want: expected's, have: got's written words in those slots). Returns 0 when
 * they are the same, else -1 with why. */
static int compare_values(const unsigned *e, const unsigned *g, size_t n, const char *place,
                          char *why, size_t len)
{
    unsigned *want = host_words(NULL, n), *have = host_words(NULL, n),
             *tmp = host_words(NULL, n);
    size_t i, nw = 0, nh = 0, a = 0, b = 0, missing = 0, extra = 0;
    int first_missing = 0, first_extra = 0, w;
    for (i = 0; i < n; i++)
        if (e[i] != POISON_WORD) {
            want[nw++] = e[i];
            if (g[i] != POISON_WORD)
                have[nh++] = g[i];
        }
    sort_ints(want, tmp, nw);
    sort_ints(have, tmp, nh);
    while (a < nw || b < nh) {
        if (b == nh || (a < nw && (int)want[a] < (int)have[b])) {
            if (!missing++)
                first_missing = (int)want[a];
            a++;
        } else if (a == nw || (int)have[b] < (int)want[a]) {
            if (!extra++)
                first_extra = (int)have[b];
            b++;
        } else {
            a++;
            b++;
        }
    }
    free(want);
    free(have);
    free(tmp);
    if (!missing)
        return 0;
    w = snprintf(why, len, "%s does not hold the right values, in any order: %zu of them are "
                 "missing (e.g. %d)", place, missing, first_missing);
    if (extra && w >= 0 && (size_t)w < len)
        w += snprintf(why + w, len - (size_t)w, "; %zu slots hold a value twice or one not "
                      "among them (e.g. %d)", extra, first_extra);
    if (nw > nh && w >= 0 && (size_t)w < len)
        snprintf(why + w, len - (size_t)w, "; %zu slots of %s were never written (still the "
                 "poison)", nw - nh, place);
    return -1;
}

/* What differs between e and g (n words each, on the host), each in any order. */
static int describe(const unsigned *e, const unsigned *g, size_t n, const char *name, char *why,
                    size_t len)
{
    size_t i, filled = 0, first_unfilled = n, stray = n;
    char place[128];
    for (i = 0; i < n; i++) {
        if (e[i] != POISON_WORD)
            filled++;
        else if (first_unfilled == n)
            first_unfilled = i;
        if (e[i] == POISON_WORD && g[i] != POISON_WORD && stray == n)
            stray = i;
    }
    /* a right result that fills a prefix, as an append does, is said as one */
    if (first_unfilled == filled)
        snprintf(place, sizeof place, "%s[0, %zu)", name, filled);
    else
        snprintf(place, sizeof place, "the %zu slots of %s that a right result writes", filled,
                 name);
    if (stray == n)
        return compare_values(e, g, n, place, why, len);
    if (first_unfilled == filled)
        snprintf(why, len, "wrote %s[%zu] = %d, past the %zu values of a right result: nothing "
                 "is written from %s[%zu] on", name, stray, (int)g[stray], filled, name, filled);
    else
        snprintf(why, len, "wrote %s[%zu] = %d, a slot that a right result leaves unwritten",
                 name, stray, (int)g[stray]);
    return -1;
}

int gl_any_order_check(const void *expected, const void *got, size_t n, const char *name,
                       char *why, size_t len)
{
    unsigned *e, *g;
    int wrong;
    why[0] = '\0';
    if (gl_device_diff_any_order(expected, got, n) == 0)
        return 0;
    e = host_words(expected, n);
    g = host_words(got, n);
    wrong = describe(e, g, n, name, why, len);
    free(e);
    free(g);
    return wrong;
}
