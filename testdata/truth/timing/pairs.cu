// Timing pairs for cudalint's estimated speedup (docs/severity.md): each
// pair is a kernel with a finding and its twin with the finding fixed,
// moving the same useful bytes. run.sh builds and times them on a GPU;
// the Go test in cmd/cudalint (impact_timing_test.go) runs cudalint's
// model on this file and compares each finding's estimatedSpeedup with
// the measured ratio (as is over fixed).
//
// Output, on stdout, one CSV line per kernel timed:
//   pair,variant,median_ms,bytes
// variant is the kernel's name; the first line of a pair is the kernel
// as it is (with the finding), the second its fixed twin. bytes is what
// the pair must move at the ideal (the floats it reads and writes once
// each), the same for both lines of a pair.
//
// Timing: CUDA events around each launch, 3 warm-up launches, the median
// of 15. Every buffer is far larger than the L2 (256 MiB of useful data
// per kernel), so the kernels are memory-bound.
//
// Every size is a constant the analyzer reads (no parameters), and every
// kernel is launched from exactly one launcher, so cudalint sees each
// kernel under one launch configuration with nothing assumed.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

// N floats of useful data per kernel: 64 Mi floats, 256 MiB.
#define N (64 << 20)
// The transpose's square matrix: 8192 x 8192 floats = N.
#define W 8192
#define TILE 32
#define ROWS 8
#define THREADS 256
#define WARMUPS 3
#define RUNS 15

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

// ---- transpose: a column store and its shared-tile fix ----
// block 32x8, each thread 4 rows of a 32x32 tile: the load walks rows (4
// sectors per request), the store walks a column (32).
__global__ void transpose_slow(const float* in, float* out) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        out[x * W + (y + j)] = in[(y + j) * W + x];
    }
}

// The fix: stage the tile in shared memory, padded to 33 columns so the
// column read is conflict-free; both global sides walk rows.
__global__ void transpose_fast(const float* in, float* out) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        out[(y + j) * W + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

// ---- bank conflict: the same tile unpadded ----
// tile[32][32]: the column read puts all 32 lanes on one bank (32-way);
// its fixed twin is transpose_fast, padded to [32][33].
__global__ void bank_conflict_slow(const float* in, float* out) {
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        out[(y + j) * W + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

// ---- strided reads: lanes S floats apart, and the contiguous copy ----
// Each reads N floats, one per thread, and writes N contiguous floats:
// the same useful bytes, over a region S times larger.
__global__ void stride2_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    out[i] = in[i * 2];
}

__global__ void stride4_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    out[i] = in[i * 4];
}

__global__ void stride8_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    out[i] = in[i * 8];
}

__global__ void stride32_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    out[i] = in[i * 32];
}

// The fixed twin of every strided read and of the misaligned one.
__global__ void copy_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    out[i] = in[i];
}

// ---- an array of structs: one field per lane, and its SoA twin ----
struct Particle {
    float x, y, z, w;
};

// Lanes 16 bytes apart, 4 of them used: 16 sectors per request, ideal 4.
__global__ void aos_slow(const Particle* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    out[i] = in[i].x;
}

// The same field stored as its own array.
__global__ void aos_fast(const float* xs, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    out[i] = xs[i];
}

// ---- a read shifted by one float: 5 sectors per request, ideal 4 ----
__global__ void misaligned_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    out[i] = in[i + 1];
}

// ---- four scalars of a float4 per thread, and one float4 load ----
// Each thread sums 4 neighbouring floats: four loads with lanes 16 bytes
// apart, or one 16-byte load.
__global__ void vector_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float a = in[i * 4];
    float b = in[i * 4 + 1];
    float c = in[i * 4 + 2];
    float d = in[i * 4 + 3];
    out[i] = a + b + c + d;
}

__global__ void vector_fast(const float4* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float4 v = in[i];
    out[i] = v.x + v.y + v.z + v.w;
}

// ---- decomposed-index: a flat index split with / and % ----
// A one-dimensional transpose: r = i / W, c = i % W, out[c * W + r]:
// neighbouring lanes store W floats apart (32 sectors per request); its
// fixed twin is transpose_fast, the same permutation through a tile.
__global__ void reshape_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    long long r = i / W, c = i % W;
    out[c * W + r] = in[i];
}

// A gather of interleaved heads: lane i reads head i % HEADS, a plane of
// N / HEADS floats each, so 16 lanes touch 16 planes and the next 16 the
// neighbouring floats of the same planes (16 sectors per request); its
// fixed twin is copy_fast, which reads the heads one after another.
#define HEADS 16
__global__ void heads_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    out[i] = in[(i % HEADS) * (N / HEADS) + i / HEADS];
}

// ---- a row per thread: each thread walks 64 floats of its own ----
// Neighbouring lanes are a row (256 bytes) apart, so every request
// touches 32 sectors, but a lane's next seven iterations read the rest of
// its sector: does the L1 serve them? Its fixed twin lets the 32 lanes of
// a warp share each row and combine with shuffles.
#define ROW 64
__global__ void rowwalk_slow(const float* in, float* out) {
    long long row = (long long)blockIdx.x * THREADS + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < ROW; k++) s += in[row * ROW + k];
    out[row] = s;
}

__global__ void rowwalk_fast(const float* in, float* out) {
    long long row = ((long long)blockIdx.x * THREADS + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    float s = 0.0f;
    for (int k = lane; k < ROW; k += 32) s += in[row * ROW + k];
    for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0) out[row] = s;
}

// ---- a record per thread, read whole: nine floats, 36 bytes a lane ----
// Each request of record_slow touches 32 sectors, but the thread's nine
// loads together read every byte of its record: does the L1 serve the
// other eight, DRAM moving each sector once? Its twin stores the nine
// fields as nine planes (SoA).
#define RECORD 9
#define RECORDS (N / 8)
__global__ void record_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < RECORD; j++) s += in[i * RECORD + j];
    out[i] = s;
}

__global__ void record_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < RECORD; j++) s += in[j * (long long)RECORDS + i];
    out[i] = s;
}

