/* test_common.c: unit tests of common/ that need no GPU. */
#include "unit.h"

#include "gpulabs.h"

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random ---- */

START_TEST(rng_repeats_for_a_seed_and_name)
{
    gl_rng a, b, c;
    int i, same_as_other = 1;
    gl_rng_init(&a, 42, "test");
    gl_rng_init(&b, 42, "test");
    gl_rng_init(&c, 42, "other");
    for (i = 0; i < 100; i++) {
        uint64_t x = gl_rng_next(&a);
        ck_assert_uint_eq(x, gl_rng_next(&b));
        same_as_other &= x == gl_rng_next(&c);
    }
    ck_assert_msg(!same_as_other, "a different name must give a different stream");
}
END_TEST

START_TEST(rng_float_in_range_and_not_constant)
{
    gl_rng r;
    float x[1000];
    int i, distinct = 0;
    gl_rng_init(&r, 7, "f");
    gl_fill_float(&r, x, 1000, -1.0f, 1.0f);
    for (i = 0; i < 1000; i++) {
        ck_assert(x[i] >= -1.0f && x[i] < 1.0f);
        ck_assert(!isnan(x[i]));
        distinct += i > 0 && x[i] != x[i - 1];
    }
    ck_assert_int_gt(distinct, 990);
}
END_TEST

START_TEST(rng_int_never_poison)
{
    gl_rng r;
    int x[5000], i, lo = 0, hi = 0;
    gl_rng_init(&r, 1, "i");
    gl_fill_int(&r, x, 5000, -2, 1);
    for (i = 0; i < 5000; i++) {
        ck_assert_int_ne(x[i], -1);
        ck_assert(x[i] >= -2 && x[i] <= 1);
        lo |= x[i] == -2;
        hi |= x[i] == 1;
    }
    ck_assert(lo && hi);
}
END_TEST

START_TEST(seed_parsing)
{
    uint64_t s = 0;
    ck_assert_int_eq(gl_parse_seed("12345", &s), 0);
    ck_assert_uint_eq(s, 12345);
    ck_assert_int_eq(gl_parse_seed("18446744073709551615", &s), 0);
    ck_assert_int_eq(gl_parse_seed("-1", &s), -1);
    ck_assert_int_eq(gl_parse_seed("12a", &s), -1);
    ck_assert_int_eq(gl_parse_seed("", &s), -1);
    ck_assert_int_eq(gl_parse_seed("99999999999999999999999", &s), -1);
}
END_TEST

START_TEST(seed_from_environment)
{
    setenv("SEED", "777", 1);
    ck_assert_uint_eq(gl_seed(), 777);
    ck_assert_uint_eq(gl_seed(), 777); /* the same for the whole process */
}
END_TEST

static jmp_buf failed;
static char fail_message[2048];
static void catch_fail(const char *msg)
{
    snprintf(fail_message, sizeof fail_message, "%s", msg);
    longjmp(failed, 1);
}

START_TEST(bad_seed_is_an_error_that_names_it)
{
    setenv("SEED", "banana", 1);
    gl_set_fail_handler(catch_fail);
    if (setjmp(failed) == 0) {
        gl_seed();
        ck_abort_msg("SEED=banana was accepted");
    }
    ck_assert_ptr_nonnull(strstr(fail_message, "SEED=banana"));
}
END_TEST

/* ---- comparison ---- */

START_TEST(compare_exact_and_first_wrong)
{
    float ref[6] = {1, 2, 3, 4, 5, 6}, got[6] = {1, 2, 3, 4, 5, 6};
    gl_cmp c;
    ck_assert_uint_eq(gl_compare_float(ref, got, 6, 0, 0, &c), 0);
    got[4] = 5.5f;
    ck_assert_uint_eq(gl_compare_float(ref, got, 6, 0, 0, &c), 1);
    ck_assert_uint_eq(c.diff[0].index, 4);
    ck_assert(c.diff[0].expected == 5.0 && c.diff[0].actual == 5.5);
    ck_assert_uint_eq(c.unwritten, 0);
}
END_TEST

