// Probe kernels for vectorizable-access: a thread's adjacent scalar
// elements that make one aligned vector, beside the vector access that
// replaces them. Each pair answers one question:
//
//   - does nvcc emit 4 LDG.32 (or 2 LDG.64) for the scalars, as the
//     model assumes, or merge them into one wide load (it cannot know a
//     plain float* is 16-byte aligned; v_f4_assume tells it so);
//   - what each scalar instruction costs in sectors (the model: 16 per
//     request for floats 16 bytes apart, ideal 4), and what the vector
//     costs (16 per request, its ideal);
//   - how much time the vector saves over 256 MiB (memory-bound).
//
// As in probes.cu: every global access of interest stands on its own line
// (at most one load and one store per line), and every kernel is launched
// exactly once (the export keys lines by kernel name). measure.sh OUTDIR
// probes6 builds and measures this file; "./probes6 time" instead prints
// "kernel median_ms" per kernel (3 warm-up launches, median of 10).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

// 256 MiB of input, and as much room for output.
#define BYTES (256u << 20)
#define THREADS 256

// ---- 1: four floats per thread, lanes 16 bytes apart ----
// model: each scalar load 16 sectors/request, ideal 4; the float4 16, ideal 16
__global__ void v_f4_scalar(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x0 = a[4 * i];
    float x1 = a[4 * i + 1];
    float x2 = a[4 * i + 2];
    float x3 = a[4 * i + 3];
    out[i] = x0 + x1 + x2 + x3;
}
__global__ void v_f4_vector(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(a)[i];
    out[i] = v.x + v.y + v.z + v.w;
}
// the scalars with the alignment told: does nvcc merge them then?
__global__ void v_f4_assume(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = (const float*)__builtin_assume_aligned(a, 16);
    float x0 = p[4 * i];
    float x1 = p[4 * i + 1];
    float x2 = p[4 * i + 2];
    float x3 = p[4 * i + 3];
    out[i] = x0 + x1 + x2 + x3;
}

// ---- 2: two doubles per thread ----
// model: each scalar load 16 sectors/request, ideal 8; the double2 16, ideal 16
__global__ void v_d2_scalar(const double* a, double* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double x0 = a[2 * i];
    double x1 = a[2 * i + 1];
    out[i] = x0 + x1;
}
__global__ void v_d2_vector(const double* a, double* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double2 v = reinterpret_cast<const double2*>(a)[i];
    out[i] = v.x + v.y;
}

// ---- 3: two floats per thread ----
// model: each scalar 8 sectors/request, ideal 4; the float2 8, ideal 8
__global__ void v_f2_scalar(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x0 = a[2 * i];
    float x1 = a[2 * i + 1];
    out[i] = x0 + x1;
}
__global__ void v_f2_vector(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 v = reinterpret_cast<const float2*>(a)[i];
    out[i] = v.x + v.y;
}

// ---- 4: through an offset the kernel is given (off = 4 floats at run
// time: aligned, which cudalint cannot prove, so it stays silent) ----
__global__ void v_off_scalar(const float* a, float* out, int off) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = a + off;
    float x0 = p[4 * i];
    float x1 = p[4 * i + 1];
    float x2 = p[4 * i + 2];
    float x3 = p[4 * i + 3];
    out[i] = x0 + x1 + x2 + x3;
}
__global__ void v_off_vector(const float* a, float* out, int off) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(a + off)[i];
    out[i] = v.x + v.y + v.z + v.w;
}
// one float off (off = 1): the scalars straddle sectors; no vector can
__global__ void v_off1_scalar(const float* a, float* out, int off) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = a + off;
    float x0 = p[4 * i];
    float x1 = p[4 * i + 1];
    float x2 = p[4 * i + 2];
    float x3 = p[4 * i + 3];
    out[i] = x0 + x1 + x2 + x3;
}

// ---- 5: a loop the compiler unrolls; its twin is v_f4_vector ----
__global__ void v_loop_scalar(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < 4; k++)
        s += a[4 * i + k];
    out[i] = s;
}

// ---- 6: stores ----
// model: each scalar store 16 sectors/request, ideal 4; the float4 16
__global__ void v_st4_scalar(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    out[4 * i] = x;
    out[4 * i + 1] = x + 1.0f;
    out[4 * i + 2] = x + 2.0f;
    out[4 * i + 3] = x + 3.0f;
}
__global__ void v_st4_vector(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i];
    reinterpret_cast<float4*>(out)[i] = make_float4(x, x + 1.0f, x + 2.0f, x + 3.0f);
}

// ---- 7: halves: two per thread (4 bytes, a half2) and four (8 bytes,
// no half4: read as a float2 of their bits); cudalint reports neither ----
__global__ void v_h2_scalar(const __half* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half x0 = a[2 * i];
    __half x1 = a[2 * i + 1];
    out[i] = __half2float(x0) + __half2float(x1);
}
__global__ void v_h2_vector(const __half* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half2 v = reinterpret_cast<const __half2*>(a)[i];
    out[i] = __low2float(v) + __high2float(v);
}
__global__ void v_h4_scalar(const __half* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half x0 = a[4 * i];
    __half x1 = a[4 * i + 1];
    __half x2 = a[4 * i + 2];
    __half x3 = a[4 * i + 3];
    out[i] = __half2float(x0) + __half2float(x1) + __half2float(x2) + __half2float(x3);
}
__global__ void v_h4_vector(const __half* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 bits = reinterpret_cast<const float2*>(a)[i];
    const __half2* h = reinterpret_cast<const __half2*>(&bits);
    out[i] = __low2float(h[0]) + __high2float(h[0]) + __low2float(h[1]) + __high2float(h[1]);
}

