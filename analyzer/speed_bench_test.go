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
