package analyzer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// analyzeFiles parses a kernel file that may include the other files
// (read from memory) and analyzes it.
func analyzeFiles(t *testing.T, main string, files map[string]string) *Result {
	t.Helper()
	read := func(path string) ([]byte, error) {
		if src, ok := files[filepath.Base(path)]; ok {
			return []byte(src), nil
		}
		return nil, os.ErrNotExist
	}
	f := parser.Parse("m.cu", []byte(main), parser.Config{ReadFile: read})
	for _, n := range f.Notes {
		t.Logf("note: %v", n)
	}
	return Analyze([]*parser.File{f}, Options{})
}

// A helper's loop in a header and the kernel's loop can stand at the same
// line and column; they are different loops. Sharing one iteration symbol
// ties the helper's iteration to the kernel's: the access then only sees
// the diagonal (i == j) of the two loops.
func TestLoopSymbolsIncludeTheFile(t *testing.T) {
	header := `
__device__ float sum4(const float* a, int i) {
  float s = 0; for (int j = 0; j < 4; j++) s += a[threadIdx.x * (1 + i * j)];
  return s;
}
`
	// Line 3 column 3 in both files.
	kernel := `#include "h.cuh"
__global__ void k(const float* a, float* out) {
  float s = 0; for (int i = 0; i < 4; i++) s += sum4(a, i);
  out[threadIdx.x] = s;
}
void h(float* a, float* b) { k<<<1, 32>>>(a, b); }`
	r := analyzeFiles(t, kernel, map[string]string{"h.cuh": header})
	ps := find(r, "a[threadIdx.x * (1 + i * j)]", interp.Load)
	if len(ps) != 1 {
		t.Fatalf("%d predictions", len(ps))
	}
	p := ps[0]
	// 16 requests (4 x 4 iterations); a stride of 1 + i*j floats costs
	// 4 sectors per float of stride up to 8: i*j is 0 seven times (4
	// sectors), 1 once (8), 2 and 3 twice (12, 16), 4 once (20), 6 twice
	// (28), 9 once (32): 200 sectors. On the diagonal alone it was 19.
	if !p.Known || !p.Exact || p.Sectors != 12.5 || p.Requests != 16 {
		t.Errorf("known %v exact %v sectors %.2f requests %d; want 12.5 sectors over 16 requests", p.Known, p.Exact, p.Sectors, p.Requests)
	}
	if len(p.Access.Loops) != 2 || p.Access.Loops[0].Iter == p.Access.Loops[1].Iter {
		t.Errorf("loops %+v: want two distinct iteration symbols", p.Access.Loops)
	}
}

// A statement the parser skipped can assign any variable it mentions.
func TestSkippedStatementMakesItsVariablesUnknown(t *testing.T) {
	tests := []struct {
		name, stmt string
		cause      symbolic.UnknownCause
		reason     string
	}{
		{"inline assembly with an output", `asm("mov.u32 %0, 32;" : "=r"(s));`, symbolic.CauseNotModelled,
			"the address depends on s, the result of mov.u32 in the inline assembly at m.cu:4:3"},
		{"inline assembly cudalint does not follow", `asm("getctarank.u32 %0, %1;" : "=r"(s) : "r"(0));`, symbolic.CauseNotUnderstood,
			"the address depends on s, which is changed by a statement not understood at m.cu:4:3"},
		{"a lambda capturing by reference, passed to a function cudalint cannot see", `apply([&]() { s = 32; });`, symbolic.CauseCapturedWrite,
			"the address depends on s, which the lambda passed to the call at m.cu:4:3 may assign"},
		{"a lambda capturing by reference, passed to a helper that calls it in a loop", `for_n(4, [&](int k) { s += k; });`, symbolic.CauseCapturedWrite,
			"the address depends on s, which the lambda passed to the call at m.cu:4:3 may assign"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `
__global__ void k(float* a) {
  int s = 1;
  ` + tt.stmt + `
  a[threadIdx.x * s] = 0;
}
template <class F> __device__ void for_n(int n, F f) { for (int k = 0; k < n; k++) f(k); }
void h(float* a) { k<<<1, 32>>>(a); }`
			r := analyze(t, src, Options{})
			ps := find(r, "a[threadIdx.x * s]", interp.Store)
			if len(ps) != 1 {
				t.Fatalf("%d predictions", len(ps))
			}
			p := ps[0]
			if p.Known {
				t.Fatalf("known, %.2f sectors (exact %v): want unknown", p.Sectors, p.Exact)
			}
			if p.Unknown.Cause != tt.cause || p.Unknown.Site.Line != 4 {
				t.Errorf("unknown %+v: want %v at line 4", p.Unknown, tt.cause)
			}
			if p.Reason() != tt.reason {
				t.Errorf("reason %q, want %q", p.Reason(), tt.reason)
			}
		})
	}
}

// A skipped statement in a loop body may change a variable on every
// iteration: before it, in the next iteration, the value is not the
// entry value either.
func TestSkippedStatementInALoop(t *testing.T) {
	src := `
__global__ void k(float* a) {
  int s = 1;
  for (int i = 0; i < 4; i++) {
    a[threadIdx.x * s] = 0;
    asm("mov.u32 %0, 32;" : "=r"(s));
  }
}
void h(float* a) { k<<<1, 32>>>(a); }`
	r := analyze(t, src, Options{})
	for _, p := range find(r, "a[threadIdx.x * s]", interp.Store) {
		if p.Known {
			t.Errorf("known, %.2f sectors: want unknown", p.Sectors)
		}
	}
}

// What a skipped statement cannot change stays known: a const integer,
// an array's address, a cooperative-group handle.
func TestSkippedStatementKeepsWhatItCannotChange(t *testing.T) {
	src := `
__global__ void k(float* a) {
  constexpr int S = 2;
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  auto f = [&](int i) { return i * S + warp.thread_rank(); };
  a[warp.thread_rank() * S] = 0;
}
void h(float* a) { k<<<1, 32>>>(a); }`
	r := analyze(t, src, Options{})
	ps := find(r, "a[warp.thread_rank() * S]", interp.Store)
	if len(ps) != 1 || !ps[0].Known || ps[0].Sectors != 8 {
		t.Fatalf("%d predictions %+v: want one, known, 8 sectors", len(ps), ps)
	}
}

// A member name in a skipped statement is not a variable: q.s does not
// mention s.
func TestSkippedStatementMemberNames(t *testing.T) {
	src := `
__global__ void k(float* a, int2 q) {
  int s = 1;
  auto f = [&]() { return q.s; };
  a[threadIdx.x * s] = 0;
}
void h(float* a, int2 q) { k<<<1, 32>>>(a, q); }`
	r := analyze(t, src, Options{})
	if ps := find(r, "a[threadIdx.x * s]", interp.Store); len(ps) != 1 || !ps[0].Known || ps[0].Sectors != 4 {
		t.Fatalf("%d predictions: want one, known, 4 sectors", len(ps))
	}
}
