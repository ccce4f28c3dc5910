/* record.c: the judge's reading of what a student's call did, against what the lab allows
 * its launcher (gl_exec.h: GL_HOST_CODE, GL_MAY_MEMSET, GL_MAY_COPY_SYMBOL), and which of the
 * kernels it ran did the work.
 *
 * A call's answer says what the student's code asked for (copies, memsets, streams, host
 * functions, contexts, pinned memory ...); a flush says what the GPU ran. Both are recorded
 * by the kit's code in the subject (gpu_record.c, interpose.c). The technique tests judge the
 * kernels that did the work, measured by work (GPU time against the least time the call's
 * bytes need), so that a decoy that does nothing decides nothing and work split over many
 * small kernels is still judged (GRADING.md rule 10). */
#include "record.h"

#include "grader.h"
#include "gl_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gl_record_source src;
static gl_capture *capture; /* a profiled run's, while it runs */

void gl_record_set_source(const gl_record_source *s)
{
    src = *s;
}


/* ---- the kernels a launcher ran ---- */

typedef struct {
    char launcher[64];
    char kernel[224];
    unsigned long long threads;
    unsigned long long ns;           /* GPU time (CUPTI), 0 where unknown */
    unsigned long long dynamic_smem; /* the largest of a launch */
} seen_kernel;

#define MAX_SEEN 256
static seen_kernel seen[MAX_SEEN];
static int nseen, seen_lost;

static void remember(const char *launcher, const char *kernel, unsigned long long threads,
                     unsigned long long ns, unsigned long long dynamic_smem)
{
    int i;
    for (i = 0; i < nseen; i++)
        if (!strcmp(seen[i].launcher, launcher) && !strcmp(seen[i].kernel, kernel)) {
            seen[i].threads += threads;
            seen[i].ns += ns;
            if (dynamic_smem > seen[i].dynamic_smem)
                seen[i].dynamic_smem = dynamic_smem;
            return;
        }
    if (nseen == MAX_SEEN) {
        seen_lost = 1; /* said when a technique test asks */
        return;
    }
    memset(&seen[nseen], 0, sizeof seen[nseen]);
    snprintf(seen[nseen].launcher, sizeof seen[nseen].launcher, "%s", launcher);
    snprintf(seen[nseen].kernel, sizeof seen[nseen].kernel, "%s", kernel);
    seen[nseen].threads = threads;
    seen[nseen].ns = ns;
    seen[nseen].dynamic_smem = dynamic_smem;
    nseen++;
}

void gl_record_bytes(unsigned long long bytes)
{
    if (capture)
        capture->bytes += bytes;
}

long gl_launched_dynamic_smem(const char *kernel)
{
    unsigned long long most = 0;
    int i, found = 0;
    for (i = 0; i < nseen; i++)
        if (!strcmp(seen[i].kernel, kernel)) {
            found = 1;
            most = seen[i].dynamic_smem > most ? seen[i].dynamic_smem : most;
        }
    return found ? (long)most : -1;
}

void gl_forget_kernels(const char *launcher)
{
    int i, k = 0;
    for (i = 0; i < nseen; i++)
        if (strcmp(seen[i].launcher, launcher) != 0)
            seen[k++] = seen[i];
    nseen = k;
    seen_lost = 0;
}

