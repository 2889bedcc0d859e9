package driver

import (
	"path/filepath"
	"strings"
	"testing"
)

// A budget spent inside a header is said for the file named alone (a
// pre-commit hook, an editor), at its #include of that header: the file
// is not analyzed whole, which "no findings" must not hide.
func TestSpentBudgetInAHeaderIsTheNamedFiles(t *testing.T) {
	cycle := "#include \"h.cuh\"\n#include \"h.cuh\"\n"
	kernel := "__global__ void k(float* p) { p[threadIdx.x] = 0; }\n"
	tests := []struct {
		name  string
		files map[string]string
		line  int // of the note in k.cu; 0: none
	}{
		{"direct", map[string]string{"h.cuh": cycle, "k.cu": "// k\n#include \"h.cuh\"\n" + kernel}, 2},
		{"through another header", map[string]string{"h.cuh": cycle, "a.cuh": "#include \"h.cuh\"\n", "k.cu": "#include <cstdio>\n  #include \"a.cuh\"\n" + kernel}, 2},
		{"first include when none names it", map[string]string{"h.cuh": cycle, "a.cuh": "#include \"h.cuh\"\n", "k.cu": "#include \"b.cuh\"\n#include \"a.cuh\"\n" + kernel, "b.cuh": "\n"}, 1},
		{"no budget spent", map[string]string{"h.cuh": "\n", "k.cu": "#include \"h.cuh\"\n" + kernel}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.files[".git/HEAD"] = "x\n"
			write(t, dir, tt.files)
			t.Chdir(dir)
			rep := Run(Options{Paths: []string{"k.cu"}})
			line := 0
			for _, n := range rep.Notes {
				if filepath.Base(n.Pos.File) == "k.cu" && BudgetSpent(n.Kind) {
					line = int(n.Pos.Line)
					if !strings.Contains(n.Msg, "h.cuh:") || !strings.Contains(n.Msg, "not analyzed whole") {
						t.Errorf("note %q does not say where nor what it means", n.Msg)
					}
				}
			}
			if line != tt.line {
				t.Errorf("budget note at k.cu:%d, want %d; notes %v", line, tt.line, rep.Notes)
			}
		})
	}
}
