// Small launches: kernels too small to fill the GPU, each with a finding
// and its fixed twin (docs/severity.md, "Launches too small to fill the
// GPU"). pairs.cu times kernels over 256 MiB, memory-bound; these move
// kilobytes to megabytes, the shapes of set-up, merge and second-level
// kernels (Rodinia's gaussian Fan1, cuda-samples' scan second level) and a
// sweep of one gather over grids from one warp to a full GPU.
//
// Output, on stdout, one CSV line per kernel timed:
//   pair,variant,median_ms,bytes
// as pairs.cu: CUDA events around each launch, 3 warm-ups, the median of
// 15. With --stream, each of the 15 times is that of 100 launches back to
// back between the two events, divided by 100: the launch rate a stream
// of small kernels reaches.
//
// Every size is a constant the analyzer reads, and every kernel is
// launched from exactly one launcher.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define WARMUPS 3
#define RUNS 15
#define STREAMED 100

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

typedef void (*Launcher)(float* in, float* out);
static cudaEvent_t start_event, stop_event;

// ---- a gather 32 floats apart and its copy, over grids of NT threads ----
// Each thread loads one float and stores one: as is, lanes 128 bytes
// apart (32 sectors a request); fixed, neighbouring floats (4).
#define GATHER(NT, BLOCK)                                                        \
__global__ void gather##NT##_slow(const float* in, float* out) {                 \
    int i = blockIdx.x * BLOCK + threadIdx.x;                                    \
    out[i] = in[i * 32];                                                         \
}                                                                                \
__global__ void gather##NT##_fast(const float* in, float* out) {                 \
    int i = blockIdx.x * BLOCK + threadIdx.x;                                    \
    out[i] = in[i];                                                              \
}                                                                                \
static void launch_gather##NT##_slow(float* in, float* out) {                    \
    gather##NT##_slow<<<NT / BLOCK, BLOCK>>>(in, out);                           \
}                                                                                \
static void launch_gather##NT##_fast(float* in, float* out) {                    \
    gather##NT##_fast<<<NT / BLOCK, BLOCK>>>(in, out);                           \
}

GATHER(32, 32)
GATHER(1024, 256)
GATHER(4096, 256)
GATHER(16384, 256)
GATHER(65536, 256)
GATHER(262144, 256)
GATHER(1048576, 256)
GATHER(4194304, 256)

// ---- gaussian's Fan1: one column of multipliers, a thread per row ----
// Rodinia's Fan1 at t = 0 over a 4096 x 4096 matrix: 4095 threads in
// blocks of 512, each reading a[row][0] and writing m[row][0], rows 16 KiB
// apart. The twin keeps the matrices column-major.
#define FAN_SIZE 4096
#define FAN_BLOCK 512
__global__ void fan1_slow(const float* a, float* m) {
    int t = 0;
    int i = blockIdx.x * FAN_BLOCK + threadIdx.x;
    if (i >= FAN_SIZE - 1 - t) return;
    m[FAN_SIZE * (i + t + 1) + t] = a[FAN_SIZE * (i + t + 1) + t] / a[FAN_SIZE * t + t];
}
__global__ void fan1_fast(const float* a, float* m) {
    int t = 0;
    int i = blockIdx.x * FAN_BLOCK + threadIdx.x;
    if (i >= FAN_SIZE - 1 - t) return;
    m[FAN_SIZE * t + (i + t + 1)] = a[FAN_SIZE * t + (i + t + 1)] / a[FAN_SIZE * t + t];
}
static void launch_fan1_slow(float* in, float* out) { fan1_slow<<<FAN_SIZE / FAN_BLOCK + 1, FAN_BLOCK>>>(in, out); }
static void launch_fan1_fast(float* in, float* out) { fan1_fast<<<FAN_SIZE / FAN_BLOCK + 1, FAN_BLOCK>>>(in, out); }

// ---- scan's second level: the last element of each 1024-element segment ----
// cuda-samples' scanExclusiveShared2 over 4 Mi elements: 4096 threads, each
// loading the top of its segment from two arrays 4 KiB apart lane to lane.
// The twin reads the tops packed.
#define SEGMENTS 4096
#define SEGMENT 1024
__global__ void scan2_slow(const float* in, float* out) {
    int pos = blockIdx.x * 256 + threadIdx.x;
    out[pos] = in[(SEGMENT - 1) + SEGMENT * pos] + in[(1 << 23) + (SEGMENT - 1) + SEGMENT * pos];
}
__global__ void scan2_fast(const float* in, float* out) {
    int pos = blockIdx.x * 256 + threadIdx.x;
    out[pos] = in[pos] + in[(1 << 23) + pos];
}
static void launch_scan2_slow(float* in, float* out) { scan2_slow<<<SEGMENTS / 256, 256>>>(in, out); }
static void launch_scan2_fast(float* in, float* out) { scan2_fast<<<SEGMENTS / 256, 256>>>(in, out); }

