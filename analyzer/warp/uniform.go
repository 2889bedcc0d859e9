package warp

import (
	"slices"
	"strings"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/symbolic"
)

// uniformUnknowns are the warp-uniform values in addr the model does not
// know: a base read from boxes[blockIdx.x].offset, a value a loop carries
// that no launch value gives (off += steps[k]; those of recs it
// evaluates). Each is the same in every lane, so the cost depends only on
// the lanes' offsets from each other and on where the value falls within
// a sector.
func uniformUnknowns(addr symbolic.Expr, recs []*recurrence) []*symbolic.Var {
	var out []*symbolic.Var
	symbolic.Symbols(addr, func(v *symbolic.Var) {
		if v.Kind != symbolic.KindUnknown || v.Class != symbolic.Uniform || isCarried(recs, v.Key()) {
			return
		}
		if (v.Cause == symbolic.CauseLoadedValue || v.Cause == symbolic.CauseLoopCarried) &&
			!slices.ContainsFunc(out, func(w *symbolic.Var) bool { return w.Key() == v.Key() }) {
			out = append(out, v)
		}
	})
	return out
}

// predictResidues predicts a whose address adds warp-uniform loaded
// values us, each times a constant, to the rest: the rest is predicted
// at every residue mod 32 bytes those terms can give (multiples of the
// coefficients' and the element's alignment) and the costs averaged. One
// residue suffices when they are multiples of 32 (or every residue costs
// the same: lanes a sector or more apart, no lane term); otherwise the
// prediction says it is the mean over residues. ok is false when a value
// enters the address other than linearly with a constant coefficient,
// unless the address is the same in every lane (then only the element's
// alignment bounds its residue).
func predictResidues(a *interp.Access, cfg *launch.Config, params map[symbolic.SymID]bool, us []*symbolic.Var, s sampling) (*Prediction, bool) {
	bind := launchBind(cfg)
	zero := map[symbolic.SymID]symbolic.Expr{}
	var notes []Assumption
	g := int64(SectorBytes)
	for _, u := range us {
		c, ok := symbolic.Coefficient(a.Addr, u.Key())
		if !ok && !mentionsThread(a.Addr) {
			// Not linear (d_box_gpu[k == 0 ? bx : nei[k - 1]].offset: a
			// select), but the same address in every lane: only where
			// it falls in a sector matters, and it is a multiple of the
			// element's alignment, as C places every object.
			zero[u.Key()] = symbolic.Const(0)
			g = 1
			continue
		}
		if !ok {
			return nil, false
		}
		c = symbolic.Subst(c, bind)
		k, ok := symbolic.IsConst(c)
		if !ok {
			// A size no launch gives, assumed large as Predict does.
			assumedC, assumed := assumeParams(c, params)
			if k, ok = symbolic.IsConst(assumedC); !ok {
				return nil, false
			}
			notes = append(notes, assumed...)
		}
		if k < 0 {
			k = -k
		}
		g = gcd(g, k)
		zero[u.Key()] = symbolic.Const(0)
	}
	step := g
	if a.Type != nil && a.Type.Align > step && a.Type.Align <= SectorBytes {
		step = a.Type.Align
	}
	rest := symbolic.Subst(a.Addr, zero)
	s.kernel = nil // a residue the model picks is none the compiler knows: no merge claimed
	var ps []*Prediction
	for r := int64(0); r < SectorBytes; r += step {
		b := *a
		b.Addr = symbolic.Add(rest, symbolic.Const(r))
		ps = append(ps, predict(&b, cfg, params, s))
	}
	p := ps[0]
	p.Access = a
	for _, q := range ps {
		for _, n := range notes {
			if !slices.Contains(q.Assumptions, n) {
				q.Assumptions = append(q.Assumptions, n)
			}
		}
	}
	same := true
	for _, q := range ps[1:] {
		if q.Known != p.Known || q.NoLane != p.NoLane || q.Sectors != p.Sectors || q.Ideal != p.Ideal || q.IdealNcu != p.IdealNcu || q.Misaligned != p.Misaligned {
			same = false
		}
	}
	if same || !p.Known {
		return p, true
	}
	n := float64(len(ps))
	lo, hi := p.Sectors, p.Sectors
	var sectors, ideal, idealNcu, mis float64
	for _, q := range ps {
		if !q.Known {
			return q, true
		}
		sectors += q.Sectors / n
		ideal += q.Ideal / n
		idealNcu += q.IdealNcu / n
		mis += q.Misaligned / n
		lo, hi = min(lo, q.Sectors), max(hi, q.Sectors)
		p.Exact = p.Exact && q.Exact
		for _, s := range q.Assumptions {
			if !slices.Contains(p.Assumptions, s) {
				p.Assumptions = append(p.Assumptions, s)
			}
		}
	}
	p.Sectors, p.Ideal, p.IdealNcu, p.Misaligned = sectors, ideal, idealNcu, mis
	p.BlocksEvaluated = 0
	u := us[0]
	p.BaseResidue = &Unknown{Cause: u.Cause, Site: u.Site, Name: u.Of}
	p.Assumptions = append(p.Assumptions, Assumption{Kind: UniformResidue, Cause: u.Cause, Name: u.Of, Site: u.Site, Value: int64(len(ps)), Step: step, Lo: lo, Hi: hi})
	return p, true
}

