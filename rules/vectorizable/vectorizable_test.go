package vectorizable

import (
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.Run(t, "testdata", Analyzer) }

// The finding's severity is the scalar access's cost (more than twice
// its ideal is a warning), and it covers the vector's other elements.
func TestSeverityAndCovers(t *testing.T) {
	res, err := accesses.Load(&analysis.Pass{Analyzer: accesses.Analyzer, Fset: token.NewFileSet(),
		OtherFiles: []string{"testdata/vectorizable.cu"}}, accesses.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		expr     string
		severity lint.Severity
		covers   int
	}{
		{"a[4 * i]", lint.Warning, 3},     // floats: 16 sectors, ideal 4
		{"a[2 * i]", lint.Info, 1},        // doubles: 16, ideal 8
		{"a[i * 2]", lint.Info, 1},        // floats in pairs: 8, ideal 4
		{"a[4 * i + k]", lint.Warning, 0}, // the loop's iterations are its elements
		{"row[4 * i]", lint.Warning, 3},   // rows of a launch-given width
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			found := 0
			for _, p := range res.Analysis.Predictions {
				if p.Access.Expr != tt.expr || !Detect(res, p) {
					continue
				}
				found++
				if got := Severity(p); got != tt.severity {
					t.Errorf("%s in %s: severity %v, want %v", tt.expr, p.Access.Kernel.Name, got, tt.severity)
				}
				if got := len(covers(res, p)); got != tt.covers {
					t.Errorf("%s in %s: covers %d, want %d", tt.expr, p.Access.Kernel.Name, got, tt.covers)
				}
			}
			if found == 0 {
				t.Errorf("no vector led by %s", tt.expr)
			}
		})
	}
}

func TestVectorIndex(t *testing.T) {
	tests := []struct {
		index string
		n     int64
		want  string
	}{
		{"4 * i", 4, "i"},
		{"i * 2", 2, "i"},
		{"4 * (row * n + col)", 4, "(row * n + col)"},
		{"8 * i", 4, "(8 * i) / 4"},
		{"off", 4, "off / 4"},
		{"2 * i + 2", 2, "(2 * i + 2) / 2"},
		{"", 4, "i"},
	}
	for _, tt := range tests {
		if got := vectorIndex(tt.index, tt.n, nil); got != tt.want {
			t.Errorf("vectorIndex(%q, %d) = %q, want %q", tt.index, tt.n, got, tt.want)
		}
	}
}
