// Probes for loop values a guard keeps, and for searches whose address
// the data picks inside a bound, measured on an H200 (measure11.sh):
//   g_long: dwtHaar1D's decomposition loop, num_threads halved only in
//     the lanes that pass tid < num_threads (a branch of six statements).
//   g_short: the same with a branch of three statements.
//   g_iter: the guard reads the iteration (tid < num_threads + 2 * i): a
//     lane stopped at one iteration passes at a later one.
//   g_outside: num_threads also read after the branch.
//   s8: mergeSort's mergeRanksAndIndicesKernel search: each group of 8
//     lanes searches the 8 ranks of its own 64-byte segment (one 32-byte
//     sector whatever the keys), over random keys.
//   s16: the same over 16 ranks (two sectors): the keys pick 1 or 2.
#include <cstdio>
#include <cstdlib>

__global__ void g_long(float *od, const float *in, const unsigned dlevels, const int bdim) {
  const int gdim = gridDim.x, bid = blockIdx.x, tid = threadIdx.x;
  unsigned num_threads = bdim >> 1, offset = 1, idata0 = tid * 2;
  for (unsigned i = 1; i < dlevels; ++i) {
    if (tid < num_threads) {
      unsigned g_wpos = (num_threads * gdim) + (bid * num_threads) + tid;
      float v = in[bid * bdim + idata0 % bdim] - in[bid * bdim + (idata0 + offset) % bdim];
      od[g_wpos] = v;
      num_threads = num_threads >> 1;
      offset <<= 1;
      idata0 = idata0 << 1;
    }
    __syncthreads();
  }
}

__global__ void g_short(float *od, const unsigned dlevels, const int bdim) {
  const int gdim = gridDim.x, bid = blockIdx.x, tid = threadIdx.x;
  unsigned num_threads = bdim >> 1;
  for (unsigned i = 1; i < dlevels; ++i) {
    if (tid < num_threads) {
      unsigned g_wpos = (num_threads * gdim) + (bid * num_threads) + tid;
      od[g_wpos] = 1.0f;
      num_threads = num_threads >> 1;
    }
    __syncthreads();
  }
}

__global__ void g_iter(float *od, const unsigned dlevels, const int bdim) {
  const int gdim = gridDim.x, bid = blockIdx.x, tid = threadIdx.x;
  unsigned num_threads = bdim >> 1;
  for (unsigned i = 1; i < dlevels; ++i) {
    if (tid < num_threads + 2 * i) {
      unsigned g_wpos = (num_threads * gdim) + (bid * num_threads) + tid;
      od[g_wpos] = 1.0f;
      od[g_wpos + 1] = 2.0f;
      od[g_wpos + 2] = 3.0f;
      num_threads = num_threads >> 1;
    }
    __syncthreads();
  }
}

__global__ void g_outside(float *od, const unsigned dlevels, const int bdim) {
  const int gdim = gridDim.x, bid = blockIdx.x, tid = threadIdx.x;
  unsigned num_threads = bdim >> 1;
  for (unsigned i = 1; i < dlevels; ++i) {
    if (tid < num_threads) {
      unsigned g_wpos = (num_threads * gdim) + (bid * num_threads) + tid;
      od[g_wpos] = 1.0f;
      od[g_wpos + 1] = 2.0f;
      od[g_wpos + 2] = 3.0f;
      num_threads = num_threads >> 1;
    }
    od[bid * 1024 + 512 + (num_threads & 511)] = 4.0f;
    __syncthreads();
  }
}

__device__ unsigned search(unsigned val, const unsigned *data, unsigned L, unsigned stride) {
  unsigned pos = 0;
  for (; stride > 0; stride >>= 1) {
    unsigned newPos = min(pos + stride, L);
    if (data[newPos - 1] < val) pos = newPos;
  }
  return pos;
}

// Each group of G lanes searches its own segment of 2 * G ranks: its
// first half (L = G entries, a bound the launch gives, so the loop is not
// unrolled, as mergeSort's nextPowerOfTwo(L) is not) for the second
// half's values.
template <unsigned G>
__global__ void s_search(unsigned *limits, const unsigned *ranks, unsigned n, unsigned L) {
  const unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  const unsigned i = p & (G - 1);
  const unsigned *seg = ranks + (p - i) * 2;
  limits[p] = search(seg[G + i], seg, L, L) + i;
}

int main() {
  const unsigned n = 1 << 16;
  float *od, *in;
  unsigned *ranks, *limits;
  cudaMalloc(&od, 4 * 1024 * 1024 * sizeof(float));
  cudaMalloc(&in, 4 * 1024 * 1024 * sizeof(float));
  cudaMalloc(&ranks, 2 * n * sizeof(unsigned));
  cudaMalloc(&limits, n * sizeof(unsigned));
  cudaMemset(in, 0, 4 * 1024 * 1024 * sizeof(float));
  unsigned *h = (unsigned *)malloc(2 * n * sizeof(unsigned));
  srand(2009);
  for (unsigned k = 0; k < 2 * n; k++) h[k] = rand() % 1000;
  cudaMemcpy(ranks, h, 2 * n * sizeof(unsigned), cudaMemcpyHostToDevice);
  g_long<<<4, 512>>>(od, in, 10, 512);
  g_short<<<4, 512>>>(od, 10, 512);
  g_iter<<<4, 512>>>(od, 10, 512);
  g_outside<<<4, 512>>>(od, 10, 512);
  s_search<8><<<n / 256, 256>>>(limits, ranks, n, 8);
  s_search<16><<<n / 256, 256>>>(limits, ranks, n, 16);
  cudaError_t err = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(err));
  free(h);
  return err != cudaSuccess;
}
