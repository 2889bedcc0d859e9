__global__ void unpadded(const float* in, float* out) {
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // want "load tile\[threadIdx.x\]\[threadIdx.y\]: lanes hit the same bank.*32-way bank conflict"
}
// Negative: the padded tile.
__global__ void padded(const float* in, float* out) {
    __shared__ float tile[32][33];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
// Negative: a broadcast from shared memory.
__global__ void bcast(float* out) {
    __shared__ float s[32];
    out[threadIdx.x] = s[0];
}
void launch(float* a, float* b) {
    unpadded<<<1, dim3(32, 32)>>>(a, b);
    padded<<<1, dim3(32, 32)>>>(a, b);
    bcast<<<1, 32>>>(b);
}
