package interp

import (
	"testing"

	"github.com/cudalint/cudalint/symbolic"
)

// TestGuards checks the conditions a lane must pass to perform an
// access, by what they decide at sample points rather than by how they
// are spelled: an early return adds the negation of its condition to
// everything after it, an if its condition to its branch.
func TestGuards(t *testing.T) {
	tx, n := key(tid(0)), key(param("n"))
	at := func(x, size int64) map[symbolic.SymID]int64 {
		return map[symbolic.SymID]int64{tx: x, n: size, key(bid(0)): 0, key(bdim(0)): 32}
	}
	points := []map[symbolic.SymID]int64{at(0, 10), at(9, 10), at(10, 10), at(31, 10), at(5, 0), at(31, 32)}
	tests := []struct {
		name  string
		src   string
		expr  string
		want  []func(map[symbolic.SymID]int64) bool // one per guard, in order
		count int
	}{
		{"an early return on tid >= n leaves tid < n", `
__global__ void k(float* out, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  out[tid] = 0;
}`, "out[tid]", []func(map[symbolic.SymID]int64) bool{func(p map[symbolic.SymID]int64) bool { return p[tx] < p[n] }}, 1},
		{"an if guards its branch", `
__global__ void k(float* out) { if (threadIdx.x < 16) out[threadIdx.x] = 1; }`,
			"out[threadIdx.x]", []func(map[symbolic.SymID]int64) bool{func(p map[symbolic.SymID]int64) bool { return p[tx] < 16 }}, 1},
		{"the else branch is guarded by the negation", `
__global__ void k(float* out) { if (threadIdx.x < 16) out[0] = 1; else out[threadIdx.x] = 2; }`,
			"out[threadIdx.x]", []func(map[symbolic.SymID]int64) bool{func(p map[symbolic.SymID]int64) bool { return p[tx] >= 16 }}, 1},
		{"nested ifs stack their guards", `
__global__ void k(float* out, int n) {
  if (threadIdx.x < n) { if (threadIdx.x % 2 == 0) out[threadIdx.x] = 1; }
}`, "out[threadIdx.x]", []func(map[symbolic.SymID]int64) bool{
			func(p map[symbolic.SymID]int64) bool { return p[tx] < p[n] },
			func(p map[symbolic.SymID]int64) bool { return p[tx]%2 == 0 },
		}, 2},
		{"a lane mask tx % 32 < 8", `
__global__ void k(float* out) { if (threadIdx.x % 32 < 8) out[threadIdx.x] = 1; }`,
			"out[threadIdx.x]", []func(map[symbolic.SymID]int64) bool{func(p map[symbolic.SymID]int64) bool { return p[tx]%32 < 8 }}, 1},
		{"an unguarded access has none", `
__global__ void k(float* out) { out[threadIdx.x] = 1; }`, "out[threadIdx.x]", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := accessOf(t, runKernel(t, tt.src), tt.expr, Store)
			if len(a.Guards) != tt.count {
				t.Fatalf("guards %v, want %d", a.Guards, tt.count)
			}
			for i, w := range tt.want {
				agrees(t, "guard", a, a.Guards[i], w, points)
			}
		})
	}
}

// TestUnknownCauses: what the interpreter cannot know becomes an unknown
// symbol carrying its cause, and its class says whether it is the same
// in every lane (uniform) or not (data).
func TestUnknownCauses(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		expr  string
		cause symbolic.UnknownCause
		class symbolic.Class
		of    string // what it concerns, "" not checked
	}{
		{"an index loaded from memory", `
__global__ void k(float* out, const int* idx) { out[idx[threadIdx.x]] = 0; }`,
			"out[idx[threadIdx.x]]", symbolic.CauseLoadedValue, symbolic.Data, "idx[threadIdx.x]"},
		{"a sum a loop accumulates from loads, read after the loop", `
__global__ void k(float* out, const int* idx, int n) {
  int s = 0;
  for (int j = 0; j < n; j++) { s += idx[j]; }
  out[s] = 0;
}`, "out[s]", symbolic.CauseLoopCarried, symbolic.Uniform, "s"},
		{"a variable inline assembly writes", `
__global__ void k(float* out) {
  int lane;
  asm("getctarank.u32 %0, %1;" : "=r"(lane) : "r"(0));
  out[lane] = 0;
}`, "out[lane]", symbolic.CauseNotUnderstood, symbolic.Data, "lane"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := accessOf(t, runKernel(t, tt.src), tt.expr, Store)
			us := unknownsIn(a.Addr)
			if len(us) != 1 {
				t.Fatalf("address %v has unknowns %v, want one", a.Addr, us)
			}
			u := us[0]
			if u.Cause != tt.cause || u.Class != tt.class || (tt.of != "" && u.Of != tt.of) {
				t.Errorf("unknown %s: cause %v, class %v, of %q; want %v, %v, %q", u.Name, u.Cause, u.Class, u.Of, tt.cause, tt.class, tt.of)
			}
			// The rest of the address is known: 4 times the unknown from out's base.
			sameExpr(t, "address", a, a.Addr, sum(base("out"), mul(c(4), symbolic.NewSym(*u))))
		})
	}
}

