// Probe kernels for capabilities cudalint does not model yet (see
// cmd/cudalint/gaps_test.go): loaded warp-uniform bases, values after
// loops, unrolled loops, host code, references and selected pointers,
// __device__ variables, C++ classes and templates, launches through
// function pointers, aligned structs, rare and data-dependent guards,
// re-reads, 128-bit accessors, half and bfloat16 types.
//
// As in probes.cu: every global access of interest stands on its own line
// (at most one load and one store per line), and every kernel is launched
// exactly once (the export keys lines by kernel name). The comment above
// a kernel says what an exact model expects (the section header gives the
// capability number of the issue's list, which gaps_test.go reads).
// measure.sh OUTDIR probes2 builds and measures this file.

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// ---- 1: a warp-uniform loaded value used as a base ----
struct Box { int offset; int count; };

// offsets are multiples of 8 floats: every warp starts on a sector
__global__ void m_uniform_base_aligned(const Box* boxes, const float* rv, float* out) {
    int first = boxes[blockIdx.x].offset;
    const float* p = &rv[first];
    float v = p[threadIdx.x];
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
// offsets b * 1003: every residue mod 8 floats equally often
__global__ void m_uniform_base_any(const Box* boxes, const float* rv, float* out) {
    int first = boxes[blockIdx.x].offset;
    const float* p = &rv[first];
    float v = p[threadIdx.x];
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// ---- 2: values after a loop ----
// n = 5, s = 3: c = 15 after the loop
__global__ void m_after_loop_sum(const float* a, float* out, int n, int s) {
    int c = 0;
    for (int k = 0; k < n; k++) c += s;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[c + i];
    out[i] = v;
}
// n = 4: the last iteration sets step = 2; the constant loop leaves d = 3
__global__ void m_after_loop_flag(const float* a, float* out, int n) {
    int step = 0;
    for (int k = 0; k < n; k++) {
        step = (k == n - 1) ? 2 : 1;
    }
    int d = 0;
    for (int k = 0; k < 3; k++) d += k;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i * step];
    float u = a[i + d];
    out[i] = v + u;
}

// ---- 3: a fully unrolled loop whose iterations cost differently ----
// w = 1001 floats: row 0 starts on a sector, rows 1..3 do not
__global__ void m_unroll_rows(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < 4; r++) {
        acc += in[r * w + x];
    }
    out[x] = acc;
}

// ---- 4: host code ----
// count = 3 from a host loop, and the grid from another
__global__ void m_host_loop_count(const float* in, float* out, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i * count];
    out[i] = v;
}
static int iDivUp(int a, int b) { return (a + b - 1) / b; }
// w = h = 1000, grid iDivUp(w, 16) x iDivUp(h, 16), block 16x16
__global__ void m_idivup_2d(const float* in, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float v = in[y * w + x];
    out[y * w + x] = v;
}
// grid iDivUp(40, 16) = 3: lanes gridDim.x = 3 floats apart
__global__ void m_idivup_grid(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[threadIdx.x * gridDim.x + blockIdx.x];
    out[i] = v;
}

// ---- 5: references, selected pointers, null tests, struct fields ----
template <class T> __device__ void read_ref(T& dst, const T* src, int k) {
    dst = src[k];
}
__device__ void set_ref(float& dst, float v) {
    dst = v;
}
// load stride 2 into a reference, store stride 4 through one
__global__ void m_ref_param(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v;
    read_ref(v, in, i * 2);
    set_ref(out[i * 4], v);
}
// warps 0..3 read A[i] (4 sectors), warps 4..7 B[2 * i] (8)
__global__ void m_select_ptr(const float* A, const float* B, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int w = threadIdx.x / 32;
    const float* p = w < 4 ? &A[i] : &B[2 * i];
    float v = *p;
    out[i] = v;
}
// launched with in != nullptr: the else store runs in no warp
__global__ void m_null_ptr(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = 1.0f;
    if (in) x = in[i * 2];
    else out[i * 4] = 0.0f;
    out[i] = x;
}
// the same body launched with in == nullptr
__global__ void m_null_ptr_null(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = 1.0f;
    if (in) x = in[i * 2];
    else out[i * 4] = 0.0f;
    out[i] = x;
}
struct View { float* raw; float* data; };
// data = raw + 1, set in the kernel
__global__ void m_struct_raw1_device(float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    View v;
    v.raw = in;
    v.data = v.raw + 1;
    float x = v.data[i];
    out[i] = x;
}
// data = raw + 1, set on the host and passed by value
__global__ void m_struct_raw1_host(View v, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = v.data[i];
    out[i] = x;
}

