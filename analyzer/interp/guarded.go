package interp

import (
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// guardedSteps finds the variables a loop changes only where one if of
// its body lets a lane through: dwtHaar1D's
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
// before, and holds what k steps make of the entry value. The guard and
// its branch see that value; elsewhere in the body, and after the loop,
// the variables differ by lane (unknown). It returns the if and each
// variable's step, or nil.
//
// holders and after are the first pass's (discovery); steps are the
// plain induction variables, which change whatever the guard does; first
// is the first unknown the first pass made (a value loaded in the body).
func guardedSteps(names []string, body parser.Stmt, post parser.Expr, d discovery, steps map[string]step, first int) (*parser.If, map[string]step) {
	b, ok := body.(*parser.Block)
	if !ok || leaves(body) || d.after == nil {
		return nil, nil
	}
	var cond symbolic.Expr
	taken := map[string]value{}
	for _, name := range names {
		if _, induction := steps[name]; induction {
			continue
		}
		h := d.holders[name]
		if h.kind != vInt || h.x == nil {
			continue // a pointer or record: not followed here
		}
		sel, ok := selectOf(d.after[name])
		if !ok || symbolic.Key(sel.Else) != symbolic.Key(h.x) {
			continue
		}
		if cond != nil && symbolic.Key(cond) != symbolic.Key(sel.Cond) {
			return nil, nil // two guards: which lanes hold what is not one set
		}
		cond = sel.Cond
		taken[name] = value{kind: vInt, x: sel.Then, typ: d.after[name].typ}
	}
	if cond == nil || !guardStable(cond, taken, d.holders, first) {
		return nil, nil
	}
	guard := onlyGuard(b, taken, post)
	if guard == nil {
		return nil, nil
	}
	out := map[string]step{}
	for name, v := range taken {
		if st, ok := stepOf(d.holders[name], v, d.holders); ok {
			out[name] = step{add: st}
		} else if sh, ok := shiftOf(d.holders[name], v); ok {
			out[name] = step{shift: sh}
		} else {
			return nil, nil // what the branch makes of it has no closed form
		}
	}
	return guard, out
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

// onlyGuard is the if (no else) written in a loop body itself that
// holds every assignment of the guarded variables, when no other
// statement of the body (nor the loop's step) assigns them.
func onlyGuard(b *parser.Block, taken map[string]value, post parser.Expr) *parser.If {
	var guard *parser.If
	for _, st := range b.Stmts {
		if s, ok := st.(*parser.If); ok && s.Else == nil && guard == nil && namesAny(s.Then, taken) {
			guard = s
			continue
		}
		if assignsAny(st, nil, taken) {
			return nil
		}
	}
	if post != nil && assignsAny(nil, post, taken) {
		return nil
	}
	return guard
}

// assignsAny reports whether a statement or expression assigns one of
// names.
func assignsAny(st parser.Stmt, e parser.Expr, names map[string]value) bool {
	if st == nil {
		st = &parser.Block{}
	}
	for name := range assignedNames(st, e) {
		if _, ok := names[name]; ok {
			return true
		}
	}
	return false
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

// guardedIf interprets the guard of a loop whose variables only it
// changes: the condition and the branch see held (the values of lanes
// that passed every earlier iteration's guard), and past the if the
// variables are again what the loop made them elsewhere (unknown: each
// lane left the branch at an iteration of its own).
func (in *interp) guardedIf(s *parser.If, held map[string]value) {
	outside := map[string]value{}
	for name, v := range held {
		outside[name] = in.vars[name]
		in.vars[name] = v
	}
	delete(in.guardedIfs, s) // interpreted once, as a plain if
	in.ifStmt(s)
	in.guardedIfs[s] = held
	for name, v := range outside {
		in.vars[name] = v
	}
}