// assumeSet takes the pointers an address tests for null (p = in ? in :
// out) and no launch gives as set, as the code usually runs: a guard on
// them counts as passed, and so does a selection in an address.
func assumeSet(addr symbolic.Expr) (symbolic.Expr, []Assumption) {
	set := map[symbolic.SymID]symbolic.Expr{}
	var notes []Assumption
	symbolic.Symbols(addr, func(v *symbolic.Var) {
		if v.Kind == symbolic.KindNonNull && set[v.Key()] == nil {
			set[v.Key()] = symbolic.Const(1)
			notes = append(notes, Assumption{Kind: AssumedNonNull, Name: v.Of})
		}
	})
	if len(set) == 0 {
		return addr, nil
	}
	slices.SortFunc(notes, func(a, b Assumption) int { return strings.Compare(a.Name, b.Name) })
	return symbolic.Subst(addr, set), notes
}

// rareBlocks is how many blocks at each end of the grid sweepRare visits.
const rareBlocks = 64

// sweepRare looks for the requests of an access no random sample found
// active: one a rare guard admits (blockIdx.y == 0 on a tall grid,
// threadIdx.x == 0 && blockIdx.x == 0, grid.thread_rank() == 0). It
// visits every warp of the first and last rareBlocks blocks at the first
// iteration of each loop, where such guards hold. false when a request
// could not be evaluated.
func (m *warpModel) sweepRare(blocks int64, iters []int64, visit func(b, w int64, iters []int64) bool) bool {
	for l := range iters {
		iters[l] = 0
	}
	seen := map[int64]bool{}
	for _, b := range []int64{0, blocks - rareBlocks} {
		for k := int64(0); k < rareBlocks; k++ {
			bb := b + k
			if bb < 0 || bb >= blocks || seen[bb] {
				continue
			}
			seen[bb] = true
			for w := int64(0); w < m.warps(); w++ {
				if !visit(bb, w, iters) {
					return false
				}
			}
		}
	}
	return true
}

// dataGuardNotes says, for guards on loaded data (if (mask[i]), if (cost <
// p[tid].cost)), that the lanes taking part depend on the data: the model
// counts every lane the other guards admit, so its figures are an upper
// bound (and its ideal the all-lanes one).
func dataGuardNotes(guards []symbolic.Expr) []Assumption {
	var notes []Assumption
	for _, g := range guards {
		if symbolic.ClassOf(g) != symbolic.Data {
			continue
		}
		n := Assumption{Kind: DataGuard}
		if v := firstData(g); v != nil && v.Cause == symbolic.CauseLoadedValue && v.Of != "" {
			n.Name, n.Site = v.Of, v.Site
		}
		if !slices.Contains(notes, n) {
			notes = append(notes, n)
		}
	}
	return notes
}
