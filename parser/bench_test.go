package parser

import (
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
	"github.com/cudalint/cudalint/parser/cpp"
	"github.com/cudalint/cudalint/parser/lex"
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
	s := lex.NewScanner("bench.cu", src, &notes, nil)
	for _, ok := s.Next(); ok; _, ok = s.Next() {
	}
}

func preprocessOnly(src []byte) {
	p := cpp.NewPreprocessor("bench.cu", src, cpp.Config{})
	for _, ok := p.NextToken(); ok; _, ok = p.NextToken() {
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

// benchTemplateProject parses a generated template-instance project (60
// files of 80 bytes, each including a 140 kB header library) and reports
// the time per file, with or without a HeaderCache shared by the files.
func benchTemplateProject(b *testing.B, memo bool) {
	fs, mains := gen.TemplateProject(60, 600)
	b.SetBytes(int64(len(fs["lib.cuh"]) * len(mains)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		cfg := Config{ReadFile: fs.Read, Items: NewItemCache()}
		if memo {
			cfg.Headers = cpp.NewHeaderCache()
		}
		for _, m := range mains {
			Parse(m, []byte(fs[m]), cfg)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(mains)), "µs/file")
}

func BenchmarkTemplateProjectNoHeaderCache(b *testing.B) { benchTemplateProject(b, false) }
func BenchmarkTemplateProjectHeaderCache(b *testing.B)   { benchTemplateProject(b, true) }
