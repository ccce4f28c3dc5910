/* claims.c: the common claims a suite makes in one line each (grader.h: GL_RIGHT, GL_QUEUED,
 * GL_FASTER, GL_SHARE, GL_COUNTER, GL_OVERLAP): a launcher right on the lab's problem at some
 * sizes, one that only enqueues its work, one faster than a baseline by
 * a factor or at a share of its rate, a ratio of counters within a bound, copies that run
 * under the call's own kernels (the GPU's timeline). It owns their
 * measuring on the lab's timed problem or profile run, their note, their margin for make
 * calibrate and their messages; the clock is perf.c's and clock.c's, the counters
 * profile.c's. */
#include "grader.h"
#include "judge.h"

#include "gl_timing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* run's words as an argv (the words kept in words) */
static int split(const char *run, char *words, size_t len, char **argv, int max)
{
    int n = 0;
    snprintf(words, len, "%s", run);
    for (char *w = strtok(words, " "); w && n < max - 1; w = strtok(NULL, " "))
        argv[n++] = w;
    argv[n] = NULL;
    return n;
}

/* The lab's problem of run ("LAUNCHER SIZE..."): *p, and the launcher (in words) */
static const char *problem(const char *run, char *words, size_t len, gl_problem *p)
{
    char *argv[16];
    int n = split(run, words, len, argv, 16);
    if (n < 1 || !GL_LAB.problem || GL_LAB.problem(argv[0], n - 1, argv + 1, p) != 0)
        gl_kit_error("%s has no problem \"%s\"", GL_LAB.name, run);
    return argv[0];
}

/* run with each word "LO..HI" replaced by a number in [LO, HI] drawn from rng, in order: a
 * size drawn from the seed ("LO..HI*STEP": that number times STEP, a multiple of STEP) */
static void draw(const char *run, gl_rng *rng, char *out, size_t len)
{
    char words[256], *argv[16];
    int i, n = split(run, words, sizeof words, argv, 16);
    size_t at = 0;
    out[0] = '\0';
    for (i = 0; i < n && at < len; i++) {
        long lo, hi, step = 1;
        char tail;
        if (sscanf(argv[i], "%ld..%ld%c", &lo, &hi, &tail) == 2 ||
            sscanf(argv[i], "%ld..%ld*%ld%c", &lo, &hi, &step, &tail) == 3)
            at += (size_t)snprintf(out + at, len - at, "%s%lld", i ? " " : "",
                                   (long long)(step * gl_rng_range(rng, lo, hi)));
        else
            at += (size_t)snprintf(out + at, len - at, "%s%s", i ? " " : "", argv[i]);
    }
}

static void right(const char *run, gl_rng *rng)
{
    char drawn[256], words[256];
    gl_problem p;
    const char *launcher, *why;
    draw(run, rng, drawn, sizeof drawn);
    launcher = problem(drawn, words, sizeof words, &p);
    why = gl_problem_check(launcher, &p, gl_test_seed());
    if (*why)
        gl_check_fail("%s %s", launcher, why);
}

void gl_claim_right(const gl_run_claim *c)
{
    char run[256];
    size_t len;
    gl_rng rng;
    gl_test_rng(&rng);
    if (!c->cases)
        right(c->run, &rng);
    for (const char *s = c->cases; s && *s; s += len + (s[len] == ',')) {
        s += strspn(s, " ");
        len = strcspn(s, ",");
        snprintf(run, sizeof run, "%s %.*s", c->run, (int)len, s);
        right(run, &rng);
    }
}

void gl_expect_right(const char *fmt, ...)
{
    char run[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run, sizeof run, fmt, ap);
    va_end(ap);
    gl_claim_right(&(gl_run_claim){.run = run});
}

void gl_claim_queued(const gl_run_claim *c)
{
    char words[256];
    gl_problem p;
    const char *launcher = problem(c->run, words, sizeof words, &p);
    gl_perf_queued(launcher, &p);
}

double gl_timed_ms(const char *launcher, const char *on, gl_problem *p)
{
    if (!GL_LAB.timed || GL_LAB.timed(launcher, on, p) != 0)
        gl_kit_error("%s has no timed problem \"%s\" for %s", GL_LAB.name, on ? on : "",
                     launcher);
    return gl_perf_ms(launcher, p);
}

typedef struct {
    double ms, rate;
    char said[96]; /* "moves 1643 GB/s", or "takes 1.858 ms" where the problem has no work */
    const char *x;  /* "x", or "x as fast as" beside a time */
    char what[128];
} timing;

static timing timed(const char *launcher, const char *on)
{
    gl_problem p;
    timing t;
    t.ms = gl_timed_ms(launcher, on, &p);
    snprintf(t.what, sizeof t.what, "%s", p.what);
    if (p.work > 0) {
        t.rate = gl_gbps(p.work, t.ms);
        snprintf(t.said, sizeof t.said, "%s %.0f %s", p.unit ? "runs at" : "moves", t.rate,
                 p.unit ? p.unit : "GB/s");
        t.x = "x";
    } else {
        t.rate = 1.0 / t.ms;
        snprintf(t.said, sizeof t.said, "takes %.3f ms", t.ms);
        t.x = "x as fast as";
    }
    return t;
}