// ---- a record per thread, written whole: three floats, 12 bytes ----
// Three stores per thread at a 12-byte lane stride write every byte of
// the lanes' records: the L2 merges them before DRAM? Twin: three planes.
#define TRIPLES (N / 4)
__global__ void triple_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    out[3 * i + 0] = v;
    out[3 * i + 1] = v * 2.0f;
    out[3 * i + 2] = v * 3.0f;
}

__global__ void triple_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    out[i] = v;
    out[TRIPLES + i] = v * 2.0f;
    out[2LL * TRIPLES + i] = v * 3.0f;
}

// ---- arithmetic, then one strided store per thread ----
// Each thread runs 256 iterations of arithmetic on values every lane
// reads alike (a broadcast), then stores one float 128 bytes from its
// neighbour's: is the kernel bound by its instructions, so that
// coalescing the store saves nothing? Twin: the store coalesced.
#define STEPS 256
#define COMPUTED (N / 32)
__global__ void compute_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float acc = (float)i, x = (float)(i & 7);
    for (int f = 0; f < STEPS; f++) {
        float v = in[f];
        acc = acc * 0.999f + v * x;
        x = x * 1.0001f - v;
    }
    out[i * 32] = acc + x;
}

__global__ void compute_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float acc = (float)i, x = (float)(i & 7);
    for (int f = 0; f < STEPS; f++) {
        float v = in[f];
        acc = acc * 0.999f + v * x;
        x = x * 1.0001f - v;
    }
    out[i] = acc + x;
}

// ---- a row per thread, written: each thread stores 64 floats of its own ----
// As rowwalk, but stores: each request touches 32 sectors, and a lane's
// next seven iterations write the rest of its sector. Does the L2 merge
// them before DRAM? Twin: the 32 lanes of a warp share each row.
__global__ void rowstore_slow(const float* in, float* out) {
    long long row = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[row];
    for (int k = 0; k < ROW; k++) out[row * ROW + k] = v + k;
}

__global__ void rowstore_fast(const float* in, float* out) {
    long long row = ((long long)blockIdx.x * THREADS + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    float v = in[row];
    for (int k = lane; k < ROW; k += 32) out[row * ROW + k] = v + k;
}

// ---- a loop of arithmetic over broadcast data, then a strided store ----
// A rasterizer's shape (pytorch3d's, a splatter's): each thread is a
// pixel and walks every face, nine floats a face that every lane reads
// alike, about thirty operations a face, then stores its pixel once,
// here 128 bytes from its neighbour's. How much of the kernel's time is
// the store, at 16 faces and at 256? Twins: the store coalesced.
#define PIXELS (N / 32)
#define IMAGE_W 2048
template <int FACES>
__device__ float raster_pixel(const float* faces, long long i, int* hit) {
    float px = (float)(i % IMAGE_W) + 0.5f, py = (float)(i / IMAGE_W) + 0.5f;
    float best = 1e30f;
    int idx = -1;
    for (int f = 0; f < FACES; f++) {
        const float* v = faces + 9 * f;
        float x0 = v[0], y0 = v[1], z0 = v[2], x1 = v[3], y1 = v[4], z1 = v[5], x2 = v[6], y2 = v[7], z2 = v[8];
        float w0 = (px - x1) * (y2 - y1) - (py - y1) * (x2 - x1);
        float w1 = (px - x2) * (y0 - y2) - (py - y2) * (x0 - x2);
        float w2 = (px - x0) * (y1 - y0) - (py - y0) * (x1 - x0);
        float inv = 1.0f / (w0 + w1 + w2 + 1e-8f);
        float z = (w0 * z0 + w1 * z1 + w2 * z2) * inv;
        bool inside = w0 >= 0.0f && w1 >= 0.0f && w2 >= 0.0f && z < best;
        best = inside ? z : best;
        idx = inside ? f : idx;
    }
    *hit = idx;
    return best;
}

__global__ void raster16_slow(const float* faces, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    int hit;
    float z = raster_pixel<16>(faces, i, &hit);
    out[i * 32] = z + (float)hit;
}

__global__ void raster16_fast(const float* faces, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    int hit;
    float z = raster_pixel<16>(faces, i, &hit);
    out[i] = z + (float)hit;
}

__global__ void raster256_slow(const float* faces, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    int hit;
    float z = raster_pixel<256>(faces, i, &hit);
    out[i * 32] = z + (float)hit;
}

__global__ void raster256_fast(const float* faces, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    int hit;
    float z = raster_pixel<256>(faces, i, &hit);
    out[i] = z + (float)hit;
}

// ---- a strided load, then a loop of dense arithmetic ----
// Each thread loads one float 128 bytes from its neighbour's (a sector a
// lane), then runs 64 steps of sixteen multiply-adds on a coefficient
// every lane reads alike, and stores coalesced. Twin: the load
// coalesced.
#define FMA_STEPS 64
__global__ void fma_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float a = in[i * 32], b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
    for (int s = 0; s < FMA_STEPS; s++) {
        float k = in[N * 32LL + (s & 31)];
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
    }
    out[i] = a + b + c + d;
}

__global__ void fma_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float a = in[i], b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
    for (int s = 0; s < FMA_STEPS; s++) {
        float k = in[N * 32LL + (s & 31)];
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
    }
    out[i] = a + b + c + d;
}

// ---- records each thread writes or reads whole, in scalar pieces ----
// A lane's record of K floats, written (or read) as K scalar accesses at
// a lane stride of 4K bytes: every byte of the warp's span is used, so
// DRAM moves each sector once, but each request touches K times the
// sectors (and the L2 takes K times the partial sector writes). Which of
// these cost time? Twins: the record as vectors where the width allows
// (float2, float4), else as planes (SoA). Each kernel moves N floats of
// records; gsplat's write_vec3 is f3store_slow, its read_vec3 f3load_slow.
#define PAIRS2 (N / 2)
#define PAIRS4 (N / 4)
#define PAIRS8 (N / 8)
__global__ void f2store_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    out[2 * i + 0] = v;
    out[2 * i + 1] = v * 2.0f;
}

__global__ void f2store_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    reinterpret_cast<float2*>(out)[i] = make_float2(v, v * 2.0f);
}

