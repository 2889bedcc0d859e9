// Probe kernels for the loop capabilities of the model (see
// cmd/cudalint/gaps_test.go): fully unrolled constant-trip loops whose
// iterations cost differently, trip counts that depend on the block, and
// scalars carried around a loop that are the same in every lane.
//
// As in probes.cu and probes2.cu: every global access of interest stands on
// its own line (at most one load and one store per line), and every kernel
// is launched exactly once (the export keys lines by kernel name). The
// comment above a kernel says what an exact model expects (the section
// header gives the capability number, which gaps_test.go reads).
// measure.sh OUTDIR probes3 builds and measures this file.

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// ---- 1: fully unrolled constant-trip loops ----
// #pragma unroll, w = 1001 floats: row 0 starts on a sector, rows 1..3 do
// not: iterations cost 4, 5, 5, 5
__global__ void u_rows_1001(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < 4; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
// w = 1024: every row starts on a sector: 4, 4, 4, 4
__global__ void u_rows_1024(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < 4; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
// iteration r reads lanes r + 1 floats apart: 4, 8, 12, 16
__global__ void u_stride_iter(const float* in, float* out) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < 4; r++) {
        acc += in[x * (r + 1)];
    }
    out[x] = acc;
}
// #pragma unroll 2 over 8 rows of w = 1001: two copies, the even rows
// (4, 5, 5, 5: 4.75) and the odd rows (5)
__global__ void u_unroll2_of8(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll 2
    for (int r = 0; r < 8; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
// #pragma unroll 1: one instruction for the 4 rows (4.75)
__global__ void u_unroll1(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll 1
    for (int r = 0; r < 4; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
// no pragma: 4, 8, 16, 32 and 64 rows of w = 1001 (row r costs 4 when r
// is a multiple of 8, else 5): what the compiler unrolls by default
__global__ void u_default4(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < 4; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
__global__ void u_default8(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < 8; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
__global__ void u_default16(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < 16; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
__global__ void u_default32(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < 32; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
__global__ void u_default64(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < 64; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
// #pragma unroll over 32 rows of w = 1001
__global__ void u_full32(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < 32; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
// nested, both unrolled: row r * 4 + c of w = 1001 (8 copies: 4, then 5)
__global__ void u_nested(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < 2; r++) {
#pragma unroll
        for (int c = 0; c < 4; c++) {
            acc += in[(r * 4 + c) * w + x];
        }
    }
    out[x] = acc;
}
// the trip count from a template argument, R = 4: 4, 5, 5, 5
template <int R> __global__ void u_tmpl_rows(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < R; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
// an unrolled loop inside a loop of n = 3 from the launch: row j * 4 + r;
// copy r = 0 reads rows 0, 4, 8 (4, 5, 4), the others cost 5
__global__ void u_inside_runtime(const float* in, float* out, int w, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int j = 0; j < n; j++) {
#pragma unroll
        for (int r = 0; r < 4; r++) {
            acc += in[(j * 4 + r) * w + x];
        }
    }
    out[x] = acc;
}
// an unrolled store: rows of w = 1001: 4, 5, 5, 5
__global__ void u_store_rows(float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int r = 0; r < 4; r++) {
        out[r * w + x] = 1.0f;
    }
}
// #pragma unroll over a trip count from the launch (n = 4): the compiler
// cannot unroll it fully; rows of w = 1001 average 4.75
__global__ void u_pragma_runtime(const float* in, float* out, int w, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < n; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}
// no pragma, 16 iterations of a body of four loads
__global__ void u_default16_body4(const float* a0, const float* a1, const float* a2, const float* a3, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < 16; r++) {
        acc += a0[r * w + x];
        acc += a1[r * w + x];
        acc += a2[r * w + x];
        acc += a3[r * w + x];
    }
    out[x] = acc;
}

// ---- 2: trip counts that depend on the block ----
// block b runs b % 4 + 1 iterations; iteration k reads lanes k + 1 floats
// apart: 8.0 sectors per executed request
__global__ void t_mod4_stride(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k <= (int)(blockIdx.x % 4); k++) {
        acc += in[i * (k + 1)];
    }
    out[i] = acc;
}
// block b runs b % 3 + 1 iterations; iteration k reads row k of w = 1001:
// (4 * 3 + 5 * 2 + 5 * 1) / 6 = 4.5
__global__ void t_mod3_rows(const float* in, float* out, int w) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < (int)(blockIdx.x % 3) + 1; k++) {
        acc += in[k * w + i];
    }
    out[i] = acc;
}
// odd blocks run 8 iterations, even blocks 2; iteration k reads lanes 2
// floats apart from +k floats (8 when k = 0, else 9): 88 / 10 = 8.8
__global__ void t_odd_even(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int trips = (blockIdx.x & 1) ? 8 : 2;
    float acc = 0.0f;
    for (int k = 0; k < trips; k++) {
        acc += in[2 * i + k];
    }
    out[i] = acc;
}
// grid 1024 x 4: block row y runs y + 1 iterations; iteration k reads row
// k of w = 1001: (4 * 4 + 5 * 6) / 10 = 4.6
__global__ void t_block_y(const float* in, float* out, int w) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k <= (int)blockIdx.y; k++) {
        acc += in[k * w + i];
    }
    out[blockIdx.y * gridDim.x * blockDim.x + i] = acc;
}
// block b runs b % 40 iterations (block 0 none): row k of w = 1001 costs 4
// when k is a multiple of 8, else 5
__global__ void t_mod40_rows(const float* in, float* out, int w) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < (int)(blockIdx.x % 40); k++) {
        acc += in[k * w + i];
    }
    out[i] = acc;
}

