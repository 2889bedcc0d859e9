package analyzer

import (
	"fmt"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// A call names the function C++ name lookup finds: each helper ld stores
// p[t] at its own stride (line 2: 1 float apart, 4 sectors a warp; line
// 3: 2 apart, 8 sectors; line 4: 4 apart, 16), so the prediction's line
// and sectors say which ld the kernel's call ran.
func TestCallsResolveByNamespace(t *testing.T) {
	helpers := func(ns1, ns2, ns3 string) string {
		return fmt.Sprintf(`
%s __device__ void ld(float* p) { int t = threadIdx.x; p[t] = 1.f; } %s
%s __device__ void ld(float* p) { int t = threadIdx.x * 2; p[t] = 1.f; } %s
%s __device__ void ld(float* p) { int t = threadIdx.x * 4; p[t] = 1.f; } %s
`, open(ns1), shut(ns1), open(ns2), shut(ns2), open(ns3), shut(ns3))
	}
	launch := "\nvoid run(float* o) { kb<<<1, 256>>>(o); }"
	tests := []struct {
		name string
		src  string
		want []siteRow
	}{
		{"a qualified call: the namespace's function, not the first",
			helpers("namespace a {", "namespace b {", "namespace c {") + `
__global__ void kb(float* o) { b::ld(o); }` + launch,
			[]siteRow{{3, 6, "ld()", 8}}},
		{"a nested qualifier",
			helpers("namespace x {", "namespace x { namespace y {", "namespace y {") + `
__global__ void kb(float* o) { x::y::ld(o); }` + launch,
			[]siteRow{{3, 6, "ld()", 8}}},
		{"::f: the global one",
			helpers("namespace a {", "", "namespace c {") + `
__global__ void kb(float* o) { ::ld(o); }` + launch,
			[]siteRow{{3, 6, "ld()", 8}}},
		{"unqualified inside a namespace: its own first",
			helpers("", "namespace a {", "namespace n {") + `
namespace n { __global__ void kb(float* o) { ld(o); } }` + launch,
			[]siteRow{{4, 6, "ld()", 16}}},
		{"unqualified inside a nested namespace: the enclosing one next",
			helpers("", "namespace n {", "namespace m {") + `
namespace n { namespace m2 { __global__ void kb(float* o) { ld(o); } } }
void run(float* o) { n::m2::kb<<<1, 256>>>(o); }`,
			[]siteRow{{3, 6, "ld()", 8}}},
		{"unqualified: the global scope last",
			helpers("namespace a {", "namespace b {", "") + `
namespace n { __global__ void kb(float* o) { ld(o); } }` + launch,
			[]siteRow{{4, 6, "ld()", 16}}},
		{"a qualifier looked up from the enclosing namespace",
			helpers("namespace detail {", "namespace n { namespace detail {", "") + `
namespace n { __global__ void kb(float* o) { detail::ld(o); } }` + launch,
			[]siteRow{{3, 6, "ld()", 8}}},
		{"using namespace at file scope",
			helpers("namespace a {", "namespace b {", "namespace c {") + `
using namespace c;
__global__ void kb(float* o) { ld(o); }` + launch,
			[]siteRow{{4, 7, "ld()", 16}}},
		{"using namespace in the function body",
			helpers("namespace a {", "namespace b {", "namespace c {") + `
__global__ void kb(float* o) { using namespace b; ld(o); }` + launch,
			[]siteRow{{3, 6, "ld()", 8}}},
		{"a using-declaration",
			helpers("namespace a {", "namespace b {", "namespace c {") + `
using c::ld;
__global__ void kb(float* o) { ld(o); }` + launch,
			[]siteRow{{4, 7, "ld()", 16}}},
		{"an anonymous namespace: visible in its enclosing scope",
			helpers("namespace a {", "namespace {", "namespace c {") + `
__global__ void kb(float* o) { ld(o); }` + launch,
			[]siteRow{{3, 6, "ld()", 8}}},
		{"an anonymous namespace inside a named one",
			helpers("namespace a {", "namespace n { namespace {", "namespace c {") + `
__global__ void kb(float* o) { n::ld(o); }` + launch,
			[]siteRow{{3, 6, "ld()", 8}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := analyze(t, tc.src, Options{})
			got := siteRows(r, "p[t]", interp.Store)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("p[t]: %v, want %v\n%s", got, tc.want, tc.src)
			}
		})
	}
}

// The case found in SGEMM_CUDA, shrunk: b::ld's store (line 2) is
// conflict-free, one wavefront; a::ld's (line 1), two lanes a bank, is
// not the one the kernel calls.
func TestQualifiedCallPicksItsBankConflictFreeHelper(t *testing.T) {
	src := `namespace a { __device__ void ld(float*s){ s[threadIdx.x*2]=1.f; } }
namespace b { __device__ void ld(float*s){ s[threadIdx.x]=1.f; } }
__global__ void kb(float*o){ __shared__ float s[2048]; b::ld(s); __syncthreads(); o[threadIdx.x]=s[threadIdx.x]; }
void run(float*o){ kb<<<1,256>>>(o); }`
	r := analyze(t, src, Options{})
	if got := siteRows(r, "s[threadIdx.x*2]", interp.Store); len(got) != 0 {
		t.Errorf("a::ld's store predicted: %v", got)
	}
	want := []siteRow{{2, 3, "ld()", 1}}
	if got := siteRows(r, "s[threadIdx.x]", interp.Store); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("b::ld's store: %v, want %v", got, want)
	}
}

// open and shut write the braces of the namespaces opened by ns
// ("namespace a { namespace b {").
func open(ns string) string { return ns }

func shut(ns string) string {
	out := ""
	for _, c := range ns {
		if c == '{' {
			out += "}"
		}
	}
	return out
}
