__global__ void stride2(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 2]; // want "load in\[i \* 2\]: neighbouring lanes are 8 bytes apart.*8 sectors/request, ideal 4 \(50%\); lanes step by 2 floats"
}
__global__ void by_param(const double* in, double* out, int s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * s]; // want "load in\[i \* s\]: .*32 sectors/request, ideal 8 \(25%\); lanes step by s doubles.*assuming s = 4096, as no launch gives it"
}
// Negative: contiguous, and 8-byte elements fully used.
__global__ void full(const double* in, double* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
// Negative: a broadcast.
__global__ void bcast(const float* in, float* out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x];
}
void launch(float* a, float* b, double* c, double* d) {
    stride2<<<64, 256>>>(a, b);
    full<<<64, 256>>>(c, d);
    bcast<<<64, 256>>>(a, b);
}
