package analyzer

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// rowsKernel is a kernel that reads rows r * w + x of a loop written as
// loop (with a header like "for (int r = 0; r < 4; r++)" and the
// pragma before it, if any), launched with w = pitch.
func rowsKernel(pragma, loop string, pitch string) string {
	return `
__global__ void k(const float* in, float* out, int w, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
` + pragma + `
  ` + loop + ` {
    acc += in[r * w + x];
  }
  out[x] = acc;
}
void h(float* a, float* b) { k<<<4096, 256>>>(a, b, ` + pitch + `, 4); }`
}

// TestUnrolledCopies: an access in a loop the compiler unrolls is one
// instruction per copy of the body, each with its own cost; the
// prediction is their average (Nsight's figure for the line) and carries
// each copy's (what probes3.cu measured).
func TestUnrolledCopies(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		expr   string
		mean   float64
		copies []float64 // nil: not unrolled (no per-copy figures)
		words  string    // in Describe
	}{
		{"#pragma unroll, pitch 1001: rows 1..3 start mid-sector",
			rowsKernel("#pragma unroll", "for (int r = 0; r < 4; r++)", "1001"), "in[r * w + x]", 4.75, []float64{4, 5, 5, 5},
			"iterations cost 4, 5, 5, 5 sectors (r = 0: 4; r = 1..3: 5)"},
		{"pitch 1024: every copy costs the same",
			rowsKernel("#pragma unroll", "for (int r = 0; r < 4; r++)", "1024"), "in[r * w + x]", 4, []float64{4, 4, 4, 4}, ""},
		{"no pragma: a small constant trip count is unrolled",
			rowsKernel("", "for (int r = 0; r < 8; r++)", "1001"), "in[r * w + x]", 4.875, []float64{4, 5, 5, 5, 5, 5, 5, 5},
			"r = 1..7: 5"},
		{"no pragma, 64 iterations: grouped by cost",
			rowsKernel("", "for (int r = 0; r < 64; r++)", "1001"), "in[r * w + x]", 4.875, nil,
			"iterations cost 4 sectors (r = 0, 8, 16, 24, 32, 40, 48, 56) and 5 (the other 56)"},
		{"#pragma unroll 2 over 8: two copies, the even and the odd rows",
			rowsKernel("#pragma unroll 2", "for (int r = 0; r < 8; r++)", "1001"), "in[r * w + x]", 4.875, []float64{4.75, 5},
			"the 2 unrolled copies cost 4.75, 5 sectors (r = 0, 2, 4, 6: 4.75; r = 1, 3, 5, 7: 5)"},
		{"#pragma unroll 1 keeps the loop",
			rowsKernel("#pragma unroll 1", "for (int r = 0; r < 4; r++)", "1001"), "in[r * w + x]", 4.75, nil, ""},
		{"#pragma unroll 3 over 8: the remainder is the compiler's, not claimed",
			rowsKernel("#pragma unroll 3", "for (int r = 0; r < 8; r++)", "1001"), "in[r * w + x]", 4.875, nil, ""},
		{"a trip count from the launch is not unrolled fully",
			rowsKernel("#pragma unroll", "for (int r = 0; r < n; r++)", "1001"), "in[r * w + x]", 4.75, nil, ""},
		{"a loop with a break is not claimed",
			strings.Replace(rowsKernel("#pragma unroll", "for (int r = 0; r < 4; r++)", "1001"), "acc += in[r * w + x];", "acc += in[r * w + x]; if (acc > 1.0f) break;", 1),
			"in[r * w + x]", 4.75, nil, ""},
		{"lanes r + 1 floats apart",
			strings.Replace(rowsKernel("#pragma unroll", "for (int r = 0; r < 4; r++)", "1001"), "in[r * w + x]", "in[x * (r + 1)]", 1),
			"in[x * (r + 1)]", 10, []float64{4, 8, 12, 16}, "r = 0: 4; r = 1: 8; r = 2: 12; r = 3: 16"},
		{"a loop counting by 2 from 1 names its values",
			rowsKernel("#pragma unroll", "for (int r = 1; r < 8; r += 2)", "1001"), "in[r * w + x]", 5, []float64{5, 5, 5, 5}, ""},
		{"nested loops, both unrolled: 8 copies", `
__global__ void k(const float* in, float* out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll
  for (int r = 0; r < 2; r++) {
#pragma unroll
    for (int c = 0; c < 4; c++) {
      acc += in[(r * 4 + c) * w + x];
    }
  }
  out[x] = acc;
}
void h(float* a, float* b) { k<<<4096, 256>>>(a, b, 1001); }`, "in[(r * 4 + c) * w + x]", 4.875, []float64{4, 5, 5, 5, 5, 5, 5, 5},
			"(r, c) = (0, 0): 4; (r, c) = (0, 1)..(1, 3): 5"},
		{"a trip count from a template argument", `
template <int R> __global__ void k(const float* in, float* out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll
  for (int r = 0; r < R; r++) acc += in[r * w + x];
  out[x] = acc;
}
void h(float* a, float* b) { k<4><<<4096, 256>>>(a, b, 1001); }`, "in[r * w + x]", 4.75, []float64{4, 5, 5, 5}, "r = 1..3: 5"},
		{"a loop-invariant address is not split", `
__global__ void k(const float* in, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll
  for (int r = 0; r < 4; r++) acc += in[x + 1] * r;
  out[x] = acc;
}
void h(float* a, float* b) { k<<<4096, 256>>>(a, b); }`, "in[x + 1]", 5, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := find(analyze(t, tt.src, Options{}), tt.expr, interp.Load)
			if len(ps) != 1 || !ps[0].Known {
				t.Fatalf("%d predictions, want one known", len(ps))
			}
			p := ps[0]
			if math.Abs(p.Sectors-tt.mean) > 1e-9 {
				t.Errorf("mean %.4f, want %.4f", p.Sectors, tt.mean)
			}
			if tt.copies == nil && tt.words == "" {
				if p.Unrolled != nil {
					t.Errorf("per-copy figures claimed: %+v", p.Unrolled.Copies)
				}
				return
			}
			if p.Unrolled == nil {
				t.Fatal("no per-copy figures")
			}
			var got []float64
			for _, c := range p.Unrolled.Copies {
				got = append(got, c.Sectors)
			}
			if tt.copies != nil && !slices.Equal(got, tt.copies) {
				t.Errorf("copies %v, want %v", got, tt.copies)
			}
			if d := p.Unrolled.Describe("sectors"); !strings.Contains(d, tt.words) || (tt.words == "") != (d == "") {
				t.Errorf("described %q, want %q", d, tt.words)
			}
		})
	}
}

