// Four floats per thread, lanes a float4 apart: one float4 per lane.
__global__ void four(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[4 * i] + a[4 * i + 1] + a[4 * i + 2] + a[4 * i + 3]; // want "load a\[4 \* i\]: this thread also loads the 3 floats after it: 4 adjacent floats, one 16-byte-aligned float4, and neighbouring lanes are one float4 apart, so each scalar load moves 4.0x the bytes it uses; load the float4 in one instruction instead: float4 v = reinterpret_cast<const float4\*>\(a\)\[i\] \(a must be 16-byte aligned.*: 16 sectors/request, ideal 4 \(25%\)"
}
// Two doubles per thread: one double2.
__global__ void two(const double* a, double* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[2 * i] + a[2 * i + 1]; // want "load a\[2 \* i\]: this thread also loads the double after it: 2 adjacent doubles, one 16-byte-aligned double2.*double2 v = reinterpret_cast<const double2\*>\(a\)\[i\].*16 sectors/request, ideal 8 \(50%\)"
}
// Two floats: one float2; four ints, read in any order: one int4.
__global__ void pairs(const float* a, const int* b, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[i * 2 + 1];
    float y = a[i * 2]; // want "load a\[i \* 2\]: .*one 8-byte-aligned float2.*float2 v = reinterpret_cast<const float2\*>\(a\)\[i\]"
    int s = b[4 * i + 3] + b[4 * i + 2] + b[4 * i + 1] + b[4 * i]; // want "load b\[4 \* i\]: .*one 16-byte-aligned int4"
    out[i] = x + y + s;
}
// A loop the compiler unrolls, one float per iteration.
__global__ void loop(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int k = 0; k < 4; k++) s += a[4 * i + k]; // want "load a\[4 \* i \+ k\]: the unrolled loop at line 23 loads 4 adjacent floats per thread, one 16-byte-aligned float4.*float4 v = reinterpret_cast<const float4\*>\(a\)\[i\]"
    out[i] = s;
}
// Stores, under one guard.
__global__ void store4(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[4 * i] = 1; // want "store a\[4 \* i\]: this thread also stores the 3 floats after it.*reinterpret_cast<float4\*>\(a\)\[i\] = make_float4\(x, y, z, w\)"
        a[4 * i + 1] = 2;
        a[4 * i + 2] = 3;
        a[4 * i + 3] = 4;
    }
}
// Rows of a launch-given width stay aligned: 64 floats a row.
__global__ void rows(const float* a, float* out, int width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* row = a + blockIdx.y * width;
    out[i] = row[4 * i] * row[4 * i + 1] * row[4 * i + 2] * row[4 * i + 3]; // want "load row\[4 \* i\]: .*float4 v = reinterpret_cast<const float4\*>\(row\)\[i\]"
}
// An array of pairs: the first element's address, cast.
typedef float pair[2];
__global__ void points(pair* xy) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    xy[t][0] = 1; // want "store xy\[t\]\[0\]: .*\*reinterpret_cast<float2\*>\(&xy\[t\]\[0\]\) = make_float2\(x, y\) \(xy must be 8-byte aligned"
    xy[t][1] = 2;
}

// Negative: an offset no launch gives (alignment not provable).
__global__ void offset(const float* a, float* out, int off) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = a + off;
    out[i] = p[4 * i] + p[4 * i + 1] + p[4 * i + 2] + p[4 * i + 3];
}
// Negative: the launch passes the pointer two floats in.
__global__ void shifted(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[4 * i] + a[4 * i + 1] + a[4 * i + 2] + a[4 * i + 3];
}
// Negative: the launch passes the pointer an unknown offset in.
__global__ void moved(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[4 * i] + a[4 * i + 1] + a[4 * i + 2] + a[4 * i + 3];
}
// Negative: three adjacent floats make no vector, packed or padded.
__global__ void three(const float* a, const float* b, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[3 * i] + a[3 * i + 1] + a[3 * i + 2] + b[4 * i] + b[4 * i + 1] + b[4 * i + 2];
}
// Negative: lanes step by one element: already coalesced.
__global__ void coalesced(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i] + a[i + 1];
}
// Negative: shared memory.
__global__ void shared(float* out) {
    __shared__ float s[1024];
    int t = threadIdx.x;
    out[blockIdx.x * blockDim.x + t] = s[4 * t] + s[4 * t + 1] + s[4 * t + 2] + s[4 * t + 3];
}
// Negative: a vector type already.
__global__ void vectors(const float4* v, const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 w = reinterpret_cast<const float4*>(a)[i];
    out[i] = v[i].x + v[i].y + v[i].z + v[i].w + w.x;
}
// Negative: the elements are under different guards.
__global__ void guarded(const float* a, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = a[2 * i];
    if (2 * i + 1 < n) s += a[2 * i + 1];
    out[i] = s;
}
void launch(float* a, float* b, double* c, double* d, int* e, float4* f, int n) {
    four<<<64, 256>>>(a, b);
    two<<<64, 256>>>(c, d);
    pairs<<<64, 256>>>(a, e, b);
    loop<<<64, 256>>>(a, b);
    store4<<<64, 256>>>(a, n);
    rows<<<dim3(1, 64), 256>>>(a, b, 1024);
    points<<<64, 256>>>((pair*)a);
    offset<<<64, 256>>>(a, b, n);
    shifted<<<64, 256>>>(a + 2, b);
    moved<<<64, 256>>>(a + n, b);
    three<<<64, 256>>>(a, a, b);
    coalesced<<<64, 256>>>(a, b);
    shared<<<64, 256>>>(b);
    vectors<<<64, 256>>>(f, a, b);
    guarded<<<64, 256>>>(a, b, n);
}
