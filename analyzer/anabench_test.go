package analyzer

import (
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
	"github.com/cudalint/cudalint/parser"
)

// BenchmarkAnalyzeDense1MB is the analysis alone (interpretation and
// prediction), on a file parsed once.
func BenchmarkAnalyzeDense1MB(b *testing.B) {
	src := []byte(gen.KernelDense(1 << 20))
	f := parser.Parse("dense.cu", src, parser.Config{})
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Analyze([]*parser.File{f}, Options{})
	}
}
