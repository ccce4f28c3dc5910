/* test_grader.c: unit tests of the grader's readers (PTX, ptxas report,
 * Nsight Compute CSV), of its results format and of the GPU memory the labs graded at once
 * share. No GPU needed. */
#define _GNU_SOURCE
#include "unit.h"

#include "gpu_memory.h"
#include "inspect.h"
#include "record.h"
#include "results.h"

#include "gl_check.h"
#include "grader.h"

#include <setjmp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/wait.h>

/* PTX as nvcc 13 writes it: shared arrays declared inside the entry */
static const char ptx13[] =
    ".version 9.0\n.target sm_90\n"
    ".visible .entry _Z22transpose_tiled_kernelPfPKfii(\n\t.param .u64 p0\n)\n{\n"
    "\t.reg .b32 %r<9>;\n"
    "\t// demoted variable\n"
    "\t.shared .align 4 .b8 _ZZ22transpose_tiled_kernelPfPKfiiE4tile[4096];\n"
    "\tmov.u32 %r1, _ZZ22transpose_tiled_kernelPfPKfiiE4tile;\n"
    "\tst.shared.f32 [%r1], %f1;\n\tbar.sync 0;\n\tld.shared.f32 %f2, [%r1+128];\n"
    "\tld.shared.v4.f32 {%f3, %f4, %f5, %f6}, [%r1];\n\tret;\n}\n"
    ".visible .entry _Z24transpose_tiled_kernel_2Pf(\n)\n{\n\tret;\n}\n"
    ".visible .entry copy(\n)\n{\n\t@%p1 bra $L1;\n$L1:\n\tret;\n}\n";

/* PTX as older nvcc writes it: at module scope, named in the entry */
static const char ptx11[] =
    ".shared .align 4 .b8 _ZZ23transpose_padded_kernelPfPKfiiE4tile[4224];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".shared .align 4 .b32 unused_elsewhere[8];\n"
    ".visible .entry _Z23transpose_padded_kernelPfPKfii(\n)\n{\n"
    "\tmov.u32 %r1, _ZZ23transpose_padded_kernelPfPKfiiE4tile;\n"
    "\tmov.u32 %r2, dyn;\n\tbarrier.sync 0;\n\tret;\n}\n";

START_TEST(symbols_match_by_source_name)
{
    const char *m = "_Z23transpose_padded_kernelPfPKfii";
    ck_assert(gl_symbol_is(m, strlen(m), "transpose_padded_kernel"));
    ck_assert(!gl_symbol_is(m, strlen(m), "padded_kernel"));
    ck_assert(!gl_symbol_is(m, strlen(m), "transpose_padded"));
    ck_assert(gl_symbol_is("copy", 4, "copy"));
    ck_assert(!gl_symbol_is("copy2", 5, "copy"));
    m = "_ZN2ns23transpose_padded_kernelEPfPKfii";
    ck_assert(gl_symbol_is(m, strlen(m), "transpose_padded_kernel"));
}
END_TEST

START_TEST(entries_shared_arrays_and_instructions)
{
    gl_ptx_entry e;
    gl_ptx_shared sh[4];
    ck_assert_int_eq(gl_ptx_entry_find(ptx13, "transpose_tiled_kernel", &e), 0);
    ck_assert_int_eq(gl_ptx_shared_arrays(ptx13, &e, sh, 4), 1);
    ck_assert_int_eq(sh[0].bytes, 4096);
    ck_assert_int_eq(sh[0].align, 4);
    ck_assert_int_eq(gl_ptx_count(&e, "st.shared"), 1);
    ck_assert_int_eq(gl_ptx_count(&e, "ld.shared"), 2);
    ck_assert_int_eq(gl_ptx_count(&e, "ld.shared.v4"), 1);
    ck_assert_int_eq(gl_ptx_count_with(&e, "ld.shared", ".v4"), 1);
    ck_assert_int_eq(gl_ptx_count_with(&e, "ld.shared", ".v2"), 0);
    ck_assert_int_eq(gl_ptx_count_with(&e, "ld.shared", ".f32"), 2);
    ck_assert_int_eq(gl_ptx_count_with(&e, "ld", ".shared"), 2);
    ck_assert_int_eq(gl_ptx_count(&e, "bar.sync"), 1);
    ck_assert_int_eq(gl_ptx_count(&e, "bar"), 1); /* an opcode and its modifiers */
    ck_assert_int_eq(gl_ptx_count(&e, "ba"), 0);  /* not part of a word */
    ck_assert_int_eq(gl_ptx_count(&e, "barrier"), 0);
    ck_assert_int_eq(gl_ptx_barriers(&e), 1);
    ck_assert_int_eq(gl_ptx_entry_find(ptx13, "transpose_tiled_kernel_2", &e), 0);
    ck_assert_int_eq(gl_ptx_shared_arrays(ptx13, &e, sh, 4), 0);
    ck_assert_int_eq(gl_ptx_entry_find(ptx13, "copy", &e), 0);
    ck_assert_int_eq(gl_ptx_count(&e, "bra"), 1); /* after a predicate */
    ck_assert_int_eq(gl_ptx_entry_find(ptx13, "transpose_padded_kernel", &e), -1);
}
END_TEST

