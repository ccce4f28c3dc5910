/* bank_conflicts.h: the interface of lab 03-bank-conflicts. Do not edit this
 * file: the grader and the demo call these functions as declared here.
 *
 * Shared memory has BC_BANKS banks of 4-byte words: word w is in bank
 * w % BC_BANKS. The row sums take an rows x BC_TILE matrix (row-major) and
 * write out[r] = in[r][0] + ... + in[r][BC_TILE - 1]; one block of BC_TILE
 * threads (one warp) handles a tile of BC_TILE rows. Launchers take device
 * pointers, launch on the default stream and return at once; rows is any
 * count >= 0 with rows * BC_TILE < 2^31 (0 launches nothing). */
#ifndef BANK_CONFLICTS_H
#define BANK_CONFLICTS_H

#define BC_BANKS 32
#define BC_TILE 32
#define BC_PROBE_WORDS 2048 /* the probe's shared array: words 0 .. 2047 */

#ifdef __cplusplus
extern "C" {
#endif

/* Given (baselines.cu): through a BC_TILE x BC_TILE tile of floats. */
void row_sums(float *out, const float *in, int rows);

/* Task 1 (bank_conflicts.cu): the same, with the tile padded. */
void row_sums_padded(float *out, const float *in, int rows);

/* Task 2 (bank_conflicts.cu, host code): lane i of a warp reads the 4-byte
 * word words[i] of shared memory (0 <= i < lanes <= 32). How many
 * wavefronts does the access take: the largest number of different words
 * that fall in one bank? Lanes reading the same word share it (broadcast).
 * 0 for lanes = 0. */
int bank_conflict_degree(const int *words, int lanes);

/* Given (baselines.cu): row_sums on doubles, through a tile of doubles. */
void row_sums_double(double *out, const double *in, int rows);

/* Task 3 (bank_conflicts.cu): the same, padded so that no column read of
 * the tile has bank conflicts. */
void row_sums_double_padded(double *out, const double *in, int rows);

/* Given (baselines.cu), for the demo: blocks of 8 warps in which lane i
 * reads shared word words[i] (a device array of 32 ints below
 * BC_PROBE_WORDS), iters times; its time shows the pattern's cost. */
void bank_probe(int *sink, const int *words, int iters);

#ifdef __cplusplus
}
#endif
#endif
