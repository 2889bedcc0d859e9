package analyzer

import (
	"fmt"
	"sort"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// Tokens a macro's body makes all stand at the invocation, so two kernels
// or two accesses written in one body printed alike and were taken for one
// place: the second kernel of a macro that defines a pair was never
// analyzed, and a shared store and a global load of one body merged into a
// row of both. Each is its own place (lex.Pos.Sub).
func TestMacroBodyPlacesAreDistinct(t *testing.T) {
	src := `
#define PAIR(NAME, STRIDE) \
__global__ void NAME##_slow(const float* in, float* out) { int i = blockIdx.x * 256 + threadIdx.x; out[i] = in[i * STRIDE]; } \
__global__ void NAME##_fast(const float* in, float* out) { int i = blockIdx.x * 256 + threadIdx.x; out[i] = in[i]; } \
void launch_##NAME(float* in, float* out) { NAME##_slow<<<64, 256>>>(in, out); NAME##_fast<<<64, 256>>>(in, out); }
PAIR(gather, 32)
#define TILE(NAME) \
__global__ void NAME(const float* in, float* out) { \
    __shared__ float s[32 * 32]; \
    s[threadIdx.x * 32] = in[threadIdx.x]; \
    __syncthreads(); \
    out[threadIdx.x] = s[threadIdx.x]; \
} \
void launch_##NAME(float* in, float* out) { NAME<<<64, 32>>>(in, out); }
TILE(tile)
`
	r := analyze(t, src, Options{})
	var kernels []string
	for _, k := range r.Kernels {
		kernels = append(kernels, k.Func.Name)
	}
	sort.Strings(kernels)
	if fmt.Sprint(kernels) != "[gather_fast gather_slow tile]" {
		t.Errorf("kernels %v, want gather_fast, gather_slow and tile", kernels)
	}
	tests := []struct {
		kernel, expr string
		op           interp.Op
		cost         float64 // sectors, or wavefronts for shared
	}{
		{"gather_slow", "in[i * 32]", interp.Load, 32},
		{"gather_fast", "in[i]", interp.Load, 4},
		{"tile", "s[threadIdx.x * 32]", interp.Store, 32},
		{"tile", "in[threadIdx.x]", interp.Load, 4},
		{"tile", "s[threadIdx.x]", interp.Load, 1},
	}
	for _, tc := range tests {
		var got []float64
		for _, p := range find(r, tc.expr, tc.op) {
			if p.Access.Kernel.Name == tc.kernel {
				got = append(got, p.Sectors)
			}
		}
		if len(got) != 1 || got[0] != tc.cost {
			t.Errorf("%s: %s %s: %v, want one prediction of %v", tc.kernel, tc.op, tc.expr, got, tc.cost)
		}
	}
}