// ---- 6: scalar __device__ variables ----
__device__ float g_scale;
__device__ int g_last;
__global__ void m_device_scalar(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = g_scale;
    float v = in[i];
    out[i] = v * s;
    g_last = i;
}

// ---- 7: C++ classes ----
template <int R, int C> struct Transform {
    static __device__ void run(const float* in, float* out, int i) {
        out[i] = in[i * R / C + R / 2];
    }
};
// Transform<8, 8>: load offset 4 floats (5 sectors), store 4
__global__ void m_static_member(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Transform<8, 8>::run(in, out, i);
}
struct Loader {
    int stride, offset;
    __device__ Loader(int s, int o) : stride(s), offset(o) {}
    __device__ float load(const float* p, int i) const {
        return p[i * stride + offset];
    }
};
struct Writer {
    float* dst;
    int step;
    __device__ Writer(float* d, int s) {
        dst = d;
        step = s;
    }
    __device__ void write(int i, float v) {
        dst[i * step] = v;
    }
};
// Loader(2, 3): stride 2 from +3 floats (9 sectors); Writer(out, 3): stride 3 (12)
__global__ void m_method_ctor(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Loader loader(2, 3);
    Writer writer(out, 3);
    float v = loader.load(in, i);
    writer.write(i, v);
}

// ---- 8: host templates, if constexpr, helper template arguments ----
template <class T> __global__ void m_tmpl_host(const T* in, T* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T v = in[i];
    out[i] = v;
}
template <class T> void run_tmpl_host(const T* in, T* out) {
    m_tmpl_host<T><<<4096, 256>>>(in, out);
}
// launched as <float> only: the else branch is dead
template <class T> __global__ void m_if_constexpr(const T* in, T* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if constexpr (sizeof(T) == 4) {
        out[i] = in[i * 2];
    } else {
        out[i] = in[i * 4];
    }
}
template <int K> __device__ void put(float* out, int i, float v) {
    out[i + K] = v;
}
// put<1>: store from +1 float (5 sectors)
__global__ void m_put_tmpl(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    put<1>(out, i, v);
}

// ---- 9: a launch through a function pointer ----
// launched with blocks of 64: lanes blockDim.x / 32 = 2 floats apart
__global__ void m_fnptr(float* p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i * (blockDim.x / 32)] = 1.0f;
}

// ---- 10: __align__(16) array of structs ----
typedef struct __align__(16) { float a, b, c; } Vec3A;
__global__ void m_align16_field(const Vec3A* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i].b;
    out[i] = v;
}
__global__ void m_align16_copy(const Vec3A* in, Vec3A* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Vec3A v = in[i];
    out[i] = v;
}

// ---- 11: rare guards and guards on loaded data ----
// grid 4096 x 4: only blocks with blockIdx.y == 0 access
__global__ void m_guard_block_y(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.y == 0) {
        float v = in[i * 2];
        out[i] = v;
    }
}
// one thread of the whole grid
__global__ void m_guard_one_thread(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    out[i] = v;
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        out[1 << 22] = in[7];
    }
}
// mask[i] = ((i / 32) % 4 == 0): one warp in four, all its lanes
__global__ void m_guard_mask_warp(const int* mask, const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int m = mask[i];
    if (m) {
        out[i] = in[i];
    }
}
// mask[i] = i % 2: every warp, its odd lanes
__global__ void m_guard_mask_lane(const int* mask, const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int m = mask[i];
    if (m) {
        out[i] = in[i];
    }
}

// ---- 12: a re-read the compiler makes one load ----
struct LatLng { float lat, lng; };
__global__ void m_reread(const LatLng* d, float* out, float x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = (x - d[i].lat) * (x - d[i].lat);
}

