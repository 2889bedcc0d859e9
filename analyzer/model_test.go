package analyzer

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
)

func analyze(t *testing.T, src string, opts Options) *Result {
	t.Helper()
	f := parser.Parse("m.cu", []byte(src), parser.Config{})
	for _, n := range f.Notes {
		t.Logf("note: %v", n)
	}
	return Analyze([]*parser.File{f}, opts)
}

// find returns the predictions of the access written expr with the given op.
func find(r *Result, expr string, op interp.Op) []*Prediction {
	var out []*Prediction
	for _, p := range r.Predictions {
		if p.Access.Expr == expr && p.Access.Op == op {
			out = append(out, p)
		}
	}
	return out
}

func TestModel(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		expr    string
		op      interp.Op
		sectors float64 // -1: unknown
		ideal   float64
	}{
		{"pointer induction in a loop", `
__global__ void k(const float* in, float* out) {
  const float* p = in + blockIdx.x * 128 + threadIdx.x;
  float s = 0;
  for (int j = 0; j < 4; j++) { s += *p; p += 32; }
  out[threadIdx.x] = s;
}
void h(float* a, float* b) { k<<<8, 32>>>(a, b); }`, "*p", interp.Load, 4, 4},
		{"cooperative groups: a grid-stride loop through grid.thread_rank() and grid.size()", `
__global__ void k(const double* in, double* out, int n) {
  cg::grid_group grid = cg::this_grid();
  double s = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) s += in[i];
  out[grid.thread_rank()] = s;
}
void h(double* a, double* b) { k<<<128, 256>>>(a, b, 1 << 20); }`, "in[i]", interp.Load, 8, 8},
		{"cooperative groups: a rank from a group made in place", `
__global__ void k(const float* in, float* out, int n) {
  auto idx = cg::this_grid().thread_rank();
  if (idx < n) out[idx * 2] = in[cooperative_groups::this_thread_block().thread_rank()];
}
void h(float* a, float* b) { k<<<128, 256>>>(a, b, 1 << 20); }`, "out[idx * 2]", interp.Store, 8, 4},
		{"cooperative groups: a tile's ranks, two doubles apart", `
__global__ void k(double* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  out[tile.meta_group_rank() * 64 + tile.thread_rank() * 2] = 0;
}
void h(double* a) { k<<<1, 256>>>(a); }`, "out[tile.meta_group_rank() * 64 + tile.thread_rank() * 2]", interp.Store, 16, 8},
		// s = 128, 64, 32: 4, 2, 1 full warps of 4 sectors; s = 16: 2
		// sectors; s = 8, 4, 2, 1: 1 each. 34 sectors in 12 requests.
		{"halving stride: a sequential-addressing reduction over global memory", `
__global__ void k(float* g) {
  unsigned int tid = threadIdx.x;
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) g[tid] += g[tid + s];
  }
}
void h(float* a) { k<<<1, 256>>>(a); }`, "g[tid + s]", interp.Load, 34.0 / 12, 34.0 / 12},
		{"branches merge into a select: 4 sectors for the even lanes, 16 for the odd", `
__global__ void k(float* a) {
  int j = threadIdx.x;
  if (threadIdx.x & 1) j = threadIdx.x * 32; else j = threadIdx.x;
  a[j] = 0;
}
void h(float* a) { k<<<1, 32>>>(a); }`, "a[j]", interp.Store, 20, 4},
		{"early return switches lanes off", `
__global__ void k(float* a) {
  if (threadIdx.x >= 16) return;
  a[threadIdx.x] = 1;
}
void h(float* a) { k<<<4, 32>>>(a); }`, "a[threadIdx.x]", interp.Store, 2, 2},
		{"misaligned base from the launch", `
__global__ void k(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x]; }
void h(float* a, float* b) { k<<<1, 32>>>(a + 1, b); }`, "in[threadIdx.x]", interp.Load, 5, 4},
		{"struct padding", `
struct Rec { char tag; double value; };
__global__ void k(const Rec* r, double* out) { out[threadIdx.x] = r[threadIdx.x].value; }
void h(Rec* r, double* o) { k<<<1, 32>>>(r, o); }`, "r[threadIdx.x].value", interp.Load, 16, 8},
		{"char4 vectors", `
__global__ void k(const char4* in, char4* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i]; }
void h(char4* a, char4* b) { k<<<64, 128>>>(a, b); }`, "in[i]", interp.Load, 4, 4},
		{"float3 is three 4-byte loads", `
__global__ void k(const float3* in, float3* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i]; }
void h(float3* a, float3* b) { k<<<64, 128>>>(a, b); }`, "in[i]", interp.Load, 12, 4},
		{"parameter from the launch", `
__global__ void k(const float* in, float* out, int s) { int i = threadIdx.x; out[i] = in[i * s]; }
void h(float* a, float* b) { k<<<1, 32>>>(a, b, 3); }`, "in[i * s]", interp.Load, 12, 4},
		{"__ldg is a load", `
__global__ void k(const float* in, float* out) { int i = threadIdx.x; out[i] = __ldg(&in[2 * i]); }
void h(float* a, float* b) { k<<<1, 32>>>(a, b); }`, "__ldg(&in[2 * i])", interp.Load, 8, 4},
		{"struct parameter with a pointer field", `
struct View { float* data; int stride; };
__global__ void k(View v) { v.data[threadIdx.x * v.stride] = 0; }
void h(View v) { k<<<1, 32>>>(v); }`, "v.data[threadIdx.x * v.stride]", interp.Store, 32, 4},
		{"arrow on a struct pointer", `
struct Body { float x, y, z, m; };
__global__ void k(Body* b) { Body* me = b + threadIdx.x; me->m = 1; }
void h(Body* b) { k<<<1, 32>>>(b); }`, "me->m", interp.Store, 16, 4},
		{"lane mask", `
__global__ void k(float* a) { if (threadIdx.x % 32 < 8) a[threadIdx.x] = 1; }
void h(float* a) { k<<<1, 64>>>(a); }`, "a[threadIdx.x]", interp.Store, 1, 1},
		{"compound assignment loads", `
__global__ void k(float* a) { a[threadIdx.x * 2] += 1.0f; }
void h(float* a) { k<<<1, 32>>>(a); }`, "a[threadIdx.x * 2]", interp.Load, 8, 4},
		{"helper with an early return", `
__device__ float pick(const float* p, int i) { if (i < 16) return p[i]; return p[i * 8]; }
__global__ void k(const float* in, float* out) { out[threadIdx.x] = pick(in, threadIdx.x); }
void h(float* a, float* b) { k<<<1, 32>>>(a, b); }`, "p[i * 8]", interp.Load, 16, 2},
		{"data-dependent address", `
__global__ void k(const float* in, const int* idx, float* out) { out[threadIdx.x] = in[idx[threadIdx.x]]; }
void h(float* a, int* i, float* b) { k<<<1, 32>>>(a, i, b); }`, "in[idx[threadIdx.x]]", interp.Load, -1, 0},
		{"column of a 2D array in a loop", `
#define N 64
__global__ void k(const float* m, float* out) {
  float s = 0;
  for (int r = 0; r < N; ++r) s += m[r * N + threadIdx.x * N];
  out[threadIdx.x] = s;
}
void h(float* a, float* b) { k<<<1, 32>>>(a, b); }`, "m[r * N + threadIdx.x * N]", interp.Load, 32, 4},
		// The flag keeps the last iteration's value (i = 8: lanes 0..15,
		// 64 bytes, 2 sectors): the break fires at that iteration only.
		{"a flag a loop sets, leaving by a break at its last iteration", `
__global__ void k(float* out, int n) {
  bool done;
  for (int i = 0; i < n; i++) {
    done = false;
    if (threadIdx.x < 8 + i) done = true;
    __syncthreads();
    if (i == n - 1) break;
    __syncthreads();
  }
  if (done) out[blockIdx.x * 32 + threadIdx.x] = 0;
}
void h(float* a) { k<<<8, 32>>>(a, 9); }`, "out[blockIdx.x * 32 + threadIdx.x]", interp.Store, 2, 2},
		// A break at the first iteration ends the loop there: the flag is
		// not the last iteration's, and every lane counts (4 sectors).
		{"a flag a loop sets, leaving by a break before its last iteration", `
__global__ void k(float* out, int n) {
  bool done;
  for (int i = 0; i < n; i++) {
    done = false;
    if (threadIdx.x < 8 + i) done = true;
    __syncthreads();
    if (i == 0) break;
    __syncthreads();
  }
  if (done) out[blockIdx.x * 32 + threadIdx.x] = 0;
}
void h(float* a) { k<<<8, 32>>>(a, 9); }`, "out[blockIdx.x * 32 + threadIdx.x]", interp.Store, 4, 4},
		// What the body assigns after the break, the last iteration skips:
		// w is unknown after the loop (every lane counts), where the flag
		// before the break is known.
		{"a flag a loop sets after its break at the last iteration", `
__global__ void k(float* out, int n) {
  bool w;
  for (int i = 0; i < n; i++) {
    __syncthreads();
    if (i == n - 1) break;
    w = threadIdx.x < 8 + i;
  }
  if (w) out[blockIdx.x * 32 + threadIdx.x] = 0;
}
void h(float* a) { k<<<8, 32>>>(a, 9); }`, "out[blockIdx.x * 32 + threadIdx.x]", interp.Store, 4, 4},
		// Every lane reads one address, chosen by a select between the
		// block's index and a value loaded (lavaMD's neighbour boxes): an
		// 8-byte field at a multiple of 8 lies in one sector.
		{"the same address in every lane through a select on a loaded value", `
struct Box { int n; long offset; int nei[4]; };
__global__ void k(const Box* b, float* out) {
  float s = 0;
  for (int k = 0; k < 1 + b[blockIdx.x].n; k++) {
    int p;
    if (k == 0) p = blockIdx.x; else p = b[blockIdx.x].nei[k - 1];
    s += b[p].offset;
  }
  out[blockIdx.x * 32 + threadIdx.x] = s;
}
void h(Box* b, float* o) { k<<<8, 32>>>(b, o); }`, "b[p].offset", interp.Load, 1, 1},
		// w is reset to its entry value after every inner loop: each
		// iteration of the outer one starts at threadIdx.x. w < 100 under
		// 128 threads: three full warps (4 sectors) and lanes 96..99 (1).
		{"a variable every iteration resets to its entry value", `
__global__ void k(const float* in, float* out) {
  int w = threadIdx.x;
  for (int k = 0; k < 4; k++) {
    while (w < 100) { out[k * 128 + w] = in[k * 128 + w]; w += 128; }
    w = threadIdx.x;
  }
}
void h(float* a, float* b) { k<<<1, 128>>>(a, b); }`, "in[k * 128 + w]", interp.Load, 3.25, 3.25},
		{"min clamps exactly", `
__global__ void k(const float* in, float* out) { out[threadIdx.x] = in[min((int)threadIdx.x, 7)]; }
void h(float* a, float* b) { k<<<1, 32>>>(a, b); }`, "in[min((int)threadIdx.x, 7)]", interp.Load, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := analyze(t, tt.src, Options{})
			p := findOne(t, r, tt.expr, tt.op)
			if tt.sectors < 0 {
				if p.Known || !strings.Contains(p.Reason(), "idx[threadIdx.x]") {
					t.Errorf("want unknown naming the index load, got known=%v %.2f reason %q", p.Known, p.Sectors, p.Reason())
				}
				return
			}
			if !p.Known || p.Sectors != tt.sectors || p.Ideal != tt.ideal {
				t.Errorf("got %.3f sectors (ideal %.3f, known %v, %s), want %.3f (ideal %.3f)", p.Sectors, p.Ideal, p.Known, p.Reason(), tt.sectors, tt.ideal)
			}
		})
	}
}

