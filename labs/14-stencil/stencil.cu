/* stencil.cu: lab 14-stencil. Your file: the only one graded.
 *
 * The tiled kernels run blocks of TILE x BLOCK_ROWS threads, each block computing a
 * TILE x TILE tile of out: thread (x, y) computes the 4 pixels of column x in rows 4y to
 * 4y + 3 of it.
 * Start from the given kernels in baselines.cu. README.md tells the story and the tasks;
 * `make run LAB=14` shows where you are, `make check LAB=14` grades it. */
#include "stencil.h"

#include <string.h>

#define HALO_TILE (TILE + 2 * RADIUS) /* 40: a tile of out and its halo, each way */
#define PER_THREAD (TILE / BLOCK_ROWS) /* 4: the pixels of out a thread of a tile computes */

/* TODO(1): the shared tile with its halo (README.md, task 1).
 *  1. Declare a HALO_TILE x HALO_TILE tile of floats in shared memory: the block's
 *     TILE x TILE pixels and RADIUS more on every side.
 *  2. Load it with all the block's threads: tile[ty][tx] holds the image pixel
 *     (blockIdx.y * TILE - RADIUS + ty, blockIdx.x * TILE - RADIUS + tx), its row and column
 *     clamped into the image as the given kernels clamp them. 40 x 40 elements over 256
 *     threads: let thread i = threadIdx.y * TILE + threadIdx.x take elements i, i + 256, ...
 *     Rows of `in` are `pitch` floats apart, not `cols`.
 *  3. Make every thread wait until the whole tile is loaded.
 *  4. Thread (x, y) computes the PER_THREAD = 4 pixels (blockIdx.y * TILE + 4 * threadIdx.y
 *     + j, blockIdx.x * TILE + threadIdx.x), j = 0 .. 3: one sum each. Their windows overlap,
 *     so read each tile element they cover once: for each of the PER_THREAD + 2 * RADIUS = 12
 *     tile rows from row 4 * threadIdx.y, and each dx, read tile[row][threadIdx.x + RADIUS +
 *     dx] into a register and add stencil_weight(dy, dx) times it to the sum of every pixel j
 *     whose window holds that row (dy = row - 4 * threadIdx.y - j - RADIUS in [-RADIUS,
 *     RADIUS]). Then write the pixels that are in the image. */
__global__ void stencil_shared_kernel(float *out, const float *in, int rows, int cols, int pitch)
{
    /* TODO(1) */
}

/* TODO(2), the kernel (README.md, task 2): as stencil_global_kernel in baselines.cu, one
 * thread a pixel, but each read is tex2D<float>(image, x, y), x the column and y the row, and
 * there is no clamping: the texture clamps. A pixel's centre is at (col + 0.5f, row + 0.5f). */
__global__ void stencil_texture_kernel(float *out, cudaTextureObject_t image, int rows, int cols)
{
    /* TODO(2) */
}

/* TODO(2), the texture (README.md, task 2): describe the image (cudaResourceDesc: a
 * cudaResourceTypePitch2D resource of cols x rows floats, rows pitch * sizeof(float) bytes
 * apart) and how to sample it (cudaTextureDesc: clamped in x and y, point sampling, the
 * float as stored, coordinates in pixels), then create it with cudaCreateTextureObject.
 * Clear both structures (memset) before you fill them. */
static cudaTextureObject_t image_texture(const float *in, int rows, int cols, int pitch)
{
    cudaTextureObject_t texture = 0;
    /* TODO(2) */
    (void)in, (void)rows, (void)cols, (void)pitch;
    return texture;
}

/* One block per TILE x TILE tile of out: blockIdx.x walks its columns, blockIdx.y its rows. */
void stencil_shared(float *out, const float *in, int rows, int cols, int pitch)
{
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    dim3 block(TILE, BLOCK_ROWS);
    if (rows > 0 && cols > 0)
        stencil_shared_kernel<<<grid, block>>>(out, in, rows, cols, pitch);
}

/* Given: the launcher returns at once, while its kernel may still read the texture, and the
 * CUDA documentation does not say that a texture object may be destroyed while a kernel that
 * reads it is queued or running (cudaDestroyTextureObject: "use of the handle after this call
 * is undefined behavior"). So each call's texture object lives on in a ring of TEXTURES, and
 * is destroyed TEXTURES calls later, once the event recorded after its kernel has passed
 * (long since, in practice: the wait costs nothing). */
#define TEXTURES 64
static cudaTextureObject_t texture_ring[TEXTURES];
static cudaEvent_t texture_read[TEXTURES]; /* recorded after the kernel that reads it */
static int texture_next;

void stencil_texture(float *out, const float *in, int rows, int cols, int pitch)
{
    dim3 grid((cols + TILE - 1) / TILE, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    dim3 block(TILE, BLOCK_ROWS);
    int slot = texture_next;
    if (rows <= 0 || cols <= 0)
        return;
    texture_next = (texture_next + 1) % TEXTURES;
    if (!texture_read[slot])
        cudaEventCreateWithFlags(&texture_read[slot], cudaEventDisableTiming);
    else
        cudaEventSynchronize(texture_read[slot]); /* its last reader is done */
    if (texture_ring[slot])
        cudaDestroyTextureObject(texture_ring[slot]);
    texture_ring[slot] = image_texture(in, rows, cols, pitch);
    stencil_texture_kernel<<<grid, block>>>(out, texture_ring[slot], rows, cols);
    cudaEventRecord(texture_read[slot], 0);
}
