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
 *   caught  every test named by --caught that ran failed (a wrong solution)
 *
 * This file is the total, the verdict of --expect and --calibrate's table; the results files
 * are read by report_read.c into the tables of report.h, the outputs written by
 * report_write.c. */
#include "report.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAFE_MARGIN 1.5 /* a threshold at most two thirds of the effect (issue 12) */

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