// TestBlockTrips: a loop whose trip count depends on the block averages
// over the (block, iteration) pairs that run, not block 0's iterations.
func TestBlockTrips(t *testing.T) {
	runValueCases(t, []valueCase{
		{"block b runs b % 4 + 1 iterations of stride k + 1", `
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k <= (int)(blockIdx.x % 4); k++) acc += in[i * (k + 1)];
  out[i] = acc;
}
void h(float* a, float* b) { k<<<4096, 256>>>(a, b); }`, "in[i * (k + 1)]", interp.Load, 8, ""},
		{"odd blocks run 8 iterations, even ones 2", `
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int trips = (blockIdx.x & 1) ? 8 : 2;
  float acc = 0.0f;
  for (int k = 0; k < trips; k++) acc += in[2 * i + k];
  out[i] = acc;
}
void h(float* a, float* b) { k<<<4096, 256>>>(a, b); }`, "in[2 * i + k]", interp.Load, 8.6, ""},
		{"the trip count from blockIdx.y", `
__global__ void k(const float* in, float* out, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k <= (int)blockIdx.y; k++) acc += in[k * w + i];
  out[i] = acc;
}
void h(float* a, float* b) { k<<<dim3(1024, 4), 256>>>(a, b, 1001); }`, "in[k * w + i]", interp.Load, 4.6, ""},
		{"block 0 runs no iteration: the others still count", `
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < (int)(blockIdx.x % 2); k++) acc += in[2 * i];
  out[i] = acc;
}
void h(float* a, float* b) { k<<<4096, 256>>>(a, b); }`, "in[2 * i]", interp.Load, 8, ""},
	})
}

