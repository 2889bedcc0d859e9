package launch

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// Host functions are interpreted on every core, and the program's
// launches are those of one function after another all the same: the
// launches a helper makes for many callers (one position, many values)
// come in the callers' order (the helper's own launch, its values
// unknown, gives way to theirs), however many cores run them.
func TestHostLaunchesInFileOrderOnAnyCores(t *testing.T) {
	var b strings.Builder
	b.WriteString("__global__ void k(float *x, int n) { x[threadIdx.x * n] = 0; }\n")
	b.WriteString("void run(float *x, int n, int bs) { k<<<n / bs, bs>>>(x, n); }\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&b, "void caller%d(float *x) { for (int r = 0; r < %d; r++) x[r] = 0; run(x, %d, %d); }\n", i, 50*(i%5), 1024*(i+1), 32*(1+i%8))
	}
	src := b.String()
	launches := func(procs int) []string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var out []string
		for _, l := range program(t, src).Launches {
			out = append(out, fmt.Sprintf("%v %v %v %v", l.Pos, l.Via, l.Grid, l.Block))
		}
		return out
	}
	want := launches(1)
	if len(want) != 24 {
		t.Fatalf("%d launches, want one per caller: %q", len(want), want)
	}
	for i, l := range want {
		if !strings.Contains(l, fmt.Sprintf("[caller%d run]", i)) {
			t.Fatalf("launch %d is %s, want caller%d's: the callers' order", i, l, i)
		}
	}
	for try := 0; try < 5; try++ {
		got := launches(4)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("on 4 cores the launches are\n%s\non one\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// Host function templates are instantiated a round at a time on every
// core: the launches of the instantiations, and of those they make in
// turn (a template calling another), come in the order one core gives.
func TestHostTemplateInstantiationsInOrderOnAnyCores(t *testing.T) {
	var b strings.Builder
	b.WriteString("__global__ void k(float *x, int n) { x[threadIdx.x * n] = 0; }\n")
	for i := 0; i < 16; i++ {
		fmt.Fprintf(&b, "struct S%d { float f[%d]; };\n", i, i+1)
	}
	b.WriteString("template <typename T> void inner(T *v) { k<<<sizeof(T) * 2, 32>>>((float *)v, 2); }\n")
	b.WriteString("template <typename T> void outer(T *v) { k<<<sizeof(T), 64>>>((float *)v, 1); inner<T>(v); }\n")
	b.WriteString("int main() {\n")
	for i := 0; i < 16; i++ {
		fmt.Fprintf(&b, "  S%d *a%d; outer<S%d>(a%d);\n", i, i, i, i)
	}
	b.WriteString("}\n")
	src := b.String()
	launches := func(procs int) string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var out []string
		for _, l := range program(t, src).Launches {
			out = append(out, fmt.Sprintf("%v %v %v %v", l.Pos, l.Via, l.Grid, l.Block))
		}
		return strings.Join(out, "\n")
	}
	want := launches(1)
	// outer's launches in main's order, sizeof(S0) to sizeof(S15), then
	// inner's, which outer's instantiations made.
	var outerGrids, innerGrids []string
	for i := 0; i < 16; i++ {
		outerGrids = append(outerGrids, fmt.Sprintf("[%d 1 1] [64 1 1]", 4*(i+1)))
		innerGrids = append(innerGrids, fmt.Sprintf("[%d 1 1] [32 1 1]", 8*(i+1)))
	}
	var gotOuter, gotInner []string
	for _, l := range strings.Split(want, "\n") {
		f := strings.SplitN(l, "] ", 2)
		if len(f) == 2 && strings.HasSuffix(f[1], "[64 1 1]") && strings.Contains(l, "[outer]") {
			gotOuter = append(gotOuter, f[1])
		}
		if len(f) == 2 && strings.HasSuffix(f[1], "[32 1 1]") && strings.Contains(l, "[inner]") {
			gotInner = append(gotInner, f[1])
		}
	}
	if fmt.Sprint(gotOuter) != fmt.Sprint(outerGrids) || fmt.Sprint(gotInner) != fmt.Sprint(innerGrids) {
		t.Errorf("outer's launches %v, inner's %v; want %v and %v:\n%s", gotOuter, gotInner, outerGrids, innerGrids, want)
	}
	if n := strings.Count(want, "\n") + 1; n < 32 || !strings.Contains(want, "[128 1 1]") {
		t.Fatalf("%d launches, want those of outer's and inner's instantiations:\n%s", n, want)
	}
	for try := 0; try < 5; try++ {
		if got := launches(4); got != want {
			t.Fatalf("on 4 cores the launches are\n%s\non one\n%s", got, want)
		}
	}
}