func TestBlockShapeSources(t *testing.T) {
	src := `
__global__ void oneD(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }
__global__ void twoD(float* a, int w) { a[(blockIdx.y * blockDim.y + threadIdx.y) * w + threadIdx.x] = 0; }
// cudalint:block 32x8
__global__ void annotated(float* a, int w) { a[threadIdx.y * w + threadIdx.x] = 0; }
__global__ void launched(float* a, int w) { a[threadIdx.y * w + threadIdx.x] = 0; }
void h(float* a) {
  launched<<<dim3(4, 4), dim3(8, 4)>>>(a, 1024);
  launched<<<dim3(4, 4), dim3(64, 2)>>>(a, 1024);
}`
	r := analyze(t, src, Options{})
	got := map[string][]string{}
	for _, k := range r.Kernels {
		for _, c := range k.Configs {
			got[k.Func.Name] = append(got[k.Func.Name], c.Block.String()+" "+c.BlockSource.String())
		}
	}
	want := map[string][]string{
		"oneD":      {"256 default"},
		"twoD":      {"16x16 default"},
		"annotated": {"32x8 annotation"},
		"launched":  {"8x4 launch", "64x2 launch"},
	}
	for k, w := range want {
		if strings.Join(got[k], ",") != strings.Join(w, ",") {
			t.Errorf("%s: configs %v, want %v", k, got[k], w)
		}
	}
	// An explicit shape overrides everything.
	r = analyze(t, src, Options{Settings: Settings{Blocks: map[string]Dim3{"launched": {32, 1, 1}}}})
	for _, k := range r.Kernels {
		if k.Func.Name == "launched" {
			for _, c := range k.Configs {
				if c.Block != (Dim3{32, 1, 1}) || c.BlockSource != launch.FromConfig {
					t.Errorf("override: %v %s", c.Block, c.BlockSource)
				}
			}
		}
	}
}

