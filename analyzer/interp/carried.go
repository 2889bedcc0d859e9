package interp

import (
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// uniformCarried finds the variables a loop carries that are the same in
// every lane although no closed form gives them (off = off * 3 + 1,
// off += steps[k], off += k % 2 ? m : 2 * m): its entry value and what
// the body makes of it are warp-uniform, and every other variable the
// body's result reads is an induction variable that is uniform or such a
// value itself. Each becomes a uniform symbol standing for its value at
// the loop's iteration; Next says how an iteration changes it where the
// model can follow (the warp model evaluates it), else nil.
func (in *interp) uniformCarried(names []string, d discovery, entry, advanced map[string]value, pos parser.Pos) []Carried {
	if d.after == nil {
		return nil
	}
	holderOf := map[symbolic.SymID]string{} // placeholder -> variable
	for name, h := range d.holders {
		if id, ok := symbolIn(h); ok {
			holderOf[id] = name
		}
	}
	isUniform := func(v value) bool {
		return v.kind == vInt && v.x != nil && symbolic.ClassOf(v.x) == symbolic.Uniform
	}
	cand := map[string]bool{}
	for _, name := range names {
		if _, induction := advanced[name]; induction {
			continue
		}
		if isUniform(entry[name]) && isUniform(d.after[name]) {
			cand[name] = true
		}
	}
	// A variable whose next value reads one that differs across lanes
	// (or that the model does not follow) differs too: drop until none
	// is left to drop.
	for changed := true; changed; {
		changed = false
		for _, name := range names {
			if !cand[name] {
				continue
			}
			ok := true
			symbolic.Symbols(d.after[name].x, func(v *symbolic.Var) {
				if v.Kind != symbolic.KindEntry {
					return
				}
				y, isHolder := holderOf[v.Key()]
				ok = ok && isHolder && (cand[y] || isUniform(advanced[y]))
			})
			if !ok {
				delete(cand, name)
				changed = true
			}
		}
	}
	var out []Carried
	syms := map[symbolic.SymID]symbolic.Expr{}
	for _, name := range names {
		if !cand[name] {
			continue
		}
		x := in.unknown(symbolic.CauseLoopCarried, name, pos, "varies in loop: "+name, symbolic.Uniform)
		v, _ := symbolic.AsVar(x)
		out = append(out, Carried{Name: name, Sym: v, Entry: entry[name].x})
		if id, ok := symbolIn(d.holders[name]); ok {
			syms[id] = x
		}
	}
	for name, a := range advanced {
		if id, ok := symbolIn(d.holders[name]); ok && isUniform(a) {
			syms[id] = a.x
		}
	}
	for i := range out {
		out[i].Next = nextValue(d.after[out[i].Name].x, syms, out)
	}
	return out
}

// symbolIn is the symbol an integer placeholder holds.
func symbolIn(h value) (symbolic.SymID, bool) {
	if h.kind != vInt || h.x == nil {
		return symbolic.SymID{}, false
	}
	return symbolic.IDOf(h.x)
}

// nextValue is after (the value an iteration leaves, over placeholders)
// over the loop's carried symbols and iteration instead; nil when it
// reads an unknown other than them (a loaded value changes from one
// iteration to the next: the symbol the first pass made for it stands for
// one of them only).
func nextValue(after symbolic.Expr, syms map[symbolic.SymID]symbolic.Expr, carried []Carried) symbolic.Expr {
	next := symbolic.Subst(after, syms)
	ok := true
	symbolic.Symbols(next, func(v *symbolic.Var) {
		if v.Kind != symbolic.KindUnknown && v.Kind != symbolic.KindEntry {
			return
		}
		own := false
		for _, c := range carried {
			own = own || c.Sym.Key() == v.Key()
		}
		ok = ok && own
	})
	if !ok {
		return nil
	}
	return next
}

// unrollOf is the #pragma unroll before a loop statement.
func unrollOf(node parser.Stmt) parser.Unroll {
	switch s := node.(type) {
	case *parser.For:
		return s.Unroll
	case *parser.While:
		return s.Unroll
	}
	return 0
}

// ConstantTrip is the trip count of a loop over iteration iter whose
// condition, cond, compares the iteration with a constant (with a
// template instance's values bound); 0 when it does not.
func ConstantTrip(cond symbolic.Expr, iter symbolic.SymID) int64 {
	return constantTrip(cond, iter, false)
}

// constantTrip is a loop's trip count when its condition makes it a
// constant (r < 4 once template arguments are bound); 0 otherwise, and
// for do-while loops, whose condition runs after the body.
func constantTrip(cond symbolic.Expr, iter symbolic.SymID, do bool) int64 {
	if do {
		return 0
	}
	n, ok := tripCount(cond, iter)
	if !ok {
		return 0
	}
	if k, ok := symbolic.IsConst(n); ok && k > 0 {
		return k
	}
	return 0
}

// loopVar is the variable a for loop's initialiser sets and its value at
// the loop's iteration, when it is an induction variable (for (int r = 0;
// r < 4; r++): r = iter).
func loopVar(node parser.Stmt, advanced map[string]value) (string, symbolic.Expr) {
	f, ok := node.(*parser.For)
	if !ok || f.Init == nil {
		return "", nil
	}
	name := ""
	switch s := f.Init.(type) {
	case *parser.DeclStmt:
		if len(s.Decl.Declarators) == 1 {
			name = s.Decl.Declarators[0].Name
		}
	case *parser.ExprStmt:
		if b, ok := s.X.(*parser.Binary); ok && b.Op == parser.Assign {
			if id, ok := b.X.(*parser.Ident); ok {
				name = id.Name
			}
		}
	}
	if v, ok := advanced[name]; ok && v.kind == vInt && v.x != nil {
		return name, v.x
	}
	return "", nil
}
