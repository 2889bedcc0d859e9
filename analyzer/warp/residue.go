package warp

import (
	"slices"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/symbolic"
)

// The closed-form path of the warp model. When an access's address is
//
//	c0 + sum_j k_j*u_j + (per-lane offset)
//
// with u_j the block indices and loop iterations (each ranging over
// [0, N_j) independently) and constant k_j, and no guard the model could
// evaluate, a request's cost depends only on its warp and on the base
// address mod 32. The distribution of the base mod 32 over the whole
// launch is the convolution of the distributions of each k_j*u_j mod 32,
// which are periodic with a period of at most 32. The exact average over
// every request of the launch then costs at most warps x 32 sector counts.

// uniformTerm is one k*u term of the base address, or, when counts is
// set, a loop's whole contribution given as how many of its iterations
// leave each residue (a loop whose carried values the address adds).
type uniformTerm struct {
	k      int64
	n      int64 // u ranges over [0, n)
	counts []float64
}

// residueTerms decomposes base into its constant and uniform terms; ok is
// false when base is not of that form.
func (m *warpModel) residueTerms(base symbolic.Expr, loopIters []symbolic.SymID) (int64, []uniformTerm, bool) {
	ranges := map[symbolic.SymID]int64{}
	for d, s := range blockSyms {
		ranges[s] = m.grid[d]
	}
	for i, name := range loopIters {
		ranges[name] = m.trips[i]
	}
	zero := map[symbolic.SymID]symbolic.Expr{}
	coef := map[symbolic.SymID]int64{}
	ok := true
	symbolic.Symbols(base, func(v *symbolic.Var) {
		if _, done := zero[v.Key()]; done {
			return
		}
		_, known := ranges[v.Key()]
		if !known && !isCarried(m.recs, v.Key()) {
			ok = false
			return
		}
		coeff, affine := symbolic.Coefficient(base, v.Key())
		k, isConst := symbolic.IsConst(coeff)
		if !affine || !isConst {
			ok = false
			return
		}
		zero[v.Key()] = symbolic.Const(0)
		coef[v.Key()] = k
	})
	if !ok {
		return 0, nil, false
	}
	c0, isConst := symbolic.IsConst(symbolic.Subst(base, zero))
	if !isConst {
		return 0, nil, false
	}
	var terms []uniformTerm
	for _, s := range blockSyms {
		if k, ok := coef[s]; ok {
			terms = append(terms, uniformTerm{k: k, n: ranges[s]})
		}
	}
	for i, name := range loopIters {
		t, ok := m.loopTerm(i, coef[name], coef)
		if !ok {
			return 0, nil, false
		}
		if t.k != 0 || t.counts != nil {
			terms = append(terms, t)
		}
	}
	return c0, terms, true
}

// loopTerm is loop i's part of the base: k times its iteration, plus its
// carried values times their coefficients, counted iteration by
// iteration; false when they cannot be evaluated.
func (m *warpModel) loopTerm(i int, k int64, coef map[symbolic.SymID]int64) (uniformTerm, bool) {
	t := uniformTerm{k: k, n: m.trips[i]}
	for _, r := range m.recs {
		if r.loop != i || !slices.ContainsFunc(r.keys, func(key symbolic.SymID) bool { return coef[key] != 0 }) {
			continue
		}
		if t.counts == nil {
			t.counts = make([]float64, m.period)
		}
		for u := int64(0); u < m.trips[i]; u++ {
			vs, ok := r.at(u)
			if !ok {
				return t, false
			}
			x := k * u
			for j, key := range r.keys {
				x += coef[key] * vs[j]
			}
			t.counts[mod(x, m.period)]++
		}
		return t, true // one recurrence per loop: it holds every carried value
	}
	return t, true
}

