// The file open in the editor. Its helper and its macro are used by the
// kernels of a header it includes; another file includes it and
// launches its kernel through a host template.

__device__ float fetch(const float* a, int i) {
    return a[i * 16]; // cudalint:ignore strided-access the caller reads a column
}

__device__ float fetch_unused(const float* a, int i) {
    return a[i * 4]; // cudalint:ignore strided-access nothing calls it
}

#define FETCH(a, i) a[(i) * 8]

#include "kern.cuh"

__global__ void named_kernel(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i * 2] = in[i * 32];
}

void host(float* out, const float* in, int n) {
    header_calls_helper<<<n / 256, 256>>>(out, in);
    header_uses_macro<<<n / 256, 256>>>(out, in);
    header_alone<<<n / 256, 256>>>(out, in);
    named_kernel<<<n / 128, 128>>>(out, in, n);
}
