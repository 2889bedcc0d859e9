// probes9.cu: what host code does to a pointer before a launch, and
// loads under a conditional expression. Each probe pairs both sides of
// the condition the model rests on:
//   q_alloc_al / q_alloc_mis: a pointer declared null, set by cudaMalloc,
//     advanced 28 (or 27) floats on the host; the kernel reads 4 floats
//     on, so the first is 128-byte aligned and the second is not.
//   q_swap: a double buffer advanced 28 floats and swapped in a host loop
//     of a run-time trip count: every launch reads at the same offset.
//   q_check: the offset 32 - r with r read at run time, after a usage
//     check that exits unless r == 4.
//   q_tern_head / q_tern_lane: a load under c ? x : 0 whose condition
//     leaves every lane of block 0 off, or one lane in two of every warp.
//   q_if_head: the same head condition as an if with code after it.
//   q_hoist / q_nohoist: a loop-invariant load, the loop storing nothing
//     or storing; q_tern_uni: c ? x : 0 with c the same for a block.
//   q_ref_al / q_ref_mis: a pointer a host function sets through a
//     reference, one float into its allocation (aligned for in[i - 1]) or two.
#include <cstdio>
#include <cstdlib>

__global__ void q_alloc_al(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + 4] = in[i + 4];
}

__global__ void q_alloc_mis(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + 4] = in[i + 4];
}

__global__ void q_swap(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + 4] = in[i + 4];
}

__global__ void q_check(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + 4] = in[i + 4];
}

__global__ void q_tern_head(float *out, const float *in) {
  __shared__ float s[64];
  const int x = (blockIdx.x - 1) * 64 + threadIdx.x;
  s[threadIdx.x] = (x >= 0) ? in[x] : 0;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void q_tern_lane(float *out, const float *in) {
  __shared__ float s[64];
  const int x = blockIdx.x * 64 + threadIdx.x;
  s[threadIdx.x] = (threadIdx.x % 2 == 0) ? in[x] : 0;
  __syncthreads();
  out[x] = s[63 - threadIdx.x];
}

__global__ void q_if_head(float *out, const float *in) {
  __shared__ float s[64];
  const int x = (blockIdx.x - 1) * 64 + threadIdx.x;
  s[threadIdx.x] = 0;
  if (x >= 0)
    s[threadIdx.x] = in[x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}

// A load no iteration changes, in a loop the compiler keeps: loaded once
// before the loop where the loop stores nothing (q_hoist), once per
// iteration where a store in the loop may change it (q_nohoist).
__global__ void q_init(float *cdf, float *u) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cdf[i] = (float)i;
  u[i] = (float)((i / 32) % 64); // a warp leaves the loops below together
}

__global__ void q_hoist(int *idx, const float *cdf, const float *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = -1;
  for (int x = 0; x < n; x++) {
    float v = u[i];
    if (cdf[x] >= v) {
      k = x;
      break;
    }
  }
  idx[i] = k;
}

__global__ void q_nohoist(int *idx, float *cdf, const float *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = -1;
  for (int x = 0; x < n; x++) {
    float v = u[i];
    if (cdf[x] >= v) {
      k = x;
      break;
    }
    cdf[n + i] = v;
  }
  idx[i] = k;
}

// A conditional expression whose condition is the same for the whole
// block: a select every warp issues, or a branch around the load?
__global__ void q_tern_uni(float *out, const float *in) {
  const int x = blockIdx.x * 64 + threadIdx.x;
  float v = (blockIdx.x % 4 != 3) ? in[x] : 0;
  out[x] = v;
}

// Pointers a host function sets through a reference to its caller's
// struct (void init(Bufs &s) { cudaMalloc(&(s.raw), ...); s.b = s.raw +
// off; }): off = 1 makes in[i - 1] aligned (q_ref_al), off = 2 not.
struct Bufs {
  float *raw;
  float *b;
};

__global__ void q_ref_al(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i - 1];
}

__global__ void q_ref_mis(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i - 1];
}

void initBufs(Bufs &s, int n, int off) {
  cudaMalloc((void **)&(s.raw), (n + 64) * sizeof(float));
  s.b = s.raw + off;
}

static void check(int r, int steps) {
  const int n = 1 << 20;
  float *a = 0, *b = 0;
  const int padding = 32 - r;
  if (r != 4) {
    printf("r must be 4\n");
    exit(1);
  }
  cudaMalloc((void **)&a, (n + 64) * sizeof(float));
  cudaMalloc((void **)&b, (n + 64) * sizeof(float));
  q_check<<<n / 256, 256>>>(b + padding, a + padding);
  float *src = a + 28;
  float *dst = b + 28;
  for (int t = 0; t < steps; t++) {
    q_swap<<<n / 256, 256>>>(dst, src);
    float *tmp = dst;
    dst = src;
    src = tmp;
  }
  cudaFree(a);
  cudaFree(b);
}

int main(int argc, char **argv) {
  const int n = 1 << 20;
  float *a = 0, *b = 0;
  cudaMalloc((void **)&a, (n + 64) * sizeof(float));
  cudaMalloc((void **)&b, (n + 64) * sizeof(float));
  cudaMemset(a, 0, (n + 64) * sizeof(float));
  q_alloc_al<<<n / 256, 256>>>(b + 28, a + 28);
  q_alloc_mis<<<n / 256, 256>>>(b + 27, a + 27);
  q_tern_head<<<24, 64>>>(b, a);
  q_tern_lane<<<24, 64>>>(b, a);
  q_if_head<<<24, 64>>>(b, a);
  q_tern_uni<<<24, 64>>>(b, a);
  float *cdf = 0, *u = 0;
  int *idx = 0;
  cudaMalloc((void **)&cdf, (1 << 16) * sizeof(float));
  cudaMalloc((void **)&u, (1 << 16) * sizeof(float));
  cudaMalloc((void **)&idx, (1 << 14) * sizeof(int));
  q_init<<<(1 << 16) / 256, 256>>>(cdf, u);
  q_hoist<<<64, 256>>>(idx, cdf, u, 64);
  q_nohoist<<<64, 256>>>(idx, cdf, u, 64);
  Bufs s1, s2;
  initBufs(s1, n, 1);
  initBufs(s2, n, 2);
  q_ref_al<<<n / 256, 256>>>(b, s1.b);
  q_ref_mis<<<n / 256, 256>>>(b, s2.b);
  const char *r = getenv("PROBES9_R");
  const char *s = getenv("PROBES9_STEPS");
  check(atoi(r ? r : "4"), atoi(s ? s : "2"));
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  printf("done\n");
  return 0;
}
