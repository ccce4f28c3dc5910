/* report.c: gl-report, the grade across labs. Reads the runners' results
 * files, prints the total in the style of xv6's `make grade`, and writes
 * results.json (Gradescope), check.xml (Check's XML format) and results.tap.
 *
 *   gl-report --out DIR [--expect pass|fail|caught] [--caught ID,ID] FILE...
 *   gl-report --calibrate FILE...   every verdict's measured value, threshold and margin
 *
 * Exit status: 0 when no test failed (skipped ones do not count), else 1; 2 when the grading
 * broke: a runner that did not finish, or tests NOT RUN (GRADING.md rule 11).
 * The --expect modes are for `make test`, which grades the kit's own files:
 *   pass    every test that ran passed (the reference solutions)
 *   fail    each lab built, and at least one of its tests failed (the
 *           starting files: the grader must tell them from a solution)
 *   caught  every test named by --caught that ran failed (a wrong solution) */
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RESULTS 1024
#define MAX_PLANNED 256
#define MAX_LABS 64
#define MAX_MARGINS 256
#define SAFE_MARGIN 1.5 /* a threshold at most two thirds of the effect (issue 12) */

/* gl_test_margin's numbers, one per performance or profile verdict */
static struct {
    char lab[64], id[96];
    double measured, threshold;
    int larger;
} margins[MAX_MARGINS];
static int nmargins;

typedef struct {
    char name[64], src[1024], gpu[300], seed[32], build[16], file[64], protections[512];
    char isolated[8];
    int ended;           /* the runner wrote #end: it finished */
    int not_run;         /* points of tests NOT RUN: the grading broke */
    int would_fail;      /* technique previews (no GPU) that would fail */
    char review[4096];   /* the "to review" lines, one per line */
    char compiler[4096]; /* what the compiler said when the file did not compile */
    int got, max, skipped, failed, ran;
} lab;

static gl_result results[MAX_RESULTS];
static int nresults;
static lab lab_list[MAX_LABS];
static int nlab;

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

/* A test the runner planned (#plan) and never reported: NOT RUN (GRADING.md rule 11). */
static void add_not_run(lab *l, const char *plan, const char *why)
{
    char copy[1024], *id, *kind, *points, *title;
    gl_result *r;
    snprintf(copy, sizeof copy, "%s", plan);
    id = strtok(copy, "\t");
    kind = strtok(NULL, "\t");
    points = strtok(NULL, "\t");
    title = strtok(NULL, "");
    if (!id || !kind || !points || nresults == MAX_RESULTS)
        return;
    r = &results[nresults++];
    memset(r, 0, sizeof *r);
    snprintf(r->lab, sizeof r->lab, "%s", l->name);
    snprintf(r->id, sizeof r->id, "%s", id);
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    snprintf(r->title, sizeof r->title, "%s", title ? title : id);
    r->status = GL_NOT_RUN;
    r->max = atoi(points);
    snprintf(r->message, sizeof r->message, "NOT RUN: %s; not the student's file's fault: grade "
             "it again", why);
    l->max += r->max;
    l->not_run += r->max;
}