START_TEST(module_scope_and_dynamic_shared)
{
    gl_ptx_entry e;
    gl_ptx_shared sh[4];
    int n;
    ck_assert_int_eq(gl_ptx_entry_find(ptx11, "transpose_padded_kernel", &e), 0);
    n = gl_ptx_shared_arrays(ptx11, &e, sh, 4);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(sh[0].bytes, 4224);
    ck_assert_str_eq(sh[1].name, "dyn");
    ck_assert_int_eq(sh[1].bytes, -1);
    ck_assert_int_eq(gl_ptx_count(&e, "barrier.sync"), 1);
    ck_assert_int_eq(gl_ptx_barriers(&e), 1);
}
END_TEST

/* __syncthreads_count / _and / _or are barriers as much as __syncthreads */
START_TEST(reducing_barriers_count)
{
    static const char p[] = ".visible .entry k(\n)\n{\n\tbar.red.popc.u32 %r1, 0, %p1;\n"
                            "\tbarrier.red.and.pred %p2, 0, %p1;\n\tret;\n}\n";
    gl_ptx_entry e;
    ck_assert_int_eq(gl_ptx_entry_find(p, "k", &e), 0);
    ck_assert_int_eq(gl_ptx_barriers(&e), 2);
}
END_TEST

/* a tile's two barriers, as a loop runs the body: after the stores, after the loads */
START_TEST(shared_hazards_in_loop_order)
{
    static const char *const bodies[] = {
        "\tst.shared.f32 [%r1], %f1;\n\tbar.sync 0;\n\tld.shared.f32 %f2, [%r2];\n"
        "\tbarrier.sync 0;\n",                                         /* both */
        "\t@%p1 st.shared.f32 [%r1], %f1;\n\tld.shared.f32 %f2, [%r2];\n\tbar.sync 0;\n",
        "\tst.shared.f32 [%r1], %f1;\n\tbar.sync 0;\n\tld.shared.f32 %f2, [%r2];\n", /* wraps */
        "\tld.global.f32 %f1, [%rd1];\n\tbar.sync 0;\n"};             /* no shared memory */
    static const int hazards[] = {0, GL_READ_AFTER_WRITE, GL_WRITE_AFTER_READ, 0};
    char ptx[512];
    gl_ptx_entry e;
    int i;
    for (i = 0; i < 4; i++) {
        snprintf(ptx, sizeof ptx, ".visible .entry k(\n)\n{\n%s\tret;\n}\n", bodies[i]);
        ck_assert_int_eq(gl_ptx_entry_find(ptx, "k", &e), 0);
        ck_assert_int_eq(gl_ptx_shared_hazard(&e), hazards[i]);
    }
}
END_TEST

START_TEST(typed_shared_array_size)
{
    static const char p[] = ".visible .entry k(\n)\n{\n\t.shared .align 8 .f64 t[33];\n"
                            "\tmov.u32 %r1, t;\n}\n";
    gl_ptx_entry e;
    gl_ptx_shared sh[2];
    ck_assert_int_eq(gl_ptx_entry_find(p, "k", &e), 0);
    ck_assert_int_eq(gl_ptx_shared_arrays(p, &e, sh, 2), 1);
    ck_assert_int_eq(sh[0].bytes, 33 * 8);
}
END_TEST

