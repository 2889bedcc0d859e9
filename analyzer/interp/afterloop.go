package interp

import (
	"strconv"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// sumDiff is what one iteration adds to an integer variable, after -
// holder, when the variable's own placeholder cancels out (d += j: the
// other variables' placeholders may remain).
func sumDiff(holder, after value) (symbolic.Expr, bool) {
	if holder.kind != vInt || after.kind != vInt || holder.x == nil || after.x == nil {
		return nil, false
	}
	d := symbolic.Sub(after.x, holder.x)
	if symbolic.ClassOf(d) == symbolic.Data || mentionsSym(d, holder.x) {
		return nil, false
	}
	return d, true
}

// sumInductions resolves the steps discoverInductions left as diffs: a
// variable that adds, each iteration, an affine function a + b*iter of
// the iteration (through induction variables that add constants, d += j)
// is entry + a*iter + b*iter*(iter-1)/2. Others are dropped (unknown).
func (in *interp) sumInductions(steps map[string]step, entry map[string]value, iter symbolic.Expr) {
	iterVar, _ := symbolic.AsVar(iter)
	at := map[symbolic.SymID]symbolic.Expr{}
	for name, st := range steps {
		if e, ok := entry[name]; ok && e.kind == vInt && e.x != nil && st.diff == nil && st.shift == 0 && st.quad == nil && st.add.kind == vInt {
			// An induction variable at the start of iteration iter.
			at[symbolic.EntryID(name)] = symbolic.Add(e.x, symbolic.Mul(st.add.x, iter))
		}
	}
	for name, st := range steps {
		if st.diff == nil {
			continue
		}
		delete(steps, name)
		d := symbolic.Subst(st.diff, at)
		placeholders := false
		symbolic.Symbols(d, func(v *symbolic.Var) {
			placeholders = placeholders || v.Kind == symbolic.KindEntry
		})
		if placeholders || symbolic.ClassOf(d) == symbolic.Data {
			continue
		}
		b, lin := symbolic.Coefficient(d, iterVar.Key())
		if !lin || symbolic.Mentions(b, iterVar.Key()) {
			continue
		}
		a := symbolic.Subst(d, map[symbolic.SymID]symbolic.Expr{iterVar.Key(): symbolic.Const(0)})
		st := step{add: intValue(a)}
		if v, isConst := symbolic.IsConst(b); !isConst || v != 0 {
			st.quad = b
		}
		steps[name] = st
	}
}

// triangle is iter * (iter - 1) / 2, exact (the product is even).
func triangle(iter symbolic.Expr) symbolic.Expr {
	return symbolic.Binary(symbolic.OpDiv, symbolic.Mul(iter, symbolic.Sub(iter, symbolic.Const(1))), symbolic.Const(2))
}

// exitValues are the values a loop leaves in the variables it assigns,
// where they follow from its trip count N: an induction variable is its
// closed form at iteration N (c += s leaves entry + N*s), a variable every
// iteration sets from what the iteration knows (step = k == n - 1 ? 2 : 1)
// keeps the value of iteration N - 1 (its entry value when N is 0). The
// trip count is known for a loop whose condition compares an affine
// function of the iteration with a bound (j < n, j >= 0, j <= n), whose
// body leaves by no break, continue, return or goto, and which is not a
// do-while loop. Variables missing from the result are unknown after it.
//
// One way out is allowed: a break that fires at the last iteration only
// (Rodinia's hotspot and pathfinder: for (i = 0; i < iteration; i++) {
// computed = false; if (...) computed = true; ...; if (i == iteration -
// 1) break; ... }). The trip count is the same; the variables the body
// assigns before the break keep the last iteration's values, and those
// assigned after it, or by the loop's step, which the last iteration
// skips, are left unknown.
func (in *interp) exitValues(names []string, entry, carried, last map[string]value, steps map[string]step, l *Loop, iter symbolic.Expr, body parser.Stmt, post parser.Expr, do bool) map[string]value {
	if do || l.Cond == nil {
		return nil
	}
	var skipped map[string]bool // assigned where the last iteration does not reach
	if leaves(body) {
		if l.lastBreak == nil || l.breakCond == nil {
			return nil
		}
		skipped = assignedNames(&parser.Block{Stmts: body.(*parser.Block).Stmts[l.lastBreakAt+1:]}, post)
	}
	fresh := map[symbolic.SymID]bool{} // the unknowns this loop made for what it carries
	for _, name := range names {
		if _, ok := steps[name]; ok {
			continue
		}
		old := map[symbolic.SymID]bool{}
		symbolsOf(entry[name], func(v *symbolic.Var) { old[v.Key()] = true })
		symbolsOf(carried[name], func(v *symbolic.Var) {
			if !old[v.Key()] {
				fresh[v.Key()] = true
			}
		})
	}
	mentionsFresh := func(e symbolic.Expr) bool {
		found := false
		symbolic.Symbols(e, func(v *symbolic.Var) { found = found || fresh[v.Key()] })
		return found
	}
	n, ok := tripCount(l.Cond, l.Iter)
	if !ok {
		return in.uniformExits(names, entry, steps, l, skipped)
	}
	if mentionsFresh(n) {
		return nil
	}
	if skipped != nil && !firesLast(l.breakCond, l.Iter, n) {
		return nil
	}
	out := map[string]value{}
	for _, name := range names {
		if skipped[name] {
			continue
		}
		if st, ok := steps[name]; ok {
			out[name] = advance(entry[name], st, n)
			continue
		}
		v, e := last[name], entry[name]
		if v.kind != vInt || v.x == nil || mentionsFresh(v.x) || symbolic.ClassOf(v.x) == symbolic.Data {
			continue
		}
		final := symbolic.Subst(v.x, map[symbolic.SymID]symbolic.Expr{l.Iter: symbolic.Sub(n, symbolic.Const(1))})
		if trips, isConst := symbolic.IsConst(n); isConst && trips > 0 || uninitialised(e) {
			// The loop runs, or what it leaves is undefined where it does
			// not (bool computed; before it): the entry value does not
			// matter.
			out[name] = value{kind: vInt, x: final, typ: v.typ}
			continue
		}
		if e.kind != vInt || e.x == nil {
			continue
		}
		x := symbolic.Cond(symbolic.Binary(symbolic.OpLt, symbolic.Const(0), n), final, e.x)
		out[name] = value{kind: vInt, x: x, typ: v.typ}
	}
	return out
}

// uniformExits are the exit values of a loop's induction variables
// where its trip count has no closed form but is the same in every
// thread: a condition over block-uniform values only (caffe's LRN: while
// (head < post && head < C) ++head;). Each leaves entry + step * trips,
// trips a uniform unknown, so that the loop after it, which starts from
// head, still walks from lane to lane as its own index says. Loops that
// leave early, or whose condition reads a lane's values or data, leave
// nothing known.
func (in *interp) uniformExits(names []string, entry map[string]value, steps map[string]step, l *Loop, skipped map[string]bool) map[string]value {
	if skipped != nil || symbolic.ClassOf(l.Cond) != symbolic.Uniform {
		return nil
	}
	var trips symbolic.Expr
	out := map[string]value{}
	for _, name := range names {
		st, ok := steps[name]
		e := entry[name]
		if !ok || skipped[name] || st.shift != 0 || st.quad != nil || st.diff != nil || st.add.kind != vInt || st.add.x == nil ||
			symbolic.ClassOf(st.add.x) != symbolic.Uniform || e.kind != vInt || e.x == nil {
			continue
		}
		if trips == nil {
			trips = in.unknown(symbolic.CauseLoopCarried, name, l.Pos, "trips of the loop at line "+strconv.Itoa(int(l.Pos.Line)), symbolic.Uniform)
		}
		out[name] = advance(e, st, trips)
	}
	return out
}

// tripCount is the number of iterations of a loop whose condition c
// compares an affine function of its iteration: while R - a*iter > 0
// (or >= 0), a > 0 constant.
func tripCount(c symbolic.Expr, iter symbolic.SymID) (symbolic.Expr, bool) {
	op, ok := opOf(c)
	if !ok || (op.Kind != symbolic.OpLt && op.Kind != symbolic.OpLe) {
		return nil, false
	}
	d := symbolic.Sub(op.Y, op.X) // the loop runs while d > 0 (Lt) or d >= 0 (Le)
	coef, lin := symbolic.Coefficient(d, iter)
	if !lin {
		return nil, false
	}
	a, isConst := symbolic.IsConst(coef)
	if !isConst || a >= 0 {
		return nil, false
	}
	a = -a
	r := symbolic.Subst(d, map[symbolic.SymID]symbolic.Expr{iter: symbolic.Const(0)})
	if symbolic.ClassOf(r) == symbolic.Data {
		return nil, false
	}
	// Lt: iter < r / a, ceil(r / a) iterations; Le: iter <= r / a, floor + 1.
	num := symbolic.Add(r, symbolic.Const(a-1))
	if op.Kind == symbolic.OpLe {
		num = symbolic.Add(r, symbolic.Const(a))
	}
	return symbolic.Binary(symbolic.OpMax, symbolic.Const(0), symbolic.Binary(symbolic.OpDiv, num, symbolic.Const(a))), true
}

// opOf is the operator e is, when e is exactly one.
func opOf(e symbolic.Expr) (*symbolic.Op, bool) {
	p, ok := e.(*symbolic.Poly)
	if !ok || p.Const != 0 || len(p.Terms) != 1 || p.Terms[0].Coeff != 1 || len(p.Terms[0].Atoms) != 1 {
		return nil, false
	}
	op, ok := p.Terms[0].Atoms[0].(*symbolic.Op)
	return op, ok
}

// mentionsSym reports whether e mentions sym, a symbol.
func mentionsSym(e, sym symbolic.Expr) bool {
	id, ok := symbolic.IDOf(sym)
	return ok && symbolic.Mentions(e, id)
}

func symbolsOf(v value, f func(*symbolic.Var)) {
	switch {
	case v.kind == vInt && v.x != nil:
		symbolic.Symbols(v.x, f)
	case v.kind == vPtr && v.ptr != nil && v.ptr.offset != nil:
		symbolic.Symbols(v.ptr.offset, f)
	}
}

// leaves reports whether a loop body may leave an iteration early or the
// loop: break, continue, return, goto, or a statement not understood.
func leaves(s parser.Stmt) bool {
	switch s := s.(type) {
	case *parser.Return, *parser.Jump, *parser.BadStmt, *parser.Switch:
		return true
	case *parser.Block:
		for _, x := range s.Stmts {
			if leaves(x) {
				return true
			}
		}
	case *parser.If:
		return leaves(s.Then) || (s.Else != nil && leaves(s.Else))
	case *parser.For:
		return leaves(s.Body)
	case *parser.While:
		return leaves(s.Body)
	}
	return false
}

// onlyBreak finds the one statement of a loop's body that leaves it, when
// that is an if (c) break; written in the body itself (not in a nested
// statement) with no else: the if and its index; nil when the body leaves
// some other way too, or not at all.
func onlyBreak(body parser.Stmt) (*parser.If, int) {
	b, ok := body.(*parser.Block)
	if !ok {
		return nil, -1
	}
	var found *parser.If
	at := -1
	for i, st := range b.Stmts {
		if !leaves(st) {
			continue
		}
		s, ok := st.(*parser.If)
		if !ok || found != nil || s.Else != nil || !isBreak(s.Then) {
			return nil, -1
		}
		found, at = s, i
	}
	return found, at
}

// isBreak reports whether st is break; alone (braced or not).
func isBreak(st parser.Stmt) bool {
	if b, ok := st.(*parser.Block); ok && len(b.Stmts) == 1 {
		st = b.Stmts[0]
	}
	j, ok := st.(*parser.Jump)
	return ok && j.Kind == parser.Break
}

// firesLast reports whether a break's condition c holds at iteration n - 1
// of a loop of n iterations and at no earlier one: c is iter == e (or e ==
// iter), affine in the iteration, whose one root is n - 1.
func firesLast(c symbolic.Expr, iter symbolic.SymID, n symbolic.Expr) bool {
	op, ok := opOf(c)
	if !ok || op.Kind != symbolic.OpEq {
		return false
	}
	d := symbolic.Sub(op.X, op.Y)
	coef, lin := symbolic.Coefficient(d, iter)
	if !lin {
		return false
	}
	if k, isConst := symbolic.IsConst(coef); !isConst || k == 0 {
		return false
	}
	if m, ok := opOf(n); ok && m.Kind == symbolic.OpMax {
		if z, isConst := symbolic.IsConst(m.X); isConst && z == 0 {
			n = m.Y // max(0, r): a loop that never runs never breaks
		}
	}
	at := symbolic.Subst(d, map[symbolic.SymID]symbolic.Expr{iter: symbolic.Sub(n, symbolic.Const(1))})
	k, isConst := symbolic.IsConst(at)
	return isConst && k == 0
}
