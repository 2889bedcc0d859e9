package warp

import (
	"slices"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/symbolic"
)

// Loops the model takes apart, one copy of the body at a time.
//
// The compiler unrolls a loop whose trip count is a constant: each copy of
// the body is its own memory instruction, with its own cost (rows of a
// pitch that is not a multiple of 32 bytes start at different places in a
// sector). Measured with nvcc 13.0 for sm_90 (testdata/truth/probes3.cu):
// a bare #pragma unroll, or #pragma unroll N with N at least the trip
// count, makes one copy per iteration; #pragma unroll N with N dividing
// the trip count makes N copies, copy j running iterations j, j + N, ...;
// #pragma unroll 1 keeps one; with no pragma, every constant trip count
// probed (4 to 64 iterations of one load, 16 of four loads) was unrolled
// fully. The model claims a cost per copy only within what was measured:
// at most maxCopies copies in all, and with no pragma at most maxCopies
// memory instructions in the unrolled body. Past that, or for a trip
// count the launch gives (the compiler unrolls such loops by a factor of
// its own choosing), the prediction is the average over iterations, which
// is what Nsight Compute shows for the source line either way.
//
// A loop whose trip count depends on the block (k <= blockIdx.x % 4) is
// taken apart too, when it has at most maxCopies iterations in any block:
// iteration j becomes a guard on the block, and the average is exact over
// the (block, iteration) pairs that run.

// maxCopies bounds the copies of a loop body the model evaluates one by one.
const maxCopies = 64

// Unrolled is the cost of each copy of an access's loop body the compiler
// makes when it unrolls the loops around it: one memory instruction per
// copy. The prediction's figures are their average, as Nsight Compute
// attributes all the copies to one source line.
type Unrolled struct {
	Loops  []UnrolledLoop // the unrolled loops, outermost first
	Copies []UnrolledCopy // in iteration order, the outer loop's slowest
}

// UnrolledLoop is one unrolled loop. Its variable Var, where the model
// follows one, is Start + Step * the iteration.
type UnrolledLoop struct {
	Line        int
	Var         string
	Start, Step int64
	Trip        int64
	Copies      int64 // Trip when unrolled fully; else copy j runs j, j + Copies, ...
}

// UnrolledCopy is one copy of the body: First gives, per unrolled loop,
// the first iteration it runs.
type UnrolledCopy struct {
	First []int64
	// Known is false when the copy's cost is unknown; NoLane when no lane
	// runs it.
	Known, NoLane            bool
	Sectors, Ideal, IdealNcu float64
	// Bytes is the per-lane width of the copy's instruction where nvcc
	// merges copies (merge.go): several copies' elements, or 0 for the
	// access's own width.
	Bytes int64
}

// splitLoop is a loop taken apart into copies: copy j runs iterations j,
// j + copies, ...; full when each copy runs one iteration.
type splitLoop struct {
	index  int // in the access's Loops
	copies int64
	trip   int64 // the loop's trip count, where constant
	full   bool
}

// predictUnrolled predicts an access inside loops the compiler unrolls,
// copy by copy; false when there are none (or more copies than the model
// claims costs for).
func predictUnrolled(a *interp.Access, cfg *launch.Config, params map[symbolic.SymID]bool, s sampling) (*Prediction, bool) {
	plan, ok := unrollPlan(a, templateValues(a, cfg))
	if !ok {
		return nil, false
	}
	recs, notes := recurrencesOf(a, cfg, params)
	copies, firsts := splitCopies(a, plan, recs)
	widths, merged := mergeCopies(a, plan, copies, firsts, s.kernel, templateValues(a, cfg))
	if merged != nil {
		copies, firsts = merged.copies, merged.firsts
	}
	ps := make([]*Prediction, len(copies))
	for i, c := range copies {
		ps[i] = predict(c, cfg, params, s.copies(len(copies), i))
	}
	p := combine(a, cfg, ps)
	if merged != nil && p.Misaligned > 0 {
		// The launch breaks the alignment the code promised: price the
		// copies as written (see PredictIn).
		s.kernel = nil
		return predictUnrolled(a, cfg, params, s)
	}
	for _, n := range notes {
		p.Assumptions = appendNew(p.Assumptions, n)
	}
	p.Unrolled = unrolledOf(a, cfg, plan, firsts, ps)
	if merged != nil {
		p.Merged = &Merged{Bytes: slices.Max(widths)}
		for i := range p.Unrolled.Copies {
			p.Unrolled.Copies[i].Bytes = widths[i]
		}
	}
	return p, true
}

