/* gl_matmul.c: the CPU reference of C = A B, and its FP32 error bound. */
#include "gl_matmul.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* gamma_k (Higham 3.1) for k products, plus one rounding of the reference
 * to float; FLT_MIN covers products that underflow. */
static float fp32_bound(int k, double abs_sum)
{
    const double u = ldexp(1.0, -24);
    double g = (k + 1) * u / (1.0 - (k + 1) * u);
    return (float)(g * abs_sum * (1.0 + 4.0 * u)) + FLT_MIN;
}

void gl_matmul_ref(const float *a, const float *b, int m, int n, int k, float *c, float *bound)
{
    double *sum = malloc((size_t)(n > 0 ? n : 1) * sizeof *sum);
    double *abs_sum = malloc((size_t)(n > 0 ? n : 1) * sizeof *abs_sum);
    int r, i, j;

    if (!sum || !abs_sum)
        abort();
    for (r = 0; r < m; r++) {
        for (j = 0; j < n; j++)
            sum[j] = abs_sum[j] = 0.0;
        /* i-k-j order: the inner loop walks rows of B, contiguous */
        for (i = 0; i < k; i++) {
            double x = a[(size_t)r * k + i];
            const float *brow = b + (size_t)i * n;
            for (j = 0; j < n; j++) {
                sum[j] += x * brow[j];
                abs_sum[j] += fabs(x * brow[j]);
            }
        }
        for (j = 0; j < n; j++) {
            c[(size_t)r * n + j] = (float)sum[j];
            if (bound)
                bound[(size_t)r * n + j] = fp32_bound(k, abs_sum[j]);
        }
    }
    free(sum);
    free(abs_sum);
}

float gl_matmul_ref_at(const float *a, const float *b, int n, int k, int row, int col,
                       float *bound)
{
    double sum = 0.0, abs_sum = 0.0;
    int i;
    for (i = 0; i < k; i++) {
        double p = (double)a[(size_t)row * k + i] * b[(size_t)i * n + col];
        sum += p;
        abs_sum += fabs(p);
    }
    if (bound)
        *bound = fp32_bound(k, abs_sum);
    return (float)sum;
}
