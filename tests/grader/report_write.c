/* report_write.c: gl-report's outputs, from its tables (report.h): results.json
 * (Gradescope), check.xml (Check's XML format) and results.tap (TAP). */
#include "report.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* The length of the UTF-8 sequence at s, or 0 when it is not one (a compiler echoing a
 * Latin-1 line of the student's file: JSON must be UTF-8, Gradescope refuses it else). */
static int utf8_len(const unsigned char *s)
{
    int n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
          : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0, i;
    for (i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x80) {
            int n = utf8_len((const unsigned char *)s);
            if (n == 0) {
                fputs("\\ufffd", f);
            } else {
                fwrite(s, 1, (size_t)n, f);
                s += n - 1;
            }
        } else if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '&')
            fputs("&amp;", f);
        else if (c == '"')
            fputs("&quot;", f);
        else if (c < 0x20 && c != '\n' && c != '\t')
            fputc(' ', f);
        else
            fputc(c, f);
    }
}

void write_json(const char *dir, int got)
{
    char path[4096];
    FILE *f;
    int i, skipped = 0, broke = 0, number = 0;
    const char *prev = "";
    snprintf(path, sizeof path, "%s/results.json", dir);
    if (!(f = fopen(path, "w"))) {
        perror(path);
        return;
    }
    for (i = 0; i < nlab; i++)
        skipped += lab_list[i].skipped, broke += lab_list[i].not_run;
    fprintf(f, "{\n  \"score\": %d,\n  \"output_format\": \"text\",\n"
               "  \"test_output_format\": \"text\",\n"
               "  \"extra_data\": {\"not_run_points\": %d, \"grading_broke_points\": %d},\n"
               "  \"output\": ",
            got, skipped, broke);
    {
        static char out[65536];
        const char *gpu = nlab ? lab_list[0].gpu : "none";
        size_t n;
        int l;
        n = (size_t)snprintf(out, sizeof out, "gpulabs on %s, seed %s (SEED=%s reproduces)\n",
                             strcmp(gpu, "none") ? gpu : "a machine without a GPU (GPU tests not run)",
                             nlab ? lab_list[0].seed : "?", nlab ? lab_list[0].seed : "?");
        if (broke && n < sizeof out)
            n += (size_t)snprintf(out + n, sizeof out - n,
                                  "THE GRADING BROKE: %d points of tests were NOT RUN (listed "
                                  "as NOT RUN, not counted): this grade is incomplete, grade "
                                  "again\n",
                                  broke);
        if (skipped && n < sizeof out)
            n += (size_t)snprintf(out + n, sizeof out - n,
                                  "%d points of tests were not run on this machine: they are "
                                  "listed as SKIPPED, worth 0, and not counted in this score\n",
                                  skipped);
        for (l = 0; l < nlab && n < sizeof out; l++) {
            const lab *b = &lab_list[l];
            if (b->protections[0])
                n += (size_t)snprintf(out + n, sizeof out - n, "%s: protections: %s\n", b->name,
                                      b->protections);
            if (b->compiler[0] && n < sizeof out)
                n += (size_t)snprintf(out + n, sizeof out - n,
                                      "%s: %s did not compile. The compiler said:\n%s\n", b->name,
                                      b->file, b->compiler);
            if (b->review[0] && n < sizeof out)
                n += (size_t)snprintf(out + n, sizeof out - n,
                                      "%s: to review (not failures):\n%s", b->name, b->review);
        }
        json_string(f, out);
    }
    fprintf(f, ",\n  \"tests\": [");
    for (i = 0; i < nresults; i++) {
        const gl_result *r = &results[i];
        char name[512], out[sizeof r->message + 64];
        snprintf(name, sizeof name, "%s%s: %s: %s",
                 r->status == GL_SKIP ? "[SKIPPED] " : r->status == GL_NOT_RUN ? "[NOT RUN] " : "",
                 r->lab, r->kind, r->title);
        number = strcmp(prev, r->lab) ? 1 : number + 1; /* 08-transpose.1, 07-vectorized-loads.1 */
        prev = r->lab;
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, name);
        /* Gradescope has no "skipped": a skipped test is worth 0 of 0, so that its points are
         * not lost, and says why it did not run; its points are in extra_data */
        fprintf(f, ", \"number\": \"%s.%d\", \"score\": %d, \"max_score\": %d", r->lab, number,
                r->score, r->status == GL_SKIP || r->status == GL_NOT_RUN ? 0 : r->max);
        if (r->status == GL_PASS || r->status == GL_FAIL)
            fprintf(f, ", \"status\": \"%s\"", r->status == GL_PASS ? "passed" : "failed");
        if (r->status == GL_SKIP)
            snprintf(out, sizeof out, "SKIPPED (not run here, %d point%s not counted): %s", r->max,
                     r->max == 1 ? "" : "s", r->message);
        else if (r->status == GL_NOT_RUN)
            snprintf(out, sizeof out, "%s (%d point%s not counted)", r->message, r->max,
                     r->max == 1 ? "" : "s");
        else
            snprintf(out, sizeof out, "%s", r->message);
        fprintf(f, ", \"tags\": [\"%s\"], \"output\": ", r->kind);
        json_string(f, out);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
    fclose(f);
}

