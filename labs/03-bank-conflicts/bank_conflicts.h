/* bank_conflicts.h: the interface of lab 03-bank-conflicts. Do not edit this
 * file: the grader and the demo call these functions as declared here.
 *
 * Shared memory has BC_BANKS banks of 4-byte words: word w is in bank
 * w % BC_BANKS. The tile Gram matrices take an rows x BC_TILE matrix `in`
 * (row-major) and cut it into tiles of BC_TILE consecutive rows; for each
 * tile, whose first row is `first`, they write the BC_TILE x BC_TILE matrix
 * of the dot products of its rows (T T^T for the tile T) into the tile's
 * rows of `out`, also rows x BC_TILE:
 *
 *   out[i][j] = sum over k of in[i][k] * in[first + j][k]   (first <= i < first + BC_TILE)
 *
 * A last tile of fewer than BC_TILE rows counts the missing rows as rows of
 * zeros: out[i][j] = 0 where row first + j does not exist. One block of
 * BC_TILE x BC_TILE threads handles a tile. Launchers take device pointers,
 * launch on the default stream and return at once; rows is any count >= 0
 * with rows * BC_TILE < 2^31 (0 launches nothing). */
#ifndef BANK_CONFLICTS_H
#define BANK_CONFLICTS_H

#define BC_BANKS 32
#define BC_TILE 32
#define BC_PROBE_WORDS 2048 /* the probe's shared array: words 0 .. 2047 */

#ifdef __cplusplus
extern "C" {
#endif

/* Given (baselines.cu): through a BC_TILE x BC_TILE tile of floats. */
void tile_gram(float *out, const float *in, int rows);

/* Task 1 (bank_conflicts.cu): the same, with the tile padded. */
void tile_gram_padded(float *out, const float *in, int rows);

/* Task 2 (bank_conflicts.cu, host code): lane i of a warp reads the 4-byte
 * word words[i] of shared memory (0 <= i < lanes <= 32). How many
 * wavefronts does the access take: the largest number of different words
 * that fall in one bank? Lanes reading the same word share it (broadcast).
 * 0 for lanes = 0. */
int bank_conflict_degree(const int *words, int lanes);

/* Given (baselines.cu): tile_gram on doubles, through a tile of doubles. */
void tile_gram_double(double *out, const double *in, int rows);

/* Task 3 (bank_conflicts.cu): the same, padded so that no column read of
 * the tile has bank conflicts. */
void tile_gram_double_padded(double *out, const double *in, int rows);

/* Given (baselines.cu), for the demo: blocks of 8 warps in which lane i
 * reads shared word words[i] (a device array of 32 ints below
 * BC_PROBE_WORDS), iters times; its time shows the pattern's cost. */
void bank_probe(int *sink, const int *words, int iters);

#ifdef __cplusplus
}
#endif
#endif
