package driver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
)

// findingsText is everything a printer reads of a report's findings: rule,
// severity, position, message, related places, fixes, figures, and the
// prediction's kernel and launch.
func findingsText(rep *Report) string {
	var b strings.Builder
	for _, f := range rep.Findings {
		fmt.Fprintf(&b, "%s %v %s %s: %s\n", f.Rule.ID, f.Severity, rep.Fset.Position(f.Pos), rep.Fset.Position(f.End), f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(&b, "  related %s: %s\n", rep.Fset.Position(r.Pos), r.Message)
		}
		for _, fix := range f.SuggestedFixes {
			fmt.Fprintf(&b, "  fix %s, %d edits\n", fix.Message, len(fix.TextEdits))
		}
		fig, err := json.Marshal(f.Figures)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(&b, "  figures %s\n", fig)
		if p := f.Prediction; p != nil {
			fmt.Fprintf(&b, "  kernel %s, launch %v, block %v\n", p.Access.Kernel.Name, p.Config.At, p.Config.Block)
		}
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(&b, "warning %s\n", w)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note %v\n", n)
	}
	for _, e := range rep.Errors {
		fmt.Fprintf(&b, "error %v\n", e)
	}
	return b.String()
}

// escapeLoop is a loop of arithmetic alone (TestComputeLoopMakesInfo).
const escapeLoop = "float x = 0, y = 0; int i = 0;\n    do { float xx = x * x - y * y + cx; y = 2.0f * x * y + cy; x = xx; i = i + 1; float r = x * x + y * y; if (r > 4.0f * 1.0f + 0.0f * r) break; x = x * 1.0f + 0.0f; y = y * 1.0f + 0.0f; } while (i < n);\n    "

// readLater are the kernels of TestStreamReportsAsWhole whose bodies a
// streamed run keeps: what the demotions and the summary read.
var readLater = map[string]bool{"frees": true, "escapes": true, "skips": true}

// A streamed run reports what a whole one reports, finding for finding,
// with the same warnings, notes and errors: the examples, a project whose
// kernels are launched from another file, suppressions (an unused ignore
// is only known once every part has run), and enough generated kernels to
// make many parts. A streamed run drops each kernel's body once its part
// is done, but for the kernels whose bodies are read later.
func TestStreamReportsAsWhole(t *testing.T) {
	project := t.TempDir()
	write(t, project, map[string]string{
		"kernels.cu": strided + "// cudalint:ignore aos-field suppresses nothing\n" + gen.KernelDense(64<<10),
		"host.cu":    "__global__ void k(const float* in, float* out);\nvoid run(float* a, float* b) { k<<<64, 32>>>(a, b); }\n",
		"quiet.cu":   strings.Replace(strided, "in[i * 4];", "in[i * 4]; // cudalint:ignore strided-access by design", 1),
		// Kernels whose bodies are read after their part: an allocator
		// call, a compute loop, a statement the parser skips.
		"later.cu": "__global__ void frees(float** ps, float* out) {\n    int t = blockIdx.x * blockDim.x + threadIdx.x;\n    float* p = ps[8 * t]; cudaFree(p);\n}\n" +
			"__global__ void escapes(float* out, float cx, float cy, int n) {\n    int t = blockIdx.x * blockDim.x + threadIdx.x;\n    " + escapeLoop + "out[8 * t] = i;\n}\n" +
			"__global__ void skips(float* out) {\n    int t = threadIdx.x;\n    out[8 * t] = 1;\n    @@@ not C;\n}\n" +
			"void h(float** a, float* b, int n) { frees<<<64, 256>>>(a, b); escapes<<<64, 256>>>(b, 0.5f, 0.5f, n); skips<<<64, 256>>>(b); }\n",
	})
	tests := []struct {
		name  string
		paths []string
	}{
		{"examples", []string{filepath.Join("..", "examples")}},
		{"project", []string{project}},
		{"one file of a project", []string{filepath.Join(project, "kernels.cu")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			whole := Run(Options{Paths: tt.paths})
			streamed := Run(Options{Paths: tt.paths, Stream: true})
			if len(whole.Findings) == 0 {
				t.Fatal("no findings: nothing to compare")
			}
			if w, s := findingsText(whole), findingsText(streamed); w != s {
				t.Errorf("streamed report differs:\n--- whole\n%s\n--- streamed\n%s", w, s)
			}
			if streamed.Result == nil || len(streamed.Result.Analysis.Predictions) != 0 {
				t.Errorf("a streamed report keeps the model's predictions")
			}
			for _, k := range streamed.Result.Analysis.Kernels {
				kept := k.Func.Body != nil
				if want := readLater[k.Func.Name]; kept != want {
					t.Errorf("kernel %s: body kept %v after its part, want %v", k.Func.Name, kept, want)
				}
			}
		})
	}
}

// liveHeap is the heap a full collection leaves.
func liveHeap() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// BenchmarkReportKeptDense measures what a run's report keeps of a 1 MB
// kernel-dense file, per input byte (kept-B/B: the live heap after the
// run, the report held), whole and streamed: a whole report holds every
// syntax tree and prediction, a streamed one the findings, what they
// point at and the kernels' signatures. A process peaks at about twice
// what it holds at its fullest (the collector's headroom); the command's
// own peak is BenchmarkCommandDense* in cmd/cudalint.
func BenchmarkReportKeptDense(b *testing.B) {
	dir := b.TempDir()
	src := gen.KernelDense(1 << 20)
	if err := os.WriteFile(filepath.Join(dir, "dense.cu"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, stream := range []bool{false, true} {
		name := map[bool]string{false: "whole", true: "streamed"}[stream]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			var kept int64
			for i := 0; i < b.N; i++ {
				base := liveHeap()
				rep := Run(Options{Paths: []string{dir}, Root: dir, Stream: stream})
				kept = liveHeap() - base
				runtime.KeepAlive(rep)
			}
			b.ReportMetric(float64(kept)/float64(len(src)), "kept-B/B")
		})
	}
}