static int read_results(const char *path)
{
    FILE *f = fopen(path, "r");
    lab *l;
    char key[64], value[8192];
    static char planned[MAX_PLANNED][512];
    int kind, nplanned = 0, first = nresults, i, j;
    gl_result r;
    if (!f) {
        fprintf(stderr, "gl-report: no results in %s: the lab's grader did not run to its end "
                        "(see the messages above)\n", path);
        return -1;
    }
    if (nlab == MAX_LABS) {
        fclose(f);
        return -1;
    }
    l = &lab_list[nlab++];
    memset(l, 0, sizeof *l);
    while ((kind = gl_result_read(f, &r, key, sizeof key, value, sizeof value)) != 0) {
        if (kind < 0) { /* a runner that died in the middle of a line */
            fprintf(stderr, "gl-report: %s: a malformed line\n", path);
            break;
        }
        if (kind == 2) {
            if (!strcmp(key, "margin") && nmargins < MAX_MARGINS) {
                char id[96];
                if (sscanf(value, "%95s %lf %lf %d", id, &margins[nmargins].measured,
                           &margins[nmargins].threshold, &margins[nmargins].larger) == 4) {
                    snprintf(margins[nmargins].lab, sizeof margins[nmargins].lab, "%s", l->name);
                    snprintf(margins[nmargins].id, sizeof margins[nmargins].id, "%s", id);
                    nmargins++;
                }
            } else if (!strcmp(key, "plan") && nplanned < MAX_PLANNED) {
                snprintf(planned[nplanned++], sizeof planned[0], "%s", value);
            } else if (!strcmp(key, "end")) {
                l->ended = 1;
            } else if (!strcmp(key, "lab"))
                snprintf(l->name, sizeof l->name, "%s", value);
            else if (!strcmp(key, "src"))
                snprintf(l->src, sizeof l->src, "%s", value);
            else if (!strcmp(key, "gpu"))
                snprintf(l->gpu, sizeof l->gpu, "%s", value);
            else if (!strcmp(key, "seed"))
                snprintf(l->seed, sizeof l->seed, "%s", value);
            else if (!strcmp(key, "build"))
                snprintf(l->build, sizeof l->build, "%s", value);
            else if (!strcmp(key, "file"))
                snprintf(l->file, sizeof l->file, "%s", value);
            else if (!strcmp(key, "protections"))
                snprintf(l->protections, sizeof l->protections, "%s", value);
            else if (!strcmp(key, "isolated"))
                snprintf(l->isolated, sizeof l->isolated, "%s", value);
            else if (!strcmp(key, "compiler"))
                snprintf(l->compiler, sizeof l->compiler, "%s", value);
            else if (!strcmp(key, "review")) {
                size_t n = strlen(l->review);
                snprintf(l->review + n, sizeof l->review - n, "%s\n", value);
            }
            continue;
        }
        if (nresults == MAX_RESULTS)
            break;
        results[nresults++] = r;
        l->max += r.max;
        if (r.status == GL_NOT_RUN) {
            l->not_run += r.max;
        } else if (r.status == GL_SKIP) {
            l->skipped += r.max;
            l->would_fail += !strncmp(r.message, "no GPU here: this would fail", 28);
        } else {
            l->ran++;
            l->got += r.score;
            l->failed += r.status == GL_FAIL;
        }
    }
    fclose(f);
    if (!l->name[0]) {
        fprintf(stderr, "gl-report: %s names no lab\n", path);
        return -1;
    }
    for (i = 0; i < nplanned; i++) { /* what the runner meant to run and never reported */
        char id[128];
        int found = 0;
        snprintf(id, sizeof id, "%.*s", (int)strcspn(planned[i], "\t"), planned[i]);
        for (j = first; j < nresults && !found; j++)
            found = !strcmp(results[j].id, id);
        if (!found)
            add_not_run(l, planned[i], l->ended ? "the grader did not report this test"
                                                : "the grader stopped before this test "
                                                  "(its log says why)");
    }
    return 0;
}

static void write_json(const char *dir, int got)
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

static void write_check_xml(const char *dir)
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

static void write_tap(const char *dir)
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

/* make calibrate: each verdict of the references on this GPU, its margin (the measured value
 * over the threshold, or the reverse for an "at most"), and a flag under SAFE_MARGIN. */