// templateValues binds the kernel's template value parameters to the
// launch's arguments: constants when the compiler unrolls (r < R in
// k<4>).
func templateValues(a *interp.Access, cfg *launch.Config) map[symbolic.SymID]symbolic.Expr {
	bind := map[symbolic.SymID]symbolic.Expr{}
	if a.Kernel == nil {
		return bind
	}
	for _, tp := range a.Kernel.Template {
		if v, ok := cfg.Params[tp.Name]; ok && !tp.IsType {
			bind[symbolic.ParamID(tp.Name)] = symbolic.Const(v)
		}
	}
	return bind
}

// tripOf is loop l's trip count when the compiler knows it: constant in
// the code, or through the instance's template values; 0 otherwise.
func tripOf(l *interp.Loop, tmpl map[symbolic.SymID]symbolic.Expr) int64 {
	if l.Trip > 0 || l.Cond == nil || len(tmpl) == 0 {
		return l.Trip
	}
	return interp.ConstantTrip(symbolic.Subst(l.Cond, tmpl), l.Iter)
}

// unrollPlan picks the loops around a that the compiler unrolls and whose
// iteration the address or a guard reads (a copy that reads what the one
// before read is one load), innermost first; false when none does or the
// copies would pass maxCopies.
func unrollPlan(a *interp.Access, tmpl map[symbolic.SymID]symbolic.Expr) ([]splitLoop, bool) {
	used := map[symbolic.SymID]bool{}
	for _, e := range append([]symbolic.Expr{a.Addr}, a.Guards...) {
		symbolic.Symbols(e, func(v *symbolic.Var) { used[v.Key()] = true })
	}
	var plan []splitLoop
	product := int64(1)
	for i := len(a.Loops) - 1; i >= 0; i-- {
		l := a.Loops[i]
		trip := tripOf(l, tmpl)
		n, ok := unrollCopies(l, trip, product)
		if !ok {
			continue
		}
		if product*n > maxCopies {
			return nil, false
		}
		carried := slices.ContainsFunc(l.Carried, func(c interp.Carried) bool { return used[c.Sym.Key()] })
		if !used[l.Iter] && !carried {
			continue
		}
		if n < trip && carried {
			return nil, false // copies that each run several steps of a recurrence: not followed
		}
		plan = append([]splitLoop{{index: i, copies: n, trip: trip, full: n == trip}}, plan...)
		product *= n
	}
	return plan, product > 1
}

// unrollCopies is how many copies of its body the compiler makes of loop
// l of trip iterations, inner being the copies already made of the loops
// inside it (see the comment at the top); false when it keeps the loop or
// the model does not claim to know.
func unrollCopies(l *interp.Loop, trip, inner int64) (int64, bool) {
	if trip <= 0 || l.Leaves {
		return 0, false
	}
	n, counted := l.Unroll.Count()
	switch {
	case l.Unroll == lex.UnrollFull, counted && n >= trip:
		return trip, true
	case counted && n > 1 && trip%n == 0:
		return n, true
	case l.Unroll == lex.UnrollNone && inner*trip*int64(max(1, l.Accesses)) <= maxCopies:
		return trip, true
	}
	return 0, false
}

