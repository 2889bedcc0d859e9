package impact

import (
	"math"
	"testing"
)

// The issue slots a launch takes, counted by hand as issue.go counts
// them: an operation of the source one (literals folded, an integer
// division by a power of two a shift, any other integer division four),
// two in double; floating-point divisions and math functions what
// testdata/truth/ops measured (sqrtf 11, exp in double 39, a float
// division 12, a double one 16); an access one; each weighed by how
// often a warp runs it; 64 blocks of 8 warps.
func TestKernelInstructions(t *testing.T) {
	const warps = 64 * 8
	tests := []struct {
		name, src string
		perWarp   float64
	}{
		// The index's two operations, a load and a store.
		{"copy", `__global__ void k(const float* a, float* b) { int i = blockIdx.x * blockDim.x + threadIdx.x; b[i] = a[i]; }`, 2 + 2},
		// Ten iterations of the test, the step, the address's three and
		// the store.
		{"loop", `__global__ void k(float* a) { for (int j = 0; j < 10; j++) a[4 * threadIdx.x + 1024 * j] = 0; }`, 10 * (2 + 3 + 1)},
		// A loop of arithmetic with no access: its header gives 100
		// iterations of the test, the step and two operations.
		{"arithmetic loop", `__global__ void k(const float* a, float* b) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float s = a[i];
	for (int k = 0; k < 100; k += 1) s = s * 1.5f + 2.0f;
	b[i] = s;
}`, 2 + 2 + 100*4},
		// A division by 3 is four, by 4 a shift; sqrtf eleven; N / 8 folded.
		{"divisions and math", `__global__ void k(const float* a, float* b) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	b[i] = sqrtf(a[i / 3]) + a[i / 4] * (1024 / 8);
}`, 2 + 4 + 11 + 1 + 1 + 1 + 3},
		// In double: the multiply and the add two each, exp 39, the
		// division 16; the index two, three accesses.
		{"double arithmetic", `__global__ void k(const double* a, double* b) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	double x = a[i];
	b[i] = exp(x) * x + 1.0 / a[i + 1];
}`, 2 + 39 + 2 + 2 + 16 + 1 + 3},
		// A float times a literal without f computes in double (and the
		// conversion back is not counted); expf of a float is 10, exp of
		// a float the float overload, 10 too.
		{"promoted by a literal", `__global__ void k(const float* a, float* b) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float x = a[i];
	b[i] = 2.0 * x + expf(x) + exp(x);
}`, 2 + 2 + 2 + 10 + 2 + 10 + 2},
		// A struct's double field read through a pointer: its product two,
		// the float one one, their sum (in double) two; five accesses.
		{"double field", `struct R { double v; float w; };
__global__ void k(const R* a, float* b) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	b[i] = a[i].v * a[i].v + a[i].w * a[i].w;
}`, 2 + 2 + 1 + 2 + 5},
		// A device function's body counts at each call.
		{"helper called twice", `__device__ float sq(float x) { return x * x + 1.0f; }
__global__ void k(const float* a, float* b) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	b[i] = sq(a[i]) - sq(a[i + 1]);
}`, 2 + 2*2 + 1 + 1 + 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, costs := loadSource(t, tt.src+"\nvoid h(float* a, float* b) { k<<<64, 256>>>(a, b); }\n")
			if len(res.Analysis.Predictions) == 0 {
				t.Fatal("no predictions")
			}
			k, _ := costs.Kernel(res.Analysis.Predictions[0])
			if want := tt.perWarp * warps; math.Abs(k.Instructions-want) > 0.5 {
				t.Errorf("%v instructions per launch (%.2f a warp), want %v (%v a warp)", k.Instructions, k.Instructions/warps, want, tt.perWarp)
			}
		})
	}
}

// The time model's third term: issuing instructions overlaps memory as
// DRAM and the L1 overlap each other.
func TestKernelSeconds(t *testing.T) {
	tests := []struct {
		memory, instructions, want float64
	}{
		{1e-3, 0, 1e-3},
		{0, IssueRate * 1e-3, 1e-3},
		{1e-3, IssueRate * 1e-3, 1.5e-3},
		{1e-3, IssueRate * 4e-3, 4.5e-3}, // issue-bound: half the memory time shows
	}
	for _, tt := range tests {
		if got := KernelSeconds(tt.memory, tt.instructions); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("KernelSeconds(%g, %g) = %g, want %g", tt.memory, tt.instructions, got, tt.want)
		}
	}
}
