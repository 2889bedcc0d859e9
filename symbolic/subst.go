package symbolic

// Subst replaces symbols, keyed by their identity (Var.Key), by
// expressions and re-simplifies. Symbols not in the map stay; subexpressions that mention none of them are kept as they
// are.
func Subst(e Expr, m map[SymID]Expr) Expr {
	if len(m) == 0 || !mentionsAny(e, m) {
		return e
	}
	switch x := e.(type) {
	case *Var:
		return m[x.Key()]
	case *Op:
		return Binary(x.Kind, Subst(x.X, m), Subst(x.Y, m))
	case *Select:
		return Cond(Subst(x.Cond, m), Subst(x.Then, m), Subst(x.Else, m))
	case *Poly:
		// Terms that mention no symbol of m are kept; the others are
		// rebuilt; the sum is merged once (sumTerms).
		c := x.Const
		terms := make([]Mono, 0, len(x.Terms))
		for _, t := range x.Terms {
			if !termMentions(t, m) {
				terms = append(terms, t)
				continue
			}
			prod := Const(t.Coeff)
			for _, a := range t.Atoms {
				prod = Mul(prod, Subst(a, m))
			}
			p := asPoly(prod)
			c += p.Const
			terms = append(terms, p.Terms...)
		}
		return sumTerms(c, terms)
	}
	return e
}

func termMentions(t Mono, m map[SymID]Expr) bool {
	for _, a := range t.Atoms {
		if mentionsAny(a, m) {
			return true
		}
	}
	return false
}

// mentionsAny reports whether e mentions a symbol of m.
func mentionsAny(e Expr, m map[SymID]Expr) bool {
	switch x := e.(type) {
	case *Var:
		_, ok := m[x.Key()]
		return ok
	case *Op:
		return mentionsAny(x.X, m) || mentionsAny(x.Y, m)
	case *Select:
		return mentionsAny(x.Cond, m) || mentionsAny(x.Then, m) || mentionsAny(x.Else, m)
	case *Poly:
		for _, t := range x.Terms {
			if termMentions(t, m) {
				return true
			}
		}
	}
	return false
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

// AnyOp reports whether f holds for some non-polynomial operator in e,
// outermost first.
func AnyOp(e Expr, f func(*Op) bool) bool {
	switch x := e.(type) {
	case *Op:
		return f(x) || AnyOp(x.X, f) || AnyOp(x.Y, f)
	case *Select:
		return AnyOp(x.Cond, f) || AnyOp(x.Then, f) || AnyOp(x.Else, f)
	case *Poly:
		for _, t := range x.Terms {
			for _, a := range t.Atoms {
				if AnyOp(a, f) {
					return true
				}
			}
		}
	}
	return false
}

// Mentions reports whether e mentions the symbol id.
func Mentions(e Expr, id SymID) bool {
	found := false
	Symbols(e, func(v *Var) { found = found || v.key == id.key })
	return found
}

// Coefficient returns the coefficient of symbol id in e when e is affine
// in it (the symbol appears only in degree-one monomials, and inside no
// non-polynomial operator); ok is false otherwise. A symbol e does not
// mention has coefficient 0.
func Coefficient(e Expr, id SymID) (Expr, bool) {
	p := asPoly(e)
	coeff := Const(0)
	for _, t := range p.Terms {
		count := 0
		var rest []Expr
		for _, a := range t.Atoms {
			if v, ok := a.(*Var); ok && v.key == id.key {
				count++
				continue
			}
			if Mentions(a, id) {
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