// A float3 stored whole through a cast, as gsplat's write_vec3: nvcc
// splits the 12-byte struct into three STG.32. Its twin is triple_fast.
__global__ void f3store_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    reinterpret_cast<float3*>(out)[i] = make_float3(v, v * 2.0f, v * 3.0f);
}

__global__ void f3load_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float3 v = reinterpret_cast<const float3*>(in)[i];
    out[i] = v.x + v.y + v.z;
}

__global__ void f3load_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    out[i] = in[i] + in[TRIPLES + i] + in[2LL * TRIPLES + i];
}

__global__ void st4_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    out[4 * i + 0] = v;
    out[4 * i + 1] = v * 2.0f;
    out[4 * i + 2] = v * 3.0f;
    out[4 * i + 3] = v * 4.0f;
}

__global__ void st4_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    reinterpret_cast<float4*>(out)[i] = make_float4(v, v * 2.0f, v * 3.0f, v * 4.0f);
}

__global__ void st8_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
#pragma unroll
    for (int c = 0; c < 8; c++) out[8 * i + c] = v * (c + 1);
}

__global__ void st8_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    float4* o = reinterpret_cast<float4*>(out);
    o[2 * i] = make_float4(v, v * 2.0f, v * 3.0f, v * 4.0f);
    o[2 * i + 1] = make_float4(v * 5.0f, v * 6.0f, v * 7.0f, v * 8.0f);
}

// The record as two float4 planes (SoA), the twin of the eight scalar
// pieces and of the two float4s (st8_fast, ld8_fast): is the float4
// record's 2x the sectors per request worth anything?
__global__ void st8_planes(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    float4* o = reinterpret_cast<float4*>(out);
    o[i] = make_float4(v, v * 2.0f, v * 3.0f, v * 4.0f);
    o[PAIRS8 + i] = make_float4(v * 5.0f, v * 6.0f, v * 7.0f, v * 8.0f);
}

__global__ void ld8_planes(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    const float4* v = reinterpret_cast<const float4*>(in);
    float4 a = v[i], b = v[PAIRS8 + i];
    out[i] = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
}

__global__ void ld8_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int c = 0; c < 8; c++) s += in[8 * i + c];
    out[i] = s;
}

__global__ void ld8_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    const float4* v = reinterpret_cast<const float4*>(in);
    float4 a = v[2 * i], b = v[2 * i + 1];
    out[i] = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
}

// Records of 5, 6 and 7 floats (20, 24, 28 bytes a lane) stored in
// scalar pieces, between the 16 bytes whose stores the L2 merges and the
// 32 where each lane writes apart: where does the cost begin? Twins: the
// fields as planes. PAIRS8 records each.
__global__ void st5_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    out[5 * i + 0] = v * 1.0f;
    out[5 * i + 1] = v * 2.0f;
    out[5 * i + 2] = v * 3.0f;
    out[5 * i + 3] = v * 4.0f;
    out[5 * i + 4] = v * 5.0f;
}

__global__ void st5_planes(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    out[0LL * PAIRS8 + i] = v * 1.0f;
    out[1LL * PAIRS8 + i] = v * 2.0f;
    out[2LL * PAIRS8 + i] = v * 3.0f;
    out[3LL * PAIRS8 + i] = v * 4.0f;
    out[4LL * PAIRS8 + i] = v * 5.0f;
}

__global__ void st6_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    out[6 * i + 0] = v * 1.0f;
    out[6 * i + 1] = v * 2.0f;
    out[6 * i + 2] = v * 3.0f;
    out[6 * i + 3] = v * 4.0f;
    out[6 * i + 4] = v * 5.0f;
    out[6 * i + 5] = v * 6.0f;
}

__global__ void st6_planes(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    out[0LL * PAIRS8 + i] = v * 1.0f;
    out[1LL * PAIRS8 + i] = v * 2.0f;
    out[2LL * PAIRS8 + i] = v * 3.0f;
    out[3LL * PAIRS8 + i] = v * 4.0f;
    out[4LL * PAIRS8 + i] = v * 5.0f;
    out[5LL * PAIRS8 + i] = v * 6.0f;
}

__global__ void st7_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    out[7 * i + 0] = v * 1.0f;
    out[7 * i + 1] = v * 2.0f;
    out[7 * i + 2] = v * 3.0f;
    out[7 * i + 3] = v * 4.0f;
    out[7 * i + 4] = v * 5.0f;
    out[7 * i + 5] = v * 6.0f;
    out[7 * i + 6] = v * 7.0f;
}

__global__ void st7_planes(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    out[0LL * PAIRS8 + i] = v * 1.0f;
    out[1LL * PAIRS8 + i] = v * 2.0f;
    out[2LL * PAIRS8 + i] = v * 3.0f;
    out[3LL * PAIRS8 + i] = v * 4.0f;
    out[4LL * PAIRS8 + i] = v * 5.0f;
    out[5LL * PAIRS8 + i] = v * 6.0f;
    out[6LL * PAIRS8 + i] = v * 7.0f;
}