// An integer parameter no launch gives is assumed large, and the
// prediction says so.
func TestAssumedParameter(t *testing.T) {
	r := analyze(t, `__global__ void k(const float* in, float* out, int s) { out[threadIdx.x] = in[threadIdx.x * s]; }`, Options{})
	p := find(r, "in[threadIdx.x * s]", interp.Load)[0]
	if p.Sectors != 32 || len(p.Assumptions) == 0 || p.Assumptions[0] != (warp.Assumption{Kind: warp.AssumedParam, Name: "s", Value: 4096}) {
		t.Errorf("sectors %.2f, assumptions %v", p.Sectors, p.Assumptions)
	}
	r = analyze(t, `__global__ void k(const float* in, float* out, int s) { out[threadIdx.x] = in[threadIdx.x * s]; }`, Options{Settings: Settings{Params: map[string]int64{"k.s": 2}}})
	if p := find(r, "in[threadIdx.x * s]", interp.Load)[0]; p.Sectors != 8 || len(p.Assumptions) > 1 {
		t.Errorf("with s=2: sectors %.2f, assumptions %v", p.Sectors, p.Assumptions)
	}
}

// Shared accesses get bank-conflict degrees; local ones no prediction.
func TestSharedBankConflicts(t *testing.T) {
	tests := []struct {
		cols       string
		read, want float64
	}{
		{"33", 1, 1},  // padded: a column read hits 32 different banks
		{"32", 32, 1}, // unpadded: every lane of a column read hits one bank
	}
	for _, tt := range tests {
		r := analyze(t, `
__global__ void k(const float* in, float* out) {
  __shared__ float tile[32][`+tt.cols+`];
  float local[4];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  local[0] = tile[threadIdx.x][threadIdx.y];
  out[threadIdx.x] = local[0];
}
void h(float* a, float* b) { k<<<1, dim3(32, 8)>>>(a, b); }`, Options{})
		var spaces []string
		for _, p := range r.Predictions {
			spaces = append(spaces, p.Access.Space.String()+" "+p.Access.Expr)
		}
		if len(r.Predictions) != 4 {
			t.Fatalf("predictions %v", spaces)
		}
		if p := find(r, "tile[threadIdx.x][threadIdx.y]", interp.Load)[0]; p.Sectors != tt.read {
			t.Errorf("[32][%s] column read: %.1f-way, want %.0f", tt.cols, p.Sectors, tt.read)
		}
		if p := find(r, "tile[threadIdx.y][threadIdx.x]", interp.Store)[0]; p.Sectors != tt.want {
			t.Errorf("[32][%s] row write: %.1f-way, want %.0f", tt.cols, p.Sectors, tt.want)
		}
	}
}

