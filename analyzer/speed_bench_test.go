package analyzer

import (
	"strings"
	"testing"
)

// The warp model's cost should follow the distinct cases an access has,
// not the launch's size: the blog's matrixMul with its sizes fixed by the
// host code (1024x1024: 32 block rows times 32 unrolled copies, each over
// every warp of a 32x32 grid) against the same kernel with sizes no
// launch gives.
const matrixMulSrc = `#define BLOCK_SIZE 32
__global__ void MatrixMulCUDA(float *C, float *A, float *B, int wA, int wB) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by;
  int aEnd = aBegin + wA - 1;
  int aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx;
  int bStep = BLOCK_SIZE * wB;
  float Csub = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}
int main() {
  int n = @N@;
  float *dA, *dB, *dC;
  cudaMalloc(&dA, n * n * 4); cudaMalloc(&dB, n * n * 4); cudaMalloc(&dC, n * n * 4);
  dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid(n / threads.x, n / threads.y);
  MatrixMulCUDA<<<grid, threads>>>(dC, dA, dB, n, n);
  return 0;
}
`

// BenchmarkMatrixMulKnown1024 is matrixMul with n = 1024 in the host code.
func BenchmarkMatrixMulKnown1024(b *testing.B) {
	benchPipeline(b, "mm.cu", []byte(strings.Replace(matrixMulSrc, "@N@", "1024", 1)))
}

// BenchmarkMatrixMulUnknown is matrixMul with n read at run time.
func BenchmarkMatrixMulUnknown(b *testing.B) {
	benchPipeline(b, "mm.cu", []byte(strings.Replace(matrixMulSrc, "@N@", "atoi(getenv(\"N\"))", 1)))
}

// laneCondSrc is llm.c's shape of a row per warp: a warp's lanes walk a
// row of C floats, row = warp of the grid, with the row's tail guarded,
// under block sizes from 32 to 1024. Its requests are sampled, each lane
// evaluating the loop's bound and the address.
const laneCondSrc = `
__global__ void softmax_rows(float* out, const float* inp, int N, int C) {
  int warpsPerBlock = blockDim.x / 32;
  int warpId = threadIdx.x / 32;
  int laneId = threadIdx.x % 32;
  int idx = blockIdx.x * warpsPerBlock + warpId;
  if (idx >= N) return;
  const float* x = inp + idx * C;
  float* y = out + idx * C;
  for (int i = laneId; i < C; i += 32) {
    y[i] = x[i] * 2.0f;
  }
}
int main() {
  int N = 8192, C = 50257;
  float *out, *inp;
  cudaMalloc(&out, N * C * 4); cudaMalloc(&inp, N * C * 4);
  int sizes[] = {32, 64, 128, 256, 512, 1024};
  for (int j = 0; j < 6; j++) {
    int bs = sizes[j];
    softmax_rows<<<N * 32 / bs, bs>>>(out, inp, N, C);
  }
  return 0;
}
`

// BenchmarkLaneConditions is laneCondSrc: requests evaluated lane by lane.
func BenchmarkLaneConditions(b *testing.B) {
	benchPipeline(b, "softmax.cu", []byte(laneCondSrc))
}

// hotspotSrc is Rodinia's hotspot shape: a short store under a guard
// that differs by lane (nvcc predicates it) inside a loop of an unknown
// number of iterations, whose bounds shrink with the iteration. Each
// sampled request that no lane runs asks whether any warp of its block
// does.
const hotspotSrc = `#define B 16
__global__ void calc(int iteration, float *src, float *dst, int cols) {
  __shared__ float t_on[B][B];
  __shared__ float t_t[B][B];
  int tx = threadIdx.x, ty = threadIdx.y;
  int index = cols * (blockIdx.y * B + ty) + blockIdx.x * B + tx;
  t_on[ty][tx] = src[index];
  __syncthreads();
  bool computed;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (tx >= i + 1 && tx <= B - i - 2 && ty >= i + 1 && ty <= B - i - 2) {
      computed = true;
      t_t[ty][tx] = t_on[ty][tx] * 0.5f;
    }
    __syncthreads();
    if (computed) t_on[ty][tx] = t_t[ty][tx];
    __syncthreads();
  }
  if (computed) dst[index] = t_t[ty][tx];
}
int main(int argc, char **argv) {
  int cols = 1024, iters = atoi(argv[1]);
  float *src, *dst;
  cudaMalloc(&src, cols * cols * 4); cudaMalloc(&dst, cols * cols * 4);
  dim3 block(B, B), grid(cols / B, cols / B);
  calc<<<grid, block>>>(iters, src, dst, cols);
  return 0;
}
`

// BenchmarkPredicatedHotspot is hotspotSrc.
func BenchmarkPredicatedHotspot(b *testing.B) {
	benchPipeline(b, "hotspot.cu", []byte(hotspotSrc))
}

// blockGuardSrc is apex group_norm's shape: after the main work, one row
// of blocks writes the per-channel results, behind a guard that mixes
// the block index with a lane's channel ('return' unless blockIdx.y == 0
// and the channel is in range), under many block sizes. Most sampled
// requests fall in blocks the guard turns off as a whole.
const blockGuardSrc = `
__global__ void finish(float *red, float *dgamma, int c, int n) {
  int ci = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.y > 0 || blockIdx.z > 0 || ci >= c) return;
  float *p = &red[n * 2];
  if (ci < c) {
    float g0 = p[0 * c + ci];
    float g1 = p[1 * c + ci];
    dgamma[ci] = g0 + g1;
  }
}
int main(int argc, char **argv) {
  int c = atoi(argv[1]), n = atoi(argv[2]);
  float *red, *dg;
  cudaMalloc(&red, 1 << 24); cudaMalloc(&dg, 1 << 20);
  int sizes[] = {64, 96, 128, 160, 192, 256, 320, 384, 448, 512};
  for (int j = 0; j < 10; j++) {
    dim3 grid(c / sizes[j], 64, 4);
    finish<<<grid, sizes[j]>>>(red, dg, c, n);
  }
  return 0;
}
`

// BenchmarkBlockDecidedGuard is blockGuardSrc.
func BenchmarkBlockDecidedGuard(b *testing.B) {
	benchPipeline(b, "finish.cu", []byte(blockGuardSrc))
}
