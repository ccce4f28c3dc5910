/* inspect.h: reading the technique out of the student's compiled file, with
 * no GPU: the PTX (nvcc -ptx) and the ptxas resource report (-Xptxas -v). Nsight Compute's
 * counters: ncu_csv.h.
 *
 * Kernels are found by their source name ("transpose_padded_kernel"), whether
 * it is mangled (_Z23transpose_padded_kernelPfPKfii) or extern "C". */
#ifndef GL_INSPECT_H
#define GL_INSPECT_H

#include <stddef.h>
#include <stdlib.h>

typedef struct gl_ptx_entry_s {
    const char *name; /* the entry's PTX name */
    size_t name_len;
    const char *body; /* from its opening brace to its closing one */
    size_t body_len;
} gl_ptx_entry;

typedef struct {
    char name[256];
    long bytes;  /* -1 for extern (dynamic) shared memory */
    int align;
} gl_ptx_shared;

/* Does a (mangled or plain) symbol name denote the source name `kernel`? */
int gl_symbol_is(const char *symbol, size_t len, const char *kernel);

/* Finds the .entry of kernel in ptx; 0 if found, -1 if not. */
int gl_ptx_entry_find(const char *ptx, const char *kernel, gl_ptx_entry *e);

/* The .shared arrays the entry uses: declared in its body, or declared at
 * module scope and named in its body. Returns how many (at most max). */
int gl_ptx_shared_arrays(const char *ptx, const gl_ptx_entry *e, gl_ptx_shared *out, int max);

/* How many instructions of the entry start with opcode (e.g. "ld.shared",
 * "bar.sync", "ld.global.v4"): the opcode must be followed by '.' or space. */
int gl_ptx_count(const gl_ptx_entry *e, const char *opcode);

/* Does the entry's body name identifier id (a module-scope array it reads, say) as a whole
 * word? */
int gl_ptx_names(const gl_ptx_entry *e, const char *id);

/* The size in bytes of the module-scope .const array `symbol` (a __constant__ array) the PTX
 * declares ("[.visible] .const .align 4 .b8 c_coeffs[2048]"), or -1 when it declares none. */
long gl_ptx_const_bytes(const char *ptx, const char *symbol);

/* How many barriers (__syncthreads: bar.sync, or barrier.sync in newer PTX;
 * __syncthreads_count/_and/_or: bar.red, barrier.red). */
int gl_ptx_barriers(const gl_ptx_entry *e);

/* How many instructions of the entry start with opcode and carry modifier
 * among their modifiers: ("ld.global", ".v4") counts ld.global.v4.u32 and
 * ld.global.nc.v4.s32. */
int gl_ptx_count_with(const gl_ptx_entry *e, const char *opcode, const char *modifier);

/* Does a value computed from %tid.x get multiplied by a run-time value (a
 * register, not a constant such as the element size)? In a 2D kernel that
 * is threadIdx.x walking the rows: row * cols with row from threadIdx.x.
 * Follows registers through the entry (a taint from %tid.x); when it finds
 * one, writes the instruction into why. */
int gl_ptx_scales_tid_x(const gl_ptx_entry *e, char *why, size_t len);

/* How many atomic adds on floating-point values the entry has (atom or red: .add.f32, .add.f64,
 * and the half types' .add.noftz.f16, .f16x2, .bf16, .bf16x2): atomicAdd on a float, a double
 * or a half. */
int gl_ptx_float_atomic_adds(const gl_ptx_entry *e);

/* One instruction of an entry, for a message. */
typedef struct {
    int at;          /* its place among the entry's statements; -1: there is none */
    char text[128];  /* as written, guard included, words one space apart, no ';' */
    char guard[16];  /* @%p1, @!%p1 or "" */
} gl_ptx_insn;

/* The last block's pattern in an entry: the block stores its partial, fences, draws a
 * ticket (inspect_fence.c). Every instruction is -1 where the entry has none. */
typedef struct {
    gl_ptx_insn ticket;       /* the first ticket drawn */
    gl_ptx_insn store;        /* the partial: the last store to global memory before the ticket */
    gl_ptx_insn fence;        /* the last GPU-wide fence between them (membar.gl, fence.sc.gpu,
                                 fence.acq_rel.gpu); the ticket itself where it releases at GPU
                                 scope (atom.release.gpu, .acq_rel) */
    gl_ptx_insn block_fence;  /* the last block-wide fence between them (__threadfence_block:
                                 membar.cta, fence...cta or .cluster) */
    gl_ptx_insn fence_after;  /* the first GPU-wide fence after the ticket */
    gl_ptx_insn fence_before; /* the last GPU-wide fence before the store */
    gl_ptx_insn skip;         /* where skipped: the branch that leads around the fence (-1 where
                                 the fence's own guard does) */
    int fences;               /* memory fences of any scope in the entry */
    int skipped;              /* a path from the store to the ticket passes no GPU-wide fence */
    int apart;                /* store and ticket may run on different threads: not on one
                                 straight path, and a path between them passes no barrier */
} gl_last_block;

/* What draws a ticket: atomicInc (atom.inc), an integer atomicAdd (atom.add.u32, ...). */
enum { GL_TICKET_INC = 1, GL_TICKET_ADD = 2, GL_TICKET_INC_OR_ADD = 3 };

