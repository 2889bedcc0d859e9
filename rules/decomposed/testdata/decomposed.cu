// A one-dimensional transpose: neighbouring lanes write rows floats apart.
__global__ void transpose1d(float* out, const float* in, int rows, int cols) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < rows * cols) {
        int r = tid / cols, c = tid % cols;
        out[c * rows + r] = in[tid]; // want "store out\[c \* rows \+ r\]: neighbouring lanes differ in \(blockIdx.x \* blockDim.x \+ threadIdx.x\) % cols, which takes them rows floats apart, so each request moves 8.0x the bytes it uses; split the index.*32 sectors/request, ideal 4"
    }
}
// Each thread walks a row of its own: the lanes should share the row.
__global__ void rows_per_thread(float* out, const float* in, int T, int NH) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int h = idx % NH;
    int t = idx / NH;
    const float* p = in + h * T * T + t * T;
    float s = 0.0f;
    for (int t2 = 0; t2 < T; t2++) s += p[t2]; // want "load p\[t2\]: neighbouring lanes differ in \(blockIdx.x \* blockDim.x \+ threadIdx.x\) % NH, which takes them T\*T floats apart.*let the lanes of a warp share each row"
    out[idx] = s;
}
// Groups of four lanes read four neighbouring floats, then jump a row:
// the division is the cause.
__global__ void groups_of_four(float* out, const float* in, int C) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[(i / 4) * C + i % 4]; // want "load in\[\(i / 4\) \* C \+ i % 4\]: \(blockIdx.x \* blockDim.x \+ threadIdx.x\) / 4 changes every 4 lanes, taking each group of lanes C floats from the last"
}
// A step resting on an assumed parameter named as a stride is info: it
// may be 1, a contiguous tensor's innermost stride.
__global__ void by_stride(float* out, const float* in, int n, int s0) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int i0 = i % n;
    out[i] = in[i0 * s0]; // want "load in\[i0 \* s0\]: .*assuming s0 large.*if s0 is 1, a contiguous innermost dimension, the access is coalesced"
}
// Negative: one warp per row; the warp index changes every 32 lanes and
// scatters no warp.
__global__ void warp_per_row(float* out, const float* in, int C) {
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    for (int i = lane; i < C; i += 32) out[row * C + i] = in[row * C + i];
}
// Negative: a per-thread vector of four floats, which nvcc can merge.
__global__ void four_each(float* out, const float* in) {
    int lane = threadIdx.x % 32;
    int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    for (int k = 0; k < 4; k++) out[w * 128 + 4 * lane + k] = in[w * 128 + 4 * lane + k];
}
void launch(float* a, float* b, int s) {
    transpose1d<<<4096, 256>>>(a, b, 1024, 1024);
    rows_per_thread<<<96, 256>>>(a, b, 1024, 12);
    groups_of_four<<<4096, 256>>>(a, b, 1024);
    by_stride<<<4096, 256>>>(a, b, 1024, s);
    warp_per_row<<<4096, 256>>>(a, b, 1024);
    four_each<<<4096, 256>>>(a, b);
}
// A short row per thread: eight floats, two float4s.
__global__ void short_rows(float* y, const float* x) {
    int ib = threadIdx.x % 8, il = threadIdx.x / 8;
    float* row = y + blockIdx.x * 256 + 32 * ib + 8 * il;
    for (int j = 0; j < 8; ++j) row[j] = x[j]; // want "store row\[j\]: neighbouring lanes differ in threadIdx.x % 8, which takes them 32 floats apart.*each thread's row is 32 bytes: write it as 2 float4s"
}
void launch2(float* a, float* b) { short_rows<<<64, 32>>>(a, b); }
// A tile of TM x TN results per thread (SGEMM's epilogue): each thread's
// row is TN floats, a template argument the launch gives.
template <int BM, int BN, int TM, int TN>
__global__ void tile_epilogue(float* C, int N) {
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  C += blockIdx.x * BM * N;
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n)
      C[(threadRow * TM + m) * N + threadCol * TN + n] = 0.0f; // want "store C\[.*\]: neighbouring lanes differ in threadIdx.x % \(BN / TN\), which takes them TN floats apart.*each thread's row is 32 bytes: write it as 2 float4s"
}
void launch3(float* C) { tile_epilogue<128, 128, 8, 8><<<64, 256>>>(C, 4096); }
// One decomposition scatters a thread's row in two loops: one cause, one
// finding (the second folded into it).
__global__ void two_loops(float* out, const float* in, int T, int NH) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = in + (idx % NH) * T * T + (idx / NH) * T;
    float m = 0.0f, s = 0.0f;
    for (int a = 0; a < T; a++) m = fmaxf(m, p[a]); // want "load p\[a\]: neighbouring lanes differ in \(blockIdx.x \* blockDim.x \+ threadIdx.x\) % NH"
    for (int b = 0; b < T; b++) s += p[b] - m; // want "load p\[b\]: neighbouring lanes differ in \(blockIdx.x \* blockDim.x \+ threadIdx.x\) % NH"
    out[idx] = s;
}
void launch4(float* a, float* b) { two_loops<<<96, 256>>>(a, b, 1024, 12); }
