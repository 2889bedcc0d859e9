package analyzer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// valueCase is one access of a small program and what the model should
// say of it: a number of sectors per request, or unknown (sectors < 0),
// and words its reason or assumptions must hold.
type valueCase struct {
	name    string
	src     string
	expr    string
	op      interp.Op
	sectors float64 // -1: unknown; -2: performed by no lane
	note    string  // a substring of an assumption (known) or the reason (unknown)
}

// findOne is the one prediction of access expr, failing the test when
// there is not exactly one (it lists what there is).
func findOne(t *testing.T, r *Result, expr string, op interp.Op) *Prediction {
	t.Helper()
	ps := find(r, expr, op)
	if len(ps) != 1 {
		var all []string
		for _, p := range r.Predictions {
			all = append(all, p.Access.Op.String()+" "+p.Access.Expr)
		}
		t.Fatalf("%d predictions for %s %s; have %v", len(ps), op, expr, all)
	}
	return ps[0]
}

func runValueCases(t *testing.T, tests []valueCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := analyze(t, tt.src, Options{})
			p := findOne(t, r, tt.expr, tt.op)
			switch {
			case tt.sectors == -2:
				if !p.NoLane {
					t.Errorf("want performed by no lane, got known=%v %.3f (%s)", p.Known, p.Sectors, p.Reason())
				}
				return
			case tt.sectors < 0:
				if p.Known || p.NoLane {
					t.Errorf("want unknown, got known=%v %.3f noLane=%v", p.Known, p.Sectors, p.NoLane)
				}
				if !strings.Contains(p.Reason(), tt.note) {
					t.Errorf("reason %q lacks %q", p.Reason(), tt.note)
				}
				return
			}
			if !p.Known || p.Sectors != tt.sectors {
				t.Fatalf("got %.3f sectors (known %v, %s), want %.3f", p.Sectors, p.Known, p.Reason(), tt.sectors)
			}
			if tt.note != "" && !strings.Contains(fmt.Sprint(p.Assumptions), tt.note) {
				t.Errorf("assumptions %q lack %q", p.Assumptions, tt.note)
			}
			if tt.note == "" && len(p.Assumptions) > 0 {
				t.Errorf("want no assumptions, got %q", p.Assumptions)
			}
		})
	}
}

func TestWarpUniformLoadedValues(t *testing.T) {
	runValueCases(t, []valueCase{
		{"a base loaded at a block-uniform address: the mean over the 8 float residues", `
struct Box { int offset; int count; };
__global__ void k(const Box* boxes, const float* rv, float* out) {
  int first = boxes[blockIdx.x].offset;
  const float* p = &rv[first];
  out[blockIdx.x * blockDim.x + threadIdx.x] = p[threadIdx.x];
}
void h(Box* b, float* a, float* c) { k<<<4096, 256>>>(b, a, c); }`, "p[threadIdx.x]", interp.Load, 4.875, "residue"},
		// caffe's embed_layer, darknet-style: the row index loaded at
		// t / N, N the embedding width no launch gives, is taken at the
		// assumed N, under which every lane of a warp loads it alike.
		{"a row index loaded at t / N, N assumed", `
__global__ void k(int nt, const float* ids, const float* W, int N, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= nt) return;
  int n = t / N, d = t % N;
  int row = (int)ids[n];
  out[t] = W[row * N + d];
}
void h(int N, const float* ids, const float* W, float* out) { k<<<1024, 256>>>(1 << 18, ids, W, N, out); }`, "W[row * N + d]", interp.Load, 4, "N = 4096"},
		{"lanes 32 bytes apart: the residue cannot matter", `
__global__ void k(const int* offs, const double* in, double* out) {
  int o = offs[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[o + threadIdx.x * 4];
}
void h(int* b, double* a, double* c) { k<<<64, 128>>>(b, a, c); }`, "in[o + threadIdx.x * 4]", interp.Load, 32, ""},
		{"no lane term: one sector whatever the residue", `
__global__ void k(const int* offs, const float* in, float* out) {
  int o = offs[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[o];
}
void h(int* b, float* a, float* c) { k<<<64, 128>>>(b, a, c); }`, "in[o]", interp.Load, 1, ""},
		{"a value loaded per lane stays data", `
__global__ void k(const int* idx, const float* in, float* out) {
  int o = idx[threadIdx.x];
  out[threadIdx.x] = in[o + threadIdx.x];
}
void h(int* b, float* a, float* c) { k<<<64, 128>>>(b, a, c); }`, "in[o + threadIdx.x]", interp.Load, -1, "idx[threadIdx.x]"},
		{"a uniform address in a thread's own array is not warp-uniform", `
__global__ void k(const float* in, float* out) {
  int loc[4];
  for (int j = 0; j < 4; j++) loc[j] = threadIdx.x * 7 + j;
  int o = loc[blockIdx.x % 4];
  out[threadIdx.x] = in[o];
}
void h(float* a, float* c) { k<<<64, 128>>>(a, c); }`, "in[o]", interp.Load, -1, ""},
	})
}

