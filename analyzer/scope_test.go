package analyzer

import (
	"testing"

	"github.com/cudalint/cudalint/parser"
)

// Two folders with a kernel of the same name and their own settings:
// each kernel takes the settings of the file that defines it, and the
// command line's override both.
func TestScopedSettings(t *testing.T) {
	const src = `__global__ void k(float* a, int n) { a[threadIdx.x * n] = 0; }`
	files := []*parser.File{
		parser.Parse("a/k.cu", []byte(src), parser.Config{}),
		parser.Parse("b/k.cu", []byte(src), parser.Config{}),
	}
	scope := func(file string) Settings {
		if file == "a/k.cu" {
			return Settings{Blocks: map[string]Dim3{"k": {64, 1, 1}}, Params: map[string]int64{"n": 2}}
		}
		return Settings{Blocks: map[string]Dim3{"k": {128, 1, 1}}, Params: map[string]int64{"k.n": 8}}
	}
	tests := []struct {
		name      string
		opts      Options
		wantBlock map[string]int64
		wantN     map[string]int64
	}{
		{"each folder its own", Options{Scope: scope}, map[string]int64{"a/k.cu": 64, "b/k.cu": 128}, map[string]int64{"a/k.cu": 2, "b/k.cu": 8}},
		{"command line first", Options{Scope: scope, Settings: Settings{Blocks: map[string]Dim3{"k": {32, 1, 1}}, Params: map[string]int64{"n": 4}}},
			map[string]int64{"a/k.cu": 32, "b/k.cu": 32}, map[string]int64{"a/k.cu": 4, "b/k.cu": 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Analyze(files, tt.opts)
			if len(r.Predictions) != 2 {
				t.Fatalf("%d predictions, want 2", len(r.Predictions))
			}
			for _, p := range r.Predictions {
				file := p.Access.Kernel.P.File
				if b := p.Config.Block[0]; b != tt.wantBlock[file] {
					t.Errorf("%s: block %d, want %d", file, b, tt.wantBlock[file])
				}
				if n := p.Config.Params["n"]; n != tt.wantN[file] {
					t.Errorf("%s: n = %d, want %d", file, n, tt.wantN[file])
				}
			}
		})
	}
}

// A template type parameter no launch binds stays unknown: it never takes
// a file-scope name of the same spelling (another program's typedef).
func TestUnboundTypeParameterTakesNoFileScopeName(t *testing.T) {
	files := []*parser.File{
		parser.Parse("a/a.cu", []byte("typedef double T;\n__global__ void other(T* x) { x[threadIdx.x] = 0; }\n"), parser.Config{}),
		parser.Parse("b/b.cu", []byte("template <typename T>\n__global__ void scale(T* a) { a[threadIdx.x] = 0; }\n"), parser.Config{}),
	}
	r := Analyze(files, Options{})
	for _, p := range r.Predictions {
		if p.Access.Kernel.Name == "scale" && p.Access.Type.Size == 8 {
			t.Errorf("scale's T took a.cu's typedef double T: %s is %d bytes", p.Access.Expr, p.Access.Type.Size)
		}
	}
}
