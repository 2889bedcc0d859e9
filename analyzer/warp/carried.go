package warp

import (
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// Uniform values a loop carries (interp.Carried): the same in every lane,
// with no closed form (off = off * 3 + 1). Where the launch gives every
// value their start and their step read, the model runs the recurrence
// and knows each iteration's value, as it knows the iteration itself;
// otherwise (a step loaded from memory) the value is a uniform unknown
// whose residue mod 32 bytes is averaged over (uniform.go).

// maxCarriedIters bounds the iterations a recurrence is run for: the
// values of a longer loop are not followed.
const maxCarriedIters = 1 << 16

// recurrence is the carried values of one loop that the model evaluates.
type recurrence struct {
	loop        int              // the loop's index in the access's Loops
	iter        symbolic.SymID   // its iteration symbol
	keys        []symbolic.SymID // the carried symbols
	entry, next []symbolic.Expr
	// seq[t*len(keys):][:len(keys)] holds the values at iteration t,
	// computed as needed, back to back.
	seq   []int64
	env   *symbolic.Env
	vals  *symbolic.Values
	nextF []symbolic.Func
	iterS int
	slots []int // the keys' slots in env
}

// launchBind binds the launch's block and grid sizes and the parameter
// values it gives.
func launchBind(cfg *launch.Config) map[symbolic.SymID]symbolic.Expr {
	bind := map[symbolic.SymID]symbolic.Expr{}
	for id, v := range cfg.Values() {
		bind[id] = symbolic.Const(v)
	}
	return bind
}

// recurrencesOf are the recurrences of a's loops the model can evaluate
// under the launch: start and step read nothing but the loop's own
// carried values, its iteration, and sizes the launch gives or that are
// assumed (AssumedValue, with an assumption).
func recurrencesOf(a *interp.Access, cfg *launch.Config, params map[symbolic.SymID]bool) ([]*recurrence, []Assumption) {
	var out []*recurrence
	var notes []Assumption
	bind := launchBind(cfg)
	for i, l := range a.Loops {
		if len(l.Carried) == 0 {
			continue
		}
		r := &recurrence{loop: i, iter: l.Iter}
		own := map[symbolic.SymID]bool{l.Iter: true}
		for _, c := range l.Carried {
			own[c.Sym.Key()] = true
		}
		ok := true
		var assumed []Assumption
		for _, c := range l.Carried {
			if c.Next == nil || c.Entry == nil {
				ok = false
				break
			}
			entry, n1 := bindAssumed(c.Entry, bind, params)
			next, n2 := bindAssumed(c.Next, bind, params)
			assumed = append(append(assumed, n1...), n2...)
			ok = ok && onlyOwn(entry, own) && onlyOwn(next, own)
			r.keys = append(r.keys, c.Sym.Key())
			r.entry, r.next = append(r.entry, entry), append(r.next, next)
		}
		if !ok {
			continue
		}
		for _, n := range assumed {
			notes = appendNew(notes, n)
		}
		r.compile()
		out = append(out, r)
	}
	return out, notes
}

// bindAssumed binds e with bind, and parameters no launch gives with
// AssumedValue (saying so).
func bindAssumed(e symbolic.Expr, bind map[symbolic.SymID]symbolic.Expr, params map[symbolic.SymID]bool) (symbolic.Expr, []Assumption) {
	return assumeParams(symbolic.Subst(e, bind), params)
}

func onlyOwn(e symbolic.Expr, own map[symbolic.SymID]bool) bool {
	ok := true
	symbolic.Symbols(e, func(v *symbolic.Var) { ok = ok && own[v.Key()] })
	return ok
}

func appendNew(list []Assumption, a Assumption) []Assumption {
	for _, b := range list {
		if b == a {
			return list
		}
	}
	return append(list, a)
}

func (r *recurrence) compile() {
	r.env = symbolic.NewEnv()
	for _, k := range r.keys {
		r.slots = append(r.slots, r.env.Slot(k))
	}
	r.iterS = r.env.Slot(r.iter)
	for _, e := range r.next {
		r.nextF = append(r.nextF, symbolic.Compile(e, r.env))
	}
	r.vals = r.env.NewValues()
}

// at returns the carried values at iteration t (t < maxCarriedIters);
// ok is false when one cannot be evaluated (a division by zero).
func (r *recurrence) at(t int64) ([]int64, bool) {
	if t < 0 || t >= maxCarriedIters {
		return nil, false
	}
	n := int64(len(r.keys))
	if n == 0 {
		return []int64{}, true
	}
	if len(r.seq) == 0 {
		for _, e := range r.entry {
			v, ok := symbolic.IsConst(e)
			if !ok {
				r.seq = r.seq[:0]
				return nil, false
			}
			r.seq = append(r.seq, v)
		}
	}
	for int64(len(r.seq)) <= t*n {
		done := int64(len(r.seq)) / n
		prev := r.seq[(done-1)*n : done*n]
		for i, s := range r.slots {
			r.vals.Set(s, prev[i])
		}
		r.vals.Set(r.iterS, done-1)
		for _, f := range r.nextF {
			v, ok := f(r.vals)
			if !ok {
				r.seq = r.seq[:done*n]
				return nil, false
			}
			r.seq = append(r.seq, v)
		}
	}
	return r.seq[t*n : (t+1)*n : (t+1)*n], true
}

// valuesAt binds the carried symbols of recurrences rs at iteration t of
// loop li, for a copy of the loop body the compiler makes; false when
// they cannot be evaluated there.
func valuesAt(rs []*recurrence, li int, t int64, bind map[symbolic.SymID]symbolic.Expr) bool {
	for _, r := range rs {
		if r.loop != li {
			continue
		}
		vs, ok := r.at(t)
		if !ok {
			return false
		}
		for i, k := range r.keys {
			bind[k] = symbolic.Const(vs[i])
		}
	}
	return true
}

// isCarried reports whether key is a symbol of one of rs.
func isCarried(rs []*recurrence, key symbolic.SymID) bool {
	for _, r := range rs {
		for _, k := range r.keys {
			if k == key {
				return true
			}
		}
	}
	return false
}
