package analyzer

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// C++ classes and templates in kernels: static constexpr members of class
// templates, static member functions, methods on objects built by
// constructors, template arguments of helpers given or deduced.
func TestClassesAndTemplates(t *testing.T) {
	packed := `
template <class T> struct alignas(16) Packed {
    static constexpr int size = sizeof(int4) / sizeof(T);
    T v[size];
    Packed() = default;
    __device__ explicit Packed(int4 bits) { *reinterpret_cast<int4*>(v) = bits; }
    __device__ int4 bits() const { return *reinterpret_cast<const int4*>(v); }
};
template <class T> __device__ Packed<T> load128(const T* p) {
    return Packed<T>(__ldcs(reinterpret_cast<const int4*>(p)));
}
template <class T> __device__ void store128(T* p, Packed<T> x) {
    __stcs(reinterpret_cast<int4*>(p), x.bits());
}
`
	// Two objects of a class whose constructor's parameters shadow its
	// members, set in its initializer list.
	shadowed := `
struct Cfg {
    int stride, offset;
    __device__ Cfg(int stride, int offset) : stride(stride), offset(offset + 1) {}
};
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Cfg wide(4, 0);
    Cfg c(2, 2);
    out[i] = in[i * c.stride + c.offset] + in[i * wide.stride + 8 + wide.offset];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`
	tests := []struct {
		name    string
		src     string
		expr    string
		op      interp.Op
		sectors float64
	}{
		{"Packed<float>::size is 4: 16 bytes a lane", packed + `
__global__ void k(const float* in, float* out) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Packed<float>::size;
    Packed<float> x = load128(in + i);
    store128(out + i, x);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "__ldcs(reinterpret_cast<const int4*>(p))", interp.Load, 16},
		{"Packed<short>::size is 8, the store through x.bits()", packed + `
__global__ void k(const short* in, short* out) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Packed<short>::size;
    store128(out + i, load128(in + i));
}
void h(short* a, short* b) { k<<<64, 256>>>(a, b); }`, "__stcs(reinterpret_cast<int4*>(p), x.bits())", interp.Store, 16},
		{"a static member function of a class template", `
template <int R, int C> struct Transform {
    static __device__ void run(const float* in, float* out, int i) { out[i] = in[i * R / C + R / 2]; }
};
__global__ void k(const float* in, float* out) {
    Transform<8, 8>::run(in, out, blockIdx.x * blockDim.x + threadIdx.x);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "in[i * R / C + R / 2]", interp.Load, 5},
		{"a method on an object from a constructor's initializer list", `
struct Loader {
    int stride, offset;
    __device__ Loader(int s, int o) : stride(s), offset{o} {}
    __device__ float load(const float* p, int i) const { return p[i * stride + offset]; }
};
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Loader loader(2, 3);
    out[i] = loader.load(in, i);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "p[i * stride + offset]", interp.Load, 9},
		{"members a constructor's parameters shadow, set in its initializer list", shadowed, "in[i * c.stride + c.offset]", interp.Load, 9},
		{"the first object of the two keeps its own members", shadowed, "in[i * wide.stride + 8 + wide.offset]", interp.Load, 16},
		{"a shadowed member's initializer reading an earlier one through this->", `
struct Cfg {
    int stride, offset;
    __device__ Cfg(int stride, int offset) : stride(stride), offset(this->stride + offset) {}
};
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Cfg c(2, 1);
    out[i] = in[i * c.stride + c.offset];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "in[i * c.stride + c.offset]", interp.Load, 9},
		{"members set in a constructor's body through this->, a method changing a member", `
struct Writer {
    float* dst;
    int step;
    __device__ Writer(float* dst, int step) { this->dst = dst; this->step = step; }
    __device__ void widen() { step = step + 1; }
    __device__ void write(int i, float v) { dst[i * this->step] = v; }
};
__global__ void k(float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Writer w(out, 2);
    w.widen();
    w.write(i, 1.0f);
}
void h(float* a) { k<<<64, 256>>>(a); }`, "dst[i * this->step]", interp.Store, 12},
		{"a method of a struct parameter reads its members as parameters (stride assumed large)", `
struct View {
    const float* data;
    int stride;
    __device__ float at(int i) const { return data[i * stride]; }
};
__global__ void k(View v, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = v.at(i);
}
void h(View v, float* b) { k<<<64, 256>>>(v, b); }`, "data[i * stride]", interp.Load, 32},
		{"a helper's template value argument", `
template <int K> __device__ void put(float* out, int i, float v) { out[i + K] = v; }
__global__ void k(float* out) { put<1>(out, blockIdx.x * blockDim.x + threadIdx.x, 1.0f); }
void h(float* a) { k<<<64, 256>>>(a); }`, "out[i + K]", interp.Store, 5},
		{"a type argument deduced from the call", `
template <class T> __host__ __device__ constexpr T ceil_div(T a, T b) { return (a + b - 1) / b; }
__global__ void k(const float* in, float* out, int V) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * ceil_div(V, 4)];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b, 10); }`, "in[i * ceil_div(V, 4)]", interp.Load, 12},
		{"a device function as a template argument", `
__device__ void op_twice(float* p, int i) { p[i * 2] *= 2.0f; }
template <void (*F)(float*, int)> __global__ void k(float* p) { F(p, blockIdx.x * blockDim.x + threadIdx.x); }
void h(float* a) { k<op_twice><<<64, 256>>>(a); }`, "p[i * 2]", interp.Store, 8},
		{"a lambda's load, its capture by reference written back", `
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = 1;
    auto get = [&](int j) { s = 3; return in[j * 2]; };
    float v = get(i);
    out[i * s] = v;
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "in[j * 2]", interp.Load, 8},
		{"a lambda's capture by reference: the store after it", `
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = 1;
    auto get = [&](int j) { s = 3; return in[j * 2]; };
    float v = get(i);
    out[i * s] = v;
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "out[i * s]", interp.Store, 12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := analyze(t, tc.src, Options{})
			ps := find(r, tc.expr, tc.op)
			if len(ps) != 1 {
				var all []string
				for _, p := range r.Predictions {
					all = append(all, p.Access.Expr)
				}
				t.Fatalf("%d predictions of %s, want 1 (all: %q)", len(ps), tc.expr, all)
			}
			if p := ps[0]; !p.Known || p.Sectors != tc.sectors {
				t.Errorf("%s: %.2f sectors (unknown %v), want %.0f", tc.expr, p.Sectors, p.Unknown, tc.sectors)
			}
		})
	}
}

