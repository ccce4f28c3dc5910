/* gl_demo_table.c: a demo's comparison table, from its variant table and its lab's problem
 * (gl_demo.h): each variant checked as the grader checks it, then timed. */
#include "gl_demo.h"

#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_problem.h"
#include "gl_random.h"
#include "gl_table.h"
#include "gl_timing.h"

#include <stdio.h>

typedef struct {
    const gl_problem *p;
    const char *launcher;
    void *buf[GL_PROBLEM_BUFS];
} job;

static void run(void *arg)
{
    job *j = arg;
    j->p->call(j->p->ctx, j->launcher, j->buf);
}

int gl_demo_table(const char *lab, const char *note, const gl_demo_variant *v,
                  gl_problem_fn problem, void *size, const gl_demo_args *args)
{
    const char *base = NULL, *h[6] = {"variant", "time_ms", "GB/s", "pct_of_memcpy", "", "check"};
    char x_base[64], short_lab[8]; /* the header x_<the baseline's label>; "08" */
    gl_device_info info;
    gl_table *table;
    gl_buf b[GL_PROBLEM_BUFS];
    gl_problem first = problem(v[0].launcher, size), pi;
    const gl_problem *p = &first;
    job j = {NULL, NULL, {NULL}};
    double memcpy_gbps, ms[GL_DEMO_MAX_VARIANTS], base_ms = -1.0;
    int n, i, k, wrong = 0, status;

    for (n = 0; v[n].launcher && n < GL_DEMO_MAX_VARIANTS; n++)
        if (v[n].baseline)
            base = v[n].label;
    snprintf(x_base, sizeof x_base, "x_%s", base ? base : "baseline");
    h[4] = x_base;

    gl_demo_begin(&info);
    memcpy_gbps = gl_memcpy_gbps(0);
    table = gl_table_new(NULL, 6, h);
    gl_table_note(table, "lab", "%s, %s", lab, note);
    gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    gl_table_note(table, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + write; "
                  "theoretical %.0f)", memcpy_gbps, info.theoretical_gbps);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());

    for (k = 0; k < p->inputs + p->outputs; k++) { /* the timed calls' buffers, one size */
        b[k] = gl_buf_alloc(p->buf[k].bytes, 0);
        j.buf[k] = b[k].ptr;
        if (k < p->inputs || p->buf[k].made)
            p->make(p->ctx, k, j.buf[k], gl_problem_seed(gl_seed(), k));
    }
    for (i = 0; i < n; i++) {
        const char *why;
        pi = problem(v[i].launcher, size); /* its reference may be its own */
        why = gl_problem_check(v[i].launcher, &pi, gl_seed());
        ms[i] = -1.0; /* wrong: not timed */
        if (*why) {
            wrong++;
            printf("%s is WRONG: %s\n", v[i].launcher, why);
            continue;
        }
        j.p = &pi;
        j.launcher = v[i].launcher;
        ms[i] = gl_time_ms(run, &j, gl_timing_default());
        if (v[i].baseline)
            base_ms = ms[i];
    }
    for (i = 0; i < n; i++) {
        gl_table_cell(table, "%s", v[i].label);
        if (ms[i] < 0.0) {
            for (k = 0; k < 4; k++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.4f", ms[i]);
        gl_table_cell(table, "%.0f", gl_gbps(p->work, ms[i]));
        gl_table_cell(table, "%.1f", gl_percent(gl_gbps(p->work, ms[i]), memcpy_gbps));
        if (base_ms > 0.0)
            gl_table_cell(table, "%.2f", base_ms / ms[i]);
        else
            gl_table_cell(table, "-");
        gl_table_cell(table, "ok");
    }
    snprintf(short_lab, sizeof short_lab, "%.2s", lab); /* make check LAB=08 */
    status = gl_demo_end(table, args, wrong, short_lab);
    for (k = 0; k < p->inputs + p->outputs; k++)
        gl_buf_free(&b[k]);
    return status;
}
