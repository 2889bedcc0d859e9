package vectorizable

import (
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/ruletest"
	"github.com/cudalint/cudalint/symbolic"
)

func TestRule(t *testing.T) { ruletest.Run(t, "testdata", Analyzer) }

// The finding is info whatever the scalars' sectors per request (the
// bytes from DRAM are the same, measured), and it covers the vector's
// other elements.
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
		{"a[4 * i]", lint.Info, 3},     // floats: 16 sectors, ideal 4
		{"a[2 * i]", lint.Info, 1},     // doubles: 16, ideal 8
		{"a[i * 2]", lint.Info, 1},     // floats in pairs: 8, ideal 4
		{"a[4 * i + k]", lint.Info, 0}, // the loop's iterations are its elements
		{"row[4 * i]", lint.Info, 3},   // rows of a launch-given width
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

// What a launch says of an address's symbols: the values it gives, and
// the offsets at which it passes pointers.
func TestDivisorFacts(t *testing.T) {
	launched := &analyzer.LaunchConfig{BlockSource: launch.FromLaunch, Block: analyzer.Dim3{256, 1, 1}, BlockKnown: [3]bool{true, true, true},
		Grid: analyzer.Dim3{64, 1, 1}, GridKnown: [3]bool{true, false, false},
		Params:  map[string]int64{"width": 1000},
		NonNull: map[string]int64{"a": 1, "moved": 1, "shifted": 1},
		Bases:   map[string]int64{"a": 0, "shifted": 8}}
	guessed := &analyzer.LaunchConfig{BlockSource: launch.FromDefault, Block: analyzer.Dim3{256, 1, 1}, Params: map[string]int64{}, NonNull: map[string]int64{}, Bases: map[string]int64{}}
	base := func(of string) *symbolic.Var { return &symbolic.Var{Kind: symbolic.KindBase, Of: of} }
	param := func(name string) *symbolic.Var {
		v, _ := symbolic.AsVar(symbolic.ParamSym(name))
		return v
	}
	tests := []struct {
		name string
		cfg  *analyzer.LaunchConfig
		v    *symbolic.Var
		want int64
	}{
		{"a pointer passed as allocated", launched, base("a"), symbolic.MaxDivisor},
		{"a pointer passed 8 bytes in", launched, base("shifted"), 8},
		{"a pointer passed an unknown offset in", launched, base("moved"), 1},
		{"a pointer the launch does not follow", launched, base("member"), symbolic.MaxDivisor},
		{"no launch: the allocation's start", guessed, base("a"), symbolic.MaxDivisor},
		{"a parameter the launch gives", launched, param("width"), 8},
		{"a parameter it does not", launched, param("n"), 1},
		{"the launch's block", launched, &symbolic.Var{Kind: symbolic.KindBlockDim, Axis: 0}, 256},
		{"a guessed block", guessed, &symbolic.Var{Kind: symbolic.KindBlockDim, Axis: 0}, 1},
		{"a grid the launch gives", launched, &symbolic.Var{Kind: symbolic.KindGridDim, Axis: 0}, 64},
		{"one it does not", launched, &symbolic.Var{Kind: symbolic.KindGridDim, Axis: 1}, 1},
		{"a thread index", launched, &symbolic.Var{Kind: symbolic.KindThreadIdx}, 1},
	}
	for _, tt := range tests {
		if got := accesses.DivisorFacts(tt.cfg)(tt.v); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
}
