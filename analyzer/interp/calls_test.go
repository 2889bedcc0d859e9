package interp

import (
	"testing"

	"github.com/cudalint/cudalint/symbolic"
)

// TestInlinedCalls: __device__ helpers and lambdas are inlined. The
// access keeps its own expression and carries the calls that reach it
// (Via, outermost first); the address is the helper's, with the
// arguments' values substituted.
func TestInlinedCalls(t *testing.T) {
	tx := tid(0)
	tests := []struct {
		name     string
		src      string
		expr     string
		op       Op
		addr     symbolic.Expr
		via      []string // Via's Name()s
		local    []bool   // Via's Local
		inHelper bool
	}{
		{"a helper reading p[i] with i = tid + 1", `
__device__ float get(const float* p, int i) { return p[i]; }
__global__ void k(const float* in, float* out) { out[threadIdx.x] = get(in, threadIdx.x + 1); }`,
			"p[i]", Load, sum(base("in"), mul(c(4), tx), c(4)), []string{"get()"}, []bool{false}, true},
		{"a reference parameter bound to out[2*tx]: the write is a store there", `
__device__ void set(float& r, float v) { r = v; }
__global__ void k(float* out) { set(out[2 * threadIdx.x], 2); }`,
			"r", Store, sum(base("out"), mul(c(8), tx)), []string{"set()"}, []bool{false}, true},
		{"a reference parameter read and written: r += v loads then stores", `
__device__ void add(float& r, float v) { r += v; }
__global__ void k(float* out) { add(out[threadIdx.x], 2); }`,
			"r", Load, sum(base("out"), mul(c(4), tx)), []string{"add()"}, []bool{false}, true},
		{"two helpers deep: outer adds 1, inner indexes", `
__device__ void inner(float* p, int i) { p[i] = 0; }
__device__ void outer(float* p, int i) { inner(p, i + 1); }
__global__ void k(float* out) { outer(out, threadIdx.x); }`,
			"p[i]", Store, sum(base("out"), mul(c(4), tx), c(4)), []string{"outer()", "inner()"}, []bool{false, false}, true},
		// A lambda bound to a variable is named by it (only one written in
		// place has no name).
		{"a lambda the kernel writes is the kernel's own code", `
__global__ void k(float* out) {
  auto f = [&](int j) { out[j] = 1; };
  f(threadIdx.x * 2);
}`, "out[j]", Store, sum(base("out"), mul(c(8), tx)), []string{"f()"}, []bool{true}, false},
		{"a lambda written in place, run by a helper: the lambda is still the kernel's", `
template <class F> __device__ void apply(F f) { f(threadIdx.x); }
__global__ void k(float* out) { apply([&](int j) { out[j] = 1; }); }`,
			"out[j]", Store, sum(base("out"), mul(c(4), tx)), []string{"apply()", "lambda"}, []bool{false, true}, false},
		{"a helper taking a pointer moved by the caller", `
__device__ void put(float* p) { p[threadIdx.x] = 0; }
__global__ void k(float* out) { put(out + 64 * blockIdx.x); }`,
			"p[threadIdx.x]", Store, sum(base("out"), mul(c(256), bid(0)), mul(c(4), tx)), []string{"put()"}, []bool{false}, true},
		{"a helper's return value as an index", `
__device__ int idx(int r, int w) { return r * w + threadIdx.x; }
__global__ void k(float* out) { out[idx(blockIdx.x, 32)] = 0; }`,
			"out[idx(blockIdx.x, 32)]", Store, sum(base("out"), mul(c(128), bid(0)), mul(c(4), tx)), nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := accessOf(t, runKernel(t, tt.src), tt.expr, tt.op)
			sameExpr(t, "address", a, a.Addr, tt.addr)
			if len(a.Via) != len(tt.via) {
				t.Fatalf("via %d calls, want %v", len(a.Via), tt.via)
			}
			for i, s := range a.Via {
				if s.Name() != tt.via[i] || s.Local != tt.local[i] {
					t.Errorf("via[%d] = %s (local %v), want %s (local %v)", i, s.Name(), s.Local, tt.via[i], tt.local[i])
				}
			}
			if a.InHelper() != tt.inHelper {
				t.Errorf("InHelper = %v, want %v", a.InHelper(), tt.inHelper)
			}
		})
	}
}

// TestReferenceToShared: a reference parameter bound to a shared array's
// member aliases shared memory: r += 1 on sp[tx].y loads and stores the
// shared word at 12*tx + 4.
func TestReferenceToShared(t *testing.T) {
	run := runKernel(t, `
struct P { float x, y, z; };
__device__ void bump(float& r) { r += 1; }
__global__ void k() { __shared__ P sp[64]; bump(sp[threadIdx.x].y); }`)
	for _, op := range []Op{Load, Store} {
		a := accessOf(t, run, "r", op)
		if a.Space != Shared || a.Base.String() != "sp" {
			t.Errorf("%v: space %v, base %q; want shared sp", op, a.Space, a.Base)
		}
		sameExpr(t, "address", a, a.Addr, sum(mul(c(12), tid(0)), c(4)))
	}
}

// TestViaSite: a helper's access is marked at the kernel's call of the
// outermost helper (what the kernel can change), at the call's text.
func TestViaSite(t *testing.T) {
	a := accessOf(t, runKernel(t, `
__device__ void inner(float* p, int i) { p[i] = 0; }
__device__ void outer(float* p, int i) { inner(p, i + 1); }
__global__ void k(float* out) {
  outer(out, threadIdx.x);
}`), "p[i]", Store)
	if a.SiteIndex() != 0 || a.Via[0].Text != "outer(out, threadIdx.x)" {
		t.Fatalf("site index %d, via %+v; want the call of outer", a.SiteIndex(), a.Via)
	}
	if pos, _ := a.Site(); pos.Line != 5 {
		t.Errorf("site at line %d, want 5 (the call in the kernel's body)", pos.Line)
	}
}

// TestRunParams: the symbols a user may give values for are the integer
// parameters and value template parameters, not the pointers or floats.
func TestRunParams(t *testing.T) {
	run := runKernel(t, `
template <int R>
__global__ void k(float* out, int n, float scale) { out[threadIdx.x % n] = scale * R; }`)
	want := map[string]bool{"n": true, "R": true}
	if len(run.Params) != len(want) {
		t.Errorf("params %v, want %v", run.Params, want)
	}
	for p := range want {
		if !run.Params[symbolic.ParamID(p)] {
			t.Errorf("params %v lack %s", run.Params, p)
		}
	}
}