// TestBlockTripsPastTheCopies: a block-dependent trip count of more than
// maxCopies iterations is not taken apart, but every block's iterations
// are evaluated: the mean over (block, iteration) pairs of rows k of
// pitch 1001 (4 sectors where k % 8 == 0, else 5), sampled.
func TestBlockTripsPastTheCopies(t *testing.T) {
	src := `
__global__ void k(const float* in, float* out, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < (int)(blockIdx.x % 100); k++) acc += in[k * w + i];
  out[i] = acc;
}
void h(float* a, float* b) { k<<<4000, 256>>>(a, b, 1001); }`
	ps := find(analyze(t, src, Options{}), "in[k * w + i]", interp.Load)
	if len(ps) != 1 || !ps[0].Known {
		t.Fatalf("want one known prediction")
	}
	fours, all := 0, 0
	for b := 0; b < 100; b++ {
		for k := 0; k < b; k++ {
			all++
			if k%8 == 0 {
				fours++
			}
		}
	}
	want := float64(4*fours+5*(all-fours)) / float64(all)
	if math.Abs(ps[0].Sectors-want) > 0.02 {
		t.Errorf("got %.4f, want %.4f", ps[0].Sectors, want)
	}
}

// TestUniformCarried: a scalar a loop carries that is the same in every
// lane is uniform: the model runs its recurrence where the launch gives
// what it reads, and otherwise averages over where it can fall in a
// sector (as for a uniform loaded base); lane-varying ones stay unknown.
func TestUniformCarried(t *testing.T) {
	loop := func(body, launch string) string {
		return `
__global__ void k(const float* in, float* out, const int* steps, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int off = 0;
  float acc = 0.0f;
  for (int k = 0; k < n; k++) {
    acc += in[off + i];
    ` + body + `
  }
  out[i] = acc;
}
void h(float* a, float* b, int* s) { k<<<4096, 256>>>(a, b, s, ` + launch + `); }`
	}
	runValueCases(t, []valueCase{
		{"off = off * 3 + 1: 0, 1, 4, 13, 40, 121, 364, 1093", loop("off = off * 3 + 1;", "8, 0"), "in[off + i]", interp.Load, 4.75, ""},
		{"off += m on even iterations, 2 * m on odd ones", loop("if (k % 2 == 0) off += m; else off += 2 * m;", "8, 1002"), "in[off + i]", interp.Load, 4.75, ""},
		{"off += m on even iterations, m = 1000: every row on a sector", loop("if (k % 2 == 0) off += m; else off += 2 * m;", "8, 1000"), "in[off + i]", interp.Load, 4, ""},
		{"off = off * 3 + m with m no launch gives: assumed", loop("off = off * 3 + m;", "8, m"), "in[off + i]", interp.Load, 4, "m = 4096"},
		{"off += steps[k], a uniform load: the mean over residues", loop("off += steps[k];", "8, 0"), "in[off + i]", interp.Load, 4.875, "off, the same in every lane"},
		{"off += steps[i]: lane-varying, unknown", loop("off += steps[i];", "8, 0"), "in[off + i]", interp.Load, -1, "changes across loop iterations"},
		{"off = off * 3 + threadIdx.x % 2: lane-varying, unknown", loop("off = off * 3 + threadIdx.x % 2;", "8, 0"), "in[off + i]", interp.Load, -1, "changes across loop iterations"},
	})
}

// TestLoopNeverEntered: a loop whose bound the launch fixes and whose
// first test fails (tiny-cuda-nn's eval_image<3>: for (i = 3; i <
// stride; ++i) pads channels past the three it writes) runs for no
// thread, so its access is performed by no lane; the same loop at
// stride 4 runs once and is priced.
func TestLoopNeverEntered(t *testing.T) {
	src := func(stride string) string {
		return `
template <unsigned stride>
__global__ void k(unsigned n, float* r) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned j = 3; j < stride; ++j) r[i * stride + j] = 1.0f;
}
void h(float* r) { k<` + stride + `><<<64, 128>>>(8192, r); }`
	}
	for _, tt := range []struct {
		stride string
		noLane bool
	}{{"3", true}, {"4", false}} {
		r := analyze(t, src(tt.stride), Options{})
		if len(r.Predictions) != 1 {
			t.Fatalf("stride %s: %d predictions", tt.stride, len(r.Predictions))
		}
		p := r.Predictions[0]
		if p.NoLane != tt.noLane || p.Known == tt.noLane {
			t.Errorf("stride %s: no lane %v, known %v; want no lane %v", tt.stride, p.NoLane, p.Known, tt.noLane)
		}
	}
}

