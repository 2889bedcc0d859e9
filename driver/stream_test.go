package driver

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
)

// findingsText is everything a printer reads of a report's findings: rule,
// severity, position, message, related places, fixes, figures, and the
// prediction's kernel and launch.
func findingsText(rep *Report) string {
	var b strings.Builder
	for _, f := range rep.Findings {
		fmt.Fprintf(&b, "%s %v %s %s: %s\n", f.Rule.ID, f.Severity, rep.Fset.Position(f.Pos), rep.Fset.Position(f.End), f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(&b, "  related %s: %s\n", rep.Fset.Position(r.Pos), r.Message)
		}
		for _, fix := range f.SuggestedFixes {
			fmt.Fprintf(&b, "  fix %s, %d edits\n", fix.Message, len(fix.TextEdits))
		}
		fig, err := json.Marshal(f.Figures)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(&b, "  figures %s\n", fig)
		if p := f.Prediction; p != nil {
			fmt.Fprintf(&b, "  kernel %s, launch %v, block %v\n", p.Access.Kernel.Name, p.Config.At, p.Config.Block)
		}
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(&b, "warning %s\n", w)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note %v\n", n)
	}
	for _, e := range rep.Errors {
		fmt.Fprintf(&b, "error %v\n", e)
	}
	return b.String()
}

// A streamed run reports what a whole one reports, finding for finding,
// with the same warnings, notes and errors: the examples, a project whose
// kernels are launched from another file, suppressions (an unused ignore
// is only known once every part has run), and enough generated kernels to
// make many parts.
func TestStreamReportsAsWhole(t *testing.T) {
	project := t.TempDir()
	write(t, project, map[string]string{
		"kernels.cu": strided + "// cudalint:ignore aos-field suppresses nothing\n" + gen.KernelDense(64<<10),
		"host.cu":    "__global__ void k(const float* in, float* out);\nvoid run(float* a, float* b) { k<<<64, 32>>>(a, b); }\n",
		"quiet.cu":   strings.Replace(strided, "in[i * 4];", "in[i * 4]; // cudalint:ignore strided-access by design", 1),
	})
	tests := []struct {
		name  string
		paths []string
	}{
		{"examples", []string{filepath.Join("..", "examples")}},
		{"project", []string{project}},
		{"one file of a project", []string{filepath.Join(project, "kernels.cu")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			whole := Run(Options{Paths: tt.paths})
			streamed := Run(Options{Paths: tt.paths, Stream: true})
			if len(whole.Findings) == 0 {
				t.Fatal("no findings: nothing to compare")
			}
			if w, s := findingsText(whole), findingsText(streamed); w != s {
				t.Errorf("streamed report differs:\n--- whole\n%s\n--- streamed\n%s", w, s)
			}
			if streamed.Result == nil || len(streamed.Result.Analysis.Predictions) != 0 {
				t.Errorf("a streamed report keeps the model's predictions")
			}
		})
	}
}