func TestMisalignedVectorAccess(t *testing.T) {
	r := analyze(t, `
__global__ void k(const float* in, float* out, int off) {
  float4 v = reinterpret_cast<const float4*>(in + off)[threadIdx.x];
  out[threadIdx.x] = v.x;
}
void h(float* a, float* b) { k<<<1, 32>>>(a, b, 2); k<<<1, 32>>>(a, b, 4); }`, Options{})
	ps := find(r, "reinterpret_cast<const float4*>(in + off)[threadIdx.x]", interp.Load)
	if len(ps) != 2 || ps[0].Misaligned != 1 || ps[1].Misaligned != 0 {
		for _, p := range ps {
			t.Logf("%v misaligned %.2f", p.Config.Params, p.Misaligned)
		}
		t.Errorf("want the offset-2 launch misaligned, the offset-4 one not")
	}
}

func TestBounds(t *testing.T) {
	f := parser.Parse("b.cu", []byte(`
__global__ void k(float* a, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < w) a[x] = 0;
  if (x < 100) a[x + 1] = 0;
}
void h(float* a) { k<<<4, 256>>>(a, 1024); }`), parser.Config{})
	r := Analyze([]*parser.File{f}, Options{})
	// x < 1024 holds for every thread of 4 blocks of 256: dropped, exact closed form.
	if p := find(r, "a[x]", interp.Store)[0]; !p.Exact || p.Sectors != 4 {
		t.Errorf("a[x]: exact %v, %.2f sectors", p.Exact, p.Sectors)
	}
	// x < 100 does not: only block 0's warps 0-3 run it; warps 0-2 are full
	// and 4 bytes off (5 sectors), warp 3 has lanes 96-99 (1 sector).
	if p := find(r, "a[x + 1]", interp.Store)[0]; p.Sectors != 4 || p.Requests != 4 {
		t.Errorf("a[x + 1]: %.3f sectors, %d requests", p.Sectors, p.Requests)
	}
}

