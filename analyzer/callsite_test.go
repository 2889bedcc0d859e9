package analyzer

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// siteRow is one prediction as the call-site tests compare it: the
// access's own line, the line of the place a finding marks, the functions
// of its call chain, and its sectors.
type siteRow struct {
	line, site int
	via        string
	sectors    float64
}

func (r siteRow) String() string {
	return fmt.Sprintf("{line %d site %d via %q %.2f}", r.line, r.site, r.via, r.sectors)
}

func siteRows(r *Result, expr string, op interp.Op) []siteRow {
	var out []siteRow
	for _, p := range find(r, expr, op) {
		var names []string
		for _, c := range p.Access.Via {
			names = append(names, c.Name())
		}
		pos, _ := p.Access.Site()
		s := -1.0
		if p.Known {
			s = p.Sectors
		}
		out = append(out, siteRow{int(p.Access.Pos.Line), int(pos.Line), strings.Join(names, " "), s})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].site < out[j].site })
	return out
}

// A helper's access has one prediction per call of the kernel's body that
// reaches it, marked at that call; calls inside helpers, and accesses in
// lambdas the kernel writes, are the kernel's own places.
func TestHelperAccessPerCallSite(t *testing.T) {
	helpers := `
__device__ float get(const float* a, int i) { return a[i]; }
__device__ float get2(const float* a, int i) { return get(a, i) + get(a, i + 1); }
`
	tests := []struct {
		name string
		src  string
		expr string
		op   interp.Op
		want []siteRow
	}{
		{"two calls at two strides: two predictions, each at its call", helpers + `
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = get(in, i);
    float y = get(in, 2 * i);
    out[i] = x + y;
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "a[i]", interp.Load,
			[]siteRow{{2, 7, "get()", 4}, {2, 8, "get()", 8}}},
		{"a nested helper: marked at the outer call; two inner calls through it averaged", helpers + `
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = get2(in, 4 * i);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "a[i]", interp.Load,
			[]siteRow{{2, 7, "get2() get()", 16}}},
		{"a lambda written in the call: its body is the kernel's", `
template <class F> __device__ void apply(const float* in, float* out, int i, F f) { out[i] = f(in[i]); }
__global__ void k(const float* in, float* out, int s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    apply(in, out, i, [&](float v) { return v + in[i * s]; });
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b, 2); }`, "in[i * s]", interp.Load,
			[]siteRow{{5, 5, "apply() lambda", 8}}},
		{"the helper's own access, reached through the lambda's helper", `
template <class F> __device__ void apply(const float* in, float* out, int i, F f) { out[i] = f(in[i]); }
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    apply(in, out, 3 * i, [](float v) { return v * 2.0f; });
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "out[i]", interp.Store,
			[]siteRow{{2, 5, "apply()", 12}}},
		{"a capture-by-reference lambda storing, called in the helper's loop", `
template <class F> __device__ void for_each_k(int n, F f) { for (int k = 0; k < n; ++k) f(k); }
__global__ void k(float* out, int n, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for_each_k(n, [&](int k) { out[k * stride + 2 * i] = 0; });
}
void h(float* a) { k<<<64, 256>>>(a, 8, 4096); }`, "out[k * stride + 2 * i]", interp.Store,
			[]siteRow{{5, 5, "for_each_k() lambda", 8}}},
		{"a named lambda passed on through two helpers", `
template <class L> __device__ float twice(L ld, int i) { return ld(i) + ld(i + 32); }
template <class L> __device__ float pass(L f, int i) { return twice(f, i); }
__global__ void k(const float* in, float* out, int s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto ld = [&](int j) { return in[j * s]; };
    out[i] = pass(ld, i);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b, 4); }`, "in[j * s]", interp.Load,
			[]siteRow{{6, 6, "pass() twice() ld()", 16}}},
		{"a helper's parameter hides the kernel's lambda of the same name", `
template <class F> __device__ float use(const float* p, int i, F f) { return f(p[i]); }
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto f = [&](float v) { return in[8 * i]; };
    out[i] = use(in, i, [](float v) { return v; }) + f(0.0f);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, "in[8 * i]", interp.Load,
			[]siteRow{{5, 5, "f()", 32}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := analyze(t, tc.src, Options{})
			got := siteRows(r, tc.expr, tc.op)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("%s: %v, want %v", tc.expr, got, tc.want)
			}
			for _, k := range r.Kernels {
				if k.Unresolved != 0 {
					t.Errorf("kernel %s: %d calls unresolved (notes %v)", k.Func.Name, k.Unresolved, k.Notes)
				}
			}
		})
	}
}

// A lambda passed to a function cudalint cannot find, or a call through a
// variable that holds no lambda, is a note and a partly analyzed kernel.
func TestLambdaNotFollowedIsANote(t *testing.T) {
	tests := []struct{ name, stmt, note string }{
		{"a lambda passed to an unknown function", `thrust_like(n, [&](int k) { out[k] = 0; });`, "thrust_like"},
		{"a call through a variable with no lambda", `out[op(3)] = 0;`, "op"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := analyze(t, `
__global__ void k(float* out, int n, int op) {
    `+tc.stmt+`
}
void h(float* a) { k<<<64, 256>>>(a, 8, 1); }`, Options{})
			k := r.Kernels[0]
			if k.Unresolved != 1 || len(k.Notes) != 1 || k.Notes[0].Pos.Line != 3 || !strings.Contains(k.Notes[0].Msg, tc.note) {
				t.Errorf("unresolved %d, notes %v: want one note at line 3 naming %s", k.Unresolved, k.Notes, tc.note)
			}
		})
	}
}

// A __device__ function given as a helper's template argument is called
// through the parameter that holds it.
func TestFunctionAsHelperTemplateArgument(t *testing.T) {
	r := analyze(t, `
__device__ float twice_at(const float* p, int i) { return p[2 * i]; }
typedef float (*getter)(const float*, int);
template <getter G> __device__ float run(const float* p, int i) { return G(p, i); }
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = run<twice_at>(in, i);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, Options{})
	got := siteRows(r, "p[2 * i]", interp.Load)
	if want := []siteRow{{2, 7, "run() twice_at()", 8}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("p[2 * i]: %v, want %v", got, want)
	}
	if k := r.Kernels[0]; k.Unresolved != 0 {
		t.Errorf("%d calls unresolved: %v", k.Unresolved, k.Notes)
	}
}
