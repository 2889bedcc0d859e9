// Probes for what nvcc makes of adjacent scalar accesses of one thread
// (issue 18): does it merge them into one LDS/STS/LDG/STG.64 or .128, and
// what does the merged instruction cost? Both sides of every condition:
// alignment provable or not, float / half / half2, loads / stores, shared
// / global, 2 / 4 / 8 adjacent, loop unrolled or not, a store between
// that may alias. measure7.sh builds and measures it (source7.csv.gz,
// sass7.txt). One access per line; every kernel launched once.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define T 256
// 8 adjacent floats, unrolled: 2 LDS.128? lanes 32 bytes apart
__global__ void s_f8(float* o) {
    __shared__ float s[8 * T];
    int t = threadIdx.x;
    s[t] = t; // written, or nvcc may fold the loads away
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        a += s[t * 8 + i];
    o[blockIdx.x * T + t] = a;
}
// 4 adjacent floats, unrolled, lanes 16 bytes apart: LDS.128, no conflict?
__global__ void s_f4(float* o) {
    __shared__ float s[4 * T];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 4; i++)
        a += s[t * 4 + i];
    o[blockIdx.x * T + t] = a;
}
// two adjacent floats as two statements: LDS.64?
__global__ void s_f2(float* o) {
    __shared__ float s[2 * T];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = s[t * 2];
    float b = s[t * 2 + 1];
    o[blockIdx.x * T + t] = a * b;
}
// an offset the compiler cannot know: no merge?
__global__ void s_f4_k(float* o, int k) {
    __shared__ float s[4 * T + 8];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 4; i++)
        a += s[t * 4 + k + i];
    o[blockIdx.x * T + t] = a;
}
// an odd constant offset: 4-byte aligned only
__global__ void s_f4_odd(float* o) {
    __shared__ float s[4 * T + 8];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 4; i++)
        a += s[t * 4 + 1 + i];
    o[blockIdx.x * T + t] = a;
}
// the loop kept: one LDS per iteration?
__global__ void s_f4_loop(float* o) {
    __shared__ float s[4 * T];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = 0;
#pragma unroll 1
    for (int i = 0; i < 4; i++)
        a += s[t * 4 + i];
    o[blockIdx.x * T + t] = a;
}
// 4 adjacent float stores, unrolled: STS.128?
__global__ void s_f4_st(float* o) {
    __shared__ float s[4 * T];
    int t = threadIdx.x;
#pragma unroll
    for (int i = 0; i < 4; i++)
        s[t * 4 + i] = t + i;
    __syncthreads();
    o[blockIdx.x * T + t] = s[(t * 5) % (4 * T)];
}
// floats 64 bytes apart per lane, 4 adjacent: LDS.128 with conflicts
__global__ void s_f4_wide(float* o) {
    __shared__ float s[16 * T];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 4; i++)
        a += s[t * 16 + i];
    o[blockIdx.x * T + t] = a;
}
// a store between two adjacent loads that may alias the second
__global__ void s_f2_alias(float* o, int j) {
    __shared__ float s[2 * T];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = s[t * 2];
    s[j] = a;
    float b = s[t * 2 + 1];
    o[blockIdx.x * T + t] = a * b;
}
// two adjacent halves: one 32-bit LDS?
__global__ void s_h2(float* o) {
    __shared__ __half s[2 * T];
    int t = threadIdx.x;
    s[t] = __float2half(t);
    __syncthreads();
    __half a = s[t * 2];
    __half b = s[t * 2 + 1];
    o[blockIdx.x * T + t] = __half2float(a) * __half2float(b);
}
// 8 adjacent halves, unrolled: one LDS.128?
__global__ void s_h8(float* o) {
    __shared__ __half s[8 * T];
    int t = threadIdx.x;
    s[t] = __float2half(t);
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        a += __half2float(s[t * 8 + i]);
    o[blockIdx.x * T + t] = a;
}
// two adjacent half2 stores: STS.64?
__global__ void s_h2x2_st(float* o) {
    __shared__ __half2 s[2 * T];
    int t = threadIdx.x;
    s[t * 2] = __floats2half2_rn(t, 1);
    s[t * 2 + 1] = __floats2half2_rn(2, t);
    __syncthreads();
    o[blockIdx.x * T + t] = __low2float(s[(t * 3) % (2 * T)]);
}
// four adjacent half2 loads, unrolled: LDS.128?
__global__ void s_h2x4(float* o) {
    __shared__ __half2 s[4 * T];
    int t = threadIdx.x;
    s[t] = __floats2half2_rn(t, t);
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 4; i++)
        a += __low2float(s[t * 4 + i]);
    o[blockIdx.x * T + t] = a;
}
// global: two adjacent floats through a plain pointer (alignment unknown)
__global__ void g_f2(float* o, const float* x) {
    int t = blockIdx.x * T + threadIdx.x;
    float a = x[t * 2];
    float b = x[t * 2 + 1];
    o[t] = a * b;
}
// global: the same with the alignment told: LDG.64?
__global__ void g_f2_assume(float* o, const float* x) {
    int t = blockIdx.x * T + threadIdx.x;
    const float* p = (const float*)__builtin_assume_aligned(x, 8);
    float a = p[t * 2];
    float b = p[t * 2 + 1];
    o[t] = a * b;
}
// global: 4 adjacent float stores with the alignment told: STG.128?
__global__ void g_f4_st_assume(float* o) {
    int t = blockIdx.x * T + threadIdx.x;
    float* p = (float*)__builtin_assume_aligned(o, 16);
#pragma unroll
    for (int i = 0; i < 4; i++)
        p[t * 4 + i] = t + i;
}
// global: 8 adjacent halves with the alignment told: LDG.128?
__global__ void g_h8_assume(float* o, const __half* x) {
    int t = blockIdx.x * T + threadIdx.x;
    const __half* p = (const __half*)__builtin_assume_aligned(x, 16);
    float a = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        a += __half2float(p[t * 8 + i]);
    o[t] = a;
}

int main() {
    float *o, *x;
    cudaMalloc(&o, 64 << 20);
    cudaMalloc(&x, 64 << 20);
    cudaMemset(x, 0, 64 << 20);
    s_f8<<<64, T>>>(o);
    s_f4<<<64, T>>>(o);
    s_f2<<<64, T>>>(o);
    s_f4_k<<<64, T>>>(o, 4);
    s_f4_odd<<<64, T>>>(o);
    s_f4_loop<<<64, T>>>(o);
    s_f4_st<<<64, T>>>(o);
    s_f4_wide<<<64, T>>>(o);
    s_f2_alias<<<64, T>>>(o, 7);
    s_h2<<<64, T>>>(o);
    s_h8<<<64, T>>>(o);
    s_h2x2_st<<<64, T>>>(o);
    s_h2x4<<<64, T>>>(o);
    g_f2<<<64, T>>>(o, x);
    g_f2_assume<<<64, T>>>(o, x);
    g_f4_st_assume<<<64, T>>>(o);
    g_h8_assume<<<64, T>>>(o, (const __half*)x);
    return cudaDeviceSynchronize() != cudaSuccess;
}
