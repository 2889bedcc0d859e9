// Package gen writes synthetic CUDA sources for benchmarks and fuzz seeds:
// kernel-dense files (one realistic kernel after another, names and
// constants varied), mixed files where host C++ dominates, and in-memory
// projects of headers (Files, TemplateProject).
package gen

import (
	"fmt"
	"strings"
)

var kernelTemplates = []string{
	`__global__ void scale_%[1]d(const float* __restrict__ in, float* __restrict__ out, int n, float a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a * in[i + %[2]d];
    }
}
`,
	`__global__ void rows_%[1]d(const float* in, float* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        out[x * height + y] = in[y * width + x] * %[2]d.0f;
    }
}
`,
	`#define TILE_%[1]d 32
__global__ void tiled_%[1]d(const float* in, float* out, int w, int h) {
    __shared__ float tile[TILE_%[1]d][TILE_%[1]d + 1];
    int x = blockIdx.x * TILE_%[1]d + threadIdx.x;
    int y = blockIdx.y * TILE_%[1]d + threadIdx.y;
    for (int j = 0; j < TILE_%[1]d; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE_%[1]d + threadIdx.x;
    y = blockIdx.x * TILE_%[1]d + threadIdx.y;
    for (int j = 0; j < TILE_%[1]d; j += 8)
        out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
`,
	`struct Particle_%[1]d { float x, y, z, mass; int id; };
__device__ float weight_%[1]d(const Particle_%[1]d* p, int i) { return p[i].mass * %[2]d.0f; }
__global__ void particles_%[1]d(const Particle_%[1]d* ps, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float w = weight_%[1]d(ps, i);
        out[i] = w + ps[i].x;
    }
}
`,
	`__global__ void matmul_%[1]d(const float* A, const float* B, float* C, int N) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < N; ++k) {
        acc += A[row * N + k] * B[k * N + col];
    }
    C[row * N + col] = acc + %[2]d;
}
`,
	`__global__ void gather_%[1]d(const float4* src, const int* idx, float4* dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int j = idx[i] + %[2]d;
    float4 v = src[j];
    v.x *= 2.0f;
    dst[i] = v;
}
`,
}

// KernelDense returns about size bytes of kernels.
func KernelDense(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, kernelTemplates[i%len(kernelTemplates)], i, i%13+1)
		if i%len(kernelTemplates) == len(kernelTemplates)-1 {
			fmt.Fprintf(&b, "void launch_%d(float* a, float* b, int* ix) {\n    dim3 block(16, 16);\n    dim3 grid(64, 64);\n", i)
			fmt.Fprintf(&b, "    scale_%d<<<1024, 256>>>(a, b, 1 << 18, 2.0f);\n    rows_%d<<<grid, block>>>(a, b, 1024, 1024);\n", i-5, i-4)
			fmt.Fprintf(&b, "    tiled_%d<<<dim3(32, 32), dim3(32, 8)>>>(a, b, 1024, 1024);\n}\n", i-3)
		}
	}
	return b.String()
}

var hostTemplate = `namespace app_%[1]d {
class Buffer_%[1]d {
 public:
  explicit Buffer_%[1]d(size_t n) : n_(n), data_(nullptr) {}
  ~Buffer_%[1]d() { release(); }
  template <typename F> void each(F&& f) { for (size_t i = 0; i < n_; ++i) f(i); }
  Buffer_%[1]d& operator+=(const Buffer_%[1]d& o) { n_ += o.n_; return *this; }
  size_t size() const { return n_; }
 private:
  void release() { if (data_) { cudaFree(data_); data_ = nullptr; } }
  size_t n_;
  float* data_;
};
static std::vector<std::string> names_%[1]d = {"a", "b", "c"};
inline int pick_%[1]d(const std::map<std::string, int>& m, const std::string& k) {
  auto it = m.find(k);
  auto square = [](int v) { return v * v; };
  return it == m.end() ? -1 : square(it->second) + %[2]d;
}
}  // namespace app_%[1]d
`

// Mixed returns about size bytes where most lines are host C++ and one
// kernel stands every few host blocks.
func Mixed(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, hostTemplate, i, i%7)
		if i%4 == 0 {
			fmt.Fprintf(&b, kernelTemplates[i%len(kernelTemplates)], i, i%13+1)
		}
	}
	return b.String()
}