// ---- 13: a 128-bit accessor ----
template <class T> struct alignas(16) Packed {
    static constexpr int size = sizeof(int4) / sizeof(T);
    T v[size];
    Packed() = default;
    __device__ explicit Packed(int4 bits) {
        *reinterpret_cast<int4*>(v) = bits;
    }
    __device__ int4 bits() const {
        return *reinterpret_cast<const int4*>(v);
    }
    __device__ T& operator[](int k) { return v[k]; }
};
template <class T> __device__ Packed<T> load128(const T* p) {
    return Packed<T>(__ldg(reinterpret_cast<const int4*>(p)));
}
template <class T> __device__ Packed<T> load128cs(const T* p) {
    return Packed<T>(__ldcs(reinterpret_cast<const int4*>(p)));
}
template <class T> __device__ Packed<T> load128cg(const T* p) {
    return Packed<T>(__ldcg(reinterpret_cast<const int4*>(p)));
}
template <class T> __device__ void store128cs(T* p, Packed<T> x) {
    __stcs(reinterpret_cast<int4*>(p), x.bits());
}
template <class T> __device__ void store128(T* p, Packed<T> x) {
    *reinterpret_cast<int4*>(p) = x.bits();
}
// coalesced: 16 bytes a lane, 16 sectors a request
__global__ void m_packed_f32_ldg(const float* in, float* out) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Packed<float>::size;
    Packed<float> x = load128(in + i);
    for (int k = 0; k < Packed<float>::size; k++) x[k] *= 2.0f;
    store128cs(out + i, x);
}
__global__ void m_packed_f32_ldcs(const float* in, float* out) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Packed<float>::size;
    Packed<float> x = load128cs(in + i);
    for (int k = 0; k < Packed<float>::size; k++) x[k] += 1.0f;
    store128(out + i, x);
}
__global__ void m_packed_bf16_ldcg(const __nv_bfloat16* in, __nv_bfloat16* out) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Packed<__nv_bfloat16>::size;
    Packed<__nv_bfloat16> x = load128cg(in + i);
    for (int k = 0; k < Packed<__nv_bfloat16>::size; k++) x[k] = __float2bfloat16(__bfloat162float(x[k]) + 1.0f);
    store128cs(out + i, x);
}
// uncoalesced: each thread reads its own row of `row` elements (24)
__global__ void m_packed_f32_rows(const float* in, float* out, int row) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    Packed<float> x = load128(in + t * row);
    store128cs(out + t * Packed<float>::size, x);
}
__global__ void m_packed_bf16_rows(const __nv_bfloat16* in, __nv_bfloat16* out, int row) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    Packed<__nv_bfloat16> x = load128cs(in + t * row);
    store128(out + t * Packed<__nv_bfloat16>::size, x);
}

// ---- 14: one inlined helper, two call sites ----
__device__ __forceinline__ float fetch_at(const float* p, int k) {
    return p[k];
}
// the helper's line holds both loads: coalesced (4) and stride 4 (16)
__global__ void m_two_sites(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = fetch_at(in, i);
    float b = fetch_at(in, i * 4);
    out[i] = a + b;
}

// ---- 15: deduced templates, functions as template arguments, lambdas ----
template <class T> __host__ __device__ constexpr T ceil_div(T a, T b) {
    return (a + b - 1) / b;
}
// V = 10: ceil_div(V, 4) = 3
__global__ void m_ceil_div(const float* in, float* out, int V) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int q = ceil_div(V, 4);
    float v = in[i * q];
    out[i] = v;
}
__device__ void op_twice(float* p, int i) {
    p[i * 2] *= 2.0f;
}
template <void (*F)(float*, int)> __global__ void m_fn_template(float* p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    F(p, i);
}
__global__ void m_lambda_load(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto get = [&](int k) {
        return in[k * 2];
    };
    float v = get(i);
    out[i] = v;
}

