package analyzer

import (
	"slices"

	"testing"

	"github.com/cudalint/cudalint/analyzer/warp"

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

// A guard on a size no launch gives is taken as true when it is a bounds
// check (large sizes let every lane through), but evaluated when only the
// lanes past the bound pass it (a remainder, llm.c's
// prepare_softmax_blockwide3): there one lane per block runs the access,
// not all of them. Each kernel is launched with 64 blocks of 1024.
func TestTailGuards(t *testing.T) {
	const chunk = "int i = (V + 7) / 8 + threadIdx.x - blockDim.x;\n  "
	tests := []struct {
		name    string
		body    string
		expr    string
		op      interp.Op
		sectors float64
		tail    bool // a TailGuard assumption
	}{
		{"bounds check", "int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < V) A[i * 8] = 0;", "A[i * 8]", interp.Store, 32, false},
		{"early return", "int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= V) return;\n  A[i * 8] = 0;", "A[i * 8]", interp.Store, 32, false},
		{"grid-stride loop", "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < V; i += blockDim.x * gridDim.x) A[i * 8] = 0;", "A[i * 8]", interp.Store, 32, false},
		{"thread bounds check", "if (threadIdx.x < V) A[threadIdx.x * 8] = 0;", "A[threadIdx.x * 8]", interp.Store, 32, false},
		{"tail if", chunk + "if ((i + 1) * 8 > V) A[i * 8] = 0;", "A[i * 8]", interp.Store, 1, true},
		{"tail while", chunk + "while ((i + 1) * 8 > V) {\n    for (int k = 0; k < 8; ++k) { if (i * 8 + k >= V) break; A[i * 8 + k] = 0; }\n    i -= blockDim.x;\n  }", "A[i * 8 + k]", interp.Store, 1, true},
		{"tail beside a bounds check", chunk + "if (threadIdx.x < V && (i + 1) * 8 > V) A[i * 8] = 0;", "A[i * 8]", interp.Store, 1, true},
		{"tail loop past the last chunk", "for (int i = threadIdx.x + (V & ~7); i < V; i++) A[i] = 0;", "A[i]", interp.Store, 1, true},
		// Past len in a loop over i, later iterations let whole warps
		// through: a guard on the iteration is not judged.
		{"guard on the iteration", "for (int i = 0; i < 2 * V; i += blockDim.x) { int j = threadIdx.x + i; if (j >= V) A[(j - V) * 8] = 0; }", "A[(j - V) * 8]", interp.Store, 32, false},
		// A bound that is a ratio of sizes, which equal assumed sizes
		// make 1: a bounds check all the same.
		{"bounds check on a ratio", "int hs = V / W;\n  for (int i = threadIdx.x % 32; i < hs; i += 32) A[i] = 0;", "A[i]", interp.Store, 4, false},
		// No lane passes at any size tried: the figures count every
		// lane, and the prediction says it is a remainder.
		{"tail past any block", "if (threadIdx.x > V) A[threadIdx.x * 8] = 0;", "A[threadIdx.x * 8]", interp.Store, 32, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "__global__ void kern(float *A, int V, int W) {\n  " + tt.body + "\n}\nvoid run(float *A, int V, int W) { kern<<<64, 1024>>>(A, V, W); }\n"
			r := analyze(t, src, Options{})
			if len(r.InternalErrors) > 0 {
				t.Fatal(r.InternalErrors[0])
			}
			ps := find(r, tt.expr, tt.op)
			if len(ps) != 1 {
				t.Fatalf("%d predictions for %s, want 1", len(ps), tt.expr)
			}
			p := ps[0]
			tail := slices.ContainsFunc(p.Assumptions, func(a warp.Assumption) bool { return a.Kind == warp.TailGuard })
			if !p.Known || p.Sectors != tt.sectors || tail != tt.tail {
				t.Errorf("%s: known %v (%s), %.2f sectors, tail %v; want %v sectors, tail %v (%v)", tt.expr, p.Known, p.Reason(), p.Sectors, tail, tt.sectors, tt.tail, p.Assumptions)
			}
		})
	}
}

// A float computed from values the same in every lane, and a math
// function of such floats, are the same in every lane: a guard on them
// admits a warp whole or not at all, so the figures are exact for the
// requests that run, not an upper bound (apex's per-thread row counts,
// max((int)ceilf((float)rows / blockDim.x), 1)). One from the thread's
// index stays a guard on data.
func TestUniformFloatGuard(t *testing.T) {
	tests := []struct {
		name, guard string
		dataGuard   bool
	}{
		{"ceilf of a uniform quotient", "(int)ceilf((float)n / (float)blockDim.x) > 1", false},
		{"uniform float arithmetic", "(float)n * 0.5f > 2.0f", false},
		{"a float of the thread's index", "(float)threadIdx.x * 0.5f > 2.0f", true},
		{"sqrtf of the thread's index", "(int)sqrtf((float)threadIdx.x) > 1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "__global__ void k(float* a, int n) { if (" + tt.guard + ") a[threadIdx.x * 2] = 0; }\nvoid h(float* a) { k<<<64, 256>>>(a, 4096); }\n"
			r := analyze(t, src, Options{})
			if len(r.Predictions) != 1 {
				t.Fatalf("%d predictions", len(r.Predictions))
			}
			got := slices.ContainsFunc(r.Predictions[0].Assumptions, func(a warp.Assumption) bool { return a.Kind == warp.DataGuard })
			if got != tt.dataGuard {
				t.Errorf("guard on data %v, want %v (assumptions %v)", got, tt.dataGuard, r.Predictions[0].Assumptions)
			}
		})
	}
}
