package driver

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules/aosfield"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/misaligned"
	"github.com/cudalint/cudalint/rules/spec"
	stridedrule "github.com/cudalint/cudalint/rules/strided"
	"github.com/cudalint/cudalint/rules/swappedaxes"
	"github.com/cudalint/cudalint/rules/transpose"
)

// A fix is kept only when x/tools' checker would accept it.
func TestValidateFix(t *testing.T) {
	fset := token.NewFileSet()
	a := fset.AddFile("a.cu", -1, 100)
	b := fset.AddFile("b.cu", -1, 100)
	at := func(f *token.File, off int) token.Pos { return f.Pos(off) }
	tests := []struct {
		name  string
		edits []analysis.TextEdit
		err   string // "" when valid
	}{
		{"one edit", []analysis.TextEdit{{Pos: at(a, 1), End: at(a, 2)}}, ""},
		{"an insertion without End", []analysis.TextEdit{{Pos: at(a, 1)}}, ""},
		{"adjacent edits", []analysis.TextEdit{{Pos: at(a, 3), End: at(a, 4)}, {Pos: at(a, 1), End: at(a, 3)}}, ""},
		{"reversed", []analysis.TextEdit{{Pos: at(a, 5), End: at(a, 2)}}, "ends before it starts"},
		{"past the file", []analysis.TextEdit{{Pos: at(a, 99), End: at(a, 99) + 5}}, "past its file"},
		{"no file", []analysis.TextEdit{{Pos: token.NoPos}}, "outside every file"},
		{"two files", []analysis.TextEdit{{Pos: at(a, 1), End: at(a, 2)}, {Pos: at(b, 1), End: at(b, 2)}}, "edits in a.cu and b.cu"},
		{"overlapping", []analysis.TextEdit{{Pos: at(a, 1), End: at(a, 5)}, {Pos: at(a, 3), End: at(a, 6)}}, "overlap"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := validateFix(fset, analysis.SuggestedFix{Message: "m", TextEdits: tt.edits})
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("rejected: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}

// An invalid fix is dropped, with an error naming the rule; the
// diagnostic stays.
func TestInvalidFixDropped(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("a.cu", -1, 10)
	d := analysis.Diagnostic{Pos: f.Pos(0), SuggestedFixes: []analysis.SuggestedFix{
		{Message: "bad", TextEdits: []analysis.TextEdit{{Pos: f.Pos(5), End: f.Pos(2)}}},
		{Message: "good", TextEdits: []analysis.TextEdit{{Pos: f.Pos(1), End: f.Pos(2)}}},
	}}
	errs := dropInvalidFixes(fset, "swapped-axes", &d)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "rule swapped-axes") || !strings.Contains(errs[0].Error(), `"bad"`) {
		t.Errorf("errors %v", errs)
	}
	if len(d.SuggestedFixes) != 1 || d.SuggestedFixes[0].Message != "good" {
		t.Errorf("kept %+v", d.SuggestedFixes)
	}
}

// Per access, only the highest-precedence rule's findings are kept;
// accesses elsewhere, or under another launch (another prediction), keep
// their own.
func TestWinners(t *testing.T) {
	p10, p20, p30a, p30b := &analyzer.Prediction{}, &analyzer.Prediction{}, &analyzer.Prediction{}, &analyzer.Prediction{}
	r := func(rule *spec.Spec, p *analyzer.Prediction) *lint.Finding {
		return &lint.Finding{Rule: &rule.Rule, Prediction: p}
	}
	in := []*lint.Finding{
		r(stridedrule.Rule, p10), r(swappedaxes.Rule, p10), r(transpose.Rule, p10),
		r(stridedrule.Rule, p20), r(aosfield.Rule, p20),
		r(stridedrule.Rule, p30a), r(misaligned.Rule, p30b),
	}
	var got []string
	for _, w := range winners(in) {
		got = append(got, w.Rule.ID)
	}
	want := []string{"uncoalesced-transpose", "aos-field", "strided-access", "misaligned-access"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("kept %v, want %v", got, want)
	}
}

// Two runs in one process with different options (as an editor server
// makes) are independent: each sees its own block shape and definitions.
// Run with -race.
func TestConcurrentRuns(t *testing.T) {
	dir := t.TempDir()
	src := `__global__ void k(float* v, int w) {
#ifdef WIDE
    v[threadIdx.x * 64] = 0;
#else
    v[threadIdx.x * 2] = 0;
#endif
    v[threadIdx.y * w + threadIdx.x] = 1;
}
`
	if err := os.WriteFile(filepath.Join(dir, "k.cu"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := []struct {
		opts  Options
		block string // in every message
		step  string // the lane step of the strided access
	}{
		{Options{Paths: []string{dir}, Settings: analyzer.Settings{Blocks: map[string]analyzer.Dim3{"k": {32, 8, 1}}}}, "block 32x8", "lanes step by 2 floats"},
		{Options{Paths: []string{dir}, Settings: analyzer.Settings{Blocks: map[string]analyzer.Dim3{"k": {64, 4, 1}}, Defines: map[string]string{"WIDE": "1"}}}, "block 64x4", "lanes step by 64 floats"},
	}
	for round := 0; round < 4; round++ {
		reps := make([]*Report, len(runs))
		var wg sync.WaitGroup
		for i := range runs {
			wg.Add(1)
			go func() { defer wg.Done(); reps[i] = Run(runs[i].opts) }()
		}
		wg.Wait()
		for i, rep := range reps {
			if len(rep.Errors) > 0 || len(rep.Findings) == 0 {
				t.Fatalf("run %d: errors %v, %d findings", i, rep.Errors, len(rep.Findings))
			}
			stepSeen := false
			for _, f := range rep.Findings {
				if !strings.Contains(f.Message, runs[i].block) {
					t.Errorf("run %d: %s", i, f.Message)
				}
				stepSeen = stepSeen || strings.Contains(f.Message, runs[i].step)
			}
			if !stepSeen {
				t.Errorf("run %d: no finding says %q", i, runs[i].step)
			}
		}
	}
}
