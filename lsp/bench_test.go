package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cudalint/cudalint/internal/gen"
)

// The latency an editor sees: from a didChange to the diagnostics of
// the edited buffer, through the protocol, with the server's caches warm
// from the edits before (the debounce interval is set to nothing).

func benchEdits(b *testing.B, dir, name, src string, wantDiags int, edit func(i int) string) {
	path := writeFile(b, dir, name, src)
	c := newClient(b)
	c.debounce(time.Microsecond)
	c.initialize(nil)
	uri := c.open(path, src)
	if p := c.diagnostics(uri); len(p.Diagnostics) < wantDiags {
		b.Fatalf("%d diagnostics, want at least %d: %+v", len(p.Diagnostics), wantDiags, p.Diagnostics)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []any{map[string]any{"text": edit(i)}}})
		for {
			p := c.diagnostics(uri)
			if p.Version != nil && *p.Version == i+2 {
				break
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/edit")
	c.shutdown()
}

// tenKernels is about 300 lines of ten kernels and their launches.
func tenKernels() string {
	src := gen.KernelDense(9000)
	lines := strings.SplitAfter(src, "\n")
	return strings.Join(lines[:min(len(lines), 300)], "")
}

func BenchmarkEditTenKernels(b *testing.B) {
	src := tenKernels()
	if n := strings.Count(src, "__global__"); n < 10 {
		b.Fatalf("%d kernels", n)
	}
	benchEdits(b, b.TempDir(), "ten.cu", src, 1, func(i int) string {
		// Retype a constant inside the first kernel, as typing does.
		return strings.Replace(src, "int i = ", fmt.Sprintf("int i = %d * 0 + ", i), 1)
	})
}

// templateLibrary writes a header library (140 kB of template kernels
// behind macros, as ggml's are) and returns an instance file including it.
func templateLibrary(b *testing.B, dir string) string {
	var lib strings.Builder
	os.Mkdir(filepath.Join(dir, ".git"), 0o755) // the root: includes may read it all
	lib.WriteString("#pragma once\n#include \"common.h\"\n#define STRIDED(i) ((i) * 32)\n#define DECL_CASE(n, T) template __global__ void k<n, T>(const T *, T *, int);\n")
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&lib, "template <int N, typename T>\n__global__ void k%d(const T *x, T *y, int n) {\n"+
			"    int i = IDX(blockIdx.x, threadIdx.x);\n    if (i < n) { y[i] = SCALE(x[i]) + N * %d; }\n}\n", i, i)
	}
	writeFile(b, dir, "lib.cuh", lib.String())
	writeFile(b, dir, "common.h", "#ifndef COMMON_H\n#define COMMON_H\n#define IDX(b, t) ((b) * blockDim.x + (t))\n"+
		"#ifdef FAST\n#define SCALE(v) (v)\n#else\n#define SCALE(v) (2 * (v))\n#endif\n#endif\n")
	os.Mkdir(filepath.Join(dir, "inst"), 0o755)
	// The strided kernel's finding needs the library's macro: it proves
	// the header was read.
	return "#include \"../lib.cuh\"\n\nDECL_CASE(64, float);\nDECL_CASE(64, double);\n" +
		"__global__ void use(float* a) { a[STRIDED(blockIdx.x * blockDim.x + threadIdx.x)] = 0; }\n"
}

func BenchmarkEditTemplateInstance(b *testing.B) {
	dir := b.TempDir()
	src := templateLibrary(b, dir)
	benchEdits(b, dir, "inst/case.cu", src, 1, func(i int) string {
		return strings.Replace(src, "DECL_CASE(64, double)", fmt.Sprintf("DECL_CASE(%d, double)", 64*(i%50+2)), 1)
	})
}
