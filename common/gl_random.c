/* gl_random.c: xoshiro256** seeded by splitmix64. */
#include "gl_random.h"

#include "gl_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

int gl_parse_seed(const char *text, uint64_t *seed)
{
    char *end;
    unsigned long long v;
    if (!text || *text < '0' || *text > '9')
        return -1;
    errno = 0;
    v = strtoull(text, &end, 10);
    if (errno || *end != '\0')
        return -1;
    *seed = (uint64_t)v;
    return 0;
}

uint64_t gl_seed(void)
{
    static int chosen;
    static uint64_t seed;
    if (!chosen) {
        const char *env = getenv("SEED");
        if (env && *env) {
            if (gl_parse_seed(env, &seed) != 0)
                gl_fail("SEED=%s is not an unsigned decimal integer (e.g. SEED=12345)", env);
        } else {
            struct timespec ts;
            uint64_t x;
            clock_gettime(CLOCK_REALTIME, &ts);
            x = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec;
            seed = splitmix64(&x) % 1000000000ULL; /* short enough to retype */
        }
        chosen = 1;
    }
    return seed;
}

void gl_rng_init(gl_rng *r, uint64_t seed, const char *name)
{
    uint64_t x = seed;
    const char *p;
    /* FNV-1a of the name, mixed into the seed */
    uint64_t h = 0xcbf29ce484222325ULL;
    for (p = name ? name : ""; *p; p++)
        h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
    x ^= h;
    r->s[0] = splitmix64(&x);
    r->s[1] = splitmix64(&x);
    r->s[2] = splitmix64(&x);
    r->s[3] = splitmix64(&x);
}

uint64_t gl_rng_next(gl_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int64_t gl_rng_range(gl_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    if (span == 0) /* the full 64-bit range */
        return (int64_t)gl_rng_next(r);
    return lo + (int64_t)(gl_rng_next(r) % span);
}

float gl_rng_float(gl_rng *r, float lo, float hi)
{
    float u = (float)(gl_rng_next(r) >> 40) * (1.0f / 16777216.0f); /* [0, 1) in 2^-24 steps */
    return lo + (hi - lo) * u;
}

void gl_fill_float(gl_rng *r, float *x, size_t n, float lo, float hi)
{
    size_t i;
    for (i = 0; i < n; i++)
        x[i] = gl_rng_float(r, lo, hi);
}

void gl_fill_int(gl_rng *r, int *x, size_t n, int lo, int hi)
{
    size_t i;
    for (i = 0; i < n; i++) {
        int v = (int)gl_rng_range(r, lo, hi);
        x[i] = v == -1 ? 0 : v;
    }
}

void gl_fill_bytes(gl_rng *r, unsigned char *x, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        x[i] = (unsigned char)(gl_rng_next(r) >> 56);
}
