#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
// Same-address atomics: what one warp instruction costs when its lanes
// share an address, against distinct addresses and a plain store.
__global__ void warp_same(float* out, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[i / 32], x[i]);
}
__global__ void all_same(float* out, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[0], x[i]);
}
__global__ void distinct(float* out, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[i], x[i]);
}
__global__ void plain(float* out, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i];
}
__global__ void warp_same_int(int* out, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[i / 32], (int)x[i]);
}
// llm.c layernorm_backward_kernel1's shape: thread per row, C columns,
// every lane adding to dbias[c] at once.
__global__ void rows_bias(float* dbias, const float* dout, int N, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= N) return;
  for (int c = 0; c < C; c++) atomicAdd(&dbias[c], dout[r * C + c]);
}
__global__ void rows_plain(float* dinp, const float* dout, int N, int C) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= N) return;
  for (int c = 0; c < C; c++) dinp[r * C + c] = dout[r * C + c];
}
template <class F> float med(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int w = 0; w < 3; w++) f();
  std::vector<float> t;
  for (int r = 0; r < 15; r++) { cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms); }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}
int main() {
  int n = 1 << 26; float *x, *out; int* iout;
  cudaMalloc(&x, n * 4); cudaMalloc(&out, n * 4); cudaMalloc(&iout, n * 4);
  cudaMemset(x, 0, n * 4);
  int bs = 256, g = n / bs;
  printf("kernel,median_ms,threads\n");
  printf("plain,%f,%d\n", med([&] { plain<<<g, bs>>>(out, x, n); }), n);
  printf("distinct,%f,%d\n", med([&] { distinct<<<g, bs>>>(out, x, n); }), n);
  printf("warp_same,%f,%d\n", med([&] { warp_same<<<g, bs>>>(out, x, n); }), n);
  printf("warp_same_int,%f,%d\n", med([&] { warp_same_int<<<g, bs>>>(iout, x, n); }), n);
  int m = 1 << 20;
  printf("all_same_1M,%f,%d\n", med([&] { all_same<<<m / bs, bs>>>(out, x, m); }), m);
  int N = 8192, C = 768;
  printf("rows_bias,%f,%d\n", med([&] { rows_bias<<<N / 256, 256>>>(out, x, N, C); }), N);
  printf("rows_plain,%f,%d\n", med([&] { rows_plain<<<N / 256, 256>>>(out + N * C, x, N, C); }), N);
  cudaError_t e = cudaDeviceSynchronize(); printf("err,%s\n", cudaGetErrorString(e));
}
