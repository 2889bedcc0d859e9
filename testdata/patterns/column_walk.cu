// A column walk over a matrix whose width only run time knows: the
// textbook uncoalesced kernel, a warning although the width is assumed.
__global__ void column_sum(const float* m, float* out, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int r = 0; r < rows; r++)
        s += m[c * rows + r]; // want warning strided-access "neighbouring lanes are 16384 bytes apart.*the same for any rows of 8 or more"
    out[c] = s;
}

// One thread per row: each lane walks its own row.
__global__ void row_per_thread(const float* in, float* out, int n, int C) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    float s = 0;
    for (int i = 0; i < C; i++) s += in[row * C + i]; // want warning strided-access "lanes step by C floats"
    out[row] = s;
}

void launch(const float* m, float* out, int rows, int cols, int n, int C) {
    column_sum<<<cols / 256, 256>>>(m, out, rows, cols);
    row_per_thread<<<(n + 255) / 256, 256>>>(m, out, n, C);
}