// ---- 16: element types, coalesced and stride 2 ----
__global__ void m_elem_half(const __half* in, __half* out, __half* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half v = in[i];
    __half u = in[2 * i];
    out[i] = v;
    out2[2 * i] = u;
}
__global__ void m_elem_half2(const half2* in, half2* out, half2* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    half2 v = in[i];
    half2 u = in[2 * i];
    out[i] = v;
    out2[2 * i] = u;
}
__global__ void m_elem_bf16(const __nv_bfloat16* in, __nv_bfloat16* out, __nv_bfloat16* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat16 v = in[i];
    __nv_bfloat16 u = in[2 * i];
    out[i] = v;
    out2[2 * i] = u;
}
__global__ void m_elem_bf162(const __nv_bfloat162* in, __nv_bfloat162* out, __nv_bfloat162* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat162 v = in[i];
    __nv_bfloat162 u = in[2 * i];
    out[i] = v;
    out2[2 * i] = u;
}
__global__ void m_elem_float2(const float2* in, float2* out, float2* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 v = in[i];
    float2 u = in[2 * i];
    out[i] = v;
    out2[2 * i] = u;
}
__global__ void m_elem_int4(const int4* in, int4* out, int4* out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int4 v = in[i];
    int4 u = in[2 * i];
    out[i] = v;
    out2[2 * i] = u;
}

// ---- 17: sizes through host functions, a picked block, block-dependent trips ----
// stride = 5, n = 1 << 20, through two host functions
__global__ void m_host_chain(const float* in, float* out, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i * stride];
    out[i] = v;
}
static void launch_chain_inner(const float* in, float* out, int n, int stride) {
    m_host_chain<<<n / 256, 256>>>(in, out, stride);
}
static void launch_chain_outer(const float* in, float* out, int n, int stride) {
    launch_chain_inner(in, out, n, stride);
}
// block 128 picked from {64, 128, 256, 512}: lanes 2 floats apart, warp w from +w
__global__ void m_block_pick(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.x * blockDim.x + (threadIdx.x % 32) * (blockDim.x / 64) + threadIdx.x / 32;
    float v = in[j];
    out[i] = v;
}
// block b runs b % 4 + 1 iterations; iteration k reads stride k + 1
__global__ void m_trip_block(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k <= (int)(blockIdx.x % 4); k++) {
        acc += in[i * (k + 1)];
    }
    out[i] = acc;
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

