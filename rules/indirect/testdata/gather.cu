__global__ void gather(const float* in, const int* idx, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = idx[i];
    out[i] = in[j]; // want "load in\[j\]: the address depends on the value loaded by idx\[i\].*1 to 32 sectors/request.*ideal 4"
}
// Negative: a computed index is not data-dependent.
__global__ void computed(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[(i * 7) % 64];
}
