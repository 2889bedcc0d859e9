package interp

import (
	"testing"

	"github.com/cudalint/cudalint/parser/lex"
)

// A call to a function with a parameter pack binds the arguments before
// the pack by position; the pack's expansion and sizeof... are unknown,
// with a note that names the pack; a fold expression is unknown too.
func TestParameterPacks(t *testing.T) {
	src := `
__device__ float g(float a, float b) { return a + b; }
template <typename... Ts> __device__ float sum(const float* p, Ts... xs) {
  return p[threadIdx.x] + g(xs...) + sizeof...(xs) + (... + xs);
}
__global__ void k(const float* in, float* out) { out[threadIdx.x] = sum(in, 1.0f, 2.0f); }`
	run := runKernel(t, src)
	a := accessOf(t, run, "p[threadIdx.x]", Load)
	sameExpr(t, "address", a, a.Addr, sum(base("in"), mul(c(4), tid(0))))
	named := map[string]int{}
	for _, n := range run.Notes {
		if n.Kind == lex.NotePackNotFollowed {
			named[n.Subject]++
		}
	}
	if named["xs"] != 2 || named["in a fold expression"] != 1 {
		t.Errorf("notes %v: want two naming pack xs and one of a fold", run.Notes)
	}
}
