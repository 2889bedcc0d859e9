package warp

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// The warp-at-once evaluation of a predicated request gives what the
// lane-by-lane one gives: the lanes that reach the instruction, those
// that run it, their addresses, whether it can be evaluated, and the
// thread slots it leaves.
func TestPredicatedVecLanesMatchLaneByLane(t *testing.T) {
	it := loopIter("i")
	n := param("n") // no launch gives it: conditions on it cannot be evaluated
	bin := symbolic.Binary
	tx, ty := tid(0), tid(1)
	tests := []struct {
		name  string
		block launch.Dim3
		addr  symbolic.Expr
		lane  []symbolic.Expr // guards evaluated per lane
		pred  symbolic.Expr   // the predicated guard
	}{
		{"first lane", launch.Dim3{256, 1, 1}, mul(c(4), sum(mul(bid(0), c(256)), tx)), nil, bin(symbolic.OpEq, tx, c(0))},
		{"hotspot range", launch.Dim3{16, 16, 1}, mul(c(4), sum(tx, mul(c(16), ty))),
			[]symbolic.Expr{bin(symbolic.OpLe, sum(it, c(1)), tx), bin(symbolic.OpLe, tx, sum(c(14), mul(c(-1), it)))},
			bin(symbolic.OpLAnd, bin(symbolic.OpLe, sum(it, c(1)), ty), bin(symbolic.OpLe, ty, sum(c(14), mul(c(-1), it))))},
		{"partial warp", launch.Dim3{24, 5, 1}, mul(c(8), sum(tx, mul(c(24), ty))),
			[]symbolic.Expr{lt(bin(symbolic.OpRem, sum(tx, mul(c(3), ty)), c(5)), c(3))}, lt(tx, sum(it, c(2)))},
		{"decided per block", launch.Dim3{64, 2, 1}, mul(c(4), sum(tx, mul(c(64), ty))),
			[]symbolic.Expr{symbolic.Not(bin(symbolic.OpLOr, lt(c(0), bid(1)), lt(n, sum(tx, c(1)))))},
			bin(symbolic.OpLAnd, lt(bid(0), c(2)), lt(ty, c(1)))},
		{"not affine", launch.Dim3{100, 1, 1}, mul(c(4), mul(tx, tx)), nil, lt(bin(symbolic.OpRem, tx, c(7)), c(2))},
		{"unknown size", launch.Dim3{64, 2, 1}, mul(c(4), sum(tx, mul(c(64), ty))),
			[]symbolic.Expr{lt(tx, n)}, lt(bin(symbolic.OpRem, tx, n), c(1))},
		{"unevaluable address", launch.Dim3{32, 4, 1}, mul(c(4), bin(symbolic.OpDiv, c(64), sum(tx, c(-3)))), []symbolic.Expr{lt(c(0), ty)}, lt(tx, sum(c(1), mul(c(2), ty)))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			grid := launch.Dim3{3, 2, 1}
			a := inLoop(access(typ(t, "float"), tt.addr), it, lt(it, c(20)), 20, 0)
			guards := append(append([]symbolic.Expr{}, tt.lane...), tt.pred)
			vec := newWarpModel(a, tt.block, grid, tt.addr, nil, []symbolic.Expr{lt(it, c(20))}, nil)
			vec.addGuards(a, guards, symbolic.Key(tt.pred))
			one := newWarpModel(a, tt.block, grid, tt.addr, nil, []symbolic.Expr{lt(it, c(20))}, nil)
			one.addGuards(a, guards, symbolic.Key(tt.pred))
			if len(vec.predConds) != 1 {
				t.Fatalf("the predicated guard was not kept: %d predicated conditions", len(vec.predConds))
			}
			off := newWarpModel(a, tt.block, grid, tt.addr, nil, []symbolic.Expr{lt(it, c(20))}, nil)
			off.addGuards(a, guards, symbolic.Key(tt.pred))
			ran, evaluated, failed, blocksOff := 0, 0, 0, 0
			for b := int64(0); b < grid.Threads(); b++ {
				for i := int64(0); i < 20; i++ {
					// blockOff, when it says so, is what the warps say:
					// none of them runs the access.
					isOff := off.blockOff(b, []int64{i})
					if isOff {
						blocksOff++
					}
					for w := int64(0); w < vec.warps(); w++ {
						iters := []int64{i}
						// request sets the block up, then the lanes: warp
						// at once in vec, lane by lane in one.
						gotV := vec.request(b, w, iters)
						ok, active := one.blockRequest(b, iters)
						if !ok || !active {
							t.Fatalf("block %d: request not set up", b)
						}
						one.mask, one.reach = 0, 0
						gotO := one.predicatedLanes(w)
						if gotV != gotO {
							t.Fatalf("block %d iteration %d warp %d: evaluable %v, lane by lane %v", b, i, w, gotV, gotO)
						}
						if !gotV {
							failed++
							continue
						}
						evaluated++
						if vec.reach != one.reach || vec.mask != one.mask {
							t.Fatalf("block %d iteration %d warp %d: reach %#x mask %#x, lane by lane %#x %#x", b, i, w, vec.reach, vec.mask, one.reach, one.mask)
						}
						if vec.mask != 0 {
							ran++
							if isOff {
								t.Fatalf("block %d iteration %d: off by its bounds, but warp %d runs lanes %#x", b, i, w, vec.mask)
							}
						}
						for lane := 0; lane < 32; lane++ {
							if vec.mask>>lane&1 != 0 && !vec.affine && vec.lanes[lane] != one.lanes[lane] {
								t.Fatalf("lane %d address %d, lane by lane %d", lane, vec.lanes[lane], one.lanes[lane])
							}
						}
						for d := 0; d < 3; d++ {
							if x, y := vec.vals.V[vec.thread[d]], one.vals.V[one.thread[d]]; x != y {
								t.Fatalf("thread slot %d left at %d, lane by lane %d", d, x, y)
							}
						}
					}
				}
			}
			if tt.name == "hotspot range" && blocksOff == 0 {
				t.Errorf("no block shown off by its bounds (iterations past 14 run nothing)")
			}
			if (failed > 0) != (tt.name == "unevaluable address") || ran == 0 {
				t.Errorf("%d requests ran, %d could not be evaluated: the case tests nothing", ran, failed)
			}
		})
	}
}
