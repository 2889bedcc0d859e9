// Adjacent scalar accesses of one thread that nvcc merges into one wider
// instruction (measured: testdata/truth/probes7.cu): the conflict is the
// merged instruction's, or none.
#include <cuda_fp16.h>
#define T 256

// Negative: four adjacent floats are one LDS.128, lanes 16 bytes apart:
// 4 wavefronts, its ideal (priced as scalars: a 4-way conflict each).
__global__ void four(float* o) {
    __shared__ float s[4 * T];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 4; i++)
        a += s[t * 4 + i];
    o[t] = a;
}

// Eight adjacent floats are two LDS.128, lanes 32 bytes apart: 8
// wavefronts where 4 would do, a 2-way conflict (not 8-way).
__global__ void eight(float* o) {
    __shared__ float s[8 * T];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        a += s[t * 8 + i]; // want "load s\[t \* 8 \+ i\]: lanes hit the same bank.*: 2-way bank conflict \(8 wavefronts/request, ideal 4\).*the figures are predicted for the instruction nvcc makes of the copies of the unrolled loop, 16-byte LDS.128 instructions"
    o[t] = a;
}

// Negative: SGEMM's register tile, 16 lanes on one row of 8 floats: two
// LDS.128 that lanes share.
template <int BM, int TM>
__global__ void tile(float* o) {
    __shared__ float As[8 * BM];
    const int row = threadIdx.x / 16;
    As[threadIdx.x] = 1;
    __syncthreads();
    float r = 0;
    for (int dotIdx = 0; dotIdx < 8; ++dotIdx) {
        for (int i = 0; i < TM; ++i)
            r += As[dotIdx * BM + row * TM + i];
    }
    o[threadIdx.x] = r;
}

// Negative: two adjacent __half2 stores are one STS.64.
__global__ void pair(float* o) {
    __shared__ __half2 s[2 * T];
    int t = threadIdx.x;
    s[t * 2] = __floats2half2_rn(t, 1);
    s[t * 2 + 1] = __floats2half2_rn(2, t);
    __syncthreads();
    o[t] = __low2float(s[(t * 3) % (2 * T)]);
}

// An offset nvcc cannot know: four LDS, each 4-way.
__global__ void offset(float* o, int k) {
    __shared__ float s[4 * T + 8];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 4; i++)
        a += s[t * 4 + k + i]; // want "load s\[t \* 4 \+ k \+ i\]: lanes hit the same bank.*4-way bank conflict \(4 wavefronts/request, ideal 1\)"
    o[t] = a;
}

// A store between that may alias the second load: two LDS, each 2-way.
__global__ void alias(float* o, int j) {
    __shared__ float s[2 * T];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    float a = s[t * 2]; // want "load s\[t \* 2\]: .*2-way bank conflict \(2 wavefronts/request, ideal 1\)"
    s[j] = a;
    float b = s[t * 2 + 1]; // want "load s\[t \* 2 \+ 1\]: .*2-way bank conflict"
    o[t] = a * b;
}

// Halves are not merged: eight LDS.U16, each 4-way.
__global__ void halves(float* o) {
    __shared__ __half s[8 * T];
    int t = threadIdx.x;
    s[t] = __float2half(t);
    __syncthreads();
    float a = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        a += __half2float(s[t * 8 + i]); // want "load s\[t \* 8 \+ i\]: .*4-way bank conflict \(4 wavefronts/request, ideal 1\)"
    o[t] = a;
}

void launch(float* o) {
    four<<<64, T>>>(o);
    eight<<<64, T>>>(o);
    tile<128, 8><<<64, 256>>>(o);
    pair<<<64, T>>>(o);
    offset<<<64, T>>>(o, 4);
    alias<<<64, T>>>(o, 7);
    halves<<<64, T>>>(o);
}
