package parser

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
	"github.com/cudalint/cudalint/parser/cpp"
)

// Parse reads a file item by item; ParseTokens parses the whole token
// stream at once. Both must build the same file, whatever the item
// boundaries: namespaces, extern blocks, structs, initializers, functions
// returning structs, stray and unmatched brackets.
func TestChunkedParseMatchesWhole(t *testing.T) {
	inputs := map[string]string{
		"namespaces.cu": `namespace a { namespace b::c { __global__ void k1(float* p) { p[threadIdx.x] = 1; } }
namespace { __global__ void k2(float* p) { p[threadIdx.x] = 2; } } }
namespace alias = a::b; using namespace a;
extern "C" { __global__ void k3(int* q) { q[threadIdx.x] = 3; } }
extern "C" __global__ void k4(int* q) { q[0] = 4; }
extern int counter;`,
		"aggregates.cu": `struct S { float x, y; __device__ float sum() const { return x + y; } } s0;
typedef struct { union { int i; float f; }; int tag; } U;
struct S make() { S s; return s; }
enum class E : int { A, B };
int table[] = {1, 2, 3}; auto sq = [](int v) { return v * v; };
template <class T> struct W { T v; };
template <class T> __global__ void k5(T* p) { p[threadIdx.x] = T(); }
void host() { k5<float><<<1, 32>>>(nullptr); } ;;`,
		"broken.cu": `__global__ void k6(float* p) { p[threadIdx.x = 1; }
} } ) __global__ void k7(float* p) { p[threadIdx.x] = 7; }
void open( { int x;`,
		"dense.cu": gen.KernelDense(20000),
		"mixed.cu": gen.Mixed(20000),
	}
	for _, dir := range []string{"../examples", "../testdata/truth"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.cu"))
		for _, path := range paths {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			inputs[filepath.Base(path)] = string(src)
		}
	}
	for name, src := range inputs {
		t.Run(name, func(t *testing.T) {
			chunked := Parse(name, []byte(src), Config{})
			pp := cpp.Preprocess(name, []byte(src), cpp.Config{})
			whole := ParseTokens(name, pp.Tokens)
			whole.Notes = append(pp.Notes, whole.Notes...)
			for _, f := range []*File{chunked, whole} {
				f.Includes, f.Directives, f.Sources, f.Bytes = nil, nil, nil, 0
			}
			if len(chunked.Funcs) != len(whole.Funcs) {
				t.Fatalf("%d functions item by item, %d whole", len(chunked.Funcs), len(whole.Funcs))
			}
			for i := range whole.Funcs {
				if !reflect.DeepEqual(chunked.Funcs[i], whole.Funcs[i]) {
					t.Errorf("function %s differs", whole.Funcs[i].Name)
				}
			}
			if !reflect.DeepEqual(chunked.Structs, whole.Structs) || !reflect.DeepEqual(chunked.Typedefs, whole.Typedefs) ||
				!reflect.DeepEqual(chunked.Globals, whole.Globals) {
				t.Errorf("structs, typedefs or globals differ")
			}
			sortNotes(chunked.Notes)
			sortNotes(whole.Notes)
			if !reflect.DeepEqual(chunked.Notes, whole.Notes) {
				t.Errorf("notes differ:\n%v\n%v", chunked.Notes, whole.Notes)
			}
		})
	}
}

// sortNotes orders notes by position: items parsed apart note their
// brackets one item at a time, the whole stream all at once.
func sortNotes(ns Notes) {
	sort.SliceStable(ns, func(i, j int) bool {
		a, b := ns[i].Pos, ns[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Offset < b.Offset
	})
}
