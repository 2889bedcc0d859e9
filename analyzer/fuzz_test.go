package analyzer

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cudalint/cudalint/parser"
)

// guardSeeds are guard shapes that mix what the warp model evaluates with
// what it cannot (parameters no launch gives, loaded values): &&, ||, ?:,
// nesting, loops, early returns. Such guards once indexed the model's
// value array past its end.
var guardSeeds = []string{
	"__global__ void k(float *A, int k) { int j = blockIdx.x * blockDim.x + threadIdx.x; if (j > k && j < 2048) A[j] = 0; }",
	"__global__ void k(float *A, int k) { int j = blockIdx.x * blockDim.x + threadIdx.x; if (j < 2048 && j > k) A[j] = 0; }",
	"__global__ void k(float *A, int n) { int j = threadIdx.x; if (j < 16 || j >= n) A[j * 2] = 0; }",
	"__global__ void k(float *A, int n) { int j = threadIdx.x; if (n > 0 ? j < n : j < 48) A[j] = A[j + n]; }",
	"__global__ void k(float *A, int n) { int j = threadIdx.x; if (j < (j < 64 ? n : 2048)) A[j] = 0; }",
	"__global__ void k(float *A, int n, int m) { int j = threadIdx.x + blockIdx.x * 32; if (j < n) { if (j > m && j % 2 == 0) A[j / 2] = 0; } }",
	"__global__ void k(float *A, const int *mask, int n) { int i = threadIdx.x; if (mask[i] && i < n) A[i] = 1; }",
	"__global__ void k(float *A, const int *mask, int n) { int i = threadIdx.x; if (i < 40 && mask[i] > n) A[i] = 1; }",
	"__global__ void k(float *A, const int *mask, int n) { int i = threadIdx.x; if (i >= 48 || mask[i] == n) return; A[i] = 1; }",
	"__global__ void k(float *A, int n) { int j = threadIdx.x; for (int i = 0; i < 4; i++) if (j + i > n && i < 2) A[j * 4 + i] = 0; }",
	"__global__ void k(float *A, int n) { int j = threadIdx.x; for (int i = j; i < n; i += blockDim.x) { if (i > n / 2 && i < 2048) A[i] = A[i - 1]; } }",
	"__global__ void k(float *A, int n) { int j = threadIdx.x; if (j > n && j < 48) return; if (!(j < n || j > 8)) return; A[j] = 0; }",
	"__global__ void k(float *A, int n) { int j = threadIdx.x; bool ok = j > n && (j & 3) == 0; if (ok ? j < 100 : n > 3) A[j] = 0; }\nvoid h(float *p, int n) { k<<<4, 128>>>(p, n); }",
	"__global__ void k(float *A, int *B, int n) { int j = blockIdx.x * blockDim.x + threadIdx.x; if (j < n && B[j] > 0 && j / B[j] < 3) A[j] = B[j] ? 1 : 0; }",
	"__global__ void k(float *A, int n) { int j = threadIdx.x; if (j != 0 && n / j > 2 || j == 0) A[j] = 0; }",
}

// FuzzAnalyze: any input is analyzed without an internal error (the
// analysis recovers from its own panics, so a panic would otherwise go
// unnoticed), and every prediction is either unknown with a reason or a
// count within what a warp request can touch.
func FuzzAnalyze(f *testing.F) {
	f.Add([]byte("__global__ void k(float* a, int n) { for (int i = threadIdx.x; i < n; i += 32) a[i * n] = a[i / 3]; }"))
	f.Add([]byte("__global__ void k(float4* a) { a[threadIdx.x % 3 ? threadIdx.x : -threadIdx.x] = a[1 << threadIdx.x]; }\nvoid h(float4* p) { k<<<0, 0>>>(p); k<<<dim3(1,1,1), dim3(1025)>>>(p); }"))
	f.Add([]byte("struct S { S* next; float v[4]; }; __global__ void k(S* s) { s->next->v[threadIdx.x] = s[threadIdx.x].v[2]; }"))
	for _, s := range guardSeeds {
		f.Add([]byte(s))
	}
	for _, glob := range []string{"testdata/*.cu", "../testdata/*/*.cu", "../examples/*.cu", "../rules/*/testdata/*.cu"} {
		files, _ := filepath.Glob(glob)
		for _, path := range files {
			if src, err := os.ReadFile(path); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		r := analyzeWithin(t, src, fuzzTimeLimit)
		for _, e := range r.InternalErrors {
			t.Fatal(e)
		}
		checkPredictions(t, r)
	})
}

// fuzzTimeLimit bounds the analysis of one fuzz input: a few hundred
// bytes of source take milliseconds, and the fuzzer does not report an
// input that hangs (it only stops making progress).
const fuzzTimeLimit = 20 * time.Second

// analyzeWithin parses and analyzes src, failing when that takes longer
// than limit (the analysis is left running: the test has failed).
func analyzeWithin(t *testing.T, src []byte, limit time.Duration) *Result {
	done := make(chan *Result, 1)
	go func() {
		file := parser.Parse("fuzz.cu", src, parser.Config{ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }})
		done <- Analyze([]*parser.File{file}, Options{})
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(limit):
		t.Fatalf("analysis took over %v", limit)
		return nil
	}
}

func checkPredictions(t *testing.T, r *Result) {
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
}
