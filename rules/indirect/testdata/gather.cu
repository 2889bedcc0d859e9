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
// Negative: a base every lane of the block loads from one address is no
// gather (the mask keeps it from the residue model).
__global__ void uniformBase(const float* in, const int* bottom, float* out) {
    int b = bottom[blockIdx.x];
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[(b & -32) + threadIdx.x];
}
