package spec

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/wording"
)

// A rule's fix for an access in a helper may edit the kernel's own text
// (its calls, the lambdas it writes), never the helper's, which every
// call of it shares.
func TestFixNeverEditsAHelper(t *testing.T) {
	src := `__device__ float get(const float* a, int i) { return a[i]; }
template <class F> __device__ void apply(float* out, int i, F f) { f(out, i); }
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = get(in, 4 * i);
    apply(out, i, [](float* o, int j) { o[4 * j] = 0; });
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`
	dir := t.TempDir()
	path := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	res, err := accesses.Load(&analysis.Pass{Analyzer: accesses.Analyzer, Fset: fset, OtherFiles: []string{path}}, accesses.Options{})
	if err != nil {
		t.Fatal(err)
	}
	byExpr := map[string]*analyzer.Prediction{}
	for _, p := range res.Analysis.Predictions {
		byExpr[p.Access.Expr] = p
	}
	// editAt fixes by replacing the text at the access, or at the place
	// the finding marks.
	editAt := func(atSite bool) Fix {
		return func(res *accesses.Result, p *analyzer.Prediction) ([]analysis.SuggestedFix, string) {
			pos, end := res.Range(p.Access)
			if atSite {
				pos, end = res.SiteRange(p.Access)
			}
			return []analysis.SuggestedFix{{Message: "edit", TextEdits: []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte("x")}}}}, ""
		}
	}
	tests := []struct {
		name, expr string
		atSite     bool
		line       int  // of the diagnostic
		fixed      bool // the fix is kept
		why        string
	}{
		{"the helper's access edited", "a[i]", false, 5, false, "--fix leaves it: the fix would edit get(), which is not the kernel's code"},
		{"the kernel's call edited", "a[i]", true, 5, true, ""},
		{"a lambda of the kernel's body edited", "o[4 * j]", false, 6, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := byExpr[tt.expr]
			if p == nil {
				t.Fatalf("no prediction of %s", tt.expr)
			}
			d := NewRule(Spec{Rule: lint.Rule{ID: "test"}, Name: "test", Grade: func(*analyzer.Prediction) lint.Severity { return lint.Info },
				Describe: func(_ *accesses.Result, p *analyzer.Prediction) string { return wording.Subject(p) }, Fix: editAt(tt.atSite)}).finding(res, impact.Of(res), p)
			if line := fset.Position(d.Pos).Line; line != tt.line {
				t.Errorf("marked at line %d, want %d", line, tt.line)
			}
			if got := len(d.SuggestedFixes) > 0; got != tt.fixed {
				t.Errorf("fix kept %v, want %v (%s)", got, tt.fixed, d.Message)
			}
			if tt.why != "" && !strings.Contains(d.Message, tt.why) {
				t.Errorf("message %q, want it to say %q", d.Message, tt.why)
			}
		})
	}
}