// ---- launchers: one launch of each kernel, every size a constant ----
// ---- a pair loop over particles (Rodinia lavaMD's shape, our code) ----
// A block per box of PPAR particles; for each of PNEI neighbour boxes it
// stages the neighbours in shared memory, then each thread walks them
// all, an exp and some twenty multiply-adds a pair, adding into its own
// particle's four-field record fv[i] (v, x, y, z). nvcc keeps the
// record's sums in registers across the j loop, so the record is read
// and written once per neighbour box: four 8-byte fields of a 32-byte
// record, a lane stride of 32 bytes (aos-field). Twins: the same with
// the record as four planes (SoA). The records (6.5 MB) sit in the L2,
// as lavaMD's do; the kernel is bound by its arithmetic, in double
// (pairloop) or float (pairloop32).
#define PBOXES 2048
#define PPAR 100
#define PNEI 27
#define PTHREADS 128
struct Four { double v, x, y, z; };
struct Four32 { float v, x, y, z; };
#define PAIR_BODY(T, EXP, A_V, A_X, A_Y, A_Z, BEFORE, AFTER)                                \
    __shared__ PREC rA[PPAR];                                                             \
    __shared__ PREC rB[PPAR];                                                             \
    __shared__ T qB[PPAR];                                                                \
    int bx = blockIdx.x, tx = threadIdx.x;                                                \
    int first_i = bx * PPAR;                                                              \
    if (tx < PPAR) rA[tx] = rv[first_i + tx];                                             \
    __syncthreads();                                                                      \
    for (int k = 0; k < PNEI; k++) {                                                      \
        int first_j = ((bx + k * 37) % PBOXES) * PPAR;                                    \
        if (tx < PPAR) {                                                                  \
            rB[tx] = rv[first_j + tx];                                                    \
            qB[tx] = qv[first_j + tx];                                                    \
        }                                                                                 \
        __syncthreads();                                                                  \
        if (tx < PPAR) {                                                                  \
            BEFORE                                                                        \
            for (int j = 0; j < PPAR; j++) {                                              \
                T r2 = rA[tx].v + rB[j].v - (rA[tx].x * rB[j].x + rA[tx].y * rB[j].y + rA[tx].z * rB[j].z); \
                T u2 = (T)0.5 * r2;                                                       \
                T vij = EXP(-u2);                                                         \
                T fs = (T)2 * vij;                                                        \
                T dx = rA[tx].x - rB[j].x;                                                \
                T dy = rA[tx].y - rB[j].y;                                                \
                T dz = rA[tx].z - rB[j].z;                                                \
                A_V += qB[j] * vij;                                                       \
                A_X += qB[j] * (fs * dx);                                                 \
                A_Y += qB[j] * (fs * dy);                                                 \
                A_Z += qB[j] * (fs * dz);                                                 \
            }                                                                             \
            AFTER                                                                         \
        }                                                                                 \
        __syncthreads();                                                                  \
    }

// As lavaMD writes it: the record's fields added to in the j loop, which
// nvcc keeps in registers (measured: the record's 8 accesses run once a
// neighbour box, not once a pair).
#define PREC Four
__global__ void pairloop_slow(const float* in, float* out) {
    const Four* rv = (const Four*)in;
    const double* qv = (const double*)(in + 8LL * PBOXES * PPAR);
    Four* fv = (Four*)out;
    PAIR_BODY(double, exp, fv[first_i + tx].v, fv[first_i + tx].x, fv[first_i + tx].y, fv[first_i + tx].z, , )
}
#undef PREC

#define PREC Four32
__global__ void pairloop32_slow(const float* in, float* out) {
    const Four32* rv = (const Four32*)in;
    const float* qv = in + 4LL * PBOXES * PPAR;
    Four32* fv = (Four32*)out;
    PAIR_BODY(float, expf, fv[first_i + tx].v, fv[first_i + tx].x, fv[first_i + tx].y, fv[first_i + tx].z, , )
}
#undef PREC

// The twins: the record as four planes, the sums kept in registers by
// the code itself, as nvcc keeps the record's (it does not keep four
// planes added to in the loop: measured 2.0x slower than the record in
// double, 3.7x in float).
#define PLANE(f) fv[(f) * PBOXES * PPAR + first_i + tx]
#define PLANES_IN(T) T sv = PLANE(0), sx = PLANE(1), sy = PLANE(2), sz = PLANE(3);
#define PLANES_OUT PLANE(0) = sv; PLANE(1) = sx; PLANE(2) = sy; PLANE(3) = sz;
#define PREC Four
__global__ void pairloop_fast(const float* in, float* out) {
    const Four* rv = (const Four*)in;
    const double* qv = (const double*)(in + 8LL * PBOXES * PPAR);
    double* fv = (double*)out;
    PAIR_BODY(double, exp, sv, sx, sy, sz, PLANES_IN(double), PLANES_OUT)
}
#undef PREC

#define PREC Four32
__global__ void pairloop32_fast(const float* in, float* out) {
    const Four32* rv = (const Four32*)in;
    const float* qv = in + 4LL * PBOXES * PPAR;
    float* fv = out;
    PAIR_BODY(float, expf, sv, sx, sy, sz, PLANES_IN(float), PLANES_OUT)
}
#undef PREC

// ---- a strided load, then a loop of dense arithmetic in double ----
// fma_slow's shape in double: the load 256 bytes from the neighbour's
// (a sector a lane), 64 steps of sixteen double multiply-adds. Twin: the
// load coalesced. The H200 runs double arithmetic at half the float
// rate, so the same load weighs less beside it.
#define DOUBLES (N / 2)
__global__ void fma64_slow(const float* in, float* out) {
    const double* din = (const double*)in;
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    double a = din[i * 32], b = a + 1.0, c = a + 2.0, d = a + 3.0;
    for (int s = 0; s < FMA_STEPS; s++) {
        double k = din[DOUBLES * 32LL + (s & 31)];
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
    }
    ((double*)out)[i] = a + b + c + d;
}

__global__ void fma64_fast(const float* in, float* out) {
    const double* din = (const double*)in;
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    double a = din[i], b = a + 1.0, c = a + 2.0, d = a + 3.0;
    for (int s = 0; s < FMA_STEPS; s++) {
        double k = din[DOUBLES * 32LL + (s & 31)];
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
        a = a * k + b; b = b * k + c; c = c * k + d; d = d * k + a;
    }
    ((double*)out)[i] = a + b + c + d;
}

