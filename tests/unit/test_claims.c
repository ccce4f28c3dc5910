/* test_claims.c: unit tests of the technique claims (inspect.h: gl_expect_barriers,
 * gl_expect_shared_rw), which fail a test with the count and the lab's sentence. No GPU needed. */
#include "unit.h"

#include "inspect.h"

#include <stdlib.h>

/* The technique claims fail a test with the count and the lab's sentence: run in a suite of
 * their own, whose failures are read back. */
static gl_ptx_entry claim_entry;
START_TEST(claim_two_barriers)
{
    gl_expect_barriers(&claim_entry, "k", 2, "one per step");
}
END_TEST

START_TEST(claim_shared_rw)
{
    gl_expect_shared_rw(&claim_entry, "k", "the tree works on sdata[]");
}
END_TEST

START_TEST(technique_claims_say_why)
{
    static const char p[] = ".visible .entry k(\n)\n{\n\tst.shared.f32 [%r1], %f1;\n"
                            "\tbar.sync 0;\n\tret;\n}\n";
    Suite *s = suite_create("claims");
    TCase *tc = tcase_create("claims");
    SRunner *sr;
    TestResult **failed;
    ck_assert_int_eq(gl_ptx_entry_find(p, "k", &claim_entry), 0);
    gl_expect_barriers(&claim_entry, "k", 1, "met: no failure");
    tcase_add_test(tc, claim_two_barriers);
    tcase_add_test(tc, claim_shared_rw);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_SILENT);
    ck_assert_int_eq(srunner_ntests_failed(sr), 2);
    failed = srunner_failures(sr);
    ck_assert_str_eq(tr_msg(failed[0]),
                     "k has 1 barrier (__syncthreads, bar.sync in its PTX): one per step");
    ck_assert_str_eq(tr_msg(failed[1]), "k does not both write and read shared memory (1 "
                                        "st.shared, 0 ld.shared in its PTX): the tree works on "
                                        "sdata[]");
    free(failed);
    srunner_free(sr);
}
END_TEST

Suite *claims_suite(void)
{
    Suite *s = suite_create("claims");
    TCase *tc = tcase_create("claims");
    tcase_add_test(tc, technique_claims_say_why);
    suite_add_tcase(s, tc);
    return s;
}
