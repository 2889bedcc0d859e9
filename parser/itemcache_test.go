package parser

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// Files parsed through a shared item cache build what they build alone,
// and a header item is reused only where its tokens and context match:
// an includer's macro or typedef that changes the header's meaning
// changes the key.
func TestItemCacheSharesOnlyIdenticalItems(t *testing.T) {
	files := map[string]string{
		"h.cuh": "struct Pair { ELEM a, b; };\n__global__ void k(Pair* p) { p[threadIdx.x].a = 0; }\n" +
			"__device__ float f(float x) { return (x) * y; }\n",
		"a.cu": "#define ELEM float\ntypedef float y;\n#include \"h.cuh\"\n",
		"b.cu": "#define ELEM float\ntypedef float y;\n#include \"h.cuh\"\n",
		"c.cu": "#define ELEM double\nint y;\n#include \"h.cuh\"\n",
	}
	read := func(path string) ([]byte, error) {
		if s, ok := files[path]; ok {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("no file %s", path)
	}
	cache := NewItemCache()
	for _, name := range []string{"a.cu", "b.cu", "c.cu"} {
		alone := Parse(name, []byte(files[name]), Config{ReadFile: read})
		shared := Parse(name, []byte(files[name]), Config{ReadFile: read, Items: cache})
		if !reflect.DeepEqual(alone.Funcs, shared.Funcs) || !reflect.DeepEqual(alone.Structs, shared.Structs) ||
			!reflect.DeepEqual(alone.Notes, shared.Notes) {
			t.Errorf("%s: parsed through the cache differs from parsed alone", name)
		}
	}
	a := Parse("a.cu", []byte(files["a.cu"]), Config{ReadFile: read, Items: cache})
	b := Parse("b.cu", []byte(files["b.cu"]), Config{ReadFile: read, Items: cache})
	c := Parse("c.cu", []byte(files["c.cu"]), Config{ReadFile: read, Items: cache})
	if a.Funcs[0] != b.Funcs[0] {
		t.Errorf("identical header items were parsed twice")
	}
	if a.Structs[0] == c.Structs[0] || a.Funcs[1] == c.Funcs[1] {
		t.Errorf("a header item was shared between files where a macro or a type name gives it another meaning")
	}
	if got := c.Structs[0].Fields[0].Type.Words; !reflect.DeepEqual(got, []string{"double"}) {
		t.Errorf("c.cu's Pair has %v fields, want double", got)
	}
}

// The array a file read its items into goes back to the cache cleared,
// however large the item that grew it (nothing of one file's text stays
// reachable from it), and the next file reads into it again.
func TestItemCacheLendsClearedItemArrays(t *testing.T) {
	big := "__global__ void k(float* a) {\n" + strings.Repeat("a[0] = a[1] + a[2];\n", 300) + "}\n"
	cache := NewItemCache()
	first := Parse("a.cu", []byte(big+"int x;\n"), Config{Items: cache})
	if len(first.Funcs) != 1 || len(first.Globals) != 1 {
		t.Fatalf("parsed %d functions and %d globals, want 1 and 1", len(first.Funcs), len(first.Globals))
	}
	if len(cache.spare) != 1 {
		t.Fatalf("the cache keeps %d arrays after a file, want 1", len(cache.spare))
	}
	lent := cache.spare[0]
	if cap(lent) < 300*12 {
		t.Fatalf("the array kept holds %d tokens, less than the function read into it", cap(lent))
	}
	for i, tok := range lent[:cap(lent)] {
		if tok != (Token{}) {
			t.Fatalf("token %d of the array kept is %q, want it cleared", i, tok.Text)
		}
	}
	second := Parse("b.cu", []byte("int y;\n"+big), Config{Items: cache})
	if len(second.Funcs) != 1 || len(cache.spare) != 1 || cap(cache.spare[0]) != cap(lent) {
		t.Errorf("the second file did not read into the array the first one left")
	}
}

// Files that parse one header at the same time still share its items:
// the second waits for the first's parse (claim) instead of making its
// own copy, so a function is one object in every file of the run. The
// analysis matches host function templates and their instantiations by
// identity, and two copies made which one a launch named rest on timing.
func TestItemCacheSharesItemsParsedAtOnce(t *testing.T) {
	const header = "template <typename T> void launch_%d(T* p) { k<<<1, 32>>>(p); }\n"
	var hb strings.Builder
	for i := range 200 {
		fmt.Fprintf(&hb, header, i)
	}
	files := map[string]string{"h.h": "__global__ void k(float* p) { p[0] = 1; }\n" + hb.String()}
	const includers = 8
	for i := range includers {
		files[fmt.Sprintf("f%d.cu", i)] = "#include \"h.h\"\n"
	}
	read := func(path string) ([]byte, error) {
		if s, ok := files[path]; ok {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("no file %s", path)
	}
	for round := range 20 {
		cache := NewItemCache()
		parsed := make([]*File, includers)
		var wg sync.WaitGroup
		for i := range includers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := fmt.Sprintf("f%d.cu", i)
				parsed[i] = Parse(name, []byte(files[name]), Config{ReadFile: read, Items: cache})
			}()
		}
		wg.Wait()
		for i, f := range parsed[1:] {
			if len(f.Funcs) != len(parsed[0].Funcs) {
				t.Fatalf("round %d: file %d has %d functions, file 0 %d", round, i+1, len(f.Funcs), len(parsed[0].Funcs))
			}
			for j := range f.Funcs {
				if f.Funcs[j] != parsed[0].Funcs[j] {
					t.Fatalf("round %d: file %d's %s is another copy than file 0's", round, i+1, f.Funcs[j].Name)
				}
			}
		}
	}
}
