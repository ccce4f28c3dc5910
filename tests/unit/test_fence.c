/* test_fence.c: unit tests of the last block's pattern read from the PTX
 * (gl_ptx_last_block, tests/grader/inspect_fence.c), on small bodies written as nvcc writes
 * them: the partial, the fence and the ticket in every order, scope and control flow that
 * the suites of labs 05 and 10 tell apart. No GPU needed. */
#include "unit.h"

#include "inspect.h"

#include <stdio.h>

/* The pattern of an entry k(partials, counter) with this body. */
static gl_last_block pattern_of(const char *body, int tickets, int partial_param)
{
    char ptx[2048];
    gl_ptx_entry e;
    gl_last_block lb;
    snprintf(ptx, sizeof ptx,
             ".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .u64 k_param_1\n)\n{\n"
             "\t.reg .pred %%p<4>;\n%s}\n",
             body);
    ck_assert_int_eq(gl_ptx_entry_find(ptx, "k", &e), 0);
    gl_ptx_last_block(&e, tickets, partial_param, &lb);
    return lb;
}

/* thread 0 stores, fences and draws, then the block meets at a barrier */
#define THREAD_0 "\tsetp.ne.s32 \t%p1, %r1, 0;\n\t@%p1 bra \t$L__BB0_2;\n"
#define STORE "\tst.global.f32 \t[%rd1], %f1;\n"
#define TICKET "\tatom.global.inc.u32 \t%r2, [%rd2], %r3;\n"
#define JOIN "$L__BB0_2:\n\tbar.sync \t0;\n\tret;\n"

START_TEST(fence_between_partial_and_ticket)
{
    gl_last_block lb = pattern_of(THREAD_0 STORE "\tmembar.gl;\n" TICKET JOIN, GL_TICKET_INC, -1);
    ck_assert_str_eq(lb.store.text, "st.global.f32 [%rd1], %f1");
    ck_assert_str_eq(lb.fence.text, "membar.gl");
    ck_assert_str_eq(lb.ticket.text, "atom.global.inc.u32 %r2, [%rd2], %r3");
    ck_assert(lb.store.at < lb.fence.at && lb.fence.at < lb.ticket.at);
    ck_assert_int_eq(lb.skipped, 0);
    ck_assert_int_eq(lb.apart, 0);
    /* fence.sc.gpu and fence.acq_rel.gpu are __threadfence() too */
    lb = pattern_of(THREAD_0 STORE "\tfence.acq_rel.gpu;\n" TICKET JOIN, GL_TICKET_INC, -1);
    ck_assert_str_eq(lb.fence.text, "fence.acq_rel.gpu");
}
END_TEST

START_TEST(fence_after_the_ticket)
{
    gl_last_block lb = pattern_of(THREAD_0 STORE TICKET "\tmembar.gl;\n" JOIN, GL_TICKET_INC, -1);
    ck_assert_int_eq(lb.fence.at, -1);
    ck_assert_str_eq(lb.fence_after.text, "membar.gl");
    ck_assert_int_eq(lb.fence_before.at, -1);
    ck_assert_int_eq(lb.fences, 1);
}
END_TEST

START_TEST(fence_before_the_store)
{
    gl_last_block lb = pattern_of(THREAD_0 "\tmembar.gl;\n" STORE TICKET JOIN, GL_TICKET_INC, -1);
    ck_assert_int_eq(lb.fence.at, -1);
    ck_assert_str_eq(lb.fence_before.text, "membar.gl");
    ck_assert_int_eq(lb.fence_after.at, -1);
}
END_TEST

START_TEST(block_wide_fence_only)
{
    gl_last_block lb = pattern_of(THREAD_0 STORE "\tmembar.cta;\n" TICKET JOIN, GL_TICKET_INC, -1);
    ck_assert_int_eq(lb.fence.at, -1);
    ck_assert_str_eq(lb.block_fence.text, "membar.cta");
    ck_assert_int_eq(lb.fences, 1);
    lb = pattern_of(THREAD_0 STORE "\tfence.sc.cta;\n" TICKET JOIN, GL_TICKET_INC, -1);
    ck_assert_int_eq(lb.fence.at, -1);
    ck_assert_str_eq(lb.block_fence.text, "fence.sc.cta");
    /* no fence at all */
    lb = pattern_of(THREAD_0 STORE TICKET JOIN, GL_TICKET_INC, -1);
    ck_assert_int_eq(lb.fences, 0);
    ck_assert_int_eq(lb.block_fence.at, -1);
}
END_TEST