// ---- 8: three adjacent floats, no vector (cudalint: strided-access) ----
__global__ void v_f3_scalar(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x0 = a[3 * i];
    float x1 = a[3 * i + 1];
    float x2 = a[3 * i + 2];
    out[i] = x0 + x1 + x2;
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

// Each launch reads all 256 MiB of a once (3 floats of 4 for v_f3_scalar;
// the store pair reads 64 MiB and writes 256 MiB). blocks(e) is the grid
// for one thread per e bytes of the input.
static int blocks(int bytesPerThread) { return (int)(BYTES / bytesPerThread / THREADS); }

static void run_f4_scalar(float* a, float* b, int off) { v_f4_scalar<<<blocks(16), THREADS>>>(a, b); }
static void run_f4_vector(float* a, float* b, int off) { v_f4_vector<<<blocks(16), THREADS>>>(a, b); }
static void run_f4_assume(float* a, float* b, int off) { v_f4_assume<<<blocks(16), THREADS>>>(a, b); }
static void run_d2_scalar(float* a, float* b, int off) { v_d2_scalar<<<blocks(16), THREADS>>>((const double*)a, (double*)b); }
static void run_d2_vector(float* a, float* b, int off) { v_d2_vector<<<blocks(16), THREADS>>>((const double*)a, (double*)b); }
static void run_f2_scalar(float* a, float* b, int off) { v_f2_scalar<<<blocks(8), THREADS>>>(a, b); }
static void run_f2_vector(float* a, float* b, int off) { v_f2_vector<<<blocks(8), THREADS>>>(a, b); }
// off floats in, one vector fewer threads so that nothing reads past the end
static void run_off_scalar(float* a, float* b, int off) { v_off_scalar<<<blocks(16) - 1, THREADS>>>(a, b, off); }
static void run_off_vector(float* a, float* b, int off) { v_off_vector<<<blocks(16) - 1, THREADS>>>(a, b, off); }
static void run_off1_scalar(float* a, float* b, int off) { v_off1_scalar<<<blocks(16) - 1, THREADS>>>(a, b, off - 3); }
static void run_loop_scalar(float* a, float* b, int off) { v_loop_scalar<<<blocks(16), THREADS>>>(a, b); }
static void run_st4_scalar(float* a, float* b, int off) { v_st4_scalar<<<blocks(16), THREADS>>>(a, b); }
static void run_st4_vector(float* a, float* b, int off) { v_st4_vector<<<blocks(16), THREADS>>>(a, b); }
static void run_h2_scalar(float* a, float* b, int off) { v_h2_scalar<<<blocks(4), THREADS>>>((const __half*)a, b); }
static void run_h2_vector(float* a, float* b, int off) { v_h2_vector<<<blocks(4), THREADS>>>((const __half*)a, b); }
static void run_h4_scalar(float* a, float* b, int off) { v_h4_scalar<<<blocks(8), THREADS>>>((const __half*)a, b); }
static void run_h4_vector(float* a, float* b, int off) { v_h4_vector<<<blocks(8), THREADS>>>((const __half*)a, b); }
static void run_f3_scalar(float* a, float* b, int off) { v_f3_scalar<<<blocks(12), THREADS>>>(a, b); }

struct probe {
    const char* name;
    void (*run)(float* a, float* b, int off);
};

static const struct probe probes[] = {
    {"v_f4_scalar", run_f4_scalar}, {"v_f4_vector", run_f4_vector}, {"v_f4_assume", run_f4_assume},
    {"v_d2_scalar", run_d2_scalar}, {"v_d2_vector", run_d2_vector},
    {"v_f2_scalar", run_f2_scalar}, {"v_f2_vector", run_f2_vector},
    {"v_off_scalar", run_off_scalar}, {"v_off_vector", run_off_vector}, {"v_off1_scalar", run_off1_scalar},
    {"v_loop_scalar", run_loop_scalar},
    {"v_st4_scalar", run_st4_scalar}, {"v_st4_vector", run_st4_vector},
    {"v_h2_scalar", run_h2_scalar}, {"v_h2_vector", run_h2_vector},
    {"v_h4_scalar", run_h4_scalar}, {"v_h4_vector", run_h4_vector},
    {"v_f3_scalar", run_f3_scalar},
};

static int cmp_float(const void* x, const void* y) {
    float a = *(const float*)x, b = *(const float*)y;
    return (a > b) - (a < b);
}

// median_ms times 10 launches of p, after 3 to warm up, and returns the
// median.
static float median_ms(const struct probe* p, float* a, float* b, int off) {
    enum { WARM = 3, RUNS = 10 };
    float ms[RUNS];
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int r = 0; r < WARM; r++) p->run(a, b, off);
    CHECK(cudaGetLastError());
    for (int r = 0; r < RUNS; r++) {
        CHECK(cudaEventRecord(start));
        p->run(a, b, off);
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    qsort(ms, RUNS, sizeof(float), cmp_float);
    return (ms[RUNS / 2 - 1] + ms[RUNS / 2]) / 2;
}

int main(int argc, char** argv) {
    int timing = argc > 1 && strcmp(argv[1], "time") == 0;
    int off = 4; // floats: 16 bytes, aligned at run time
    float *a, *b;
    CHECK(cudaMalloc(&a, BYTES));
    CHECK(cudaMalloc(&b, BYTES));
    CHECK(cudaMemset(a, 0, BYTES));
    int n = (int)(sizeof(probes) / sizeof(probes[0]));
    for (int k = 0; k < n; k++) {
        if (timing) {
            printf("%s %.4f\n", probes[k].name, median_ms(&probes[k], a, b, off));
        } else {
            probes[k].run(a, b, off);
        }
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    if (!timing) printf("probes6 ran\n");
    return 0;
}
