package analyzer

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// Guards that mix what the model evaluates (the thread index) with what
// it cannot (a parameter no launch gives, a loaded value) keep their
// unknown operands into the compiled conditions. Each shape below once
// made the warp model index past its value array; each must now be
// priced like the store it guards without the unknown operand.
func TestGuardShapes(t *testing.T) {
	tests := []struct {
		name string
		body string // after int j = blockIdx.x * blockDim.x + threadIdx.x;
		expr string
		want float64 // sectors per request
	}{
		{"&& on a parameter first", "if (j > k && j < 2048) A[j] = 0;", "A[j]", 4},
		{"&& on a parameter second", "if (j < 2048 && j > k) A[j] = 0;", "A[j]", 4},
		{"|| on a parameter", "if (j < 16 || j > k) A[j] = 0;", "A[j]", 4},
		{"?: on a parameter", "if (k > 0 ? j < 2048 : j < 1024) A[j] = 0;", "A[j]", 4},
		{"?: choosing a parameter", "if (j < (j < 64 ? k : 2048)) A[j] = 0;", "A[j]", 4},
		{"nested", "if (j < 4096) { if (j > k && j % 2 == 0) A[j / 2] = 0; }", "A[j / 2]", 2}, // 16 even lanes, 16 floats
		{"loaded value first", "if (mask[j] && j < 2048) A[j] = 0;", "A[j]", 4},
		{"loaded value second", "if (j < 2048 && mask[j]) A[j] = 0;", "A[j]", 4},
		{"loaded value under ||", "if (j >= 2048 || mask[j] > k) return; A[j] = 0;", "A[j]", 4},
		{"in a loop", "for (int i = 0; i < 4; i++) if (j + i > k && i < 2) A[j * 4 + i] = 0;", "A[j * 4 + i]", 16}, // 16 bytes apart
		// k < threadIdx.x sorts first in the canonical &&; the known
		// operand still turns lanes 48 and up off: 4 sectors, then 2.
		{"known operand second decides", "int t = threadIdx.x; if (t > k && t < 48) A[t] = 0;", "A[t]", 3},
		{"known operand second decides ||", "int t = threadIdx.x; if (t <= k || t >= 48) return; A[t] = 0;", "A[t]", 3},
		{"early return", "if (j > k && j < 2048) return;\n  A[j] = 0;", "A[j]", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "__global__ void kern(float *A, const int *mask, int k) {\n  int j = blockIdx.x * blockDim.x + threadIdx.x;\n  " + tt.body + "\n}\n"
			r := analyze(t, src, Options{})
			if len(r.InternalErrors) > 0 {
				t.Fatal(r.InternalErrors[0])
			}
			ps := find(r, tt.expr, interp.Store)
			if len(ps) != 1 {
				t.Fatalf("%d predictions for %s, want 1", len(ps), tt.expr)
			}
			if p := ps[0]; !p.Known || p.Sectors != tt.want {
				t.Errorf("%s: known %v (%s), %.2f sectors; want %v", tt.expr, p.Known, p.Reason(), p.Sectors, tt.want)
			}
		})
	}
}