// TestLocalArrayFilledByALoop: a register array one unrolled loop fills,
// element by element with no branch of its own, holds what it wrote, so
// the next loop's addresses through it are priced (mmcv's sparse
// kernels: ILPStrideY[ilp] = threadIdx.y + ilp * blockDim.y). A branch
// around the store, a loop that may leave early, or an element past
// those written leaves the value unknown.
func TestLocalArrayFilledByALoop(t *testing.T) {
	tests := []struct {
		name, fill, use string
		known           bool
	}{
		{"filled, then read by the next loop", "for (int j = 0; j < 4; j++) ys[j] = threadIdx.y + j * blockDim.y;", "for (int j = 0; j < 4; j++) out[ys[j] * n + threadIdx.x] = 0;", true},
		{"a constant element", "for (int j = 0; j < 4; j++) ys[j] = threadIdx.y + j * blockDim.y;", "out[ys[2] * n + threadIdx.x] = 0;", true},
		{"past what was written", "for (int j = 0; j < 2; j++) ys[j] = threadIdx.y + j * blockDim.y;", "out[ys[3] * n + threadIdx.x] = 0;", false},
		{"under a branch", "for (int j = 0; j < 4; j++) if (j < n) ys[j] = threadIdx.y + j * blockDim.y;", "out[ys[1] * n + threadIdx.x] = 0;", false},
		{"a loop that may leave", "for (int j = 0; j < 4; j++) { if (in[j] > 0) break; ys[j] = threadIdx.y; }", "out[ys[1] * n + threadIdx.x] = 0;", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `__global__ void k(const float* in, float* out, int n) {
  int ys[4];
#pragma unroll
  ` + tt.fill + `
#pragma unroll
  ` + tt.use + `
}
void h(float* a, float* b) { k<<<64, dim3(32, 8)>>>(a, b, 256); }`
			storesToOut(t, src, tt.known, 0)
		})
	}
}

// storesToOut checks that src stores to out, each store known as known
// says and, known and sectors > 0, at that many sectors per request.
func storesToOut(t *testing.T, src string, known bool, sectors float64) {
	t.Helper()
	r := analyze(t, src, Options{})
	found := false
	for _, p := range r.Predictions {
		if !strings.HasPrefix(p.Access.Expr, "out[") {
			continue
		}
		found = true
		if p.Known != known {
			t.Errorf("%s: known %v, want %v (%v)", p.Access.Expr, p.Known, known, p.Unknown)
		}
		if known && sectors > 0 && p.Sectors != sectors {
			t.Errorf("%s: %.2f sectors/request, want %.0f", p.Access.Expr, p.Sectors, sectors)
		}
	}
	if !found {
		t.Fatal("no store to out")
	}
}

