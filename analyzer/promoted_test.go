package analyzer

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// TestPromotedRecord: a record a thread adds to in a loop whose other
// accesses are to shared memory is kept in registers by nvcc, loaded
// before the loop and stored after (pairs.cu's pairloop_slow, lavaMD's
// shape: four STG in its SASS). Four planes added to in the loop are not
// (measured: 16x the L2 sectors), nor is a record in a loop that
// synchronises, loads other global memory, or leaves the record's
// address to the loop.
func TestPromotedRecord(t *testing.T) {
	const record = `fv[i].v += s[j]; fv[i].x += 2 * s[j];`
	tests := []struct {
		name, body string
		promoted   bool
	}{
		{"a record's fields", record, true},
		{"one location", `out[i] += s[j];`, true},
		{"planes", `out[i] += s[j]; out[4096 + i] += s[j];`, false},
		{"a barrier in the loop", record + ` __syncthreads();`, false},
		{"another global load", record + ` fv[i].y += in[j];`, false},
		{"an atomic", record + ` atomicAdd(out, 1.0f);`, false},
		{"the address moves with the loop", `fv[i + j].v += s[j];`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `struct R { float v, x, y, z; };
__global__ void k(R* fv, float* out, const float* in, int n) {
  __shared__ float s[64];
  int i = blockIdx.x * 128 + threadIdx.x;
  s[threadIdx.x % 64] = in[i];
  __syncthreads();
  for (int j = 0; j < n; j++) { ` + tt.body + ` }
}
void h(R* a, float* b, const float* c, int n) { k<<<64, 128>>>(a, b, c, n); }`
			r := analyze(t, src, Options{})
			seen := 0
			for _, p := range r.Predictions {
				inLoop := len(p.Access.Loops) > 0
				if !inLoop || p.Access.Space != interp.Global || strings.HasPrefix(p.Access.Expr, "in[") {
					continue
				}
				seen++
				if p.Promoted != tt.promoted {
					t.Errorf("%s %s: promoted %v, want %v", p.Access.Op, p.Access.Expr, p.Promoted, tt.promoted)
				}
				if p.Hoisted {
					t.Errorf("%s %s: hoisted, which is for loads before a loop that stores nothing", p.Access.Op, p.Access.Expr)
				}
			}
			if seen == 0 {
				t.Fatal("no global access in the loop")
			}
		})
	}
}