// ---- 3: uniform loop-carried scalars ----
// off += step, step = 1001 from the launch, n = 8: row k costs 4 when k is
// a multiple of 8, else 5: 4.875
__global__ void c_add_param(const float* in, float* out, int n, int step) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int off = 0;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        acc += in[off + i];
        off += step;
    }
    out[i] = acc;
}
// the store through the carried offset, step = 1002 floats: offsets 0,
// 1002, ..., 7014 (mod 8 floats 0, 2, 4, 6, 0, 2, 4, 6): 4.75
__global__ void c_store_param(float* out, int n, int step) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int off = 0;
    for (int k = 0; k < n; k++) {
        out[off + i] = 1.0f;
        off += step;
    }
}
// off = off * 3 + 1 over n = 8: 0, 1, 4, 13, 40, 121, 364, 1093 floats
// (mod 8: 0, 1, 4, 5, 0, 1, 4, 5): 4.75
__global__ void c_mul3(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int off = 0;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        acc += in[off + i];
        off = off * 3 + 1;
    }
    out[i] = acc;
}
// base doubles from 1 over n = 8: 1, 2, 4, ..., 128 floats: 5, 5, 5, then
// 4: 4.375
__global__ void c_double(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int base = 1;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        acc += in[base + i];
        base = base * 2;
    }
    out[i] = acc;
}
// off += m on even iterations and 2 * m on odd ones, m = 1002, n = 8:
// 0, 1002, 3006, 4008, 6012, 7014, 9018, 10020 (mod 8: 0, 2, 6, 0, 4, 6,
// 2, 4): 4.75
__global__ void c_cond_step(const float* in, float* out, int n, int m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int off = 0;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        acc += in[off + i];
        if (k % 2 == 0) off += m;
        else off += 2 * m;
    }
    out[i] = acc;
}
// off += steps[k], a load the same in every lane; steps[k] = 3, n = 8:
// offsets 0, 3, ..., 21 take every residue mod 8 floats once: 4.875
__global__ void c_acc_load_any(const int* steps, const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int off = 0;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        acc += in[off + i];
        off += steps[k];
    }
    out[i] = acc;
}
// steps[k] = 8: every offset starts on a sector (4), which the model
// cannot know from the code
__global__ void c_acc_load_aligned(const int* steps, const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int off = 0;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        acc += in[off + i];
        off += steps[k];
    }
    out[i] = acc;
}
// off = off * 3 + 1, #pragma unroll over 4: 0, 1, 4, 13: 4, 5, 5, 5
__global__ void c_mul3_unrolled(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int off = 0;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        acc += in[off + i];
        off = off * 3 + 1;
    }
    out[i] = acc;
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

