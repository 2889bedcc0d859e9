package interp

import (
	"testing"

	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// TestLoops checks the Loop records around an access: the address in
// terms of the iteration (iter(k) is loop k's, outermost first), the
// condition deciding whether iteration iter(k) runs, the constant trip
// count the compiler sees, the unroll pragma, the counting variable and
// whether the body can leave early.
func TestLoops(t *testing.T) {
	type loopWant struct {
		cond   symbolic.Expr // nil: not checked
		trip   int64
		unroll lex.Unroll
		v      string        // the counting variable, "" for none
		varAt  symbolic.Expr // its value at iter(k), nil: not checked
		leaves bool
	}
	stride := mul(bdim(0), gdim(0))
	tests := []struct {
		name  string
		src   string
		expr  string
		op    Op
		addr  symbolic.Expr
		loops []loopWant
	}{
		{"grid-stride: i = gx + iter*bdim*gdim while i < n", `
__global__ void k(float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = 0;
}`, "out[i]", Store, sum(base("out"), mul(c(4), sum(globalX(), mul(iter(0), stride)))),
			[]loopWant{{cond: symbolic.Binary(symbolic.OpLt, sum(globalX(), mul(iter(0), stride)), param("n")), v: "i", varAt: sum(globalX(), mul(iter(0), stride))}}},
		{"block-stride from tid: i = tx + iter*bdim", `
__global__ void k(const float* in, float* out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[0] += in[i];
}`, "in[i]", Load, sum(base("in"), mul(c(4), sum(tid(0), mul(iter(0), bdim(0))))),
			[]loopWant{{v: "i", varAt: sum(tid(0), mul(iter(0), bdim(0)))}}},
		{"a pointer stepped by 32 floats per iteration", `
__global__ void k(const float* in, float* out) {
  const float* p = in + blockIdx.x * 128 + threadIdx.x;
  for (int j = 0; j < 4; j++) { out[j] = *p; p += 32; }
}`, "*p", Load, sum(base("in"), mul(c(512), bid(0)), mul(c(128), iter(0)), mul(c(4), tid(0))),
			[]loopWant{{trip: 4, v: "j", varAt: iter(0)}}},
		{"a constant loop r < 4 under a bare #pragma unroll: 4 trips, unrolled fully", `
__global__ void k(float* out) {
  #pragma unroll
  for (int r = 0; r < 4; r++) out[r * 32 + threadIdx.x] = 0;
}`, "out[r * 32 + threadIdx.x]", Store, sum(base("out"), mul(c(128), iter(0)), mul(c(4), tid(0))),
			[]loopWant{{cond: symbolic.Binary(symbolic.OpLt, iter(0), c(4)), trip: 4, unroll: lex.UnrollFull, v: "r", varAt: iter(0)}}},
		{"#pragma unroll 2 over 8 trips is a count of 2", `
__global__ void k(float* out) {
  #pragma unroll 2
  for (int r = 0; r < 8; r++) out[r] = 3;
}`, "out[r]", Store, sum(base("out"), mul(c(4), iter(0))),
			[]loopWant{{trip: 8, unroll: lex.UnrollCount(2), v: "r", varAt: iter(0)}}},
		{"#pragma unroll 1 keeps the loop, still of 16 trips", `
__global__ void k(float* out) {
  #pragma unroll 1
  for (int r = 0; r < 16; r++) out[r] = 3;
}`, "out[r]", Store, sum(base("out"), mul(c(4), iter(0))),
			[]loopWant{{trip: 16, unroll: lex.UnrollCount(1), v: "r", varAt: iter(0)}}},
		{"a step of 2 from 1: r = 1 + 2*iter, r < 9 runs 4 times", `
__global__ void k(float* out) {
  for (int r = 1; r < 9; r += 2) out[r] = 0;
}`, "out[r]", Store, sum(base("out"), c(4), mul(c(8), iter(0))),
			[]loopWant{{trip: 4, v: "r", varAt: sum(c(1), mul(c(2), iter(0)))}}},
		{"nested loops, outermost first: a < 4 constant, b < n not", `
__global__ void k(float* out, int n) {
  for (int a = 0; a < 4; a++) for (int b = 0; b < n; b++) out[a * n + b] = 1;
}`, "out[a * n + b]", Store, sum(base("out"), mul(c(4), iter(0), param("n")), mul(c(4), iter(1))),
			[]loopWant{{trip: 4, v: "a", varAt: iter(0)}, {cond: symbolic.Binary(symbolic.OpLt, iter(1), param("n")), v: "b", varAt: iter(1)}}},
		{"a while loop stepping w by 32 has no counting variable", `
__global__ void k(float* out, int n) {
  int w = threadIdx.x;
  while (w < n) { out[w] = 4; w += 32; }
}`, "out[w]", Store, sum(base("out"), mul(c(128), iter(0)), mul(c(4), tid(0))),
			[]loopWant{{cond: symbolic.Binary(symbolic.OpLt, sum(mul(c(32), iter(0)), tid(0)), param("n"))}}},
		{"a break makes the loop one that leaves early", `
__global__ void k(const float* in, float* out, int n) {
  for (int c = 0; c < n; c++) { if (in[c] > 0) break; out[c] = 2; }
}`, "out[c]", Store, sum(base("out"), mul(c(4), iter(0))),
			[]loopWant{{v: "c", varAt: iter(0), leaves: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := accessOf(t, runKernel(t, tt.src), tt.expr, tt.op)
			sameExpr(t, "address", a, a.Addr, tt.addr)
			if len(a.Loops) != len(tt.loops) {
				t.Fatalf("%d loops, want %d", len(a.Loops), len(tt.loops))
			}
			for k, w := range tt.loops {
				l := a.Loops[k]
				if w.cond != nil {
					sameExpr(t, "condition", a, l.Cond, w.cond)
				}
				if l.Trip != w.trip || l.Unroll != w.unroll || l.Var != w.v || l.Leaves != w.leaves {
					t.Errorf("loop %d: trip %d, unroll %v, var %q, leaves %v; want %d, %v, %q, %v", k, l.Trip, l.Unroll, l.Var, l.Leaves, w.trip, w.unroll, w.v, w.leaves)
				}
				if w.varAt != nil {
					sameExpr(t, "variable", a, l.VarAt, w.varAt)
				}
			}
		})
	}
}

// TestCarriedRecurrence: off = off * 3 + 1 is no induction variable (no
// closed form in the iteration); the loop carries it as a uniform symbol
// with entry 0 and next 3*off + 1, and the address is 4 times it.
func TestCarriedRecurrence(t *testing.T) {
	a := accessOf(t, runKernel(t, `
__global__ void k(float* out) {
  int off = 0;
  for (int k = 0; k < 8; k++) { out[off] = 0; off = off * 3 + 1; }
}`), "out[off]", Store)
	if len(a.Loops) != 1 || len(a.Loops[0].Carried) != 1 {
		t.Fatalf("want one loop carrying one value, got %+v", a.Loops)
	}
	cv := a.Loops[0].Carried[0]
	if cv.Name != "off" || cv.Sym.Class != symbolic.Uniform {
		t.Errorf("carried %q of class %v, want off, uniform", cv.Name, cv.Sym.Class)
	}
	sym := symbolic.NewSym(*cv.Sym)
	sameExpr(t, "entry", a, cv.Entry, c(0))
	sameExpr(t, "next", a, cv.Next, sum(mul(c(3), sym), c(1)))
	sameExpr(t, "address", a, a.Addr, sum(base("out"), mul(c(4), sym)))
}

// TestLoopAccessCount: Accesses counts what one pass of the body records
// (the compiler's unrolling decision depends on the body's size): a load
// and a store here.
func TestLoopAccessCount(t *testing.T) {
	a := accessOf(t, runKernel(t, `
__global__ void k(const float* in, float* out) {
  for (int r = 0; r < 4; r++) out[r] = in[r];
}`), "in[r]", Load)
	if len(a.Loops) != 1 || a.Loops[0].Accesses != 2 {
		t.Errorf("loops %+v, want one whose body makes 2 accesses", a.Loops)
	}
}

// TestDoWhileCondition: do { out[j] = 4; j += 8; } while (j < 64); runs
// with j = 0, 8, ..., 56: iterations 0..7. The condition before
// iteration k > 0 is checked on j after iteration k-1, which is j at
// the start of iteration k, 8k: k runs iff k == 0 || 8k < 64. (The
// interpreter once shifted the condition by one more iteration,
// 8(k-1) < 64, so that iteration 8, out[64], ran too.)
func TestDoWhileCondition(t *testing.T) {
	a := accessOf(t, runKernel(t, `
__global__ void k(float* out) {
  int j = 0;
  do { out[j] = 4; j += 8; } while (j < 64);
}`), "out[j]", Store)
	sameExpr(t, "address", a, a.Addr, sum(base("out"), mul(c(32), iter(0))))
	var points []map[symbolic.SymID]int64
	for k := int64(0); k < 12; k++ {
		points = append(points, map[symbolic.SymID]int64{key(iter(0)): k})
	}
	agrees(t, "condition", a, a.Loops[0].Cond, func(p map[symbolic.SymID]int64) bool { return p[key(iter(0))] < 8 }, points)
}
