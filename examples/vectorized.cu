// Vector loads: reading float4 from a pointer 16 bytes past a 32-byte
// boundary makes every request span one sector more than it needs; an
// offset of 2 floats breaks the 16-byte alignment float4 requires, which
// faults on the GPU. The gather reads through an index array: its cost
// depends on the data.
#include <cuda_runtime.h>

__global__ void sum4(const float* in, float* out, int offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(in + offset)[i];
    out[i] = v.x + v.y + v.z + v.w;
}

__global__ void gather(const float* in, const int* index, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[index[i]];
}

__global__ void shifted(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + 1] - in[i];
}

void launch(const float* d_in, float* d_out, const int* d_index) {
    sum4<<<4096, 256>>>(d_in, d_out, 4);
    sum4<<<4096, 256>>>(d_in, d_out, 2);
    gather<<<4096, 256>>>(d_in, d_index, d_out);
    shifted<<<4096, 256>>>(d_in, d_out);
}
