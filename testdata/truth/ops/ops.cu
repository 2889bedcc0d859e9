// What an arithmetic operation costs on the GPU, in the units of
// cudalint's issue term (rules/impact/issue.go): warp instructions
// issued, and the issue slots its time takes. Each kernel runs REPS
// steps of one operation on a value that changes every step, over
// BLOCKS x THREADS threads (enough warps to fill every scheduler); the
// baseline kernels run the same loop with no operation. run.sh measures
// each kernel's SASS instructions with Nsight Compute
// (smsp__inst_executed.sum, and the part the FP64 pipe runs) and its
// time with CUDA events (3 warm-ups, the median of 15).
//
// Output, on stdout, one CSV line per kernel:
//   kernel,type,median_ms,warps,reps

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 4096
#define REPS 256
#define WARMUPS 3
#define RUNS 15

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

// Four independent chains a thread, so that the latency of one operation
// hides behind the others and the kernel measures throughput.
#define OP_KERNEL(name, T, OP)                                              \
    __global__ void name(const T* in, T* out) {                              \
        int i = blockIdx.x * THREADS + threadIdx.x;                          \
        T a = in[i], b = a + (T)1, c = a + (T)2, d = a + (T)3;               \
        _Pragma("unroll 4")                                                  \
        for (int r = 0; r < REPS; r++) {                                     \
            a = OP(a); b = OP(b); c = OP(c); d = OP(d);                      \
        }                                                                    \
        out[i] = a + b + c + d;                                              \
    }

// Each operation keeps its argument in a range where it stays finite.
#define NONE(x) (x)
#define ADD(x) ((x) + (T_ONE))
#define FMA_D(x) ((x) * 0.999 + 0.001)
#define FMA_F(x) ((x) * 0.999f + 0.001f)
#define DIV_D(x) (1.0 / ((x) + 2.0))
#define DIV_F(x) (1.0f / ((x) + 2.0f))
#define EXP_D(x) (exp(-(x)) )
#define EXP_F(x) (expf(-(x)))
#define FEXP_F(x) (__expf(-(x)))
#define LOG_D(x) (log((x) + 2.0))
#define LOG_F(x) (logf((x) + 2.0f))
#define SQRT_D(x) (sqrt((x) + 1.0))
#define SQRT_F(x) (sqrtf((x) + 1.0f))
#define POW_D(x) (pow((x) + 1.0, 0.7))
#define POW_F(x) (powf((x) + 1.0f, 0.7f))
#define SIN_D(x) (sin(x))
#define SIN_F(x) (sinf(x))

OP_KERNEL(none64, double, NONE)
OP_KERNEL(none32, float, NONE)
OP_KERNEL(fma64, double, FMA_D)
OP_KERNEL(fma32, float, FMA_F)
OP_KERNEL(div64, double, DIV_D)
OP_KERNEL(div32, float, DIV_F)
OP_KERNEL(exp64, double, EXP_D)
OP_KERNEL(exp32, float, EXP_F)
OP_KERNEL(fastexp32, float, FEXP_F)
OP_KERNEL(log64, double, LOG_D)
OP_KERNEL(log32, float, LOG_F)
OP_KERNEL(sqrt64, double, SQRT_D)
OP_KERNEL(sqrt32, float, SQRT_F)
OP_KERNEL(pow64, double, POW_D)
OP_KERNEL(pow32, float, POW_F)
OP_KERNEL(sin64, double, SIN_D)
OP_KERNEL(sin32, float, SIN_F)

static cudaEvent_t start_event, stop_event;

template <typename T>
static float median_ms(void (*k)(const T*, T*), const T* in, T* out) {
    for (int w = 0; w < WARMUPS; w++) k<<<BLOCKS, THREADS>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    float ms[RUNS];
    for (int r = 0; r < RUNS; r++) {
        CHECK(cudaEventRecord(start_event));
        k<<<BLOCKS, THREADS>>>(in, out);
        CHECK(cudaEventRecord(stop_event));
        CHECK(cudaEventSynchronize(stop_event));
        CHECK(cudaEventElapsedTime(&ms[r], start_event, stop_event));
    }
    for (int a = 1; a < RUNS; a++) {
        float v = ms[a];
        int b = a - 1;
        while (b >= 0 && ms[b] > v) { ms[b + 1] = ms[b]; b--; }
        ms[b + 1] = v;
    }
    return ms[RUNS / 2];
}

static bool once;

template <typename T>
static void time_kernel(const char* name, const char* type, void (*k)(const T*, T*), void* in, void* out) {
    if (once) {
        k<<<BLOCKS, THREADS>>>((const T*)in, (T*)out);
        CHECK(cudaDeviceSynchronize());
        return;
    }
    float ms = median_ms(k, (const T*)in, (T*)out);
    printf("%s,%s,%.6f,%d,%d\n", name, type, ms, BLOCKS * THREADS / 32, REPS * 4);
    fflush(stdout);
}

int main(int argc, char** argv) {
    once = argc > 1 && strcmp(argv[1], "--once") == 0;
    size_t n = (size_t)BLOCKS * THREADS;
    void *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(double)));
    CHECK(cudaMalloc(&out, n * sizeof(double)));
    CHECK(cudaMemset(in, 0, n * sizeof(double)));
    CHECK(cudaEventCreate(&start_event));
    CHECK(cudaEventCreate(&stop_event));
    time_kernel<double>("none64", "double", none64, in, out);
    time_kernel<float>("none32", "float", none32, in, out);
    time_kernel<double>("fma64", "double", fma64, in, out);
    time_kernel<float>("fma32", "float", fma32, in, out);
    time_kernel<double>("div64", "double", div64, in, out);
    time_kernel<float>("div32", "float", div32, in, out);
    time_kernel<double>("exp64", "double", exp64, in, out);
    time_kernel<float>("exp32", "float", exp32, in, out);
    time_kernel<float>("fastexp32", "float", fastexp32, in, out);
    time_kernel<double>("log64", "double", log64, in, out);
    time_kernel<float>("log32", "float", log32, in, out);
    time_kernel<double>("sqrt64", "double", sqrt64, in, out);
    time_kernel<float>("sqrt32", "float", sqrt32, in, out);
    time_kernel<double>("pow64", "double", pow64, in, out);
    time_kernel<float>("pow32", "float", pow32, in, out);
    time_kernel<double>("sin64", "double", sin64, in, out);
    time_kernel<float>("sin32", "float", sin32, in, out);
    return 0;
}