// splitCopies makes one access per copy of the loop bodies plan takes
// apart, with each copy's first iterations. A loop run fully apart leaves
// the copy, its condition at the iteration becoming a guard (it decides
// per block whether a block-dependent iteration runs) and its carried
// values their values there; a loop split into fewer copies stays, over
// iterations j + copies * iter.
func splitCopies(a *interp.Access, plan []splitLoop, recs []*recurrence) ([]*interp.Access, [][]int64) {
	iterExpr := iterSymbols(a)
	var out []*interp.Access
	var firsts [][]int64
	js := make([]int64, len(plan))
	var rec func(k int)
	rec = func(k int) {
		if k < len(plan) {
			for j := int64(0); j < plan[k].copies; j++ {
				js[k] = j
				rec(k + 1)
			}
			return
		}
		out = append(out, copyAt(a, plan, js, recs, iterExpr))
		firsts = append(firsts, slices.Clone(js))
	}
	rec(0)
	return out, firsts
}

// iterSymbols maps each loop's iteration symbol to itself as an
// expression, found where the access mentions it.
func iterSymbols(a *interp.Access) map[symbolic.SymID]symbolic.Expr {
	want := map[symbolic.SymID]bool{}
	for _, l := range a.Loops {
		want[l.Iter] = true
	}
	out := map[symbolic.SymID]symbolic.Expr{}
	find := func(e symbolic.Expr) {
		if e == nil {
			return
		}
		symbolic.Symbols(e, func(v *symbolic.Var) {
			if want[v.Key()] && out[v.Key()] == nil {
				out[v.Key()] = symbolic.NewSym(*v)
			}
		})
	}
	find(a.Addr)
	for _, g := range a.Guards {
		find(g)
	}
	for _, l := range a.Loops {
		find(l.Cond)
	}
	return out
}

func copyAt(a *interp.Access, plan []splitLoop, js []int64, recs []*recurrence, iterExpr map[symbolic.SymID]symbolic.Expr) *interp.Access {
	iters := map[symbolic.SymID]symbolic.Expr{}
	values := map[symbolic.SymID]symbolic.Expr{}
	removed := map[int]bool{}
	partial := map[int]splitLoop{}
	for k, s := range plan {
		l := a.Loops[s.index]
		if s.full {
			iters[l.Iter] = symbolic.Const(js[k])
			removed[s.index] = true
			valuesAt(recs, s.index, js[k], values)
			continue
		}
		if it := iterExpr[l.Iter]; it != nil {
			iters[l.Iter] = symbolic.Add(symbolic.Const(js[k]), symbolic.Mul(symbolic.Const(s.copies), it))
		}
		partial[s.index] = s
	}
	subst := func(e symbolic.Expr) symbolic.Expr {
		if e == nil {
			return nil
		}
		return symbolic.Subst(symbolic.Subst(e, iters), values)
	}
	b := *a
	b.Addr = subst(a.Addr)
	b.Guards = make([]symbolic.Expr, 0, len(a.Guards)+len(plan))
	for _, g := range a.Guards {
		b.Guards = append(b.Guards, subst(g))
	}
	b.Loops = nil
	for i, l := range a.Loops {
		if removed[i] {
			if l.Cond != nil {
				b.Guards = append(b.Guards, subst(l.Cond))
			}
			continue
		}
		nl := *l
		nl.Cond = subst(l.Cond)
		if s, ok := partial[i]; ok {
			nl.Unroll, nl.Trip = lex.UnrollCount(1), (s.trip+s.copies-1)/s.copies
		}
		nl.Carried = make([]interp.Carried, len(l.Carried))
		for c, v := range l.Carried {
			v.Entry, v.Next = subst(v.Entry), subst(v.Next)
			nl.Carried[c] = v
		}
		b.Loops = append(b.Loops, &nl)
	}
	return &b
}

