package accesses

import (
	"math"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/symbolic"
)

// LaneStrideBytes is the absolute lane stride, or -1 when not constant.
func LaneStrideBytes(p *analyzer.Prediction) int64 {
	if p.LaneStride == nil {
		return -1
	}
	return Abs(*p.LaneStride)
}

// SparseLanes is the step between the lanes of the first request that
// perform p when its guards leave regular gaps between them (every 2nd
// lane: 2); 1 when the lanes on are one run, or their gaps are not
// regular; 0 when fewer than two are on. LanesGapped tells the last two
// apart.
func SparseLanes(p *analyzer.Prediction) int {
	on, span, gap := laneRun(p.Warp)
	switch {
	case on < 2:
		return 0
	case span == on || gap < 0:
		return 1
	}
	return gap
}

// LanesGapped: the first request's lanes on are not one run (a guard
// leaves lanes off between them).
func LanesGapped(p *analyzer.Prediction) bool {
	on, span, _ := laneRun(p.Warp)
	return on >= 2 && span != on
}

// laneRun counts the lanes on in warp, the span from the first to the
// last, and the step between them when it is the same everywhere (-1
// when not).
func laneRun(warp []int64) (on, span, gap int) {
	first, last := -1, -1
	gap = 0
	for lane, a := range warp {
		if a < 0 {
			continue
		}
		on++
		if last >= 0 {
			switch d := lane - last; {
			case gap == 0:
				gap = d
			case d != gap:
				gap = -1
			}
		} else {
			first = lane
		}
		last = lane
	}
	if on == 0 {
		return 0, 0, 0
	}
	return on, last - first + 1, gap
}

// SpreadByGuard: p's guards leave gaps between the lanes that perform
// it: the first request shows them, or a guard tests the remainder of
// the thread's index along lane for equality (tid % (2 * stride) == 0,
// (tid & 1) != 0), which picks lanes apart rather than a run of them.
func SpreadByGuard(p *analyzer.Prediction, lane symbolic.SymID) bool {
	return LanesGapped(p) || GuardSpreadsLanes(p, lane)
}

// GuardSpreadsLanes: a guard of p compares the remainder of the thread's
// index along lane for equality.
func GuardSpreadsLanes(p *analyzer.Prediction, lane symbolic.SymID) bool {
	for _, g := range p.Access.Guards {
		if remainderTest(g, lane) {
			return true
		}
	}
	return false
}

// remainderTest: e holds an == or != one side of which takes the
// remainder (% or &) of the lane's index.
func remainderTest(e symbolic.Expr, lane symbolic.SymID) bool {
	return symbolic.AnyOp(e, func(x *symbolic.Op) bool {
		return (x.Kind == symbolic.OpEq || x.Kind == symbolic.OpNe) && (laneRemainder(x.X, lane) || laneRemainder(x.Y, lane))
	})
}

// laneRemainder: e takes the remainder (% or &) of the lane's index.
func laneRemainder(e symbolic.Expr, lane symbolic.SymID) bool {
	return symbolic.AnyOp(e, func(x *symbolic.Op) bool {
		return (x.Kind == symbolic.OpRem || x.Kind == symbolic.OpAnd) && symbolic.Mentions(x.X, lane)
	})
}

// ElemBytes is the width of the access's first piece: the element a lane
// loads in one instruction.
func ElemBytes(a *analyzer.Access) int64 {
	pieces := ctype.Pieces(a.Type)
	return pieces[0][1]
}

// Abs is |x|.
func Abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Coefficient is the byte step of the address per unit of a thread index,
// with the launch's values bound; ok is false when it is not a constant.
func Coefficient(p *analyzer.Prediction, sym symbolic.SymID) (int64, bool) {
	for _, d := range symbolic.Axes {
		if sym == symbolic.ThreadIdx(d).ID() { // the model's fact, with the same values bound
			return p.Facts.LaneBytes[d], p.Facts.LaneKnown[d]
		}
	}
	return CoefficientWith(p, sym, nil)
}

// CoefficientWith is Coefficient with the symbols of over given those
// values instead.
func CoefficientWith(p *analyzer.Prediction, sym symbolic.SymID, over map[symbolic.SymID]int64) (int64, bool) {
	c, ok := symbolic.Coefficient(p.Access.Addr, sym)
	if !ok {
		return 0, false
	}
	bind := p.Config.Values()
	for k, v := range over {
		bind[k] = v
	}
	// What no launch gives is assumed large, as the prediction did;
	// unknowns stay unbound (the coefficient is then not a number).
	symbolic.Symbols(c, func(v *symbolic.Var) {
		if _, ok := bind[v.Key()]; !ok && v.Kind != symbolic.KindUnknown {
			bind[v.Key()] = warp.AssumedValue
		}
	})
	return symbolic.Eval(c, bind)
}

