package lsp

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The edit latency on real files, read where they lie (/work/proj holds
// checkouts of llm.c and ggml; the benchmarks skip without them): the
// file is opened in its repository, as an editor opens it, and retyped:
// each edit writes a text not seen before, so that nothing is served
// from an earlier edit's analysis but what the edit leaves unchanged.
//
// Each edit's latency is timed from the didChange sent to its
// diagnostics received (the debounce set to nothing), and the median and
// 90th percentile are reported besides the mean: run with
// -benchtime=20x or more, for a median of at least 20 edits.

func benchRealEdits(b *testing.B, path string, edit func(src string, i int) string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("%s: %v", path, err)
	}
	src := string(raw)
	if edit(src, 1) == edit(src, 2) {
		b.Fatalf("the edits are alike in %s", path)
	}
	c := newClient(b)
	c.debounce(time.Microsecond)
	c.initialize(nil)
	uri := c.open(path, src)
	c.diagnostics(uri)
	// One edit first: the caches warm as an editing session's are.
	version := 2
	cur := src
	var lat []time.Duration
	change := func(next string) {
		// The change as an editor sends it: the range retyped.
		t0 := time.Now()
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{rangeChange(cur, next)}})
		cur = next
		waitVersion(c, uri, version)
		lat = append(lat, time.Since(t0))
	}
	change(edit(src, 1))
	lat = lat[:0]
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		version++
		change(edit(src, i+2))
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/edit")
	b.ReportMetric(ms(quantile(lat, 0.5)), "p50-ms")
	b.ReportMetric(ms(quantile(lat, 0.9)), "p90-ms")
	// The process's CPU time per edit (both cores': the kernels are
	// analyzed in parallel): on a shared machine, less noisy than the
	// wall clock.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/edit")
	// What the session keeps (caches, memo, the latest analysis).
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MB-heap")
	c.shutdown()
}

// quantile is the q-quantile of ds (nearest rank), which it sorts.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(math.Ceil(q*float64(len(ds))))-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// rangeChange is the incremental change that makes old new.
func rangeChange(old, new string) map[string]any {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	r := newText([]byte(old)).rangeOf(p, len(old)-s, encUTF16)
	return map[string]any{"range": r, "text": new[p : len(new)-s]}
}

func waitVersion(c *client, uri string, v int) PublishDiagnosticsParams {
	for {
		p := c.diagnostics(uri)
		if p.Version != nil && *p.Version == v {
			return p
		}
	}
}

// replaceOnce is src with its first old made new, failing when absent.
func replaceOnce(b *testing.B, src, old, new string) string {
	if !strings.Contains(src, old) {
		b.Fatalf("%q is not in the file", old)
	}
	return strings.Replace(src, old, new, 1)
}

func BenchmarkEditLLMc(b *testing.B) {
	const path = "/work/proj/llm.c/train_gpt2.cu"
	edits := map[string]func(string, int) string{
		// A comment retyped: nothing the analysis reads changes.
		"comment": func(src string, i int) string {
			return replaceOnce(b, src, "// convenience parameters", fmt.Sprintf("// convenience parameters %d", i))
		},
		// A host statement that launches nothing changes.
		"host": func(src string, i int) string {
			return replaceOnce(b, src, "Error: model was not initialized properly.", fmt.Sprintf("Error: model %d was not initialized.", i))
		},
		// An offset passed to the launches of a layer changes.
		"launch": func(src string, i int) string {
			return replaceOnce(b, src, "l_qkvb = params.qkvb + l * 3*C;", fmt.Sprintf("l_qkvb = params.qkvb + l * %d*C;", i+3))
		},
		// A statement re-indented: the same tokens, their columns moved.
		"whitespace": func(src string, i int) string {
			return replaceOnce(b, src, "        exit(EXIT_FAILURE);\n    }\n\n    // convenience parameters", strings.Repeat(" ", 8+i%40)+"exit(EXIT_FAILURE);\n    }\n\n    // convenience parameters")
		},
	}
	// A host statement typed: each edit one byte longer than the one
	// before, as keystrokes are, so that every item after it moves.
	edits["host/typing"] = func(src string, i int) string {
		return replaceOnce(b, src, "Error: model was not initialized properly.", "Error: model "+strings.Repeat("x", i)+" was not initialized.")
	}
	for _, name := range []string{"comment", "whitespace", "host", "host/typing", "launch"} {
		b.Run(name, func(b *testing.B) { benchRealEdits(b, path, edits[name]) })
	}
	// train_gpt2.cu defines no kernel of its own (they are in llmc/):
	// an edit inside a kernel is one of a header open in the editor,
	// analyzed under train_gpt2.cu's launches and the other includers'.
	b.Run("kernel", func(b *testing.B) {
		benchRealEdits(b, "/work/proj/llm.c/llmc/layernorm.cuh", func(src string, i int) string {
			return replaceOnce(b, src, "const floatX* x = inp + idx * C;", fmt.Sprintf("const floatX* x = inp + idx * C + %d;", i))
		})
	})
	// The same, typed: each edit one byte longer than the one before,
	// as a keystroke's does, so that every item after it moves.
	b.Run("kernel/typing", func(b *testing.B) {
		benchRealEdits(b, "/work/proj/llm.c/llmc/layernorm.cuh", func(src string, i int) string {
			return replaceOnce(b, src, "const floatX* x = inp + idx * C;", fmt.Sprintf("const floatX* x = inp + idx * C + %d%s;", i, strings.Repeat(" ", i)))
		})
	})
}

