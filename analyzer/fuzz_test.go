package analyzer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cudalint/cudalint/parser"
)

// FuzzAnalyze: any input is analyzed without panicking, and every
// prediction is either unknown with a reason or a count within what a
// warp request can touch.
func FuzzAnalyze(f *testing.F) {
	f.Add([]byte("__global__ void k(float* a, int n) { for (int i = threadIdx.x; i < n; i += 32) a[i * n] = a[i / 3]; }"))
	f.Add([]byte("__global__ void k(float4* a) { a[threadIdx.x % 3 ? threadIdx.x : -threadIdx.x] = a[1 << threadIdx.x]; }\nvoid h(float4* p) { k<<<0, 0>>>(p); k<<<dim3(1,1,1), dim3(1025)>>>(p); }"))
	f.Add([]byte("struct S { S* next; float v[4]; }; __global__ void k(S* s) { s->next->v[threadIdx.x] = s[threadIdx.x].v[2]; }"))
	files, _ := filepath.Glob("../testdata/*/*.cu")
	for _, path := range files {
		if src, err := os.ReadFile(path); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file := parser.Parse("fuzz.cu", src, parser.Config{ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }})
		r := Analyze([]*parser.File{file}, Options{})
		for _, p := range r.Predictions {
			if !p.Known {
				if p.Reason() == "" {
					t.Fatalf("unknown prediction without a reason: %s", p.Access.Expr)
				}
				continue
			}
			if p.Sectors < 1 || p.Sectors > 64 || p.Ideal > p.Sectors {
				t.Fatalf("%s: %.2f sectors, ideal %.2f", p.Access.Expr, p.Sectors, p.Ideal)
			}
		}
	})
}