// siblingLoaded reports whether the kernel also loads another component
// of the same vector element (v[i].x and v[i].y): the compiler then reads
// the whole vector in one instruction.
func siblingLoaded(p *analyzer.Prediction, kernel []*analyzer.Prediction) bool {
	a := p.Access
	if a.Op != interp.Load {
		return false
	}
	for _, q := range kernel {
		b := q.Access
		if q == p || b.Op != interp.Load || b.Struct != a.Struct || b.Base != a.Base || b.Field == a.Field || q.Config != p.Config {
			continue
		}
		if d, ok := symbolic.IsConst(symbolic.Sub(a.Addr, b.Addr)); ok && Abs(d) < a.Struct.Size {
			return true
		}
	}
	return false
}

// AssumedStride lists the parameters the lane stride depends on whose
// values no launch or configuration gave (they were assumed large).
func AssumedStride(p *analyzer.Prediction) []string {
	c, ok := symbolic.Coefficient(p.Access.Addr, symbolic.ThreadIdx(symbolic.X).ID())
	if !ok {
		return nil
	}
	return AssumedIn(p, c)
}

// AssumedIn lists the parameters e depends on whose values no launch or
// configuration gave p (they were assumed large).
func AssumedIn(p *analyzer.Prediction, e symbolic.Expr) []string {
	c := e
	var out []string
	symbolic.Symbols(c, func(v *symbolic.Var) {
		switch v.Kind {
		case symbolic.KindBlockDim, symbolic.KindGridDim, symbolic.KindLoopIter, symbolic.KindUnknown:
			return
		}
		if v.Class == symbolic.Data {
			return
		}
		if _, given := p.Config.Values()[v.Key()]; !given {
			for _, seen := range out {
				if seen == v.Name {
					return
				}
			}
			out = append(out, v.Name)
		}
	})
	return out
}

// FiguresOf are a prediction's figures, for JSON and SARIF.
func FiguresOf(p *analyzer.Prediction) lint.Figures {
	c := p.Config
	n := lint.Figures{
		Op:           p.Access.Op.String(),
		Kernel:       p.Access.Kernel.Name,
		ElementBytes: ptr(p.Access.Type.Size),
		Block:        []int64{c.Block[0], c.Block[1], c.Block[2]},
		BlockSource:  c.BlockSource.String(),
	}
	if c.At.IsValid() {
		n.BlockFrom = c.At.String()
	}
	if p.Known {
		n.SectorsPerRequest = ptr(round(p.Sectors))
		n.IdealSectorsPerRequest = ptr(round(p.Ideal))
		n.Efficiency = ptr(round(p.Efficiency()))
	} else {
		n.SectorsRange = []int{1, 32}
		n.UnknownReason = p.Reason()
	}
	if p.LaneStride != nil {
		n.LaneStrideBytes = ptr(*p.LaneStride)
	}
	if b, ok := ExcessBytesPerLaunch(p); ok {
		n.ExcessBytesPerLaunch = ptr(b)
	}
	for _, a := range p.Assumptions {
		n.Assumptions = append(n.Assumptions, a.String())
	}
	if u := p.Unrolled; u != nil {
		for _, c := range u.Copies {
			n.UnrolledCopySectors = append(n.UnrolledCopySectors, round(c.Sectors))
		}
		if u.Differ() {
			n.Unrolled = u.Describe("sectors")
		}
	}
	return n
}

func ptr[T any](v T) *T { return &v }

func round(x float64) float64 { return math.Round(x*1000) / 1000 }

// computeFacts groups the predictions by kernel and marks, once, the
// vector components the compiler merges with a sibling and the records
// threads read or write whole.
func (r *Result) computeFacts() {
	r.kernel = map[*analyzer.Prediction][]*analyzer.Prediction{}
	r.merged = map[*analyzer.Prediction]bool{}
	r.records = map[*analyzer.Prediction]*Record{}
	r.reused = map[*analyzer.Prediction]*analyzer.Prediction{}
	for _, kernel := range byKernel(r.Analysis.Predictions) {
		findReused(kernel, r.reused)
		findRecords(kernel, r.reused, r.records)
		for _, p := range kernel {
			r.kernel[p] = kernel
		}
		for _, p := range kernel {
			r.merged[p] = mergedWithSibling(p, kernel)
		}
	}
}

// Kernel is the predictions of p's kernel, in order: rules that compare
// an access with its neighbours (a transpose's other side) read them.
func (r *Result) Kernel(p *analyzer.Prediction) []*analyzer.Prediction { return r.kernel[p] }

// MergedWithSibling: p is one component of a vector whose lanes step by
// the whole vector, and the kernel loads another component of the same
// element (v[i].x and v[i].y): the compiler reads the vector once, in one
// coalesced instruction, so the access costs nothing of its own and no
// rule may report it.
func (r *Result) MergedWithSibling(p *analyzer.Prediction) bool { return r.merged[p] }

