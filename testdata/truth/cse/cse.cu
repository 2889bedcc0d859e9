// Does nvcc load an address again that the thread already loaded?
// Each kernel reads a[3*i + j] (j = 0, 1, 2) three times.
__global__ void cse_restrict_atomic(const float* __restrict__ a, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(out + 3 * i + 0, a[3 * i + 0] * 2.0f + a[3 * i + 1]);
  atomicAdd(out + 3 * i + 1, a[3 * i + 1] * 3.0f + a[3 * i + 2]);
  atomicAdd(out + 3 * i + 2, a[3 * i + 2] * 4.0f + a[3 * i + 0]);
}
__global__ void cse_plain_atomic(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(out + 3 * i + 0, a[3 * i + 0] * 2.0f + a[3 * i + 1]);
  atomicAdd(out + 3 * i + 1, a[3 * i + 1] * 3.0f + a[3 * i + 2]);
  atomicAdd(out + 3 * i + 2, a[3 * i + 2] * 4.0f + a[3 * i + 0]);
}
__global__ void cse_plain_nostore(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = a[3 * i + 0] * 2.0f + a[3 * i + 1];
  s += a[3 * i + 1] * 3.0f + a[3 * i + 2];
  s += a[3 * i + 2] * 4.0f + a[3 * i + 0];
  out[i] = s;
}
__global__ void cse_plain_store(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[3 * i + 0] = a[3 * i + 0] * 2.0f + a[3 * i + 1];
  out[3 * i + 1] = a[3 * i + 1] * 3.0f + a[3 * i + 2];
  out[3 * i + 2] = a[3 * i + 2] * 4.0f + a[3 * i + 0];
}
__global__ void cse_restrict_store(const float* __restrict__ a, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[3 * i + 0] = a[3 * i + 0] * 2.0f + a[3 * i + 1];
  out[3 * i + 1] = a[3 * i + 1] * 3.0f + a[3 * i + 2];
  out[3 * i + 2] = a[3 * i + 2] * 4.0f + a[3 * i + 0];
}