void write_check_xml(const char *dir)
{
    char path[4096], stamp[64];
    time_t t = time(NULL);
    FILE *f;
    int i, l;
    snprintf(path, sizeof path, "%s/check.xml", dir);
    if (!(f = fopen(path, "w"))) {
        perror(path);
        return;
    }
    strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", localtime(&t));
    fprintf(f, "<?xml version=\"1.0\"?>\n"
               "<?xml-stylesheet type=\"text/xsl\" "
               "href=\"http://check.sourceforge.net/xml/check_unittest.xslt\"?>\n"
               "<testsuites xmlns=\"http://check.sourceforge.net/ns\">\n"
               "  <datetime>%s</datetime>\n", stamp);
    for (l = 0; l < nlab; l++) {
        fprintf(f, "  <suite>\n    <title>");
        xml_text(f, lab_list[l].name);
        fprintf(f, "</title>\n");
        for (i = 0; i < nresults; i++) {
            const gl_result *r = &results[i];
            if (strcmp(r->lab, lab_list[l].name) != 0)
                continue;
            if (r->status == GL_SKIP || r->status == GL_NOT_RUN) { /* Check's has neither */
                fprintf(f, "    <!-- %s: %s: ", r->status == GL_SKIP ? "skipped" : "NOT RUN",
                        r->id);
                xml_text(f, r->message);
                fprintf(f, " -->\n");
                continue;
            }
            fprintf(f, "    <test result=\"%s\">\n      <path>.</path>\n      <fn>tests/%s.c</fn>\n"
                       "      <id>%s</id>\n      <iteration>0</iteration>\n"
                       "      <duration>%.3f</duration>\n      <description>",
                    r->status == GL_PASS ? "success" : "failure", r->lab, r->id, r->seconds);
            xml_text(f, r->kind);
            fprintf(f, "</description>\n      <message>");
            xml_text(f, r->status == GL_PASS ? "Passed" : r->message);
            fprintf(f, "</message>\n    </test>\n");
        }
        fprintf(f, "  </suite>\n");
    }
    fprintf(f, "</testsuites>\n");
    fclose(f);
}

void write_tap(const char *dir)
{
    char path[4096];
    FILE *f;
    int i;
    snprintf(path, sizeof path, "%s/results.tap", dir);
    if (!(f = fopen(path, "w"))) {
        perror(path);
        return;
    }
    fprintf(f, "TAP version 13\n1..%d\n", nresults);
    for (i = 0; i < nresults; i++) {
        const gl_result *r = &results[i];
        fprintf(f, "%s %d - %s %s %s", r->status == GL_FAIL ? "not ok" : "ok", i + 1, r->lab,
                r->kind, r->id);
        if (r->status == GL_SKIP || r->status == GL_NOT_RUN)
            fprintf(f, " # SKIP %s", r->message);
        fputc('\n', f);
        if (r->status == GL_FAIL) {
            char msg[2 * sizeof r->message];
            gl_escape(r->message, msg, sizeof msg);
            fprintf(f, "  ---\n  message: \"%s\"\n  ...\n", msg);
        }
    }
    fclose(f);
}