/* a __shared__ int counter beside the array is a scalar, not dynamic memory */
/* a __constant__ array at module scope: its bytes by its type, and whether an entry reads it */
START_TEST(constant_arrays_and_names)
{
    static const char p[] = ".const .align 4 .b8 c_coeffs[2048];\n"
                            ".visible .const .align 4 .f32 c_taps[100] = {0f00000000};\n"
                            ".visible .entry k(\n)\n{\n\tld.const.f32 %f1, [c_coeffs+4];\n"
                            "\tmov.u64 %rd1, c_coeffs_2;\n}\n";
    gl_ptx_entry e;
    ck_assert_int_eq(gl_ptx_const_bytes(p, "c_coeffs"), 2048);
    ck_assert_int_eq(gl_ptx_const_bytes(p, "c_taps"), 400);
    ck_assert_int_eq(gl_ptx_const_bytes(p, "c_coeffs_2"), -1); /* named, never declared */
    ck_assert_int_eq(gl_ptx_const_bytes(p, "c_table"), -1);
    ck_assert_int_eq(gl_ptx_entry_find(p, "k", &e), 0);
    ck_assert(gl_ptx_names(&e, "c_coeffs"));
    ck_assert(gl_ptx_names(&e, "c_coeffs_2"));
    ck_assert(!gl_ptx_names(&e, "c_taps"));
    ck_assert(!gl_ptx_names(&e, "coeffs")); /* a whole identifier only */
}
END_TEST

START_TEST(shared_scalar_is_not_dynamic)
{
    static const char p[] = ".visible .entry k(\n)\n{\n\t.shared .align 4 .b8 slot[1024];\n"
                            "\t.shared .align 4 .u32 heavy;\n\tst.shared.u32 [heavy], 0;\n"
                            "\tmov.u32 %r1, slot;\n}\n";
    gl_ptx_entry e;
    gl_ptx_shared sh[2];
    ck_assert_int_eq(gl_ptx_entry_find(p, "k", &e), 0);
    ck_assert_int_eq(gl_ptx_shared_arrays(p, &e, sh, 2), 2);
    ck_assert_int_eq(sh[0].bytes, 1024);
    ck_assert_str_eq(sh[1].name, "heavy");
    ck_assert_int_eq(sh[1].bytes, 4);
}
END_TEST

START_TEST(tid_x_scaled_by_a_row_length)
{
    /* c[row * cols + col] with col from threadIdx.x (right) and from threadIdx.y (wrong) */
    static const char right[] =
        ".visible .entry add_right(\n)\n{\n"
        "\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n"
        "\tmad.lo.s32 %r4, %r1, %r2, %r3;\n"
        "\tmov.u32 %r5, %tid.y;\n\tmad.lo.s32 %r8, %r6, %r7, %r5;\n"
        "\tsetp.ge.s32 %p1, %r4, %r10;\n\t@%p1 bra $L;\n"
        "\tmad.lo.s32 %r9, %r8, %r10, %r4;\n\tmul.wide.s32 %rd1, %r9, 4;\n"
        "\tld.global.f32 %f1, [%rd1];\n\tst.global.f32 [%rd1], %f1;\n}\n";
    static const char wrong[] =
        ".visible .entry add_wrong(\n)\n{\n"
        "\t.loc 1 29 5\n\tmov.u32 %r3, %tid.x;\n\tmad.lo.s32 %r4, %r1, %r2, %r3;\n"
        "$L__BB2_2:\n\tcvt.u64.u32 %rd2, %r4;\n\t.loc 1 32 9\n"
        "\tmad.lo.s32 %r9, %r4, %r10, %r8;\n\tmul.wide.s32 %rd1, %r9, 4;\n}\n";
    gl_ptx_entry e;
    char why[128] = "";
    ck_assert_int_eq(gl_ptx_entry_find(right, "add_right", &e), 0);
    ck_assert_int_eq(gl_ptx_scales_tid_x(&e, why, sizeof why), 0);
    ck_assert_int_eq(gl_ptx_entry_find(wrong, "add_wrong", &e), 0);
    ck_assert_int_eq(gl_ptx_scales_tid_x(&e, why, sizeof why), 1);
    ck_assert_str_eq(why, "mad.lo.s32 %r9, %r4, %r10");
}
END_TEST

/* a warp per row: row = global thread index / 32 (a shift by 5), col = lane + 32 k: the
 * lanes of a warp read consecutive floats, so the row's stride is right */
