/* gl_demo_table.c: a demo's comparison table, from its variant table and its lab's problem
 * (gl_demo.h): each variant checked as the grader checks it, then timed; or a sweep, each row
 * at its own size; or cases, each its own problem, with the demo's own rows (a probe, a CPU's
 * time, a hidden roof) and its notes of what it measures before and after them. */
#include "gl_demo.h"

#include "gl_buffer.h"
#include "gl_check.h"
#include "gl_problem.h"
#include "gl_random.h"
#include "gl_table.h"
#include "gl_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The note notes give under key, or NULL. */
static const char *note_of(const char *const *notes, const char *key)
{
    for (; notes && notes[0]; notes += 2)
        if (!strcmp(notes[0], key))
            return notes[1];
    return NULL;
}

/* The GPU's line, the measured cudaMemcpy bandwidth, and the table with its notes (the demo's
 * own: one keyed "gpu" says the gpu's). */
static gl_table *begin(const char *lab, const char *note, int ncols, const char *const *h,
                       double *memcpy_gbps, const char *const *notes)
{
    gl_device_info info;
    gl_table *table;
    const char *gpu = note_of(notes, "gpu");
    gl_demo_begin(&info);
    if (memcpy_gbps) /* NULL: no share of it */
        *memcpy_gbps = gl_memcpy_gbps(0);
    table = gl_table_new(NULL, ncols, h);
    gl_table_note(table, "lab", "%s, %s", lab, note);
    if (gpu)
        gl_table_note(table, "gpu", "%s", gpu);
    else
        gl_table_note(table, "gpu", "%s (sm_%d%d)", info.name, info.cc_major, info.cc_minor);
    if (memcpy_gbps)
        gl_table_note(table, "memcpy_gbps", "%.0f (cudaMemcpy device to device, read + "
                      "write; theoretical %.0f)", *memcpy_gbps, info.theoretical_gbps);
    for (; notes && notes[0]; notes += 2) /* the demo's own: key, text */
        if (strcmp(notes[0], "gpu") != 0)
            gl_table_note(table, notes[0], "%s", notes[1]);
    gl_table_note(table, "seed", "%llu", (unsigned long long)gl_seed());
    return table;
}