// ---- a bank-conflicted shared walk in 16 blocks of a warp, and on a full GPU ----
// Each step a lane writes its row of a 32x32 tile and reads its
// neighbour's, a __syncthreads between: 32-way conflicts, fixed by rows of
// 33 words.
#define SBANK_STEPS 256
#define SBANK(NAME, BLOCKS, PITCH)                                               \
__global__ void NAME(const float* in, float* out) {                              \
    __shared__ float s[32 * 33];                                                 \
    int tx = threadIdx.x;                                                        \
    float acc = in[blockIdx.x * 32 + tx];                                        \
    for (int k = 0; k < SBANK_STEPS; k++) {                                      \
        s[tx * PITCH + (k & 31)] = acc + k;                                      \
        __syncthreads();                                                         \
        acc += s[tx * PITCH + ((k + 1) & 31)];                                   \
        __syncthreads();                                                         \
    }                                                                            \
    out[blockIdx.x * 32 + tx] = acc;                                             \
}                                                                                \
static void launch_##NAME(float* in, float* out) { NAME<<<BLOCKS, 32>>>(in, out); }

SBANK(sbank16_slow, 16, 32)
SBANK(sbank16_fast, 16, 33)
SBANK(sbankfull_slow, 8448, 32)
SBANK(sbankfull_fast, 8448, 33)

// ---- a row per thread over few warps: llm.c's naive layernorm shape ----
// 8192 rows of 768 floats (B * T = 8192, C = 768), a thread a row in 32
// blocks of 256: each thread sums its row, rows 3 KiB apart lane to lane
// (32 sectors a request, the L1 serving the lane's later iterations). The
// twin keeps the matrix column-major, lanes side by side.
#define ROWSUM_ROWS 8192
#define ROWSUM_C 768
__global__ void rowsum_slow(const float* x, float* out) {
    int row = blockIdx.x * 256 + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < ROWSUM_C; k++) {
        s += x[row * ROWSUM_C + k];
    }
    out[row] = s;
}
__global__ void rowsum_fast(const float* x, float* out) {
    int row = blockIdx.x * 256 + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < ROWSUM_C; k++) {
        s += x[k * ROWSUM_ROWS + row];
    }
    out[row] = s;
}
static void launch_rowsum_slow(float* in, float* out) { rowsum_slow<<<ROWSUM_ROWS / 256, 256>>>(in, out); }
static void launch_rowsum_fast(float* in, float* out) { rowsum_fast<<<ROWSUM_ROWS / 256, 256>>>(in, out); }

// ---- the same over 1024 rows in 16 blocks of 64 threads ----
// Loads only in the loop: nvcc batches them, and the few warps wait for
// each batch.
#define ROWSUM_SMALL_ROWS 1024
__global__ void rowsum_small_slow(const float* x, float* out) {
    int row = blockIdx.x * 64 + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < ROWSUM_C; k++) {
        s += x[row * ROWSUM_C + k];
    }
    out[row] = s;
}
__global__ void rowsum_small_fast(const float* x, float* out) {
    int row = blockIdx.x * 64 + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < ROWSUM_C; k++) {
        s += x[k * ROWSUM_SMALL_ROWS + row];
    }
    out[row] = s;
}
static void launch_rowsum_small_slow(float* in, float* out) { rowsum_small_slow<<<ROWSUM_SMALL_ROWS / 64, 64>>>(in, out); }
static void launch_rowsum_small_fast(float* in, float* out) { rowsum_small_fast<<<ROWSUM_SMALL_ROWS / 64, 64>>>(in, out); }

// ---- eight blocks walking a buffer: ggml's allreduce copy shape ----
// 8 blocks of 256 threads, a grid-stride loop over 16 Mi floats, each
// thread copying 8 consecutive floats an iteration in scalar pieces
// (lanes 32 bytes apart, 8 L1 lines a request); the twin copies them as
// two float4s.
#define AR_COUNT (16 << 20)
#define AR_THREADS (8 * 256)
__global__ void ar8_slow(const float* in, float* out) {
    for (int i = blockIdx.x * 256 + threadIdx.x; i < AR_COUNT / 8; i += AR_THREADS) {
        float w[8];
#pragma unroll
        for (int k = 0; k < 8; k++) w[k] = in[i * 8 + k];
#pragma unroll
        for (int k = 0; k < 8; k++) out[i * 8 + k] = w[k];
    }
}
__global__ void ar8_fast(const float* in, float* out) {
    for (int i = blockIdx.x * 256 + threadIdx.x; i < AR_COUNT / 8; i += AR_THREADS) {
        const float4* v = reinterpret_cast<const float4*>(in);
        float4* o = reinterpret_cast<float4*>(out);
        float4 a = v[2 * i], b = v[2 * i + 1];
        o[2 * i] = a;
        o[2 * i + 1] = b;
    }
}
static void launch_ar8_slow(float* in, float* out) { ar8_slow<<<8, 256>>>(in, out); }
static void launch_ar8_fast(float* in, float* out) { ar8_fast<<<8, 256>>>(in, out); }

