/* harness.c: the test-process side of the grader: what runs inside the
 * forked child of each test (loading the submission, ending, skipping). */
#include "grader.h"
#include "inspect.h"

#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_delay.h"
#include "gl_timing.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char test_id[128];

/* gl_fail (common/) inside a test fails the test, through Check. */
static void fail_test(const char *message)
{
    ck_abort_msg("%s", message);
}

static void write_marker(const char *text)
{
    const char *path = getenv("GL_MARKER");
    FILE *f;
    if (!path || !*path)
        return;
    f = fopen(path, "w");
    if (!f)
        return;
    fputs(text, f);
    fclose(f);
}

void gl_test_begin(const char *id)
{
    snprintf(test_id, sizeof test_id, "%s", id);
    gl_set_fail_handler(fail_test);
}

static char test_note[512];

void gl_test_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(test_note, sizeof test_note, fmt, ap);
    va_end(ap);
}

void gl_test_end(void)
{
    char marker[sizeof test_note + 8];
    snprintf(marker, sizeof marker, "done\t%s", test_note);
    write_marker(marker);
}

void gl_skip(const char *fmt, ...)
{
    char msg[1024] = "skip\t";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + 5, sizeof msg - 5, fmt, ap);
    va_end(ap);
    write_marker(msg);
    exit(0);
}

void gl_test_rng(gl_rng *rng)
{
    gl_rng_init(rng, gl_seed(), test_id);
}

static const char *env_or_empty(const char *name)
{
    const char *v = getenv(name);
    return v ? v : "";
}

const char *gl_artifact(const char *what)
{
    static char path[4096];
    const char *dir = env_or_empty("GL_DIR");
    if (!strcmp(what, "log"))
        snprintf(path, sizeof path, "%s/build.log", dir);
    else
        snprintf(path, sizeof path, "%s/submission.%s", dir, what);
    return path;
}

const char *gl_baseline_ptx(void)
{
    static char path[4096];
    const char *so = env_or_empty("GL_BASELINE");
    size_t n = strlen(so);
    /* built beside it: baselines.so, baselines.ptx */
    snprintf(path, sizeof path, "%.*s.ptx", (int)(n > 3 && !strcmp(so + n - 3, ".so") ? n - 3 : n),
             so);
    return path;
}

void gl_expect_queued(const char *launcher, void (*launch)(void *ctx), int (*right)(void *ctx),
                      void *ctx, const gl_queue_buffers *b)
{
    const double delay_ms = 300.0;
    double t0, waited_ms;

    GL_CUDA(cudaMemcpy(b->input, b->staged, b->in_bytes, cudaMemcpyDeviceToDevice));
    launch(ctx); /* warm-up: loads the module */
    GL_CHECK_LAUNCH(launcher);
    GL_CUDA(cudaMemset(b->input, GL_POISON_BYTE, b->in_bytes));
    GL_CUDA(cudaMemset(b->output, GL_POISON_BYTE, b->out_bytes));
    GL_CUDA(cudaDeviceSynchronize());

    gl_delayed_copy(b->input, b->staged, b->in_bytes, delay_ms);
    t0 = gl_host_seconds();
    launch(ctx);
    waited_ms = 1e3 * (gl_host_seconds() - t0);
    GL_CHECK_LAUNCH(launcher);
    if (waited_ms > delay_ms / 2)
        gl_fail("%s returned only after %.0f ms, when a %.0f ms kernel launched before it had "
                "finished: it waited for the GPU (cudaDeviceSynchronize, cudaMemcpy) or did the "
                "work on the host. A launcher only launches its kernels and returns; the caller "
                "synchronises",
                launcher, waited_ms, delay_ms);
    if (!right(ctx))
        gl_fail("%s returned at once, but its result is wrong when earlier work on the default "
                "stream writes its input: launch on the default stream (no stream of your own), "
                "and do not read the input on the host",
                launcher);
}

