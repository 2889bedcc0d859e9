package symbolic

// Env binds symbols to slots of a value array for compiled evaluation.
type Env struct {
	slots map[SymID]int
	ids   []SymID
}

// NewEnv returns an empty environment.
func NewEnv() *Env { return &Env{slots: map[SymID]int{}} }

// Slot returns the slot of symbol id, adding it when new.
func (e *Env) Slot(id SymID) int {
	if s, ok := e.slots[id]; ok {
		return s
	}
	e.slots[id] = len(e.ids)
	e.ids = append(e.ids, id)
	return len(e.ids) - 1
}

// Len is the number of slots.
func (e *Env) Len() int { return len(e.ids) }

// IDs lists the symbols in slot order.
func (e *Env) IDs() []SymID { return e.ids }

// Values holds one value per slot; Known[i] says whether slot i has one.
type Values struct {
	V     []int64
	Known []bool
}

// NewValues returns an all-unknown value array for env.
func (e *Env) NewValues() *Values {
	return &Values{V: make([]int64, e.Len()), Known: make([]bool, e.Len())}
}

// Grow extends v to every slot env has now, the new ones unknown: a
// condition compiled after v was made may have added slots.
func (v *Values) Grow(env *Env) {
	for len(v.V) < env.Len() {
		v.V = append(v.V, 0)
		v.Known = append(v.Known, false)
	}
}

// Set binds slot s to v.
func (v *Values) Set(s int, x int64) { v.V[s], v.Known[s] = x, true }

// Unset makes slot s unknown.
func (v *Values) Unset(s int) { v.Known[s] = false }

// Func evaluates a compiled expression; ok is false when a symbol it needs
// is unknown or the arithmetic is undefined (division by zero).
type Func func(v *Values) (int64, bool)

// Compile turns e into a closure over env's slots, adding slots for its symbols.
func Compile(e Expr, env *Env) Func {
	switch x := e.(type) {
	case *Var:
		s := env.Slot(x.Key())
		return func(v *Values) (int64, bool) { return v.V[s], v.Known[s] }
	case *Op:
		return opFunc(x.Kind, Compile(x.X, env), Compile(x.Y, env))
	case *Select:
		return selectFunc(Compile(x.Cond, env), Compile(x.Then, env), Compile(x.Else, env))
	case *Poly:
		return compilePoly(x, env)
	}
	return func(*Values) (int64, bool) { return 0, false }
}

// compileLogic evaluates && (or || when or is set) in three-valued logic:
// an operand that decides the result (false for &&, true for ||) decides
// it even when the other is unknown. Binary sorts the operands of && and
// || (they have no side effects here), so the result must not depend on
// their order; and C's short-circuit, which guards an undefined operand
// (n != 0 && x / n > 1), gives the same values.
func compileLogic(or bool, fx, fy Func) Func {
	decides := func(x int64, ok bool) bool { return ok && (x != 0) == or }
	return func(v *Values) (int64, bool) {
		a, oka := fx(v)
		if decides(a, oka) {
			return b2i(or), true
		}
		b, okb := fy(v)
		if decides(b, okb) {
			return b2i(or), true
		}
		if !oka || !okb {
			return 0, false
		}
		return b2i(!or), true
	}
}

// opFunc applies operator k to what fx and fy evaluate.
func opFunc(k OpKind, fx, fy Func) Func {
	if k == OpLAnd || k == OpLOr {
		return compileLogic(k == OpLOr, fx, fy)
	}
	return func(v *Values) (int64, bool) {
		a, ok := fx(v)
		if !ok {
			return 0, false
		}
		b, ok := fy(v)
		if !ok {
			return 0, false
		}
		return apply(k, a, b)
	}
}

// selectFunc is fc ? ft : fe.
func selectFunc(fc, ft, fe Func) Func {
	return func(v *Values) (int64, bool) {
		c, ok := fc(v)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return ft(v)
		}
		return fe(v)
	}
}

// term is a compiled monomial: its coefficient times its atoms.
type term struct {
	coeff int64
	atoms []Func
}

func compileTerm(t Mono, env *Env) term {
	out := term{coeff: t.Coeff}
	for _, a := range t.Atoms {
		out.atoms = append(out.atoms, Compile(a, env))
	}
	return out
}

func compilePoly(p *Poly, env *Env) Func {
	terms := make([]term, len(p.Terms))
	for i, t := range p.Terms {
		terms[i] = compileTerm(t, env)
	}
	return sumFunc(p.Const, terms)
}

// sumFunc is c plus the sum of terms; unknown when an atom is.
func sumFunc(c int64, terms []term) Func {
	if len(terms) == 0 {
		return func(*Values) (int64, bool) { return c, true }
	}
	return func(v *Values) (int64, bool) {
		sum := c
		for _, t := range terms {
			prod := t.coeff
			for _, a := range t.atoms {
				x, ok := a(v)
				if !ok {
					return 0, false
				}
				prod *= x
			}
			sum += prod
		}
		return sum, true
	}
}

// Eval evaluates e with the given bindings (a convenience for tests and
// one-off evaluations; hot paths use Compile).
func Eval(e Expr, bind map[SymID]int64) (int64, bool) {
	env := NewEnv()
	f := Compile(e, env)
	vals := env.NewValues()
	for id, x := range bind {
		if s, ok := env.slots[id]; ok {
			vals.Set(s, x)
		}
	}
	return f(vals)
}
