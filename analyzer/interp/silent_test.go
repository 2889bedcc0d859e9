package interp

import (
	"testing"

	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// TestParamArrays: the pointers an array member of a struct passed by
// value holds (lmdeploy's Array<const int*, N>, one per block) are
// parameters of their own, reached by indexing the member or through the
// class's operator[]; a pointer set on one branch only is that pointer;
// a class's conversion operator to a pointer is run (cuda-samples'
// SharedMemory<T>);
// and an access through a value of pointer type the model does not know
// is a note, never dropped without a word.
func TestParamArrays(t *testing.T) {
	const arr = `template<typename T, int N> struct Array { T __a[N]; __device__ T& operator[](int i) { return __a[i]; } };
struct Q { const float* s[4]; float* d[4]; int n[4]; };
`
	tests := []struct {
		name, src, expr string
		op              Op
		class           symbolic.Class // of the unknowns its address rests on, when expr is not ""
		note            lex.NoteKind   // a note the run must make, or 0 for none
	}{
		{"an element of a struct's array of pointers, uniform index", `
__global__ void k(Q q) { const float* s = q.s[blockIdx.x]; q.d[blockIdx.x][threadIdx.x] = s[threadIdx.x]; }`,
			"s[threadIdx.x]", Load, symbolic.Uniform, 0},
		{"a constant index: the element is a pointer parameter", `
__global__ void k(Q q) { q.d[2][threadIdx.x] = 0; }`,
			"q.d[2][threadIdx.x]", Store, symbolic.Uniform, 0},
		{"through the class's operator[]", `
__global__ void k(Array<const float*, 4> p) { const float* s = p[blockIdx.x]; float x = s[threadIdx.x]; }`,
			"s[threadIdx.x]", Load, symbolic.Uniform, 0},
		{"a lane's own pointer: its address is not known", `
__global__ void k(Q q) { const float* s = q.s[threadIdx.x % 4]; float x = s[threadIdx.x]; }`,
			"s[threadIdx.x]", Load, symbolic.Data, 0},
		{"a pointer set on one branch only", `
struct Sem { float* out; __device__ Sem(float** p, bool ok) { if (ok) { out = p[blockIdx.x]; } } };
__global__ void k(float** p) { Sem s(p, threadIdx.x < 4); s.out[0] = 1; }`,
			"s.out[0]", Store, symbolic.Data, 0},
		{"a class's conversion operator to a pointer: SharedMemory<T>() is the shared memory", `
template<class T> struct SharedMemory { __device__ operator T*() { extern __shared__ int s_[]; return (T*)s_; } };
__global__ void k(float* p) { float* sd = SharedMemory<float>(); sd[threadIdx.x] = p[threadIdx.x]; }`,
			"sd[threadIdx.x]", Store, symbolic.Uniform, 0},
		{"&local given to a helper's pointer: no memory, no note", `
__device__ void put(float* t) { *t = 1; }
__global__ void k(float* p) { float t; put(&t); p[threadIdx.x] = t; }`,
			"p[threadIdx.x]", Store, symbolic.Uniform, 0},
		{"a cvta.to.global wrapper returns the pointer it is given", `
__device__ float* to_global(float* p) { unsigned long long r; asm("cvta.to.global.u64 %0, %1;" : "=l"(r) : "l"(p)); return reinterpret_cast<float*>(r); }
__global__ void k(float* p) { float* g = to_global(p + 4); g[threadIdx.x] = 0; }`,
			"g[threadIdx.x]", Store, symbolic.Uniform, 0},
		{"a register object's array member cast to a pointer: no memory, no note", `
template<class T> struct alignas(16) P { T v[4]; __device__ explicit P(int4 b) { *reinterpret_cast<int4*>(v) = b; } };
__global__ void k(const int4* in, float* p) { P<float> x(in[threadIdx.x]); p[threadIdx.x] = 0; }`,
			"p[threadIdx.x]", Store, symbolic.Uniform, 0},
		{"a pointer of a type it cannot resolve: a note", `
__global__ void k(Array<const float*, 4> p, int n) { auto s = (const float*)p.__b[blockIdx.x]; float x = s[threadIdx.x]; }`,
			"", Load, symbolic.Data, lex.NoteNotAPointer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := runKernel(t, arr+tt.src)
			noted := false
			for _, n := range run.Notes {
				noted = noted || n.Kind == tt.note
			}
			if tt.note != 0 && (!noted || run.Unresolved == 0) {
				t.Errorf("no note of kind %d (notes %v), or the kernel passes for fully analyzed", tt.note, run.Notes)
			}
			if tt.note == 0 && run.Unresolved != 0 {
				t.Errorf("notes %v: the kernel is partly analyzed", run.Notes)
			}
			if tt.expr == "" {
				if len(run.Accesses) != 0 {
					t.Errorf("accesses %v, want none", run.Accesses)
				}
				return
			}
			a := accessOf(t, run, tt.expr, tt.op)
			got := symbolic.Uniform // of the unknowns in the address
			for _, v := range unknownsIn(a.Addr) {
				if v.Class == symbolic.Data {
					got = symbolic.Data
				}
			}
			if got != tt.class {
				t.Errorf("address %v rests on %v unknowns, want %v", a.Addr, got, tt.class)
			}
		})
	}
}

