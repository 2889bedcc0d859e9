// Probe kernels for cudalint's measured truth.
//
// Each kernel exercises one access pattern. Every global access of interest
// stands on its own line, with at most one load and one store per line, so
// that Nsight Compute's per-line counters map to exactly one modelled access.
// measure.sh builds this file, runs it under ncu and exports the per-SASS
// counters; measured.csv holds the result.

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct S8 { float x, y; };
struct S12 { float x, y, z; };
struct S16 { float x, y, z, w; };

// ---- 1D copies of 1-, 2-, 4-, 8- and 16-byte elements ----
__global__ void p_copy_char(const char* in, char* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void p_copy_short(const short* in, short* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void p_copy_float(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void p_copy_double(const double* in, double* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void p_copy_float4(const float4* in, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// ---- constant strides ----
__global__ void p_stride2(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 2];
}
__global__ void p_stride3(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 3];
}
__global__ void p_stride4(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 4];
}
__global__ void p_stride8(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 8];
}
__global__ void p_stride33(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 33];
}
// stride as a parameter, constant at the launch
__global__ void p_stride_param(const float* in, float* out, int s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * s];
}

// ---- offsets ----
__global__ void p_offset1(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + 1];
}
__global__ void p_offset8(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + 8];
}

// ---- broadcasts ----
__global__ void p_broadcast0(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[0];
}
__global__ void p_broadcast_block(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[blockIdx.x];
}

// ---- reversed, halved, permuted ----
__global__ void p_reversed(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[n - 1 - i];
}
__global__ void p_half(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i / 2];
}
__global__ void p_permute(const float* in, float* out, int w) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[(i % 8) * w + i / 8];
}

// ---- two loads of neighbouring elements ----
__global__ void p_pair(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = in[2 * i];
    float b = in[2 * i + 1];
    out[i] = a + b;
}

// ---- gather through an index array ----
__global__ void p_gather(const float* in, const int* idx, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = idx[i];
    out[i] = in[j];
}

// ---- grid-stride loop ----
__global__ void p_grid_stride(const float* in, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = in[i] * 2.0f;
    }
}

// ---- 2D row-major, axes right and swapped, several block shapes ----
__global__ void p_2d_16x16(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * w + x] = in[y * w + x];
}
__global__ void p_2d_16x16_swapped(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * w + y] = in[x * w + y];
}
__global__ void p_2d_32x8(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * w + x] = in[y * w + x];
}
__global__ void p_2d_32x8_swapped(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * w + y] = in[x * w + y];
}
__global__ void p_2d_8x4(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * w + x] = in[y * w + x];
}
__global__ void p_2d_8x4_swapped(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * w + y] = in[x * w + y];
}
__global__ void p_2d_1x32(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * w + x] = in[y * w + x];
}
__global__ void p_2d_1x32_swapped(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * w + y] = in[x * w + y];
}
// a row width that is not a multiple of 8 floats
__global__ void p_2d_odd_width(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * w + x] = in[y * w + x];
}

// ---- column reads ----
__global__ void p_column(const float* in, float* out, int w) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[threadIdx.x * w + blockIdx.x];
}

// ---- 3D blocks ----
__global__ void p_3d(const float* in, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    out[(z * h + y) * w + x] = in[(z * h + y) * w + x];
}

// ---- pitched rows ----
__global__ void p_pitched(const float* in, float* out, size_t pitch, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    const float* row = (const float*)((const char*)in + y * pitch);
    out[y * w + x] = row[x];
}

// ---- transposes ----
__global__ void p_transpose_naive(const float* in, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * h + y] = in[y * w + x];
}
#define TILE 32
__global__ void p_transpose_tiled(const float* in, float* out, int w, int h) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8) {
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8) {
        out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

// ---- array of structs ----
__global__ void p_aos8(const S8* p, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = p[i].x;
}
__global__ void p_aos12(const S12* p, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = p[i].y;
}
__global__ void p_aos16(const S16* p, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = p[i].z;
}
__global__ void p_aos12_copy(const S12* p, S12* q) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    q[i] = p[i];
}

// ---- naive matrix multiply, both thread mappings ----
__global__ void p_matmul_good(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; k++) {
        sum += a[row * n + k]
             * b[k * n + col];
    }
    c[row * n + col] = sum;
}
__global__ void p_matmul_bad(const float* a, const float* b, float* c, int n) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    float sum = 0.0f;
    for (int k = 0; k < n; k++) {
        sum += a[row * n + k]
             * b[k * n + col];
    }
    c[row * n + col] = sum;
}

// ---- access through a __device__ helper ----
__device__ float load_strided(const float* p, int i) {
    return p[i * 2];
}
__global__ void p_helper(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = load_strided(in, i);
}

// ---- half-warp guarded access ----
__global__ void p_half_warp(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 32 < 16) {
        out[i] = in[i];
    }
}

// ---- float4 load from base + 4 floats ----
__global__ void p_float4_offset(const float* in, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4* v = reinterpret_cast<const float4*>(in + 4);
    out[i] = v[i];
}


// ---- shared memory: bank conflicts ----
__global__ void p_transpose_tiled_nopad(const float* in, float* out, int w, int h) {
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8) {
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8) {
        out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}