// TestLoadedUnknownSite: a loaded value's unknown names the load's line,
// so that a message can point at it.
func TestLoadedUnknownSite(t *testing.T) {
	a := accessOf(t, runKernel(t, `
__global__ void k(float* out, const int* idx) {
  int j = idx[threadIdx.x];
  out[j] = 0;
}`), "out[j]", Store)
	us := unknownsIn(a.Addr)
	if len(us) != 1 || us[0].Site.Line != 3 {
		t.Errorf("unknowns %v, want one loaded at line 3", us)
	}
}

// TestDistinctUnknowns: two loads are two unknowns; they must not cancel
// (idx[0] - idx[1] is not 0).
func TestDistinctUnknowns(t *testing.T) {
	a := accessOf(t, runKernel(t, `
__global__ void k(float* out, const int* idx) { out[idx[0] - idx[1]] = 0; }`), "out[idx[0] - idx[1]]", Store)
	if us := unknownsIn(a.Addr); len(us) != 2 || us[0].Key() == us[1].Key() {
		t.Errorf("address %v, want two distinct loaded unknowns", a.Addr)
	}
}

// TestLeavingTheLoopTurnsLanesOff: a lane that breaks out of a loop or
// returns inside one takes no part in the later iterations, and one that
// returned takes no part in anything after the loop. In
//
//	for (r = 0; r < 4; r++) { if (tx == r) break; out[r*32 + tx] = 2; }
//
// lane tx leaves at iteration tx, so iteration r's store is made by the
// lanes tx > r only. The interpreter adds the guard tx != r, which is
// right for a continue but lets lanes 0..r-1 back in: at r = 2, lanes 0
// and 1 are counted as storing.
func TestLeavingTheLoopTurnsLanesOff(t *testing.T) {
	t.Skip("bug: a break or return inside a loop guards only the rest of its own iteration; lanes that left stay active in later iterations and (return) after the loop")
	tests := []struct {
		name string
		src  string
		expr string
		want func(p map[symbolic.SymID]int64) bool // at iteration iter(0) = r when in the loop
	}{
		{"break: iteration r is made by lanes tx > r", `
__global__ void k(float* out) {
  for (int r = 0; r < 4; r++) { if (threadIdx.x == r) break; out[r * 32 + threadIdx.x] = 2; }
}`, "out[r * 32 + threadIdx.x]", func(p map[symbolic.SymID]int64) bool { return p[key(tid(0))] > p[key(iter(0))] }},
		// Lane tx returns at the first r > tx (r = 1..3): lanes 0, 1, 2
		// never reach the store after the loop.
		{"return in a loop: after it, only lanes tx >= 3", `
__global__ void k(float* out) {
  for (int r = 0; r < 4; r++) { if (threadIdx.x < r) return; }
  out[64 + threadIdx.x] = 1;
}`, "out[64 + threadIdx.x]", func(p map[symbolic.SymID]int64) bool { return p[key(tid(0))] >= 3 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := accessOf(t, runKernel(t, tt.src), tt.expr, Store)
			var points []map[symbolic.SymID]int64
			for r := int64(0); r < 4; r++ {
				for x := int64(0); x < 8; x++ {
					points = append(points, map[symbolic.SymID]int64{key(tid(0)): x, key(iter(0)): r})
				}
			}
			all := c(1)
			for _, g := range a.Guards {
				all = symbolic.Binary(symbolic.OpLAnd, all, g)
			}
			agrees(t, "guards", a, all, tt.want, points)
		})
	}
}
