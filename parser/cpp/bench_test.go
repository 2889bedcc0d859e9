package cpp

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/cudalint/cudalint/internal/gen"
)

// Preprocessor throughput (MB/s of input) and memory per input byte
// (alloc-B/B, peak-heap-B/B: see benchPreprocess). Run with
//
//	go test ./parser/cpp -run '^$' -bench . -benchtime 5x

// macroHeavy generates about size bytes of kernels written the way
// macro-heavy CUDA code is (ggml, CUTLASS-style libraries): index and
// min/max helpers nested in each other's arguments, an error-check wrapper
// around every call, token pasting, variadic forwarding and an X-macro
// list expanded several times.
func macroHeavy(size int) string {
	var b strings.Builder
	b.WriteString(`#define IDX2(i, j, ld) ((i) * (ld) + (j))
#define IDX3(i, j, k, n, m) IDX2(IDX2(i, j, n), k, m)
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CLAMP(x, lo, hi) MIN(MAX(x, lo), hi)
#define CHECK(call) do { int err_ = (call); if (err_ != 0) { report(err_, #call, __LINE__); } } while (0)
#define CAT(a, b) a ## b
#define NAME(base, n) CAT(base, n)
#define FORWARD(f, ...) f(__VA_ARGS__)
#define TYPES(X) X(float, f32) X(double, f64) X(int, i32) X(unsigned, u32)
#define DECLARE(T, s) __device__ T NAME(load_, s)(const T* p, int i);
#define TID (blockIdx.x * blockDim.x + threadIdx.x)
`)
	for n := 0; b.Len() < size; n++ {
		fmt.Fprintf(&b, `TYPES(DECLARE)
__global__ void NAME(kernel, %d)(const float* a, float* out, int n, int m, int k) {
	int i = TID;
	int j = CLAMP(i - 1, 0, n - 1);
	out[IDX3(i, j, CLAMP(j + 1, 0, k - 1), n, m)] = MAX(MIN(a[IDX2(i, j, n)], a[IDX2(j, i, n)]), 0.0f);
	FORWARD(atomicAdd, &out[IDX2(MIN(i, n), MAX(j, 0), m)], a[CLAMP(i, 0, n)]);
}
void NAME(launch, %d)(const float* a, float* out, int n) {
	CHECK(FORWARD(cudaMemsetAsync, out, 0, MAX(n, 1) * sizeof(float)));
	NAME(kernel, %d)<<<MAX((n + 255) / 256, 1), 256>>>(a, out, n, n, n);
	CHECK(cudaGetLastError());
}
`, n, n, n)
	}
	return b.String()
}

// benchPreprocess reads main's tokens one at a time, as parser.Parse
// does, without keeping them. Besides MB/s it reports alloc-B/B (bytes
// allocated per input byte) and peak-heap-B/B: the most heap in use,
// sampled every millisecond, above what was in use before, per input byte.
func benchPreprocess(b *testing.B, main string, src []byte, cfg Config, inputBytes int) {
	b.SetBytes(int64(inputBytes))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	base := heapInUse()
	stop, peak := samplePeakHeap()
	for i := 0; i < b.N; i++ {
		p := NewPreprocessor(main, src, cfg)
		for _, ok := p.NextToken(); ok; _, ok = p.NextToken() {
		}
		p.Finish()
	}
	b.StopTimer()
	stop()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(inputBytes), "alloc-B/B")
	b.ReportMetric(float64(int64(*peak)-int64(base))/float64(inputBytes), "peak-heap-B/B")
}

// heapInUse is the heap's in-use spans in bytes, HeapInuse of MemStats.
func heapInUse() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64() + sample[1].Value.Uint64()
}

// samplePeakHeap samples the heap in use until stop is called; *peak is
// the most seen. It reads runtime/metrics, which does not stop the world
// as runtime.ReadMemStats would every millisecond.
func samplePeakHeap() (stop func(), peak *uint64) {
	peak = new(uint64)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			*peak = max(*peak, heapInUse())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); <-finished }, peak
}

// BenchmarkPreprocessKernelDense1MB: generated small kernels, few macros.
func BenchmarkPreprocessKernelDense1MB(b *testing.B) {
	src := []byte(gen.KernelDense(1 << 20))
	benchPreprocess(b, "dense.cu", src, Config{}, len(src))
}

// BenchmarkPreprocessMacroHeavy1MB: nested function-like macros.
func BenchmarkPreprocessMacroHeavy1MB(b *testing.B) {
	src := []byte(macroHeavy(1 << 20))
	benchPreprocess(b, "macros.cu", src, Config{}, len(src))
}

