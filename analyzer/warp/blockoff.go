package warp

import "github.com/cudalint/cudalint/symbolic"

// blockOff reports that no warp of block b runs the access at the given
// iterations, when interval bounds over the block's threads show it
// (with the block's and the iterations' values known): blockRuns' answer
// without evaluating its warps one by one. False means not shown, never
// that a warp runs it. A predicated store in a loop whose range shrinks
// with the iteration (Rodinia's hotspot) has most of its sampled blocks
// off at most iterations.
func (m *warpModel) blockOff(b int64, iters []int64) bool {
	ok, active := m.blockRequest(b, iters)
	if !ok || !active {
		return true // every warp's request fails or has no lane on
	}
	if m.slotOf == nil {
		m.slotOf = map[symbolic.SymID]int{}
		for s, id := range m.env.IDs() {
			m.slotOf[id] = s
		}
	}
	for _, conds := range [][]symbolic.Expr{m.laneExprs, m.predExprs} {
		for _, c := range conds {
			if iv, ok := m.blockBounds(c); ok && iv.lo == 0 && iv.hi == 0 {
				return true
			}
		}
	}
	return false
}

// boundLimit bounds the magnitudes blockBounds works with, so that no
// product or sum of its intervals overflows: within it, its arithmetic is
// the exact arithmetic Compile's evaluation does.
const boundLimit = 1 << 31

// blockBounds is an interval holding e's value at every thread of the
// block set up in the model's values, ok only when e evaluates, known,
// at every one of them (so that [0, 0] means every lane fails e, not
// that e cannot be evaluated, which passes).
func (m *warpModel) blockBounds(e symbolic.Expr) (interval, bool) {
	if v, ok := symbolic.IsConst(e); ok {
		return small(interval{v, v})
	}
	switch x := e.(type) {
	case *symbolic.Var:
		for d, id := range threadSyms {
			if x.Key() == id {
				return interval{0, m.block[d] - 1}, true
			}
		}
		s, ok := m.slotOf[x.Key()]
		if !ok || s >= len(m.vals.V) || !m.vals.Known[s] {
			return interval{}, false
		}
		return small(interval{m.vals.V[s], m.vals.V[s]})
	case *symbolic.Poly:
		sum := interval{x.Const, x.Const}
		for _, t := range x.Terms {
			prod, ok := small(interval{t.Coeff, t.Coeff})
			for _, a := range t.Atoms {
				if !ok {
					return interval{}, false
				}
				var iv interval
				if iv, ok = m.blockBounds(a); ok {
					prod, ok = small(mulInterval(prod, iv))
				}
			}
			if !ok {
				return interval{}, false
			}
			if sum, ok = small(interval{sum.lo + prod.lo, sum.hi + prod.hi}); !ok {
				return interval{}, false
			}
		}
		return sum, true
	case *symbolic.Select:
		c, ok := m.blockBounds(x.Cond)
		if !ok {
			return interval{}, false
		}
		t, okT := m.blockBounds(x.Then)
		f, okF := m.blockBounds(x.Else)
		switch {
		case c.lo == 0 && c.hi == 0:
			return f, okF
		case c.lo > 0 || c.hi < 0:
			return t, okT
		case okT && okF:
			return interval{min(t.lo, f.lo), max(t.hi, f.hi)}, true
		}
		return interval{}, false
	case *symbolic.Op:
		return m.opBounds(x)
	}
	return interval{}, false
}

func (m *warpModel) opBounds(x *symbolic.Op) (interval, bool) {
	a, okA := m.blockBounds(x.X)
	b, okB := m.blockBounds(x.Y)
	zero := func(iv interval, ok bool) bool { return ok && iv.lo == 0 && iv.hi == 0 }
	nonzero := func(iv interval, ok bool) bool { return ok && (iv.lo > 0 || iv.hi < 0) }
	switch x.Kind {
	case symbolic.OpLAnd: // a known false operand decides, whatever the other
		switch {
		case zero(a, okA) || zero(b, okB):
			return interval{0, 0}, true
		case nonzero(a, okA) && nonzero(b, okB):
			return interval{1, 1}, true
		case okA && okB:
			return interval{0, 1}, true
		}
		return interval{}, false
	case symbolic.OpLOr:
		switch {
		case nonzero(a, okA) || nonzero(b, okB):
			return interval{1, 1}, true
		case zero(a, okA) && zero(b, okB):
			return interval{0, 0}, true
		case okA && okB:
			return interval{0, 1}, true
		}
		return interval{}, false
	}
	if !okA || !okB {
		return interval{}, false
	}
	switch x.Kind {
	case symbolic.OpEq:
		return truth(a.lo == a.hi && b.lo == b.hi && a.lo == b.lo, a.hi < b.lo || b.hi < a.lo)
	case symbolic.OpNe:
		return truth(a.hi < b.lo || b.hi < a.lo, a.lo == a.hi && b.lo == b.hi && a.lo == b.lo)
	}
	return opInterval(x.Kind, a, b)
}

// small is iv, ok while its bounds stay within boundLimit.
func small(iv interval) (interval, bool) {
	if iv.lo < -boundLimit || iv.hi > boundLimit {
		return interval{}, false
	}
	return iv, true
}
