/* gl_table.c: aligned text tables and CSV. */
#include "gl_table.h"

#include "gl_check.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NOTES 16

struct gl_table {
    char *title;
    int ncols;
    char **headers;
    char **cells; /* row-major, ncells used */
    int ncells, cap;
    char *notes[MAX_NOTES];
    int nnotes;
};

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (!p)
        gl_fail("out of host memory");
    return memcpy(p, s, n);
}

static char *vformat(const char *fmt, va_list ap)
{
    char small[256];
    va_list ap2;
    int n;
    char *p;
    va_copy(ap2, ap);
    n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return xstrdup("");
    if ((size_t)n < sizeof small)
        return xstrdup(small);
    p = malloc((size_t)n + 1);
    if (!p)
        gl_fail("out of host memory");
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

gl_table *gl_table_new(const char *title, int ncols, const char *const *headers)
{
    gl_table *t = calloc(1, sizeof *t);
    int i;
    if (!t || !(t->headers = calloc((size_t)ncols, sizeof *t->headers)))
        gl_fail("out of host memory");
    t->title = xstrdup(title ? title : "");
    t->ncols = ncols;
    for (i = 0; i < ncols; i++)
        t->headers[i] = xstrdup(headers[i]);
    return t;
}

void gl_table_note(gl_table *t, const char *key, const char *fmt, ...)
{
    va_list ap;
    char *value, *line;
    if (t->nnotes == MAX_NOTES)
        return;
    va_start(ap, fmt);
    value = vformat(fmt, ap);
    va_end(ap);
    line = malloc(strlen(key) + strlen(value) + 3);
    if (!line)
        gl_fail("out of host memory");
    sprintf(line, "%s: %s", key, value);
    free(value);
    t->notes[t->nnotes++] = line;
}

void gl_table_cell(gl_table *t, const char *fmt, ...)
{
    va_list ap;
    if (t->ncells == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16 * t->ncols;
        char **cells = realloc(t->cells, (size_t)cap * sizeof *cells);
        if (!cells)
            gl_fail("out of host memory");
        t->cells = cells;
        t->cap = cap;
    }
    va_start(ap, fmt);
    t->cells[t->ncells++] = vformat(fmt, ap);
    va_end(ap);
}

int gl_table_rows(const gl_table *t)
{
    return (t->ncells + t->ncols - 1) / t->ncols;
}

const char *gl_table_get(const gl_table *t, int row, int col)
{
    int i = row * t->ncols + col;
    return (row >= 0 && col >= 0 && col < t->ncols && i < t->ncells) ? t->cells[i] : "";
}

void gl_table_print(const gl_table *t, FILE *f)
{
    int c, r, rows = gl_table_rows(t);
    size_t *width = calloc((size_t)t->ncols, sizeof *width);
    if (!width)
        gl_fail("out of host memory");
    for (c = 0; c < t->ncols; c++) {
        width[c] = strlen(t->headers[c]);
        for (r = 0; r < rows; r++)
            if (strlen(gl_table_get(t, r, c)) > width[c])
                width[c] = strlen(gl_table_get(t, r, c));
    }
    if (*t->title)
        fprintf(f, "%s\n", t->title);
    for (r = 0; r < t->nnotes; r++)
        fprintf(f, "  %s\n", t->notes[r]);
    /* first column (names) left-aligned, the numbers right-aligned */
    for (c = 0; c < t->ncols; c++)
        fprintf(f, c ? "  %*s" : "%-*s", (int)width[c], t->headers[c]);
    fputc('\n', f);
    for (c = 0; c < t->ncols; c++) {
        size_t k;
        fputs(c ? "  " : "", f);
        for (k = 0; k < width[c]; k++)
            fputc('-', f);
    }
    fputc('\n', f);
    for (r = 0; r < rows; r++) {
        for (c = 0; c < t->ncols; c++)
            fprintf(f, c ? "  %*s" : "%-*s", (int)width[c], gl_table_get(t, r, c));
        fputc('\n', f);
    }
    free(width);
}

static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

int gl_table_write_csv(const gl_table *t, const char *path)
{
    FILE *f = fopen(path, "w");
    int c, r, rows = gl_table_rows(t);
    if (!f)
        return -1;
    if (*t->title)
        fprintf(f, "# %s\n", t->title);
    for (r = 0; r < t->nnotes; r++)
        fprintf(f, "# %s\n", t->notes[r]);
    for (c = 0; c < t->ncols; c++) {
        fputs(c ? "," : "", f);
        csv_field(f, t->headers[c]);
    }
    fputc('\n', f);
    for (r = 0; r < rows; r++) {
        for (c = 0; c < t->ncols; c++) {
            fputs(c ? "," : "", f);
            csv_field(f, gl_table_get(t, r, c));
        }
        fputc('\n', f);
    }
    return fclose(f);
}

void gl_table_free(gl_table *t)
{
    int i;
    if (!t)
        return;
    for (i = 0; i < t->ncells; i++)
        free(t->cells[i]);
    for (i = 0; i < t->ncols; i++)
        free(t->headers[i]);
    for (i = 0; i < t->nnotes; i++)
        free(t->notes[i]);
    free(t->cells);
    free(t->headers);
    free(t->title);
    free(t);
}
