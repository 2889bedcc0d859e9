package parser

import (
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
)

// The front end's share of the pipeline, stage by stage, on the same
// generated files as analyzer's whole-pipeline benchmarks.

func benchStage(b *testing.B, src string, stage func([]byte)) {
	data := []byte(src)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		stage(data)
	}
}

func scanOnly(src []byte) {
	var notes Notes
	scan("bench.cu", src, &notes)
}

func preprocessOnly(src []byte) { Preprocess("bench.cu", src, Config{}) }
func parseOnly(src []byte)      { Parse("bench.cu", src, Config{}) }

func BenchmarkScanDense1MB(b *testing.B) { benchStage(b, gen.KernelDense(1<<20), scanOnly) }
func BenchmarkScanMixed1MB(b *testing.B) { benchStage(b, gen.Mixed(1<<20), scanOnly) }

func BenchmarkPreprocessDense1MB(b *testing.B) {
	benchStage(b, gen.KernelDense(1<<20), preprocessOnly)
}
func BenchmarkPreprocessMixed1MB(b *testing.B) { benchStage(b, gen.Mixed(1<<20), preprocessOnly) }

func BenchmarkParseDense1MB(b *testing.B) { benchStage(b, gen.KernelDense(1<<20), parseOnly) }
func BenchmarkParseMixed1MB(b *testing.B) { benchStage(b, gen.Mixed(1<<20), parseOnly) }
