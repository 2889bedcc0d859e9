// Probes for what nvcc emits, measured on an H200 (measure10.sh):
//   r_tern_t0: a load under c ? x : k with c the same for a block, inside
//     an if (threadIdx.x == 0) body too long to predicate (mergeSort's
//     mergeElementaryIntervalsKernel: endSrcA = (intervalI + 1 <
//     segmentSamples) ? d_LimitsA[blockIdx.x + 1] : segmentElementsA).
//   r_tern_t0_mod: the same with the condition blockIdx.x % 16 != 15.
//   r_tern_top: mergeSort's condition at the kernel's top level.
//   r_after_loop: if (0 == threadIdx.x) s = u[0]; after an if (i == 0)
//     block holding a loop and a store to u[0] (Rodinia particlefilter's
//     normalize_weights_kernel, where Nsight shows the load once per block).
//   r_no_loop: the same load without the block before it.
// One block in 16 has the block-uniform condition false (stride 1024:
// (2 * 1024) / 128 = 16 sample intervals a segment).
#include <cstdio>
#include <cstdlib>

__global__ void r_tern_t0(unsigned *out, const unsigned *lim, unsigned stride, unsigned n) {
  __shared__ unsigned start, len;
  const unsigned iv = blockIdx.x & ((2 * stride) / 128 - 1);
  if (threadIdx.x == 0) {
    unsigned segA = stride;
    unsigned segB = min(stride, n - (blockIdx.x - iv) * 128 - stride);
    unsigned samples = (segA + 127) / 128 + (segB + 127) / 128;
    start = lim[blockIdx.x];
    unsigned end = (iv + 1 < samples) ? lim[blockIdx.x + 1] : segA;
    len = end - start;
  }
  __syncthreads();
  if (threadIdx.x < len)
    out[blockIdx.x * 128 + threadIdx.x] = start;
}

__global__ void r_tern_t0_mod(unsigned *out, const unsigned *lim, unsigned stride) {
  __shared__ unsigned start, len;
  if (threadIdx.x == 0) {
    unsigned segA = stride + blockIdx.x;
    start = lim[blockIdx.x];
    unsigned end = (blockIdx.x % 16 != 15) ? lim[blockIdx.x + 1] : segA;
    len = end - start;
  }
  __syncthreads();
  if (threadIdx.x < len)
    out[blockIdx.x * 128 + threadIdx.x] = start;
}

__global__ void r_tern_top(unsigned *out, const unsigned *lim, unsigned stride, unsigned n) {
  const unsigned iv = blockIdx.x & ((2 * stride) / 128 - 1);
  unsigned segA = stride;
  unsigned segB = min(stride, n - (blockIdx.x - iv) * 128 - stride);
  unsigned samples = (segA + 127) / 128 + (segB + 127) / 128;
  unsigned end = (iv + 1 < samples) ? lim[blockIdx.x + 1] : segA;
  out[blockIdx.x * 128 + threadIdx.x] = end;
}

__global__ void r_after_loop(double *w, double *cdf, double *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ double u1;
  if (i == 0) {
    cdf[0] = w[0];
    for (int x = 1; x < n; x++)
      cdf[x] = w[x] + cdf[x - 1];
    u[0] = cdf[n - 1] / n;
  }
  __syncthreads();
  if (0 == threadIdx.x)
    u1 = u[0];
  __syncthreads();
  if (i < n)
    u[i] = u1 + i / (double)n;
}

__global__ void r_no_loop(double *w, double *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ double u1;
  if (0 == threadIdx.x)
    u1 = u[0];
  __syncthreads();
  if (i < n)
    w[i] = u1 + i / (double)n;
}

int main() {
  const unsigned blocks = 256, n = blocks * 128, stride = 1024;
  unsigned *out, *lim;
  double *w, *cdf, *u;
  cudaMalloc(&out, n * sizeof(unsigned));
  cudaMalloc(&lim, (blocks + 1) * sizeof(unsigned));
  cudaMalloc(&w, 1024 * sizeof(double));
  cudaMalloc(&cdf, 1024 * sizeof(double));
  cudaMalloc(&u, 1024 * sizeof(double));
  cudaMemset(lim, 0, (blocks + 1) * sizeof(unsigned));
  cudaMemset(w, 0, 1024 * sizeof(double));
  r_tern_t0<<<blocks, 128>>>(out, lim, stride, n);
  r_tern_t0_mod<<<blocks, 128>>>(out, lim, stride);
  r_tern_top<<<blocks, 128>>>(out, lim, stride, n);
  r_after_loop<<<2, 512>>>(w, cdf, u, 1000);
  r_no_loop<<<2, 512>>>(w, u, 1000);
  cudaError_t err = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(err));
  return err != cudaSuccess;
}
