/* ncu_csv.h: reading Nsight Compute's --csv output (ncu_csv.c). */
#ifndef GL_NCU_CSV_H
#define GL_NCU_CSV_H

/* Sums the values of metric over every kernel in Nsight Compute's --csv
 * output. Returns the number of kernels that reported it (0: none). */
int gl_ncu_sum(const char *csv, const char *metric, double *sum);
/* The same over the kernels whose ID (their order in the process, from 0)
 * is in [first, end); end < 0: all of them. */
int gl_ncu_sum_ids(const char *csv, const char *metric, long first, long end, double *sum);

#define GL_NCU_METRICS 32

/* One kernel of the report: its ID (its order in the process), its name as Nsight Compute
 * printed it (--print-kernel-base mangled: the device name), its launch and its counters
 * (metrics[i] in value[i], bit i of has when it was reported). */
typedef struct {
    long id;
    char name[224];
    unsigned grid[3], block[3];
    double value[GL_NCU_METRICS];
    unsigned has;
} gl_ncu_kernel;

/* The kernels of the report in order (at most max); -1 when there were more. */
int gl_ncu_kernels(const char *csv, const char *const *metrics, int nmetrics, gl_ncu_kernel *out,
                   int max);

#endif
