/* stencil.cu: lab 14-stencil (reference solution).
 *
 * The tiled kernels run blocks of TILE x BLOCK_ROWS threads, each block computing a
 * TILE x TILE tile of out: thread (x, y) computes the 4 pixels of column x in rows 4y to
 * 4y + 3 of it.
 * The kernels this starts from are in labs/14-stencil/baselines.cu. */
#include "stencil.h"

#include <string.h>

#define HALO_TILE (TILE + 2 * RADIUS) /* 40: a tile of out and its halo, each way */
#define PER_THREAD (TILE / BLOCK_ROWS) /* 4: the pixels of out a thread of a tile computes */

/* Task 1: the block's window, its TILE x TILE pixels and RADIUS more on each side, is read
 * from global memory once into shared memory, then every read of a window pixel is a
 * shared-memory read. */
__global__ void stencil_shared_kernel(float *out, const float *in, int rows, int cols, int pitch)
{
    __shared__ float tile[HALO_TILE][HALO_TILE];

    int row0 = blockIdx.y * TILE - RADIUS; /* the image pixel that tile[0][0] holds */
    int col0 = blockIdx.x * TILE - RADIUS;

    /* the block's 256 threads load the 40 x 40 tile, consecutive threads along its rows;
     * a pixel outside the image is the nearest edge pixel, as in the given kernels */
    for (int i = threadIdx.y * TILE + threadIdx.x; i < HALO_TILE * HALO_TILE;
         i += TILE * BLOCK_ROWS) {
        int ty = i / HALO_TILE, tx = i % HALO_TILE;
        int r = min(max(row0 + ty, 0), rows - 1);
        int c = min(max(col0 + tx, 0), cols - 1);
        tile[ty][tx] = in[r * pitch + c];
    }

    __syncthreads(); /* the whole tile is loaded before any thread reads it */

    /* The thread's PER_THREAD pixels lie one under another, so their windows overlap: the
     * 12 x 9 tile elements they cover are each read from shared memory once, into a register,
     * and added to every sum whose window holds them (108 shared reads for 4 pixels, not 324).
     * Each sum still adds its window row by row, as the given kernels do. */
    int first = threadIdx.y * PER_THREAD; /* the thread's first row in the tile */
    float sum[PER_THREAD] = {0.0f};
#pragma unroll
    for (int ty = 0; ty < PER_THREAD + 2 * RADIUS; ty++)
#pragma unroll
        for (int dx = -RADIUS; dx <= RADIUS; dx++) {
            float v = tile[first + ty][threadIdx.x + RADIUS + dx];
#pragma unroll
            for (int j = 0; j < PER_THREAD; j++) {
                int dy = ty - j - RADIUS; /* v's row in pixel j's window */
                if (dy >= -RADIUS && dy <= RADIUS)
                    sum[j] += stencil_weight(dy, dx) * v;
            }
        }

    int col = blockIdx.x * TILE + threadIdx.x;
    for (int j = 0; j < PER_THREAD; j++) {
        int row = blockIdx.y * TILE + first + j;
        if (row < rows && col < cols)
            out[row * cols + col] = sum[j];
    }
}

/* Task 2: every read is a texture fetch. The texture clamps a coordinate outside the image
 * to its edge, so the kernel has no edge code; x is the column, y the row, and a pixel's
 * centre is at (col + 0.5, row + 0.5). */
__global__ void stencil_texture_kernel(float *out, cudaTextureObject_t image, int rows, int cols)
{
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * BLOCK_ROWS + threadIdx.y;
    if (row >= rows || col >= cols)
        return;

    float sum = 0.0f;
#pragma unroll
    for (int dy = -RADIUS; dy <= RADIUS; dy++)
#pragma unroll
        for (int dx = -RADIUS; dx <= RADIUS; dx++)
            sum += stencil_weight(dy, dx) *
                   tex2D<float>(image, col + dx + 0.5f, row + dy + 0.5f);
    out[row * cols + col] = sum;
}

/* Task 2: a texture object over the pitched image: one float a texel, read as it is
 * stored (no conversion, no filtering), addressed in pixels, clamped at every edge. */
static cudaTextureObject_t image_texture(const float *in, int rows, int cols, int pitch)
{
    struct cudaResourceDesc resource;
    struct cudaTextureDesc sampling;
    cudaTextureObject_t texture = 0;

    memset(&resource, 0, sizeof resource);
    resource.resType = cudaResourceTypePitch2D;
    resource.res.pitch2D.devPtr = (void *)in;
    resource.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    resource.res.pitch2D.width = cols;
    resource.res.pitch2D.height = rows;
    resource.res.pitch2D.pitchInBytes = (size_t)pitch * sizeof(float);

    memset(&sampling, 0, sizeof sampling);
    sampling.addressMode[0] = cudaAddressModeClamp; /* x: columns */
    sampling.addressMode[1] = cudaAddressModeClamp; /* y: rows */
    sampling.filterMode = cudaFilterModePoint;      /* the texel itself, no interpolation */
    sampling.readMode = cudaReadModeElementType;    /* the float as stored */
    sampling.normalizedCoords = 0;                  /* coordinates in pixels, not in [0, 1) */

    cudaCreateTextureObject(&texture, &resource, &sampling, NULL);
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
