package accesses

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
)

// The loads nvcc emits, per kernel, are the loads the model does not
// take for reuses of an earlier one: counted against the LDG
// instructions of testdata/truth/cse/cse.sass (nvcc 13.0, sm_90), where
// a[3*i + j] is read three times each, with stores or atomics between the
// reads or not, through plain or __restrict__ pointers.
func TestReusedLoadsMatchSASS(t *testing.T) {
	const dir = "../../testdata/truth/cse/"
	src, err := os.ReadFile(dir + "cse.cu")
	if err != nil {
		t.Fatal(err)
	}
	want := ldgPerKernel(t, dir+"cse.sass")
	if len(want) != 5 {
		t.Fatalf("%d kernels in cse.sass, want 5", len(want))
	}
	f := parser.Parse("cse.cu", src, parser.Config{})
	r := &Result{Analysis: analyzer.Analyze([]*parser.File{f}, analyzer.Options{})}
	r.computeFacts()
	got := map[string]int{}
	for _, p := range r.Analysis.Predictions {
		if a := p.Access; a.Op == interp.Load && a.Space == interp.Global && r.Reused(p) == nil {
			got[a.Kernel.Name]++
		}
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d loads emitted, SASS has %d LDG", k, got[k], n)
		}
	}
}

// ldgPerKernel counts the LDG instructions of each function of a
// cuobjdump -sass listing, by the kernel's name in its mangled one.
func ldgPerKernel(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	kernel := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "Function : _Z"); i >= 0 {
			name := line[i+len("Function : _Z"):]
			n := 0
			for n < len(name) && name[n] >= '0' && name[n] <= '9' {
				n++
			}
			size := 0
			for _, c := range name[:n] {
				size = size*10 + int(c-'0')
			}
			kernel = name[n : n+size]
			out[kernel] = 0
			continue
		}
		if kernel != "" && strings.Contains(line, " LDG") {
			out[kernel]++
		}
	}
	return out
}
