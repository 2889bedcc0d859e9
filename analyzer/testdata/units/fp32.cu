#include "common.cuh"

// Strided: neighbouring lanes are 32 elements apart.
__device__ float load(const floatX* p, int i) { return p[i * 32]; }

__global__ void layernorm_forward_kernel1(float* out, const floatX* inp) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = load(inp, i);
}

static int block_size() { return 64; }

void run(float* out, floatX* inp) {
    layernorm_forward_kernel1<<<64, block_size()>>>(out, inp);
    scale_kernel<<<64, 512>>>(inp);
}
