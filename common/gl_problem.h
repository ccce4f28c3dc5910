/* gl_problem.h: a lab's problem, described once in its lab.c for its demo and its grader:
 * the buffers of one call, how its inputs are made on the GPU from a seed, the call, the
 * reference that gives the expected outputs, how an output is compared, and the work of a call
 * for the rates. The demo checks and times its variants on it (gl_demo_table); the grader
 * times a launcher on fresh inputs (gl_perf_ms), shows that it only enqueues its work
 * (gl_perf_queued), and runs it once for a probe or under Nsight Compute (gl_problem_check). */
#ifndef GL_PROBLEM_H
#define GL_PROBLEM_H

#include <stddef.h>

#include "gl_compare.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GL_PROBLEM_BUFS 6

/* how an output's elements compare: 32-bit words exactly (shown as ints, or as unsigned
 * ints), floats or doubles within a tolerance */
typedef enum { GL_CMP_WORDS, GL_CMP_FLOAT, GL_CMP_DOUBLE, GL_CMP_UINT } gl_cmp_kind;

typedef struct {
    const char *name; /* as the messages say it: "out", "a" */
    size_t bytes;     /* of one call */
    gl_cmp_kind cmp;  /* an output: word by word, or floats or doubles within atol + rtol |x| */
    double atol, rtol;
    size_t row;       /* elements a row: the messages say [row][col] (0: [i]) */
    int made;         /* an output the call updates in place: made from the seed, not poisoned */
    int scratch;      /* an output the call may use as it likes (a launcher's workspace):
                       * poisoned and guarded, never compared */
    const char *outside; /* what a call may write of it, said when one wrote outside it (its
                          * guard zones) or changed it (an input) in the lab's words: "only
                          * bins[0 .. nbins - 1] are written", "in is the read-only input";
                          * NULL: the place alone */
    size_t guard;        /* its guard zones in a check, bytes each side: as far as a likely
                          * stray write reaches (a missing bounds test: a tile's rows past
                          * the end); 0: 4096 */
    int kept;            /* a made output that a right call leaves as it found it (a counter
                          * back at 0): gl_perf_queued takes it without the lab's verify */
    int host;            /* it lives in pinned host memory (the launcher copies it between the
                          * host and the device, layout letter 'H'): made, poisoned, guarded
                          * and compared there by the GPU, as device memory is */
} gl_problem_buf;

typedef struct gl_problem_s {
    const char *what;    /* in the messages (and the grader's key): "at 8192 x 8192" */
    int inputs, outputs; /* buf[0 .. inputs) are the inputs, then the outputs */
    gl_problem_buf buf[GL_PROBLEM_BUFS];
    void *ctx;           /* the lab's size, given back to its functions */
    /* makes buffer k (an input, or a made output) of a call on the GPU from seed; NULL: random
     * floats in [-1, 1) (gl_problem_make, which every caller calls) */
    void (*make)(void *ctx, int k, void *dst, unsigned long long seed);
    /* runs launcher once on one call's buffers (inputs, then outputs) */
    void (*call)(void *ctx, const char *launcher, void *const *buf);
    /* the reference: the kit's launcher of that name, run by call on the same inputs, */
    const char *reference;
    /* or the lab's own (NULL reference): the outputs of buf from its inputs, on the GPU */
    void (*reference_fn)(void *ctx, void *const *buf);
    /* or, with neither, the lab's own check of the outputs got from the inputs (buf: the
     * inputs, then the outputs; on the GPU), where no element is exact and a whole reference
     * costs too much (a product checked on a sample, each element within its error bound): ""
     * when right, else why in the lab's words (a static buffer); seed draws its sample.
     * gl_perf_queued asks it of the outputs as its warm-up and its queued call left them, a
     * made output made once, before both (working memory a right call leaves as it found it,
     * as a counter); without it, gl_perf_queued takes no made output but a kept one */
    const char *(*verify)(void *ctx, void *const *buf, unsigned long long seed);
    /* the student's setters (a __constant__ copy) before a call's inputs exist, or NULL */
    void (*setup)(void *ctx, const char *launcher, unsigned long long seed);
    int inputs_read_only; /* a check also finds every input as it was made */
    /* What a wrong output most likely means, in the lab's terms; the first of these a lab
     * gives is used. hint_of_values: by output b's values themselves (host copies of its
     * expected and got elements; c: what the comparison found), where that takes more than the
     * first wrong elements (a histogram's total) or depends on which output is wrong; hint_of:
     * by what the comparison found (nothing written, some elements never written, wrong
     * values), for launcher; hint_none and hint_partly: when the output was not written at all,
     * or only in part; hint: wrong values, or any failure where the others are not given (NULL:
     * every call must compute its whole output from its own inputs). */
    const char *hint;
    const char *hint_none, *hint_partly;
    const char *(*hint_of)(void *ctx, const char *launcher, const gl_cmp *c);
    const char *(*hint_of_values)(void *ctx, const char *launcher, const gl_problem_buf *b,
                                  const gl_cmp *c, const void *expected, const void *got);
    double work;         /* bytes moved (or FLOPs) by one call: the demo's rate */
    const char *unit;    /* the rate of work per second, in 10^9: NULL "GB/s", or "GFLOP/s" */
    /* the grader's timed rounds: calls a round, each on its own buffers (at most 31: together
     * larger than the L2), rounds after the warm-up, and calls a round of a slow kit's launcher
     * (0: as many) */
    int sets, rounds, baseline_sets;
} gl_problem;

