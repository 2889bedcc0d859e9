// Image brightness: the first kernel lets threadIdx.x walk down a column
// (x and y swapped), so a warp's 16 lanes touch 16 rows. The second maps x
// to the column. The third pads rows to a pitch that is not a multiple of
// 32 bytes, so every other row starts mid-sector.
#include <cuda_runtime.h>

__global__ void brighten_swapped(const unsigned char* in, unsigned char* out, int width, int height) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < height && col < width)
        out[row * width + col] = min(in[row * width + col] + 40, 255);
}

__global__ void brighten(const unsigned char* in, unsigned char* out, int width, int height) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < height && col < width)
        out[row * width + col] = min(in[row * width + col] + 40, 255);
}

__global__ void brighten_rgba(const uchar4* in, uchar4* out, int pitch, int width) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    const uchar4* src = (const uchar4*)((const char*)in + row * pitch);
    uchar4 p = src[col];
    p.x = min(p.x + 40, 255);
    out[row * width + col] = p;
}

void run(const unsigned char* d_in, unsigned char* d_out, const uchar4* d_rgba, uchar4* d_rgba_out) {
    const int width = 1920, height = 1080;
    dim3 block(16, 16);
    dim3 grid(width / 16, height / 16);
    brighten_swapped<<<dim3(height / 16, width / 16), block>>>(d_in, d_out, width, height);
    brighten<<<grid, block>>>(d_in, d_out, width, height);
    brighten_rgba<<<grid, block>>>(d_rgba, d_rgba_out, 1920 * 4 + 16, width);
}
