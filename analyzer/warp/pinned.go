package warp

import (
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/symbolic"
)

// Where an access runs only under a guard param == c (or a conjunct of
// one: n == 1 && i < m, !flag), the parameter is c there, whatever
// value a size would be assumed to have. FasterTransformer's
// is_vec == 1 ? scale[threadIdx.x * is_vec] : one was priced with is_vec
// at 4096, a 64 KB lane step, where the lanes read consecutive float4s.

// pinnedParams are the parameters (of params: those no launch gives)
// that a's guards pin to a constant; nil when none.
func pinnedParams(a *interp.Access, params map[symbolic.SymID]bool) map[symbolic.SymID]symbolic.Expr {
	var out map[symbolic.SymID]symbolic.Expr
	var walk func(g symbolic.Expr)
	walk = func(g symbolic.Expr) {
		op, ok := symbolic.AsOp(g)
		if !ok {
			return
		}
		switch op.Kind {
		case symbolic.OpLAnd:
			walk(op.X)
			walk(op.Y)
		case symbolic.OpEq:
			id, c, ok := paramEquals(op.X, op.Y, params)
			if !ok {
				id, c, ok = paramEquals(op.Y, op.X, params)
			}
			if ok {
				if out == nil {
					out = map[symbolic.SymID]symbolic.Expr{}
				}
				out[id] = symbolic.Const(c)
			}
		}
	}
	for _, g := range a.Guards {
		walk(g)
	}
	return out
}

// paramEquals: x is a parameter of params and y a constant.
func paramEquals(x, y symbolic.Expr, params map[symbolic.SymID]bool) (symbolic.SymID, int64, bool) {
	v, ok := symbolic.AsVar(x)
	if !ok || !params[v.Key()] {
		return symbolic.SymID{}, 0, false
	}
	c, ok := symbolic.IsConst(y)
	return v.Key(), c, ok
}

// withPinned is a with the pinned parameters' values in its address,
// guards and loop conditions.
func withPinned(a *interp.Access, pinned map[symbolic.SymID]symbolic.Expr) *interp.Access {
	b := *a
	b.Addr = symbolic.Subst(a.Addr, pinned)
	b.Guards = make([]symbolic.Expr, len(a.Guards))
	for i, g := range a.Guards {
		b.Guards[i] = symbolic.Subst(g, pinned)
	}
	b.Loops = make([]*interp.Loop, len(a.Loops))
	for i, l := range a.Loops {
		c := *l
		if l.Cond != nil {
			c.Cond = symbolic.Subst(l.Cond, pinned)
		}
		b.Loops[i] = &c
	}
	return &b
}
