// Probe kernels for accesses inside inlined helpers and lambdas passed as
// arguments (see cmd/cudalint/gaps_test.go): one helper called from
// several places of a kernel at different costs, nested helpers, helpers
// around the streaming intrinsics, lambdas passed to __device__ templates
// that read or write global memory, capturing by reference or by value.
//
// As in probes.cu: every global access of interest stands on its own line
// (at most one load and one store per line), and every kernel is launched
// exactly once (the export keys lines by kernel name). Nsight Compute puts
// an inlined helper's instructions on the helper's line, one SASS
// instruction per call: the comment above a kernel gives each call's
// sectors per request. The section header gives the capability's number,
// which gaps_test.go reads. measure.sh OUTDIR probes4 builds and measures
// this file.

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// ---- 1: one helper, calls at different costs ----
__device__ __forceinline__ float fetch(const float* p, int k) {
    return p[k];
}
__device__ __forceinline__ void put(float* p, int k, float v) {
    p[k] = v;
}
// fetch: stride 1 (4) and stride 2 (8); put: stride 1 (4) and stride 3 (12)
__global__ void q_two_strides(const float* in, float* out, float* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = fetch(in, i);
    float b = fetch(in, 2 * i);
    put(out, i, a);
    put(out2, 3 * i, b);
}
// fetch: coalesced (4), one float on (5), stride 4 (16)
__global__ void q_three_calls(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = fetch(in, i);
    float b = fetch(in, i + 1);
    float c = fetch(in, 4 * i);
    out[i] = a + b + c;
}

// ---- 2: nested helpers ----
__device__ __forceinline__ float fetch_pair(const float* p, int k) {
    return fetch(p, k) + fetch(p, k + 65536);
}
// four loads on fetch's line: 4 and 4 through the first call, 12 and 12
// through the second
__global__ void q_nested(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = fetch_pair(in, i);
    float b = fetch_pair(in, 3 * i);
    out[i] = a + b;
}

// ---- 3: helpers around streaming intrinsics ----
__device__ __forceinline__ float4 load_cs(const float4* p) {
    return __ldcs(p);
}
__device__ __forceinline__ void store_cs(float4* p, float4 v) {
    __stcs(p, v);
}
// 16 bytes a lane: consecutive float4 (16) and every other one (32)
__global__ void q_stream_helpers(const float4* in, float4* out, float4* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 a = load_cs(in + i);
    float4 b = load_cs(in + 2 * i);
    store_cs(out + i, a);
    store_cs(out2 + 2 * i, b);
}

// ---- 4: lambdas passed as arguments ----
template <class F> __device__ __forceinline__ void apply(const float* in, float* out, int i, F f) {
    out[i] = f(in[i]);
}
// apply's line: loads 4 and 8, stores 4 and 8
__global__ void q_lambda_apply(const float* in, float* out, float* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    apply(in, out, i, [](float v) { return v * 2.0f; });
    apply(in, out2, 2 * i, [](float v) { return v + 1.0f; });
}
template <class L> __device__ __forceinline__ float sum_two(L ld, int i) {
    return ld(i) + ld(i + 65536);
}
// s = 2: both calls of the lambda read stride 2 (8)
__global__ void q_lambda_load(const float* in, float* out, int s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto ld = [&](int k) {
        return in[k * s];
    };
    out[i] = sum_two(ld, i);
}
// s = 3, the lambda written in the call, capturing by value: 12 and 12
__global__ void q_lambda_inline(const float* in, float* out, int s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = sum_two([=](int k) {
        return in[k * s];
    }, i);
}
template <int N, class F> __device__ __forceinline__ void for_each_k(F f) {
#pragma unroll
    for (int k = 0; k < N; ++k) f(k);
}
// stride = 1 << 22: four stores, each with lanes 2 floats apart (8)
__global__ void q_lambda_store(float* out, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for_each_k<4>([&](int k) {
        out[k * stride + 2 * i] = 0.0f;
    });
}
// four coalesced loads into a captured accumulator (4)
__global__ void q_lambda_accumulate(const float* in, float* out, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for_each_k<4>([&](int k) {
        acc += in[k * stride + i];
    });
    out[i] = acc;
}
// a lambda that calls a helper: apply's line loads and stores coalesced
// (4), fetch's line loads stride 4 (16)
__global__ void q_lambda_helper(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    apply(in, out, i, [&](float v) {
        return v + fetch(in, 4 * i);
    });
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

int main() {
    const size_t words = 64u << 20;
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, words * sizeof(float)));
    CHECK(cudaMalloc(&b, words * sizeof(float)));
    CHECK(cudaMalloc(&c, words * sizeof(float)));
    CHECK(cudaMemset(a, 0, words * sizeof(float)));

    // 1
    q_two_strides<<<4096, 256>>>(a, b, c);
    q_three_calls<<<4096, 256>>>(a, b);
    // 2
    q_nested<<<4096, 256>>>(a, b);
    // 3
    q_stream_helpers<<<4096, 256>>>((const float4*)a, (float4*)b, (float4*)c);
    // 4
    q_lambda_apply<<<4096, 256>>>(a, b, c);
    q_lambda_load<<<4096, 256>>>(a, b, 2);
    q_lambda_inline<<<4096, 256>>>(a, b, 3);
    q_lambda_store<<<4096, 256>>>(b, 1 << 22);
    q_lambda_accumulate<<<4096, 256>>>(a, b, 1 << 22);
    q_lambda_helper<<<4096, 256>>>(a, b);

    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("probes4 ran\n");
    return 0;
}