START_TEST(compare_counts_unwritten_poison)
{
    float ref[4] = {1, 2, 3, 4}, got[4] = {1, 2, 3, 4};
    int cols = 2;
    char text[1024];
    gl_cmp c;
    memset(&got[1], GL_POISON_BYTE, sizeof(float));
    memset(&got[3], GL_POISON_BYTE, sizeof(float));
    ck_assert_uint_eq(gl_compare_float(ref, got, 4, 0, 0, &c), 2);
    ck_assert_uint_eq(c.unwritten, 2);
    gl_cmp_describe(&c, "out", gl_index_2d, &cols, text, sizeof text);
    ck_assert_msg(strstr(text, "2 never written") && strstr(text, "out[0][1]") &&
                      strstr(text, "out[1][1]"),
                  "%s", text);
}
END_TEST

START_TEST(compare_tolerance_and_nan)
{
    float ref[3] = {100, 1, 0}, got[3] = {100.001f, 1, NAN};
    gl_cmp c;
    ck_assert_uint_eq(gl_compare_float(ref, got, 2, 0, 1e-4, &c), 0);
    ck_assert_uint_eq(gl_compare_float(ref, got, 2, 0, 1e-7, &c), 1);
    ck_assert_uint_eq(gl_compare_float(ref, got, 3, 1e9, 1e9, &c), 1); /* NaN is never right */
    { /* an infinity is right where one is expected (the max of no values), and only there */
        float iref[2] = {-INFINITY, 1}, igot[2] = {-INFINITY, INFINITY};
        ck_assert_uint_eq(gl_compare_float(iref, igot, 1, 0, 0, &c), 0);
        ck_assert_uint_eq(gl_compare_float(iref, igot, 2, 0, 1e-4, &c), 1);
    }
    {
        double dref[3] = {1.0 / 3, 2, 3}, dgot[3] = {1.0 / 3, 2, 3};
        ck_assert_uint_eq(gl_compare_double(dref, dgot, 3, 0, 0, &c), 0);
        dgot[0] += 1e-15;
        ck_assert_uint_eq(gl_compare_double(dref, dgot, 3, 0, 0, &c), 1);
        ck_assert_uint_eq(gl_compare_double(dref, dgot, 3, 0, 1e-12, &c), 0);
        memset(&dgot[2], GL_POISON_BYTE, sizeof(double));
        ck_assert_uint_eq(gl_compare_double(dref, dgot, 3, 0, 1e-12, &c), 1);
        ck_assert_uint_eq(c.unwritten, 1);
    }
}
END_TEST

START_TEST(compare_int_reports)
{
    int ref[3] = {5, 6, 7}, got[3] = {5, 0, -1};
    char text[1024];
    gl_cmp c;
    ck_assert_uint_eq(gl_compare_int(ref, got, 3, &c), 2);
    ck_assert_uint_eq(c.unwritten, 1); /* -1 is the poison */
    gl_cmp_describe(&c, "hist", NULL, NULL, text, sizeof text);
    ck_assert_msg(strstr(text, "hist[1]: expected 6, got 0") != NULL, "%s", text);
    memset(got, GL_POISON_BYTE, sizeof got);
    gl_compare_int(ref, got, 3, &c);
    gl_cmp_describe(&c, "hist", NULL, NULL, text, sizeof text);
    ck_assert_msg(strstr(text, "nothing was written to hist: all 3") != NULL, "%s", text);
    {
        unsigned uref[2] = {3000000000u, 1}, ugot[2] = {3000000000u, 2};
        ck_assert_uint_eq(gl_compare_uint(uref, ugot, 2, &c), 1);
        ck_assert(c.diff[0].expected == 1.0 && c.diff[0].actual == 2.0);
        ugot[0] = 7;
        gl_compare_uint(uref, ugot, 2, &c);
        ck_assert(c.diff[0].expected == 3000000000.0); /* not negative */
    }
}
END_TEST

/* ---- guards ---- */

