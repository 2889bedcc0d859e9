// Probe kernels for what host code tells a launch and for guards past a
// bound (see cmd/cudalint/gaps_test.go): a block whose x the launch fixes
// and whose y it reads at run time, a pointer compared with NULL where the
// launch passes NULL, a template kernel launched without its type
// arguments inside a host template, a __device__ function given to a
// host template over functions (typed by an alias) and passed on to a
// kernel's template, and a guard only the lanes past a run-time bound
// pass (a remainder).
//
// As in probes.cu: every global access of interest stands on its own line
// (at most one load and one store per line), and every kernel is launched
// exactly once (the export keys lines by kernel name). The section header
// gives the capability's number, which gaps_test.go reads. measure.sh
// OUTDIR probes5 builds and measures this file.

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// ---- 1: a block whose x the launch fixes, y read at run time ----
// block (1, rows): every lane of a warp its own row of n = 1024 floats:
// 32 sectors per request, ideal 4
__global__ void r_partial_block(const float* in, float* out, int n) {
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int x = blockIdx.x;
    out[y * n + x] = in[y * n + x];
}

// ---- 2: a pointer compared with NULL, NULL passed ----
// bias is NULL: its load runs in no warp; out[i * 2] runs (8)
__global__ void r_null_cmp(const float* in, float* out, const float* bias) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (bias != NULL) v += bias[i * 3];
    if (NULL == bias) out[i * 2] = v;
    out[i] = v;
}

// ---- 3: a template kernel launched without its type arguments ----
// T = short, deduced: lanes read every other short (4 B apart: 4
// sectors, ideal 2) and write neighbouring shorts (2)
template <class T> __global__ void r_deduced(const T* in, T* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[2 * i];
}
template <class T> void run_deduced(const T* in, T* out, int blocks) {
    r_deduced<<<blocks, 256>>>(in, out);
}

// ---- 4: a __device__ function given to a host template ----
// launcher<r_naive>(..., 8): lanes 8 floats apart, 32 sectors each way
using r_fn_ptr = void (*)(float* p, const float* q, int n);
__device__ void r_naive(float* p, const float* q, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i * n] = q[i * n];
}
template <r_fn_ptr F> __global__ void r_fn_kernel(float* out, const float* in, int n) {
    F(out, in, n);
}
template <r_fn_ptr F> void r_launcher(float* out, const float* in, int n) {
    r_fn_kernel<F><<<4096, 256>>>(out, in, n);
}

// ---- 5: a guard only the lanes past a run-time bound pass ----
// V = 50257 from the command line's default: i + 1 > V / 8 only for the
// block's last thread, whose chunk crosses V: one lane per block
__global__ void r_tail(const float* x, float* out, int V) {
    int i = (V + 7) / 8 + threadIdx.x - blockDim.x;
    float s = 0.0f;
    if ((i + 1) * 8 > V) {
        s = x[i * 8];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

int main(int argc, char** argv) {
    const size_t words = 64u << 20;
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, words * sizeof(float)));
    CHECK(cudaMalloc(&b, words * sizeof(float)));
    CHECK(cudaMalloc(&c, words * sizeof(float)));
    CHECK(cudaMemset(a, 0, words * sizeof(float)));
    int rows = argc > 1 ? atoi(argv[1]) : 256;
    int V = argc > 2 ? atoi(argv[2]) : 50257;

    // 1
    dim3 block(1, rows);
    dim3 grid(1024, 4096 / rows);
    r_partial_block<<<grid, block>>>(a, b, 1024);
    // 2
    r_null_cmp<<<4096, 256>>>(a, b, NULL);
    // 3
    run_deduced((const short*)a, (short*)b, 4096);
    // 4
    r_launcher<r_naive>(b, a, 8);
    // 5
    r_tail<<<4096, 256>>>(a, b, V);

    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("probes5 ran\n");
    return 0;
}
