/* gl_demo.h: what every demo does the same way: its command line, and the
 * header naming the GPU and the seed. */
#ifndef GL_DEMO_H
#define GL_DEMO_H

#include "gl_device.h"
#include "gl_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GL_DEMO_MAX_VALUES 8

typedef struct {
    const char *csv;               /* --csv FILE, or NULL */
    int nvalues;                   /* positional integers given */
    long values[GL_DEMO_MAX_VALUES];
} gl_demo_args;

/* Parses "[--csv FILE] [INT ...]" with at most max_values integers, each in
 * [lo, hi]. --help prints usage and exits 0; anything wrong prints what and
 * the usage to stderr and exits 2. */
void gl_demo_parse(int argc, char **argv, const char *usage, int max_values, long lo, long hi,
                   gl_demo_args *args);

/* A demo's sizes: gl_demo_parse's "[--csv FILE] [D1 [D2 ...]]", ndims of them, each in [1, max];
 * one not given is the one before it (the first: def). Two of them that multiply to 2^31 or
 * more (a matrix the labs' int indices do not reach) print why to stderr and exit 2. */
void gl_demo_dims(int argc, char **argv, const char *usage, int ndims, long def, long max,
                  gl_demo_args *args, int *dims);

/* Parses a decimal integer in [lo, hi]; 0, or -1 if it is not one. */
int gl_parse_long(const char *text, long lo, long hi, long *value);

/* Finds the GPU (or exits 1 saying why there is none) and prints
 * "NAME (sm_XY, N SMs), seed S (SEED=S reproduces)". */
void gl_demo_begin(gl_device_info *info);

struct gl_table;

/* Prints the table, says how many rows were WRONG (not timed) and where to
 * look (lab: "08"), writes the CSV when --csv asked for it, frees the table.
 * Returns the demo's exit status: 0, or 1 if the CSV could not be written. */
int gl_demo_end(struct gl_table *table, const gl_demo_args *args, int wrong, const char *lab);

/* A demo's table of variants on its lab's problem (gl_problem.h: problem(launcher, size) at
 * the demo's size, the function the grader uses): each variant is
 * checked as the grader checks it (gl_problem_check; a wrong one is reported, not timed),
 * then timed (gl_time_ms: median of 21, L2 flushed) on one set of buffers, and shown as time,
 * effective bandwidth (p->work bytes a call), share of cudaMemcpy's and speedup over the
 * variant marked baseline. lab: "08-transpose"; note: the size, in the table's header.
 * Returns gl_demo_end's status. */
#define GL_DEMO_MAX_VARIANTS 16
typedef struct {
    const char *launcher, *label; /* "transpose_naive", "naive" */
    int baseline;                 /* the one the others' speedups are over */
} gl_demo_variant;
struct gl_problem_s;
typedef struct gl_problem_s (*gl_problem_fn)(const char *launcher, void *size);
int gl_demo_table(const char *lab, const char *note, const gl_demo_variant *variants,
                  gl_problem_fn problem, void *size, const gl_demo_args *args);

/* A demo's table of rows each at its own size (a sweep: strides, offsets, layouts), ended by
 * a NULL launcher: each row's launcher on problem(launcher, its size), checked and timed as
 * gl_demo_table does (on buffers of that size), shown under two keys, the columns key (the
 * row's label) and param (its param), then time, effective bandwidth (that problem's work) and
 * share of cudaMemcpy's, with no speedup column. A row wrong for the reason the row before
 * gave, but for the problem's words for its size, says it once. */
typedef struct {
    const char *launcher, *label, *param; /* "strided_copy", "stride", "8" */
    void *size;                           /* the row's size, given to problem */
} gl_demo_row;
int gl_demo_sweep(const char *lab, const char *note, const char *key, const char *param,
                  const gl_demo_row *rows, gl_problem_fn problem, const gl_demo_args *args);

