package symbolic

// Lanes is how many lanes a vector evaluation covers: a warp's.
const Lanes = 32

// allLanes is the mask of every lane.
const allLanes = ^uint32(0)

// Vec is a value per lane; bit i of OK is set when lane i's is known.
type Vec struct {
	V  [Lanes]int64
	OK uint32
}

// VecFunc evaluates a compiled expression at every lane at once. The Vec
// it returns is its own, valid until its next call; a lane's value where
// it is not known means nothing.
type VecFunc func(v *Values) *Vec

// A VecEnv compiles expressions for evaluation over the lanes of a
// request at once, node by node rather than lane by lane. A part that
// mentions no lane symbol is evaluated once and spread over the lanes; a
// part that mentions lane symbols only is kept per lane key (SetLanes:
// the warp), evaluated the first time its key is seen; only the parts
// that mix the two are evaluated at every request.
//
// Lane i of a VecFunc's result is what Compile's Func gives with the
// lane symbols at their lane-i values: the same sub-expressions with the
// same arithmetic (sums and products regrouped, which two's-complement
// arithmetic does not change), unknown exactly where Compile's is.
type VecEnv struct {
	env  *Env
	lane map[SymID]int // lane symbol -> index into in
	in   []Vec
	key  int64
}

// maxVecKeys bounds the lane keys whose lane-only parts are kept; past
// it they are evaluated at every request.
const maxVecKeys = 1 << 12

// NewVecEnv returns a VecEnv over env whose lane symbols are lane, in
// the order SetLanes gives their values.
func NewVecEnv(env *Env, lane []SymID) *VecEnv {
	ve := &VecEnv{env: env, lane: map[SymID]int{}}
	for i, id := range lane {
		ve.lane[id] = i
	}
	return ve
}

// SetLanes gives the lane symbols their values at each lane (in, in
// NewVecEnv's order, held until the next call) under key: two calls with
// the same key must give the same values.
func (ve *VecEnv) SetLanes(key int64, in []Vec) { ve.key, ve.in = key, in }

// Compile compiles e over every lane; its symbols other than the lane
// symbols are read from the Values it is called with.
func (ve *VecEnv) Compile(e Expr) VecFunc { return ve.compile(e, false) }

// compile compiles e; inKept says e is part of a lane-only part being
// kept, so that its own lane-only parts need no keeping of their own.
func (ve *VecEnv) compile(e Expr, inKept bool) VecFunc {
	lane, other := ve.mentions(e)
	if !lane {
		return ve.spread(e)
	}
	if x, ok := e.(*Var); ok {
		i := ve.lane[x.Key()]
		return func(*Values) *Vec { return &ve.in[i] }
	}
	if !other && !inKept {
		return ve.keep(ve.compile(e, true))
	}
	switch x := e.(type) {
	case *Op:
		return vecOp(x.Kind, ve.compile(x.X, inKept), ve.compile(x.Y, inKept))
	case *Select:
		return vecSelect(ve.compile(x.Cond, inKept), ve.compile(x.Then, inKept), ve.compile(x.Else, inKept))
	case *Poly:
		return ve.poly(x, inKept)
	}
	return ve.spread(e)
}

// spread evaluates an expression without lane symbols once and gives its
// value to every lane.
func (ve *VecEnv) spread(e Expr) VecFunc {
	if c, ok := IsConst(e); ok {
		out := &Vec{OK: allLanes}
		for i := range out.V {
			out.V[i] = c
		}
		return func(*Values) *Vec { return out }
	}
	return spreadFunc(Compile(e, ve.env))
}

func spreadFunc(f Func) VecFunc {
	out := &Vec{}
	return func(v *Values) *Vec {
		x, ok := f(v)
		out.OK = 0
		if ok {
			out.OK = allLanes
			if out.V[0] != x || out.V[Lanes-1] != x {
				for i := range out.V {
					out.V[i] = x
				}
			}
		}
		return out
	}
}

// keep keeps what f gives per lane key.
func (ve *VecEnv) keep(f VecFunc) VecFunc {
	var kept []*Vec
	return func(v *Values) *Vec {
		k := ve.key
		if k < 0 || k >= maxVecKeys {
			return f(v)
		}
		for int64(len(kept)) <= k {
			kept = append(kept, nil)
		}
		if kept[k] == nil {
			r := *f(v)
			kept[k] = &r
		}
		return kept[k]
	}
}