static int calibrate(void)
{
    int i, thin = 0, failing = 0;
    printf("== Calibration on %s ==\n", nlab ? lab_list[0].gpu : "?");
    printf("  %-20s %-34s %12s %12s %8s\n", "lab", "verdict", "measured", "threshold", "margin");
    for (i = 0; i < nmargins; i++) {
        double m = margins[i].larger ? margins[i].measured / margins[i].threshold
                                     : margins[i].threshold / margins[i].measured;
        const char *flag = m < 1.0 ? "  FAILS" : m < SAFE_MARGIN ? "  THIN (< 1.5x)" : "";
        thin += m >= 1.0 && m < SAFE_MARGIN;
        failing += m < 1.0;
        printf("  %-20s %-34s %12.4g %2s%10.4g %7.2fx%s\n", margins[i].lab, margins[i].id,
               margins[i].measured, margins[i].larger ? ">=" : "<=", margins[i].threshold, m,
               flag);
    }
    if (nmargins == 0) {
        printf("  no verdict was measured here (no GPU, Nsight Compute or tests of these "
               "kinds)\n");
        return 1;
    }
    printf("  %d verdicts: %d with a margin under %.1fx, %d failing\n", nmargins, thin,
           SAFE_MARGIN, failing);
    return thin || failing ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *out = NULL, *expect = NULL, *caught = NULL;
    int i, got = 0, max = 0, skipped = 0, failed = 0, bad = 0, quiet, calibrating = 0;
    int not_run = 0, broke = 0, j;

    for (i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--out"))
            out = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--expect"))
            expect = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--caught"))
            caught = argv[++i];
        else if (!strcmp(argv[i], "--calibrate"))
            calibrating = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: gl-report --out DIR [--expect pass|fail|caught] "
                            "[--caught ID,ID] RESULTS...\n"
                            "       gl-report --calibrate RESULTS...\n");
            return 2;
        } else if (read_results(argv[i]) != 0)
            bad++;
    }
    if (nlab == 0) {
        if (!bad)
            fprintf(stderr, "gl-report: no results to report\n");
        return 2;
    }

    if (calibrating)
        return calibrate();
    quiet = expect && !strcmp(expect, "caught"); /* make test on a wrong solution */
    if (!quiet)
        printf("== Score ==\n");
    for (i = 0; i < nlab; i++) {
        got += lab_list[i].got;
        max += lab_list[i].max;
        skipped += lab_list[i].skipped;
        failed += lab_list[i].failed;
        not_run += lab_list[i].not_run;
        broke += !lab_list[i].ended || lab_list[i].not_run;
        if (quiet && lab_list[i].ended && !lab_list[i].not_run)
            continue;
        printf("  %-24s %3d/%-3d", lab_list[i].name, lab_list[i].got, lab_list[i].max);
        if (strcmp(lab_list[i].build, "ok") != 0)
            printf("  %s did not compile", lab_list[i].file);
        else if (lab_list[i].skipped)
            printf("  (%d points not run here)", lab_list[i].skipped);
        if (lab_list[i].not_run || !lab_list[i].ended)
            printf("  GRADING BROKE: %d points NOT RUN%s", lab_list[i].not_run,
                   lab_list[i].ended ? "" : " (the grader did not finish)");
        if (!strcmp(lab_list[i].isolated, "no"))
            printf("  NOT ISOLATED");
        printf("\n");
        for (j = 0; j < nresults; j++)
            if (results[j].status == GL_NOT_RUN && !strcmp(results[j].lab, lab_list[i].name))
                printf("    NOT RUN  %-11s %s (%d)\n", results[j].kind, results[j].title,
                       results[j].max);
    }
    if (!quiet) {
        printf("  %-24s %3d/%-3d", "Total", got, max);
        if (skipped)
            printf("  (%d points not run here: %s)", skipped,
                   nlab && strcmp(lab_list[0].gpu, "none") == 0 ? "no GPU" : "see SKIP above");
        if (not_run)
            printf("  (%d points NOT RUN: the grading broke)", not_run);
        printf("\n");
    }
    if (broke)
        printf("  THE GRADING BROKE in %d lab%s: tests NOT RUN (above); not the student's "
               "file's fault: grade again (exit status 2)\n",
               broke, broke == 1 ? "" : "s");
    if (out) {
        write_json(out, got);
        write_check_xml(out);
        write_tap(out);
        if (!quiet)
            printf("  results: %s/results.json (Gradescope), check.xml (Check), results.tap "
                   "(TAP)\n", out);
    }

    broke += bad; /* a results file missing or unreadable: its runner did not finish */
    if (broke) {
        if (expect)
            printf("make test: FAILED: the grading broke (tests NOT RUN above)\n");
        return 2;
    }
    if (!expect)
        return failed ? 1 : 0;
    if (!strcmp(expect, "pass")) {
        if (failed) {
            printf("make test: FAILED: a reference solution fails %d test%s (above)\n", failed,
                   failed > 1 ? "s" : "");
            return 1;
        }
        printf("make test: ok: the solutions pass every test that ran (%d points not run "
               "here)\n", skipped);
        return 0;
    }
    if (!strcmp(expect, "fail")) {
        for (i = 0; i < nlab; i++) {
            if (strcmp(lab_list[i].build, "ok") != 0) {
                printf("make test: FAILED: the starting file of %s does not compile\n",
                       lab_list[i].name);
                return 1;
            }
            if (lab_list[i].failed == 0 && !lab_list[i].would_fail) {
                printf("make test: FAILED: the starting file of %s fails none of the tests "
                       "that ran: the grader cannot tell it from a solution\n", lab_list[i].name);
                return 1;
            }
        }
        printf("make test: ok: every starting file builds and fails its lab's tests\n");
        return 0;
    }
    if (!strcmp(expect, "caught")) {
        int ran = 0, escaped = 0;
        for (i = 0; i < nresults; i++) {
            const gl_result *r = &results[i];
            if (caught && !gl_in_list(caught, r->id))
                continue;
            if (r->status == GL_SKIP && !strncmp(r->message, "no GPU here: this would fail", 28)) {
                ran++; /* a technique test's preview: caught without a GPU too */
                continue;
            }
            if (r->status == GL_SKIP)
                continue;
            ran++;
            if (r->status == GL_PASS) {
                printf("make test: FAILED: %s passed, but it is meant to catch this wrong "
                       "solution\n", r->id);
                escaped++;
            }
        }
        if (escaped)
            return 1;
        if (ran == 0)
            printf("make test: not checked here: every test meant to catch it was skipped\n");
        else
            printf("make test: ok: caught by %d test%s\n", ran, ran > 1 ? "s" : "");
        return 0;
    }
    fprintf(stderr, "gl-report: --expect %s: expected pass, fail or caught\n", expect);
    return 2;
}
