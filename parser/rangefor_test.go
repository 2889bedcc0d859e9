package parser

import (
	"slices"
	"testing"
)

// A range-based for keeps the names its header declares, so that the
// body's uses of them are not taken for undeclared names.
func TestRangeForVars(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   []string
	}{
		{"auto i : grid_stride_range(0, n)", []string{"i"}},
		{"const auto& x : xs", []string{"x"}},
		{"int k : ns::range<int>(0, n)", []string{"k"}},
		{"auto [k, v] : pairs", []string{"k", "v"}},
		{"int i = 0; i < n; i++", nil},
	} {
		src := "__global__ void k(float* a, int n) { for (" + tt.header + ") a[0] = 0; }"
		f := Parse("r.cu", []byte(src), Config{})
		if len(f.Funcs) != 1 || f.Funcs[0].Body == nil || len(f.Funcs[0].Body.Stmts) != 1 {
			t.Fatalf("%s: not parsed as one kernel with one statement", tt.header)
		}
		s, ok := f.Funcs[0].Body.Stmts[0].(*For)
		if !ok {
			t.Fatalf("%s: statement %T, want *For", tt.header, f.Funcs[0].Body.Stmts[0])
		}
		if !slices.Equal(s.RangeVars, tt.want) {
			t.Errorf("for (%s): RangeVars %q, want %q", tt.header, s.RangeVars, tt.want)
		}
	}
}
