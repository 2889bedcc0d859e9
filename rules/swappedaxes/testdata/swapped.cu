// Positive: x and y swapped in 2D indexing.
__global__ void swapped(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * w + y] = in[x * w + y]; // want "store out.*threadIdx.x steps along rows.*16 sectors/request, ideal 4 \(25%\); lanes step by w floats; block 16x16 from launch" "load in.*16 sectors/request"
}

// Negative: the same kernel with the right axes.
__global__ void right(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * w + x] = in[y * w + x];
}

// Negative: a 1D kernel with a big stride is strided, not swapped.
__global__ void oned(const float* in, float* out) {
    out[threadIdx.x] = in[threadIdx.x * 64];
}

// Negative: a broadcast along y is never a finding.
__global__ void broadcast(const float* in, float* out) {
    out[threadIdx.y * 32 + threadIdx.x] = in[threadIdx.y];
}

void launch(float* a, float* b) {
    swapped<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024);
    right<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024);
    oned<<<1, 32>>>(a, b);
    broadcast<<<1, dim3(32, 4)>>>(a, b);
}
