package rules

import (
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	. "github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
)

// Rules read what symbols are, not what they are called: names that
// look like the model's own words change nothing.
func TestWinnerReadsKindsNotNames(t *testing.T) {
	tests := []struct {
		name, src, expr string
		rule            string
		assumed         []string // AssumedStride
	}{
		{"a gather is indirect", `
__global__ void k(float* a, const int* idx) { a[idx[threadIdx.x]] = 0; }
void h(float* a, int* b) { k<<<1, 32>>>(a, b); }`, "a[idx[threadIdx.x]]", "indirect-access", nil},
		{"an index array called loaded_by is still a gather", `
__global__ void k(float* a, const int* loaded_by) { a[loaded_by[threadIdx.x]] = 0; }
void h(float* a, int* b) { k<<<1, 32>>>(a, b); }`, "a[loaded_by[threadIdx.x]]", "indirect-access", nil},
		{"an address on a float is not a gather", `
__global__ void k(float* a, float f) { a[(int)(f * threadIdx.x)] = 0; }
void h(float* a) { k<<<1, 32>>>(a, 0.5f); }`, "a[(int)(f * threadIdx.x)]", "", nil},
		{"a parameter called iter is a parameter, assumed large", `
__global__ void k(float* a, int iter) { a[threadIdx.x * iter] = 0; }
void h(float* a, int n) { k<<<1, 32>>>(a, n); }`, "a[threadIdx.x * iter]", "strided-access", []string{"iter"}},
		{"a loop's iteration is not assumed", `
__global__ void k(float* a) { for (int i = 1; i < 4; i++) a[threadIdx.x * i] = 0; }
void h(float* a) { k<<<1, 32>>>(a); }`, "a[threadIdx.x * i]", "strided-access", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, got := predict(t, tt.src, tt.expr)
			if rule := idOf(Winner(res, got)); rule != tt.rule {
				t.Errorf("rule %q, want %q (known %v, %s)", rule, tt.rule, got.Known, got.Reason())
			}
			if a := AssumedStride(got); !slices.Equal(a, tt.assumed) {
				t.Errorf("assumed %v, want %v", a, tt.assumed)
			}
		})
	}
}

// predict models src and returns the prediction of the access written expr.
func predict(t *testing.T, src, expr string) (*Result, *analyzer.Prediction) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.cu")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Load(&analysis.Pass{Analyzer: Analyzer, Fset: token.NewFileSet(), OtherFiles: []string{path}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Analysis.Predictions {
		if p.Access.Expr == expr {
			return res, p
		}
	}
	t.Fatalf("no prediction for %s", expr)
	return nil, nil
}

// One access gets one finding: when several rules detect it, the most
// specific wins. Each case is an access that more than one rule detects
// on its own (detected), and the rule Precedence must pick (want).
func TestPrecedence(t *testing.T) {
	tests := []struct {
		name, src, expr string
		detected        []string
		want            string
	}{
		{"a transpose's column write is also swapped axes", `
__global__ void tr(const float* in, float* out, int w) {
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    out[x * 1024 + y] = in[y * 1024 + x];
}
void h(float* a, float* b) { tr<<<dim3(32, 32), dim3(32, 32)>>>(a, b, 1024); }`, "out[x * 1024 + y]",
			[]string{"uncoalesced-transpose", "swapped-axes", "strided-access"}, "uncoalesced-transpose"},
		{"swapped axes are also a stride", `
__global__ void sw(float* v) { v[threadIdx.x * 1024 + threadIdx.y] = 0; }
void h(float* a) { sw<<<1, dim3(32, 32)>>>(a); }`, "v[threadIdx.x * 1024 + threadIdx.y]",
			[]string{"swapped-axes", "strided-access"}, "swapped-axes"},
		{"an AoS field is also a stride", `
struct P { float x, y, z, w, m; };
__global__ void k(const P* p, float* o) { o[threadIdx.x] = p[threadIdx.x].m; }
void h(P* p, float* o) { k<<<1, 32>>>(p, o); }`, "p[threadIdx.x].m",
			[]string{"aos-field", "strided-access"}, "aos-field"},
		{"a vector component loaded with its sibling is nobody's", `
__global__ void k(const float2* v, float* o) { o[threadIdx.x] = v[threadIdx.x].x + v[threadIdx.x].y; }
void h(float2* v, float* o) { k<<<1, 32>>>(v, o); }`, "v[threadIdx.x].x",
			nil, ""},
		{"a lone vector component is an AoS field", `
__global__ void k(const float2* v, float* o) { o[threadIdx.x] = v[threadIdx.x].x; }
void h(float2* v, float* o) { k<<<1, 32>>>(v, o); }`, "v[threadIdx.x].x",
			[]string{"aos-field", "strided-access"}, "aos-field"},
		{"a float4 read float by float is also a stride", `
__global__ void k(const float* a, float* o) {
    int i = threadIdx.x;
    o[i] = a[4 * i] + a[4 * i + 1] + a[4 * i + 2] + a[4 * i + 3];
}
void h(float* a, float* b) { k<<<1, 32>>>(a, b); }`, "a[4 * i]",
			[]string{"vectorizable-access", "strided-access"}, "vectorizable-access"},
		{"an unaligned vector access is also misaligned", `
__global__ void k(const float* in, float* o) {
    float2 v = reinterpret_cast<const float2*>(in + 1)[threadIdx.x];
    o[threadIdx.x] = v.y;
}
void h(float* a, float* b) { k<<<1, 32>>>(a, b); }`, "reinterpret_cast<const float2*>(in + 1)[threadIdx.x]",
			[]string{"unaligned-vector-cast", "misaligned-access"}, "unaligned-vector-cast"},
		{"a shared access is only ever a bank conflict", `
__global__ void k(float* o) {
    __shared__ float t[32][32];
    t[threadIdx.x][0] = 1;
    o[threadIdx.x] = t[0][threadIdx.x];
}
void h(float* a) { k<<<1, 32>>>(a); }`, "t[threadIdx.x][0]",
			[]string{"shared-bank-conflict"}, "shared-bank-conflict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, p := predict(t, tt.src, tt.expr)
			var detected []string
			for _, s := range Precedence {
				if s.Detect(res, p) {
					detected = append(detected, s.ID)
				}
			}
			if tt.detected != nil && !slices.Equal(detected, tt.detected) {
				t.Errorf("detected by %v, want %v", detected, tt.detected)
			}
			if got := idOf(Winner(res, p)); got != tt.want {
				t.Errorf("winner %q, want %q (detected by %v)", got, tt.want, detected)
			}
		})
	}
}

// Every prediction rule has a place in Precedence, and only one.
func TestPrecedenceListsEveryRule(t *testing.T) {
	var ids, got []string
	for _, r := range All {
		if r.Analyzer != nil {
			ids = append(ids, r.ID)
		}
	}
	for _, s := range Precedence {
		got = append(got, s.ID)
		if s.Detect == nil || s.Grade == nil || s.Describe == nil {
			t.Errorf("%s has no Detect, Grade or Describe", s.ID)
		}
	}
	slices.Sort(got)
	slices.Sort(ids)
	if !slices.Equal(got, ids) {
		t.Errorf("Precedence lists %v, rules are %v", got, ids)
	}
}

// idOf is a rule's ID, or "" for none.
func idOf(r *lint.Rule) string {
	if r == nil {
		return ""
	}
	return r.ID
}
