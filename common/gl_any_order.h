/* gl_any_order.h: an output whose slots come in any order, as values appended through an
 * atomic counter do (which thread gets which slot is a race; the values are not): compared
 * with the expected output exactly, as multisets, on the GPU, and what differs said in words.
 * Both sides are poisoned before they are written, so that the slots never written are known;
 * a value equal to the poison counts as never written. */
#ifndef GL_ANY_ORDER_H
#define GL_ANY_ORDER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The n 32-bit words at got against those at expected (device pointers), each side in any
 * order: right when the same slots were written and the written words are the same multiset.
 * Returns 0 when right, else -1 with why (len bytes), name naming the output: "wrote out[7] =
 * 12, past the 5 values of a right result: nothing is written from out[5] on", or "out[0, 5)
 * does not hold the right values, in any order: 2 of them are missing (e.g. 17); 2 slots of
 * out[0, 5) were never written (still the poison)". */
int gl_any_order_check(const void *expected, const void *got, size_t n, const char *name,
                       char *why, size_t len);

/* The same comparison on the GPU (gl_any_order_gpu.cu): 0 when right, else how many slots are
 * written on one side only or, where none is, how many sorted words differ; -1 where the
 * toolkit has no CUB to sort them (gl_any_order_check then compares on the host). */
long long gl_device_diff_any_order(const void *expected, const void *got, size_t n);

#ifdef __cplusplus
}
#endif
#endif
