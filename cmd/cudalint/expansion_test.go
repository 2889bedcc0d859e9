package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A 94-byte file whose macro doubles its argument, nested 22 deep, stops
// at the expansion budget with a note naming the file and the invocation,
// and the file beside it is analyzed as if the other were not there.
func TestDoublingMacroStopsAtTheBudget(t *testing.T) {
	bomb := "#define D(x) x x\nint v = " + strings.Repeat("D(", 22) + "1" + strings.Repeat(")", 22) + ";\n"
	dir := writeFiles(t, map[string]string{"bomb.cu": bomb, "strided.cu": stridedKernel})
	type doc struct {
		Findings []struct {
			File string `json:"file"`
			Line int    `json:"line"`
			Rule string `json:"rule"`
		} `json:"findings"`
		Notes []struct {
			File    string `json:"file"`
			Line    int    `json:"line"`
			Column  int    `json:"column"`
			Message string `json:"message"`
		} `json:"notes"`
	}
	decode := func(args ...string) doc {
		t.Helper()
		code, out, errs := runCLI(append([]string{"--root", dir, "--format", "json"}, args...)...)
		if code != exitFindings {
			t.Fatalf("exit %d, want %d (findings)\n%s", code, exitFindings, errs)
		}
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("bad JSON: %v", err)
		}
		return d
	}
	both := decode(dir)
	alone := decode(filepath.Join(dir, "strided.cu"))
	var budget []string
	for _, n := range both.Notes {
		if strings.Contains(n.Message, "expansion stopped") {
			if filepath.Base(n.File) != "bomb.cu" || n.Line != 2 || n.Column < 9 {
				t.Errorf("note %+v: want it at the invocation, bomb.cu:2", n)
			}
			budget = append(budget, n.Message)
		}
	}
	if len(budget) != 1 {
		t.Errorf("expansion notes %q, want one", budget)
	}
	if len(both.Findings) == 0 || len(both.Findings) != len(alone.Findings) {
		t.Fatalf("%d findings beside the bomb, %d alone: want the same, at least one", len(both.Findings), len(alone.Findings))
	}
	for i, f := range both.Findings {
		if g := alone.Findings[i]; filepath.Base(f.File) != "strided.cu" || f.Line != g.Line || f.Rule != g.Rule {
			t.Errorf("finding %+v beside the bomb, %+v alone", f, g)
		}
	}
}