START_TEST(warp_centric_rows_are_not_a_stride)
{
    static const char warp[] =
        ".visible .entry add_warp(\n)\n{\n"
        "\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n"
        "\tmad.lo.s32 %r4, %r1, %r2, %r3;\n\tshr.u32 %r5, %r4, 5;\n"
        "\tand.b32 %r6, %r3, 31;\n"
        "\tmad.lo.s32 %r9, %r5, %r10, %r6;\n\tmul.wide.s32 %rd1, %r9, 4;\n}\n";
    static const char lane[] = /* a shift by 2: four lanes to a row, still a stride */
        ".visible .entry add_quad(\n)\n{\n"
        "\tmov.u32 %r3, %tid.x;\n\tshr.u32 %r5, %r3, 2;\n"
        "\tmad.lo.s32 %r9, %r5, %r10, %r6;\n}\n";
    gl_ptx_entry e;
    char why[128] = "";
    ck_assert_int_eq(gl_ptx_entry_find(warp, "add_warp", &e), 0);
    ck_assert_int_eq(gl_ptx_scales_tid_x(&e, why, sizeof why), 0);
    ck_assert_int_eq(gl_ptx_entry_find(lane, "add_quad", &e), 0);
    ck_assert_int_eq(gl_ptx_scales_tid_x(&e, why, sizeof why), 1);
}
END_TEST

START_TEST(ptxas_reports_old_and_new)
{
    static const char r13[] =
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function '_Z22transpose_tiled_kernelPfPKfii' for 'sm_90'\n"
        "ptxas info    : Function properties for _Z22transpose_tiled_kernelPfPKfii\n"
        "    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n"
        "ptxas info    : Used 25 registers, used 1 barriers, 4096 bytes smem\n"
        "ptxas info    : Compiling entry function '_Z11copy_kernelPfPKfii' for 'sm_90'\n"
        "ptxas info    : Function properties for _Z11copy_kernelPfPKfii\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 20 registers, used 0 barriers\n";
    static const char r11[] =
        "ptxas info    : Compiling entry function '_Z5sgemmPfii' for 'sm_75'\n"
        "ptxas info    : Function properties for _Z5sgemmPfii\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 128 registers, 8448 bytes smem, 368 bytes cmem[0]\n";
    gl_ptxas_usage u;
    ck_assert_int_eq(gl_ptxas_usage_of(r13, "transpose_tiled_kernel", &u), 0);
    ck_assert_int_eq(u.registers, 25);
    ck_assert_int_eq(u.smem_bytes, 4096);
    ck_assert_int_eq(u.barriers, 1);
    ck_assert_int_eq(u.stack_bytes, 8);
    ck_assert_int_eq(u.spill_stores, 4);
    ck_assert_int_eq(u.spill_loads, 12);
    ck_assert_int_eq(gl_ptxas_usage_of(r13, "copy_kernel", &u), 0);
    ck_assert_int_eq(u.registers, 20);
    ck_assert_int_eq(u.smem_bytes, 0);
    ck_assert_int_eq(gl_ptxas_usage_of(r13, "missing", &u), -1);
    ck_assert_int_eq(gl_ptxas_usage_of(r11, "sgemm", &u), 0);
    ck_assert_int_eq(u.registers, 128);
    ck_assert_int_eq(u.smem_bytes, 8448);
}
END_TEST

