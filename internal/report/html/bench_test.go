package html

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/internal/gen"
)

// BenchmarkWriteDense1MB writes the page of a megabyte of generated
// kernels: the writer's own cost, the analysis done once before.
func BenchmarkWriteDense1MB(b *testing.B) {
	dir := b.TempDir()
	src := gen.KernelDense(1 << 20)
	if err := os.WriteFile(filepath.Join(dir, "dense.cu"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	rep := driver.Run(driver.Options{Paths: []string{dir}, Root: dir})
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Write(io.Discard, rep, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(rep.Findings)), "findings")
}