// TestLocalArrayElementsSetOneByOne: a register array whose elements are
// set at constant indices where it is declared (FasterTransformer's
// transposes: int x[4]; x[0] = blockIdx.x; x[2] = threadIdx.x) holds
// them as scalars would. A store in a branch, a loop or a callee, or at
// an index not constant, leaves what it holds unknown, and an element
// never set is unknown.
func TestLocalArrayElementsSetOneByOne(t *testing.T) {
	tests := []struct {
		name, fill, use string
		known           bool
	}{
		{"set, then read", "x[0] = blockIdx.x; x[1] = threadIdx.x;", "out[x[0] * 256 + x[1]] = 0;", true},
		{"set again", "x[0] = blockIdx.x; x[1] = 7; x[1] = threadIdx.x;", "out[x[0] * 256 + x[1]] = 0;", true},
		{"an element never set", "x[0] = blockIdx.x;", "out[x[0] * 256 + x[1]] = 0;", false},
		{"set under a branch", "x[0] = blockIdx.x; x[1] = threadIdx.x; if (n > 3) x[1] = 0;", "out[x[0] * 256 + x[1]] = 0;", false},
		{"set in a loop", "x[0] = blockIdx.x; x[1] = threadIdx.x; for (int j = 0; j < n; j++) x[1] += j;", "out[x[0] * 256 + x[1]] = 0;", false},
		{"an index not constant", "x[0] = blockIdx.x; x[1] = threadIdx.x; x[n & 1] = 5;", "out[x[0] * 256 + x[1]] = 0;", false},
		{"set by a callee", "x[0] = blockIdx.x; x[1] = threadIdx.x; bump(x);", "out[x[0] * 256 + x[1]] = 0;", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `__device__ void bump(int* p) { p[1] = p[1] * 3; }
__global__ void k(float* out, int n) {
  int x[4];
  ` + tt.fill + `
  ` + tt.use + `
}
void h(float* b) { k<<<64, 256>>>(b, 256); }`
			storesToOut(t, src, tt.known, 4) // lanes are consecutive floats
		})
	}
}

// TestGuardedSteps: a variable a loop changes only under an if that
// reads nothing else the loop changes (dwtHaar1D's num_threads >>= 1
// under tid < num_threads) holds, in every lane the guard lets through,
// what that many steps make of it: a lane stopped once is stopped for
// good. Read after the branch, or where the guard reads the iteration or
// another statement assigns the variable, lanes disagree and the address
// stays unknown.
func TestGuardedSteps(t *testing.T) {
	loop := func(guard, after string) string {
		return `
__global__ void k(float* od, const unsigned int dlevels, const int bdim) {
  const int gdim = gridDim.x;
  const int bid = blockIdx.x;
  const int tid = threadIdx.x;
  unsigned int num_threads = bdim >> 1;
  for (unsigned int i = 1; i < dlevels; ++i) {
    if (` + guard + `) {
      unsigned int g_wpos = (num_threads * gdim) + (bid * num_threads) + tid;
      od[g_wpos] = 1.0f;
      od[g_wpos + 1] = 2.0f;
      od[g_wpos + 2] = 3.0f;
      num_threads = num_threads >> 1;
    }
    ` + after + `
    __syncthreads();
  }
}
void h(float* a) { k<<<4, 512>>>(a, 10, 512); }`
	}
	runValueCases(t, []valueCase{
		{"halved under tid < num_threads: 256, 128, .. 1 lanes, 66 sectors in 20 requests",
			loop("tid < num_threads", ""), "od[g_wpos]", interp.Store, 3.3, ""},
		{"the guard reads the iteration: a lane stopped may pass again",
			loop("tid < num_threads + i", ""), "od[g_wpos]", interp.Store, -1, "changes across loop iterations"},
		{"read after the branch too: the branch still sees the stepped value",
			loop("tid < num_threads", "od[num_threads] = 0.0f;"), "od[g_wpos]", interp.Store, 3.3, ""},
		{"read after the branch: there each lane holds its own",
			loop("tid < num_threads", "od[num_threads] = 0.0f;"), "od[num_threads]", interp.Store, -1, "changes across loop iterations"},
		{"assigned after the branch too: not the guard's alone",
			loop("tid < num_threads", "num_threads |= 1;"), "od[g_wpos]", interp.Store, -1, "changes across loop iterations"},
		{"a pointer stepped under the guard is not followed (and breaks nothing)", `
__global__ void k(float* od, const unsigned int dlevels) {
  float* p = od + threadIdx.x;
  unsigned int n = 256;
  for (unsigned int i = 1; i < dlevels; ++i) {
    if (threadIdx.x < n) { p += 32; p[0] = 1.0f; p[1] = 2.0f; p[2] = 3.0f; n >>= 1; }
    __syncthreads();
  }
}
void h(float* a) { k<<<4, 512>>>(a, 10); }`, "p[0]", interp.Store, -1, "changes across loop iterations"},
	})
}
