#include "lib.cuh"

const int STRIDE = 4;

// a column walk
__global__ void columns(float* out, const float* in, int n) {
    int r = blockIdx.x * blockDim.y + threadIdx.y;
    int c = /* lane */ threadIdx.x;
    store(out, r * 1024 + c, load(in, c * 1024 + r));
}

__global__ void strided(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ float tile[TILE][TILE];
    // load
    tile[threadIdx.x][threadIdx.y] = in[i * STRIDE];
    __syncthreads();
    out[i] = tile[threadIdx.y][threadIdx.x]; // back out
}

void launch_all(float* out, const float* in, Particle* p, int n) {
    dim3 block(16, 16);
    columns<<<n / 256, block>>>(out, in, n);
    strided<<<n / 256, dim3(32, 8)>>>(out, in);
    scale<float><<<n / 256, 256>>>(out, in, n);
    particles<<<(n + 127) / 128, 128>>>(p, out, n);
}

int main() {
    launch_all(nullptr, nullptr, nullptr, 1 << 20);
    return 0;
}