int gl_demo_table(const char *lab, const char *note, const gl_demo_variant *v,
                  gl_problem_fn problem, void *size, const gl_demo_args *args)
{
    const char *base = NULL, *h[6] = {"variant", "time_ms", "GB/s", "pct_of_memcpy", "", "check"};
    char x_base[64], short_lab[8]; /* the header x_<the baseline's label>; "08" */
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

    table = begin(lab, note, 6, h, &memcpy_gbps, NULL);

    for (k = 0; k < p->inputs + p->outputs; k++) { /* the timed calls' buffers, one size */
        b[k] = gl_problem_alloc(&p->buf[k], 0);
        j.buf[k] = b[k].ptr;
        if (k < p->inputs || p->buf[k].made)
            gl_problem_make(p, k, j.buf[k], gl_problem_seed(gl_seed(), k));
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

/* ---- a sweep: each row its own size (gl_demo.h) ---- */

/* why, less the problem's words for its size: the same reason at another size is the same. */
static void reason(const char *why, const char *what, char *out, size_t len)
{
    const char *at = *what ? strstr(why, what) : NULL;
    if (at)
        snprintf(out, len, "%.*s%s", (int)(at - why), why, at + strlen(what));
    else
        snprintf(out, len, "%s", why);
}

int gl_demo_sweep(const char *lab, const char *note, const char *key, const char *param,
                  const gl_demo_row *v, gl_problem_fn problem, const gl_demo_args *args)
{
    const char *h[6] = {key, param, "time_ms", "GB/s", "pct_of_memcpy", "check"};
    static char last[1024], now[1024]; /* the row before's reason, and this one's */
    char short_lab[8];
    double memcpy_gbps;
    gl_table *table = begin(lab, note, 6, h, &memcpy_gbps, NULL);
    int i, k, wrong = 0;

    last[0] = '\0';
    for (i = 0; v[i].launcher; i++) {
        gl_problem p = problem(v[i].launcher, v[i].size);
        const char *why = gl_problem_check(v[i].launcher, &p, gl_seed());
        gl_table_cell(table, "%s", v[i].label);
        gl_table_cell(table, "%s", v[i].param ? v[i].param : "");
        if (*why) {
            reason(why, p.what, now, sizeof now);
            if (strcmp(now, last) != 0) /* the same reason for every stride: said once */
                printf("%s is WRONG: %s\n", v[i].launcher, why);
            snprintf(last, sizeof last, "%s", now);
            wrong++;
            for (k = 0; k < 3; k++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
        } else {
            gl_buf b[GL_PROBLEM_BUFS]; /* the timed calls' buffers, at this row's size */
            job j = {&p, v[i].launcher, {NULL}};
            double ms;
            for (k = 0; k < p.inputs + p.outputs; k++) {
                b[k] = gl_problem_alloc(&p.buf[k], 0);
                j.buf[k] = b[k].ptr;
                if (k < p.inputs || p.buf[k].made)
                    gl_problem_make(&p, k, j.buf[k], gl_problem_seed(gl_seed(), k));
            }
            ms = gl_time_ms(run, &j, gl_timing_default());
            for (k = 0; k < p.inputs + p.outputs; k++)
                gl_buf_free(&b[k]);
            gl_table_cell(table, "%.4f", ms);
            gl_table_cell(table, "%.0f", gl_gbps(p.work, ms));
            gl_table_cell(table, "%.1f", gl_percent(gl_gbps(p.work, ms), memcpy_gbps));
            gl_table_cell(table, "ok");
            last[0] = '\0';
        }
    }
    snprintf(short_lab, sizeof short_lab, "%.2s", lab); /* make check LAB=02 */
    return gl_demo_end(table, args, wrong, short_lab);
}

/* ---- cases: each its own problem, its speedup over the case it names (gl_demo.h) ---- */

/* What a WRONG line calls case v besides its launcher: the first key after the label column,
 * else the first key, else the label; "" where that is the launcher or, a label, its last
 * words ("interleaved" of reduce_interleaved). */
static const char *case_name(const gl_demo_case *v, int nkeys, int keys_first)
{
    const char *name = keys_first < nkeys ? v->keys[keys_first] : nkeys ? v->keys[0] : v->label;
    size_t n = name ? strlen(name) : 0, len = strlen(v->launcher);
    if (!name || !strcmp(name, "-") || !strcmp(name, v->launcher) ||
        (!nkeys && len > n && v->launcher[len - n - 1] == '_' &&
         !strcmp(v->launcher + len - n, name)))
        return "";
    return name;
}

/* A host case's time (gl_demo.h): its function once on host copies of p's inputs. */
static double host_ms(const gl_demo_case *v, const gl_problem *p)
{
    void *buf[GL_PROBLEM_BUFS] = {NULL};
    double t0, ms;
    int k;
    printf("%s %s: timing it once on the host ...\n", v->label, p->what);
    fflush(stdout);
    for (k = 0; k < p->inputs + p->outputs; k++) {
        buf[k] = malloc(p->buf[k].bytes ? p->buf[k].bytes : 1);
        if (!buf[k])
            gl_fail("out of host memory for %s %s", v->label, p->what);
        if (k < p->inputs) { /* made on the GPU, as for every call */
            gl_buf made = gl_buf_alloc(p->buf[k].bytes, 0);
            gl_problem_make(p, k, made.ptr, gl_problem_seed(gl_seed(), k));
            gl_buf_download(&made, buf[k]);
            gl_buf_free(&made);
        }
    }
    t0 = gl_host_seconds();
    v->host(v->size, buf);
    ms = 1e3 * (gl_host_seconds() - t0);
    for (k = 0; k < p->inputs + p->outputs; k++)
        free(buf[k]);
    return ms;
}

/* A probe's call (gl_demo.h): its launcher on its own arguments, for gl_time_ms */
static void probe(void *arg)
{
    const gl_demo_case *v = arg;
    gl_exec(v->launcher, v->args);
}

int gl_demo_cases(const char *lab, const char *note, const gl_demo_case *v,
                  gl_problem_fn problem, const gl_demo_options *o, const gl_demo_args *args)
{
    const char *h[2 * GL_DEMO_MAX_KEYS + 6];
    gl_problem first = problem(v[0].launcher, v[0].size); /* its unit: GB/s or GFLOP/s */
    char short_lab[8];
    double memcpy_gbps = o->pct_of, ms[GL_DEMO_MAX_CASES], work[GL_DEMO_MAX_CASES];
    gl_table *table;
    int nkeys = 0, nrates = 0, ncols, n, i, k, over, wrong = 0, digits = o->time_digits;
    int label_at; /* the label column's place among the key columns */

    while (nkeys < GL_DEMO_MAX_KEYS && o->keys[nkeys])
        nkeys++;
    label_at = o->keys_first < nkeys ? o->keys_first : nkeys;
    for (k = 0; k < nkeys; k++)
        h[k < label_at ? k : k + 1] = o->keys[k];
    h[label_at] = o->variant ? o->variant : "variant";
    ncols = 1 + nkeys;
    h[ncols++] = "time_ms";
    while (nrates < GL_DEMO_MAX_KEYS && o->rates[nrates])
        h[ncols++] = o->rates[nrates++];
    if (!nrates)
        h[ncols++] = first.unit ? first.unit : "GB/s";
    if (!o->no_memcpy)
        h[ncols++] = o->pct ? o->pct : "pct_of_memcpy";
    if (o->share)
        h[ncols++] = o->share;
    h[ncols++] = o->speedup;
    h[ncols++] = "check";
    table = begin(lab, note, ncols, h, o->no_memcpy || o->pct_of > 0.0 ? NULL : &memcpy_gbps,
                  o->notes);
    if (o->before)
        o->before(table);

    for (n = 0; n < GL_DEMO_MAX_CASES && v[n].launcher; n++) { /* checked, then timed */
        gl_problem p = v[n].args ? (gl_problem){.what = ""} : problem(v[n].launcher, v[n].size);
        const char *why = v[n].unchecked ? ""
                          : o->check ? o->check(v[n].launcher, v[n].size)
                                     : gl_problem_check(v[n].launcher, &p, gl_seed());
        work[n] = p.work;
        ms[n] = -1.0; /* wrong: not timed */
        if (*why) {
            const char *name = case_name(&v[n], nkeys, label_at);
            wrong++;
            printf("%s%s%s%s is WRONG: %s\n", v[n].launcher, /* "histogram_global (hot 1)" */
                   *name ? " (" : "", name, *name ? ")" : "", why);
            continue;
        }
        if (v[n].ms > 0.0)
            ms[n] = v[n].ms;
        else if (v[n].host)
            ms[n] = host_ms(&v[n], &p);
        else if (v[n].args)
            ms[n] = gl_time_ms(probe, (void *)&v[n], gl_timing_default());
        else
            ms[n] = gl_problem_time_ms(v[n].launcher, &p, gl_seed());
    }
    if (o->after)
        o->after(table, ms);
    for (i = 0; i < n; i++) {
        if (v[i].hidden)
            continue;
        for (k = 0; k <= nkeys; k++) { /* the keys and the label, in the header's order */
            const char *key = k == label_at ? v[i].label : v[i].keys[k - (k > label_at)];
            gl_table_cell(table, "%s", key ? key : "");
        }
        if (ms[i] < 0.0) {
            for (k = 1 + nkeys; k < ncols - 1; k++)
                gl_table_cell(table, "-");
            gl_table_cell(table, "WRONG");
            continue;
        }
        gl_table_cell(table, "%.*f", digits ? digits : 4, ms[i]);
        for (k = 0; k < nrates; k++)
            gl_table_cell(table, "%.1f", v[i].counts[k] / ms[i] / 1e6);
        if (!nrates && work[i] > 0.0)
            gl_table_cell(table, "%.*f", o->rate_digits, gl_gbps(work[i], ms[i]));
        else if (!nrates)
            gl_table_cell(table, "-"); /* no work: a probe's time alone */
        if (!o->no_memcpy && work[i] > 0.0)
            gl_table_cell(table, "%.1f", gl_percent(gl_gbps(work[i], ms[i]), memcpy_gbps));
        else if (!o->no_memcpy)
            gl_table_cell(table, "-");
        over = v[i].share_of ? (int)(v[i].share_of - v) : -1; /* any case of the table */
        if (o->share && over >= 0 && over < n && ms[over] > 0.0)
            gl_table_cell(table, "%.1f", gl_percent(ms[over], ms[i]));
        else if (o->share)
            gl_table_cell(table, "-");
        over = v[i].over ? (int)(v[i].over - v) : -1; /* a case at or before it */
        if (over > i)
            over = -1;
        if (over >= 0 && ms[over] > 0.0) {
            double x = v[i].slowdown ? ms[i] / ms[over] : ms[over] / ms[i];
            gl_table_cell(table, x < 0.1 ? "%.2g" : "%.2f", x); /* two digits of a small one */
        } else
            gl_table_cell(table, "-");
        gl_table_cell(table, "%s", v[i].unchecked ? v[i].unchecked : "ok");
    }
    snprintf(short_lab, sizeof short_lab, "%.2s", lab); /* make check LAB=05 */
    return gl_demo_end(table, args, wrong, short_lab);
}
