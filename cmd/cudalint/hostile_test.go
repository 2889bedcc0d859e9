package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/sources"
)

// Hostile inputs: each is analyzed to the end with a clear note, and the
// files beside it still are.
func TestHostileInputs(t *testing.T) {
	kernel := "__global__ void ok(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n"
	files := map[string]string{
		"parens.cu":   "__global__ void p(float* a) { a[0] = " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "; a[1] = 2; }\n",
		"braces.cu":   "__global__ void b(float* a) { " + strings.Repeat("{", 100000) + strings.Repeat("}", 100000) + " a[2] = 3; }\n",
		"longline.cu": "__global__ void l(float* a) { a[threadIdx.x] = 0" + strings.Repeat(" + 1", 250000) + "; }\n",
		"big.cu":      strings.Repeat("// padding padding padding padding padding padding padding padding padding\n", 20<<20/76) + kernel,
		"macros.cu":   "#define A A A\n#define B(x) B(x) x\n" + "__global__ void m(float* a) { a[threadIdx.x] = B(A); }\n",
		"ok.cu":       kernel,
	}
	doc := runAccesses(t, "--accesses", "--format", "json", writeFiles(t, files))
	kernels := map[string]bool{}
	for _, a := range doc.Accesses {
		kernels[a.Kernel] = true
	}
	for _, k := range []string{"p", "b", "l", "ok"} {
		if !kernels[k] {
			t.Errorf("kernel %s lost", k)
		}
	}
	noted := map[string]bool{}
	for _, n := range doc.Notes {
		if n.Line < 1 || n.File == "" {
			t.Errorf("note without a position: %+v", n)
		}
		noted[filepath.Base(n.File)] = true
	}
	// macros.cu: B(A) expands to B(A A) A A by the hide-set rules: not C,
	// so its statement is skipped with a note, and the run goes on.
	for _, f := range []string{"parens.cu", "braces.cu", "macros.cu"} {
		if !noted[f] {
			t.Errorf("no note for %s", f)
		}
	}
}

// A symbolic link loop is not followed; a file that vanishes between
// finding and reading is an error naming it, and the rest goes on.
func TestLinksAndVanishingFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k/a.cu": copyKernel, "k/b.cu": copyKernel})
	if err := os.Symlink(filepath.Join(dir, "k"), filepath.Join(dir, "k", "loop")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	found, errs := sources.Find([]string{dir})
	if len(errs) != 0 || len(found) != 2 {
		t.Fatalf("found %v, errors %v", found, errs)
	}
	os.Remove(found[1])
	set, loadErrs := sources.Load(found, parser.Config{})
	if len(set.Files) != 1 || len(loadErrs) != 1 || !strings.Contains(loadErrs[0].Error(), found[1]) {
		t.Errorf("files %d, errors %v", len(set.Files), loadErrs)
	}
}

// The same bytes for any GOMAXPROCS and file order.
func TestDeterministicAcrossProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var outs []string
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		_, out, _ := runCLI("--format", "json", "--exit-zero", filepath.Join("..", "..", "examples"))
		outs = append(outs, out)
		_, out, _ = runCLI("--format", "json", "--exit-zero",
			filepath.Join("..", "..", "examples", "vectorized.cu"), filepath.Join("..", "..", "examples", "reduce.cu"),
			filepath.Join("..", "..", "examples", "image.cu"),
			filepath.Join("..", "..", "examples", "matmul.cu"), filepath.Join("..", "..", "examples", "particles.cu"),
			filepath.Join("..", "..", "examples", "transpose.cu"))
		outs = append(outs, out)
	}
	for _, o := range outs[1:] {
		if o != outs[0] {
			t.Fatal("output depends on GOMAXPROCS or on the order of the paths")
		}
	}
}
