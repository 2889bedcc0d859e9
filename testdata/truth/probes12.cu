// Probes for a record each thread writes in scalar pieces, measured on an
// H200 (measure12.sh), beside the record pairs of timing/pairs.cu (which
// measure12.sh profiles too):
//   st4_assumed: four scalar stores of a 16-byte record through a pointer
//     __builtin_assume_aligned to 16 bytes: does nvcc merge them into one
//     STG.128 (as it merges shared stores whose alignment it knows)?
//   st2_assumed: two scalar stores of an 8-byte record, aligned to 8.
//   st4_plain: the same four stores through a plain float*: four STG.32.
#include <cstdio>
#include <cstdlib>

#define THREADS 256
#define RECS (1 << 22)

__global__ void st4_assumed(const float *in, float *out_) {
  float *out = (float *)__builtin_assume_aligned(out_, 16);
  long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
  float v = in[i];
  out[4 * i + 0] = v;
  out[4 * i + 1] = v * 2.0f;
  out[4 * i + 2] = v * 3.0f;
  out[4 * i + 3] = v * 4.0f;
}

__global__ void st2_assumed(const float *in, float *out_) {
  float *out = (float *)__builtin_assume_aligned(out_, 8);
  long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
  float v = in[i];
  out[2 * i + 0] = v;
  out[2 * i + 1] = v * 2.0f;
}

__global__ void st4_plain(const float *in, float *out) {
  long long i = (long long)blockIdx.x * THREADS + threadIdx.x;
  float v = in[i];
  out[4 * i + 0] = v;
  out[4 * i + 1] = v * 2.0f;
  out[4 * i + 2] = v * 3.0f;
  out[4 * i + 3] = v * 4.0f;
}

int main() {
  float *in, *out;
  if (cudaMalloc(&in, RECS * sizeof(float)) != cudaSuccess || cudaMalloc(&out, 4 * RECS * sizeof(float)) != cudaSuccess) {
    fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(in, 0, RECS * sizeof(float));
  st4_assumed<<<RECS / THREADS, THREADS>>>(in, out);
  st2_assumed<<<RECS / THREADS, THREADS>>>(in, out);
  st4_plain<<<RECS / THREADS, THREADS>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    fprintf(stderr, "%s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaFree(in);
  cudaFree(out);
  return 0;
}