int main() {
    const size_t words = 64u << 20;
    float *a, *b, *c;
    int *stepsAny, *stepsAligned;
    CHECK(cudaMalloc(&a, words * sizeof(float)));
    CHECK(cudaMalloc(&b, words * sizeof(float)));
    CHECK(cudaMalloc(&c, words * sizeof(float)));
    CHECK(cudaMalloc(&stepsAny, 64 * sizeof(int)));
    CHECK(cudaMalloc(&stepsAligned, 64 * sizeof(int)));
    CHECK(cudaMemset(a, 0, words * sizeof(float)));
    CHECK(cudaMemset(c, 0, words * sizeof(float)));
    int hs[64];
    for (int k = 0; k < 64; k++) hs[k] = 3;
    CHECK(cudaMemcpy(stepsAny, hs, sizeof(hs), cudaMemcpyHostToDevice));
    for (int k = 0; k < 64; k++) hs[k] = 8;
    CHECK(cudaMemcpy(stepsAligned, hs, sizeof(hs), cudaMemcpyHostToDevice));
    const size_t half = 16u << 20;

    // 1
    u_rows_1001<<<4096, 256>>>(a, b, 1001);
    u_rows_1024<<<4096, 256>>>(a, b, 1024);
    u_stride_iter<<<4096, 256>>>(a, b);
    u_unroll2_of8<<<4096, 256>>>(a, b, 1001);
    u_unroll1<<<4096, 256>>>(a, b, 1001);
    u_default4<<<4096, 256>>>(a, b, 1001);
    u_default8<<<4096, 256>>>(a, b, 1001);
    u_default16<<<4096, 256>>>(a, b, 1001);
    u_default32<<<4096, 256>>>(a, b, 1001);
    u_default64<<<4096, 256>>>(a, b, 1001);
    u_full32<<<4096, 256>>>(a, b, 1001);
    u_nested<<<4096, 256>>>(a, b, 1001);
    u_tmpl_rows<4><<<4096, 256>>>(a, b, 1001);
    u_inside_runtime<<<4096, 256>>>(a, b, 1001, 3);
    u_store_rows<<<4096, 256>>>(b, 1001);
    u_pragma_runtime<<<4096, 256>>>(a, b, 1001, 4);
    u_default16_body4<<<4096, 256>>>(a, a + half, c, c + half, b, 1001);
    // 2
    t_mod4_stride<<<4096, 256>>>(a, b);
    t_mod3_rows<<<4096, 256>>>(a, b, 1001);
    t_odd_even<<<4096, 256>>>(a, b);
    t_block_y<<<dim3(1024, 4), 256>>>(a, b, 1001);
    t_mod40_rows<<<4096, 256>>>(a, b, 1001);
    // 3
    c_add_param<<<4096, 256>>>(a, b, 8, 1001);
    c_store_param<<<4096, 256>>>(b, 8, 1002);
    c_mul3<<<4096, 256>>>(a, b, 8);
    c_double<<<4096, 256>>>(a, b, 8);
    c_cond_step<<<4096, 256>>>(a, b, 8, 1002);
    c_acc_load_any<<<4096, 256>>>(stepsAny, a, b, 8);
    c_acc_load_aligned<<<4096, 256>>>(stepsAligned, a, b, 8);
    c_mul3_unrolled<<<4096, 256>>>(a, b);

    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("probes3 ran\n");
    return 0;
}
