package warp

import (
	"testing"

	"github.com/cudalint/cudalint/symbolic"
)

// TestIntervalBounds: the bounds of expressions over a launch of 8
// blocks of 32x4 threads, with one loop of 4 iterations and one of 0.
// Each interval follows from the operands' ranges: tx in [0, 31], ty in
// [0, 3], bx in [0, 7], i in [0, 3], j in [0, 0].
func TestIntervalBounds(t *testing.T) {
	i, j := loopIter("i"), loopIter("j")
	rg := launchRanges(dim(32, 4), dim(8, 1), []symbolic.SymID{keyOf(i), keyOf(j)}, []int64{4, 0})
	tx, ty := tid(0), tid(1)
	bin := func(k symbolic.OpKind, a, b symbolic.Expr) symbolic.Expr { return symbolic.Binary(k, a, b) }
	tests := []struct {
		name   string
		e      symbolic.Expr
		lo, hi int64
		ok     bool
	}{
		{"tx", tx, 0, 31, true},
		{"32*bx + tx", sum(mul(c(32), bid(0)), tx), 0, 255, true},
		{"a negative coefficient: 100 - tx", sum(c(100), mul(c(-1), tx)), 69, 100, true},
		{"a product tx*ty", mul(tx, ty), 0, 93, true},
		{"a loop iteration 4*i", mul(c(4), i), 0, 12, true},
		{"a loop of no trips stays at its first", j, 0, 0, true},
		{"tx / 4", bin(symbolic.OpDiv, tx, c(4)), 0, 7, true},
		{"tx % 8", bin(symbolic.OpRem, tx, c(8)), 0, 7, true},
		{"tx % 64 cannot pass tx", bin(symbolic.OpRem, tx, c(64)), 0, 31, true},
		{"min(tx, 10)", bin(symbolic.OpMin, tx, c(10)), 0, 10, true},
		{"max(tx, 10)", bin(symbolic.OpMax, tx, c(10)), 10, 31, true},
		{"tx < 32 always holds", lt(tx, c(32)), 1, 1, true},
		{"tx <= 31 always holds", bin(symbolic.OpLe, tx, c(31)), 1, 1, true},
		{"tx < 16 sometimes", lt(tx, c(16)), 0, 1, true},
		{"tx < 0 never", lt(tx, c(0)), 0, 0, true},
		{"an && of two sure ones", bin(symbolic.OpLAnd, lt(tx, c(32)), lt(ty, c(4))), 1, 1, true},
		{"an && with a false side", bin(symbolic.OpLAnd, lt(tx, c(32)), lt(ty, c(0))), 0, 0, true},
		{"a division by a lane value has no bound", bin(symbolic.OpDiv, c(64), tx), 0, 0, false},
		{"a parameter has none", param("n"), 0, 0, false},
		{"nor does a comparison with one", lt(tx, param("n")), 0, 0, false},
	}
	for _, tt := range tests {
		iv, ok := rg.bounds(tt.e)
		if ok != tt.ok || (ok && (iv.lo != tt.lo || iv.hi != tt.hi)) {
			t.Errorf("%s: bounds [%d, %d] (%v), want [%d, %d] (%v)", tt.name, iv.lo, iv.hi, ok, tt.lo, tt.hi, tt.ok)
		}
	}
}

// TestAlwaysUnknown: a condition that needs a symbol the model never
// binds always counts as passed; && and || only when both sides do,
// since a known side can decide alone (j > n && j < 2048).
func TestAlwaysUnknown(t *testing.T) {
	n := param("n")
	tx := tid(0)
	tests := []struct {
		name string
		e    symbolic.Expr
		want bool
	}{
		{"a parameter", n, true},
		{"a loaded value", loaded("x", symbolic.Data), true},
		{"the lane index", tx, false},
		{"a loop iteration", loopIter("i"), false},
		{"tx < n", lt(tx, n), true},
		{"tx < n && tx < 16: the known side decides", symbolic.Binary(symbolic.OpLAnd, lt(tx, n), lt(tx, c(16))), false},
		{"tx < n || n < tx", symbolic.Binary(symbolic.OpLOr, lt(tx, n), lt(n, tx)), true},
		{"a select on n", symbolic.Cond(n, tx, c(0)), true},
		{"a select on tx between n and tx", symbolic.Cond(lt(tx, c(4)), n, tx), false},
		{"a polynomial 4*tx + n", sum(mul(c(4), tx), n), true},
	}
	for _, tt := range tests {
		if got := alwaysUnknown(tt.e); got != tt.want {
			t.Errorf("%s: alwaysUnknown(%v) = %v, want %v", tt.name, tt.e, got, tt.want)
		}
	}
}

// TestLaneStride: the byte step between neighbouring lanes is the
// coefficient of the fastest thread index the block has; a block one
// wide in x steps along y.
func TestLaneStride(t *testing.T) {
	tx, ty := tid(0), tid(1)
	addr := sum(mul(c(4), tx), mul(c(4096), ty))
	if s := laneStride(addr, dim(32, 8)); s == nil || *s != 4 {
		t.Errorf("block 32x8: stride %v, want 4", s)
	}
	if s := laneStride(addr, dim(1, 32)); s == nil || *s != 4096 {
		t.Errorf("block 1x32: stride %v, want 4096", s)
	}
	if s := laneStride(mul(c(4), tx, param("n")), dim(32, 1)); s != nil {
		t.Errorf("stride 4n: %d, want none (not a constant)", *s)
	}
}