static int by_work(const void *a, const void *b)
{
    const seen_kernel *x = *(const seen_kernel *const *)a, *y = *(const seen_kernel *const *)b;
    return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* The kernels that did launcher's work. With GPU times (CUPTI): every kernel but the least
 * busy ones, left out while together they took at most a quarter of the calls' GPU time or
 * carried at most a tenth of their threads: a one-thread initialisation or a decoy that does
 * nothing decides nothing, and work split over many kernels is judged (the busiest kernel
 * always is). Without times: the kernels that carried a tenth of its threads or more. */
int gl_launched_kernels(const char *launcher, char (*names)[224], int max)
{
    const seen_kernel *mine[MAX_SEEN];
    unsigned long long total = 0, threads = 0, ns = 0, carried = 0;
    int i, n = 0, k = 0, timed = 1;
    if (seen_lost)
        gl_fail("%s launched more different kernels than the grader keeps track of (%d)",
                launcher, MAX_SEEN);
    for (i = 0; i < nseen; i++)
        if (!strcmp(seen[i].launcher, launcher)) {
            mine[n++] = &seen[i];
            total += seen[i].ns;
            threads += seen[i].threads;
            timed &= seen[i].ns > 0;
        }
    if (!timed || !src.cupti) {
        for (i = 0; i < n && k < max; i++)
            if (mine[i]->threads * 10 >= threads)
                snprintf(names[k++], 224, "%s", mine[i]->kernel);
        return k;
    }
    qsort(mine, (size_t)n, sizeof mine[0], by_work);
    for (i = 0; i + 1 < n; i++) { /* too little work to matter */
        ns += mine[i]->ns;
        carried += mine[i]->threads;
        if (ns * 4 > total && carried * 10 > threads)
            break;
    }
    for (; i < n; i++) {
        if (k == max)
            gl_fail("%s ran more than %d different kernels that each did a share of its work: "
                    "the grader judges every one of them, and cannot judge more",
                    launcher, max);
        snprintf(names[k++], 224, "%s", mine[i]->kernel);
    }
    return k;
}

/* ---- what a profiled run did (its rehearsal, and the run under Nsight Compute) ---- */

void gl_record_capture(gl_capture *c)
{
    capture = c;
    if (c)
        c->n = 0, c->bytes = 0, c->launches = 0;
}

static void captured(const gl_gpu_event *e)
{
    gl_captured *c;
    if (!capture || !capture->kernels)
        return;
    if (capture->n++ >= capture->max)
        return; /* more than it holds: n says so, the comparison fails */
    c = &capture->kernels[capture->n - 1];
    snprintf(c->name, sizeof c->name, "%s", e->name);
    memcpy(c->grid, e->grid, sizeof c->grid);
    memcpy(c->block, e->block, sizeof c->block);
}

/* ---- what a launcher may do ---- */

static const char *event_what(uint32_t type)
{
    switch (type) {
    case GL_EV_COPY: return "copied memory";
    case GL_EV_MEMSET: return "set memory";
    case GL_EV_SYMBOL_COPY: return "copied to a __constant__ symbol";
    case GL_EV_HOST_FN: return "enqueued a host function";
    case GL_EV_STREAM: return "used a stream of its own";
    case GL_EV_GRAPH: return "launched a CUDA graph";
    case GL_EV_HOST_MEMORY: return "took pinned or managed host memory";
    case GL_EV_CONTEXT: return "created a CUDA context";
    default: return "called";
    }
}

static const char *event_why(uint32_t type)
{
    switch (type) {
    case GL_EV_COPY:
    case GL_EV_MEMSET:
        return "the lab asks for a kernel of your file to do the work, not a copy";
    case GL_EV_HOST_FN:
    case GL_EV_GRAPH:
        return "a launcher only launches its kernels on the default stream";
    case GL_EV_STREAM:
        return "launch on the default stream: no stream of your own";
    case GL_EV_HOST_MEMORY:
        return "the work is on the GPU, in the memory the caller gives: no host memory";
    case GL_EV_CONTEXT:
        return "the work runs in the process's own (primary) context";
    default:
        return "this launcher may not do that";
    }
}

/* Is name (a device function's mangled name) an entry of the student's PTX? */
static int student_kernel(const char *name)
{
    char pattern[300];
    const char *p;
    size_t n = strlen(name);
    if (!src.ptx)
        return 1; /* no PTX to tell: the record decides alone */
    snprintf(pattern, sizeof pattern, ".entry %s", name);
    for (p = src.ptx; (p = strstr(p, pattern)) != NULL; p += 7)
        if (p[7 + n] == '(' || p[7 + n] == ' ' || p[7 + n] == '\n' || p[7 + n] == '\r')
            return 1;
    return 0;
}

static void outside_work(const char *launcher, unsigned count)
{
    gl_fail("your file started GPU work outside any call of the grader's (%u things done by "
            "another thread, or left behind by a constructor, while %s was being judged): a "
            "launcher does its work when it is called, on the thread that calls it",
            count, launcher);
}

void gl_record_check_answer(const gl_launcher *l, const gl_reply *r)
{
    uint32_t i, n = r->nevents < GL_PROTO_EVENTS ? r->nevents : GL_PROTO_EVENTS;
    if (r->outside)
        outside_work(l->name, r->outside);
    if (r->overflow)
        gl_fail("%s did more than %d different kinds of things in one call (%u more): the "
                "grader records every one, and does not grade a call it could not record whole",
                l->name, GL_PROTO_EVENTS, r->overflow);
    for (i = 0; i < n; i++) {
        const gl_event *e = &r->events[i];
        char name[sizeof e->name + 1];
        snprintf(name, sizeof name, "%.*s", (int)sizeof e->name, e->name);
        if (e->type == GL_EV_KERNEL) { /* the runtime's launch (no CUPTI) */
            if (!e->in_submission || !student_kernel(name))
                gl_fail("%s launched %s, which is not a kernel of %s (a library's kernel?): "
                        "the lab's work must be done by your own kernels",
                        l->name, name, src.file);
            if (l->flags & GL_HOST_CODE)
                gl_fail("%s is host code: it must compute its answer on the CPU and launch "
                        "nothing, but it launched %s",
                        l->name, name);
            if (e->other_stream && !(l->flags & GL_MAY_STREAM))
                gl_fail("%s launched %s on a stream other than the default one: launchers "
                        "launch on the default stream (the caller's order of work depends on "
                        "it)",
                        l->name, name);
            remember(l->name, name, e->threads, 0, e->bytes);
            if (capture)
                capture->launches += e->count;
            continue;
        }
        if (e->type == GL_EV_SYNC || e->type == GL_EV_EVENT || e->type == GL_EV_ALLOC)
            continue; /* allowed; the launch-returns-at-once tests judge synchronising */
        if (e->other_stream && !(l->flags & GL_MAY_STREAM) && e->type != GL_EV_STREAM)
            gl_fail("%s %s (%s) on a stream other than the default one: %s", l->name,
                    event_what(e->type), name, event_why(GL_EV_STREAM));
        if ((e->type == GL_EV_MEMSET && (l->flags & GL_MAY_MEMSET)) ||
            (e->type == GL_EV_SYMBOL_COPY && (l->flags & GL_MAY_COPY_SYMBOL)) ||
            (e->type == GL_EV_COPY && (l->flags & GL_MAY_COPY)) ||
            (e->type == GL_EV_STREAM && (l->flags & GL_MAY_STREAM)) ||
            (e->type == GL_EV_HOST_MEMORY && (l->flags & GL_MAY_HOST_MEMORY)))
            continue; /* what the lab opens to this launcher */
        gl_fail("%s %s (%s, %llu time%s): %s", l->name, event_what(e->type), name,
                (unsigned long long)e->count, e->count == 1 ? "" : "s", event_why(e->type));
    }
}

/* ---- the timeline of a launcher that copies (GL_MAY_COPY): its copies under its kernels ---- */

#define MAX_TIMELINES 16
static struct {
    char launcher[64];
    gl_timeline t;
} timelines[MAX_TIMELINES];
static int ntimelines;

static gl_timeline *timeline_of(const char *launcher, int add)
{
    int i;
    for (i = 0; i < ntimelines; i++)
        if (!strcmp(timelines[i].launcher, launcher))
            return &timelines[i].t;
    if (!add || ntimelines == MAX_TIMELINES)
        return NULL;
    memset(&timelines[ntimelines], 0, sizeof timelines[0]);
    snprintf(timelines[ntimelines].launcher, sizeof timelines[0].launcher, "%s", launcher);
    return &timelines[ntimelines++].t;
}

int gl_launcher_timeline(const char *launcher, gl_timeline *t)
{
    gl_timeline *mine = timeline_of(launcher, 0);
    memset(t, 0, sizeof *t);
    if (mine)
        *t = *mine;
    return mine && mine->calls > 0;
}

void gl_forget_timeline(const char *launcher)
{
    gl_timeline *t = timeline_of(launcher, 0);
    if (t)
        memset(t, 0, sizeof *t);
}

static int by_start(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Each call's copies against the union of the same call's kernels: the time a kernel of the
 * call ran while its copy moved data (the overlap that streams buy; work of another call
 * does not count, so that calls overlapping one another in a timed round are no evidence). */
static void measure_timeline(const char *launcher, const gl_gpu_event *ev, uint32_t n)
{
    static uint64_t span[GL_PROTO_GPU][2];
    static int32_t origins[GL_PROTO_GPU];
    gl_timeline *t = timeline_of(launcher, 1);
    uint32_t i, j, no = 0, nk, m;
    if (!t)
        return;
    for (i = 0; i < n; i++) { /* the calls of this flush */
        for (j = 0; j < no && origins[j] != ev[i].origin; j++)
            ;
        if (j == no && ev[i].origin >= 0)
            origins[no++] = ev[i].origin;
    }
    for (j = 0; j < no; j++) {
        for (i = 0, nk = 0; i < n; i++) {
            if (ev[i].origin != origins[j])
                continue;
            t->other_stream += ev[i].other_stream && ev[i].type != GL_GPU_MEMSET;
            if (ev[i].type == GL_GPU_KERNEL && ev[i].end > ev[i].start) {
                span[nk][0] = ev[i].start;
                span[nk++][1] = ev[i].end;
            }
        }
        qsort(span, nk, sizeof span[0], by_start);
        for (i = 0, m = 0; i < nk; i++) /* merged: the time some kernel of the call ran */
            if (m > 0 && span[i][0] <= span[m - 1][1]) {
                if (span[i][1] > span[m - 1][1])
                    span[m - 1][1] = span[i][1];
            } else {
                span[m][0] = span[i][0];
                span[m++][1] = span[i][1];
            }
        t->calls++;
        t->kernels += nk;
        for (i = 0; i < n; i++) {
            uint32_t k;
            if (ev[i].origin != origins[j] || ev[i].type != GL_GPU_COPY ||
                ev[i].end <= ev[i].start)
                continue;
            t->copies++;
            t->copy_bytes += ev[i].bytes;
            t->copy_ns += (double)(ev[i].end - ev[i].start);
            for (k = 0; k < m; k++) {
                uint64_t lo = span[k][0] > ev[i].start ? span[k][0] : ev[i].start;
                uint64_t hi = span[k][1] < ev[i].end ? span[k][1] : ev[i].end;
                if (hi > lo)
                    t->overlap_ns += (double)(hi - lo);
            }
        }
    }
}

void gl_record_check_gpu(const gl_launcher *l, const gl_gpu_event *ev, uint32_t n,
                         uint32_t overflow, uint64_t first_seq, uint64_t end_seq)
{
    uint32_t i;
    if (overflow)
        gl_fail("%s made the GPU do more than the grader's record holds (%d pieces of work "
                "between two checks): the grader does not grade a call it could not record "
                "whole",
                l->name, GL_PROTO_GPU);
    for (i = 0; i < n && i < GL_PROTO_GPU; i++) {
        gl_gpu_event e = ev[i];
        e.name[sizeof e.name - 1] = '\0';
        if (e.origin == GL_ORIGIN_KIT)
            continue; /* the kit's own work in the subject (its delayed copy) */
        if (e.origin == GL_ORIGIN_OUTSIDE)
            outside_work(l->name, 1);
        if (e.origin < 0 || (uint64_t)e.origin < first_seq || (uint64_t)e.origin >= end_seq)
            gl_fail("while %s was judged, the GPU ran %s (%s), which no call of the grader's "
                    "started (another CUDA context, another thread, or a route the grader "
                    "cannot follow): the grader does not grade work it cannot place",
                    l->name, e.type == GL_GPU_KERNEL ? "a kernel" : e.name, e.name);
        if (e.other_context)
            gl_fail("%s's work ran in a CUDA context of its own (%s): the work runs in the "
                    "process's own context, where the grader can see it end",
                    l->name, e.name);
        if (e.other_stream && !(l->flags & GL_MAY_STREAM))
            gl_fail("%s ran %s on a stream other than the default one: launchers launch on the "
                    "default stream (the caller's order of work depends on it)",
                    l->name, e.name);
        if (e.type == GL_GPU_KERNEL) {
            if (!student_kernel(e.name))
                gl_fail("while %s ran, the GPU ran %s, which is not a kernel of %s (a "
                        "library's kernel?): the lab's work must be done by your own kernels",
                        l->name, e.name, src.file);
            if (l->flags & GL_HOST_CODE)
                gl_fail("%s is host code: it must compute its answer on the CPU and launch "
                        "nothing, but %s ran on the GPU",
                        l->name, e.name);
            remember(l->name, e.name,
                     (unsigned long long)e.grid[0] * e.grid[1] * e.grid[2] * e.block[0] *
                         e.block[1] * e.block[2],
                     e.end > e.start ? e.end - e.start : 1, e.dynamic_smem);
            captured(&e);
            continue;
        }
        if (e.type == GL_GPU_COPY && e.symbol_copy && (l->flags & GL_MAY_COPY_SYMBOL))
            continue; /* the copy to the __constant__ symbol */
        if (e.type == GL_GPU_MEMSET && (l->flags & GL_MAY_MEMSET))
            continue;
        if (e.type == GL_GPU_COPY && e.pageable && (l->flags & GL_MAY_COPY))
            gl_fail("%s copied %llu bytes from or to pageable host memory: the driver stages "
                    "such a copy through a pinned buffer of its own, so it overlaps nothing. "
                    "Copy from and to pinned (page-locked) memory",
                    l->name, (unsigned long long)e.bytes);
        if (e.type == GL_GPU_COPY && !e.symbol_copy && (l->flags & GL_MAY_COPY))
            continue;
        gl_fail("%s made the GPU %s (%llu bytes): the lab asks for a kernel of your file to do "
                "the work, not a copy",
                l->name, e.type == GL_GPU_COPY ? "copy memory" : "set memory",
                (unsigned long long)e.bytes);
    }
    if (l->flags & GL_MAY_COPY) /* every piece belongs to the calls: their timeline */
        measure_timeline(l->name, ev, n < GL_PROTO_GPU ? n : GL_PROTO_GPU);
}

void gl_record_check_taint(const char *launcher, uint32_t taint, const char *what)
{
    if (!taint)
        return;
    gl_fail("while %s was judged, your file %s. The grader judges only kernels compiled from "
            "your file, run in the process's own context",
            launcher, what && *what ? what
                      : taint & GL_TAINT_MODULE ? "loaded code that is not compiled from it"
                                                : "created a CUDA context of its own");
}

int gl_every_kernel(const char *launcher, char (*names)[224], int max)
{
    int i, n = 0;
    for (i = 0; i < nseen && n < max; i++)
        if (!strcmp(seen[i].launcher, launcher))
            snprintf(names[n++], 224, "%s", seen[i].kernel);
    return n;
}