// A file's own atomicAdd(double*, double) is not what atomicAdd on an
// int* calls: overloads must match pointee types.
func TestOverloadByPointee(t *testing.T) {
	r := analyze(t, `
__device__ void atomicAdd(double* address, double v) { *address = *address + v; }
__global__ void count(int* counts, double* sums) {
  atomicAdd(&counts[threadIdx.x], 1);
  atomicAdd(&sums[threadIdx.x], 1.0);
}
void h(int* c, double* s) { count<<<1, 32>>>(c, s); }`, Options{})
	for _, p := range r.Predictions {
		want := "double"
		if p.Access.Op == interp.Atomic {
			want = "int" // the CUDA atomic on the int, not the file's overload
		}
		if p.Access.Type.Name != want || p.Misaligned != 0 {
			t.Errorf("%s %s: type %s, misaligned %.2f; the int call must not inline the double overload", p.Access.Op, p.Access.Expr, p.Access.Type.Name, p.Misaligned)
		}
	}
	if len(r.Predictions) != 3 { // the int atomic; load and store of *address for the double call
		t.Errorf("%d predictions, want 3", len(r.Predictions))
	}
}

func TestAtomicsAreAccesses(t *testing.T) {
	r := analyze(t, `
__global__ void hist(const int* keys, int* bins, float* sums) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[keys[i]], 1);
  atomicAdd(&sums[i * 8], 1.0f);
}
void h(int* k, int* b, float* s) { hist<<<64, 256>>>(k, b, s); }`, Options{})
	if p := find(r, "atomicAdd(&bins[keys[i]], 1)", interp.Atomic); len(p) != 1 || p[0].Known {
		t.Errorf("the histogram atomic: %v", p)
	}
	if p := find(r, "atomicAdd(&sums[i * 8], 1.0f)", interp.Atomic); len(p) != 1 || p[0].Sectors != 32 {
		t.Errorf("the strided atomic: %v", p)
	}
}

// Template value arguments of a launch bind the kernel's template parameters.
func TestTemplateLaunch(t *testing.T) {
	r := analyze(t, `
template <int STRIDE, typename T>
__global__ void pick(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x * STRIDE]; }
void h(float* a, float* b) {
  const int s = 2;
  pick<s, float><<<1, 32>>>(a, b);
  pick<8 + 0, float><<<1, 32>>>(a, b);
  pick< (3 > 2) ? 4 : 1, float ><<<1, 32>>>(a, b);
}`, Options{})
	var got []float64
	for _, p := range find(r, "in[threadIdx.x * STRIDE]", interp.Load) {
		got = append(got, p.Sectors)
	}
	if len(got) != 3 || got[0] != 8 || got[1] != 32 || got[2] != 16 {
		t.Errorf("sectors per launch %v, want [8 32 16] (strides 2, 8, 4)", got)
	}
}

// A host function's dim3 parameter is unknown, not (1,1,1); a struct with
// a member the parser could not read has a guessed layout.
func TestHostParamsAndIncompleteStructs(t *testing.T) {
	r := analyze(t, `
__global__ void k(const float* A, float* out, int wA) {
  const float4* a4 = reinterpret_cast<const float4*>(&A[wA * threadIdx.y + threadIdx.x * 4]);
  out[threadIdx.x] = (*a4).x;
}
struct Odd { weird<1 2> m; char qs[32]; };
__global__ void j(Odd* o) { o[threadIdx.x].qs[1] = 0; }
void run(float* A, float* out, const dim3& dims, Odd* o) {
  k<<<1, dim3(8, 4)>>>(A, out, dims.x);
  j<<<1, 32>>>(o);
}`, Options{})
	for _, p := range r.Predictions {
		if p.Access.Expr == "*a4" && p.Misaligned != 0 {
			t.Errorf("*a4 misaligned %.2f: dims.x must be unknown (assumed large), not 1", p.Misaligned)
		}
		if p.Access.Expr == "o[threadIdx.x].qs[1]" && !p.Access.Guessed {
			t.Error("a struct with an unreadable member must have a guessed layout")
		}
	}
}

// An anonymous union keeps its storage: qs starts after it.
func TestAnonymousMembers(t *testing.T) {
	r := analyze(t, `
struct Block { union { float d4[4]; short h[8]; }; signed char qs[128]; };
__global__ void k(Block* b, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = b[i].d4[1];
  b[i].qs[threadIdx.x % 4] = 1;
}
void h(Block* b, float* o) { k<<<1, 32>>>(b, o); }`, Options{})
	for _, p := range r.Predictions {
		if p.Access.Expr == "b[i].d4[1]" && (p.LaneStride == nil || *p.LaneStride != 144) {
			t.Errorf("lanes step by %v bytes, want 144", p.LaneStride)
		}
	}
	layout := r.Program.Types().Resolve(&parser.TypeRef{Words: []string{"Block"}})
	if layout.Size != 144 || !layout.LayoutKnown() {
		t.Fatalf("struct layout %+v, want 144 bytes", layout)
	}
	if f, ok := layout.Field("qs"); !ok || f.Offset != 16 {
		t.Errorf("qs at %+v, want offset 16", f)
	}
}