int main() {
    const int n = 1 << 20;
    const size_t words = 64u << 20;
    float *a, *b, *c;
    Box *boxesAligned, *boxesAny;
    int *maskWarp, *maskLane;
    CHECK(cudaMalloc(&a, words * sizeof(float)));
    CHECK(cudaMalloc(&b, words * sizeof(float)));
    CHECK(cudaMalloc(&c, words * sizeof(float)));
    CHECK(cudaMalloc(&boxesAligned, 4096 * sizeof(Box)));
    CHECK(cudaMalloc(&boxesAny, 4096 * sizeof(Box)));
    CHECK(cudaMalloc(&maskWarp, n * sizeof(int)));
    CHECK(cudaMalloc(&maskLane, n * sizeof(int)));
    CHECK(cudaMemset(a, 0, words * sizeof(float)));

    Box* hb = (Box*)malloc(4096 * sizeof(Box));
    for (int k = 0; k < 4096; k++) { hb[k].offset = k * 264; hb[k].count = 256; }
    CHECK(cudaMemcpy(boxesAligned, hb, 4096 * sizeof(Box), cudaMemcpyHostToDevice));
    for (int k = 0; k < 4096; k++) { hb[k].offset = k * 1003; hb[k].count = 256; }
    CHECK(cudaMemcpy(boxesAny, hb, 4096 * sizeof(Box), cudaMemcpyHostToDevice));
    int* hm = (int*)malloc(n * sizeof(int));
    for (int k = 0; k < n; k++) hm[k] = (k / 32) % 4 == 0;
    CHECK(cudaMemcpy(maskWarp, hm, n * sizeof(int), cudaMemcpyHostToDevice));
    for (int k = 0; k < n; k++) hm[k] = k % 2;
    CHECK(cudaMemcpy(maskLane, hm, n * sizeof(int), cudaMemcpyHostToDevice));
    float one = 1.0f;
    CHECK(cudaMemcpyToSymbol(g_scale, &one, sizeof(float)));

    // 1
    m_uniform_base_aligned<<<4096, 256>>>(boxesAligned, a, b);
    m_uniform_base_any<<<4096, 256>>>(boxesAny, a, b);
    // 2
    m_after_loop_sum<<<4096, 256>>>(a, b, 5, 3);
    m_after_loop_flag<<<4096, 256>>>(a, b, 4);
    // 3
    m_unroll_rows<<<4096, 256>>>(a, b, 1001);
    // 4
    int count = 0;
    for (int k = 0; k < 6; k++) {
        if (k % 2 == 0) count++;
    }
    int blocks = 0;
    for (int k = 0; k < 8; k++) blocks += 512;
    m_host_loop_count<<<blocks, 256>>>(a, b, count);
    int w = 1000, h = 1000;
    m_idivup_2d<<<dim3(iDivUp(w, 16), iDivUp(h, 16)), dim3(16, 16)>>>(a, b, w, h);
    m_idivup_grid<<<iDivUp(40, 16), 256>>>(a, b);
    // 5
    m_ref_param<<<4096, 256>>>(a, b);
    m_select_ptr<<<4096, 256>>>(a, c, b);
    m_null_ptr<<<4096, 256>>>(a, b);
    m_null_ptr_null<<<4096, 256>>>(nullptr, b);
    m_struct_raw1_device<<<4096, 256>>>(a, b);
    View view;
    view.raw = a;
    view.data = a + 1;
    m_struct_raw1_host<<<4096, 256>>>(view, b);
    // 6
    m_device_scalar<<<4096, 256>>>(a, b);
    // 7
    m_static_member<<<4096, 256>>>(a, b);
    m_method_ctor<<<4096, 256>>>(a, b);
    // 8
    run_tmpl_host<float>(a, b);
    run_tmpl_host<double>((const double*)a, (double*)b);
    m_if_constexpr<float><<<4096, 256>>>(a, b);
    m_put_tmpl<<<4096, 256>>>(a, b);
    // 9
    void (*kern)(float*) = &m_fnptr;
    kern<<<16384, 64>>>(b);
    // 10
    m_align16_field<<<4096, 256>>>((const Vec3A*)a, b);
    m_align16_copy<<<4096, 256>>>((const Vec3A*)a, (Vec3A*)b);
    // 11
    m_guard_block_y<<<dim3(4096, 4), 256>>>(a, b);
    m_guard_one_thread<<<4096, 256>>>(a, b);
    m_guard_mask_warp<<<4096, 256>>>(maskWarp, a, b);
    m_guard_mask_lane<<<4096, 256>>>(maskLane, a, b);
    // 12
    m_reread<<<4096, 256>>>((const LatLng*)a, b, 0.5f);
    // 13
    m_packed_f32_ldg<<<4096, 256>>>(a, b);
    m_packed_f32_ldcs<<<4096, 256>>>(a, b);
    m_packed_bf16_ldcg<<<4096, 256>>>((const __nv_bfloat16*)a, (__nv_bfloat16*)b);
    m_packed_f32_rows<<<4096, 256>>>(a, b, 24);
    m_packed_bf16_rows<<<4096, 256>>>((const __nv_bfloat16*)a, (__nv_bfloat16*)b, 24);
    // 14
    m_two_sites<<<4096, 256>>>(a, b);
    // 15
    m_ceil_div<<<4096, 256>>>(a, b, 10);
    m_fn_template<op_twice><<<4096, 256>>>(b);
    m_lambda_load<<<4096, 256>>>(a, b);
    // 16
    m_elem_half<<<4096, 256>>>((const __half*)a, (__half*)b, (__half*)c);
    m_elem_half2<<<4096, 256>>>((const half2*)a, (half2*)b, (half2*)c);
    m_elem_bf16<<<4096, 256>>>((const __nv_bfloat16*)a, (__nv_bfloat16*)b, (__nv_bfloat16*)c);
    m_elem_bf162<<<4096, 256>>>((const __nv_bfloat162*)a, (__nv_bfloat162*)b, (__nv_bfloat162*)c);
    m_elem_float2<<<4096, 256>>>((const float2*)a, (float2*)b, (float2*)c);
    m_elem_int4<<<4096, 256>>>((const int4*)a, (int4*)b, (int4*)c);
    // 17
    int chainN = 1 << 20;
    int chainStride = 5;
    launch_chain_outer(a, b, chainN, chainStride);
    int maxThreads = 128;
    int pickBlock = 64;
    const int cands[4] = {64, 128, 256, 512};
    for (int k = 0; k < 4; k++) {
        if (cands[k] <= maxThreads) pickBlock = cands[k];
    }
    m_block_pick<<<n / pickBlock, pickBlock>>>(a, b);
    m_trip_block<<<4096, 256>>>(a, b);

    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("probes2 ran\n");
    return 0;
}
