/* gl_table.h: the demos' result tables, printed aligned and written as CSV.
 *
 *   const char *cols[] = {"variant", "time (ms)", "GB/s"};
 *   gl_table *t = gl_table_new("transpose 8192 x 8192", 3, cols);
 *   gl_table_note(t, "gpu", info.name);            // "# gpu: ..." in the CSV
 *   gl_table_cell(t, "%s", "naive"); gl_table_cell(t, "%.3f", ms); ...
 *   gl_table_print(t, stdout);
 *   gl_table_write_csv(t, "transpose.csv");
 *   gl_table_free(t);
 *
 * Cells hold plain numbers (units go in the headers), so the CSV plots as is. */
#ifndef GL_TABLE_H
#define GL_TABLE_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gl_table gl_table;

gl_table *gl_table_new(const char *title, int ncols, const char *const *headers);
/* A key: value line printed above the table and written as "# key: value" in the CSV. */
void gl_table_note(gl_table *t, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Appends one cell; a row is complete after ncols cells. */
void gl_table_cell(gl_table *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int gl_table_rows(const gl_table *t);
const char *gl_table_get(const gl_table *t, int row, int col);
void gl_table_print(const gl_table *t, FILE *f);
/* Returns 0, or -1 with errno set. Cells with commas or quotes are quoted. */
int gl_table_write_csv(const gl_table *t, const char *path);
void gl_table_free(gl_table *t);

#ifdef __cplusplus
}
#endif
#endif