func mergedWithSibling(p *analyzer.Prediction, kernel []*analyzer.Prediction) bool {
	a := p.Access
	if a.Struct == nil || a.Struct.Kind != ctype.TVector || a.Type == nil || a.Type.Size >= a.Struct.Size {
		return false
	}
	return LaneStrideBytes(p) == a.Struct.Size && siblingLoaded(p, kernel)
}

// byKernel groups predictions by kernel, in order.
func byKernel(ps []*analyzer.Prediction) [][]*analyzer.Prediction {
	var out [][]*analyzer.Prediction
	index := map[any]int{}
	for _, p := range ps {
		i, ok := index[p.Access.Kernel]
		if !ok {
			i = len(out)
			index[p.Access.Kernel] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], p)
	}
	return out
}

// ExcessBytesPerLaunch is what an access moves beyond its ideal in one
// launch: sectors above the ideal, times 32 bytes, times the requests the
// launch makes. Known only when the whole launch was counted (the grid
// and every size from the code, no sampling); a finding without it is
// ranked after those with it.
func ExcessBytesPerLaunch(p *analyzer.Prediction) (int64, bool) {
	requests, ok := RequestsPerLaunch(p)
	if !ok || !p.Known || p.Sectors <= p.Ideal {
		return 0, false
	}
	return int64((p.Sectors - p.Ideal) * 32 * float64(requests)), true
}

// RequestsPerLaunch is the memory instructions a launch executes for the
// access, when the model counted them all: every block, or one block
// standing for all (BlocksEvaluated), or the closed form, which counts
// the whole grid.
func RequestsPerLaunch(p *analyzer.Prediction) (int64, bool) {
	c := p.Config
	if !p.Exact || c.GridKnown != [3]bool{true, true, true} || len(p.Assumptions) > 0 || len(AssumedStride(p)) > 0 {
		return 0, false
	}
	blocks := c.Grid[0] * c.Grid[1] * c.Grid[2]
	if p.BlocksEvaluated == 0 { // closed form: already the whole launch
		return int64(p.Requests), true
	}
	return int64(p.Requests) * blocks / p.BlocksEvaluated, true
}

// DivisorFacts are what a launch says of the symbols of an address, for
// symbolic.Divisor (an alignment fact per value, as Triton's AxisInfo
// divisibility): the values it gives, and pointers it passes as
// allocated. Anything else may be odd.
func DivisorFacts(c *analyzer.LaunchConfig) func(*symbolic.Var) int64 {
	values := c.Values()
	return func(v *symbolic.Var) int64 {
		switch v.Kind {
		case symbolic.KindBase:
			return baseDivisor(c, v.Of)
		case symbolic.KindParam:
			if x, ok := values[v.Key()]; ok {
				return symbolic.DivisorOf(x)
			}
		case symbolic.KindBlockDim:
			if blockGiven(c, v.Axis) {
				return symbolic.DivisorOf(c.Block[v.Axis])
			}
		case symbolic.KindGridDim:
			if c.GridKnown[v.Axis] {
				return symbolic.DivisorOf(c.Grid[v.Axis])
			}
		}
		return 1
	}
}

// baseDivisor is what divides the offset at which pointer parameter
// param points into its allocation: the launch's offset when it is a
// constant (0 for a pointer passed as allocated); nothing when the launch
// adds an offset it does not give (a + n). A pointer no launch passes, or
// one the model does not follow (a member, a call's result), is taken at
// its allocation's start, as the whole model takes it: the message says
// the pointer must be aligned, as cudaMalloc's are.
func baseDivisor(c *analyzer.LaunchConfig, param string) int64 {
	if off, ok := c.Bases[param]; ok {
		return symbolic.DivisorOf(off)
	}
	if _, offset := c.NonNull[param]; offset {
		return 1 // the launch passes a pointer with an offset, not a constant one
	}
	return symbolic.MaxDivisor
}

// blockGiven: the block's extent along axis is the launch's or the
// user's, not a guess.
func blockGiven(c *analyzer.LaunchConfig, axis symbolic.Axis) bool {
	switch c.BlockSource {
	case launch.FromLaunch, launch.FromAnnotation, launch.FromConfig:
		return true
	case launch.FromUnresolved:
		return c.BlockKnown[axis]
	}
	return false
}

// OwnRow is the enclosing loop whose every iteration steps the address by
// one element: the contiguous dimension is walked by each thread rather
// than across the lanes.
func OwnRow(p *analyzer.Prediction) (*interp.Loop, bool) {
	elem := ElemBytes(p.Access)
	for _, l := range p.Access.Loops {
		c, ok := symbolic.Coefficient(p.Access.Addr, l.Iter)
		if k, isConst := symbolic.IsConst(c); ok && isConst && Abs(k) == elem {
			return l, true
		}
	}
	return nil, false
}
