__global__ void naive(const float* in, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * h + y] = in[y * w + x]; // want "store out\[x \* h \+ y\]: the kernel transposes: it reads rows coalesced.*16 sectors/request"
}
// Negative: the tiled transpose.
__global__ void tiled(const float* in, float* out, int w, int h) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
void launch(float* a, float* b) {
    naive<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024, 1024);
    tiled<<<dim3(32, 32), dim3(32, 8)>>>(a, b, 1024, 1024);
}