START_TEST(ncu_csv_sums_over_kernels)
{
    static const char csv[] =
        "==PROF== Connected to process 123\n"
        "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"123\",\"k(float*, int)\",\"smsp__sass_inst_executed_op_shared_ld.sum\",\"inst\",\"1,048,576\"\n"
        "\"0\",\"123\",\"k(float*, int)\",\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\",\"\",\"0\"\n"
        "\"1\",\"123\",\"k2\",\"smsp__sass_inst_executed_op_shared_ld.sum\",\"inst\",\"24\"\n"
        "==PROF== Disconnected from process 123\n";
    double v;
    ck_assert_int_eq(gl_ncu_sum(csv, "smsp__sass_inst_executed_op_shared_ld.sum", &v), 2);
    ck_assert(v == 1048600.0);
    ck_assert_int_eq(
        gl_ncu_sum(csv, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", &v), 1);
    ck_assert(v == 0.0);
    ck_assert_int_eq(gl_ncu_sum(csv, "nothing", &v), 0);
    ck_assert_int_eq(gl_ncu_sum("==ERROR== ERR_NVGPUCTRPERM\n", "x", &v), 0);
}
END_TEST

/* Each kernel of the report on its own: its device name, its launch, its counters (a ratio
 * verdict judges them one by one: gl_profile_ratio). */
START_TEST(ncu_csv_reads_each_kernel)
{
    static const char csv[] =
        "\"ID\",\"Process ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Metric Name\","
        "\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"9\",\"_Z4workPf\",\"(32, 8, 1)\",\"(64, 64, 1)\",\"a.sum\",\"\",\"1,024\"\n"
        "\"0\",\"9\",\"_Z4workPf\",\"(32, 8, 1)\",\"(64, 64, 1)\",\"b.sum\",\"\",\"32\"\n"
        "\"1\",\"9\",\"_Z5decoyv\",\"(256, 1, 1)\",\"(1, 1, 1)\",\"a.sum\",\"\",\"7\"\n";
    static const char *const metrics[] = {"a.sum", "b.sum"};
    gl_ncu_kernel k[4];
    ck_assert_int_eq(gl_ncu_kernels(csv, metrics, 2, k, 4), 2);
    ck_assert_str_eq(k[0].name, "_Z4workPf");
    ck_assert(k[0].grid[0] == 64 && k[0].grid[1] == 64 && k[0].grid[2] == 1);
    ck_assert(k[0].block[0] == 32 && k[0].block[1] == 8 && k[0].block[2] == 1);
    ck_assert(k[0].value[0] == 1024.0 && k[0].value[1] == 32.0 && k[0].has == 3u);
    ck_assert(k[1].id == 1 && k[1].value[0] == 7.0 && k[1].has == 1u);
    ck_assert_int_eq(gl_ncu_kernels(csv, metrics, 2, k, 1), -1); /* more than it holds */
}
END_TEST

/* What a launcher may do is its lab's (gl_exec.h): streams, copies and host memory are refused
 * unless its description opens them, and a pageable copy always. */
/* A gl_fail jumps back to the test that expected it (setjmp(failed_at)). */
static jmp_buf failed_at;
static void fail_to_jump(const char *message)
{
    (void)message;
    longjmp(failed_at, 1);
}

static int gpu_refused(int flags, int type, int other_stream, int pageable, int symbol)
{
    gl_launcher l = {"launcher", "p", NULL, 0};
    gl_gpu_event e;
    gl_fail_handler old = gl_set_fail_handler(fail_to_jump);
    volatile int refused = 0;
    l.flags = flags;
    memset(&e, 0, sizeof e);
    e.type = (uint32_t)type, e.other_stream = other_stream, e.pageable = pageable;
    e.symbol_copy = symbol, e.bytes = 4096, e.start = 1000, e.end = 2000;
    snprintf(e.name, sizeof e.name, "%s", type == GL_GPU_KERNEL ? "main" : "a copy");
    if (setjmp(failed_at) == 0)
        gl_record_check_gpu(&l, &e, 1, 0, 0, 1);
    else
        refused = 1;
    gl_set_fail_handler(old);
    return refused;
}

static int api_refused(int flags, int type, int other_stream)
{
    gl_launcher l = {"launcher", "p", NULL, 0};
    gl_reply r;
    gl_fail_handler old = gl_set_fail_handler(fail_to_jump);
    volatile int refused = 0;
    l.flags = flags;
    memset(&r, 0, sizeof r);
    r.nevents = 1;
    r.events[0].type = (uint32_t)type, r.events[0].other_stream = other_stream;
    r.events[0].count = 1;
    snprintf(r.events[0].name, sizeof r.events[0].name, "cudaSomething");
    if (setjmp(failed_at) == 0)
        gl_record_check_answer(&l, &r);
    else
        refused = 1;
    gl_set_fail_handler(old);
    return refused;
}

START_TEST(launcher_policy_is_the_labs)
{
    gl_record_source src = {1, 1, NULL, "file.cu"};
    gl_record_set_source(&src);
    gl_forget_kernels("launcher");
    ck_assert(gpu_refused(0, GL_GPU_KERNEL, 1, 0, 0));           /* a stream of its own */
    ck_assert(!gpu_refused(GL_MAY_STREAM, GL_GPU_KERNEL, 1, 0, 0));
    ck_assert(gpu_refused(0, GL_GPU_COPY, 0, 0, 0));             /* a copy */
    ck_assert(!gpu_refused(GL_MAY_COPY, GL_GPU_COPY, 0, 0, 0));
    ck_assert(gpu_refused(GL_MAY_COPY, GL_GPU_COPY, 0, 1, 0));   /* pageable: never */
    ck_assert(gpu_refused(GL_MAY_COPY, GL_GPU_COPY, 1, 0, 0));   /* on its own stream */
    ck_assert(!gpu_refused(GL_MAY_COPY | GL_MAY_STREAM, GL_GPU_COPY, 1, 0, 0));
    ck_assert(gpu_refused(GL_MAY_COPY, GL_GPU_COPY, 0, 0, 1));   /* a __constant__ symbol */
    ck_assert(!gpu_refused(GL_MAY_COPY_SYMBOL, GL_GPU_COPY, 0, 0, 1));
    ck_assert(api_refused(0, GL_EV_STREAM, 0));
    ck_assert(!api_refused(GL_MAY_STREAM, GL_EV_STREAM, 0));
    ck_assert(api_refused(0, GL_EV_COPY, 0));
    ck_assert(!api_refused(GL_MAY_COPY, GL_EV_COPY, 0));
    ck_assert(api_refused(GL_MAY_COPY, GL_EV_COPY, 1));
    ck_assert(api_refused(GL_MAY_MEMSET, GL_EV_MEMSET, 1));
    ck_assert(!api_refused(GL_MAY_MEMSET | GL_MAY_STREAM, GL_EV_MEMSET, 1));
    ck_assert(api_refused(GL_MAY_STREAM, GL_EV_HOST_MEMORY, 0));
    ck_assert(!api_refused(GL_MAY_HOST_MEMORY, GL_EV_HOST_MEMORY, 0));
    ck_assert(api_refused(GL_MAY_STREAM | GL_MAY_COPY, GL_EV_GRAPH, 0));
    gl_forget_kernels("launcher");
}
END_TEST

/* a tile's row pitch, whatever the declaration's shape: [32][33], [33][33], [2][32][33]
 * pass; [32][32], [2][32][32], [32][64] do not; doubles want an odd pitch */
/* The kernels that did a launcher's work (record.c), from what the GPU ran: a kernel of the
 * given grid, block and GPU time, in call 0. */
static void ran(const gl_launcher *l, const char *name, unsigned blocks, unsigned threads,
                unsigned long long ns)
{
    gl_gpu_event e;
    memset(&e, 0, sizeof e);
    e.type = GL_GPU_KERNEL;
    snprintf(e.name, sizeof e.name, "%s", name);
    e.grid[0] = blocks, e.grid[1] = e.grid[2] = 1;
    e.block[0] = threads, e.block[1] = e.block[2] = 1;
    e.start = 1000, e.end = 1000 + ns;
    gl_record_check_gpu(l, &e, 1, 0, 0, 1);
}

START_TEST(kernels_that_did_the_work)
{
    static const gl_launcher l = {"launcher", "p", NULL, 0};
    gl_record_source src = {1, 1, NULL, "file.cu"};
    char names[8][224], piece[32];
    gl_fail_handler old;
    volatile int n = 0, i;
    gl_record_set_source(&src);
    /* a one-thread initialisation beside the main kernel: the main kernel alone */
    gl_forget_kernels("launcher");
    ran(&l, "set_first", 1, 1, 2000);
    ran(&l, "main", 4096, 256, 3000);
    n = gl_launched_kernels("launcher", names, 8);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(names[0], "main");
    /* a decoy with two thirds of the threads that does nothing, and the work in 16 pieces:
     * the pieces are judged, more than 8 of them, and the test fails */
    gl_forget_kernels("launcher");
    ran(&l, "decoy", 8192, 256, 10);
    for (i = 0; i < 16; i++) {
        snprintf(piece, sizeof piece, "piece_%d", i);
        ran(&l, piece, 256, 256, 1000);
    }
    old = gl_set_fail_handler(fail_to_jump);
    if (setjmp(failed_at) == 0) {
        n = gl_launched_kernels("launcher", names, 8);
        ck_abort_msg("the 16 pieces were not judged (%d kernels: %s ...)", n, names[0]);
    }
    gl_set_fail_handler(old);
    /* the same with 4 pieces: each one judged, the decoy not */
    gl_forget_kernels("launcher");
    ran(&l, "decoy", 8192, 256, 10);
    for (i = 0; i < 4; i++) {
        snprintf(piece, sizeof piece, "piece_%d", i);
        ran(&l, piece, 256, 256, 1000);
    }
    n = gl_launched_kernels("launcher", names, 8);
    ck_assert_int_eq(n, 4);
    for (i = 0; i < n; i++)
        ck_assert(strncmp(names[i], "piece_", 6) == 0);
}
END_TEST

START_TEST(tile_pitch_of_any_shape)
{
    ck_assert_int_eq(gl_tile_pitch(32 * 33, 32, 32), 33);
    ck_assert_int_eq(gl_tile_pitch(33 * 33, 32, 32), 33);
    ck_assert_int_eq(gl_tile_pitch(2 * 32 * 33, 32, 32), 33);
    ck_assert_int_eq(gl_tile_pitch(32 * 32, 32, 32), 32);
    ck_assert_int_eq(gl_tile_pitch(2 * 32 * 32, 32, 32), 32);
    ck_assert_int_eq(gl_tile_pitch(32 * 64, 32, 32), 32);
    ck_assert_int_eq(gl_tile_pitch(32 * 31, 32, 32), 0);
    ck_assert_int_eq(gl_tile_pitch(32 * 33, 32, 2), 33);
    ck_assert_int_eq(gl_tile_pitch(32 * 34, 32, 2), 34);
}
END_TEST

/* a template's instantiations: the exact device name (what a probe records) finds its own,
 * not the first of the source name */
START_TEST(template_instantiation_by_exact_name)
{
    static const char p[] =
        ".visible .entry _Z4loadILi1EEvPfPKf(\n)\n{\n\tld.global.f32 %f1, [%rd1];\n}\n"
        ".visible .entry _Z4loadILi4EEvPfPKf(\n)\n{\n\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, "
        "[%rd1];\n}\n";
    static const char report[] =
        "ptxas info    : Compiling entry function '_Z4loadILi1EEvPfPKf' for 'sm_90'\n"
        "ptxas info    : Used 8 registers, 368 bytes cmem[0]\n"
        "ptxas info    : Compiling entry function '_Z4loadILi4EEvPfPKf' for 'sm_90'\n"
        "    64 bytes stack frame, 12 bytes spill stores, 12 bytes spill loads\n"
        "ptxas info    : Used 255 registers, 368 bytes cmem[0]\n";
    gl_ptx_entry e;
    gl_ptxas_usage u;
    ck_assert_int_eq(gl_ptx_entry_find(p, "_Z4loadILi4EEvPfPKf", &e), 0);
    ck_assert_int_eq(gl_ptx_count_with(&e, "ld", ".v4"), 1);
    ck_assert_int_eq(gl_ptx_entry_find(p, "_Z4loadILi1EEvPfPKf", &e), 0);
    ck_assert_int_eq(gl_ptx_count_with(&e, "ld", ".v4"), 0);
    ck_assert_int_eq(gl_ptxas_usage_of(report, "_Z4loadILi4EEvPfPKf", &u), 0);
    ck_assert_int_eq(u.registers, 255);
    ck_assert_int_eq(gl_ptxas_usage_of(report, "_Z4loadILi1EEvPfPKf", &u), 0);
    ck_assert_int_eq(u.registers, 8);
}
END_TEST

START_TEST(results_round_trip)
{
    gl_result r, back;
    char key[64], value[256];
    char buf[16384];
    FILE *f = fmemopen(buf, sizeof buf, "w+");
    memset(&r, 0, sizeof r);
    strcpy(r.lab, "08-transpose");
    strcpy(r.id, "padded_33x31");
    strcpy(r.kind, "correctness");
    strcpy(r.title, "padded, 33 x 31");
    strcpy(r.message, "line one\n\tout[0][1]: expected 1, got \\nan");
    r.status = GL_FAIL;
    r.max = 2;
    r.seconds = 0.25;
    gl_fact_write(f, "gpu", "NVIDIA H100\tx");
    gl_result_write(f, &r);
    rewind(f);
    ck_assert_int_eq(gl_result_read(f, &back, key, sizeof key, value, sizeof value), 2);
    ck_assert_str_eq(key, "gpu");
    ck_assert_str_eq(value, "NVIDIA H100\tx");
    ck_assert_int_eq(gl_result_read(f, &back, key, sizeof key, value, sizeof value), 1);
    ck_assert_str_eq(back.message, r.message);
    ck_assert_str_eq(back.title, r.title);
    ck_assert_int_eq(back.status, GL_FAIL);
    ck_assert_int_eq(back.max, 2);
    ck_assert_int_eq(gl_result_read(f, &back, key, sizeof key, value, sizeof value), 0);
    fclose(f);
}
END_TEST

/* Labs graded at once share the GPU's memory: a lab waits until the one before it lets go of
 * what it holds (it ends), or gives up, saying why. */
static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

START_TEST(gpu_memory_waits_for_the_lab_before)
{
    char dir[] = "/tmp/gl-unit-mem-XXXXXX", lock[64], why[256] = "";
    size_t gib = (size_t)1 << 30;
    int ready[2], status;
    pid_t child;
    double t0;
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(lock, sizeof lock, "%s/gpu.lock", dir);
    ck_assert_int_eq(pipe(ready), 0);
    child = fork();
    if (child == 0) { /* the lab before: 3 GiB of 4, for a second */
        char w[256];
        int r = gl_gpu_memory_reserve(lock, 3 * gib - 5, 4 * gib, 5.0, w, sizeof w);
        if (write(ready[1], "x", 1) != 1 || r != 0)
            _exit(1);
        usleep(1000000);
        _exit(0);
    }
    ck_assert_int_eq(read(ready[0], why, 1), 1);
    /* 2 GiB do not fit beside it: given up after 0.3 s, saying why */
    ck_assert_int_eq(gl_gpu_memory_reserve(lock, 2 * gib, 4 * gib, 0.3, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "needs 2 GiB of its 4"));
    /* 1 GiB fits at once; then 1 more waits until the lab before has ended */
    t0 = mono();
    ck_assert_int_eq(gl_gpu_memory_reserve(lock, gib, 4 * gib, 5.0, why, sizeof why), 0);
    ck_assert(mono() - t0 < 0.5);
    ck_assert_int_eq(gl_gpu_memory_reserve(lock, gib, 4 * gib, 5.0, why, sizeof why), 0);
    ck_assert(mono() - t0 > 0.5);
    ck_assert_int_eq(waitpid(child, &status, 0), child);
    ck_assert_int_eq(status, 0);
    ck_assert_int_eq(gl_gpu_memory_reserve(NULL, 100 * gib, 4 * gib, 0.0, why, sizeof why), 0);
    for (status = -1; status < 4; status++) {
        char f[96];
        snprintf(f, sizeof f, status < 0 ? "%s.memq" : "%s.mem.%d", lock, status);
        unlink(f);
    }
    rmdir(dir);
}
END_TEST

Suite *grader_suite(void)
{
    Suite *s = suite_create("grader");
    TCase *tc = tcase_create("grader");
    tcase_add_test(tc, symbols_match_by_source_name);
    tcase_add_test(tc, entries_shared_arrays_and_instructions);
    tcase_add_test(tc, module_scope_and_dynamic_shared);
    tcase_add_test(tc, reducing_barriers_count);
    tcase_add_test(tc, shared_hazards_in_loop_order);
    tcase_add_test(tc, typed_shared_array_size);
    tcase_add_test(tc, shared_scalar_is_not_dynamic);
    tcase_add_test(tc, constant_arrays_and_names);
    tcase_add_test(tc, tid_x_scaled_by_a_row_length);
    tcase_add_test(tc, warp_centric_rows_are_not_a_stride);
    tcase_add_test(tc, ptxas_reports_old_and_new);
    tcase_add_test(tc, ncu_csv_sums_over_kernels);
    tcase_add_test(tc, ncu_csv_reads_each_kernel);
    tcase_add_test(tc, kernels_that_did_the_work);
    tcase_add_test(tc, launcher_policy_is_the_labs);
    tcase_add_test(tc, tile_pitch_of_any_shape);
    tcase_add_test(tc, template_instantiation_by_exact_name);
    tcase_add_test(tc, results_round_trip);
    tcase_add_test(tc, gpu_memory_waits_for_the_lab_before);
    suite_add_tcase(s, tc);
    return s;
}
