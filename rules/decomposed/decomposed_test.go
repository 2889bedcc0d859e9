package decomposed

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/analyzertest"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, "testdata", Analyzer) }

// The rule's severity: the cost policy, and a step resting on a
// stride-named assumed parameter is information.
func TestSeverity(t *testing.T) {
	const launch = "\nvoid h(float* a, int n, int s) { k<<<64, 256>>>(a, n, s); }\n"
	tests := []struct {
		name, src string
		detect    bool
		want      lint.Severity
	}{
		{"a 1-D transpose", "__global__ void k(float* a, int n, int s) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[(i % n) * n + i / n] = 0; }" + launch, true, lint.Warning},
		{"groups of four, twice the ideal", "__global__ void k(float* a, int n, int s) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[(i / 4) * n + i % 4] = 0; }" + launch, true, lint.Info},
		{"a step that may be one element", "__global__ void k(float* a, int n, int s00) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[(i % n) * s00] = 0; }" + launch, true, lint.Info},
		{"a step compared as a size", "__global__ void k(float* a, int n, int s00) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < s00) a[(i % n) * s00] = 0; }" + launch, true, lint.Warning},
		{"the warp index: no scatter", "__global__ void k(float* a, int n, int s) { int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32; a[w * n + threadIdx.x % 32] = 0; }" + launch, false, lint.Info},
		{"a lane's own vector", "__global__ void k(float* a, int n, int s) { a[4 * (threadIdx.x % 32) + 128 * (threadIdx.x / 32)] = 0; }" + launch, false, lint.Info},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := analyzertest.Predict(t, tt.src, interp.Store)
			_, got := culprit(p)
			if got != tt.detect || p.LaneStride != nil {
				t.Fatalf("%s: culprit found %v, want %v (lane stride %v, %.2f sectors, ideal %.2f)", p.Access.Expr, got, tt.detect, p.LaneStride, p.Sectors, p.Ideal)
			}
			if tt.detect && Severity(p) != tt.want {
				t.Errorf("%s: %.2f sectors, ideal %.2f: %v, want %v", p.Access.Expr, p.Sectors, p.Ideal, Severity(p), tt.want)
			}
		})
	}
}