// poly compiles a polynomial that mentions lane symbols: its terms
// without lane symbols are summed once and spread; with lane symbols
// only, kept as one part; the others are multiplied out lane by lane.
func (ve *VecEnv) poly(p *Poly, inKept bool) VecFunc {
	var uni, lane []Mono
	type vterm struct {
		coeff int64
		atoms []VecFunc
	}
	var mixed []vterm
	for _, t := range p.Terms {
		l, o := false, false
		for _, a := range t.Atoms {
			la, oa := ve.mentions(a)
			l, o = l || la, o || oa
		}
		switch {
		case !l:
			uni = append(uni, t)
		case !o && !inKept:
			lane = append(lane, t)
		default:
			m := vterm{coeff: t.Coeff}
			for _, a := range t.Atoms {
				m.atoms = append(m.atoms, ve.compile(a, inKept))
			}
			mixed = append(mixed, m)
		}
	}
	if len(uni) > 0 {
		terms := make([]term, len(uni))
		for i, t := range uni {
			terms[i] = compileTerm(t, ve.env)
		}
		mixed = append(mixed, vterm{coeff: 1, atoms: []VecFunc{spreadFunc(sumFunc(0, terms))}})
	}
	if len(lane) > 0 {
		mixed = append(mixed, vterm{coeff: 1, atoms: []VecFunc{ve.keep(ve.poly(&Poly{Terms: lane}, true))}})
	}
	var init Vec
	for i := range init.V {
		init.V[i] = p.Const
	}
	out, prod := &Vec{}, &Vec{}
	return func(v *Values) *Vec {
		ok := allLanes
		out.V = init.V
		for _, t := range mixed {
			c := t.coeff
			switch len(t.atoms) {
			case 1: // most terms: a coefficient times one atom
				a := t.atoms[0](v)
				ok &= a.OK
				for i := range out.V {
					out.V[i] += c * a.V[i]
				}
				continue
			case 2:
				a, b := t.atoms[0](v), t.atoms[1](v)
				ok &= a.OK & b.OK
				for i := range out.V {
					out.V[i] += c * a.V[i] * b.V[i]
				}
				continue
			}
			for i := range prod.V {
				prod.V[i] = c
			}
			for _, f := range t.atoms {
				a := f(v)
				ok &= a.OK
				for i := range prod.V {
					prod.V[i] *= a.V[i]
				}
			}
			for i := range out.V {
				out.V[i] += prod.V[i]
			}
		}
		out.OK = ok
		return out
	}
}

// vecOp applies operator k lane by lane.
func vecOp(k OpKind, fx, fy VecFunc) VecFunc {
	out := &Vec{}
	if k == OpLAnd || k == OpLOr {
		or := k == OpLOr
		return func(v *Values) *Vec {
			a, b := fx(v), fy(v)
			out.OK = 0
			for i := range out.V {
				oka, okb := a.OK>>i&1 != 0, b.OK>>i&1 != 0
				switch {
				case oka && (a.V[i] != 0) == or, okb && (b.V[i] != 0) == or:
					out.V[i] = b2i(or)
				case !oka || !okb:
					continue
				default:
					out.V[i] = b2i(!or)
				}
				out.OK |= 1 << i
			}
			return out
		}
	}
	return func(v *Values) *Vec {
		a, b := fx(v), fy(v)
		ok := a.OK & b.OK
		switch k {
		case OpLt:
			for i := range out.V {
				out.V[i] = b2i(a.V[i] < b.V[i])
			}
		case OpLe:
			for i := range out.V {
				out.V[i] = b2i(a.V[i] <= b.V[i])
			}
		case OpEq:
			for i := range out.V {
				out.V[i] = b2i(a.V[i] == b.V[i])
			}
		case OpNe:
			for i := range out.V {
				out.V[i] = b2i(a.V[i] != b.V[i])
			}
		case OpMin:
			for i := range out.V {
				out.V[i] = min(a.V[i], b.V[i])
			}
		case OpMax:
			for i := range out.V {
				out.V[i] = max(a.V[i], b.V[i])
			}
		case OpAnd:
			for i := range out.V {
				out.V[i] = a.V[i] & b.V[i]
			}
		default:
			for i := range out.V {
				if ok>>i&1 == 0 {
					continue
				}
				x, good := apply(k, a.V[i], b.V[i])
				if !good {
					ok &^= 1 << i
				}
				out.V[i] = x
			}
		}
		out.OK = ok
		return out
	}
}

// vecSelect is fc ? ft : fe lane by lane.
func vecSelect(fc, ft, fe VecFunc) VecFunc {
	out := &Vec{}
	return func(v *Values) *Vec {
		c, t, e := fc(v), ft(v), fe(v)
		out.OK = 0
		for i := range out.V {
			if c.OK>>i&1 == 0 {
				continue
			}
			src := e
			if c.V[i] != 0 {
				src = t
			}
			out.V[i] = src.V[i]
			out.OK |= src.OK & (1 << i)
		}
		return out
	}
}

// mentions reports whether e mentions a lane symbol, and another symbol.
func (ve *VecEnv) mentions(e Expr) (lane, other bool) {
	Symbols(e, func(v *Var) {
		if _, ok := ve.lane[v.Key()]; ok {
			lane = true
		} else {
			other = true
		}
	})
	return lane, other
}
