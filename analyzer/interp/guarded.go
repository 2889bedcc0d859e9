package interp

import (
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// guardedSteps finds the variables a loop changes only where one if of
// its body lets a lane through, and reads nowhere else: dwtHaar1D's
//
//	for (i = 1; i < dlevels; ++i) {
//	    if (tid < num_threads) { ...od[num_threads * gdim + tid]...; num_threads >>= 1; }
//	    sync();
//	}
//
// A lane the guard stops keeps what it had, and so does everything the
// guard reads (the guarded variables, and values no iteration changes),
// so a lane stopped once is stopped at every later iteration: a lane the
// guard lets through at iteration k took the branch at every iteration
// before, and holds what k steps make of the entry value. The branch's
// accesses see that value; lanes elsewhere hold others, which nothing
// reads, and after the loop the variables differ by lane (unknown).
//
// holders and after are the first pass's (discovery); steps are the
// plain induction variables, which change whatever the guard does; first
// is the first unknown the first pass made (a value loaded in the body).
func guardedSteps(names []string, body parser.Stmt, post parser.Expr, d discovery, steps map[string]step, first int) map[string]step {
	b, ok := body.(*parser.Block)
	if !ok || leaves(body) || d.after == nil {
		return nil
	}
	var cond symbolic.Expr
	taken := map[string]value{}
	for _, name := range names {
		if _, induction := steps[name]; induction {
			continue
		}
		sel, ok := selectOf(d.after[name])
		if !ok || symbolic.Key(sel.Else) != symbolic.Key(d.holders[name].x) {
			continue
		}
		if cond != nil && symbolic.Key(cond) != symbolic.Key(sel.Cond) {
			return nil // two guards: which lanes hold what is not one set
		}
		cond = sel.Cond
		taken[name] = value{kind: vInt, x: sel.Then, typ: d.after[name].typ}
	}
	if cond == nil || !guardStable(cond, taken, d.holders, first) {
		return nil
	}
	guard := onlyGuard(b, taken, post)
	if guard == nil {
		return nil
	}
	out := map[string]step{}
	for name, v := range taken {
		if st, ok := stepOf(d.holders[name], v, d.holders); ok {
			out[name] = step{add: st}
		} else if sh, ok := shiftOf(d.holders[name], v); ok {
			out[name] = step{shift: sh}
		} else {
			return nil // what the branch makes of it has no closed form
		}
	}
	return out
}

// selectOf is the select a value is (c ? then : else), as the merge of
// an if's two branches makes it.
func selectOf(v value) (*symbolic.Select, bool) {
	if v.kind != vInt || v.x == nil {
		return nil, false
	}
	p, ok := v.x.(*symbolic.Poly)
	if !ok || p.Const != 0 || len(p.Terms) != 1 || p.Terms[0].Coeff != 1 || len(p.Terms[0].Atoms) != 1 {
		s, ok := v.x.(*symbolic.Select)
		return s, ok
	}
	s, ok := p.Terms[0].Atoms[0].(*symbolic.Select)
	return s, ok
}

// guardStable reports whether a guard reads only the guarded variables
// and values no iteration changes: no other variable's placeholder, and
// nothing the body loads.
func guardStable(cond symbolic.Expr, taken map[string]value, holders map[string]value, first int) bool {
	guarded := map[symbolic.SymID]bool{}
	for name := range taken {
		if id, ok := symbolIn(holders[name]); ok {
			guarded[id] = true
		}
	}
	ok := true
	symbolic.Symbols(cond, func(v *symbolic.Var) {
		switch {
		case v.Kind == symbolic.KindEntry:
			ok = ok && guarded[v.Key()]
		case v.Kind == symbolic.KindUnknown && v.ID >= first:
			ok = false
		}
	})
	return ok
}

// onlyGuard is the if (no else) of a loop body, written in the body
// itself, that holds every assignment of the guarded variables, when no
// other statement of the body (nor the loop's step) names them.
func onlyGuard(b *parser.Block, taken map[string]value, post parser.Expr) *parser.If {
	var guard *parser.If
	for _, st := range b.Stmts {
		if !namesAny(st, taken) {
			continue
		}
		s, ok := st.(*parser.If)
		if !ok || s.Else != nil || guard != nil {
			return nil
		}
		guard = s
	}
	if post != nil && exprNamesAny(post, taken) {
		return nil
	}
	return guard
}

func namesAny(st parser.Stmt, names map[string]value) bool {
	found := false
	parser.WalkStmt(st, func(e parser.Expr) {
		if id, ok := e.(*parser.Ident); ok {
			_, named := names[id.Name]
			found = found || named
		}
	})
	return found
}

func exprNamesAny(e parser.Expr, names map[string]value) bool {
	found := false
	parser.WalkExpr(e, func(e parser.Expr) {
		if id, ok := e.(*parser.Ident); ok {
			_, named := names[id.Name]
			found = found || named
		}
	})
	return found
}
