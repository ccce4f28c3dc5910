/* results.c: reading and writing the results lines. */
#include "results.h"

#include <stdlib.h>
#include <string.h>

const char *gl_status_name(gl_status s)
{
    return s == GL_PASS ? "pass" : s == GL_FAIL ? "fail" : s == GL_SKIP ? "skip" : "notrun";
}

int gl_in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    const char *p = list;
    while (p && *p) {
        size_t m = strcspn(p, ", ");
        if (m == n && !strncmp(p, word, n))
            return 1;
        p += m;
        p += strspn(p, ", ");
    }
    return 0;
}

void gl_escape(const char *in, char *out, size_t len)
{
    size_t w = 0;
    if (len == 0)
        return;
    for (; *in && w + 2 < len; in++) {
        char c = *in;
        if (c == '\t' || c == '\n' || c == '\r' || c == '\\') {
            out[w++] = '\\';
            out[w++] = c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : '\\';
        } else {
            out[w++] = c;
        }
    }
    out[w] = '\0';
}

void gl_unescape(const char *in, char *out, size_t len)
{
    size_t w = 0;
    if (len == 0)
        return;
    for (; *in && w + 1 < len; in++) {
        if (*in == '\\' && in[1]) {
            in++;
            out[w++] = *in == 't' ? '\t' : *in == 'n' ? '\n' : *in == 'r' ? '\r' : *in;
        } else {
            out[w++] = *in;
        }
    }
    out[w] = '\0';
}

void gl_result_write(FILE *f, const gl_result *r)
{
    char title[2 * sizeof r->title], msg[2 * sizeof r->message];
    gl_escape(r->title, title, sizeof title);
    gl_escape(r->message, msg, sizeof msg);
    fprintf(f, "test\t%s\t%s\t%s\t%s\t%d\t%d\t%.3f\t%s\t%s\n", r->lab, r->id, r->kind,
            gl_status_name(r->status), r->score, r->max, r->seconds, title, msg);
}

void gl_fact_write(FILE *f, const char *key, const char *value)
{
    char v[8192];
    gl_escape(value, v, sizeof v);
    fprintf(f, "#%s\t%s\n", key, v);
}

/* Splits line at tabs in place; returns the number of fields. */
static int split(char *line, char **field, int max)
{
    int n = 0;
    field[n++] = line;
    for (; *line && n < max; line++) {
        if (*line == '\t') {
            *line = '\0';
            field[n++] = line + 1;
        }
    }
    return n;
}

int gl_result_read(FILE *f, gl_result *r, char *key, size_t keylen, char *value,
                   size_t valuelen)
{
    static char line[32768];
    char *field[10];
    size_t n;
    int nf;

    if (!fgets(line, sizeof line, f))
        return 0;
    n = strlen(line);
    if (n && line[n - 1] == '\n')
        line[--n] = '\0';
    if (line[0] == '#') {
        nf = split(line + 1, field, 2);
        if (nf != 2)
            return -1;
        snprintf(key, keylen, "%s", field[0]);
        gl_unescape(field[1], value, valuelen);
        return 2;
    }
    nf = split(line, field, 10);
    if (nf != 10 || strcmp(field[0], "test") != 0)
        return -1;
    memset(r, 0, sizeof *r);
    snprintf(r->lab, sizeof r->lab, "%s", field[1]);
    snprintf(r->id, sizeof r->id, "%s", field[2]);
    snprintf(r->kind, sizeof r->kind, "%s", field[3]);
    if (!strcmp(field[4], "pass"))
        r->status = GL_PASS;
    else if (!strcmp(field[4], "fail"))
        r->status = GL_FAIL;
    else if (!strcmp(field[4], "skip"))
        r->status = GL_SKIP;
    else if (!strcmp(field[4], "notrun"))
        r->status = GL_NOT_RUN;
    else
        return -1;
    r->score = atoi(field[5]);
    r->max = atoi(field[6]);
    r->seconds = atof(field[7]);
    gl_unescape(field[8], r->title, sizeof r->title);
    gl_unescape(field[9], r->message, sizeof r->message);
    return 1;
}
