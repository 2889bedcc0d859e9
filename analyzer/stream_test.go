package analyzer

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/cudalint/cudalint/internal/gen"
	"github.com/cudalint/cudalint/parser"
)

// streamSource is two files: kernels launched from the other file, a
// template kernel launched with three type arguments (its instances must
// share a part), and a header-free run of generated kernels.
var streamSource = map[string]string{
	"a.cu": `
template <int STRIDE, typename T>
__global__ void pick(const T* in, T* out) { out[threadIdx.x] = in[threadIdx.x * STRIDE]; }
__global__ void copy(const float* in, float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }
void h(float* a, float* b, double* c, double* d) {
  pick<2, float><<<1, 32>>>(a, b);
  pick<8, float><<<1, 32>>>(a, b);
  pick<4, double><<<1, 32>>>(c, d);
}`,
	"b.cu": `
__global__ void copy(const float* in, float* out, int n);
void run(float* a, float* b) { copy<<<64, 128>>>(a, b, 8192); }
` + gen.KernelDense(8<<10),
}

func streamFiles() []*parser.File {
	var out []*parser.File
	for _, name := range []string{"a.cu", "b.cu"} {
		out = append(out, parser.Parse(name, []byte(streamSource[name]), parser.Config{}))
	}
	return out
}

// predictionKey names a prediction by what it is and what it predicts.
func predictionKey(p *Prediction) string {
	return fmt.Sprintf("%s %s %v %v launch %v block %v: %v sectors, ideal %v", p.Access.Kernel.Name, p.Access.Pos, p.Access.Op, p.Access.Expr,
		p.Config.At, p.Config.Block, p.Sectors, p.Ideal)
}

// Analyzed in parts, a program gives the kernels, predictions and
// internal errors a whole analysis gives, in the same order: the parts'
// predictions are each sorted as Analyze sorts, and a kernel's instances
// are never split between parts. However small the parts, the workers
// run ahead by a bounded number of them and every part is handed over.
func TestAnalyzeEachMatchesAnalyze(t *testing.T) {
	whole := Analyze(streamFiles(), Options{})
	if len(whole.Kernels) < 10 || len(whole.Predictions) < 20 {
		t.Fatalf("%d kernels, %d predictions: the source is too small to test parts", len(whole.Kernels), len(whole.Predictions))
	}
	for _, size := range []int{1, 3, 64, 1 << 20} {
		t.Run(fmt.Sprint("parts of ", size), func(t *testing.T) {
			var parts []*Result
			streamed := analyzeEach(streamFiles(), Options{}, size, func(part *Result) { parts = append(parts, part) })
			checkParts(t, whole, streamed, parts, size)
		})
	}
}

func checkParts(t *testing.T, whole, streamed *Result, parts []*Result, size int) {
	t.Helper()
	if len(streamed.Predictions) != 0 {
		t.Errorf("the streamed result keeps %d predictions, want none", len(streamed.Predictions))
	}
	if len(streamed.Kernels) != len(whole.Kernels) || len(streamed.InternalErrors) != len(whole.InternalErrors) {
		t.Fatalf("%d kernels, %d internal errors; a whole analysis has %d, %d", len(streamed.Kernels), len(streamed.InternalErrors), len(whole.Kernels), len(whole.InternalErrors))
	}
	want := map[string]int{}
	for _, p := range whole.Predictions {
		want[predictionKey(p)]++
	}
	got := map[string]int{}
	var kernels []*Kernel
	owner := map[*parser.Func]int{}
	for i, part := range parts {
		if size > 1 && len(part.Kernels) > 2*size+3 {
			t.Errorf("part %d has %d kernels, parts of about %d", i, len(part.Kernels), size)
		}
		for _, k := range part.Kernels {
			if j, ok := owner[k.Func]; ok && j != i {
				t.Errorf("kernel %s is in parts %d and %d", k.Func.Name, j, i)
			}
			owner[k.Func] = i
			kernels = append(kernels, k)
		}
		for j, p := range part.Predictions {
			got[predictionKey(p)]++
			if j > 0 && p.Access.Pos.Before(part.Predictions[j-1].Access.Pos) {
				t.Errorf("part %d: prediction %d at %v comes after one at %v", i, j, p.Access.Pos, part.Predictions[j-1].Access.Pos)
			}
		}
	}
	for i, k := range kernels {
		if k.Func.P != whole.Kernels[i].Func.P || k != streamed.Kernels[i] {
			t.Errorf("kernel %d is %s, want %s, in the order of a whole analysis", i, k.Func.Name, whole.Kernels[i].Func.Name)
		}
		if k.Accesses != nil {
			t.Errorf("kernel %s keeps its accesses after its part", k.Func.Name)
		}
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d predictions in parts, %d in a whole analysis", k, got[k], n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d distinct predictions in parts, %d in a whole analysis", len(got), len(want))
	}
}

// parts.of finds each job's part, and bounds cover the jobs once.
func TestSplitParts(t *testing.T) {
	a, b, c := &parser.Func{Name: "a"}, &parser.Func{Name: "b"}, &parser.Func{Name: "c"}
	jobs := []job{{fn: a}, {fn: a}, {fn: a}, {fn: b}, {fn: c}, {fn: c}}
	tests := []struct {
		size int
		want []int
	}{
		{1, []int{0, 3, 4}}, // a's three instances stay together
		{2, []int{0, 3}},
		{4, []int{0, 4}},
		{10, []int{0}},
	}
	for _, tt := range tests {
		ps := splitParts(jobs, tt.size)
		if fmt.Sprint(ps.starts) != fmt.Sprint(tt.want) {
			t.Errorf("size %d: parts start at %v, want %v", tt.size, ps.starts, tt.want)
		}
		next := 0
		for p := range ps.count() {
			from, to := ps.bounds(p)
			if from != next || to <= from {
				t.Errorf("size %d: part %d is jobs [%d, %d), want from %d", tt.size, p, from, to, next)
			}
			for i := from; i < to; i++ {
				if ps.of(i) != p {
					t.Errorf("size %d: job %d is in part %d, want %d", tt.size, i, ps.of(i), p)
				}
			}
			next = to
		}
		if next != len(jobs) {
			t.Errorf("size %d: parts end at job %d of %d", tt.size, next, len(jobs))
		}
	}
	if ps := splitParts(nil, 4); ps.count() != 0 {
		t.Errorf("no jobs make %d parts", ps.count())
	}
}

// A caller that panics on a part leaves no worker waiting for its turn:
// the workers finish the jobs left and exit.
func TestAnalyzeEachPanicReleasesWorkers(t *testing.T) {
	files := streamFiles()
	before := runtime.NumGoroutine()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the caller's panic did not reach analyzeEach's caller")
			}
		}()
		analyzeEach(files, Options{}, 1, func(*Result) { panic("caller fails") })
	}()
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left running, %d before", n, before)
	}
}