// recursiveSeq generates what iterating macro libraries (Boost.PP,
// OneFlow's OF_PP_) are made of: a sequence counted by a SEQ_SIZE_i chain
// and walked by FOR_EACH_i calling FOR_EACH_i-1, each step one macro
// deeper, so the tokens of the tail carry hide sets of up to limit names.
// uses invocations over sequences of up to limit elements follow.
func recursiveSeq(limit, uses int) string {
	var b strings.Builder
	b.WriteString("#define CAT(a, b) CAT_I(a, b)\n#define CAT_I(a, b) a##b\n")
	b.WriteString("#define SEQ_HEAD(seq) SEQ_HEAD_I(SEQ_HEAD_X seq)\n#define SEQ_HEAD_X(x) x, ~\n#define SEQ_HEAD_I(...) SEQ_FIRST(__VA_ARGS__)\n#define SEQ_FIRST(x, ...) x\n")
	b.WriteString("#define SEQ_TAIL(seq) SEQ_TAIL_I seq\n#define SEQ_TAIL_I(x)\n")
	b.WriteString("#define SEQ_SIZE(seq) CAT(SEQ_SIZE_, SEQ_SIZE_0 seq)\n")
	b.WriteString("#define FOR_EACH(m, seq) CAT(FOR_EACH_, SEQ_SIZE(seq))(m, seq)\n#define FOR_EACH_0(m, seq)\n")
	for i := 0; i < limit; i++ {
		fmt.Fprintf(&b, "#define SEQ_SIZE_%d(_) SEQ_SIZE_%d\n#define SEQ_SIZE_SEQ_SIZE_%d %d\n", i, i+1, i, i)
		fmt.Fprintf(&b, "#define FOR_EACH_%d(m, seq) m(SEQ_HEAD(seq)) FOR_EACH_%d(m, SEQ_TAIL(seq))\n", i+1, i)
	}
	fmt.Fprintf(&b, "#define SEQ_SIZE_SEQ_SIZE_%d %d\n", limit, limit)
	b.WriteString("#define DECLARE(T) DECLARE_I(T)\n#define DECLARE_I(T) __device__ T load_##T(const T* p, int i);\n")
	for u := 0; u < uses; u++ {
		n := 1 + u*7%limit
		b.WriteString("FOR_EACH(DECLARE, ")
		for e := 0; e < n; e++ {
			fmt.Fprintf(&b, "(t%d_%d)", u, e)
		}
		b.WriteString(")\n")
	}
	return b.String()
}

// BenchmarkPreprocessRecursiveSeq: FOR_EACH over sequences of up to 128
// elements, the hide-set-heavy expansion of OneFlow's headers.
func BenchmarkPreprocessRecursiveSeq(b *testing.B) {
	src := []byte(recursiveSeq(128, 60))
	benchPreprocess(b, "seq.cu", src, Config{}, len(src))
}

// BenchmarkPreprocessHeaderProject: 60 files each including a 140 kB
// header library through one HeaderCache, as sources.Load runs them; the
// input is every byte each file reads, headers counted per file.
func BenchmarkPreprocessHeaderProject(b *testing.B) {
	fs, mains := gen.TemplateProject(60, 600)
	total := 0
	for _, m := range mains {
		total += len(fs[m]) + len(fs["lib.cuh"])
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	base := heapInUse()
	stop, peak := samplePeakHeap()
	for i := 0; i < b.N; i++ {
		cfg := Config{ReadFile: fs.Read, Headers: NewHeaderCache()}
		for _, m := range mains {
			p := NewPreprocessor(m, []byte(fs[m]), cfg)
			for _, ok := p.NextToken(); ok; _, ok = p.NextToken() {
			}
		}
	}
	b.StopTimer()
	stop()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(total), "alloc-B/B")
	b.ReportMetric(float64(int64(*peak)-int64(base))/float64(total), "peak-heap-B/B")
}

// BenchmarkPreprocessDoublingBomb: the 94-byte file whose nested doubling
// the expansion budget stops; its cost is the budget's, per run.
func BenchmarkPreprocessDoublingBomb(b *testing.B) {
	src := []byte("#define D(x) x x\nint v = " + strings.Repeat("D(", 22) + "1" + strings.Repeat(")", 22) + ";\n")
	benchPreprocess(b, "bomb.cu", src, Config{}, len(src))
}

// The macro-heavy input is C the preprocessor reads without a note, and
// its macros do expand: what the benchmark measures is real expansion.
func TestMacroHeavyInput(t *testing.T) {
	src := macroHeavy(20 << 10)
	pp := Preprocess("macros.cu", []byte(src), Config{})
	if len(pp.Notes) != 0 {
		t.Fatalf("notes %v", pp.Notes[:min(3, len(pp.Notes))])
	}
	text := texts(pp.Tokens)
	for _, want := range []string{"load_f32", "kernel3", "report ( err_ , \"cudaGetLastError()\"", "atomicAdd ( & out"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q not in the expansion", want)
		}
	}
	if len(pp.Tokens) < 3*strings.Count(src, " ") {
		t.Errorf("%d tokens from %d bytes: the macros did not expand", len(pp.Tokens), len(src))
	}
}

// The recursive sequence expands fully: one declaration per element, no
// note, no FOR_EACH left unexpanded.
func TestRecursiveSeqInput(t *testing.T) {
	pp := Preprocess("seq.cu", []byte(recursiveSeq(16, 5)), Config{})
	if len(pp.Notes) != 0 {
		t.Fatalf("notes %v", pp.Notes[:min(3, len(pp.Notes))])
	}
	text := texts(pp.Tokens)
	if strings.Contains(text, "FOR_EACH") || strings.Contains(text, "SEQ_") {
		t.Fatalf("unexpanded: %.300s", text)
	}
	if got, want := strings.Count(text, "__device__"), 1+8+15+6+13; got != want {
		t.Fatalf("%d declarations, want %d: %.300s", got, want, text)
	}
}
