__global__ void shifted(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + 1]; // want "load in\[i \+ 1\]: lanes are contiguous but the warp starts 4 bytes into a 32-byte sector: 5 sectors/request, ideal 4 \(80%\)"
}
__global__ void rows(float* img, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    img[y * w + x] = 0; // want "rows start at varying places.*5.75 sectors/request"
}
// Negative: shifted by a whole sector.
__global__ void sector(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i + 8];
}
// Negative: a base loaded once per block: where it falls within a
// sector is data (the kernel's cost counts the mean over its residues).
__global__ void segment(const int* starts, const float* in, float* out) {
    int first = starts[blockIdx.x];
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[first + threadIdx.x];
}
// Negative: the same base set by one thread in a __shared__ variable.
__global__ void segmentShared(const int* starts, const float* in, float* out) {
    __shared__ int first;
    if (threadIdx.x == 0) first = starts[blockIdx.x];
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[first + threadIdx.x];
}
// An unrolled loop: one load per row, row 0 on a sector, rows 1..3 not.
__global__ void unrolled(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int r = 0; r < 4; r++) {
        acc += in[r * w + x]; // want "4.75 sectors/request, ideal 4 \(84%\); the loop is unrolled: iterations cost 4, 5, 5, 5 sectors \(r = 0: 4; r = 1..3: 5\)"
    }
    out[x] = acc;
}
void launch(float* a, float* b, int* s) {
    unrolled<<<64, 256>>>(a, b, 1001);
    segment<<<64, 256>>>(s, a, b);
    shifted<<<64, 256>>>(a, b);
    rows<<<dim3(62, 62), dim3(16, 16)>>>(a, 1001);
    sector<<<64, 256>>>(a, b);
}
