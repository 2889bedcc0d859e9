#pragma once

// Kernels whose findings land in the file including this header: one
// calls its helper, one expands its macro. The third is this header's
// alone.

__global__ void header_calls_helper(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fetch(in, i);
}

__global__ void header_uses_macro(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = FETCH(in, i);
}

__global__ void header_alone(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i * 32] = in[i * 64];
}
