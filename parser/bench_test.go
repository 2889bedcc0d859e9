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

// scanOnly and preprocessOnly read every token as Parse does, one at a
// time, without collecting them.
func scanOnly(src []byte) {
	var notes Notes
	s := newScanner("bench.cu", src, &notes, nil)
	for _, ok := s.next(); ok; _, ok = s.next() {
	}
}

func preprocessOnly(src []byte) {
	p := newPreprocessor("bench.cu", src, Config{})
	for _, ok := p.nextToken(); ok; _, ok = p.nextToken() {
	}
}
func parseOnly(src []byte) { Parse("bench.cu", src, Config{}) }

func BenchmarkScanDense1MB(b *testing.B) { benchStage(b, gen.KernelDense(1<<20), scanOnly) }
func BenchmarkScanMixed1MB(b *testing.B) { benchStage(b, gen.Mixed(1<<20), scanOnly) }

func BenchmarkPreprocessDense1MB(b *testing.B) {
	benchStage(b, gen.KernelDense(1<<20), preprocessOnly)
}
func BenchmarkPreprocessMixed1MB(b *testing.B) { benchStage(b, gen.Mixed(1<<20), preprocessOnly) }

func BenchmarkParseDense1MB(b *testing.B) { benchStage(b, gen.KernelDense(1<<20), parseOnly) }
func BenchmarkParseMixed1MB(b *testing.B) { benchStage(b, gen.Mixed(1<<20), parseOnly) }