func BenchmarkEditGGML(b *testing.B) {
	const largest = "/work/proj/ggml/src/ggml-cuda/ggml-cuda.cu"
	b.Run("largest/comment", func(b *testing.B) {
		benchRealEdits(b, largest, func(src string, i int) string {
			return replaceOnce(b, src, "/// kernels", fmt.Sprintf("/// kernels %d", i))
		})
	})
	// The largest header: template kernels and the device functions
	// they inline, instantiated by other files.
	const header = "/work/proj/ggml/src/ggml-cuda/fattn-mma-f16.cuh"
	b.Run("header/comment", func(b *testing.B) {
		benchRealEdits(b, header, func(src string, i int) string {
			return replaceOnce(b, src, "// Write back combined meta data:", fmt.Sprintf("// Write back combined meta data %d:", i))
		})
	})
	b.Run("header/helper", func(b *testing.B) {
		benchRealEdits(b, header, func(src string, i int) string {
			return replaceOnce(b, src, "dstk_fixup + blockIdx.x*ncols;", fmt.Sprintf("dstk_fixup + blockIdx.x*ncols + %d;", i))
		})
	})
	b.Run("largest/kernel", func(b *testing.B) {
		benchRealEdits(b, largest, func(src string, i int) string {
			return replaceOnce(b, src, "ptrs_src[0*ne23 + i12 + i13*ne12]", fmt.Sprintf("ptrs_src[%d*ne23 + i12 + i13*ne12]", i))
		})
	})
	// The same, typed: each edit one byte longer than the one before.
	b.Run("largest/kernel/typing", func(b *testing.B) {
		benchRealEdits(b, largest, func(src string, i int) string {
			return replaceOnce(b, src, "ptrs_src[0*ne23 + i12 + i13*ne12]", fmt.Sprintf("ptrs_src[0*ne23 + i12 + i13*ne12 + %s]", strings.Repeat("0", i)))
		})
	})
	// A statement re-indented in a host function.
	b.Run("largest/whitespace", func(b *testing.B) {
		benchRealEdits(b, largest, func(src string, i int) string {
			return replaceOnce(b, src, "        CUDA_CHECK(err);\n    }\n\n    return true;", strings.Repeat(" ", 8+i%40)+"CUDA_CHECK(err);\n    }\n\n    return true;")
		})
	})
	// A host statement that launches nothing changes.
	b.Run("largest/host", func(b *testing.B) {
		benchRealEdits(b, largest, func(src string, i int) string {
			return replaceOnce(b, src, `"%s: %s failed\n", __func__, ggml_op_desc(dst)`, fmt.Sprintf(`"%%s: %%s failed %d\n", __func__, ggml_op_desc(dst)`, i))
		})
	})
	// The grid of a launch in a host function changes.
	b.Run("largest/launch", func(b *testing.B) {
		benchRealEdits(b, largest, func(src string, i int) string {
			return replaceOnce(b, src, "(ne13 + threads_x - 1) / threads_x,", fmt.Sprintf("(ne13 + threads_x - %d) / threads_x,", i+1))
		})
	})
}
