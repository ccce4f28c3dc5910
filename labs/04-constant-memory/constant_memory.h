/* constant_memory.h: the interface of lab 04-constant-memory. Do not edit
 * this file: the grader and the demo call these functions as declared here.
 *
 * Every launcher takes device pointers, launches on the default stream and
 * returns at once, without synchronising. n is any count >= 0 (0 launches
 * nothing). One thread computes one output, in blocks of CM_BLOCK threads.
 *
 * The set_* functions take HOST arrays and copy them into __constant__
 * memory. The copy is ordered on the default stream like a launch: kernels
 * launched before it read the old values, kernels launched after it the new
 * ones; the host array may be reused as soon as it returns. */
#ifndef CONSTANT_MEMORY_H
#define CONSTANT_MEMORY_H

#define CM_BLOCK 256             /* threads per block */
#define CM_COEFFS 512 /* coefficients of task 1's polynomial (degree 511), fixed at compile time */
#define CM_TABLE 4096            /* floats in the lookup table of task 2 (16 KB) */
#define CM_LOOKUPS 16            /* table entries each output of task 2 sums */
#define CM_MAX_CONST_TAPS 8192   /* capacity of the given run-time-length constant filter (32 KB) */

#ifdef __cplusplus
extern "C" {
#endif

/* Task 1: a polynomial of degree CM_COEFFS - 1 at each of n points,
 * out[i] = c[0] + c[1] x + c[2] x^2 + ... + c[CM_COEFFS - 1] x^(CM_COEFFS - 1)
 * with x = x[i], 0 <= i < n, evaluated by Horner's rule:
 * acc = c[CM_COEFFS - 1], then acc = acc * x + c[k] for k = CM_COEFFS - 2
 * down to 0: one multiply-add per coefficient. The correctness tests accept any
 * order of evaluation; the speed test compares with the given kernel's Horner,
 * so a sum of powers (two operations per coefficient) is too slow there. */

/* Given (baselines.cu): the coefficients in global memory (a device pointer
 * of CM_COEFFS floats). */
void poly_global(float *out, const float *x, const float *coeffs, int n);

/* Task 1 (constant_memory.cu): copies coeffs, a HOST array of CM_COEFFS
 * floats, into the __constant__ array c_coeffs. */
void set_coeffs(const float *coeffs);

/* Task 1 (constant_memory.cu): the same polynomial with the coefficients
 * read from c_coeffs (the last set_coeffs). */
void poly_constant(float *out, const float *x, int n);

/* Task 2: out[i] = sum over k < CM_LOOKUPS of table[(idx[i] + k) % CM_TABLE].
 * Every idx[i] is in [0, CM_TABLE): the launchers may assume it. */

/* Given (baselines.cu): copies table, a HOST array of CM_TABLE floats, into
 * the baselines' own __constant__ table. */
void set_table_constant(const float *table);

/* Given (baselines.cu): the lookup from that __constant__ table. */
void lookup_constant(float *out, const int *idx, int n);

/* Task 2 (constant_memory.cu): the lookup from table, a device pointer of
 * CM_TABLE floats, through the read-only data path. */
void lookup_global(float *out, const int *idx, const float *table, int n);

/* Task 3: a filter of ntaps >= 1 taps, a length known only at run time:
 * out[i] = sum over k < ntaps of taps[k] * in[i + k], 0 <= i < n; in holds
 * n + ntaps - 1 floats. */

/* Given (baselines.cu): copies taps, a HOST array of ntaps floats, into the
 * baselines' __constant__ array of CM_MAX_CONST_TAPS floats. An ntaps outside
 * [1, CM_MAX_CONST_TAPS] does not fit: it says so on stderr and copies
 * nothing. */
void set_taps_runtime(const float *taps, int ntaps);

/* Given (baselines.cu): the run-time-length loop over those constant taps
 * (the last set_taps_runtime, which must have had at least ntaps). An ntaps
 * outside [1, CM_MAX_CONST_TAPS] says so on stderr and launches nothing. */
void convolve_constant_runtime(float *out, const float *in, int ntaps, int n);

/* Task 3 (constant_memory.cu): the same with taps in global memory (a device
 * pointer of ntaps floats), any ntaps >= 1, past the 64 KB of constant
 * memory too. */
void convolve_long(float *out, const float *in, const float *taps, int ntaps, int n);

#ifdef __cplusplus
}

/* Blocks of CM_BLOCK threads for n outputs, one thread each. */
static inline int cm_blocks(int n)
{
    return n / CM_BLOCK + (n % CM_BLOCK != 0);
}
#endif
#endif