/* Reads the last block's pattern out of an entry: the first ticket of a kind in tickets, the
 * store of the partial before it (with partial_param >= 0, the last store through that
 * parameter's pointer, or any global store if the entry stores through it nowhere), the
 * fences around them and the paths between them. Returns 0, or -1 if it draws no ticket
 * (or memory ran out). */
int gl_ptx_last_block(const gl_ptx_entry *e, int tickets, int partial_param, gl_last_block *lb);
/* Fails the test unless kernel's entry e has the last block's pattern in order
 * (gl_ptx_last_block): the partial stored, then a GPU-wide fence (__threadfence) on every path
 * from the store to the ticket, then the ticket, the store and the ticket on one thread.
 * partial: the store in the lab's words ("partial[blockIdx.x]"); why, the lab's sentence that
 * ends every failure: what a fence out of place costs, and the pattern in the lab's code. */
void gl_expect_last_block(const gl_ptx_entry *e, const char *kernel, int tickets,
                          int partial_param, const char *partial, const char *why);

typedef struct {
    int registers;
    long smem_bytes;          /* static shared memory */
    long stack_bytes;
    long spill_stores, spill_loads;
    int barriers;
} gl_ptxas_usage;

/* Reads the ptxas -v report for kernel; 0 if found, -1 if not. */
int gl_ptxas_usage_of(const char *report, const char *kernel, gl_ptxas_usage *u);

/* ---- a technique claim stated once: each fails the test (Check) with the lab's sentence ---- */

/* The entries these take come from gl_kernel_entry (grader.h, harness.c). */

/* Fails the test unless kernel's entry e has at least at_least barriers (__syncthreads: bar.sync,
 * gl_ptx_barriers): "K has N barriers (__syncthreads, bar.sync in its PTX): why". */
void gl_expect_barriers(const gl_ptx_entry *e, const char *kernel, int at_least, const char *why);

/* Fails the test unless kernel's entry e both writes (st.shared) and reads (ld.shared) shared
 * memory: "K does not both write and read shared memory (N st.shared, M ld.shared in its PTX):
 * why". */
void gl_expect_shared_rw(const gl_ptx_entry *e, const char *kernel, const char *why);

/* Fails the test unless kernel's entry e sums within a warp in registers: shuffles down
 * (__shfl_down_sync: shfl.sync.down), butterflies (__shfl_xor_sync: shfl.sync.bfly; cg::reduce
 * on older GPUs) or the warp-wide reduction (__reduce_add_sync, cg::reduce: redux.sync):
 * "K has no shuffle (shfl.sync.down or .bfly, or redux.sync) in its PTX: why". */
void gl_expect_warp_reduction(const gl_ptx_entry *e, const char *kernel, const char *why);

/* Fails the test unless kernel's entry e uses threadIdx.x and lets it walk along a row: no value
 * computed from it multiplied by a run-time value (gl_ptx_scales_tid_x): "in K a value computed
 * from threadIdx.x is multiplied by a run-time value (<instruction>): threadIdx.x picks the row,
 * so <apart>. Let threadIdx.x pick the column: ...", apart saying what that costs in the lab's
 * words ("the 32 threads of a warp are a whole row apart"). */
void gl_expect_tid_x_along_row(const gl_ptx_entry *e, const char *kernel, const char *apart);

/* The first hazard among e's shared-memory stores, loads and barriers (bar.sync) in the order
 * of its PTX, read as a loop runs them (the end wraps around to the start: the next step): a
 * store followed by a load with no barrier in between (GL_READ_AFTER_WRITE: a thread may read
 * an element another has not written yet), or a load followed by a store (GL_WRITE_AFTER_READ:
 * it may overwrite one another still reads); 0 when barriers separate them all
 * (inspect_hazard.c). */
enum { GL_READ_AFTER_WRITE = 1, GL_WRITE_AFTER_READ = 2 };
int gl_ptx_shared_hazard(const gl_ptx_entry *e);

/* ---- a kernel's resources in the student's build (inspect_resources.c) ---- */

/* kernel's ptxas -v report, its shared memory plus the largest dynamic shared memory a launch
 * gave it (ptxas counts static arrays only). Fails the test when the report has no kernel. */
void gl_kernel_ptxas(const char *kernel, gl_ptxas_usage *u);
/* All of kernel's __shared__ arrays in bytes (gl_kernel_shared_total). Fails the test when it
 * has none ("K has no __shared__ array. <lesson>") or an extern one no launch sized. */
long gl_kernel_shared_declared(const char *kernel, const char *lesson);
/* Fails the test unless kernel's __shared__ arrays hold at least min_bytes (need: them in the
 * lab's words, "a BM x BK tile of A and a BK x BN tile of B") and ptxas reserves as much (an
 * array the kernel never uses is dropped). Returns the bytes declared. */
long gl_expect_shared_at_least(const char *kernel, long min_bytes, const char *need,
                               const char *lesson);
/* Fails the test when kernel uses local memory (ld.local / st.local in its PTX; a stack frame
 * or spills in the ptxas report): "K uses local memory: ... <why>". Returns its registers. */
int gl_expect_no_local_memory(const char *kernel, const char *why);

#include "ncu_csv.h"

/* The row pitch of a tile of elems elements with `rows` rows (or rows + 1, or several such
 * buffers: [33][33], [2][32][33]), a pitch of rows to 2 x rows elements: one that is not a
 * multiple of modulus if there is one, else one that is; 0 when elems is no such tile. */
long gl_tile_pitch(long elems, int rows, int modulus);

#endif
