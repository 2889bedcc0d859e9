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
// Interleaved tree reduction: the stride doubles, and so does the
// conflict; measured on the H200 at 47 wavefronts per block per access.
__global__ void interleaved(float* g) {
    __shared__ float s[256];
    unsigned int tid = threadIdx.x;
    s[tid] = g[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x) s[index] += s[index + stride]; // want "load s\[index\]: lanes hit the same bank at different words; have neighbouring lanes use neighbouring words.*3.92-way bank conflict.*lanes step by 2\^\(i\+1\) floats \(i counts the iterations of the loop at line 26\)" "load s\[index \+ stride\]: .*3.92-way" "store s\[index\]: .*3.92-way"
        __syncthreads();
    }
    if (tid == 0) g[blockIdx.x] = s[0];
}
// Negative: sequential addressing, the halving stride without conflicts.
__global__ void sequential(float* g) {
    __shared__ float s[256];
    unsigned int tid = threadIdx.x;
    s[tid] = g[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g[blockIdx.x] = s[0];
}
void launch(float* a, float* b) {
    interleaved<<<64, 256>>>(a);
    sequential<<<64, 256>>>(a);
    unpadded<<<1, dim3(32, 32)>>>(a, b);
    padded<<<1, dim3(32, 32)>>>(a, b);
    bcast<<<1, 32>>>(b);
}
// Lanes 4 words apart along a row collide among themselves (every 8th
// lane on one bank): padding the rows would not help, neighbouring
// words would.
__global__ void row_step(const float4* in) {
    __shared__ float tile[16][16 * 4 + 1];
    float4 v = in[threadIdx.y * 16 + threadIdx.x];
    tile[threadIdx.y][threadIdx.x * 4] = v.x; // want "store tile\[threadIdx.y\]\[threadIdx.x \* 4\]: .*4 words apart along a row, so every 8th lane meets on one bank, which padding the rows does not change"
}
// A column walk over rows of 32 words: pad the rows.
__global__ void column_walk(float* out) {
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // want "load tile\[threadIdx.x\]\[threadIdx.y\]: .*pad the array's rows by one element"
}
void launch_advice(float4* a, float* b) {
    row_step<<<64, dim3(16, 16)>>>(a);
    column_walk<<<64, dim3(32, 32)>>>(b);
}
// A block 16 wide over rows of 32 words: each row's lanes are on
// distinct banks, the warp's two rows on the same ones.
__global__ void narrow_rows(float* out) {
    __shared__ float tile[16][32];
    tile[threadIdx.y][threadIdx.x] = out[threadIdx.x]; // want "store tile\[threadIdx.y\]\[threadIdx.x\]: .*the lanes of each row of 16 threads use distinct banks, but the warp's rows start on the same ones"
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // want "load tile\[threadIdx.x\]\[threadIdx.y\]: .*pad the array's rows by one element.*16-way"
}
void launch_narrow(float* b) { narrow_rows<<<64, dim3(16, 16)>>>(b); }
// A 16-word row walked down its column (lanes differ in the first
// index): padding the rows to 17 removes the conflict.
__global__ void short_rows(float* out) {
    __shared__ float col[16][16];
    int idx = threadIdx.x;
    for (int i = 0; i < 16; i++) col[idx][i] = out[i]; // want "store col\[idx\]\[i\]: .*pad the array's rows by one element"
    __syncthreads();
    out[threadIdx.x] = col[threadIdx.x][0]; // want "load col\[threadIdx.x\]\[0\]: .*pad the array's rows by one element"
}
void launch_short(float* b) { short_rows<<<64, 16>>>(b); }
// A float4 per lane, lanes 8 float4s (128 bytes) apart (apex's per-thread
// rows): each quarter-warp's 8 lanes meet on one group of banks. A word
// of padding would misalign the float4s; one float4 every 8 does not.
__global__ void float4_rows(const float4* in, float* out) {
    __shared__ float s[32][32];
    float4* mine = (float4*)&s[threadIdx.x];
    for (int k = 0; k < 8; k++) mine[k] = in[threadIdx.x * 8 + k]; // want "store mine\[k\]: .*pad one 16-byte element every 8 \(index \+ index/8\): a word of padding would break their alignment"
    __syncthreads();
    out[threadIdx.x] = s[0][threadIdx.x];
}
void launch_float4_rows(const float4* a, float* b) { float4_rows<<<64, 32>>>(a, b); }
// A flat array, lanes 32 words apart: all of them meet on one bank (not
// "every 1st lane").
__global__ void flat_rows(float* out) {
    __shared__ float s[32 * 32];
    s[threadIdx.x * 32] = out[threadIdx.x]; // want "store s\[threadIdx.x \* 32\]: .*neighbouring lanes are 32 words apart, so all the lanes meet on one bank: have neighbouring lanes use neighbouring words"
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
void launch_flat_rows(float* b) { flat_rows<<<64, 32>>>(b); }
