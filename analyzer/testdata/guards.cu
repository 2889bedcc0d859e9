// Guards that mix the thread index with values the model cannot know (a
// size no launch gives, a loaded value): && and || whose known operand
// decides, selects, nesting, loops and early returns. Each of these once
// lost its kernel to an internal error in the warp model.

__global__ void tail(float *A, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > k && j < 2048) A[j] = 0;
}

__global__ void masked(float *out, const int *mask, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (mask[i] && i < n) out[i] = in[i];
  if (i >= n || !mask[i]) return;
  out[i + n] = in[i] * 2;
}

__global__ void rows(float *y, const float *A, const float *x, int nrows, int ncols, int lo) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row < lo || row >= nrows) return;
  float s = 0;
  for (int c = threadIdx.x; c < ncols; c += 32) {
    if (c > lo && (c & 1) == 0) s += A[row * ncols + c] * x[c];
  }
  if (threadIdx.x == 0 && row > lo) y[row] = s;
}

__global__ void pick(float *A, int n, int m) {
  int j = threadIdx.x + blockIdx.x * blockDim.x;
  if (n > 0 ? j < n && j > m : j < 1024) {
    if (j % 2 == 0 || j > m) A[j / 2] = A[j];
  }
}

void launch(float *a, float *b, const int *mask, int n, int m) {
  tail<<<64, 256>>>(a, n);
  masked<<<n / 128, 128>>>(a, mask, b, n);
  rows<<<n / 8, dim3(32, 8)>>>(a, b, a, n, m, 3);
  pick<<<16, 128>>>(a, n, m);
}