char *gl_kernel_ptx(const char *kernel, gl_ptx_entry *e)
{
    char *ptx = gl_read_file(gl_artifact("ptx"));
    if (!ptx)
        gl_fail("no PTX for %s (%s): it did not compile", GL_LAB.file, gl_artifact("ptx"));
    if (gl_ptx_entry_find(ptx, kernel, e) != 0)
        gl_fail("%s has no kernel named %s: keep the kernel names of the starting file (the "
                "grader finds your kernels by name)",
                GL_LAB.file, kernel);
    return ptx;
}

long gl_kernel_shared_bytes(const char *kernel, const char *lesson)
{
    gl_ptx_entry e;
    gl_ptx_shared sh[8];
    char *ptx = gl_kernel_ptx(kernel, &e);
    long biggest = 0;
    int i, n = gl_ptx_shared_arrays(ptx, &e, sh, 8);
    for (i = 0; i < n; i++)
        if (sh[i].bytes > biggest || sh[i].bytes < 0)
            biggest = sh[i].bytes < 0 ? -1 : biggest > sh[i].bytes ? biggest : sh[i].bytes;
    free(ptx);
    if (n == 0)
        gl_fail("%s has no __shared__ array. %s", kernel, lesson);
    if (biggest < 0)
        gl_fail("%s's tile is extern (dynamic) shared memory: declare it with its size, "
                "__shared__ float tile[ROWS][COLUMNS], so that its shape can be checked",
                kernel);
    {
        char *report = gl_read_file(gl_artifact("log"));
        gl_ptxas_usage u;
        if (report && gl_ptxas_usage_of(report, kernel, &u) == 0 && u.smem_bytes < biggest)
            gl_fail("%s declares a %ld-byte __shared__ array, but ptxas reserves only %ld bytes of "
                    "shared memory for it: the array is not used. %s",
                    kernel, biggest, u.smem_bytes, lesson);
        free(report);
    }
    return biggest;
}

void *gl_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        gl_fail("out of host memory (%zu bytes)", bytes);
    return p;
}

char *gl_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(buf = malloc((size_t)n + 1))) {
        fclose(f);
        return NULL;
    }
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void *open_library(const char *path, const char *what)
{
    void *h;
    if (access(path, R_OK) != 0) {
        if (!strcmp(what, "submission"))
            gl_fail("%s did not compile, so there is nothing to run: see the compiler's "
                    "messages at the top of this lab's report (%s)",
                    GL_LAB.file, gl_artifact("log"));
        gl_fail("the grader's baseline %s is missing (%s): rebuild the kit with make", path, what);
    }
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        gl_fail("%s could not be loaded: %s", path, dlerror());
    return h;
}

static void *lookup(void *lib, const char *name, const char *whose)
{
    void *fn = dlsym(lib, name);
    if (!fn)
        gl_fail("%s does not define %s(): keep every function declared in the lab's header, "
                "with the same name and arguments",
                whose, name);
    return fn;
}

void *gl_submission_fn(const char *name)
{
    static void *lib;
    if (!lib)
        lib = open_library(env_or_empty("GL_SUBMISSION"), "submission");
    return lookup(lib, name, GL_LAB.file);
}

void *gl_baseline_fn(const char *name)
{
    static void *lib;
    if (!lib)
        lib = open_library(env_or_empty("GL_BASELINE"), "baseline");
    return lookup(lib, name, "the lab's starting file");
}

const char *gl_launcher_name(const char *spec)
{
    return strncmp(spec, "given:", 6) ? spec : spec + 6;
}

void *gl_launcher_fn(const char *spec)
{
    const char *name = gl_launcher_name(spec);
    return name != spec ? gl_baseline_fn(name) : gl_submission_fn(name);
}

void gl_run_status(const char *fmt, ...)
{
    const char *path = getenv("GL_RUN_STATUS");
    va_list ap;
    FILE *f;
    if (!path || !*path || !(f = fopen(path, "w")))
        return;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}
