// Block shapes from the code, not from defaults: a dim3 declarator list,
// a launch through a function pointer, and a grid from a host helper.
#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_naive(float* out, const float* in, int width, int height) {
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        out[x * height + (y + j)] = in[(y + j) * width + x]; // want warning uncoalesced-transpose "block 32x8 from launch at launches.cu:\d+"
}

__global__ void copy_strided(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[8 * i]; // want warning strided-access "block 64 from launch at launches.cu:\d+"
}

static int iDivUp(int a, int b) { return (a + b - 1) / b; }

void run(float* out, const float* in, int width, int height) {
    dim3 grid(width / TILE_DIM, height / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
    transpose_naive<<<grid, threads>>>(out, in, width, height);
}

// Launched on its own: beside the transpose, at the assumed sizes, the
// copy would be under 1% of the function's time (rules/impact/launcher.go).
void run_copy(float* out, const float* in, int n) {
    void (*kernel)(float*, const float*) = &copy_strided;
    kernel<<<iDivUp(n, 64), 64>>>(out, in);
}
