package driver

import (
	"fmt"
	"path/filepath"
	"testing"
)

// A header named alone is analyzed under its includers' launches, once,
// whether it is named relative to the working folder (as the command
// line names it) or absolute (as an editor names it): the includers are
// read under the same spelling, so that their #include names the same
// file.
func TestNamedHeaderSpelling(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"include/kern.cuh": "#pragma once\n__global__ void colstore(float* out) {\n" +
			"    int r = blockIdx.x * blockDim.y + threadIdx.y;\n    out[r * 1024 + threadIdx.x] = 1.0f;\n}\n",
		"src/main.cu": "#include \"../include/kern.cuh\"\nvoid run(float* out, int n) {\n    dim3 block(1, 256);\n" +
			"    colstore<<<n / 256, block>>>(out);\n}\n",
	})
	t.Chdir(dir)
	outcome := func(path string) (string, int) {
		rep := Run(Options{Paths: []string{path}})
		if len(rep.Errors) > 0 {
			t.Fatalf("%s: %v", path, rep.Errors)
		}
		s := ""
		for _, f := range rep.Findings {
			p := rep.Fset.Position(f.Pos)
			s += fmt.Sprintf("%s:%d:%d %s %s\n", filepath.Base(p.Filename), p.Line, p.Column, f.Rule.ID, f.Message)
		}
		kernels := 0
		for _, k := range rep.Result.Analysis.Kernels {
			if k.Func.Name == "colstore" {
				kernels++
			}
		}
		return s, kernels
	}
	rel, relKernels := outcome(filepath.Join("include", "kern.cuh"))
	abs, absKernels := outcome(filepath.Join(dir, "include", "kern.cuh"))
	if rel == "" || rel != abs {
		t.Errorf("named relative:\n%s\nnamed absolute:\n%s", rel, abs)
	}
	if relKernels != 1 || absKernels != 1 {
		t.Errorf("the kernel analyzed %d times named relative, %d named absolute; want once", relKernels, absKernels)
	}
}