START_TEST(guard_scan_and_describe)
{
    unsigned char g[64];
    size_t first = 0, last = 0;
    gl_guard_report r;
    char text[512];
    gl_guard_fill(g, sizeof g, 7);
    ck_assert_uint_eq(gl_guard_scan(g, 64, 7, &first, &last), 0);
    ck_assert_uint_gt(gl_guard_scan(g, 64, 9, &first, &last), 48); /* another buffer's guard */
    g[8] ^= 1;
    g[20] ^= 0x80;
    ck_assert_uint_eq(gl_guard_scan(g, 64, 7, &first, &last), 2);
    ck_assert_uint_eq(first, 8);
    ck_assert_uint_eq(last, 20);
    memset(&r, 0, sizeof r);
    r.guard = 64;
    r.after = 2;
    r.first_after = 8;
    r.last_after = 20;
    gl_guard_describe(&r, 400, 4, "out", text, sizeof text);
    ck_assert_msg(strstr(text, "past the end of out (100 elements)") &&
                      strstr(text, "from out[102] to out[105]"),
                  "%s", text);
    r.after = 0;
    r.before = 4;
    r.first_before = 60;
    gl_guard_describe(&r, 400, 4, "out", text, sizeof text);
    ck_assert_msg(strstr(text, "before the start of out") && strstr(text, "out[-1]"), "%s", text);
}
END_TEST

/* ---- tables ---- */

START_TEST(table_rows_and_csv)
{
    const char *h[] = {"variant", "GB/s"};
    gl_table *t = gl_table_new("title", 2, h);
    char path[] = "/tmp/gl-unit-XXXXXX", line[256];
    FILE *f;
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    gl_table_note(t, "gpu", "%s", "Test GPU");
    gl_table_cell(t, "%s", "naive");
    gl_table_cell(t, "%.0f", 492.0);
    gl_table_cell(t, "%s", "a, \"quoted\"");
    gl_table_cell(t, "%d", 7);
    ck_assert_int_eq(gl_table_rows(t), 2);
    ck_assert_str_eq(gl_table_get(t, 0, 1), "492");
    ck_assert_str_eq(gl_table_get(t, 5, 5), "");
    ck_assert_int_eq(gl_table_write_csv(t, path), 0);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "# title\n");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "# gpu: Test GPU\n");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "variant,GB/s\n");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "naive,492\n");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "\"a, \"\"quoted\"\"\",7\n");
    fclose(f);
    remove(path);
    gl_table_free(t);
}
END_TEST

START_TEST(table_print_aligns)
{
    const char *h[] = {"name", "n"};
    gl_table *t = gl_table_new(NULL, 2, h);
    char buf[512] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    gl_table_cell(t, "%s", "longer name");
    gl_table_cell(t, "%d", 12345);
    gl_table_print(t, f);
    fclose(f);
    ck_assert_msg(strstr(buf, "name             n\n") && strstr(buf, "longer name  12345\n"),
                  "%s", buf);
    gl_table_free(t);
}
END_TEST

/* ---- timing arithmetic, parsing, errors ---- */

START_TEST(median_bandwidth_percent)
{
    double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2};
    ck_assert(gl_median(odd, 3) == 3.0);
    ck_assert(gl_median(even, 4) == 2.5);
    ck_assert(fabs(gl_gbps(2e9, 1000.0) - 2.0) < 1e-12); /* 2 GB in 1 s */
    ck_assert(gl_gbps(1e9, 0.0) == 0.0);
    ck_assert(fabs(gl_percent(875, 1000) - 87.5) < 1e-12);
    ck_assert(gl_percent(1, 0) == 0.0);
}
END_TEST

START_TEST(parse_long_bounds)
{
    long v;
    ck_assert_int_eq(gl_parse_long("8192", 1, 10000, &v), 0);
    ck_assert_int_eq(v, 8192);
    ck_assert_int_eq(gl_parse_long("0", 1, 10000, &v), -1);
    ck_assert_int_eq(gl_parse_long("10001", 1, 10000, &v), -1);
    ck_assert_int_eq(gl_parse_long("12x", 1, 10000, &v), -1);
    ck_assert_int_eq(gl_parse_long("", 1, 10000, &v), -1);
}
END_TEST

START_TEST(cuda_errors_have_causes)
{
    char text[1024];
    ck_assert_ptr_nonnull(strstr(gl_cuda_likely_cause(cudaErrorIllegalAddress), "bounds"));
    ck_assert_ptr_nonnull(strstr(gl_cuda_likely_cause(cudaErrorMisalignedAddress), "aligned"));
    ck_assert_ptr_nonnull(strstr(gl_cuda_likely_cause(cudaErrorInvalidConfiguration), "1024"));
    gl_cuda_describe(cudaErrorInvalidConfiguration, text, sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "cudaErrorInvalidConfiguration"));
    ck_assert_ptr_nonnull(strstr(text, "Likely cause"));
}
END_TEST