START_TEST(fence_skipped_by_a_guarded_branch)
{
    /* if (v == -1.0f) __threadfence(): the branch jumps over the fence to the ticket */
    gl_last_block lb = pattern_of(THREAD_0 STORE "\tsetp.neu.f32 \t%p2, %f1, 0fBF800000;\n"
                                                 "\t@%p2 bra \t$L__BB0_1;\n\tmembar.gl;\n"
                                                 "$L__BB0_1:\n" TICKET JOIN,
                                  GL_TICKET_INC, -1);
    ck_assert_str_eq(lb.fence.text, "membar.gl");
    ck_assert_int_eq(lb.skipped, 1);
    ck_assert_str_eq(lb.skip.text, "@%p2 bra $L__BB0_1");
    /* the same with the condition on the fence itself: no branch to name */
    lb = pattern_of(THREAD_0 STORE "\t@%p2 membar.gl;\n" TICKET JOIN, GL_TICKET_INC, -1);
    ck_assert_int_eq(lb.skipped, 1);
    ck_assert_int_eq(lb.skip.at, -1);
    ck_assert_str_eq(lb.fence.text, "@%p2 membar.gl");
    ck_assert_str_eq(lb.fence.guard, "@%p2");
}
END_TEST

START_TEST(store_and_ticket_on_different_threads)
{
    /* thread 0 stores and fences, thread 32 draws: two branches, no barrier between */
    static const char apart[] = THREAD_0 STORE "\tmembar.gl;\n$L__BB0_2:\n"
                                "\tsetp.ne.s32 \t%p2, %r1, 32;\n\t@%p2 bra \t$L__BB0_3;\n" TICKET
                                "$L__BB0_3:\n\tret;\n";
    static const char joined[] = THREAD_0 STORE "\tmembar.gl;\n$L__BB0_2:\n\tbar.sync \t0;\n"
                                 "\tsetp.ne.s32 \t%p2, %r1, 32;\n\t@%p2 bra \t$L__BB0_3;\n" TICKET
                                 "$L__BB0_3:\n\tret;\n";
    gl_last_block lb = pattern_of(apart, GL_TICKET_INC, -1);
    ck_assert(lb.fence.at >= 0);
    ck_assert_int_eq(lb.skipped, 0);
    ck_assert_int_eq(lb.apart, 1);
    /* a __syncthreads() between them joins the threads */
    lb = pattern_of(joined, GL_TICKET_INC, -1);
    ck_assert_int_eq(lb.apart, 0);
    ck_assert_int_eq(lb.skipped, 0);
}
END_TEST

START_TEST(release_atom_is_its_own_fence)
{
    gl_last_block lb = pattern_of(THREAD_0 STORE "\tatom.release.gpu.global.inc.u32 \t%r2, "
                                                 "[%rd2], %r3;\n" JOIN,
                                  GL_TICKET_INC, -1);
    ck_assert_int_eq(lb.fence.at, lb.ticket.at);
    ck_assert_int_eq(lb.skipped, 0);
    ck_assert_int_eq(lb.apart, 0);
    /* released to the block only: no fence for the other blocks */
    lb = pattern_of(THREAD_0 STORE "\tatom.acq_rel.cta.global.inc.u32 \t%r2, [%rd2], %r3;\n" JOIN,
                    GL_TICKET_INC, -1);
    ck_assert(lb.ticket.at >= 0);
    ck_assert_int_eq(lb.fence.at, -1);
}
END_TEST

START_TEST(ticket_kinds_and_the_partials_parameter)
{
    /* the partial goes through k_param_0; a later store (the sum) goes elsewhere */
    static const char body[] = "\tld.param.u64 \t%rd4, [k_param_0];\n"
                               "\tcvta.to.global.u64 \t%rd5, %rd4;\n"
                               "\tadd.s64 \t%rd6, %rd5, %rd3;\n\tst.global.u32 \t[%rd6], %r4;\n"
                               "\tst.global.u32 \t[%rd7], %r5;\n\tmembar.gl;\n"
                               "\tatom.global.add.u32 \t%r2, [%rd2], 1;\n\tret;\n";
    gl_last_block lb = pattern_of(body, GL_TICKET_INC, 0);
    ck_assert_int_eq(lb.ticket.at, -1); /* an atomicAdd is no atomicInc */
    lb = pattern_of(body, GL_TICKET_INC_OR_ADD, 0);
    ck_assert_str_eq(lb.ticket.text, "atom.global.add.u32 %r2, [%rd2], 1");
    ck_assert_str_eq(lb.store.text, "st.global.u32 [%rd6], %r4");
    lb = pattern_of(body, GL_TICKET_INC_OR_ADD, -1); /* any store: the last one */
    ck_assert_str_eq(lb.store.text, "st.global.u32 [%rd7], %r5");
}
END_TEST

Suite *fence_suite(void)
{
    Suite *s = suite_create("fence");
    TCase *tc = tcase_create("fence");
    tcase_add_test(tc, fence_between_partial_and_ticket);
    tcase_add_test(tc, fence_after_the_ticket);
    tcase_add_test(tc, fence_before_the_store);
    tcase_add_test(tc, block_wide_fence_only);
    tcase_add_test(tc, fence_skipped_by_a_guarded_branch);
    tcase_add_test(tc, store_and_ticket_on_different_threads);
    tcase_add_test(tc, release_atom_is_its_own_fence);
    tcase_add_test(tc, ticket_kinds_and_the_partials_parameter);
    suite_add_tcase(s, tc);
    return s;
}
