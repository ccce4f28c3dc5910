/* ncu_csv.c: reading what Nsight Compute wrote (ncu --csv, one line per kernel and metric):
 * sums of a metric over kernels, and each kernel with its name, launch shape and counters. */
#include "ncu_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits one CSV line of quoted fields in place; returns the field count. */
static int csv_fields(char *line, char **field, int max)
{
    int n = 0;
    char *p = line;
    while (*p && n < max) {
        char *w;
        if (*p != '"') { /* unquoted field */
            field[n++] = p;
            p += strcspn(p, ",");
        } else {
            field[n++] = w = ++p;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"')
                    p++; /* "" is a quote */
                *w++ = *p++;
            }
            if (*p == '"')
                p++;
            *w = '\0';
            if (*p == ',') {
                p++;
                continue;
            }
        }
        if (*p == ',')
            *p++ = '\0';
    }
    return n;
}

static double number(const char *s)
{
    char buf[64];
    size_t w = 0;
    for (; *s && w + 1 < sizeof buf; s++)
        if (*s != ',') /* thousands separators */
            buf[w++] = *s;
    buf[w] = '\0';
    return strtod(buf, NULL);
}

/* "(32, 8, 1)" -> 32, 8, 1 */
static void shape(const char *s, unsigned *v)
{
    v[0] = v[1] = v[2] = 0;
    sscanf(s, " (%u, %u, %u)", &v[0], &v[1], &v[2]);
}

int gl_ncu_kernels(const char *csv, const char *const *metrics, int nmetrics, gl_ncu_kernel *out,
                   int max)
{
    char *copy = strdup(csv), *line, *save = NULL, *field[64];
    int col_name = -1, col_value = -1, col_id = -1, col_kernel = -1, col_grid = -1,
        col_block = -1, n = 0, too_many = 0;
    if (!copy)
        return -1;
    for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int nf, i, m;
        long id;
        gl_ncu_kernel *k;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r')
            line[len - 1] = '\0';
        if (line[0] != '"')
            continue; /* ==PROF== and other messages */
        nf = csv_fields(line, field, 64);
        if (col_name < 0) { /* the header */
            for (i = 0; i < nf; i++) {
                if (!strcmp(field[i], "Metric Name"))
                    col_name = i;
                else if (!strcmp(field[i], "Metric Value"))
                    col_value = i;
                else if (!strcmp(field[i], "ID"))
                    col_id = i;
                else if (!strcmp(field[i], "Kernel Name"))
                    col_kernel = i;
                else if (!strcmp(field[i], "Grid Size"))
                    col_grid = i;
                else if (!strcmp(field[i], "Block Size"))
                    col_block = i;
            }
            continue;
        }
        if (col_value < 0 || col_id < 0 || col_kernel < 0 || col_name >= nf ||
            col_value >= nf || col_id >= nf || col_kernel >= nf)
            continue;
        id = strtol(field[col_id], NULL, 10);
        if (n == 0 || out[n - 1].id != id) { /* a kernel's lines come together, in order */
            if (n == max) {
                too_many = 1;
                continue;
            }
            k = &out[n++];
            memset(k, 0, sizeof *k);
            k->id = id;
            snprintf(k->name, sizeof k->name, "%s", field[col_kernel]);
            if (col_grid >= 0 && col_grid < nf)
                shape(field[col_grid], k->grid);
            if (col_block >= 0 && col_block < nf)
                shape(field[col_block], k->block);
        }
        k = &out[n - 1];
        for (m = 0; m < nmetrics && m < GL_NCU_METRICS; m++)
            if (!strcmp(field[col_name], metrics[m])) {
                k->value[m] = number(field[col_value]);
                k->has |= 1u << m;
            }
    }
    free(copy);
    return too_many ? -1 : n;
}

int gl_ncu_sum(const char *csv, const char *metric, double *sum)
{
    return gl_ncu_sum_ids(csv, metric, 0, -1, sum);
}

int gl_ncu_sum_ids(const char *csv, const char *metric, long first, long end, double *sum)
{
    enum { MAX = 4096 };
    gl_ncu_kernel *k = malloc(MAX * sizeof *k);
    int n = k ? gl_ncu_kernels(csv, &metric, 1, k, MAX) : -1, i, kernels = 0;
    *sum = 0.0;
    for (i = 0; i < n; i++)
        if ((k[i].has & 1) && (end < 0 || (k[i].id >= first && k[i].id < end))) {
            *sum += k[i].value[0];
            kernels++;
        }
    free(k);
    return kernels;
}
