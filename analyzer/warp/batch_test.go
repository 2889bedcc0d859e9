package warp

import (
	"reflect"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

func guarded(a *interp.Access, g symbolic.Expr) *interp.Access {
	a.Guards = append(a.Guards, g)
	return a
}

// TestBlockBatchMatchesEveryWarp: an enumeration that evaluates a block's
// warps once per residue of their base predicts what visiting every warp
// of every block predicts, for affine addresses whose rows start at
// varying residues, under conditions on the block and the iteration.
func TestBlockBatchMatchesEveryWarp(t *testing.T) {
	r := loopIter("r")
	rolled := func(a *interp.Access, trip int64) *interp.Access {
		return inLoop(a, r, lt(r, c(trip)), trip, lex.UnrollCount(1))
	}
	bx, by := bid(0), bid(1)
	tests := []struct {
		name        string
		a           *interp.Access
		grid, block [3]int64
	}{
		{"rows of 33 floats, a block a row", rolled(access(typ(t, "float"), mul(c(4), sum(mul(c(33), sum(mul(c(8), bx), r)), tid(0))), lt(sum(bx, r), c(18))), 8), [3]int64{16, 1, 1}, [3]int64{64, 1, 1}},
		{"a guard on the block and the iteration", rolled(access(typ(t, "float"), mul(c(4), sum(mul(c(1001), bx), mul(c(32), r), tid(0))), lt(sum(bx, r), c(20))), 6), [3]int64{24, 1, 1}, [3]int64{96, 1, 1}},
		{"two grid axes, a partial last warp", rolled(access(typ(t, "float2"), mul(c(8), sum(mul(c(257), by), mul(c(37), bx), mul(c(64), r), tid(0), mul(c(40), tid(1)))), lt(sum(by, r), c(6))), 3), [3]int64{6, 5, 1}, [3]int64{40, 3, 1}},
		{"shared memory, rows of 17 words", rolled(guarded(shared(typ(t, "float"), mul(c(4), sum(mul(c(17), sum(bx, r)), tid(0)))), lt(r, sum(bx, c(1)))), 4), [3]int64{9, 1, 1}, [3]int64{128, 1, 1}},
		{"no lane at some blocks", rolled(access(typ(t, "float"), mul(c(4), sum(mul(c(3), bx), tid(0))), symbolic.Binary(symbolic.OpEq, symbolic.Binary(symbolic.OpRem, bx, c(3)), c(0))), 2), [3]int64{30, 1, 1}, [3]int64{32, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config(tt.grid, tt.block, nil)
			batched := Predict(tt.a, cfg, nil)
			batchBlocks = false
			every := Predict(tt.a, cfg, nil)
			batchBlocks = true
			if !every.Exact || !every.Known {
				t.Fatalf("exact %v, known %v: the case does not enumerate", every.Exact, every.Known)
			}
			if !reflect.DeepEqual(batched, every) {
				t.Errorf("batched %+v\nevery warp %+v", batched, every)
			}
		})
	}
}
