package symbolic

// Subst replaces symbols by expressions and re-simplifies. Symbols not in
// the map stay.
func Subst(e Expr, m map[string]Expr) Expr {
	switch x := e.(type) {
	case *Var:
		if r, ok := m[x.Name]; ok {
			return r
		}
		return atomPoly(x)
	case *Op:
		return Binary(x.Kind, Subst(x.X, m), Subst(x.Y, m))
	case *Select:
		return Cond(Subst(x.Cond, m), Subst(x.Then, m), Subst(x.Else, m))
	case *Poly:
		out := Const(x.Const)
		for _, t := range x.Terms {
			prod := Const(t.Coeff)
			for _, a := range t.Atoms {
				prod = Mul(prod, Subst(a, m))
			}
			out = Add(out, prod)
		}
		return out
	}
	return e
}

// Symbols calls f for every symbol in e.
func Symbols(e Expr, f func(*Var)) {
	switch x := e.(type) {
	case *Var:
		f(x)
	case *Op:
		Symbols(x.X, f)
		Symbols(x.Y, f)
	case *Select:
		Symbols(x.Cond, f)
		Symbols(x.Then, f)
		Symbols(x.Else, f)
	case *Poly:
		for _, t := range x.Terms {
			for _, a := range t.Atoms {
				Symbols(a, f)
			}
		}
	}
}

// Mentions reports whether e mentions the symbol name.
func Mentions(e Expr, name string) bool {
	found := false
	Symbols(e, func(v *Var) { found = found || v.Name == name })
	return found
}

// Coefficient returns the coefficient of symbol name in e when e is affine
// in it (the symbol appears only in degree-one monomials, and inside no
// non-polynomial operator); ok is false otherwise. A symbol e does not
// mention has coefficient 0.
func Coefficient(e Expr, name string) (Expr, bool) {
	p := asPoly(e)
	coeff := Const(0)
	for _, t := range p.Terms {
		count := 0
		var rest []Expr
		for _, a := range t.Atoms {
			if v, ok := a.(*Var); ok && v.Name == name {
				count++
				continue
			}
			if Mentions(a, name) {
				return nil, false
			}
			rest = append(rest, a)
		}
		switch count {
		case 0:
			continue
		case 1:
			term := Const(t.Coeff)
			for _, a := range rest {
				term = Mul(term, atomPoly(a))
			}
			coeff = Add(coeff, term)
		default:
			return nil, false
		}
	}
	return coeff, true
}
