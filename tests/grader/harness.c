/* harness.c: the test-process side of the grader: what runs inside the
 * forked child of each test (loading the submission, ending, skipping). */
#include "grader.h"
#include "inspect.h"

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
static gl_rng seeds; /* the test's inputs, one seed a checked call (gl_test_seed) */
static gl_test_state state;
static int in_test; /* a test body runs (Check's srunner is there to report to) */

/* gl_fail (common/) inside a test fails the test, through Check: the runner
 * runs the suite in Check's no-fork mode, so this returns to it at once. Outside a test,
 * where no part of the grader has put a handler of its own (profile.c, sanitize.c), the
 * grader itself is broken: it says so and exits 2, and the report shows every test it did
 * not finish as NOT RUN (GRADING.md rule 11). */
static void fail_test(const char *message)
{
    if (!in_test) {
        fprintf(stderr, "grader: the grading broke outside a test: %s\n", message);
        fflush(NULL);
        exit(2);
    }
    ck_abort_msg("%s", message);
}

void gl_test_begin(const char *id)
{
    snprintf(test_id, sizeof test_id, "%s", id);
    gl_rng_init(&seeds, gl_seed() ^ 0x1a7e5eedu, test_id);
    memset(&state, 0, sizeof state);
    in_test = 1;
    gl_set_fail_handler(fail_test);
}

void gl_test_leave(void)
{
    in_test = 0;
}

const gl_test_state *gl_test_outcome(void)
{
    return &state;
}

void gl_test_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(state.note, sizeof state.note, fmt, ap);
    va_end(ap);
}

void gl_test_margin(double measured, double threshold, int larger_is_better)
{
    state.has_margin = 1;
    state.measured = measured;
    state.threshold = threshold;
    state.larger_is_better = larger_is_better;
}

void gl_test_end(void)
{
    state.done = 1;
}

void gl_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(state.skip, sizeof state.skip, fmt, ap);
    va_end(ap);
    state.skipped = 1;
    if (!in_test)
        gl_fail("%s", state.skip); /* a part of the grader outside a test: its handler */
    ck_abort_msg("skipped");
    abort(); /* not reached */
}

static char kit_error[1024]; /* the first, for the runner: the run broke, exit 2 */
static int kit_errors;

void gl_kit_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(state.kit_error, sizeof state.kit_error, fmt, ap);
    va_end(ap);
    if (!kit_error[0])
        snprintf(kit_error, sizeof kit_error, "%s", state.kit_error);
    kit_errors++;
    if (!in_test)
        gl_fail("%s", state.kit_error); /* a part of the grader outside a test: its handler */
    ck_abort_msg("%s", state.kit_error);
    abort(); /* not reached */
}

const char *gl_kit_error_seen(void)
{
    return kit_error;
}

int gl_kit_error_count(void)
{
    return kit_errors;
}

void gl_test_preview(void)
{
    state.preview = 1;
}

unsigned long long gl_call_seed(int round, int call, int calls)
{
    return gl_seed() ^ (0x1000003ull * (unsigned)(round * calls + call + 1));
}

void gl_test_rng(gl_rng *rng)
{
    gl_rng_init(rng, gl_seed(), test_id);
}

unsigned long long gl_test_seed(void)
{
    return gl_rng_next(&seeds);
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

const gl_ptx_entry *gl_kernel_entry(const char *kernel)
{
    static struct {
        gl_ptx_entry e;
        char *text;
    } kept;
    char *text = gl_kernel_ptx(kernel, &kept.e);
    free(kept.text);
    kept.text = text;
    return &kept.e;
}

long gl_kernel_shared_total(const char *kernel)
{
    gl_ptx_entry e;
    gl_ptx_shared sh[8];
    char *ptx = gl_kernel_ptx(kernel, &e);
    long total = 0, dynamic;
    int i, n = gl_ptx_shared_arrays(ptx, &e, sh, 8), has_extern = 0;
    for (i = 0; i < n; i++) {
        if (sh[i].bytes < 0)
            has_extern = 1;
        else
            total += sh[i].bytes;
    }
    free(ptx);
    if (has_extern) { /* extern __shared__: as large as the launches made it */
        dynamic = gl_launched_dynamic_smem(kernel);
        if (dynamic <= 0)
            return -1;
        total += dynamic;
    }
    return total;
}

long gl_kernel_shared_bytes(const char *kernel, const char *lesson)
{
    gl_ptx_entry e;
    gl_ptx_shared sh[8];
    char *ptx = gl_kernel_ptx(kernel, &e);
    long biggest = 0, dynamic = -1;
    int i, n = gl_ptx_shared_arrays(ptx, &e, sh, 8), has_extern = 0;
    for (i = 0; i < n; i++) {
        if (sh[i].bytes < 0)
            has_extern = 1;
        else if (sh[i].bytes > biggest)
            biggest = sh[i].bytes;
    }
    free(ptx);
    if (n == 0)
        gl_fail("%s has no __shared__ array. %s", kernel, lesson);
    if (has_extern) {
        /* extern __shared__: its size is the launch's (the kernels a probe ran, recorded) */
        dynamic = gl_launched_dynamic_smem(kernel);
        if (dynamic <= 0 && biggest == 0)
            gl_fail("%s's tile is extern (dynamic) shared memory, and no launch of it gave it "
                    "a size (the third <<<>>> argument): its shape cannot be checked",
                    kernel);
    }
    {
        char *report = gl_read_file(gl_artifact("log"));
        gl_ptxas_usage u;
        if (report && gl_ptxas_usage_of(report, kernel, &u) == 0 && u.smem_bytes < biggest)
            gl_fail("%s declares a %ld-byte __shared__ array, but ptxas reserves only %ld bytes of "
                    "shared memory for it: the array is not used. %s",
                    kernel, biggest, u.smem_bytes, lesson);
        free(report);
    }
    return dynamic > biggest ? dynamic : biggest;
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

int gl_technique_kernels(const char *launcher, const char *named, char (*names)[224], int max)
{
    int n;
    if (!gl_have_gpu()) {
        /* no evidence of what runs: judge the kernel the starting file names, as a preview */
        gl_test_preview();
        snprintf(names[0], 224, "%s", named);
        return 1;
    }
    /* what one call on the lab's plain problem launches (GL_LAB.probe): not what other tests'
     * calls launched, where a fallback for misaligned or tiny inputs may rightly run */
    gl_forget_kernels(launcher);
    gl_lab_probe(launcher);
    n = gl_launched_kernels(launcher, names, max);
    if (n == 0)
        gl_fail("%s launched no kernel of %s, so there is no technique to see", launcher,
                GL_LAB.file);
    return n;
}
