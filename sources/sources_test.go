package sources

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser"
)

func TestQuotedIncludes(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`#include "a.cuh"`, []string{"a.cuh"}},
		{"  #  include\t\"dir/b.h\"\nint x;\n#include <stdio.h>\n", []string{"dir/b.h", "stdio.h"}},
		{"x = 1; #include \"not.h\"\n", nil},                        // not first on its line
		{"#define H \"h.h\"\n#include H\n#includex \"y.h\"\n", nil}, // computed; not an include
		{"#include \"\"\n#include \"open\n\"\n", nil},
		{"a\r\n#include \"crlf.h\"\r\n", []string{"crlf.h"}},
		{"#include \"one.h\"\n\t#include \"two.h\"", []string{"one.h", "two.h"}},
	}
	for _, tt := range tests {
		if got := quotedIncludes([]byte(tt.src)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("quotedIncludes(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// A header's definitions stand in the first file that includes it; every
// includer's Unit still holds its whole translation unit, the header as
// its own macros made it.
func TestUnitKeepsWhatTheFileGaveUp(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"common.h":  "#ifdef WIDE\ntypedef double real;\n#else\ntypedef float real;\n#endif\n__device__ real get(const real* p, int i) { return p[i]; }\n",
		"a.cu":      "#define WIDE\n#include \"common.h\"\n__global__ void ka(real* p) { p[0] = get(p, 0); }\n",
		"b.cu":      "#include \"common.h\"\n__global__ void kb(real* p) { p[0] = get(p, 0); }\n",
		"c.cu":      "#define WIDE\n#include \"common.h\"\n__global__ void kc(real* p) { p[0] = get(p, 0); }\n",
		"d.cu":      "__global__ void kd(float* p) { p[0] = 1; }\n",
	})
	var paths []string
	for _, n := range []string{"a.cu", "b.cu", "c.cu", "d.cu"} {
		paths = append(paths, filepath.Join(dir, n))
	}
	set, errs := Load(paths, parser.Config{Root: dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	describe := func(d parser.Decls) string {
		var parts []string
		for _, td := range d.Typedefs {
			parts = append(parts, td.Name+"="+strings.Join(td.Type.Words, " "))
		}
		for _, fn := range d.Funcs {
			parts = append(parts, fn.Name)
		}
		return strings.Join(parts, " ")
	}
	want := map[string][2]string{ // own share; whole unit ("" when the same)
		"a.cu": {"real=double get ka", ""},
		"b.cu": {"real=float kb", "real=float get kb"},
		"c.cu": {"kc", "real=double get kc"},
		"d.cu": {"kd", ""},
	}
	for _, f := range set.Files {
		own := describe(parser.Decls{Funcs: f.Funcs, Typedefs: f.Typedefs})
		unit := ""
		if f.Unit != nil {
			unit = describe(*f.Unit)
		}
		if w := want[filepath.Base(f.Path)]; own != w[0] || unit != w[1] {
			t.Errorf("%s: own %q, unit %q; want %q, %q", filepath.Base(f.Path), own, unit, w[0], w[1])
		}
	}
}
