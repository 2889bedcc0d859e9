package analyzer

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// make_int2 and the other make_* helpers build the vector of their
// arguments: an index kept in one is the index, and a float component
// is a float, named as such.
func TestMakeVector(t *testing.T) {
	tests := []struct {
		name, body, expr string
		sectors          float64 // -1: unknown
		reason           string
	}{
		{"an int2 coordinate", `int2 c = make_int2(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y);
  a[c.y * w + c.x] = 0;`, "a[c.y * w + c.x]", 4, ""},
		{"an int4 whose w is the row", `int4 c = make_int4(0, 0, threadIdx.x, threadIdx.x);
  a[c.w * w + c.z] = 0;`, "a[c.w * w + c.z]", 32, ""},
		{"a float2 component as an index", `float2 c = make_float2(threadIdx.x, 0);
  a[(int)c.x] = 0;`, "a[(int)c.x]", -1, "floating-point"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := analyze(t, `__global__ void k(float* a, int w) {
  `+tt.body+`
}
void h(float* a) { k<<<dim3(4, 4), 128>>>(a, 1024); }`, Options{})
			p := findOne(t, r, tt.expr, interp.Store)
			if tt.sectors < 0 {
				if p.Known || !strings.Contains(p.Reason(), tt.reason) {
					t.Errorf("known %v, reason %q: want unknown, %q", p.Known, p.Reason(), tt.reason)
				}
				return
			}
			if !p.Known || p.Sectors != tt.sectors {
				t.Errorf("got %.2f sectors (known %v, %s), want %.2f", p.Sectors, p.Known, p.Reason(), tt.sectors)
			}
		})
	}
}