START_TEST(fail_handler_is_called)
{
    gl_set_fail_handler(catch_fail);
    if (setjmp(failed) == 0) {
        GL_CUDA(cudaErrorMemoryAllocation);
        ck_abort_msg("GL_CUDA returned after an error");
    }
    ck_assert_ptr_nonnull(strstr(fail_message, "test_common.c"));
    ck_assert_ptr_nonnull(strstr(fail_message, "out of memory"));
}
END_TEST

/* ---- matrix product reference and its FP32 bound ---- */

START_TEST(matmul_bound_accepts_fp32_orders_and_rejects_a_dropped_product)
{
    enum { M = 7, N = 33, K = 301 };
    static float a[M * K], b[K * N], ref[M * N], bound[M * N], fwd[M * N], rev[M * N],
        dropped[M * N];
    gl_rng r;
    gl_cmp cmp;
    int i, j, p;
    gl_rng_init(&r, 3, "matmul");
    gl_fill_float(&r, a, M * K, -1.0f, 1.0f);
    gl_fill_float(&r, b, K * N, -1.0f, 1.0f);
    gl_matmul_ref(a, b, M, N, K, ref, bound);
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            float s = 0.0f, t = 0.0f, bnd;
            for (p = 0; p < K; p++)
                s += a[i * K + p] * b[p * N + j];
            for (p = K - 1; p >= 0; p--)
                t = fmaf(a[i * K + p], b[p * N + j], t);
            fwd[i * N + j] = s;
            rev[i * N + j] = t;
            dropped[i * N + j] = s - a[i * K + K / 2] * b[(K / 2) * N + j];
            ck_assert_float_eq(gl_matmul_ref_at(a, b, N, K, i, j, &bnd), ref[i * N + j]);
            ck_assert_float_eq(bnd, bound[i * N + j]);
        }
    ck_assert_uint_eq(gl_compare_float_bound(ref, fwd, bound, M * N, &cmp), 0);
    ck_assert_uint_eq(gl_compare_float_bound(ref, rev, bound, M * N, &cmp), 0);
    ck_assert_uint_gt(gl_compare_float_bound(ref, dropped, bound, M * N, &cmp), M * N * 9 / 10);
    /* the sampled check: the edges and random elements, indices into C */
    ck_assert_uint_eq(gl_matmul_check(a, b, fwd, M, N, K, 0, 50, &r, &cmp), 0);
    fwd[3 * N + N - 1] += 0.5f; /* in the last column */
    ck_assert_uint_eq(gl_matmul_check(a, b, fwd, M, N, K, 0, 0, &r, &cmp), 1);
    ck_assert_uint_eq(cmp.diff[0].index, 3 * N + N - 1);
    ck_assert_uint_eq(gl_matmul_check(a, b, fwd, M, N, K, M * N, 0, &r, &cmp), 1);
}
END_TEST

Suite *common_suite(void)
{
    Suite *s = suite_create("common");
    TCase *tc = tcase_create("common");
    tcase_add_test(tc, rng_repeats_for_a_seed_and_name);
    tcase_add_test(tc, rng_float_in_range_and_not_constant);
    tcase_add_test(tc, rng_int_never_poison);
    tcase_add_test(tc, seed_parsing);
    tcase_add_test(tc, seed_from_environment);
    tcase_add_test(tc, bad_seed_is_an_error_that_names_it);
    tcase_add_test(tc, compare_exact_and_first_wrong);
    tcase_add_test(tc, compare_counts_unwritten_poison);
    tcase_add_test(tc, compare_tolerance_and_nan);
    tcase_add_test(tc, compare_int_reports);
    tcase_add_test(tc, matmul_bound_accepts_fp32_orders_and_rejects_a_dropped_product);
    tcase_add_test(tc, guard_scan_and_describe);
    tcase_add_test(tc, table_rows_and_csv);
    tcase_add_test(tc, table_print_aligns);
    tcase_add_test(tc, median_bandwidth_percent);
    tcase_add_test(tc, parse_long_bounds);
    tcase_add_test(tc, cuda_errors_have_causes);
    tcase_add_test(tc, fail_handler_is_called);
    suite_add_tcase(s, tc);
    return s;
}
