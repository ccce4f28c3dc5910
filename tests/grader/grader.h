/* grader.h: what a lab's Check suite (tests/NN-slug.c) uses.
 *
 * A suite defines GL_LAB (its name, the student's file, its profile and probe
 * runs, its pool) and declares each test where its body is, with its kind,
 * points, timeout (s) and title, as an xv6 grade script does:
 *
 *   GL_TEST(tiled_33x31, GL_CORRECTNESS, 2, 15, "tiled, 33 x 31")
 *   {
 *       check_transpose("transpose_tiled", 33, 31);
 *   }
 *   ...
 *   const gl_lab GL_LAB = {"08-transpose", "transpose.cu", run_once, probe, 1024};
 *
 * The runner lists and runs the tests kind by kind (correctness, technique,
 * performance, profile, then the sanitize kind it adds itself), each kind in
 * the order the suite defines its tests.
 *
 * The runner (runner.c) is the judge: it runs the suite in Check's no-fork
 * mode and never loads the student's code. The lab's launchers are called by
 * name through its description (labs/NN-slug/lab.c, gl_exec.h): a given one
 * runs in the judge, a student's one in the subject process (subject.c),
 * on memory the judge owns (gl_buf_alloc hands out pieces of a pool the
 * subject maps). A test passes only if it reaches its end; a test that
 * cannot run here calls gl_skip with the reason. */
#ifndef GL_GRADER_H
#define GL_GRADER_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "gl_exec.h"
#include "gl_problem.h"
#include "gl_random.h"

typedef enum {
    GL_CORRECTNESS,
    GL_TECHNIQUE,
    GL_PERFORMANCE,
    GL_PROFILE,
    GL_SANITIZE, /* added by the runner: one test per student launcher (sanitize.c) */
    GL_NKINDS
} gl_kind;

/* Or'ed into a kind: the test needs no GPU (a host function of the student's
 * file, say). Technique tests never need one. */
#define GL_NO_GPU 0x100

typedef struct {
    const char *name; /* "08-transpose" */
    const char *file; /* "transpose.cu": the student's file, the only one graded */
    /* For profile tests: runs one launcher once, in a process of its own,
     * under Nsight Compute (argv from gl_profile: the launcher, then sizes),
     * and checks its result. Returns "" if it was right, "usage: ..." if
     * argv is not understood, else why not. */
    const char *(*run_once)(int argc, char **argv);
    /* Runs one launcher once on a small problem (the technique tests need to
     * see which kernels it launches when no other test ran it). */
    void (*probe)(const char *launcher);
    /* The GPU memory the lab's largest test needs, in MiB: the judge's pool
     * (at most half of the device's free memory). */
    int pool_mib;
    /* Or, in place of run_once and probe (NULL), the lab's problem for launcher at the sizes
     * of argv (a profile run's words after the launcher; argc 0: a probe's small problem):
     * fills *p and returns 0, or -1 when argv is not understood. GL_QUEUED reads it too (a lab
     * with run_once and probe may give it for that alone). */
    int (*problem)(const char *launcher, int argc, char **argv, gl_problem *p);
    /* The problem a performance claim times launcher on (GL_FASTER, GL_SHARE): on names which
     * of the lab's timed problems ("uniform", "skewed"; NULL or "": its usual one), the size
     * chosen by gl_pool_mib(). Fills *p and returns 0, or -1 when on is not one of them. */
    int (*timed)(const char *launcher, const char *on, gl_problem *p);
    /* A lab whose launchers copy between the host and the device (buffers with .host, layout
     * letter 'H'): the pinned host memory its largest test needs, in MiB (host_pool.h); 0:
     * none, and no subject maps any. */
    int host_pool_mib;
} gl_lab;

/* GL_LAB.run_once, or one checked call on GL_LAB.problem (perf.c). */
const char *gl_lab_run_once(int argc, char **argv);
/* GL_LAB.probe, or one call on GL_LAB.problem's small problem. */
void gl_lab_probe(const char *launcher);

extern const gl_lab GL_LAB;

/* The kinds as tags: "correctness", "technique", "performance", "profile". */
const char *gl_kind_name(gl_kind kind);

/* Declares a test (GL_TEST does, before main). GPU tests (all but technique, and those
 * marked GL_NO_GPU) are skipped with the reason when there is no GPU; profile tests also
 * need Nsight Compute. order: the declaration's place in the suite (__COUNTER__). */
