// At most twice the ideal, data-dependent addresses and one-block set-up
// code are information, not warnings.
__global__ void stencil(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + 1] - in[i]; // want info misaligned-access "starts 4 bytes into a 32-byte sector"
}

__global__ void gather(const float* in, const int* idx, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[idx[i]]; // want info indirect-access "depends on the value loaded by idx\[i\]"
}

__global__ void setup(float* table) {
    table[8 * threadIdx.x] = 0; // want info strided-access "neighbouring lanes are 32 bytes apart"
}

void run(const float* in, const int* idx, float* out, float* t) {
    stencil<<<64, 256>>>(in, out);
    gather<<<64, 256>>>(in, idx, out);
    setup<<<1, 256>>>(t);
}
