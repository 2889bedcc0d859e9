package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Files are sources by path, for tests that serve includes from memory.
type Files map[string]string

// Read returns the file at path (cleaned), or os.ErrNotExist.
func (fs Files) Read(path string) ([]byte, error) {
	if s, ok := fs[filepath.Clean(path)]; ok {
		return []byte(s), nil
	}
	return nil, os.ErrNotExist
}

// TemplateProject is a library of headers and many tiny files that each
// include it and instantiate a few cases, as ggml's template instances do.
func TemplateProject(files, funcs int) (Files, []string) {
	fs := Files{}
	var lib strings.Builder
	lib.WriteString("#pragma once\n#include \"common.h\"\n#define DECL_CASE(n, T) template __global__ void k<n, T>(const T *, T *, int);\n")
	for i := 0; i < funcs; i++ {
		fmt.Fprintf(&lib, "template <int N, typename T>\n__global__ void k%d(const T *x, T *y, int n) {\n"+
			"    int i = IDX(blockIdx.x, threadIdx.x);\n    if (i < n) { y[i] = SCALE(x[i]) + N * %d; }\n}\n", i, i)
	}
	fs["lib.cuh"] = lib.String()
	fs["common.h"] = "#ifndef COMMON_H\n#define COMMON_H\n#define IDX(b, t) ((b) * blockDim.x + (t))\n" +
		"#ifdef FAST\n#define SCALE(v) (v)\n#else\n#define SCALE(v) (2 * (v))\n#endif\n#endif\n"
	var mains []string
	for i := 0; i < files; i++ {
		name := fmt.Sprintf("inst/case%03d.cu", i)
		fs[name] = fmt.Sprintf("#include \"../lib.cuh\"\n\nDECL_CASE(%d, float);\nDECL_CASE(%d, double);\n", 64*i, 64*i)
		if i%3 == 0 {
			fs[name] = "#define FAST\n" + fs[name]
		}
		mains = append(mains, name)
	}
	return fs, mains
}

// HostileSeeds are small inputs that have broken parsers before.
var HostileSeeds = []string{
	"", "#", "#define", "#define F(", "#if", "#else\n#endif", "#include \"", "\"", "'", "/*", "\\",
	"__global__ void k(", "__global__ void k() {", "}}}}", "((((", "a[[[", "k<<<", "k<<<1,2>>>(",
	"template<", "template<typename T", "struct {", "typedef", "namespace {", "extern \"C\" {",
	"#define A A B\nA", "#define F(x) F(x)\nF(1)", "#define S(x) #x\nS(", "#define P(a,b) a##b\nP(,)",
	"\xff\xfe\x00\x01", "\xef\xbb\xbf", "int a\r\n= 1;\r\n", "a ? b : c ? d", "a ? b", "x = (int)(float*)",
	"__global__ void k(float* a) { for (;;) { for (;;) { a[0] = 1; } } }",
	"__global__ void k(float* a) { do do a[0]=1; while(0); while(1); }",
	"__global__ void k(float* a) { switch (1) case 1: a[0] = 0; }",
	"__global__ void k(float* a) { if (1) else a[0] = 0; }",
}

// FuzzSeeds are the fuzz targets' seeds: HostileSeeds, then the CUDA files
// of the repository whose root is root (its testdata and examples).
func FuzzSeeds(root string) [][]byte {
	var out [][]byte
	for _, s := range HostileSeeds {
		out = append(out, []byte(s))
	}
	files, _ := filepath.Glob(filepath.Join(root, "testdata/*/*.cu"))
	more, _ := filepath.Glob(filepath.Join(root, "examples/*.cu"))
	for _, path := range append(files, more...) {
		if src, err := os.ReadFile(path); err == nil {
			out = append(out, src)
		}
	}
	return out
}