/* A table of cases that are not one problem (gl_demo_table's checks and clock otherwise):
 * each case on its own problem, problem(launcher, its size), checked (gl_problem_check, or
 * the options' check), then timed on its own buffers (gl_problem_time_ms) and rated by its
 * own work ("-" where its problem has none: a probe); its speedup is over the case it names
 * (over: a case of the same table at or before it; itself: 1.00; NULL: "-"), or with slowdown
 * its time over that case's. A case with unchecked is not checked: its check column says that
 * word ("-": a given probe; "ref"); one with ms (a time the demo measured, a CPU's, at the
 * latest in the options' before) is not timed, nor is a host one (a CPU's: its host function
 * timed once on the host clock); a probe with args is its launcher on those (no problem); a
 * hidden one is measured but not shown (a roof at another size, for the others' share).
 * Columns: the label column (variant) and the options' keys (each case's keys[] its values;
 * the first keys_first of them before it), time_ms, the rate (the first case's problem's unit,
 * NULL "GB/s", with rate_digits decimals; or the options' rates: each case's counts[] a call,
 * in 10^9 a second), pct_of_memcpy (or the options' pct; unless no_memcpy: then no memcpy_gbps
 * note either), the share column (options' share), the speedup column, check. The share of
 * memcpy is of the options' pct_of where given (GB/s the demo measured and its notes say:
 * then no memcpy_gbps note), else of cudaMemcpy's (gl_memcpy_gbps(0)). The options' notes come
 * after the gpu's (and memcpy_gbps), before the seed; one keyed "gpu" says the gpu's instead.
 * The options' before runs after the seed's note, before the cases (a demo's own output and
 * measures; its notes follow the seed); after, once every case is measured (ms: each case's
 * time, -1 where wrong), adds the notes of what it measures then. A WRONG line names the
 * launcher and its case: the first key after the label column, else the first key, else the
 * label, unless that is the launcher or, a label, its last words. Returns gl_demo_end's
 * status. */
#define GL_DEMO_MAX_KEYS 3
#define GL_DEMO_MAX_CASES 64
typedef struct gl_demo_case_s {
    const char *launcher, *label;
    const char *keys[GL_DEMO_MAX_KEYS]; /* its key columns' values: "uniform bytes" */
    double counts[GL_DEMO_MAX_KEYS];    /* what a call counts, for the options' rates */
    void *size;                         /* its problem's size, given to problem */
    const struct gl_demo_case_s *over;  /* the case its speedup is over: &cases[4] */
    const struct gl_demo_case_s *share_of; /* the case of the options' share column */
    int slowdown;                       /* the speedup column: its time over over's */
    const char *unchecked;              /* not checked: its check column's word, "-" */
    double ms;                          /* > 0: its time, measured by the demo: not timed */
    int hidden;                         /* measured, not shown: another's over or share_of */
    /* a host case (a CPU's row): its time is this function's, run once and timed on the host
     * clock, on host copies of its problem's inputs (made as for every call) and host memory
     * for its outputs; buf as the problem's call gets them. Not checked: give unchecked. */
    void (*host)(void *size, void *const *buf);
    /* a probe on no problem: its launcher called by name on these arguments (gl_exec), timed
     * as every case (gl_time_ms), no work; not checked: give unchecked */
    const gl_arg *args;
} gl_demo_case;
typedef struct {
    const char *speedup;                /* the speedup column's header: "x_scalar" */
    const char *keys[GL_DEMO_MAX_KEYS]; /* key columns after variant: "input" */
    int no_memcpy;                      /* no share of cudaMemcpy's bandwidth */
    const char *rates[GL_DEMO_MAX_KEYS]; /* instead of GB/s: "Gelem/s" of counts[0] */
    /* instead of gl_problem_check: "" when right, else why */
    const char *(*check)(const char *launcher, void *size);
    const char *variant;        /* the label column's header, NULL "variant" */
    int keys_first;             /* how many key columns come before the label column */
    int time_digits;            /* time_ms's decimals, 0: 4 */
    const char *share;          /* a column "pct_of_cublas": share_of's time / its time, in % */
    const char *const *notes;   /* more header notes, key and text pairs, NULL-ended */
    const char *pct;            /* the share of memcpy's header, NULL "pct_of_memcpy" */
    double pct_of;              /* > 0: the GB/s it is a share of, measured by the demo */
    void (*before)(struct gl_table *table);                  /* before the cases run */
    void (*after)(struct gl_table *table, const double *ms); /* once they are measured */
    int rate_digits;            /* without rates: the problem's rate's decimals, 0: none */
} gl_demo_options;
int gl_demo_cases(const char *lab, const char *note, const gl_demo_case *cases,
                  gl_problem_fn problem, const gl_demo_options *options,
                  const gl_demo_args *args);

#ifdef __cplusplus
}
#endif
#endif
