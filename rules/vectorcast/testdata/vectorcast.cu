// An offset no launch gives: misaligned at the value assumed, aligned at
// others, so no certainty of a fault.
__global__ void load4_assumed(const float* in, float* out, int off) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(in + off + 1)[i]; // want "not 16-byte aligned in 100% of requests at the assumed off = 4096 \(no launch gives it\): for such values the GPU raises a misaligned address error"
    out[i] = v.x;
}
void launch_assumed(float* a, float* b, int off) { load4_assumed<<<64, 256>>>(a, b, off); }