void gl_declare(const TTest *test, const char *id, int kind, int points, int timeout_s,
                const char *title, int order);

/* A test: its body, and beside it its kind (a gl_kind, | GL_NO_GPU), points, timeout in
 * seconds and title (what the scoreboard and the handout's table call it). */
#define GL_TEST(name, kind, points, timeout_s, title)                                         \
    static void name##_body(void);                                                            \
    START_TEST(name)                                                                          \
    {                                                                                         \
        gl_test_begin(#name);                                                                 \
        name##_body();                                                                        \
        gl_test_end();                                                                        \
    }                                                                                         \
    END_TEST                                                                                  \
    __attribute__((constructor)) static void name##_declare(void)                            \
    {                                                                                         \
        gl_declare(name, #name, kind, points, timeout_s, title, __COUNTER__);                \
    }                                                                                         \
    static void name##_body(void)

void gl_test_begin(const char *id);
void gl_test_end(void);   /* the test ran to its end */
void gl_test_leave(void); /* the runner is back from the test: no test runs now */

/* What the test measured, shown beside its verdict even when it passes
 * (e.g. "tiled 1643 GB/s = 3.19x naive 515 GB/s"). */
void gl_test_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Fails the current test with a message (printf style). */
#define gl_check_fail(...) ck_abort_msg(__VA_ARGS__)

/* A performance or profile verdict's numbers, for make calibrate: what the test measured and
 * the threshold it compares it with (larger_is_better 1: measured must be at least threshold;
 * 0: at most). Call it before the verdict, once per test (the last call counts). */
void gl_test_margin(double measured, double threshold, int larger_is_better);

/* Ends the current test as SKIPPED, with the reason. */
void gl_skip(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* Ends the current test because the kit, the toolchain or the machine failed (no CUDA
 * context, the GPU busy or out of memory before the student's code ran): never the
 * student's fault. The test is reported as not run, and the runner exits 2. */
void gl_kit_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;
/* The first such error of the run, or "". */
const char *gl_kit_error_seen(void);
/* How many there were (a part of the grader outside a test tells its own from a test's). */
int gl_kit_error_count(void);

/* A random stream for this test: the run's seed (SEED=) and the test's id. */
void gl_test_rng(gl_rng *rng);
/* The next seed of the test's own stream of inputs (the run's seed and the test's id): each
 * checked call of a test (GL_RIGHT, gl_expect_right) gets fresh inputs. */
unsigned long long gl_test_seed(void);

/* What a test ended with (the runner reads it). */
typedef struct {
    int done;        /* reached its end */
    int skipped;     /* gl_skip */
    int preview;     /* judged without the evidence of a GPU run (no points) */
    char note[512];  /* gl_test_note */
    char skip[1024]; /* gl_skip's reason */
    char kit_error[1024]; /* gl_kit_error's */
    int has_margin;       /* gl_test_margin */
    double measured, threshold;
    int larger_is_better;
} gl_test_state;
const gl_test_state *gl_test_outcome(void);

/* The test's verdict is a preview: it read the starting file's kernel names
 * because no GPU run showed which kernels the launchers launch. */
void gl_test_preview(void);

/* Is there a GPU the judge can use? */
int gl_have_gpu(void);

/* ---- the judge's clock (clock.c) ----
 * A timed launcher is called `calls` times per round, each call on its own
 * inputs and outputs (distinct buffers, together larger than the L2); the
 * time of a round is the judge's wall clock from the first call until the
 * process that ran them has synchronised its whole device (work on any
 * stream counts). setup (untimed, may be NULL) calls the student's setters before the
 * round's inputs exist; prepare (untimed) gives each round fresh inputs and poisoned
 * outputs, and may call no student's launcher; verify (untimed) checks every output of the
 * round and fails the test if one is wrong. The outputs (the buffers prepare poisons) are
 * fingerprinted at the answer that ends the round and again after verify: a round whose
 * outputs changed in between had not ended, and fails. One warm-up round, then the median.
 * A round's calls go to the subject at once and are answered at its end: at most 31 calls
 * per round. */
typedef struct {
    int calls, rounds;
    void (*prepare)(void *ctx, int round);
    void (*call)(void *ctx, int i);
    void (*verify)(void *ctx, int round);
    void (*setup)(void *ctx, int round);
} gl_timed;

/* Milliseconds per call of a student's launcher. */
double gl_time_student(const gl_timed *t, void *ctx);
/* The same for the kit's own launchers (GL_GIVEN), run in the judge with no
 * subject alive: a submission cannot slow down what it is compared with. */
double gl_time_baseline(const gl_timed *t, void *ctx);
/* The same, once per lab: key names what is timed ("transpose_naive 8192"), and a
 * second test asking for the same key gets the first one's time. */
double gl_time_baseline_once(const char *key, const gl_timed *t, void *ctx);

/* The seed of the inputs of call `call` of timed round `round` (of `calls` calls a
 * round): each timed call its own stream, the same again when verify makes the
 * inputs again. */
unsigned long long gl_call_seed(int round, int call, int calls);

/* ---- a launcher run by the grader on the lab's problem (perf.c; common/gl_problem.h) ----
 * gl_perf_ms times it with the judge's clock (gl_timed): p->sets calls a round, each on its
 * own inputs, made from the seed, and poisoned outputs, p->rounds rounds after a warm-up; after
 * each round of a student's launcher, every output against the reference on its inputs made
 * again (or by the lab's own check of them, p->verify). The one place that decides whose
 * launcher it is: the kit's own (GL_GIVEN) is timed once per lab and problem, in the kit's
 * subject, and not checked. Returns ms per call. */
double gl_perf_ms(const char *launcher, const gl_problem *p);
/* The launcher only enqueues its work (gl_expect_queued) on the problem's first output, whose
 * first input a 150 ms kernel copies in before it (with no input: the output it updates in
 * place, made): one call, checked against the reference. */
void gl_perf_queued(const char *launcher, const gl_problem *p);

/* The GPU, shared with the other labs graded at once (exclusive 0: correctness, sanitize,
 * starting a subject) or alone (1: timed and profiled work); gpu_lock.c, runner --gpu-lock. */
void gl_gpu_lock(int exclusive);
void gl_gpu_phase(const char *what); /* names the next holds, for GL_TRACE_LOCKS */
void gl_gpu_unlock(void);
/* Waits seconds without the GPU's lock (if it is held, it is taken back as it was held):
 * the GPU is full for a moment, and other labs may finish and free it. */
void gl_gpu_wait(double seconds);

/* The size of the judge's pool in MiB (GL_LAB.pool_mib, or less on a GPU
 * with less free memory): a suite chooses its largest sizes by it. */
int gl_pool_mib(void);

/* The next call runs behind the kit's 150 ms delayed copy (gl_expect_queued). */
void gl_next_call_delayed(void *dst, const void *src, size_t bytes, double ms);
double gl_last_launcher_ms(void);

/* The kernels (device names) a launcher launched in the calls so far that did its work
 * (record.c): measured by GPU time, all but the least busy ones, left out while together they
 * took at most a quarter of the calls' time or carried a tenth of their threads (a decoy that
 * does nothing decides nothing; work split over many kernels is judged); without GPU times
 * (no CUPTI), those that carried a tenth of its threads or more. Fails the test beyond max. */
int gl_launched_kernels(const char *launcher, char (*names)[224], int max);
/* What the GPU's record (CUPTI) showed of a launcher that copies between the host and the
 * device (GL_MAY_COPY) in its calls so far (record.c): calls, their kernels and copies, the
 * copies' time, and the part of it during which a kernel of the same call ran. */
typedef struct {
    unsigned long long calls, kernels, copies, copy_bytes;
    unsigned long long other_stream; /* kernels and copies off the legacy default stream */
    double copy_ns, overlap_ns;
} gl_timeline;
/* 1 with *t when the record saw calls of launcher; 0 (t zeroed) when it saw none (no CUPTI). */
int gl_launcher_timeline(const char *launcher, gl_timeline *t);
void gl_forget_timeline(const char *launcher);
/* Every kernel it launched (compute-sanitizer's errors are given to any of them). */
int gl_every_kernel(const char *launcher, char (*names)[224], int max);
void gl_forget_kernels(const char *launcher);
/* The largest dynamic shared memory (extern __shared__) a launch of kernel (its device name)
 * asked for in the calls so far; -1 if it was not launched. */
long gl_launched_dynamic_smem(const char *kernel);

/* The kernels a technique test judges: with a GPU, those that did the launcher's work when
 * GL_LAB.probe ran it once on the lab's plain problem (gl_launched_kernels); without one, the
 * kernel the starting file names, and the verdict is a preview. */
int gl_technique_kernels(const char *launcher, const char *named, char (*names)[224], int max);

/* Runs the statement after it once for each kernel that did launcher's work, k naming it
 * (gl_technique_kernels: with a GPU, those the probe saw; without, the one the starting
 * file names):  GL_FOR_EACH_KERNEL("transpose_padded", "transpose_padded_kernel", k) check(k);
 * _OF takes the lab's own choice among them: kernels(launcher, named, names, max). */
#define GL_FOR_EACH_KERNEL(launcher, named, k)                                                \
    GL_FOR_EACH_KERNEL_OF(gl_technique_kernels, launcher, named, k)
#define GL_FOR_EACH_KERNEL_OF(kernels, launcher, named, k)                                    \
    char k##_names[8][224];                                                                   \
    int k##_n = kernels(launcher, named, k##_names, 8), k##_i;                                \
    for (k##_i = 0; k##_i < k##_n; k##_i++)                                                   \
        for (const char *k = k##_names[k##_i]; k; k = NULL)
/* A technique test (10 s) whose statement check runs on each kernel that did launcher's work,
 * k naming it:  GL_KERNEL_TEST(tiled_barrier, 2, "tiled: __syncthreads()", "transpose_tiled",
 *                              "transpose_tiled_kernel", check_barrier(k)) */
#define GL_KERNEL_TEST(name, points, title, launcher, named, check)                           \
    GL_TEST(name, GL_TECHNIQUE, points, 10, title)                                            \
    {                                                                                         \
        GL_FOR_EACH_KERNEL(launcher, named, k) check;                                         \
    }

/* Path of a build artifact of the student's file: "ptx" (nvcc -ptx) or
 * "log" (the compiler's output, with the ptxas -v resource report). */
const char *gl_artifact(const char *what);

/* Which of symbols (CUDA runtime functions: cudaMemcpyToSymbol) the student's library imports
 * (imports.c: nm -D, its undefined dynamic symbols): the first one nm lists, or NULL when it
 * imports none of them. Fails the test when the file did not compile; skips it where
 * nm cannot say (no binutils, the CUDA runtime linked statically). */
const char *gl_library_imports(const char *const *symbols, int nsymbols);

/* The PTX of the lab's own baselines (to show a test tells them apart). */
const char *gl_baseline_ptx(void);

/* The given kernel's PTX (the kit's own build of baselines.cu), with e set to its entry
 * (given.c): a test shows it tells the given kernel from the lesson's. Missing, it is the kit's
 * error (NOT RUN). Free the text with free(); gl_given_entry's lasts until its next call. */
struct gl_ptx_entry_s;
char *gl_given_ptx(const char *kernel, struct gl_ptx_entry_s *e);
const struct gl_ptx_entry_s *gl_given_entry(const char *kernel);
/* tells 0: the given kernel does not look as the test expects (what, e.g. "has no rem"): the
 * test cannot tell the two apart with this compiler, a kit error (NOT RUN). */
void gl_given_tells_apart(int tells, const char *kernel, const char *what);

/* The student's PTX, with e set to kernel's entry (inspect.h). Fails the test if the file
 * did not compile or has no kernel of that name. Free the returned text with free(). */
struct gl_ptx_entry_s;
char *gl_kernel_ptx(const char *kernel, struct gl_ptx_entry_s *e);
/* kernel's entry in the student's PTX, its text kept until the next call in the suite (the one
 * before stays if this one fails the test): for inspect.h's gl_ptx_ and gl_expect_ helpers. */
const struct gl_ptx_entry_s *gl_kernel_entry(const char *kernel);

/* The size in bytes of kernel's largest __shared__ array in the student's
 * PTX; an extern (dynamic) one counts with the largest size a launch gave it
 * (the probes' record). Fails the test when it has none (the message ends
 * with `lesson`), only extern shared memory that no launch sized, or when the
 * ptxas report shows less shared memory reserved than a static array needs
 * (declared, but the kernel does not use it). */
long gl_kernel_shared_bytes(const char *kernel, const char *lesson);
/* All of kernel's shared memory in bytes: its static arrays, and its extern one as large as
 * its launches made it; -1 when it has an extern array that no launch sized. */
long gl_kernel_shared_total(const char *kernel);


/* malloc that fails the test when host memory runs out (0 bytes is fine). */
void *gl_malloc(size_t bytes);

/* Reads a whole text file; NULL if it cannot. Free with free(). */
char *gl_read_file(const char *path);

/* The launcher only enqueues its work on the default stream and returns.
 * gl_expect_queued runs launch(ctx) once to warm up; then it poisons output,
 * enqueues a kernel that waits 150 ms before it copies in_bytes from staged
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

/* Runs GL_LAB.run_once(args) in a subject under Nsight Compute and sums each
 * of the metrics over every kernel it launched into values[]. The runner
 * gathers every profile test's runs of a lab into one Nsight Compute session
 * (profile.c), after a rehearsal of the same runs in a subject the grader records:
 * a run under Nsight Compute must launch the same kernels, with the same grids, as
 * when it is not observed, its outputs must be right, and its kernels must have
 * stored at least the bytes its outputs hold. Skips the test when Nsight Compute is
 * missing or may not read the counters; fails it when the profiled run went wrong. */
void gl_profile(const char *const *metrics, int nmetrics, double *values,
                const char *const *run_args);

/* For a ratio verdict (the sum of the metrics in num_mask over those in den_mask, bit i for
 * metrics[i], e.g. wavefronts per request): the worst ratio among the kernels of the run that
 * did its work, each on its own counters (a decoy cannot dilute it; worst: the least when
 * larger_is_better, else the most); values[] gets that kernel's counters and kernel its
 * name. Kernels whose den is 0 did none of that work and are not judged. Returns -1 when no
 * kernel had any. */
double gl_profile_ratio(const char *const *metrics, int nmetrics, unsigned num_mask,
                        unsigned den_mask, int larger_is_better, const char *const *run_args,
                        double *values, char *kernel, size_t kernel_len);

/* ---- the common claims, one line each (claims.c) ----
 * A right claim runs a launcher once on the lab's problem at given sizes, inputs from the
 * test's seed, and checks everything about its outputs (gl_problem_check);
 * a queued claim shows that a launcher returns before its work is done (gl_perf_queued);
 * a performance claim times two launchers on the lab's timed problem (GL_LAB.timed) with
 * gl_perf_ms (the student's checked every round, the kit's timed once) and compares their
 * rates; a counter claim reads a ratio of Nsight Compute counters kernel by kernel
 * (gl_profile_ratio). Each notes what it measured, gives make calibrate its margin, and fails
 * with the numbers and the lab's hint:
 *
 *   GL_RIGHT(tiled_33x31, 2, 15, "tiled, 33 x 31", .run = "transpose_tiled 33 31")
 *   GL_RIGHT(tiled_odd, 2, 15, "tiled, odd sizes", .run = "transpose_tiled", .cases = "1 1, 33 31")
 *   GL_RIGHT(tiled_random, 1, 15, "tiled, seeded", .run = "transpose_tiled 1..3000 1..3000")
 *   GL_QUEUED(tiled_async, 2, "tiled, returns at once", .run = "transpose_tiled 1000 1000")
 *   GL_FASTER(tiled_vs_naive, 5, "tiled faster than naive", .launcher = "transpose_tiled",
 *             .than = "transpose_naive", .factor = 1.25, .hint = "Are both ... coalesced?")
 *   GL_SHARE(padded_vs_copy, 5, "padded near the copy", .launcher = "transpose_padded",
 *            .than = "transpose_copy", .percent = 52, .hint = "...")
 *   GL_COUNTER(padded_conflict_free, 4, "padded: no bank conflicts", .counter = &wavefronts,
 *              .run = "transpose_padded 2048 2048", .at_most = 1.6, .hint = "...") */
typedef struct {
    const char *launcher; /* judged */
    const char *than;     /* the baseline it is compared with */
    const char *than_is;  /* the baseline in words; NULL: "the given NAME" or its name */
    double factor;        /* GL_FASTER: launcher's rate over than's, at least */
    double percent;       /* GL_SHARE: launcher's rate in percent of than's, at least */
    const char *on;       /* which of the lab's timed problems (GL_LAB.timed); NULL: its usual */
    const char *hint;     /* what falling short most likely means, in the lab's terms */
} gl_speed_claim;

typedef struct {
    const char *what; /* the ratio in words: "shared-memory wavefronts per instruction" */
    const char *const *metrics;
    int nmetrics;
    unsigned num, den; /* the ratio: the sum of metrics in num over those in den (bit i: [i]) */
    /* the counters of the kernel judged, in words, or NULL */
    void (*detail)(const double *v, char *out, size_t len);
} gl_counter;

/* The ratios several labs read (counters.c): sectors of 32 bytes per global load request (4
 * when a warp reads 32 consecutive floats; metrics: requests, sectors), and shared-memory
 * wavefronts per shared load (1 for 32-bit loads with no bank conflict; metrics: wavefronts,
 * load instructions, bank conflicts). */
extern const gl_counter gl_global_load_sectors, gl_shared_load_wavefronts;

typedef struct {
    const gl_counter *counter;
    const char *run;         /* the profile run: "LAUNCHER SIZE...", as GL_LAB.problem reads it */
    double at_most, at_least; /* the bound: one of them (the other 0) */
    const char *hint;         /* what missing the bound most likely means */
    const char *none;         /* what it means that no kernel did this work; NULL: nothing */
    double per;               /* the ratio judged per this many (a histogram's bins); 0: one */
} gl_counter_claim;

/* A launcher on the lab's problem at run's sizes (GL_LAB.problem reads the words after the
 * launcher): right (GL_RIGHT), or only enqueuing its work (GL_QUEUED, gl_perf_queued). */
typedef struct {
    /* "LAUNCHER SIZE...", as for a profile run; GL_RIGHT draws a size written "LO..HI" from
     * the test's random stream (gl_test_rng), in [LO, HI], in order: "transpose_tiled 1..3000
     * 1..3000" (and in each of its cases, one stream through them all); "LO..HI*STEP" draws
     * one in [LO, HI] and multiplies it by STEP ("1..1024*256": whole blocks of 256) */
    const char *run;
    /* GL_RIGHT only: run's words followed in turn by each case's sizes, comma-separated
     * ("0 1, 1 7, 33 2"), each call on fresh inputs (its own gl_test_seed); the first wrong one
     * fails the test */
    const char *cases;
} gl_run_claim;

void gl_claim_right(const gl_run_claim *c);
void gl_claim_queued(const gl_run_claim *c);
/* gl_claim_right on run's words, printf style (sizes drawn from the test's seed). */
void gl_expect_right(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void gl_claim_faster(const gl_speed_claim *c);
void gl_claim_share(const gl_speed_claim *c);
void gl_claim_counter(const gl_counter_claim *c);
/* GL_OVERLAP(pipelined_overlap, 4, "pipelined: copies under kernels", .launcher =
 * "process_pipelined", .percent = 40, .hint = "..."): timed on the lab's timed problem, the
 * share of the launcher's copy time during which a kernel of the same call ran (the GPU's
 * record, gl_launcher_timeline), at least percent (.than and .factor unused). */
void gl_claim_overlap(const gl_speed_claim *c);

/* Milliseconds per call of launcher on the lab's timed problem `on` (GL_LAB.timed), *p set to
 * that problem: for a lab's own performance test. */
double gl_timed_ms(const char *launcher, const char *on, gl_problem *p);

#define GL_RIGHT(name, points, timeout_s, title, ...)                                         \
    GL_TEST(name, GL_CORRECTNESS, points, timeout_s, title)                                   \
    {                                                                                         \
        gl_claim_right(&(gl_run_claim){__VA_ARGS__});                                         \
    }
#define GL_QUEUED(name, points, title, ...)                                                   \
    GL_TEST(name, GL_CORRECTNESS, points, 30, title)                                          \
    {                                                                                         \
        gl_claim_queued(&(gl_run_claim){__VA_ARGS__});                                        \
    }
#define GL_FASTER(name, points, title, ...)                                                   \
    GL_TEST(name, GL_PERFORMANCE, points, 120, title)                                         \
    {                                                                                         \
        gl_claim_faster(&(gl_speed_claim){__VA_ARGS__});                                      \
    }
#define GL_SHARE(name, points, title, ...)                                                    \
    GL_TEST(name, GL_PERFORMANCE, points, 120, title)                                         \
    {                                                                                         \
        gl_claim_share(&(gl_speed_claim){__VA_ARGS__});                                       \
    }
#define GL_OVERLAP(name, points, title, ...)                                                  \
    GL_TEST(name, GL_PERFORMANCE, points, 120, title)                                         \
    {                                                                                         \
        gl_claim_overlap(&(gl_speed_claim){__VA_ARGS__});                                   \
    }
#define GL_COUNTER(name, points, title, ...)                                                  \
    GL_TEST(name, GL_PROFILE, points, 300, title)                                             \
    {                                                                                         \
        gl_claim_counter(&(gl_counter_claim){__VA_ARGS__});                                   \
    }

#endif
