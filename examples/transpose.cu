// Matrix transpose: the naive kernel reads rows coalesced but writes
// columns, one 32-byte sector per lane. The tiled kernel stages a 32x32
// tile in shared memory (padded to 33 columns against bank conflicts) so
// that both the read and the write walk rows.
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_naive(const float* in, float* out, int width, int height) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[x * height + (y + j)] = in[(y + j) * width + x];
}

__global__ void transpose_tiled(const float* in, float* out, int width, int height) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(const float* d_in, float* d_out, int width, int height) {
    dim3 block(TILE, ROWS);
    dim3 grid(width / TILE, height / TILE);
    transpose_naive<<<grid, block>>>(d_in, d_out, width, height);
    transpose_tiled<<<grid, block>>>(d_in, d_out, width, height);
}
