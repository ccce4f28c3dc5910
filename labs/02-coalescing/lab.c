/* lab.c: lab 02-coalescing described once (lab.h): its launchers, and its problems (inputs,
 * references, guards and hints) that the demo and the grader check and time. */
#include "lab.h"

#include <stdio.h>
#include <string.h>

GL_INVOKER(call_copy, copy_float, a, a[0].p, a[1].p, (int)a[2].i)
GL_INVOKER(call_strided, strided_copy, a, a[0].p, a[1].p, (int)a[2].i, (int)a[3].i)
GL_INVOKER(call_kick_aos, kick_aos, a, a[0].p, (int)a[1].i, (float)a[2].f, (float)a[3].f)
/* struct particles goes by value: its 8 device pointers travel one by one */
GL_INVOKER(call_kick_soa, kick_soa, a,
           (struct particles){a[0].p, a[1].p, a[2].p, a[3].p, a[4].p, a[5].p, a[6].p, a[7].p},
           (int)a[8].i, (float)a[9].f, (float)a[10].f)
GL_INVOKER(call_add, matrix_add, a, a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i)

const gl_launcher LAB_LAUNCHERS[] = {
    {"copy_float", "ppi", call_copy, GL_GIVEN},
    {"strided_copy", "ppii", call_strided, 0},
    {"kick_aos", "piff", call_kick_aos, GL_GIVEN},
    {"kick_soa", "ppppppppiff", call_kick_soa, 0},
    {"matrix_add_naive", "pppii", call_add, GL_GIVEN},
    {"matrix_add", "pppii", call_add, 0},
    {NULL, NULL, NULL, 0},
};

#define CO_EX 2.5f  /* the kick's field along x */
#define CO_DT 0.01f /* and its time step */
#define KICK_RULE "vx[i] += charge[i] / mass[i] * ex * dt, as in kick_aos_kernel"
#define NONE_WRITTEN "is the kernel still a TODO, or is it never launched?"

/* What a wrong SoA kick most likely means (the given kick_aos is never wrong). The particles are
 * updated in place (never poisoned): the first wrong field says what is wrong, vx kicked wrong or
 * another field changed. */
static const char *kick_hint(void *ctx, const char *launcher, const gl_cmp *c)
{
    static const char *const fields[8] = {"x", "y", "z", "vx", "vy", "vz", "mass", "charge"};
    static char hint[256];
    const co_size *z = ctx;
    (void)launcher;
    if (!c->shown) /* within the tolerance on the host, just out of it on the GPU */
        return "Only vx is written: " KICK_RULE;
    int k = (int)(c->diff[0].index / (size_t)z->n); /* p[k], the array of field k */
    if (k != 3)
        snprintf(hint, sizeof hint, "%s (p[%d]) changed. Only vx is written", fields[k], k);
    else
        snprintf(hint, sizeof hint, "vx (p[3]) is wrong: " KICK_RULE "%s",
                 c->wrong != (size_t)z->n ? "" : " (if none was kicked: " NONE_WRITTEN ")");
    return hint;
}

/* The floats a copy's input holds: in[offset + i * stride] for i < n. */
static size_t copy_in_floats(const co_size *z)
{
    return (size_t)z->offset + (z->n ? (size_t)(z->n - 1) * (size_t)z->stride + 1 : 1);
}

/* A copy's input, a matrix or the particles: random in [-1, 1), but the records' every float and
 * the arrays' masses in [0.5, 2), never near 0. */
static void problem_make(void *ctx, int k, void *dst, unsigned long long seed)
{
    const co_size *z = ctx;
    size_t n = (size_t)z->n, floats = z->kind == 'm' ? (size_t)z->rows * z->cols
                                      : z->kind == 'c' ? copy_in_floats(z)
                                                       : 8 * n;
    int records = z->kind == 'a';
    (void)k;
    gl_device_fill_float(dst, floats, records ? 0.5f : -1.0f, records ? 2.0f : 1.0f, seed);
    if (z->kind == 's') /* the masses */
        gl_device_fill_float((float *)dst + 6 * n, n, 0.5f, 2.0f, gl_problem_seed(seed, 1));
}

/* kick_soa's 8 arrays of n floats lie one after the other (x, y, z, vx, vy, vz, mass, charge) */
static void problem_call(void *ctx, const char *launcher, void *const *buf)
{
    const co_size *z = ctx;
    float *f = buf[0];
    size_t n = (size_t)z->n;
    if (z->kind == 'm')
        gl_exec(launcher, (gl_arg[]){GL_P(buf[2]), GL_P(f), GL_P(buf[1]), GL_I(z->rows),
                                     GL_I(z->cols)});
    else if (z->kind == 'a')
        gl_exec(launcher, (gl_arg[]){GL_P(f), GL_I(z->n), GL_F(CO_EX), GL_F(CO_DT)});
    else if (z->kind == 's')
        gl_exec(launcher, (gl_arg[]){GL_P(f), GL_P(f + n), GL_P(f + 2 * n), GL_P(f + 3 * n),
                                     GL_P(f + 4 * n), GL_P(f + 5 * n), GL_P(f + 6 * n),
                                     GL_P(f + 7 * n), GL_I(z->n), GL_F(CO_EX), GL_F(CO_DT)});
    else /* copy_float takes no stride: it is not passed */
        gl_exec(launcher, (gl_arg[]){GL_P(buf[1]), GL_P(f + z->offset), GL_I(z->n),
                                     GL_I(z->stride)});
}