/* The baseline in words: the claim's own, else "the given NAME" for a given launcher */
static const char *than_is(const gl_speed_claim *c)
{
    static char given[128];
    const gl_launcher *l;
    if (c->than_is)
        return c->than_is;
    l = gl_launcher_find(c->than);
    if (!l || !(l->flags & GL_GIVEN))
        return c->than;
    snprintf(given, sizeof given, "the given %s", c->than);
    return given;
}

void gl_claim_faster(const gl_speed_claim *c)
{
    timing base = timed(c->than, c->on), t = timed(c->launcher, c->on);
    double ratio = t.rate / base.rate;
    gl_test_margin(ratio, c->factor, 1);
    if (ratio < c->factor)
        gl_check_fail("%s, %s %s: %.3f%s %s, which %s; it should be at least %.2fx.%s%s",
                      t.what, c->launcher, t.said, ratio, t.x, than_is(c), base.said, c->factor,
                      c->hint ? " " : "", c->hint ? c->hint : "");
    gl_test_note("%s, %s %s = %.2f%s %s, which %s (needs %.2fx)", t.what, c->launcher, t.said,
                 ratio, t.x, than_is(c), base.said, c->factor);
}

void gl_claim_share(const gl_speed_claim *c)
{
    timing base = timed(c->than, c->on), t = timed(c->launcher, c->on);
    double pct = 100.0 * t.rate / base.rate;
    gl_test_margin(pct, c->percent, 1);
    if (pct < c->percent)
        gl_check_fail("%s, %s %s: %.1f%% of %s, which %s; it should reach %.0f%%.%s%s",
                      t.what, c->launcher, t.said, pct, than_is(c), base.said, c->percent,
                      c->hint ? " " : "", c->hint ? c->hint : "");
    gl_test_note("%s, %s %s = %.1f%% of %s, which %s (needs %.0f%%)", t.what, c->launcher,
                 t.said, pct, than_is(c), base.said, c->percent);
}

void gl_claim_counter(const gl_counter_claim *c)
{
    const gl_counter *k = c->counter;
    char words[256], *argv[16], kernel[224], detail[512] = "";
    double v[16], r;
    int larger = c->at_least > 0;
    double bound = larger ? c->at_least : c->at_most;
    split(c->run, words, sizeof words, argv, 16);
    if (k->nmetrics > 16)
        gl_kit_error("counter %s: more than 16 metrics", k->what);
    r = gl_profile_ratio(k->metrics, k->nmetrics, k->num, k->den, larger,
                         (const char *const *)argv, v, kernel, sizeof kernel);
    if (r < 0)
        gl_check_fail("%s's kernels did none of the work this counts (%s: Nsight Compute "
                      "counted none)%s%s",
                      argv[0], k->what, c->none ? ": " : "", c->none ? c->none : "");
    if (c->per > 0)
        r /= c->per;
    if (k->detail)
        k->detail(v, detail, sizeof detail);
    gl_test_margin(r, bound, larger);
    if (larger ? r < bound : r > bound)
        gl_check_fail("%s's kernel %s: %.2f %s; it should be at %s %.2f.%s%s%s%s%s", argv[0],
                      kernel, r, k->what, larger ? "least" : "most", bound, c->hint ? " " : "",
                      c->hint ? c->hint : "", *detail ? " (" : "", detail, *detail ? ")" : "");
    gl_test_note("%s: %.2f %s (at %s %.2f)%s%s", kernel, r, k->what, larger ? "least" : "most",
                 bound, *detail ? "; " : "", detail);
}

/* A launcher that copies between the host and the device (GL_MAY_COPY) keeps its copies under
 * its own kernels: timed on the lab's timed problem, the share of its copies' time during
 * which a kernel of the same call ran, from the GPU's record (CUPTI; record.c). */
void gl_claim_overlap(const gl_speed_claim *c)
{
    gl_problem p;
    gl_timeline t;
    double pct;
    gl_forget_timeline(c->launcher);
    gl_timed_ms(c->launcher, c->on, &p);
    if (!gl_judge_records_gpu())
        gl_skip("the GPU's timeline comes from CUPTI's record, which this subject does not "
                "have");
    if (!gl_launcher_timeline(c->launcher, &t) || t.copies == 0 || t.copy_ns <= 0)
        gl_check_fail("%s %s: the GPU's record shows no copy between the host and the device: "
                      "the data must cross with cudaMemcpyAsync.%s%s",
                      c->launcher, p.what, c->hint ? " " : "", c->hint ? c->hint : "");
    pct = 100.0 * t.overlap_ns / t.copy_ns;
    gl_test_margin(pct, c->percent, 1);
    if (pct < c->percent)
        gl_check_fail("%s %s: a kernel of the same call ran during %.1f%% of its copies' time "
                      "(%.3f of %.3f ms a call; %.1f kernels and %.1f copies a call); it "
                      "should reach %.0f%%.%s%s",
                      c->launcher, p.what, pct, 1e-6 * t.overlap_ns / (double)t.calls,
                      1e-6 * t.copy_ns / (double)t.calls, (double)t.kernels / (double)t.calls,
                      (double)t.copies / (double)t.calls, c->percent, c->hint ? " " : "",
                      c->hint ? c->hint : "");
    gl_test_note("%s %s: %.1f%% of its copies' time under its own kernels (%.1f kernels and "
                 "%.1f copies a call; needs %.0f%%)",
                 c->launcher, p.what, pct, (double)t.kernels / (double)t.calls,
                 (double)t.copies / (double)t.calls, c->percent);
}