// ---- a wavefront over a tile in a block of sixteen threads ----
// Rodinia nw's shape (our code): a block of 16 threads fills a 16x16
// tile of a score matrix along its anti-diagonals, one __syncthreads a
// diagonal; thread tx works cell (m - tx + 1, tx + 1) of a 17x17 shared
// tile, so lanes step 16 words (a 2-way bank pattern, 4.5 wavefronts a
// request by cudalint's count). The tile is loaded and stored coalesced
// by rows. Twin: the tile's rows 18 wide (lanes 17 words apart).
#define WAVE_BLOCKS 65536
#define WB 16
#define WAVE_BODY(WIDTH)                                                                   \
    __shared__ int temp[WB + 1][WIDTH];                                                    \
    __shared__ int ref[WB][WB];                                                            \
    int tx = threadIdx.x;                                                                  \
    long long base = (long long)blockIdx.x * (WB + 1) * (WB + 1);                          \
    for (int r = 0; r < WB; r++) ref[r][tx] = score[base + (r + 1) * (WB + 1) + tx + 1];   \
    temp[0][tx + 1] = score[base + tx + 1];                                                \
    temp[tx + 1][0] = score[base + (tx + 1) * (WB + 1)];                                   \
    if (tx == 0) temp[0][0] = score[base];                                                 \
    __syncthreads();                                                                       \
    for (int m = 0; m < WB; m++) {                                                         \
        if (tx <= m) {                                                                     \
            int x = tx + 1, y = m - tx + 1;                                                \
            temp[y][x] = max(temp[y - 1][x - 1] + ref[y - 1][x - 1],                       \
                             max(temp[y][x - 1] - 10, temp[y - 1][x] - 10));               \
        }                                                                                  \
        __syncthreads();                                                                   \
    }                                                                                      \
    for (int m = WB - 2; m >= 0; m--) {                                                    \
        if (tx <= m) {                                                                     \
            int x = tx + WB - m, y = WB - tx;                                              \
            temp[y][x] = max(temp[y - 1][x - 1] + ref[y - 1][x - 1],                       \
                             max(temp[y][x - 1] - 10, temp[y - 1][x] - 10));               \
        }                                                                                  \
        __syncthreads();                                                                   \
    }                                                                                      \
    for (int r = 0; r < WB; r++) out[base + (r + 1) * (WB + 1) + tx + 1] = temp[r + 1][tx + 1];

__global__ void wavefront_slow(const int* score, int* out) { WAVE_BODY(WB + 1) }
__global__ void wavefront_fast(const int* score, int* out) { WAVE_BODY(WB + 2) }

// The same at the size of Rodinia nw's largest diagonal of tiles for a
// 2048 x 2048 matrix: 128 blocks of 16 threads, a block an SM at most,
// so every step waits on the one before it.
#define WAVE_SMALL_BLOCKS 128
__global__ void wavefront_small_slow(const int* score, int* out) { WAVE_BODY(WB + 1) }
__global__ void wavefront_small_fast(const int* score, int* out) { WAVE_BODY(WB + 2) }

typedef void (*Launcher)(float* in, float* out);

static void launch_transpose_slow(float* in, float* out) {
    dim3 grid(W / TILE, W / TILE);
    dim3 block(TILE, ROWS);
    transpose_slow<<<grid, block>>>(in, out);
}

static void launch_transpose_fast(float* in, float* out) {
    dim3 grid(W / TILE, W / TILE);
    dim3 block(TILE, ROWS);
    transpose_fast<<<grid, block>>>(in, out);
}

static void launch_bank_conflict_slow(float* in, float* out) {
    dim3 grid(W / TILE, W / TILE);
    dim3 block(TILE, ROWS);
    bank_conflict_slow<<<grid, block>>>(in, out);
}

static void launch_stride2_slow(float* in, float* out) { stride2_slow<<<N / THREADS, THREADS>>>(in, out); }
static void launch_stride4_slow(float* in, float* out) { stride4_slow<<<N / THREADS, THREADS>>>(in, out); }
static void launch_stride8_slow(float* in, float* out) { stride8_slow<<<N / THREADS, THREADS>>>(in, out); }
static void launch_stride32_slow(float* in, float* out) { stride32_slow<<<N / THREADS, THREADS>>>(in, out); }
static void launch_copy_fast(float* in, float* out) { copy_fast<<<N / THREADS, THREADS>>>(in, out); }

static void launch_aos_slow(float* in, float* out) {
    aos_slow<<<N / THREADS, THREADS>>>((const Particle*)in, out);
}

static void launch_aos_fast(float* in, float* out) { aos_fast<<<N / THREADS, THREADS>>>(in, out); }

static void launch_misaligned_slow(float* in, float* out) { misaligned_slow<<<N / THREADS, THREADS>>>(in, out); }

static void launch_reshape_slow(float* in, float* out) { reshape_slow<<<N / THREADS, THREADS>>>(in, out); }
static void launch_heads_slow(float* in, float* out) { heads_slow<<<N / THREADS, THREADS>>>(in, out); }

static void launch_rowwalk_slow(float* in, float* out) { rowwalk_slow<<<N / ROW / THREADS, THREADS>>>(in, out); }
static void launch_rowwalk_fast(float* in, float* out) { rowwalk_fast<<<N / ROW * 32 / THREADS, THREADS>>>(in, out); }

static void launch_record_slow(float* in, float* out) { record_slow<<<RECORDS / THREADS, THREADS>>>(in, out); }
static void launch_record_fast(float* in, float* out) { record_fast<<<RECORDS / THREADS, THREADS>>>(in, out); }
static void launch_triple_slow(float* in, float* out) { triple_slow<<<TRIPLES / THREADS, THREADS>>>(in, out); }
static void launch_triple_fast(float* in, float* out) { triple_fast<<<TRIPLES / THREADS, THREADS>>>(in, out); }
static void launch_compute_slow(float* in, float* out) { compute_slow<<<COMPUTED / THREADS, THREADS>>>(in, out); }
static void launch_compute_fast(float* in, float* out) { compute_fast<<<COMPUTED / THREADS, THREADS>>>(in, out); }

static void launch_rowstore_slow(float* in, float* out) { rowstore_slow<<<N / ROW / THREADS, THREADS>>>(in, out); }
static void launch_rowstore_fast(float* in, float* out) { rowstore_fast<<<N / ROW * 32 / THREADS, THREADS>>>(in, out); }

static void launch_raster16_slow(float* in, float* out) { raster16_slow<<<PIXELS / THREADS, THREADS>>>(in, out); }
static void launch_raster16_fast(float* in, float* out) { raster16_fast<<<PIXELS / THREADS, THREADS>>>(in, out); }
static void launch_raster256_slow(float* in, float* out) { raster256_slow<<<PIXELS / THREADS, THREADS>>>(in, out); }
static void launch_raster256_fast(float* in, float* out) { raster256_fast<<<PIXELS / THREADS, THREADS>>>(in, out); }
static void launch_fma_slow(float* in, float* out) { fma_slow<<<COMPUTED / THREADS, THREADS>>>(in, out); }
static void launch_fma_fast(float* in, float* out) { fma_fast<<<COMPUTED / THREADS, THREADS>>>(in, out); }

