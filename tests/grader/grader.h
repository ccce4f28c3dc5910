/* grader.h: what a lab's Check suite (tests/NN-slug.c) uses.
 *
 * A suite defines GL_LAB (its name, the student's file, a function that adds
 * its tests) and writes each test with GL_TEST:
 *
 *   GL_TEST(tiled_33x31) { check_transpose("transpose_tiled", 33, 31); }
 *   ...
 *   static void add_tests(void) {
 *       GL_ADD(tiled_33x31, GL_CORRECTNESS, 2, 30, "tiled, 33 x 31");  // points, timeout (s)
 *   }
 *   const gl_lab GL_LAB = {"08-transpose", "transpose.cu", add_tests, run_once};
 *
 * The runner (runner.c) runs every test in its own forked process (Check's
 * fork mode) with a timeout. The parent never touches CUDA, and never runs
 * the student's code: the submission is a shared library that only the test
 * processes load (gl_submission_fn). A test passes only if it reaches its
 * end; a test that cannot run here calls gl_skip with the reason. */
#ifndef GL_GRADER_H
#define GL_GRADER_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "gl_random.h"

typedef enum { GL_CORRECTNESS, GL_TECHNIQUE, GL_PERFORMANCE, GL_PROFILE, GL_NKINDS } gl_kind;

/* Or'ed into a kind: the test needs no GPU (a host function of the student's
 * file, say). Technique tests never need one. */
#define GL_NO_GPU 0x100

typedef struct {
    const char *name; /* "08-transpose" */
    const char *file; /* "transpose.cu": the student's file, the only one graded */
    void (*add_tests)(void);
    /* For profile tests: runs one launcher once, in a process of its own,
     * under Nsight Compute (argv from gl_profile: the launcher, then sizes),
     * and checks its result. Returns "" if it was right, "usage: ..." if
     * argv is not understood, else why not. */
    const char *(*run_once)(int argc, char **argv);
} gl_lab;

extern const gl_lab GL_LAB;

/* The kinds as tags: "correctness", "technique", "performance", "profile". */
const char *gl_kind_name(gl_kind kind);

/* Registers a test. GPU tests (all but technique, and those marked
 * GL_NO_GPU) are skipped with the reason when there is no GPU; profile tests
 * also need Nsight Compute. */
void gl_add(const TTest *test, const char *id, int kind, int points, int timeout_s,
            const char *title);
#define GL_ADD(test, kind, points, timeout_s, title)                                          \
    gl_add(test, #test, kind, points, timeout_s, title)

#define GL_TEST(name)                                                                         \
    static void name##_body(void);                                                            \
    START_TEST(name)                                                                          \
    {                                                                                         \
        gl_test_begin(#name);                                                                 \
        name##_body();                                                                        \
        gl_test_end();                                                                        \
    }                                                                                         \
    END_TEST                                                                                  \
    static void name##_body(void)

void gl_test_begin(const char *id);
void gl_test_end(void); /* the test ran to its end */

/* What the test measured, shown beside its verdict even when it passes
 * (e.g. "tiled 1643 GB/s = 3.19x naive 515 GB/s"). */
void gl_test_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Fails the current test with a message (printf style). */
#define gl_check_fail(...) ck_abort_msg(__VA_ARGS__)

/* Ends the current test as SKIPPED, with the reason. */
void gl_skip(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* A random stream for this test: the run's seed (SEED=) and the test's id. */
void gl_test_rng(gl_rng *rng);

/* A function of the student's compiled file, loaded in the test process.
 * Fails the test (naming the function) if the file did not compile or does
 * not define it. */
void *gl_submission_fn(const char *name);

/* A function of the lab's own starting file (the given baselines: copy,
 * naive), so that a submission cannot slow down what it is measured against. */
void *gl_baseline_fn(const char *name);

/* A launcher named on a --run command line: "given:NAME" is the lab's own
 * (gl_baseline_fn), any other NAME the student's (gl_submission_fn).
 * gl_launcher_name returns NAME without the prefix, to check it first. */
const char *gl_launcher_name(const char *spec);
void *gl_launcher_fn(const char *spec);

/* Path of a build artifact of the student's file: "ptx" (nvcc -ptx) or
 * "log" (the compiler's output, with the ptxas -v resource report). */
const char *gl_artifact(const char *what);

/* The PTX of the lab's own baselines (to show a test tells them apart). */
const char *gl_baseline_ptx(void);

/* The student's PTX, with e set to kernel's entry (inspect.h). Fails the
 * test if the file did not compile or has no kernel of that name. Free the
 * returned text with free(). */
struct gl_ptx_entry_s;
char *gl_kernel_ptx(const char *kernel, struct gl_ptx_entry_s *e);

/* The size in bytes of kernel's largest __shared__ array in the student's
 * PTX. Fails the test when it has none (the message ends with `lesson`),
 * only extern (dynamic) shared memory, whose shape cannot be read, or when
 * the ptxas report shows less shared memory reserved than the array needs
 * (declared, but the kernel does not use it). */
long gl_kernel_shared_bytes(const char *kernel, const char *lesson);

/* malloc that fails the test when host memory runs out (0 bytes is fine). */
void *gl_malloc(size_t bytes);

/* Reads a whole text file; NULL if it cannot. Free with free(). */
char *gl_read_file(const char *path);

/* In --run: the status line the profile test reads ("ok" or why not). */
void gl_run_status(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The launcher only enqueues its work on the default stream and returns.
 * gl_expect_queued runs launch(ctx) once to warm up; then it poisons output,
 * enqueues a kernel that waits 300 ms before it copies in_bytes from staged
 * to input (device pointers), and calls launch(ctx) right after. Fails the
 * test if launch took more than half of the wait (the launcher synchronised,
 * copied to the host or computed there), or if right(ctx) finds the output
 * wrong afterwards (the launcher did not queue behind the copy). */
typedef struct {
    void *input;
    const void *staged;
    size_t in_bytes;
    void *output;
    size_t out_bytes;
} gl_queue_buffers;

void gl_expect_queued(const char *launcher, void (*launch)(void *ctx), int (*right)(void *ctx),
                      void *ctx, const gl_queue_buffers *b);

/* Runs GL_LAB.run_once(args) under Nsight Compute and sums each of the
 * metrics over every kernel it launched into values[]. Skips the test when
 * Nsight Compute is missing or may not read the counters; fails it when the
 * profiled run went wrong. */
void gl_profile(const char *const *metrics, int nmetrics, double *values,
                const char *const *run_args);

#endif