// ---- nothing: what a launch costs ----
__global__ void empty_kernel(const float* in, float* out) {}
static void launch_empty(float* in, float* out) { empty_kernel<<<1, 32>>>(in, out); }

static int warmups = WARMUPS, runs = RUNS, streamed = 1;
static char** only;
static int n_only;

static float median_ms(Launcher launch, float* in, float* out) {
    for (int w = 0; w < warmups; w++) {
        launch(in, out);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    float ms[RUNS];
    for (int r = 0; r < runs; r++) {
        CHECK(cudaEventRecord(start_event));
        for (int s = 0; s < streamed; s++) {
            launch(in, out);
        }
        CHECK(cudaEventRecord(stop_event));
        CHECK(cudaEventSynchronize(stop_event));
        CHECK(cudaGetLastError());
        CHECK(cudaEventElapsedTime(&ms[r], start_event, stop_event));
        ms[r] /= streamed;
    }
    for (int a = 1; a < runs; a++) {
        float v = ms[a];
        int b = a - 1;
        while (b >= 0 && ms[b] > v) {
            ms[b + 1] = ms[b];
            b--;
        }
        ms[b + 1] = v;
    }
    return ms[runs / 2];
}

static void time_pair(const char* pair, const char* slow_name, Launcher slow,
                      const char* fast_name, Launcher fast, long long bytes, float* in, float* out) {
    bool named = only == NULL;
    for (int k = 0; k < n_only; k++) named = named || strcmp(only[k], pair) == 0;
    if (!named) return;
    float slow_ms = median_ms(slow, in, out);
    float fast_ms = median_ms(fast, in, out);
    printf("%s,%s,%.6f,%lld\n", pair, slow_name, slow_ms, bytes);
    printf("%s,%s,%.6f,%lld\n", pair, fast_name, fast_ms, bytes);
    fflush(stdout);
}

#define TIME_GATHER(NT) time_pair("gather" #NT, "gather" #NT "_slow", launch_gather##NT##_slow, \
    "gather" #NT "_fast", launch_gather##NT##_fast, 8LL * NT, in, out)

int main(int argc, char** argv) {
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--stream") == 0) {
            streamed = STREAMED;
        } else if (strcmp(argv[a], "--pairs") == 0) {
            only = argv + a + 1, n_only = argc - a - 1;
            break;
        }
    }
    const size_t words = (size_t)4194304 * 32 + 64; // the widest gather
    float *in, *out;
    CHECK(cudaMalloc(&in, words * sizeof(float)));
    CHECK(cudaMalloc(&out, words * sizeof(float)));
    CHECK(cudaMemset(in, 0, words * sizeof(float)));
    CHECK(cudaMemset(out, 0, words * sizeof(float)));
    CHECK(cudaEventCreate(&start_event));
    CHECK(cudaEventCreate(&stop_event));

    time_pair("empty", "empty_kernel", launch_empty, "empty_kernel", launch_empty, 0, in, out);
    TIME_GATHER(32);
    TIME_GATHER(1024);
    TIME_GATHER(4096);
    TIME_GATHER(16384);
    TIME_GATHER(65536);
    TIME_GATHER(262144);
    TIME_GATHER(1048576);
    TIME_GATHER(4194304);
    time_pair("fan1", "fan1_slow", launch_fan1_slow, "fan1_fast", launch_fan1_fast, 8LL * FAN_SIZE, in, out);
    time_pair("scan2", "scan2_slow", launch_scan2_slow, "scan2_fast", launch_scan2_fast, 12LL * SEGMENTS, in, out);
    time_pair("sbank16", "sbank16_slow", launch_sbank16_slow, "sbank16_fast", launch_sbank16_fast, 8LL * 16 * 32, in, out);
    time_pair("rowsum", "rowsum_slow", launch_rowsum_slow, "rowsum_fast", launch_rowsum_fast, 4LL * ROWSUM_ROWS * (ROWSUM_C + 1), in, out);
    time_pair("rowsum_small", "rowsum_small_slow", launch_rowsum_small_slow, "rowsum_small_fast", launch_rowsum_small_fast, 4LL * ROWSUM_SMALL_ROWS * (ROWSUM_C + 1), in, out);
    time_pair("ar8", "ar8_slow", launch_ar8_slow, "ar8_fast", launch_ar8_fast, 8LL * AR_COUNT, in, out);
    time_pair("sbankfull", "sbankfull_slow", launch_sbankfull_slow, "sbankfull_fast", launch_sbankfull_fast, 8LL * 8448 * 32, in, out);

    CHECK(cudaEventDestroy(start_event));
    CHECK(cudaEventDestroy(stop_event));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
