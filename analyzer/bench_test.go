package analyzer

import (
	"os"
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
	"github.com/cudalint/cudalint/parser"
)

func benchPipeline(b *testing.B, name string, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f := parser.Parse(name, src, parser.Config{})
		Analyze([]*parser.File{f}, Options{})
	}
}

// BenchmarkProbes runs the whole pipeline on the measured probe kernels.
func BenchmarkProbes(b *testing.B) {
	src, err := os.ReadFile("../testdata/truth/probes.cu")
	if err != nil {
		b.Fatal(err)
	}
	benchPipeline(b, "probes.cu", src)
}

// BenchmarkKernelDense1MB is issue 2's speed goal: a 1 MB file of kernels.
func BenchmarkKernelDense1MB(b *testing.B) {
	benchPipeline(b, "dense.cu", []byte(gen.KernelDense(1<<20)))
}

// BenchmarkMixed1MB is a file where host C++ dominates.
func BenchmarkMixed1MB(b *testing.B) {
	benchPipeline(b, "mixed.cu", []byte(gen.Mixed(1<<20)))
}
