package symbolic

// A Decider is a part of a condition, free of the lane symbols, that
// decides the condition false on its own: when Part evaluates, known, to
// a truth value of When, the whole condition evaluates to 0, known, at
// every lane, whatever the lane symbols' values. Evaluating it once per
// request spares the lanes of a request the condition turns off
// wholesale (if (blockIdx.y > 0 || threadIdx.x >= n) return;).
type Decider struct {
	Part Expr
	When bool
}

// FalseWhen lists the deciders of c (see Decider): the operands of its
// && (at any depth, through ! and ||) free of the symbols lane reports.
// It follows the three-valued logic Compile and VecEnv evaluate: an
// operand of && known false makes it known false even where the other
// is unknown; one of || known true makes it known true; !x (x == 0) is
// known when x is.
func FalseWhen(c Expr, lane func(SymID) bool) []Decider {
	return forced(c, false, lane, nil)
}

// forced appends to out the lane-free parts of e that make e evaluate,
// known, to truth want.
func forced(e Expr, want bool, lane func(SymID) bool, out []Decider) []Decider {
	free := true
	Symbols(e, func(v *Var) { free = free && !lane(v.Key()) })
	if free {
		return append(out, Decider{Part: e, When: want})
	}
	op, ok := asAtom(e).(*Op)
	if !ok {
		return out
	}
	switch op.Kind {
	case OpLAnd:
		if !want {
			out = forced(op.X, false, lane, out)
			out = forced(op.Y, false, lane, out)
		}
	case OpLOr:
		if want {
			out = forced(op.X, true, lane, out)
			out = forced(op.Y, true, lane, out)
		}
	case OpEq:
		if c, ok := IsConst(op.Y); ok && c == 0 {
			out = forced(op.X, !want, lane, out)
		} else if c, ok := IsConst(op.X); ok && c == 0 {
			out = forced(op.Y, !want, lane, out)
		}
	}
	return out
}