func TestWarpUniformLoadedStruct(t *testing.T) {
	runValueCases(t, []valueCase{
		{"a member of a struct loaded at a block-uniform address", `
struct Box { int offset; int count; };
__global__ void k(const Box* boxes, const float* rv, float* out) {
  Box b = boxes[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = rv[b.offset + threadIdx.x];
}
void h(Box* b, float* a, float* c) { k<<<4096, 256>>>(b, a, c); }`, "rv[b.offset + threadIdx.x]", interp.Load, 4.875, "residue"},
	})
}

func TestValuesAfterLoops(t *testing.T) {
	// caffe's LRN: a counter the first loop steps under a compound
	// condition on sizes enters the second loop at a value the same in
	// every lane; the lanes still step by w (the second loop's own
	// trips are not known either, so they are averaged).
	const lrn = `
__global__ void k(int nt, const float* in, float* out, int C, int step, int size) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int head = 0; float a = 0; const int post = size - (size - 1) / 2 - 1;
  while (head < post && head < C) { a += in[head * step + w]; ++head; }
  while (head < C) { a += in[head * step + w + 1]; ++head; }
  out[w] = a;
}
void h(const float* in, float* out) { k<<<64, 256>>>(1 << 16, in, out, 64, 1 << 16, 5); }`
	// A counter whose loop ends where a lane's own value says leaves a
	// lane value no closed form gives.
	const perLane = `
__global__ void k(const float* in, float* out, int step) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int head = 0;
  while (head < 4 && head < threadIdx.x) ++head;
  out[w] = in[head * step + w];
}
void h(const float* in, float* out) { k<<<64, 256>>>(in, out, 1 << 16); }`
	runValueCases(t, []valueCase{
		{"a counter left by a loop of uniform condition", lrn, "in[head * step + w + 1]", interp.Load, 5, "trip count unknown"},
		{"a counter left by a loop of per-lane condition", perLane, "in[head * step + w]", interp.Load, -1, "head"},
		{"a sum's closed-form exit value: c = n * s = 15", `
__global__ void k(const float* a, float* out, int n, int s) {
  int c = 0;
  for (int j = 0; j < n; j++) c += s;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[c + i];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b, 5, 3); }`, "a[c + i]", interp.Load, 5, ""},
		{"a value set in the last iteration keeps it", `
__global__ void k(const float* a, float* out, int n) {
  int step = 0;
  for (int j = 0; j < n; j++) { step = (j == n - 1) ? 2 : 1; }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i * step];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b, 4); }`, "a[i * step]", interp.Load, 8, ""},
		{"a sum of the iteration: d = 0 + 1 + 2", `
__global__ void k(const float* a, float* out) {
  int d = 0;
  for (int j = 0; j < 3; j++) d += j;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i + d];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "a[i + d]", interp.Load, 5, ""},
		{"a sum of the iteration inside the loop: 0, 1, 3, 6 floats in", `
__global__ void k(const float* a, float* out) {
  int d = 0;
  float s = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 4; j++) { d += j; s += a[i + d]; }
  out[i] = s;
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "a[i + d]", interp.Load, 4.75, ""},
		{"a loop that counts down leaves its counter at -1", `
__global__ void k(const float* a, float* out) {
  int j = 7;
  for (; j >= 0; j--) out[j] = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i + j + 2];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "a[i + j + 2]", interp.Load, 5, ""},
		{"a break leaves the exit value unknown", `
__global__ void k(const float* a, float* out, const int* stop) {
  int c = 0;
  for (int j = 0; j < 8; j++) { if (stop[j]) break; c += 3; }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[c + i];
}
void h(float* a, float* b, int* s) { k<<<64, 256>>>(a, b, s); }`, "a[c + i]", interp.Load, -1, "changes across loop iterations"},
		{"a value set under a guard on a warp-uniform load is uniform: the mean over its residues", `
__global__ void k(const float* a, float* out, const int* f) {
  int c = 0;
  for (int j = 0; j < 8; j++) { if (f[j]) c = j; }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[c + i];
}
void h(float* a, float* b, int* s) { k<<<64, 256>>>(a, b, s); }`, "a[c + i]", interp.Load, 4.875, "c, the same in every lane"},
		{"a value set under a guard on each lane's data stays unknown", `
__global__ void k(const float* a, float* out, const int* f) {
  int c = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 8; j++) { if (f[i * 8 + j]) c = j; }
  out[i] = a[c + i];
}
void h(float* a, float* b, int* s) { k<<<64, 256>>>(a, b, s); }`, "a[c + i]", interp.Load, -1, "changes across loop iterations"},
	})
}

func TestReferenceParameters(t *testing.T) {
	const src = `
template <class T> __device__ void read_ref(T& dst, const T* src, int k) { dst = src[k]; }
__device__ void set_ref(float& dst, float v) { dst = v; }
__device__ void bump(int& j, int by) { j += by; }
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  read_ref(v, in, i * 2);
  int j = i;
  bump(j, 3);
  set_ref(out[i * 4], in[j]);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`
	runValueCases(t, []valueCase{
		{"a store through a float& to out[i * 4]", src, "dst", interp.Store, 16, ""},
		{"a reference to a caller's variable is written through", src, "in[j]", interp.Load, 5, ""},
	})
	r := analyze(t, src, Options{})
	if ps := find(r, "out[i * 4]", interp.Load); len(ps) != 0 {
		t.Errorf("out[i * 4] passed by reference is not loaded at the call: %d loads", len(ps))
	}
}

func TestSelectedPointers(t *testing.T) {
	runValueCases(t, []valueCase{
		{"warps 0..3 read A[i] (4 sectors), warps 4..7 B[2 * i] (8)", `
__global__ void k(const float* A, const float* B, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int w = threadIdx.x / 32;
  const float* p = w < 4 ? &A[i] : &B[2 * i];
  out[i] = *p;
}
void h(float* a, float* b, float* c) { k<<<64, 256>>>(a, b, c); }`, "*p", interp.Load, 6, ""},
		{"even lanes A, odd lanes B: one request touches both", `
__global__ void k(const float* A, const float* B, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float* p = A;
  if (threadIdx.x & 1) p = B;
  out[i] = p[i];
}
void h(float* a, float* b, float* c) { k<<<64, 256>>>(a, b, c); }`, "p[i]", interp.Load, 8, ""},
	})
}

func TestNullTestsAndStructMembers(t *testing.T) {
	const null = `
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 1.0f;
  if (in) x = in[i * 2];
  else out[i * 4] = 0.0f;
  out[i] = x;
}
`
	runValueCases(t, []valueCase{
		{"launched with nullptr: the else branch runs", null + `void h(float* b) { k<<<64, 256>>>(nullptr, b); }`, "out[i * 4]", interp.Store, 16, ""},
		{"launched with nullptr: no lane loads in[i * 2]", null + `void h(float* b) { k<<<64, 256>>>(nullptr, b); }`, "in[i * 2]", interp.Load, -2, ""},
		{"launched with a pointer: the else branch runs in no lane", null + `void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "out[i * 4]", interp.Store, -2, ""},
		{"no launch: both branches count", null, "out[i * 4]", interp.Store, 16, "gridDim.x"},
		{"p != NULL with NULL passed: no lane loads", nullCmp("in != NULL") + `void h(float* b) { k<<<64, 256>>>(NULL, b); }`, "in[i * 2]", interp.Load, -2, ""},
		{"0 == p with a pointer passed: the branch runs in no lane", nullCmp("0 == in") + `void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "in[i * 2]", interp.Load, -2, ""},
		{"!p with nullptr passed: the branch runs", nullCmp("!in") + `void h(float* b) { k<<<64, 256>>>(nullptr, b); }`, "in[i * 2]", interp.Load, 8, ""},
		{"p != nullptr with a pointer passed: the branch runs", nullCmp("in != nullptr") + `void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "in[i * 2]", interp.Load, 8, ""},
		{"a member set to an offset pointer in the kernel", `
struct View { float* raw; float* data; };
__global__ void k(float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  View v;
  v.raw = in;
  v.data = v.raw + 1;
  out[i] = v.data[i];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "v.data[i]", interp.Load, 5, ""},
		{"a member set to an offset pointer on the host", `
struct View { float* raw; float* data; };
__global__ void k(View v, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = v.data[i];
}
void h(float* a, float* b) { View w; w.raw = a; w.data = a + 1; k<<<64, 256>>>(w, b); }`, "v.data[i]", interp.Load, 5, ""},
	})
}

// nullCmp is a kernel that loads in[i * 2] where cond holds.
func nullCmp(cond string) string {
	return `
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 1.0f;
  if (` + cond + `) x = in[i * 2];
  out[i] = x;
}
`
}

func TestDeviceScalars(t *testing.T) {
	const src = `
__device__ float g_scale;
__device__ int g_last;
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = g_scale;
  out[i] = in[i] * s;
  g_last = i;
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`
	runValueCases(t, []valueCase{
		{"a scalar __device__ variable read: every lane one address", src, "g_scale", interp.Load, 1, ""},
		{"a scalar __device__ variable written: every lane one address", src, "g_last", interp.Store, 1, ""},
	})
}

// A __shared__ scalar one thread sets and every thread reads after the
// barrier: each read is a load of its one address (before, the value
// set on one branch and the array on the other made it "mixed", and
// every address through it unknown).
func TestSharedScalars(t *testing.T) {
	const src = `
__global__ void k(const int* starts, const float* in, float* out) {
  __shared__ int first;
  if (threadIdx.x == 0) first = starts[blockIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[first + threadIdx.x];
}
void h(int* s, float* a, float* b) { k<<<4096, 256>>>(s, a, b); }`
	runValueCases(t, []valueCase{
		{"the offset thread 0 set: warp-uniform, the mean over the float residues", src, "in[first + threadIdx.x]", interp.Load, 4.875, "residue"},
		{"the scalar read: every lane one address", src, "first", interp.Load, 1, ""},
	})
}

func TestWarpUniformTimesAssumedSize(t *testing.T) {
	runValueCases(t, []valueCase{
		{"a uniform row index times a size no launch gives: rows 4096 floats apart", `
__global__ void k(float* dwte, const float* dout, const int* inp, int BT, int C) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < BT; i++) {
    int ix = inp[i];
    dwte[ix * C + c] += dout[i * C + c];
  }
}`, "dwte[ix * C + c]", interp.Store, 4, "C = 4096"},
	})
}

func TestRareGuards(t *testing.T) {
	runValueCases(t, []valueCase{
		{"one thread of the whole grid", `
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  if (threadIdx.x == 0 && blockIdx.x == 0) out[1 << 22] = in[7];
}
void h(float* a, float* b) { k<<<4096, 256>>>(a, b); }`, "out[1 << 22]", interp.Store, 1, ""},
		{"the last block only", `
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == gridDim.x - 1) out[i] = in[2 * i];
}
void h(float* a, float* b) { k<<<4096, 256>>>(a, b); }`, "in[2 * i]", interp.Load, 8, ""},
		{"a guard no lane passes", `
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x > 4096) out[i] = in[2 * i];
}
void h(float* a, float* b) { k<<<4096, 256>>>(a, b); }`, "in[2 * i]", interp.Load, -2, ""},
	})
}

func TestDataGuardsAreUpperBounds(t *testing.T) {
	runValueCases(t, []valueCase{
		{"a guard on a loaded mask: all lanes counted, said to be an upper bound", `
__global__ void k(const int* mask, const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m = mask[i];
  if (m) out[i] = in[i];
}
void h(int* m, float* a, float* b) { k<<<64, 256>>>(m, a, b); }`, "in[i]", interp.Load, 4, "depends on the value loaded by mask[i]"},
	})
}
