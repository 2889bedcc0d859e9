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
