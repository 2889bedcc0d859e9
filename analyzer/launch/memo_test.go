package launch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser"
)

// A host function template's instantiations are kept by the memo like
// host functions: an analysis of the same items takes them from it, and
// an edit of a type an instantiation binds interprets it again.
func TestMemoKeepsHostTemplateInstantiations(t *testing.T) {
	const src = `
struct P { float x, y; };
__global__ void k(float* p, int n) { p[threadIdx.x * n] = 0; }
template <typename T> void run(T* v) { k<<<sizeof(T), 128>>>((float*)v, 1); }
int main() {
  P* a;
  run<P>(a);
}`
	memo := NewMemo()
	items := parser.NewItemCache()
	items.Own = true
	analyze := func(src string) (grids []string, reused, interpreted int) {
		f := parser.Parse("h.cu", []byte(src), parser.Config{Items: items})
		files := []*parser.File{f}
		x := memo.Begin(files)
		p := NewProgramIn(files, x)
		x.End()
		for _, l := range p.Launches {
			grids = append(grids, fmt.Sprint(l.Grid[0]))
		}
		reused, interpreted = memo.Last()
		return grids, reused, interpreted
	}
	tests := []struct {
		name                string
		src                 string
		grids               string
		reused, interpreted int // main and run<P>
	}{
		{"first analysis", src, "[8]", 0, 2},
		{"the same items", src, "[8]", 2, 0},
		// main names P too: both run again.
		{"a bound struct's fields edited", strings.Replace(src, "float x, y;", "float x, y, z;", 1), "[12]", 0, 2},
		{"the edit again", strings.Replace(src, "float x, y;", "float x, y, z;", 1), "[12]", 2, 0},
	}
	for _, tt := range tests {
		grids, reused, interpreted := analyze(tt.src)
		if got := fmt.Sprint(grids); got != tt.grids {
			t.Errorf("%s: grids %s, want %s", tt.name, got, tt.grids)
		}
		if reused != tt.reused || interpreted != tt.interpreted {
			t.Errorf("%s: %d host runs reused, %d interpreted; want %d and %d", tt.name, reused, interpreted, tt.reused, tt.interpreted)
		}
	}
}
