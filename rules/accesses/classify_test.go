package accesses

import (
	"slices"
	"testing"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/parser"
)

// Rules read what symbols are, not what they are called: names that
// look like the model's own words change nothing.
func TestClassifyReadsKindsNotNames(t *testing.T) {
	tests := []struct {
		name, src, expr string
		rule            string
		assumed         []string // AssumedStride
	}{
		{"a gather is indirect", `
__global__ void k(float* a, const int* idx) { a[idx[threadIdx.x]] = 0; }
void h(float* a, int* b) { k<<<1, 32>>>(a, b); }`, "a[idx[threadIdx.x]]", IndirectAccess, nil},
		{"an index array called loaded_by is still a gather", `
__global__ void k(float* a, const int* loaded_by) { a[loaded_by[threadIdx.x]] = 0; }
void h(float* a, int* b) { k<<<1, 32>>>(a, b); }`, "a[loaded_by[threadIdx.x]]", IndirectAccess, nil},
		{"an address on a float is not a gather", `
__global__ void k(float* a, float f) { a[(int)(f * threadIdx.x)] = 0; }
void h(float* a) { k<<<1, 32>>>(a, 0.5f); }`, "a[(int)(f * threadIdx.x)]", "", nil},
		{"a parameter called iter is a parameter, assumed large", `
__global__ void k(float* a, int iter) { a[threadIdx.x * iter] = 0; }
void h(float* a, int n) { k<<<1, 32>>>(a, n); }`, "a[threadIdx.x * iter]", StridedAccess, []string{"iter"}},
		{"a loop's iteration is not assumed", `
__global__ void k(float* a) { for (int i = 1; i < 4; i++) a[threadIdx.x * i] = 0; }
void h(float* a) { k<<<1, 32>>>(a); }`, "a[threadIdx.x * i]", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parser.Parse("m.cu", []byte(tt.src), parser.Config{})
			r := analyzer.Analyze([]*parser.File{f}, analyzer.Options{})
			var got *analyzer.Prediction
			for _, p := range r.Predictions {
				if p.Access.Expr == tt.expr {
					got = p
				}
			}
			if got == nil {
				t.Fatalf("no prediction for %s", tt.expr)
			}
			if rule := Classify(got, r.Predictions); rule != tt.rule {
				t.Errorf("rule %q, want %q (known %v, %s)", rule, tt.rule, got.Known, got.Reason())
			}
			if a := AssumedStride(got); !slices.Equal(a, tt.assumed) {
				t.Errorf("assumed %v, want %v", a, tt.assumed)
			}
		})
	}
}
