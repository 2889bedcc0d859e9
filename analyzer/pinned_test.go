package analyzer

import (
	"strings"
	"testing"
)

// TestGuardPinsParameter: an access that runs only where a guard says
// param == c has param at c, not at the size assumed for a parameter no
// launch gives (FasterTransformer's is_vec == 1 ? scale[tid * is_vec]).
// A guard that does not pin it (!=, <, a negated equality) leaves the
// assumption.
func TestGuardPinsParameter(t *testing.T) {
	tests := []struct {
		name, guard string
		sectors     float64 // per request of the load of in
		assumed     bool    // is_vec still assumed
	}{
		{"equal to one", "is_vec == 1", 4, false},
		{"one, in a conjunction", "is_vec == 1 && threadIdx.x < n", 4, false},
		{"zero, by negation", "!is_vec", 1, false},
		{"not equal", "is_vec != 1", 32, true},
		{"below", "is_vec < 2", 32, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `__global__ void k(float* out, const float* in, int is_vec, int n) {
  if (` + tt.guard + `) out[blockIdx.x * 256 + threadIdx.x] = in[threadIdx.x * is_vec];
}
void h(float* a, const float* b, int v, int n) { k<<<64, 256>>>(a, b, v, n); }`
			r := analyze(t, src, Options{})
			found := false
			for _, p := range r.Predictions {
				if !strings.HasPrefix(p.Access.Expr, "in[") {
					continue
				}
				found = true
				if !p.Known || p.Sectors != tt.sectors {
					t.Errorf("%s: known %v, %.2f sectors/request, want %.0f", p.Access.Expr, p.Known, p.Sectors, tt.sectors)
				}
				assumed := false
				for _, a := range p.Assumptions {
					assumed = assumed || a.Name == "is_vec"
				}
				if assumed != tt.assumed {
					t.Errorf("is_vec assumed: %v, want %v (%v)", assumed, tt.assumed, p.Assumptions)
				}
			}
			if !found {
				t.Fatal("no load of in")
			}
		})
	}
}
