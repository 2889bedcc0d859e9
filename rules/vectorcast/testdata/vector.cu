__global__ void load4(const float* in, float* out, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(in + k)[i]; // want "16-byte float4 access at an address that is not 16-byte aligned in 100% of requests"
    out[i] = v.x;
}
__global__ void load2(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 v = reinterpret_cast<const float2*>(in + 1)[i]; // want "8-byte float2 access at an address that is not 8-byte aligned"
    out[i] = v.y;
}
// Negative: offset by whole vectors.
__global__ void aligned(const float* in, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = reinterpret_cast<const float4*>(in + 8)[i];
}
void launch(float* a, float* b, float4* c) {
    load4<<<64, 256>>>(a, b, 2);
    load2<<<64, 256>>>(a, b);
    aligned<<<64, 256>>>(a, c);
}
// Negative: a struct whose member type is unknown has no reliable layout.
struct Vertex { Unknown3 position; uchar4 color; };
__global__ void colors(Vertex* v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    v[i].color.y = 255;
}
