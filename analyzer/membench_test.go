package analyzer

import (
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
	"github.com/cudalint/cudalint/parser"
)

// liveHeap is the heap a full collection leaves.
func liveHeap() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// BenchmarkLiveDense1MB measures what a run keeps, per input byte, of a
// 1 MB kernel-dense file: tree-B/B the syntax tree after parsing, live-B/B
// the tree and the analysis's result (every kernel's accesses and
// predictions) after it. A process's peak is about twice what it keeps
// (the collector's headroom), so the goal of a peak under 10x the
// input needs live-B/B under about 5. AnalyzeEach lets a caller keep
// only what it derives from each part (driver's BenchmarkReportKeptDense
// measures what that leaves); the trees, built first, are tree-B/B.
func BenchmarkLiveDense1MB(b *testing.B) {
	src := []byte(gen.KernelDense(1 << 20))
	b.SetBytes(int64(len(src)))
	var tree, live int64
	for i := 0; i < b.N; i++ {
		base := liveHeap()
		f := parser.Parse("dense.cu", src, parser.Config{})
		tree = liveHeap() - base
		res := Analyze([]*parser.File{f}, Options{})
		live = liveHeap() - base
		runtime.KeepAlive(f)
		runtime.KeepAlive(res)
	}
	b.ReportMetric(float64(tree)/float64(len(src)), "tree-B/B")
	b.ReportMetric(float64(live)/float64(len(src)), "live-B/B")
}