// Template type arguments give template kernels their element sizes, one
// analysis per instantiation.
func TestTemplateTypeArguments(t *testing.T) {
	r := analyze(t, `
template <typename T>
__global__ void copy(const T* in, T* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[2 * i]; }
template <typename T, int S>
__global__ void strided(const T* in, T* out) { out[threadIdx.x] = in[threadIdx.x * S]; }
void h(float* a, float* b, double* c, double* d, char* e, char* f) {
  copy<float><<<64, 256>>>(a, b);
  copy<double><<<64, 256>>>(c, d);
  copy<char><<<64, 256>>>(e, f);
  strided<double, 2><<<1, 32>>>(c, d);
}`, Options{})
	got := map[string]float64{}
	for _, p := range find(r, "in[2 * i]", interp.Load) {
		got[p.Access.Type.Name] = p.Sectors
	}
	want := map[string]float64{"float": 8, "double": 16, "char": 2}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("copy<%s>: %.0f sectors, want %.0f (all: %v)", k, got[k], v, got)
		}
	}
	if ps := find(r, "in[threadIdx.x * S]", interp.Load); len(ps) != 1 || ps[0].Sectors != 16 || ps[0].Access.Type.Name != "double" {
		t.Errorf("strided<double, 2>: %v", ps)
	}
}

// A project holds many programs. A launch reaches the kernel of its name
// that its own file defines (or includes); failing that, one in its
// folder; and a file's globals are its own: one program's block size
// is not another's.
func TestLaunchesAndGlobalsStayInTheirProgram(t *testing.T) {
	files := map[string]string{
		"heart/kernel.cu": "__global__ void kernel(float* a) { a[threadIdx.x] = 0; }\n",
		"heart/main.cu":   "const int threads = 320;\n__global__ void kernel(float* a);\nvoid run(float* a) { kernel<<<4, threads>>>(a); }\n",
		"particle/pf.cu": "const int threads = 128;\n__global__ void kernel(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n" +
			"void run(float* a) { kernel<<<4, threads>>>(a); }\n",
	}
	var parsed []*parser.File
	for _, path := range []string{"heart/kernel.cu", "heart/main.cu", "particle/pf.cu"} {
		parsed = append(parsed, parser.Parse(path, []byte(files[path]), parser.Config{}))
	}
	r := Analyze(parsed, Options{})
	got := map[string]string{}
	for _, k := range r.Kernels {
		var blocks []string
		for _, c := range k.Configs {
			blocks = append(blocks, c.Block.String()+" "+c.BlockSource.String())
		}
		got[k.Func.P.File] = strings.Join(blocks, ",")
	}
	want := map[string]string{"heart/kernel.cu": "320 launch", "particle/pf.cu": "128 launch"}
	for file, w := range want {
		if got[file] != w {
			t.Errorf("%s: configs %q, want %q", file, got[file], w)
		}
	}
}

// A pointer kept in a local array may point into shared memory: accesses
// through it are in no known space, and are not predicted as global ones.
func TestPointersFromLocalArrays(t *testing.T) {
	r := analyze(t, `
__global__ void k(float* g) {
  __shared__ float smem[128];
  float* rows[4];
  for (int i = 0; i < 4; i++) rows[i] = &smem[i * 32];
  rows[threadIdx.x / 32][threadIdx.x % 32] = g[threadIdx.x];
}
void h(float* a) { k<<<1, 128>>>(a); }`, Options{})
	if ps := find(r, "rows[threadIdx.x / 32][threadIdx.x % 32]", interp.Store); len(ps) != 0 {
		t.Errorf("a store through a pointer from a local array was predicted as %s memory", ps[0].Access.Space)
	}
	if ps := find(r, "g[threadIdx.x]", interp.Load); len(ps) != 1 || !ps[0].Known {
		t.Errorf("the global load beside it is lost: %v", ps)
	}
}

// With no launch, __launch_bounds__ says how big the block is meant to be.
func TestLaunchBoundsBlock(t *testing.T) {
	r := analyze(t, `
#define BS 128
__global__ void __launch_bounds__(BS) oneD(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }
__global__ void __launch_bounds__(512, 2) twoD(float* a, int w) { a[threadIdx.y * w + threadIdx.x] = 0; }
// cudalint:block 32x4
__global__ void __launch_bounds__(256) annotated(float* a, int w) { a[threadIdx.y * w + threadIdx.x] = 0; }
__global__ void __launch_bounds__(256) launched(float* a) { a[threadIdx.x] = 0; }
void h(float* a) { launched<<<4, 64>>>(a); }`, Options{})
	want := map[string]string{
		"oneD":      "128 launch-bounds",
		"twoD":      "32x16 launch-bounds",
		"annotated": "32x4 annotation",
		"launched":  "64 launch",
	}
	for _, k := range r.Kernels {
		var got []string
		for _, c := range k.Configs {
			got = append(got, c.Block.String()+" "+c.BlockSource.String())
		}
		if g := strings.Join(got, ","); g != want[k.Func.Name] {
			t.Errorf("%s: %s, want %s", k.Func.Name, g, want[k.Func.Name])
		}
	}
}

