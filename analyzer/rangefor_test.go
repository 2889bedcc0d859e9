package analyzer

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// A range-based for over a user range (grid_stride_range) is not
// modelled: its variable is unknown, and so is every access through it,
// saying why; it was taken for an undeclared name, assumed 4096, and the
// accesses priced as broadcasts (1 sector where lanes step by 2 floats).
func TestRangeForVariableIsUnknown(t *testing.T) {
	r := analyze(t, `
struct Range { int b, e, s; };
__device__ Range grid_stride_range(int b, int e);
__global__ void k(float* out, const float* in, int n) {
    for (int i : grid_stride_range(0, n)) out[i * 2] = in[i];
}
void h(float* o, const float* i) { k<<<64, 256>>>(o, i, 1 << 20); }
`, Options{})
	for _, tt := range []struct {
		expr string
		op   interp.Op
	}{{"out[i * 2]", interp.Store}, {"in[i]", interp.Load}} {
		p := findOne(t, r, tt.expr, tt.op)
		if p.Known || !strings.Contains(p.Reason(), "range-for variable i") {
			t.Errorf("%s: known %v (%s), want unknown through the range-for variable", tt.expr, p.Known, p.Reason())
		}
	}
}