// TestArchBranch: code under a condition on __CUDA_ARCH__ that the
// architecture assumed (900) leaves out is a note naming the value and
// how to give another, so that a kernel for sm_120 alone is never
// "fully analyzed with no note" and no access; a branch taken, or one
// left out that holds nothing, is no note.
func TestArchBranch(t *testing.T) {
	tests := []struct {
		name, body string
		note       bool
	}{
		{"a branch for a later architecture", `if constexpr (__CUDA_ARCH__ >= 1000) { p[threadIdx.x] = 0; }`, true},
		{"an else for an earlier one", `if (__CUDA_ARCH__ >= 800) { p[threadIdx.x] = 0; } else { p[0] = 1; }`, true},
		{"the branch taken, no else", `if (__CUDA_ARCH__ >= 800) { p[threadIdx.x] = 0; }`, false},
		{"a branch left out that holds nothing", `if (__CUDA_ARCH__ < 700) { } else { p[threadIdx.x] = 0; }`, false},
		{"a constant condition of another kind", `if (sizeof(int) == 8) { p[threadIdx.x] = 0; }`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := runKernel(t, "#define __CUDA_ARCH__ 900\n__global__ void k(float* p) { "+tt.body+" }")
			var got []string
			for _, n := range run.Notes {
				if n.Kind == lex.NoteArchBranch {
					got = append(got, n.Subject)
				}
			}
			switch {
			case tt.note && (len(got) != 1 || got[0] != "900"):
				t.Errorf("notes about %v, want one about 900", got)
			case !tt.note && len(got) > 0:
				t.Errorf("notes about %v, want none", got)
			}
		})
	}
}

// TestCurand: cuRAND's device API, whose header is often not read, is
// modelled from its documented effect on the state it is given:
// curand_init writes it, a draw reads and writes it back; an array of
// curandState_t is 48 bytes a state, and the kernel is fully analyzed.
func TestCurand(t *testing.T) {
	tests := []struct {
		name, body string
		ops        []Op
	}{
		{"curand_init writes the state", `curand_init(1234, tid, 0, &s[tid]);`, []Op{Store}},
		{"curand_uniform reads and writes it", `float x = curand_uniform(s + tid);`, []Op{Load, Store}},
		{"curand_normal2_double too", `double2 x = curand_normal2_double(&s[tid]);`, []Op{Load, Store}},
		{"curand_poisson: the state is its first argument", `unsigned int x = curand_poisson(&s[tid], 4.0);`, []Op{Load, Store}},
		{"a state copied in registers: no access", `curandState l; float x = curand_uniform(&l);`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := runKernel(t, `__global__ void k(curandState* s) { int tid = blockIdx.x * blockDim.x + threadIdx.x; `+tt.body+` }`)
			if run.Unresolved != 0 {
				t.Errorf("partly analyzed: %v", run.Notes)
			}
			if len(run.Accesses) != len(tt.ops) {
				t.Fatalf("%d accesses, want %v", len(run.Accesses), tt.ops)
			}
			for i, a := range run.Accesses {
				if a.Op != tt.ops[i] {
					t.Errorf("access %d is a %v, want %v", i, a.Op, tt.ops[i])
				}
				if a.Type == nil || a.Type.Size != 48 {
					t.Errorf("access of %v, want the 48-byte state", a.Type)
				}
				sameExpr(t, "address", a, a.Addr, sum(base("s"), mul(c(48), globalX())))
			}
		})
	}
}
