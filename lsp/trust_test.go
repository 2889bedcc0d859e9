package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A budget spent in a header the open file includes is a diagnostic of
// that file at its #include, not an empty list.
func TestSpentBudgetIsADiagnostic(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	writeFile(t, dir, "h.cuh", "#include \"h.cuh\"\n#include \"h.cuh\"\n")
	src := "// k\n#include \"h.cuh\"\n__global__ void k(float* a) { a[threadIdx.x] = 0; }\n"
	path := writeFile(t, dir, "k.cu", src)
	c := newClient(t)
	c.initialize(nil)
	uri := c.open(path, src)
	p := c.diagnostics(uri)
	d := byCode(p, "budget")
	if d == nil || d.Range.Start.Line != 1 || d.Severity != SeverityWarning || !strings.Contains(d.Message, "not analyzed whole") {
		t.Fatalf("diagnostics %+v: want a budget warning at line 2", p.Diagnostics)
	}
	c.shutdown()
}