// A member function that cannot be found is a note at the call and a
// partly analyzed kernel, never silence.
func TestUnresolvedMethodIsANote(t *testing.T) {
	r := analyze(t, `
struct Loader {
    int stride;
    __device__ Loader(int s) : stride(s) {}
    __device__ float load(const float* p, int i) const { return p[i * stride]; }
};
__global__ void k(const float* in, float* out) {
    Loader loader(2);
    out[threadIdx.x] = loader.fetch(in, threadIdx.x);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, Options{})
	for _, k := range r.Kernels {
		if k.Unresolved != 1 {
			t.Errorf("%d calls unresolved, want 1: the kernel is partly analyzed", k.Unresolved)
		}
		for _, n := range k.Notes {
			if strings.Contains(n.Msg, "fetch") && n.Pos.Line == 9 {
				return
			}
		}
		t.Errorf("notes %v: want one at line 9 about fetch", k.Notes)
	}
}

// A call through a function template parameter no launch binds is a note
// and a partly analyzed kernel.
func TestUnboundFunctionParameterIsANote(t *testing.T) {
	r := analyze(t, `
__device__ void op_twice(float* p, int i) { p[i * 2] *= 2.0f; }
template <void (*F)(float*, int)> __global__ void k(float* p) {
    F(p, threadIdx.x);
}`, Options{})
	if len(r.Kernels) != 1 || r.Kernels[0].Unresolved != 1 || len(r.Kernels[0].Notes) != 1 || !strings.Contains(r.Kernels[0].Notes[0].Msg, "F") {
		for _, k := range r.Kernels {
			t.Errorf("unresolved %d, notes %v; want 1 and a note about F", k.Unresolved, k.Notes)
		}
		if len(r.Kernels) != 1 {
			t.Errorf("%d kernels", len(r.Kernels))
		}
	}
}

// A launch inside a host function template is made once per
// instantiation: from calls with the types written or deduced, and from
// explicit instantiations.
func TestHostTemplateInstantiations(t *testing.T) {
	r := analyze(t, `
template <class T> __global__ void k(const T* in, T* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
template <class T> void run(const T* in, T* out) { k<T><<<64, 256>>>(in, out); }
template void run<short>(const short*, short*);
int main() {
    float *a, *b;
    run<float>(a, b);
    run((const double*)a, (double*)b);
}`, Options{})
	wantInstances(t, r, "in[i]", interp.Load, map[string]float64{"float": 4, "double": 8, "short": 2})
}

// wantInstances checks the sectors of access expr in each instance of
// its kernel, by element type.
func wantInstances(t *testing.T, r *Result, expr string, op interp.Op, want map[string]float64) {
	t.Helper()
	got := map[string]float64{}
	for _, p := range find(r, expr, op) {
		got[p.Access.Type.Name] = p.Sectors
	}
	if len(got) != len(want) {
		t.Errorf("instances %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("k<%s>: %.0f sectors, want %.0f (all: %v)", k, got[k], v, got)
		}
	}
}

// A template kernel launched without its type arguments takes them from
// the launch's arguments, as C++ deduces them: through a host template
// (T from a floatX* parameter) and from a plain host function.
func TestKernelTypeArgumentsDeducedAtTheLaunch(t *testing.T) {
	r := analyze(t, `
typedef short floatX;
template <class T, class U> __global__ void k(T* out, const U* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = (T)in[i];
}
template <class T> void run(T* out, const float* in) { k<<<64, 256>>>(out, in); }
void dispatch(floatX* out, const float* in) { run(out, in); }
void direct(double* out, const double* in) { k<<<64, 256>>>(out, in); }
`, Options{})
	wantInstances(t, r, "out[i]", interp.Store, map[string]float64{"short": 2, "double": 8})
}

// A __device__ function given to a host template (launcher<naive>) and
// passed on to a kernel's function parameter (trimul<F>) is followed,
// also when the parameter's type is an alias (using fn_ptr = ...).
func TestFunctionsThroughHostTemplates(t *testing.T) {
	r := analyze(t, `
using fn_ptr = void (*)(float* p, const float* q, int n);
__device__ void naive(float* p, const float* q, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i * n] = q[i * n];
}
template <fn_ptr F> __global__ void trimul(float* out, const float* in, int n) { F(out, in, n); }
template <fn_ptr F> void launcher(float* out, const float* in, int n) { trimul<F><<<64, 256>>>(out, in, n); }
int main() {
    float *a, *b;
    launcher<naive>(a, b, 8);
    trimul<&naive><<<64, 256>>>(a, b, 4);
}`, Options{})
	var got []float64
	for _, p := range find(r, "q[i * n]", interp.Load) {
		got = append(got, p.Sectors)
	}
	sort.Float64s(got)
	if want := []float64{16, 32}; !slices.Equal(got, want) {
		t.Errorf("q[i * n]: %v sectors, want %v (n = 4 from the launch, n = 8 through the launcher)", got, want)
	}
	for _, k := range r.Kernels {
		if k.Unresolved > 0 {
			t.Errorf("%s: %d calls not followed: %v", k.Func.Name, k.Unresolved, k.Notes)
		}
	}
}

// Explicit specializations of a function template (template <> void
// copy_vector<half, 4>(...)) are read, and a call f<T, N>(...) runs the
// one its arguments name: by type, and by a template value of the
// kernel, whose instances are then analyzed apart (k<half, 4> moves 8
// bytes a lane in one access, k<half, 1> 2).
func TestFunctionTemplateSpecializations(t *testing.T) {
	r := analyze(t, `
template <typename T, int N> __device__ void copy_vector(T* dst, const T* src);
template <> __device__ void copy_vector<__half, 1>(__half* dst, const __half* src) { *dst = *src; }
template <> __device__ void copy_vector<__half, 4>(__half* dst, const __half* src) { *((float2*) dst) = *((float2*) src); }
template <> __device__ void copy_vector<float, 1>(float* dst, const float* src) { dst[0] = src[0]; }
template <typename T, int N> __global__ void k(T* out, const T* in) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * N;
  T elems[N];
  copy_vector<T, N>(elems, in + i);
  copy_vector<T, N>(out + i, elems);
}
void h(__half* o, const __half* i, float* fo, const float* fi) {
  k<__half, 4><<<4096, 256>>>(o, i);
  k<__half, 1><<<4096, 256>>>(o, i);
  k<float, 1><<<4096, 256>>>(fo, fi);
}`, Options{})
	for _, f := range r.Program.Files {
		for _, n := range f.Notes {
			t.Errorf("note %v", n)
		}
	}
	want := map[string]float64{"*((float2*) src)": 8, "*src": 2, "src[0]": 4}
	for expr, sectors := range want {
		ps := find(r, expr, interp.Load)
		if len(ps) != 1 || !ps[0].Known || ps[0].Sectors != sectors {
			t.Errorf("%s: predictions %v, want one of %v sectors", expr, ps, sectors)
		}
	}
}

// A specialization for c10::Half serves a call with at::Half (one type,
// PyTorch's two names), and C10_WARP_SIZE is 32: apex's megatron
// softmax, whose copy_vector<input_t, ELEMENTS_PER_LDG_STG> picks by an
// expression of C10_WARP_SIZE.
func TestSpecializationOfAnAlias(t *testing.T) {
	r := analyze(t, `
template <typename T, int N> __device__ void copy_vector(T* dst, const T* src);
template <> __device__ void copy_vector<c10::Half, 1>(c10::Half* dst, const c10::Half* src) { *dst = *src; }
template <> __device__ void copy_vector<c10::Half, 4>(c10::Half* dst, const c10::Half* src) { *((float2*) dst) = *((float2*) src); }
template <typename T, int L> __global__ void k(T* out, const T* in) {
  constexpr int E = ((1 << L) / C10_WARP_SIZE < 4) ? 1 : 4;
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * E;
  T elems[E];
  copy_vector<T, E>(elems, in + i);
  out[i] = elems[0];
}
void h(at::Half* o, const at::Half* i) { k<at::Half, 7><<<4096, 256>>>(o, i); }`, Options{})
	ps := find(r, "*((float2*) src)", interp.Load)
	if len(ps) != 1 || !ps[0].Known || ps[0].Sectors != 8 {
		t.Errorf("predictions %v of the 4-element copy, want one of 8 sectors (1 << 7 = 128 over a warp of 32 is 4 per lane)", ps)
	}
}
