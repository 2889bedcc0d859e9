// Probes for predicated copies (issue 18): where a few plain statements
// run under a condition that differs by lane, does nvcc predicate them
// (every warp reaching the if issues the instruction, and Nsight counts
// it: its sectors per instruction fall with the warps whose lanes are all
// off) or branch around them? Both sides of every condition the model
// reads (analyzer/warp/predication.go): code after the if or the kernel's
// end; one, three or five statements; a loop in the body; a helper with
// a loop called in it; a tail guard; block sizes of 128, 256 and 512.
// measure8.sh builds and measures it (source8.csv.gz, sass8.txt). One
// access per line; every kernel launched once.
#include <cuda_runtime.h>

// Thread 0 stores, then the block synchronises: predicated? 1/8 under 256.
__global__ void p_t0_mid(float* o, float* x) {
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        o[blockIdx.x] = s[7];
    __syncthreads();
    x[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x ^ 1];
}
// The same store as the kernel's last statement: the others exit first?
__global__ void p_t0_end(float* o) {
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        o[blockIdx.x] = s[7];
}
// Thread 0 loads a value the block shares: a load, predicated?
__global__ void p_t0_load(float* o, const float* x) {
    __shared__ float v;
    if (threadIdx.x == 0)
        v = x[blockIdx.x];
    __syncthreads();
    o[blockIdx.x * blockDim.x + threadIdx.x] = v * threadIdx.x;
}
// Three statements under the condition.
__global__ void p_t0_three(float* o, float* x) {
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
        o[blockIdx.x] = s[1];
        o[blockIdx.x + 4096] = s[2];
        o[blockIdx.x + 8192] = s[3];
    }
    __syncthreads();
    x[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x ^ 1];
}
// Five statements: past the model's limit of three.
__global__ void p_t0_five(float* o, float* x) {
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
        o[blockIdx.x] = s[1];
        o[blockIdx.x + 4096] = s[2];
        o[blockIdx.x + 8192] = s[3];
        o[blockIdx.x + 12288] = s[4];
        o[blockIdx.x + 16384] = s[5];
    }
    __syncthreads();
    x[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x ^ 1];
}
// A loop in the body: a branch?
__global__ void p_t0_loop(float* o, float* x, int n) {
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int k = 0; k < n; k++)
            o[blockIdx.x * 64 + k] = s[k];
    }
    __syncthreads();
    x[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x ^ 1];
}
__device__ void fill(float* o, const float* s, int n) {
    for (int k = 0; k < n; k++)
        o[k] = s[k];
}
// A helper with a loop called in the body: a branch?
__global__ void p_t0_call(float* o, float* x, int n) {
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
        fill(o + blockIdx.x * 64, s, n);
        o[blockIdx.x * 64 + 63] = s[9];
    }
    __syncthreads();
    x[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x ^ 1];
}
// Under 512 threads and 128: 1/16 and 1/4?
__global__ void p_t0_512(float* o, float* x) {
    __shared__ float s[512];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        o[blockIdx.x] = s[7];
    __syncthreads();
    x[blockIdx.x * 512 + threadIdx.x] = s[threadIdx.x ^ 1];
}
__global__ void p_t0_128(float* o, float* x) {
    __shared__ float s[128];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        o[blockIdx.x] = s[7];
    __syncthreads();
    x[blockIdx.x * 128 + threadIdx.x] = s[threadIdx.x ^ 1];
}
// A tail guard with code after it: the last block's warps past n issue?
__global__ void p_tail_mid(float* o, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ float s[256];
    s[threadIdx.x] = 0;
    if (i < n)
        s[threadIdx.x] = x[i];
    __syncthreads();
    o[i] = s[threadIdx.x ^ 1];
}
// The same guard at the kernel's end.
__global__ void p_tail_end(float* o, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        o[i] = x[i] * 2;
}
// A warp's lane condition: lane 0 of each warp stores, then more code.
__global__ void p_lane0_mid(float* o, float* x) {
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x % 32 == 0)
        o[blockIdx.x * 8 + threadIdx.x / 32] = s[threadIdx.x + 1];
    __syncthreads();
    x[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x ^ 1];
}

int main() {
    float *o, *x;
    cudaMalloc(&o, 64 << 20);
    cudaMalloc(&x, 64 << 20);
    cudaMemset(x, 0, 64 << 20);
    cudaMemset(o, 0, 64 << 20);
    p_t0_mid<<<64, 256>>>(o, x);
    p_t0_end<<<64, 256>>>(o);
    p_t0_load<<<64, 256>>>(o + (1 << 20), x);
    p_t0_three<<<64, 256>>>(o, x);
    p_t0_five<<<64, 256>>>(o, x);
    p_t0_loop<<<64, 256>>>(o, x, 8);
    p_t0_call<<<64, 256>>>(o, x, 8);
    p_t0_512<<<64, 512>>>(o, x);
    p_t0_128<<<64, 128>>>(o, x);
    // 16 blocks of 256 for n = 3880: the last block's lanes 40..255 fail
    // the guard, its warps 2..7 wholly.
    p_tail_mid<<<16, 256>>>(o, x, 3880);
    p_tail_end<<<16, 256>>>(o, x, 3880);
    p_lane0_mid<<<64, 256>>>(o, x);
    return cudaDeviceSynchronize() != cudaSuccess;
}