__global__ void p_shared_stride(const float* in, float* out) {
    __shared__ float s[1024];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i];
    __syncthreads();
    float a = s[(threadIdx.x * 2) % 256];
    float b = s[(threadIdx.x * 4) % 256];
    float c = s[0];
    out[i] = a + b + c;
}
__global__ void p_shared_double(const double* in, double* out) {
    __shared__ double d[512];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    d[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = d[(threadIdx.x * 2) % 256];
}
// Tree reductions: strides that halve or double each iteration.
__global__ void p_reduce_interleaved(const float* in, float* out) {
    __shared__ float s[256];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x) s[index] += s[index + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
__global__ void p_reduce_sequential(const float* in, float* out) {
    __shared__ float s[256];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
__global__ void p_global_doubling(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0;
    for (int step = 1; step <= 32; step <<= 1) {
        acc += in[i * step];
    }
    out[i] = acc;
}
__global__ void p_global_halving(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0;
    for (int step = 32; step > 0; step /= 2) {
        acc += in[i * step];
    }
    out[i] = acc;
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

int main() {
    const int n = 1 << 20;
    const int w = 1024;
    const int odd = 1001;
    const size_t words = 64u << 20;
    float *a, *b, *c;
    int *idx;
    CHECK(cudaMalloc(&a, words * sizeof(float)));
    CHECK(cudaMalloc(&b, words * sizeof(float)));
    CHECK(cudaMalloc(&c, words * sizeof(float)));
    CHECK(cudaMalloc(&idx, n * sizeof(int)));
    int* host = (int*)malloc(n * sizeof(int));
    srand(1);
    for (int k = 0; k < n; k++) host[k] = rand() % n;
    CHECK(cudaMemcpy(idx, host, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(a, 0, words * sizeof(float)));

    p_copy_char<<<4096, 256>>>((const char*)a, (char*)b);
    p_copy_short<<<4096, 256>>>((const short*)a, (short*)b);
    p_copy_float<<<4096, 256>>>(a, b);
    p_copy_double<<<4096, 256>>>((const double*)a, (double*)b);
    p_copy_float4<<<4096, 256>>>((const float4*)a, (float4*)b);
    p_stride2<<<4096, 256>>>(a, b);
    p_stride3<<<4096, 256>>>(a, b);
    p_stride4<<<4096, 256>>>(a, b);
    p_stride8<<<4096, 256>>>(a, b);
    p_stride33<<<4096, 256>>>(a, b);
    p_stride_param<<<4096, 256>>>(a, b, 4);
    p_offset1<<<4096, 256>>>(a, b);
    p_offset8<<<4096, 256>>>(a, b);
    p_broadcast0<<<4096, 256>>>(a, b);
    p_broadcast_block<<<4096, 256>>>(a, b);
    p_reversed<<<4096, 256>>>(a, b, n);
    p_half<<<4096, 256>>>(a, b);
    p_permute<<<4096, 256>>>(a, b, n / 8);
    p_pair<<<4096, 256>>>(a, b);
    p_gather<<<4096, 256>>>(a, idx, b);
    p_grid_stride<<<1024, 256>>>(a, b, n);

    p_2d_16x16<<<dim3(w / 16, w / 16), dim3(16, 16)>>>(a, b, w);
    p_2d_16x16_swapped<<<dim3(w / 16, w / 16), dim3(16, 16)>>>(a, b, w);
    p_2d_32x8<<<dim3(w / 32, w / 8), dim3(32, 8)>>>(a, b, w);
    p_2d_32x8_swapped<<<dim3(w / 32, w / 8), dim3(32, 8)>>>(a, b, w);
    p_2d_8x4<<<dim3(w / 8, w / 4), dim3(8, 4)>>>(a, b, w);
    p_2d_8x4_swapped<<<dim3(w / 8, w / 4), dim3(8, 4)>>>(a, b, w);
    p_2d_1x32<<<dim3(w, w / 32), dim3(1, 32)>>>(a, b, w);
    p_2d_1x32_swapped<<<dim3(w, w / 32), dim3(1, 32)>>>(a, b, w);
    dim3 oddBlock(16, 16);
    dim3 oddGrid(odd / 16, odd / 16);
    p_2d_odd_width<<<oddGrid, oddBlock>>>(a, b, odd);
    p_column<<<1024, 256>>>(a, b, w);
    p_3d<<<dim3(8, 16, 16), dim3(8, 4, 4)>>>(a, b, 64, 64);
    p_pitched<<<dim3(w / 32, w / 8), dim3(32, 8)>>>(a, b, 4352, w);
    p_transpose_naive<<<dim3(w / 16, w / 16), dim3(16, 16)>>>(a, b, w, w);
    p_transpose_tiled<<<dim3(w / TILE, w / TILE), dim3(TILE, 8)>>>(a, b, w, w);
    p_aos8<<<4096, 256>>>((const S8*)a, b);
    p_aos12<<<4096, 256>>>((const S12*)a, b);
    p_aos16<<<4096, 256>>>((const S16*)a, b);
    p_aos12_copy<<<4096, 256>>>((const S12*)a, (S12*)b);
    p_matmul_good<<<dim3(32, 32), dim3(16, 16)>>>(a, b, c, 512);
    p_matmul_bad<<<dim3(32, 32), dim3(16, 16)>>>(a, b, c, 512);
    p_helper<<<4096, 256>>>(a, b);
    p_half_warp<<<4096, 256>>>(a, b);
    p_float4_offset<<<4096, 256>>>(a, (float4*)b);
    p_transpose_tiled_nopad<<<dim3(w / TILE, w / TILE), dim3(TILE, 8)>>>(a, b, w, w);
    p_shared_stride<<<4096, 256>>>(a, b);
    p_shared_double<<<4096, 256>>>((const double*)a, (double*)b);
    p_reduce_interleaved<<<4096, 256>>>(a, b);
    p_reduce_sequential<<<4096, 256>>>(a, b);
    p_global_doubling<<<4096, 256>>>(a, b);
    p_global_halving<<<4096, 256>>>(a, b);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("probes ran\n");
    return 0;
}