static void launch_vector_slow(float* in, float* out) { vector_slow<<<N / THREADS, THREADS>>>(in, out); }

static void launch_vector_fast(float* in, float* out) {
    vector_fast<<<N / THREADS, THREADS>>>((const float4*)in, out);
}

static void launch_f2store_slow(float* in, float* out) { f2store_slow<<<PAIRS2 / THREADS, THREADS>>>(in, out); }
static void launch_f2store_fast(float* in, float* out) { f2store_fast<<<PAIRS2 / THREADS, THREADS>>>(in, out); }
static void launch_f3store_slow(float* in, float* out) { f3store_slow<<<TRIPLES / THREADS, THREADS>>>(in, out); }
static void launch_f3load_slow(float* in, float* out) { f3load_slow<<<TRIPLES / THREADS, THREADS>>>(in, out); }
static void launch_f3load_fast(float* in, float* out) { f3load_fast<<<TRIPLES / THREADS, THREADS>>>(in, out); }
static void launch_st4_slow(float* in, float* out) { st4_slow<<<PAIRS4 / THREADS, THREADS>>>(in, out); }
static void launch_st4_fast(float* in, float* out) { st4_fast<<<PAIRS4 / THREADS, THREADS>>>(in, out); }
static void launch_st8_slow(float* in, float* out) { st8_slow<<<PAIRS8 / THREADS, THREADS>>>(in, out); }
static void launch_st8_fast(float* in, float* out) { st8_fast<<<PAIRS8 / THREADS, THREADS>>>(in, out); }
static void launch_ld8_slow(float* in, float* out) { ld8_slow<<<PAIRS8 / THREADS, THREADS>>>(in, out); }
static void launch_st8_planes(float* in, float* out) { st8_planes<<<PAIRS8 / THREADS, THREADS>>>(in, out); }
static void launch_ld8_planes(float* in, float* out) { ld8_planes<<<PAIRS8 / THREADS, THREADS>>>(in, out); }
static void launch_ld8_fast(float* in, float* out) { ld8_fast<<<PAIRS8 / THREADS, THREADS>>>(in, out); }

static void launch_st5_slow(float* in, float* out) { st5_slow<<<PAIRS8 / THREADS, THREADS>>>(in, out); }
static void launch_st5_planes(float* in, float* out) { st5_planes<<<PAIRS8 / THREADS, THREADS>>>(in, out); }
static void launch_st6_slow(float* in, float* out) { st6_slow<<<PAIRS8 / THREADS, THREADS>>>(in, out); }
static void launch_st6_planes(float* in, float* out) { st6_planes<<<PAIRS8 / THREADS, THREADS>>>(in, out); }
static void launch_st7_slow(float* in, float* out) { st7_slow<<<PAIRS8 / THREADS, THREADS>>>(in, out); }
static void launch_st7_planes(float* in, float* out) { st7_planes<<<PAIRS8 / THREADS, THREADS>>>(in, out); }

// ---- timing ----
static cudaEvent_t start_event, stop_event;

// ---- a 4-byte pixel written a byte at a time ----
// cuda-samples' texture_cube paints a cube face: each thread a pixel of
// four bytes, alpha first, then blue, green and red under a branch on
// the face number (uniform over the launch), one byte store each. The
// warp's byte stores each touch its 128 bytes' 4 sectors; the thread's
// others fill them. Twins: the pixel stored as one uchar4 (b4_fast). b4
// stores the four bytes with no branch.
static int g_face; // the face painted: the host sets it at run time
__global__ void b4_slow(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    unsigned char v = (unsigned char)in[i];
    unsigned char* pixel = (unsigned char*)out + 4 * i;
    pixel[0] = v;
    pixel[1] = v + 1;
    pixel[2] = v + 2;
    pixel[3] = 255;
}

__global__ void br4_slow(const float* in, float* out, int face) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    unsigned char v = (unsigned char)in[i];
    unsigned char* pixel = (unsigned char*)out + 4 * i;
    pixel[3] = 255;
    if (face % 2) {
        pixel[0] = pixel[1] = pixel[2] = 128;
        pixel[face / 2] = v;
    } else {
        pixel[0] = pixel[1] = pixel[2] = v;
        pixel[face / 2] = 128;
    }
}

__global__ void b4_fast(const float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    unsigned char v = (unsigned char)in[i];
    reinterpret_cast<uchar4*>(out)[i] = make_uchar4(v, v + 1, v + 2, 255);
}

// ---- a row pass: a thread per image row ----
// cuda-samples' boxFilter filters rows with a thread per row: a running
// sum over the row, a value added and one dropped each step, stored at
// each x. Neighbouring lanes store rows apart: 32 sectors a request. Its
// twin stores the same values column-major, lanes side by side. The
// sample's image is 1024 x 1024 in blocks of 64 threads (16 blocks: the
// GPU is mostly idle); boxrow is the same walk over 65536 rows of 1024.
#define BOX_R 8
#define SMALL_ROWS 1024
#define SMALL_W 1024
#define SMALL_THREADS 64
#define BIG_ROWS 65536
#define BIG_W 1024
// The row is read column-major (lanes side by side), as the sample's
// texture fetches are served: the pair differs in the store alone.
template <int ROWS_, int W_>
__device__ void box_row(const float* in, float* out, long long y, bool columns) {
    float t = 0.0f;
    for (int x = 0; x <= BOX_R; x++) {
        t += in[(long long)x * ROWS_ + y];
    }
    for (int x = 0; x < W_ - BOX_R - 1; x++) {
        t += in[(long long)(x + BOX_R + 1) * ROWS_ + y] - in[(long long)x * ROWS_ + y];
        if (columns) {
            out[(long long)x * ROWS_ + y] = t;
        } else {
            out[y * W_ + x] = t;
        }
    }
}

__global__ void boxrow_small_slow(const float* in, float* out) {
    box_row<SMALL_ROWS, SMALL_W>(in, out, (long long)blockIdx.x * SMALL_THREADS + threadIdx.x, false);
}