static void problem_copy(void *ctx, void *const *buf)
{
    const co_size *z = ctx;
    gl_device_copy_words_strided(buf[1], 1, (const float *)buf[0] + z->offset,
                                 (size_t)z->stride, (size_t)z->n);
}

/* The arrays kicked by the kit's kick_aos, on records holding their vx, mass and charge. */
static void problem_kick_arrays(void *ctx, void *const *buf)
{
    const co_size *z = ctx;
    size_t n = (size_t)z->n, words = sizeof(struct particle) / sizeof(float);
    gl_buf records = gl_buf_alloc(n * sizeof(struct particle), 0);
    float *r = records.ptr, *f = buf[0];
    for (size_t k = 0; k < words; k++) /* every field (the kick reads vx, mass and charge) */
        gl_device_copy_words_strided(r + k, words, f + k * n, 1, n);
    problem_call(&(co_size){.n = z->n, .kind = 'a'}, "kick_aos", (void *[]){records.ptr});
    GL_CHECK_LAUNCH("kick_aos");
    gl_device_copy_words_strided(f + 3 * n, 1, r + 3, words, n);
    gl_buf_free(&records);
}

gl_problem co_problem(const char *launcher, void *size)
{
    co_size *z = size;
    size_t bytes = (size_t)z->rows * z->cols * sizeof(float);
    /* a grid that does not test its bounds writes up to 31 rows or columns too far */
    size_t guard = 32 * sizeof(float) * (size_t)(z->rows > z->cols ? z->rows : z->cols) + 4096;
    gl_problem p = {.what = z->what, .outputs = 1, .ctx = z, .make = problem_make,
                    .call = problem_call, .inputs_read_only = 1, .rounds = 5,
                    /* the copies' and the adds' (the kicks' hint_of says its own) */
                    .hint_none = "Is the kernel still a TODO, or is it never launched?"};
    z->kind = !strncmp(launcher, "matrix_add", 10) ? 'm'
              : !strcmp(launcher, "kick_aos")      ? 'a'
              : !strncmp(launcher, "kick_", 5)     ? 's'
                                                   : 'c';
    if (z->kind == 'm') { /* c = a + b */
        snprintf(z->what, sizeof z->what, "on %d x %d", z->rows, z->cols);
        p.inputs = 2;
        p.reference = "matrix_add_naive";
        p.work = 3.0 * (double)bytes;
        p.sets = 5;
        p.buf[0] = (gl_problem_buf){.name = "a", .bytes = bytes, .row = (size_t)z->cols,
                                    .outside = "a and b are read-only input", .guard = guard};
        p.buf[1] = p.buf[0];
        p.buf[1].name = "b";
        p.buf[2] = (gl_problem_buf){.name = "c", .bytes = bytes, .cmp = GL_CMP_FLOAT,
                                    .row = (size_t)z->cols,
                                    .outside = "test row < rows and col < cols", .guard = guard};
        p.hint_partly = "Some elements were never written: the grid must cover the columns "
                        "with blockIdx.x and the rows with blockIdx.y (the launcher's grid)";
        p.hint = "Element (row, col) is at row * cols + col";
    } else if (z->kind == 'c') { /* out[i] = in[offset + i * stride] */
        if (z->stride < 1 || !strcmp(launcher, "copy_float"))
            z->stride = 1; /* copy_float has none */
        snprintf(z->what, sizeof z->what, z->offset ? "with n = %d from in + %d" :
                 "with n = %d, stride = %d", z->n, z->offset ? z->offset : z->stride);
        p.inputs = 1;
        p.reference_fn = problem_copy;
        p.work = 2.0 * z->n * sizeof(float);
        p.sets = 8;
        p.buf[0] = (gl_problem_buf){.name = "in", .bytes = copy_in_floats(z) * sizeof(float),
                                    .outside = "in is read-only input"};
        p.buf[1] = (gl_problem_buf){.name = "out", .bytes = (size_t)z->n * sizeof(float),
                                    .cmp = GL_CMP_FLOAT, /* exact: the messages show values */
                                    .outside = "test i < n in the kernel (the last block has "
                                               "threads past n)"};
        p.hint = "out[i] is in[i * stride]: is the stride applied to the read, and only to the "
                 "read?";
    } else { /* the particles kicked in place: vx kicked, the seven other fields as they were */
        int soa = z->kind == 's';
        snprintf(z->what, sizeof z->what, "with n = %d", z->n);
        p.reference = soa ? NULL : "kick_aos";
        p.reference_fn = soa ? problem_kick_arrays : NULL;
        p.hint_of = soa ? kick_hint : NULL;
        p.work = 16.0 * z->n; /* vx, mass and charge read, vx written */
        /* a round's fixed cost (about 0.9 ms on an H100, inferred) spread over 12 of the SoA's
         * short calls: over 6 it gave 1.8x to 2.2x where the kernels differ by 3.5x */
        p.sets = soa ? 12 : 6;
        p.buf[0] = (gl_problem_buf){.name = soa ? "p" : "the records", .made = 1,
                                    .bytes = 8 * (size_t)z->n * sizeof(float), .cmp = GL_CMP_FLOAT,
                                    .atol = 1e-6, .rtol = 1e-5, .row = soa ? (size_t)z->n : 8,
                                    .outside = "test i < n in the kernel"};
    }
    return p;
}
