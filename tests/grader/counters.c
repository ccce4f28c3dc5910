/* counters.c: the Nsight Compute ratios that several labs read kernel by kernel (grader.h,
 * GL_COUNTER): a ratio and the counters behind it, said once, so that every lab measures
 * coalescing and bank conflicts with the same metrics and the same words. */
#include "grader.h"

#include <stdio.h>

static void load_requests(const double *v, char *out, size_t len)
{
    snprintf(out, len, "%.0f global load requests, %.0f sectors", v[0], v[1]);
}

const gl_counter gl_global_load_sectors = {
    "sectors of 32 bytes per global load request",
    (const char *const[]){"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
    2, 1u << 1, 1u << 0, load_requests};

static void shared_loads(const double *v, char *out, size_t len)
{
    snprintf(out, len, "%.0f loads, %.0f wavefronts, %.0f counted as bank conflicts", v[1], v[0],
             v[2]);
}

const gl_counter gl_shared_load_wavefronts = {
    "shared-memory wavefronts per shared load",
    (const char *const[]){"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                          "smsp__sass_inst_executed_op_shared_ld.sum",
                          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"},
    3, 1u << 0, 1u << 1, shared_loads};