/* Makes buffer k of a call from seed: the lab's make, or random floats in [-1, 1). */
void gl_problem_make(const gl_problem *p, int k, void *dst, unsigned long long seed);

/* Runs launcher once on inputs made from seed and on poisoned outputs with guard zones, and
 * compares every output with the reference's on the same inputs: "" when right, else why, in
 * the problem's words (a static buffer), after p->what ("at 33 x 31: out is wrong at 62 of
 * 1023 elements (31 never written ...), first out[0][31]: expected 0.25, never written; ...
 * <the hint>"). The inputs must be unchanged where they are read-only, and nothing written
 * outside the outputs. */
const char *gl_problem_check(const char *launcher, const gl_problem *p, unsigned long long seed);

/* The demo's clock on a problem: launcher timed by gl_time_ms (the median of 21 calls, the L2
 * flushed before each) on one set of buffers, its inputs and made outputs made from seed, after
 * the student's setters (p->setup). The outputs are not checked: gl_problem_check first. */
double gl_problem_time_ms(const char *launcher, const gl_problem *p, unsigned long long seed);

/* Output b of launcher's call is wrong (found on the GPU by gl_problem_wrong: wrong elements,
 * the first at first): why, in the problem's words: its elements compared again on the host,
 * the first wrong ones shown with the expected values, then what that most likely means in
 * the lab's terms (p->hint_of, by what was found, or p->hint). */
void gl_problem_describe(const gl_problem *p, const gl_problem_buf *b, const char *launcher,
                         const void *expected, const void *got, size_t wrong, size_t first,
                         char *why, size_t len);
/* Wrong elements of output k (got, device) against the expected (device), by the buffer's
 * comparison; *first gets the first one's index. */
size_t gl_problem_wrong(const gl_problem_buf *b, const void *expected, const void *got,
                        size_t *first);
/* An output of one element (a sum), as the messages say it: its value got and the expected
 * one (device pointers), "12.5, expected 13 within 0.0019" (words as ints, exactly: "-3,
 * expected 4"). Returns 0, saying nothing, where the output has more elements. */
int gl_problem_value(const gl_problem_buf *b, const void *expected, const void *got, char *out,
                     size_t len);
/* Whether a call wrote outside buffer b (its guard zones, checked on the GPU): 0 when not, else
 * the number of bytes changed and why, in the problem's words (the place, then b->outside). */
struct gl_buf_s;
size_t gl_problem_outside(const gl_problem_buf *b, const struct gl_buf_s *buf, char *why,
                          size_t len);
/* Whether a call changed input buffer b (got) from how it was made (made; both on the GPU): 0
 * when not, else the number of words changed and why, in the problem's words (the place of
 * the first, then b->outside or "the inputs are read-only"). */
size_t gl_problem_changed(const gl_problem_buf *b, const void *made, const void *got, char *why,
                          size_t len);
/* A buffer for b's bytes with guard zones of guard bytes (gl_buf_alloc): in pinned host memory
 * where b->host says so (gl_buf_alloc_host), else on the device. */
struct gl_buf_s gl_problem_alloc(const gl_problem_buf *b, size_t guard);
/* "[i]", or "[row][col]" where the buffer has rows. */
void gl_problem_where(const gl_problem_buf *b, size_t i, char *out, size_t len);
/* The seed of buffer k of call i of a round (the first buffer's is seed itself). */
unsigned long long gl_problem_seed(unsigned long long seed, int k);

#ifdef __cplusplus
}
#endif
#endif
