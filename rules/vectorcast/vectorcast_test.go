package vectorcast

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/analyzertest"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/lint"

	"github.com/cudalint/cudalint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, "testdata", Analyzer) }

// A fault is an error only where the code's own values misalign it.
func TestSeverity(t *testing.T) {
	tests := []struct {
		name, src string
		want      lint.Severity
	}{
		{"misaligned by the code's own offset", "__global__ void k(float4* o, const float* a, int n) { o[threadIdx.x] = reinterpret_cast<const float4*>(a + 1)[threadIdx.x]; }\nvoid h(float4* o, float* a) { k<<<64, 256>>>(o, a, 3); }", lint.Error},
		{"misaligned by a launch's value", "__global__ void k(float4* o, const float* a, int n) { o[threadIdx.x] = reinterpret_cast<const float4*>(a + n)[threadIdx.x]; }\nvoid h(float4* o, float* a) { k<<<64, 256>>>(o, a, 3); }", lint.Error},
		{"misaligned at an assumed size", "__global__ void k(float4* o, const float* a, int n) { o[threadIdx.x] = reinterpret_cast<const float4*>(a + n + 1)[threadIdx.x]; }\nvoid h(float4* o, float* a, int n) { k<<<64, 256>>>(o, a, n); }", lint.Warning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := analyzertest.Predict(t, tt.src, interp.Load)
			if !Detect(nil, p) {
				t.Fatalf("no misaligned load predicted: %+v", p)
			}
			if got := Severity(p); got != tt.want {
				t.Errorf("%s: %v, want %v", p.Access.Expr, got, tt.want)
			}
		})
	}
}
