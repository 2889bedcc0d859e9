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

// TestPromotedSharedLoad: a shared load no iteration moves, in a loop
// that writes no shared memory and does not synchronise, is read once
// before the loop (pairloop_slow's rA[tx]: 105.6 M shared wavefronts
// measured, 1,407 M once per iteration).
func TestPromotedSharedLoad(t *testing.T) {
	tests := []struct {
		name, body string
		promoted   bool
	}{
		{"invariant", `acc += s[threadIdx.x] * s[j];`, true},
		{"a shared store in the loop", `acc += s[threadIdx.x] * s[j]; s[j] = acc;`, false},
		{"a barrier in the loop", `acc += s[threadIdx.x] * s[j]; __syncthreads();`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `__global__ void k(float* out, const float* in, int n) {
  __shared__ float s[128];
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  float acc = 0;
  for (int j = 0; j < n; j++) { ` + tt.body + ` }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}
void h(float* a, const float* b, int n) { k<<<64, 128>>>(a, b, n); }`
			r := analyze(t, src, Options{})
			found := false
			for _, p := range r.Predictions {
				if p.Access.Space != interp.Shared || p.Access.Op != interp.Load || len(p.Access.Loops) == 0 {
					continue
				}
				invariant := p.Access.Expr == "s[threadIdx.x]"
				found = found || invariant
				if want := invariant && tt.promoted; p.Promoted != want {
					t.Errorf("%s: promoted %v, want %v", p.Access.Expr, p.Promoted, want)
				}
			}
			if !found {
				t.Fatal("no load of s[threadIdx.x] in the loop")
			}
		})
	}
}
