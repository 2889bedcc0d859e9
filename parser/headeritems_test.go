package parser

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/cudalint/cudalint/parser/cpp"
)

// A replayed header taken as a list of items parses as reading its
// tokens would: in each context it can be included in (inside a
// namespace, where an includer's typedef changes its meaning, where its
// last item or a namespace it opens is finished by the includer, in the
// middle of an item), and when the list is replayed again.
func TestReplayedHeaderItemsParseAsTokens(t *testing.T) {
	files := map[string]string{
		"h.cuh": "struct Pair { float a, b; };\n__global__ void k(Pair* p) { p[threadIdx.x].a = 0; }\n" +
			"__device__ float f(float x) { return (x) * y; }\n__global__ void q(float* o) { y * w; o[0] = 1; }\n",
		"open.cuh":  "namespace N {\n__device__ int g(int v) { return v + 1; }\n",
		"tail.cuh":  "__device__ int h(int v) { return v; }\nstruct T { int t; }",
		"val.h":     "1 + 2",
		"members.h": "int a;\nint b;\n",
		"a.cu":      "typedef float y;\n#include \"h.cuh\"\n__global__ void m(Pair* p) { p[0].b = f(1); }\n",
		"b.cu":      "int y;\n#include \"h.cuh\"\n",
		"c.cu":      "namespace M {\n#include \"h.cuh\"\n}\n",
		"d.cu":      "#include \"open.cuh\"\n__device__ int in_n() { return 0; }\n}\n__device__ int out_n() { return 1; }\n",
		"e.cu":      "#include \"tail.cuh\"\n t_var;\nint after;\n",
		"f.cu":      "int a = \n#include \"val.h\"\n;\n",
		"g.cu":      "struct S {\n#include \"members.h\"\n};\n",
	}
	read := func(path string) ([]byte, error) {
		if s, ok := files[path]; ok {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("no file %s", path)
	}
	shared := Config{ReadFile: read, Items: NewItemCache(), Headers: cpp.NewHeaderCache()}
	mains := []string{"a.cu", "b.cu", "c.cu", "d.cu", "e.cu", "f.cu", "g.cu"}
	for round := 0; round < 3; round++ { // record, take whole, replay the list
		for _, name := range mains {
			alone := Parse(name, []byte(files[name]), Config{ReadFile: read})
			got := Parse(name, []byte(files[name]), shared)
			for _, c := range []struct {
				what       string
				got, alone any
			}{
				{"functions", got.Funcs, alone.Funcs}, {"structs", got.Structs, alone.Structs},
				{"typedefs", got.Typedefs, alone.Typedefs}, {"globals", got.Globals, alone.Globals},
				{"notes", got.Notes, alone.Notes}, {"includes", got.Includes, alone.Includes},
			} {
				if !reflect.DeepEqual(c.got, c.alone) {
					t.Errorf("round %d, %s: %s differ from a parse without caches:\n got %v\nwant %v", round, name, c.what, c.got, c.alone)
				}
			}
		}
	}
	taken := 0
	for _, m := range shared.Items.headers {
		taken += len(m.parses)
	}
	if taken == 0 {
		t.Errorf("no replayed header was taken as items")
	}
}

// Files that include a header in the same context share its items: the
// list replayed is the one the first file parsed.
func TestReplayedHeaderItemsShared(t *testing.T) {
	files := map[string]string{
		"h.cuh": "__global__ void k(float* p) { p[threadIdx.x] = 0; }\n",
		"a.cu":  "#include \"h.cuh\"\n",
		"b.cu":  "#include \"h.cuh\"\nint b;\n",
		"c.cu":  "#include \"h.cuh\"\nint c;\n",
	}
	read := func(path string) ([]byte, error) { return []byte(files[path]), nil }
	cfg := Config{ReadFile: read, Items: NewItemCache(), Headers: cpp.NewHeaderCache()}
	a := Parse("a.cu", []byte(files["a.cu"]), cfg)
	b := Parse("b.cu", []byte(files["b.cu"]), cfg)
	c := Parse("c.cu", []byte(files["c.cu"]), cfg)
	if len(a.Funcs) != 1 || len(b.Funcs) != 1 || len(c.Funcs) != 1 || a.Funcs[0] != b.Funcs[0] || b.Funcs[0] != c.Funcs[0] {
		t.Fatalf("the header's kernel was not shared: %v %v %v", a.Funcs, b.Funcs, c.Funcs)
	}
	if len(b.Globals) != 1 || b.Globals[0].Declarators[0].Name != "b" {
		t.Errorf("b.cu's own declaration after the header: %v", b.Globals)
	}
}