__global__ void boxrow_small_fast(const float* in, float* out) {
    box_row<SMALL_ROWS, SMALL_W>(in, out, (long long)blockIdx.x * SMALL_THREADS + threadIdx.x, true);
}

__global__ void boxrow_slow(const float* in, float* out) {
    box_row<BIG_ROWS, BIG_W>(in, out, (long long)blockIdx.x * THREADS + threadIdx.x, false);
}

__global__ void boxrow_fast(const float* in, float* out) {
    box_row<BIG_ROWS, BIG_W>(in, out, (long long)blockIdx.x * THREADS + threadIdx.x, true);
}

// ---- rmw: a float4 pixel read-modified-written in scalar pieces ----
// cuda-samples' simpleD3D11Texture texture_2d: red and green read and
// blended, blue and alpha written, four scalar stores and two loads of a
// 16-byte pixel per thread; the twin reads and writes the pixel as one
// float4.
__global__ void rmw_slow(float* in, float* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float* pixel = out + 4 * i;
    float v = in[i];
    pixel[0] = 0.5f * pixel[0] + 0.5f * v;
    pixel[1] = 0.5f * pixel[1] + 0.25f * v;
    pixel[2] = 0.5f + 0.5f * v;
    pixel[3] = 1;
}
__global__ void rmw_fast(float* in, float4* out) {
    long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
    float v = in[i];
    float4 p = out[i];
    p.x = 0.5f * p.x + 0.5f * v;
    p.y = 0.5f * p.y + 0.25f * v;
    p.z = 0.5f + 0.5f * v;
    p.w = 1;
    out[i] = p;
}

static void launch_b4_slow(float* in, float* out) { b4_slow<<<N / THREADS, THREADS>>>(in, out); }
static void launch_br4_slow(float* in, float* out) { br4_slow<<<N / THREADS, THREADS>>>(in, out, g_face); }
static void launch_b4_fast(float* in, float* out) { b4_fast<<<N / THREADS, THREADS>>>(in, out); }
static void launch_boxrow_small_slow(float* in, float* out) {
    boxrow_small_slow<<<SMALL_ROWS / SMALL_THREADS, SMALL_THREADS>>>(in, out);
}
static void launch_boxrow_small_fast(float* in, float* out) {
    boxrow_small_fast<<<SMALL_ROWS / SMALL_THREADS, SMALL_THREADS>>>(in, out);
}
static void launch_rmw_slow(float* in, float* out) { rmw_slow<<<N / 4 / THREADS, THREADS>>>(in, out); }
static void launch_rmw_fast(float* in, float* out) { rmw_fast<<<N / 4 / THREADS, THREADS>>>(in, (float4*)out); }
static void launch_boxrow_slow(float* in, float* out) { boxrow_slow<<<BIG_ROWS / THREADS, THREADS>>>(in, out); }
static void launch_boxrow_fast(float* in, float* out) { boxrow_fast<<<BIG_ROWS / THREADS, THREADS>>>(in, out); }
static void launch_pairloop_slow(float* in, float* out) { pairloop_slow<<<PBOXES, PTHREADS>>>(in, out); }
static void launch_pairloop_fast(float* in, float* out) { pairloop_fast<<<PBOXES, PTHREADS>>>(in, out); }
static void launch_pairloop32_slow(float* in, float* out) { pairloop32_slow<<<PBOXES, PTHREADS>>>(in, out); }
static void launch_pairloop32_fast(float* in, float* out) { pairloop32_fast<<<PBOXES, PTHREADS>>>(in, out); }
static void launch_fma64_slow(float* in, float* out) { fma64_slow<<<DOUBLES / 32 / THREADS, THREADS>>>(in, out); }
static void launch_fma64_fast(float* in, float* out) { fma64_fast<<<DOUBLES / 32 / THREADS, THREADS>>>(in, out); }
static void launch_wavefront_slow(float* in, float* out) { wavefront_slow<<<WAVE_BLOCKS, WB>>>((const int*)in, (int*)out); }
static void launch_wavefront_fast(float* in, float* out) { wavefront_fast<<<WAVE_BLOCKS, WB>>>((const int*)in, (int*)out); }
static void launch_wavefront_small_slow(float* in, float* out) {
    wavefront_small_slow<<<WAVE_SMALL_BLOCKS, WB>>>((const int*)in, (int*)out);
}
static void launch_wavefront_small_fast(float* in, float* out) {
    wavefront_small_fast<<<WAVE_SMALL_BLOCKS, WB>>>((const int*)in, (int*)out);
}

