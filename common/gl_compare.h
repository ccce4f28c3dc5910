/* gl_compare.h: comparing a GPU result with a CPU reference, and saying what
 * is wrong in the student's terms: where (index, expected, actual), how many,
 * and how many were never written (still the poison). */
#ifndef GL_COMPARE_H
#define GL_COMPARE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GL_CMP_SHOW 4 /* wrong elements reported by index */

typedef struct {
    size_t index;
    double expected, actual;
    int unwritten;
} gl_diff;

typedef struct {
    size_t n;               /* elements compared */
    size_t wrong;           /* elements that differ, unwritten ones included */
    size_t unwritten;       /* elements still holding the poison */
    double max_abs_err;     /* over written elements */
    int shown;              /* entries used in diff[] */
    gl_diff diff[GL_CMP_SHOW];
} gl_cmp;

/* An element is right when |got - ref| <= atol + rtol * |ref| (atol = rtol =
 * 0: exactly equal), or equal (infinities); NaN is always wrong. Returns the number wrong. */
size_t gl_compare_float(const float *ref, const float *got, size_t n, double atol, double rtol,
                        gl_cmp *c);
size_t gl_compare_double(const double *ref, const double *got, size_t n, double atol,
                         double rtol, gl_cmp *c);
/* With a tolerance per element: got[i] is right when |got[i] - ref[i]| <=
 * bound[i] (e.g. the error bound of an FP32 dot product, gl_matmul.h). */
size_t gl_compare_float_bound(const float *ref, const float *got, const float *bound, size_t n,
                              gl_cmp *c);
size_t gl_compare_int(const int *ref, const int *got, size_t n, gl_cmp *c);
size_t gl_compare_uint(const unsigned *ref, const unsigned *got, size_t n, gl_cmp *c);

/* Writes an index as text: "[i]" by default, or what a lab prefers. */
typedef void (*gl_index_fmt)(size_t index, const void *ctx, char *buf, size_t len);

/* Row-major 2D indices "[row][col]"; ctx points to the int number of columns. */
void gl_index_2d(size_t index, const void *cols, char *buf, size_t len);

/* A paragraph on what is wrong in name (e.g. "out"); fmt may be NULL. */
void gl_cmp_describe(const gl_cmp *c, const char *name, gl_index_fmt fmt, const void *ctx,
                     char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
