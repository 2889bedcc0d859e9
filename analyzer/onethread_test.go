package analyzer

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/warp"
)

// A guard that compares the thread index with a value the block shares
// lets one thread of a block through, whatever the value: the access is
// one thread's (1 sector), not a warp's. A guard that several threads
// can pass keeps its lanes.
func TestGuardOfOneThread(t *testing.T) {
	tests := []struct {
		name, guard string
		sectors     float64
		one         bool
	}{
		{"the last thread of a row, by a loaded length", "t == lens[blockIdx.x] - 1", 1, true},
		{"a thread chosen by a parameter no launch gives", "threadIdx.x == m", 1, true},
		{"the same, written the other way round", "m - 1 == 2 * t", 1, true},
		{"a parameter the launch gives: evaluated as it stands", "threadIdx.x == n", 1, false},
		{"two threads share each value: not one", "t / 2 == lens[blockIdx.x]", 32, false},
		{"one lane of each warp: not one of the block", "t % 32 == lens[blockIdx.x]", 32, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := `__global__ void k(const int* lens, float* out, int n, int m) {
    int t = threadIdx.x;
    if (` + tc.guard + `) out[blockIdx.x * 8192 + t * 64] = 1;
}
void h(const int* l, float* o, int m) { k<<<4096, 256>>>(l, o, 7, m); }`
			r := analyze(t, src, Options{})
			ps := find(r, "out[blockIdx.x * 8192 + t * 64]", interp.Store)
			if len(ps) != 1 {
				t.Fatalf("%d predictions, want 1", len(ps))
			}
			p := ps[0]
			one := false
			for _, a := range p.Assumptions {
				one = one || a.Kind == warp.OneThread
			}
			if p.Sectors != tc.sectors || one != tc.one {
				t.Errorf("%v sectors (one thread: %v), want %v (%v)", p.Sectors, one, tc.sectors, tc.one)
			}
		})
	}
}

// A lambda a kernel calls where it writes it has its accesses priced
// like the kernel's own.
func TestAccessInImmediateLambda(t *testing.T) {
	r := analyze(t, `__global__ void k(float* out) { [&] { out[threadIdx.x * 2] = 0; }(); }
void h(float* o) { k<<<4096, 256>>>(o); }`, Options{})
	ps := find(r, "out[threadIdx.x * 2]", interp.Store)
	if len(ps) != 1 || ps[0].Sectors != 8 {
		t.Fatalf("predictions %v, want one of 8 sectors", ps)
	}
	for _, k := range r.Kernels {
		if len(k.Notes) > 0 {
			t.Errorf("notes %v", k.Notes)
		}
	}
}