// residueDistribution returns, for r in [0,32), the number of (block,
// iteration) tuples whose base address is r mod 32, scaled so that the
// counts of all tuples sum to total (as float64: totals can be large).
func residueDistribution(c0 int64, terms []uniformTerm, period int64) []float64 {
	dist := make([]float64, period)
	dist[mod(c0, period)] = 1
	// Scratch for one term: on the stack for the periods the model uses
	// (32-byte sectors, 128-byte shared-memory rows).
	var stepBuf, nextBuf [128]float64
	scratch := func(buf *[128]float64) []float64 {
		if period <= int64(len(buf)) {
			s := buf[:period]
			clear(s)
			return s
		}
		return make([]float64, period)
	}
	type entry struct {
		r int64
		n float64
	}
	var nonzeroBuf [128]entry
	for _, t := range terms {
		step := scratch(&stepBuf)
		if t.counts != nil {
			copy(step, t.counts)
		} else {
			// k*u mod period repeats with period/gcd(k, period).
			p := period / gcd(mod(t.k, period), period)
			full, rest := t.n/p, t.n%p
			for u := int64(0); u < p; u++ {
				cnt := float64(full)
				if u < rest {
					cnt++
				}
				step[mod(t.k*u, period)] += cnt
			}
		}
		nonzero := nonzeroBuf[:0] // k*u mod period takes at most p values
		for r, n := range step {
			if n != 0 {
				nonzero = append(nonzero, entry{int64(r), n})
			}
		}
		next := scratch(&nextBuf)
		for a, x := range dist {
			if x == 0 {
				continue
			}
			for _, e := range nonzero {
				next[(int64(a)+e.r)%period] += x * e.n
			}
		}
		copy(dist, next)
	}
	return dist
}

func gcd(a, b int64) int64 {
	if a == 0 {
		return b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// alwaysUnknown reports whether evaluating c must fail: it needs, in a
// position every evaluation reaches, a symbol the model never binds (an
// unknown size, a loaded value). Such a condition always counts as passed,
// so the model drops it up front. && and || fail for sure only through
// both operands (either one, known, can decide: j > n && j < 2048 turns
// off the lanes past 2048); a select through its condition or both arms.
func alwaysUnknown(c symbolic.Expr) bool {
	switch x := c.(type) {
	case *symbolic.Var:
		return !x.IsLaneOrBlockIndex() && x.Kind != symbolic.KindLoopIter
	case *symbolic.Op:
		if x.Kind == symbolic.OpLAnd || x.Kind == symbolic.OpLOr {
			return alwaysUnknown(x.X) && alwaysUnknown(x.Y)
		}
		return alwaysUnknown(x.X) || alwaysUnknown(x.Y)
	case *symbolic.Select:
		return alwaysUnknown(x.Cond) || alwaysUnknown(x.Then) && alwaysUnknown(x.Else)
	case *symbolic.Poly:
		for _, t := range x.Terms {
			for _, a := range t.Atoms {
				if alwaysUnknown(a) {
					return true
				}
			}
		}
	}
	return false
}

func mentionsThreadOrBlock(e symbolic.Expr) bool {
	found := false
	symbolic.Symbols(e, func(v *symbolic.Var) { found = found || v.IsLaneOrBlockIndex() })
	return found
}

// runClosedForm computes the exact average by residue classes; it reports
// false when the access is not of the closed form's shape.
func (m *warpModel) runClosedForm(p *Prediction, a *interp.Access, base symbolic.Expr) bool {
	iters := make([]symbolic.SymID, len(a.Loops))
	for i, l := range a.Loops {
		iters[i] = l.Iter
	}
	c0, terms, ok := m.residueTerms(base, iters)
	if !ok {
		return false
	}
	dist := residueDistribution(c0, terms, m.period)
	var sumS, sumI, sumN, sumM, weight float64
	for w := int64(0); w < m.warps(); w++ {
		m.mask = m.validMask(w)
		for r, count := range dist {
			if count == 0 {
				continue
			}
			m.baseVal = int64(r)
			if p.Warp == nil {
				m.fillLanes(w)
				p.Warp = m.warpAddresses()
			}
			for _, c := range m.costs(w) {
				sumS += count * float64(c[0])
				sumI += count * float64(c[1])
				sumN += count * float64(c[2])
				sumM += count * float64(c[3])
				weight += count
			}
		}
	}
	total := float64(m.grid.Threads()) * float64(m.warps()) * float64(len(m.pieces))
	for _, t := range m.trips {
		total *= float64(t)
	}
	p.Known, p.Exact = true, true
	p.Requests = int(min(total, 1<<62))
	p.active = total
	p.Sectors, p.Ideal, p.IdealNcu = sumS/weight, sumI/weight, sumN/weight
	p.Misaligned = sumM / weight
	return true
}
