package warp

import (
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// Interval bounds of expressions over a launch: every thread index ranges
// over the block, every block index over the grid, every loop iteration
// over its trip count. A guard whose bounds show it holds everywhere (the
// usual if (x < width) when the grid covers width exactly) is dropped, so
// the exact closed form applies; one that fails everywhere is kept and
// turns every lane off.

type interval struct{ lo, hi int64 }

// ranges maps the symbols the model sets to the values they take.
type ranges map[symbolic.SymID]interval

func launchRanges(block, grid launch.Dim3, iters []symbolic.SymID, trips []int64) ranges {
	r := ranges{}
	for d := 0; d < 3; d++ {
		r[threadSyms[d]] = interval{0, block[d] - 1}
		r[blockSyms[d]] = interval{0, grid[d] - 1}
	}
	for i, name := range iters {
		r[name] = interval{0, max(trips[i]-1, 0)}
	}
	return r
}

// bounds returns an interval holding every value of e, or ok false.
func (r ranges) bounds(e symbolic.Expr) (interval, bool) {
	switch x := e.(type) {
	case *symbolic.Var:
		iv, ok := r[x.Key()]
		return iv, ok
	case *symbolic.Poly:
		sum := interval{x.Const, x.Const}
		for _, t := range x.Terms {
			prod := interval{t.Coeff, t.Coeff}
			for _, a := range t.Atoms {
				iv, ok := r.bounds(a)
				if !ok {
					return interval{}, false
				}
				prod = mulInterval(prod, iv)
			}
			sum = interval{sum.lo + prod.lo, sum.hi + prod.hi}
		}
		return sum, true
	case *symbolic.Op:
		a, okA := r.bounds(x.X)
		b, okB := r.bounds(x.Y)
		if !okA || !okB {
			return interval{}, false
		}
		if x.Kind == symbolic.OpLAnd {
			return truth(a.lo > 0 && b.lo > 0, a.hi == 0 && a.lo == 0 || b.hi == 0 && b.lo == 0)
		}
		return opInterval(x.Kind, a, b)
	}
	return interval{}, false
}

// opInterval is an interval holding a op b for a in a and b in b, for the
// operators both interval evaluations share (a comparison, a division
// or remainder by a positive constant, min and max), ok false for others.
func opInterval(kind symbolic.OpKind, a, b interval) (interval, bool) {
	switch kind {
	case symbolic.OpLt:
		return truth(a.hi < b.lo, a.lo >= b.hi)
	case symbolic.OpLe:
		return truth(a.hi <= b.lo, a.lo > b.hi)
	case symbolic.OpDiv:
		if b.lo == b.hi && b.lo > 0 && a.lo >= 0 {
			return interval{a.lo / b.lo, a.hi / b.lo}, true
		}
	case symbolic.OpRem:
		if b.lo == b.hi && b.lo > 0 && a.lo >= 0 {
			return interval{0, min(a.hi, b.lo-1)}, true
		}
	case symbolic.OpMin:
		return interval{min(a.lo, b.lo), min(a.hi, b.hi)}, true
	case symbolic.OpMax:
		return interval{max(a.lo, b.lo), max(a.hi, b.hi)}, true
	}
	return interval{}, false
}

// truth is the interval of a comparison: [1,1] when it always holds,
// [0,0] when it never does, [0,1] otherwise.
func truth(always, never bool) (interval, bool) {
	switch {
	case always:
		return interval{1, 1}, true
	case never:
		return interval{0, 0}, true
	}
	return interval{0, 1}, true
}

func mulInterval(a, b interval) interval {
	p := [4]int64{a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi}
	lo, hi := p[0], p[0]
	for _, v := range p[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return interval{lo, hi}
}

// alwaysTrue reports whether cond holds for every thread of the launch.
func (r ranges) alwaysTrue(cond symbolic.Expr) bool {
	iv, ok := r.bounds(cond)
	return ok && iv.lo > 0
}
