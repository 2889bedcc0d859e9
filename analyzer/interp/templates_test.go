package interp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// arrayTmpl is lmdeploy's Array<T, N> with a specialization whose layout
// differs (it packs its elements eight to a byte) and a Load that picks its width by
// the instance's size, as turbomind's array_ops.h does.
const arrayTmpl = `
template<typename T, int N> struct Array { T __a[N]; };
template<int N> struct Array<char, N> { char __a[N / 8]; };
template<typename T, int N>
__device__ void Load(Array<T, N>& dst, const T* src) {
  if constexpr (sizeof(Array<T, N>) == sizeof(uint4)) { (uint4&)dst = *(const uint4*)src; }
  else if constexpr (sizeof(Array<T, N>) == sizeof(uint2)) { (uint2&)dst = *(const uint2*)src; }
  else { static_assert(!std::is_same_v<T, T>); }
}
`

// TestClassTemplateInstance: a class template's instance has its layout
// with the arguments bound (Array<float, 4> is 16 bytes), its arguments
// are deduced at a call taking Array<T, N>& (N from the argument, as C++
// deduces it), and a specialization never stands in for the template.
func TestClassTemplateInstance(t *testing.T) {
	tests := []struct {
		name, kernel string
		expr         string // the one load, "" for none
		size         int64  // its width in bytes
	}{
		{"Array<float, 4> is a uint4: one 16-byte load", `
__global__ void k(const float* src) { Array<float, 4> v; Load(v, &src[threadIdx.x * 4]); }`, "*(const uint4*)src", 16},
		{"Array<float, V> with V a constant is a uint2: one 8-byte load", `
constexpr int V = 2;
__global__ void k(const float* src) { Array<float, V> v; Load(v, &src[threadIdx.x * V]); }`, "*(const uint2*)src", 8},
		{"Array<char, 64> is its specialization's 8 bytes, not the template's 64", `
__global__ void k(const char* src) { Array<char, 64> v; Load(v, &src[threadIdx.x * 8]); }`, "*(const uint2*)src", 8},
		{"Array<float, 4> by a typedef of float", `
typedef float real;
__global__ void k(const float* src) { Array<real, 4> v; Load(v, &src[threadIdx.x * 4]); }`, "*(const uint4*)src", 16},
		{"sizeof of an instance sizes a local copy", `
__global__ void k(const float* src, float* dst) {
  if (sizeof(Array<double, 2>) == 16) { dst[threadIdx.x] = src[threadIdx.x]; }
}`, "src[threadIdx.x]", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := runKernel(t, arrayTmpl+tt.kernel)
			var loads []string
			for _, a := range run.Accesses {
				if a.Op == Load {
					loads = append(loads, a.Expr)
				}
			}
			if len(loads) != 1 {
				t.Fatalf("loads %v, want one of %s", loads, tt.expr)
			}
			a := accessOf(t, run, tt.expr, Load)
			if a.Type == nil || a.Type.Size != tt.size {
				t.Errorf("load of %v, want %d bytes", a.Type, tt.size)
			}
			for _, n := range run.Notes {
				if strings.Contains(n.Msg, "not understood") {
					t.Errorf("note %q", n.Msg)
				}
			}
		})
	}
}

// TestLaunchDeducesFromInstances: a launch that gives a kernel template
// some of its arguments has the others deduced from its arguments'
// instances, as C++ does: BatchPrefixSumKernel<256>(p_srcs, ...) with
// p_srcs an Array<const int*, 2> (value-initialised, T x{}) binds
// MAX_COUNT to 2.
func TestLaunchDeducesFromInstances(t *testing.T) {
	tests := []struct {
		name, host string
		want       []int64 // the launch's template values; -1 for a type
	}{
		{"a value parameter after one given", `
void h(cudaStream_t st) { constexpr int m = 2; Array<const int*, m> a{}; k<256><<<4, 256, 0, st>>>(a); }`, []int64{256, 2}},
		{"none given", `
void h() { Array<const int*, 8> a; k<<<4, 256>>>(a); }`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `template<typename T, int N> struct Array { T __a[N]; };
template<int B, int M> __global__ void k(Array<const int*, M> srcs) { }
` + tt.host
			f := parser.Parse("k.cu", []byte(src), parser.Config{})
			p := NewProgram([]*parser.File{f})
			var ls []*Launch
			for _, fn := range f.Funcs {
				if fn.Name == "h" {
					ls = p.HostLaunches(f, fn)
				}
			}
			if len(ls) != 1 {
				t.Fatalf("%d launches, want 1", len(ls))
			}
			var got []int64
			for _, a := range ls[0].Targs {
				if a == nil || a.Int == nil {
					got = append(got, -1)
					continue
				}
				c, _ := symbolic.IsConst(a.Int)
				got = append(got, c)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("template values %v, want %v", got, tt.want)
			}
		})
	}
}

// TestClassScopes: what a class template's members name resolves in the
// class: member aliases (size_type, reference), an alias of an instance
// (using Vec = Array<float, 4>), a specialization for a tag type that the
// arguments do not select, a method run on an object in memory
// (p[i].data()), and a function object's call operator.
func TestClassScopes(t *testing.T) {
	const arr = `struct tag4_t {};
template<typename T, int N> struct Array {
  using value_type = T; using size_type = int; using reference = value_type&;
  T __a[N];
  __device__ reference operator[](size_type i) { return __a[i]; }
  __device__ T* data() { return __a; }
};
template<int N> struct Array<tag4_t, N> { char __a[N / 2]; };
template<class T> struct Scale { T s; __device__ T operator()(const T* p, int i) const { return p[i] * s; } };
`
	tests := []struct {
		name, src, expr string
		op              Op
		stride          int64 // bytes between neighbouring lanes' addresses
	}{
		{"operator[] taking size_type: a uniform index stays uniform", `
__global__ void k(Array<float*, 8> uc, int p) { const float* ch = uc[p]; float x = ch[threadIdx.x]; }`, "ch[threadIdx.x]", Load, 4},
		{"an alias of an instance sizes the pointer arithmetic", `
__global__ void k(const float* src) { using Vec = Array<float, 4>; auto v = (const Vec*)src; float x = v[threadIdx.x].__a[1]; }`, "v[threadIdx.x].__a[1]", Load, 16},
		{"a method on an object in memory: data() is its address", `
__global__ void k(const float* src) { using Vec = Array<float, 4>; auto v = (const Vec*)src; const float* p = v[threadIdx.x].data(); float x = p[2]; }`, "p[2]", Load, 16},
		{"a function object's call operator runs", `
__global__ void k(const float* in, float* out) { Scale<float> op{2.f}; out[threadIdx.x] = op(in, threadIdx.x); }`, "p[i]", Load, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := runKernel(t, arr+tt.src)
			if run.Unresolved != 0 {
				t.Errorf("partly analyzed: %v", run.Notes)
			}
			a := accessOf(t, run, tt.expr, tt.op)
			co, ok := symbolic.Coefficient(a.Addr, key(tid(0)))
			c, isConst := symbolic.IsConst(co)
			if !ok || !isConst || c != tt.stride {
				t.Errorf("address %v: lane stride %v, want %d", a.Addr, co, tt.stride)
			}
		})
	}
}