// k<Tr<8>><<<...>>>: the >> that closes two template argument lists
// before a launch's chevrons is two closers, not a shift, and the launch
// gives the kernel its block.
func TestLaunchAfterNestedTemplateArguments(t *testing.T) {
	r := analyze(t, `template <int N> struct Tr { static constexpr int S = N; };
template <typename T> __global__ void k(float* o) { o[threadIdx.x * T::S] = 0; }
void run(float* o) { k<Tr<8>><<<1, 64>>>(o); }
`, Options{})
	var got []string
	for _, k := range r.Kernels {
		for _, c := range k.Configs {
			got = append(got, c.Block.String()+" "+c.BlockSource.String())
		}
	}
	if strings.Join(got, ",") != "64 launch" {
		t.Errorf("configs %v, want the launch's block 64", got)
	}
}

// A template value parameter is the instance's, never another file's
// file-scope constant of the same name: the shared tile prices alike
// with and without interval.h's BLOCK_SIZE = 64 in the program.
func TestTemplateValueParameterIsNotAnotherFilesGlobal(t *testing.T) {
	other := parser.Parse("a.cu", []byte("int const BLOCK_SIZE = 64;\n__global__ void o(float* x) { x[threadIdx.x] = 0; }\nvoid ha(float* x) { o<<<1, BLOCK_SIZE>>>(x); }\n"), parser.Config{})
	src := []byte(`template <int BLOCK_SIZE> __global__ void mm(float* C, float* A, int wA) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    As[threadIdx.y][threadIdx.x] = A[wA * threadIdx.y + threadIdx.x];
    __syncthreads();
    C[threadIdx.y * wA + threadIdx.x] = As[threadIdx.x][threadIdx.y];
}
void hb(float* C, float* A) { dim3 threads(16, 16); mm<16><<<1, threads>>>(C, A, 1024); }
`)
	price := func(files ...*parser.File) map[string]float64 {
		out := map[string]float64{}
		for _, p := range Analyze(files, Options{}).Predictions {
			if p.Access.Kernel.Name == "mm" {
				out[p.Access.Expr] = p.Sectors
			}
		}
		return out
	}
	alone := price(parser.Parse("b.cu", src, parser.Config{}))
	together := price(parser.Parse("b.cu", src, parser.Config{}), other)
	if len(alone) == 0 || fmt.Sprint(alone) != fmt.Sprint(together) {
		t.Errorf("alone %v, beside a.cu %v: want the same", alone, together)
	}
}

// A template value parameter every launch gives alike sizes the
// kernel's arrays, as nvcc instantiates them: SGEMM's s_b[BK][BN] with
// BK = 8, BN = 128 merges a thread's eight floats into two LDS.128, as
// for the same array sized by literals.
func TestTemplateSizedSharedArray(t *testing.T) {
	kernel := func(dims, launch string) string {
		return `template <int BK, int BN, int TN> __global__ void k(float* c, const float* b) {
  __shared__ float s_b` + dims + `;
  s_b[threadIdx.y % 8][threadIdx.x] = b[threadIdx.x];
  __syncthreads();
  float acc = 0;
#pragma unroll
  for (int n = 0; n < 8; n++) acc += s_b[threadIdx.y % 8][(threadIdx.x % 16) * 8 + n];
  c[threadIdx.x] = acc;
}
void h(float* c, float* b) { dim3 block(16, 16); ` + launch + ` }
`
	}
	price := func(src string) string {
		f := parser.Parse("k.cu", []byte(src), parser.Config{})
		for _, p := range Analyze([]*parser.File{f}, Options{}).Predictions {
			if p.Access.Expr == "s_b[threadIdx.y % 8][(threadIdx.x % 16) * 8 + n]" {
				bytes := int64(4)
				if p.Merged != nil {
					bytes = p.Merged.Bytes
				}
				return fmt.Sprintf("%.2f/%.2f %d bytes", p.Sectors, p.Ideal, bytes)
			}
		}
		return "no prediction"
	}
	literal := price(kernel("[8][128]", "k<8, 128, 8><<<64, block>>>(c, b);"))
	sized := price(kernel("[BK][BN]", "k<8, 128, 8><<<64, block>>>(c, b);"))
	if literal != sized || !strings.HasSuffix(literal, "16 bytes") {
		t.Errorf("sized by literals %s, by template parameters %s: want the same, one 16-byte instruction", literal, sized)
	}
}

