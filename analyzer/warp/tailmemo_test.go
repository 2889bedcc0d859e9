package warp

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// tailCounts keeps what it evaluated: asked again for the same guard and
// launch shape, it answers from the memo with the counts countTails
// gives, and a guard or a shape of its own is evaluated afresh.
func TestTailCountsMemo(t *testing.T) {
	tid := symbolic.ThreadIdx(symbolic.X).Sym()
	n := symbolic.ParamSym("n")
	// A remainder: only the lanes past n - 1 of the block run it.
	guard := symbolic.Binary(symbolic.OpLt, symbolic.Sub(n, symbolic.Const(1)), tid)
	cfg := &launch.Config{Block: launch.Dim3{256, 1, 1}, Grid: launch.Dim3{64, 1, 1}}
	names := []string{"n"}
	want, ok := countTails(guard, cfg, names)
	if !ok {
		t.Fatal("the guard does not evaluate")
	}
	for range 2 {
		got, ok := tailCounts(guard, cfg, names)
		if !ok || len(got) != len(want) {
			t.Fatalf("tailCounts %v %v, want %v", got, ok, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("try %d: %+v, want %+v", i, got[i], want[i])
			}
		}
	}
	if _, kept := tailMemo.get(tailKey{symbolic.Key(guard), cfg.Block, cfg.Grid, "n"}); !kept {
		t.Error("the counts were not kept")
	}
	wide := &launch.Config{Block: launch.Dim3{1024, 1, 1}, Grid: launch.Dim3{64, 1, 1}}
	got, _ := tailCounts(guard, wide, names)
	fresh, _ := countTails(guard, wide, names)
	if len(got) == 0 || got[0] != fresh[0] || got[0] == want[0] {
		t.Errorf("another block: %+v, want %+v (not the 256-thread block's %+v)", got, fresh, want)
	}
}