// blockTripPlan picks the loops whose trip count depends on the block
// (conds, bound by the launch) and is at most maxCopies anywhere (trips,
// the most over the blocks): they are taken apart into single iterations.
func blockTripPlan(conds []symbolic.Expr, trips []int64) []splitLoop {
	var plan []splitLoop
	product := int64(1)
	for i, c := range conds {
		if c == nil || !mentionsBlock(c) || mentionsThread(c) || trips[i] < 2 || product*trips[i] > maxCopies {
			continue
		}
		plan = append(plan, splitLoop{index: i, copies: trips[i], trip: trips[i], full: true})
		product *= trips[i]
	}
	return plan
}

// combine folds the predictions of an access's copies into one: the
// average over the requests each makes in the launch.
func combine(a *interp.Access, cfg *launch.Config, ps []*Prediction) *Prediction {
	p := &Prediction{Access: a, Config: cfg, Pieces: ps[0].Pieces, Exact: true}
	for _, q := range ps {
		for _, s := range q.Assumptions {
			p.Assumptions = appendNew(p.Assumptions, s)
		}
		if !q.Known && !q.NoLane {
			p.Unknown = q.Unknown
			return p
		}
	}
	var w, sectors, ideal, idealNcu, mis float64
	blocks := int64(-1)
	first := true
	for _, q := range ps {
		p.Requests += q.Requests
		p.Exact = p.Exact && q.Exact
		if q.NoLane || q.active == 0 {
			continue
		}
		w += q.active
		sectors += q.Sectors * q.active
		ideal += q.Ideal * q.active
		idealNcu += q.IdealNcu * q.active
		mis += q.Misaligned * q.active
		if blocks == -1 {
			blocks = q.BlocksEvaluated
		} else if blocks != q.BlocksEvaluated {
			blocks = 0
		}
		if first {
			p.Warp, p.LaneStride, p.Facts, p.BaseResidue = q.Warp, q.LaneStride, q.Facts, q.BaseResidue
			first = false
			continue
		}
		if p.LaneStride != nil && (q.LaneStride == nil || *q.LaneStride != *p.LaneStride) {
			p.LaneStride = nil
		}
		p.Facts = p.Facts.merge(q.Facts)
		if p.BaseResidue == nil {
			p.BaseResidue = q.BaseResidue
		}
	}
	if w == 0 {
		p.Unknown, p.NoLane = Unknown{Cause: symbolic.CauseNoLane}, true
		return p
	}
	p.Known, p.active = true, w
	p.Sectors, p.Ideal, p.IdealNcu, p.Misaligned = sectors/w, ideal/w, idealNcu/w, mis/w
	p.PerInstruction, p.issued = averagePerInstruction(ps, func(_ *Prediction, issued float64) float64 { return issued })
	if p.Exact && blocks > 0 {
		p.BlocksEvaluated = blocks
	}
	return p
}

// unrolledOf is the per-copy view of a prediction made copy by copy.
func unrolledOf(a *interp.Access, cfg *launch.Config, plan []splitLoop, firsts [][]int64, ps []*Prediction) *Unrolled {
	u := &Unrolled{}
	bind := launchBind(cfg)
	for _, s := range plan {
		l := a.Loops[s.index]
		ul := UnrolledLoop{Line: int(l.Pos.Line), Trip: s.trip, Copies: s.copies}
		if l.VarAt != nil {
			at := symbolic.Subst(l.VarAt, bind)
			start, ok1 := symbolic.IsConst(symbolic.Subst(at, map[symbolic.SymID]symbolic.Expr{l.Iter: symbolic.Const(0)}))
			step, ok2 := symbolic.Coefficient(at, l.Iter)
			k, ok3 := symbolic.IsConst(step)
			if ok1 && ok2 && ok3 {
				ul.Var, ul.Start, ul.Step = l.Var, start, k
			}
		}
		u.Loops = append(u.Loops, ul)
	}
	for i, q := range ps {
		c := UnrolledCopy{First: firsts[i], Known: q.Known, NoLane: q.NoLane}
		if q.Known {
			c.Sectors, c.Ideal, c.IdealNcu = q.Sectors, q.Ideal, q.IdealNcu
		}
		u.Copies = append(u.Copies, c)
	}
	return u
}
