package analyzer

import (
	"fmt"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
)

// A gather whose index every lane of a warp loads from one address
// moves its lanes together whatever the index holds: priced, not "1 to
// 32 sectors depending on the data". Where a warp straddles two rows,
// or each lane loads an index of its own, it stays data-dependent.
func TestGatherByWarpSharedIndex(t *testing.T) {
	tests := []struct {
		name, index string
		cols        int
		known       bool
		sectors     float64
	}{
		{"a row index per 1024 threads", "index[t / cols] * cols + t % cols", 1024, true, 4},
		{"rows of 1000 threads: warps straddle them", "index[t / cols] * cols + t % cols", 1000, false, 0},
		{"an index per lane", "index[t] * cols", 1024, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := fmt.Sprintf(`__global__ void k(const float* src, const long* index, float* dst, int cols) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    dst[t] = src[%s];
}
void h(const float* s, const long* i, float* d) { k<<<4096, 256>>>(s, i, d, %d); }`, tc.index, tc.cols)
			r := analyze(t, src, Options{})
			ps := find(r, "src["+tc.index+"]", interp.Load)
			if len(ps) != 1 {
				t.Fatalf("%d predictions, want 1", len(ps))
			}
			p := ps[0]
			shared := false
			for _, a := range p.Assumptions {
				shared = shared || a.Kind == warp.SharedIndex
			}
			if p.Known != tc.known || shared != tc.known || tc.known && p.Sectors != tc.sectors {
				t.Errorf("known %v (shared index %v), %v sectors; want known %v, %v", p.Known, shared, p.Sectors, tc.known, tc.sectors)
			}
		})
	}
}