// median_ms launches WARMUPS times untimed, then RUNS times each between
// two events, and returns the median of the RUNS times.
// Under a profiler (measure12.sh: pairs --once NAME...) each kernel of the
// named pairs runs once, untimed beyond that; pairs --pairs NAME... times
// only the named pairs.
static int warmups = WARMUPS, runs = RUNS;
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
        launch(in, out);
        CHECK(cudaEventRecord(stop_event));
        CHECK(cudaEventSynchronize(stop_event));
        CHECK(cudaGetLastError());
        CHECK(cudaEventElapsedTime(&ms[r], start_event, stop_event));
    }
    for (int a = 1; a < runs; a++) { // insertion sort: 15 values
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

// time_pair prints the pair's two lines: the kernel as it is, then fixed.
static void time_pair(const char* pair, const char* slow_name, Launcher slow,
                      const char* fast_name, Launcher fast, float* in, float* out) {
    bool named = only == NULL;
    for (int k = 0; k < n_only; k++) named = named || strcmp(only[k], pair) == 0;
    if (!named) return;
    // The useful bytes: N floats read and N written, once each.
    long long bytes = 2LL * N * (long long)sizeof(float);
    float slow_ms = median_ms(slow, in, out);
    float fast_ms = median_ms(fast, in, out);
    printf("%s,%s,%.6f,%lld\n", pair, slow_name, slow_ms, bytes);
    printf("%s,%s,%.6f,%lld\n", pair, fast_name, fast_ms, bytes);
    fflush(stdout);
}

int main(int argc, char** argv) {
    if (argc > 1 && strcmp(argv[1], "--once") == 0) {
        warmups = 0, runs = 1, only = argv + 2, n_only = argc - 2;
    }
    if (argc > 1 && strcmp(argv[1], "--pairs") == 0) {
        only = argv + 2, n_only = argc - 2;
    }
    // in holds the widest walk, 32 floats per thread (8 GiB); out N floats.
    const size_t in_words = (size_t)N * 32 + 64;
    const size_t out_words = (size_t)N + 64;
    float *in, *out;
    CHECK(cudaMalloc(&in, in_words * sizeof(float)));
    CHECK(cudaMalloc(&out, out_words * sizeof(float)));
    CHECK(cudaMemset(in, 0, in_words * sizeof(float)));
    CHECK(cudaMemset(out, 0, out_words * sizeof(float)));
    CHECK(cudaEventCreate(&start_event));
    CHECK(cudaEventCreate(&stop_event));

    time_pair("transpose", "transpose_slow", launch_transpose_slow, "transpose_fast", launch_transpose_fast, in, out);
    time_pair("bank_conflict", "bank_conflict_slow", launch_bank_conflict_slow, "transpose_fast", launch_transpose_fast, in, out);
    time_pair("stride2", "stride2_slow", launch_stride2_slow, "copy_fast", launch_copy_fast, in, out);
    time_pair("stride4", "stride4_slow", launch_stride4_slow, "copy_fast", launch_copy_fast, in, out);
    time_pair("stride8", "stride8_slow", launch_stride8_slow, "copy_fast", launch_copy_fast, in, out);
    time_pair("stride32", "stride32_slow", launch_stride32_slow, "copy_fast", launch_copy_fast, in, out);
    time_pair("aos", "aos_slow", launch_aos_slow, "aos_fast", launch_aos_fast, in, out);
    time_pair("misaligned", "misaligned_slow", launch_misaligned_slow, "copy_fast", launch_copy_fast, in, out);
    time_pair("vector", "vector_slow", launch_vector_slow, "vector_fast", launch_vector_fast, in, out);
    time_pair("reshape", "reshape_slow", launch_reshape_slow, "transpose_fast", launch_transpose_fast, in, out);
    time_pair("heads", "heads_slow", launch_heads_slow, "copy_fast", launch_copy_fast, in, out);
    time_pair("rowwalk", "rowwalk_slow", launch_rowwalk_slow, "rowwalk_fast", launch_rowwalk_fast, in, out);
    time_pair("record", "record_slow", launch_record_slow, "record_fast", launch_record_fast, in, out);
    time_pair("triple", "triple_slow", launch_triple_slow, "triple_fast", launch_triple_fast, in, out);
    time_pair("compute", "compute_slow", launch_compute_slow, "compute_fast", launch_compute_fast, in, out);
    time_pair("rowstore", "rowstore_slow", launch_rowstore_slow, "rowstore_fast", launch_rowstore_fast, in, out);
    time_pair("raster16", "raster16_slow", launch_raster16_slow, "raster16_fast", launch_raster16_fast, in, out);
    time_pair("raster256", "raster256_slow", launch_raster256_slow, "raster256_fast", launch_raster256_fast, in, out);
    time_pair("fma", "fma_slow", launch_fma_slow, "fma_fast", launch_fma_fast, in, out);
    time_pair("f2store", "f2store_slow", launch_f2store_slow, "f2store_fast", launch_f2store_fast, in, out);
    time_pair("f3store", "f3store_slow", launch_f3store_slow, "triple_fast", launch_triple_fast, in, out);
    time_pair("f3load", "f3load_slow", launch_f3load_slow, "f3load_fast", launch_f3load_fast, in, out);
    time_pair("st4", "st4_slow", launch_st4_slow, "st4_fast", launch_st4_fast, in, out);
    time_pair("st8", "st8_slow", launch_st8_slow, "st8_planes", launch_st8_planes, in, out);
    time_pair("ld8", "ld8_slow", launch_ld8_slow, "ld8_planes", launch_ld8_planes, in, out);
    time_pair("v8store", "st8_fast", launch_st8_fast, "st8_planes", launch_st8_planes, in, out);
    time_pair("v8load", "ld8_fast", launch_ld8_fast, "ld8_planes", launch_ld8_planes, in, out);
    time_pair("st5", "st5_slow", launch_st5_slow, "st5_planes", launch_st5_planes, in, out);
    time_pair("st6", "st6_slow", launch_st6_slow, "st6_planes", launch_st6_planes, in, out);
    time_pair("st7", "st7_slow", launch_st7_slow, "st7_planes", launch_st7_planes, in, out);
    // The face a cube painter paints: known only at run time (1 unless
    // FACE says otherwise).
    const char* face = getenv("FACE");
    g_face = face ? atoi(face) : 1;
    time_pair("b4", "b4_slow", launch_b4_slow, "b4_fast", launch_b4_fast, in, out);
    time_pair("br4", "br4_slow", launch_br4_slow, "b4_fast", launch_b4_fast, in, out);
    time_pair("boxrow_small", "boxrow_small_slow", launch_boxrow_small_slow, "boxrow_small_fast", launch_boxrow_small_fast, in, out);
    time_pair("boxrow", "boxrow_slow", launch_boxrow_slow, "boxrow_fast", launch_boxrow_fast, in, out);
    time_pair("rmw", "rmw_slow", launch_rmw_slow, "rmw_fast", launch_rmw_fast, in, out);
    time_pair("pairloop", "pairloop_slow", launch_pairloop_slow, "pairloop_fast", launch_pairloop_fast, in, out);
    time_pair("pairloop32", "pairloop32_slow", launch_pairloop32_slow, "pairloop32_fast", launch_pairloop32_fast, in, out);
    time_pair("fma64", "fma64_slow", launch_fma64_slow, "fma64_fast", launch_fma64_fast, in, out);
    time_pair("wavefront", "wavefront_slow", launch_wavefront_slow, "wavefront_fast", launch_wavefront_fast, in, out);
    time_pair("wavefront_small", "wavefront_small_slow", launch_wavefront_small_slow, "wavefront_small_fast",
              launch_wavefront_small_fast, in, out);

    CHECK(cudaEventDestroy(start_event));
    CHECK(cudaEventDestroy(stop_event));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
