package analyzer

import "testing"

// With no launch, a cooperative-groups kernel gets the 1D default block:
// thread_rank() mentions threadIdx.y and .z, the kernel does not ask for
// a 2D block. One that writes threadIdx.y itself still gets 16x16.
func TestDefaultBlockForCooperativeGroups(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"rank only", `namespace cg = cooperative_groups;
__global__ void k(float* a) { cg::thread_block b = cg::this_thread_block(); a[blockIdx.x * b.size() + b.thread_rank()] = 0; }`, "256"},
		{"rank and threadIdx.y", `namespace cg = cooperative_groups;
__global__ void k(float* a, int w) { cg::thread_block b = cg::this_thread_block(); a[threadIdx.y * w + b.thread_rank()] = 0; }`, "16x16"},
		{"plain 2D", `__global__ void k(float* a, int w) { a[threadIdx.y * w + threadIdx.x] = 0; }`, "16x16"},
	}
	for _, tt := range tests {
		r := analyze(t, tt.src, Options{})
		if len(r.Kernels) != 1 || len(r.Kernels[0].Configs) != 1 {
			t.Fatalf("%s: kernels %d", tt.name, len(r.Kernels))
		}
		if got := r.Kernels[0].Configs[0].Block.String(); got != tt.want {
			t.Errorf("%s: default block %s, want %s", tt.name, got, tt.want)
		}
	}
}