// TestPredicatedRareOffWarps: a select whose condition turns a whole
// block row off (convolutionSeparable's halos: the first or the last of
// 48 block rows) issues the load in every warp, and Nsight's figure per
// instruction counts the issues with every lane off: 4 * 47/48 = 3.917
// measured on both halos. The launch is too large to enumerate; the
// samples must not stop at the first 64 that cost the same, which would
// likely miss the rare empty issues.
func TestPredicatedRareOffWarps(t *testing.T) {
	tests := []struct{ name, cond string }{
		{"upper halo: the first block row is off", "baseY >= 0"},
		{"lower halo: the last block row is off", "imageH - baseY > 72"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := analyze(t, `
__global__ void k(float *dst, float *src, int imageH, int pitch) {
  __shared__ float s[16][81];
  const int baseX = blockIdx.x * 16 + threadIdx.x;
  const int baseY = (blockIdx.y * 8 - 1) * 8 + threadIdx.y;
  src += baseY * pitch + baseX;
  s[threadIdx.x][threadIdx.y] = (`+tt.cond+`) ? src[9 * 8 * pitch] : 0;
  __syncthreads();
  dst[baseY * pitch + baseX] = s[threadIdx.x][threadIdx.y];
}
void h(float *a, float *b) { k<<<dim3(192, 48), dim3(16, 8)>>>(a, b, 3072, 3072); }`, Options{})
			p := findOne(t, r, "src[9 * 8 * pitch]", interp.Load)
			if !p.Known || p.Sectors != 4 {
				t.Fatalf("per request: %.3f (known %v), want 4", p.Sectors, p.Known)
			}
			if p.PerInstruction == nil || math.Abs(p.PerInstruction.Sectors-4*47.0/48) > 0.03 {
				t.Errorf("per instruction: %+v, want 3.917 within 0.03", p.PerInstruction)
			}
		})
	}
}

// TestSampledBoundWarp: a bound check that cuts one warp in 32 (8 lanes
// left in the last warp, 2 sectors of doubles where the others take 8) in
// a launch too large to enumerate (a loop of 4096 iterations around the
// load): (31 * 8 + 2) / 32 = 7.8125, measured so on particlefilter's
// likelihood_kernel (i < 1000 under 2 blocks of 512). The samples must not
// stop at the first 64 that cost the same, which would likely miss that
// warp: not where the bound reads the block, nor where it reads the
// thread alone but gives the warps different lanes.
func TestSampledBoundWarp(t *testing.T) {
	tests := []struct{ name, index, launch string }{
		{"a bound on the global index", "blockIdx.x * 512 + threadIdx.x", "k<<<2, 512>>>"},
		{"a bound on the thread index", "threadIdx.x", "k<<<64, 1024>>>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := analyze(t, `
__global__ void k(const double *x, const int *o, double *out, int n, int m) {
  int i = `+tt.index+`;
  double s = 0;
  if (i < n) {
    for (int y = 0; y < m; y++) s += x[i] + o[y];
    out[i] = s;
  }
}
void h(double *a, int *b, double *c) { `+tt.launch+`(a, b, c, 1000, 4096); }`, Options{})
			p := findOne(t, r, "x[i]", interp.Load)
			if p.Exact {
				t.Fatalf("enumerated %d requests: the case needs a sampled launch", p.Requests)
			}
			if !p.Known || math.Abs(p.Sectors-7.8125) > 0.05 {
				t.Errorf("%.3f sectors (known %v, %d requests), want 7.8125 within 0.05", p.Sectors, p.Known, p.Requests)
			}
		})
	}
}

// TestSampledPredicatedBlocks: a thread-0 load nvcc predicates issues in
// each of a 256-thread block's 8 warps and runs in one: 1/8 sectors per
// instruction, measured so on b+tree's findK and shfl_scan's uniform_add.
// Under a grid too large to enumerate, the samples draw whole blocks, so
// that the share is exact where every block is alike (single warps drawn
// at random miss it by a few percent).
func TestSampledPredicatedBlocks(t *testing.T) {
	r := analyze(t, `
__global__ void k(float *o, const float *x) {
  __shared__ float s;
  if (threadIdx.x == 0) s = x[blockIdx.x];
  __syncthreads();
  o[blockIdx.x * 256 + threadIdx.x] = s;
}
void h(float *a, float *b) { k<<<65536, 256>>>(a, b); }`, Options{})
	p := findOne(t, r, "x[blockIdx.x]", interp.Load)
	if p.Exact {
		t.Fatalf("enumerated %d requests: the case needs a sampled launch", p.Requests)
	}
	if p.PerInstruction == nil || p.PerInstruction.Sectors != 0.125 {
		t.Errorf("per instruction %+v, want 0.125 exactly", p.PerInstruction)
	}
}
