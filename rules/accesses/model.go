package accesses

import (
	"fmt"
	"math"
	"math/bits"
	"regexp"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/symbolic"
)

// Shared preconditions. Each rule states which it needs; which rule wins
// when several report one access is the registry's precedence list.

// GlobalKnown: a global access whose cost is known and whose sizes and
// offsets rest on a layout we are sure of.
func GlobalKnown(p *analyzer.Prediction) bool {
	a := p.Access
	if a.Space != interp.Global || !p.Known {
		return false
	}
	return !a.Guessed && (a.Struct == nil || a.Struct.LayoutKnown())
}

// Broadcast: every lane reads the same address, never a finding.
func Broadcast(p *analyzer.Prediction) bool { return p.LaneStride != nil && *p.LaneStride == 0 }

// Wasteful: the request touches measurably more sectors than it needs.
func Wasteful(p *analyzer.Prediction) bool { return p.Sectors > p.Ideal*1.01+0.01 }

// Uncoalesced is the precondition of the coalescing rules (transpose,
// swapped axes, AoS field, stride, misalignment): a known, wasteful,
// global access that is not a broadcast and that the compiler does not
// merge with a sibling component (then it costs nothing of its own).
func (r *Result) Uncoalesced(p *analyzer.Prediction) bool {
	return GlobalKnown(p) && !Broadcast(p) && Wasteful(p) && !r.MergedWithSibling(p)
}

// LaneStrideBytes is the absolute lane stride, or -1 when not constant.
func LaneStrideBytes(p *analyzer.Prediction) int64 {
	if p.LaneStride == nil {
		return -1
	}
	return Abs(*p.LaneStride)
}

// ElemBytes is the width of the access's first piece: the element a lane
// loads in one instruction.
func ElemBytes(a *analyzer.Access) int64 { return elemBytes(a) }

func elemBytes(a *analyzer.Access) int64 {
	pieces := ctype.Pieces(a.Type)
	return pieces[0][1]
}

// Abs is |x|.
func Abs(x int64) int64 { return abs(x) }

func abs(x int64) int64 {
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
	return coefficientWith(p, sym, nil)
}

// coefficientWith is Coefficient with the symbols of over given those
// values instead.
func coefficientWith(p *analyzer.Prediction, sym symbolic.SymID, over map[symbolic.SymID]int64) (int64, bool) {
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
		if d, ok := symbolic.IsConst(symbolic.Sub(a.Addr, b.Addr)); ok && abs(d) < a.Struct.Size {
			return true
		}
	}
	return false
}

// CostSeverity is the policy of the rules that grade by cost
// (docs/severity.md): severity follows the waste, not the certainty.
//
//   - more than twice the ideal sectors is a warning, even when the lane
//     stride rests on an assumed size: a stride that grows with the problem
//     size wastes at least as much for every large size, and the message
//     says what was assumed. A parameter named as a stride (stride_x,
//     s00, nb01, pitch, lda) that the kernel never compares against (as a
//     loop bound or a guard) may well be 1, a tensor's innermost stride,
//     so a cost resting on such parameters alone is info;
//   - at most twice the ideal (a shifted row, a stride of two) is info;
//   - set-up code, a launch of one block, is info;
//   - a remainder, behind a guard only lanes past a bound pass, is info
//     (see Tail);
//   - a cost that holds only under a guessed block shape is info (see
//     ShapeMatters).
func CostSeverity(p *analyzer.Prediction) lint.Severity {
	switch {
	case !p.Known || p.Sectors <= 2*p.Ideal+0.01:
		return lint.Info
	case UpperBound(p):
		return lint.Info
	case Tail(p):
		return lint.Info
	case restsOnUnknownStride(p):
		return lint.Info
	case OneBlock(p.Config):
		return lint.Info
	case GuessedBlock(p.Config) && ShapeMatters(p):
		return lint.Info
	}
	return lint.Warning
}

// restsOnUnknownStride: the lane stride depends on assumed parameters,
// all of them named as strides and none compared against as a size.
func restsOnUnknownStride(p *analyzer.Prediction) bool {
	names := AssumedStride(p)
	if len(names) == 0 {
		return false
	}
	compared := comparedNames(p.Access.Kernel)
	for _, n := range names {
		if compared[n] || !strideName.MatchString(n) {
			return false
		}
	}
	return true
}

// strideName matches the names code gives strides rather than sizes:
// stride_x, pitch, lda, and ggml's byte and element strides (nb01,
// src1_nb1, s00).
var strideName = regexp.MustCompile(`(?i)stride|pitch|step|^inc|(^|_)nb\d*$|(^|_)s[a-z]?\d+$|^ld[a-z]?$`)

// comparedNames are the names a kernel compares against in its body (loop
// bounds, guards): what it treats as sizes.
func comparedNames(fn *parser.Func) map[string]bool {
	out := map[string]bool{}
	if fn == nil || fn.Body == nil {
		return out
	}
	parser.WalkStmt(fn.Body, func(e parser.Expr) {
		b, ok := e.(*parser.Binary)
		if !ok || (b.Op != parser.Lss && b.Op != parser.Leq && b.Op != parser.Gtr && b.Op != parser.Geq) {
			return
		}
		for _, side := range []parser.Expr{b.X, b.Y} {
			parser.WalkExpr(side, func(x parser.Expr) {
				if id, ok := x.(*parser.Ident); ok {
					out[id.Name] = true
				}
			})
		}
	})
	return out
}

// UpperBound: which lanes take part depends on loaded data, so the
// figures, which count every lane, are only an upper bound: uncertain in
// kind, as a gather is.
func UpperBound(p *analyzer.Prediction) bool {
	for _, a := range p.Assumptions {
		if a.Kind == warp.DataGuard {
			return true
		}
	}
	return false
}

// Tail: the access is behind a guard that only lanes past a bound pass
// (a remainder, such as the last partial chunk of a size): a few lanes
// of a few warps run it, whatever it costs per request.
func Tail(p *analyzer.Prediction) bool {
	for _, a := range p.Assumptions {
		if a.Kind == warp.TailGuard {
			return true
		}
	}
	return false
}

// OneBlock: the launch is known to run a single block (set-up code).
func OneBlock(c *analyzer.LaunchConfig) bool {
	return c.GridKnown == [3]bool{true, true, true} && c.Grid[0]*c.Grid[1]*c.Grid[2] == 1
}

// GuessedBlock: no launch, annotation or setting gave the block's shape:
// the default, or __launch_bounds__ with a 2D shape made up from its count.
// A launch that fixes blockDim.x (dim3 block(1, n)) gives the shape: the
// warp runs along x and then the next dimension, whatever the other's
// value once the block holds a warp, which the assumed value does.
func GuessedBlock(c *analyzer.LaunchConfig) bool {
	if c.BlockSource == launch.FromUnresolved {
		return !c.BlockKnown[0]
	}
	return c.BlockSource == launch.FromDefault || (c.BlockSource == launch.FromBounds && c.Block[1] > 1)
}

// ShapeMatters: the cost depends on the block's shape, which a guess may
// have wrong. An address of threadIdx.x alone costs the same in any block
// of a warp or more; one whose lanes along x are a sector or more apart
// (a column walk) wastes for any shape. What remains, a 2D or 3D mapping
// with rows contiguous along x, costs what the guessed row width makes it.
func ShapeMatters(p *analyzer.Prediction) bool {
	a := p.Access.Addr
	if !symbolic.Mentions(a, symbolic.ThreadIdx(symbolic.Y).ID()) && !symbolic.Mentions(a, symbolic.ThreadIdx(symbolic.Z).ID()) {
		return false
	}
	c, ok := Coefficient(p, symbolic.ThreadIdx(symbolic.X).ID())
	return !ok || abs(c) < 32
}

// AssumedStride lists the parameters the lane stride depends on whose
// values no launch or configuration gave (they were assumed large).
func AssumedStride(p *analyzer.Prediction) []string {
	c, ok := symbolic.Coefficient(p.Access.Addr, symbolic.ThreadIdx(symbolic.X).ID())
	if !ok {
		return nil
	}
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

// Figures is the standard tail of a message: predicted and ideal sectors,
// efficiency, the lane step, the block shape and where it came from.
func Figures(p *analyzer.Prediction) string {
	var b strings.Builder
	unit := "sectors"
	if p.Access.Space == interp.Shared {
		unit = "wavefronts"
		fmt.Fprintf(&b, "%s-way bank conflict (%s wavefronts/request, ideal %s)", trim(p.Sectors), trim(p.Sectors), trim(p.Ideal))
	} else {
		fmt.Fprintf(&b, "%s sectors/request, ideal %s (%.0f%%)", trim(p.Sectors), trim(p.Ideal), 100*p.Efficiency())
	}
	if u := p.Unrolled; u != nil && u.Differ() {
		b.WriteString("; the loop is unrolled: " + u.Describe(unit))
	}
	if step := LaneStep(p); step != "" {
		b.WriteString("; lanes step by " + step)
	}
	b.WriteString("; " + p.Config.Describe())
	if GuessedBlock(p.Config) && ShapeMatters(p) {
		fmt.Fprintf(&b, "; the cost depends on the block's shape, which the code does not give: say it with --block %s=WxH, blocks: in .cudalint.yaml, or // cudalint:block WxH above the kernel",
			p.Access.Kernel.Name)
	}
	for _, a := range p.Assumptions {
		if a.Kind == warp.TailGuard {
			b.WriteString("; " + a.String() + ", so few requests pay this")
			break
		}
	}
	if names := AssumedStride(p); len(names) > 0 {
		fmt.Fprintf(&b, "; assuming %s = %d, as no launch gives %s", strings.Join(names, ", "), assumedValue(p, names[0]), pronoun(len(names)))
		if from := sectorApartFrom(p, names); from > 0 && p.Access.Space == interp.Global {
			fmt.Fprintf(&b, ": the same for any %s of %d or more, where neighbouring lanes are a sector apart", names[0], from)
		}
		fmt.Fprintf(&b, " (give the value with --param %s=N or params in .cudalint.yaml)", names[0])
	}
	return b.String()
}

// assumedValue is the value the prediction gave parameter name: the
// assumed one, or the size a tail guard was evaluated at.
func assumedValue(p *analyzer.Prediction, name string) int64 {
	for _, a := range p.Assumptions {
		if a.Kind == warp.AssumedParam && a.Name == name {
			return a.Value
		}
	}
	return warp.AssumedValue
}

// sectorApartFrom is, for a stride resting on one assumed parameter, the
// smallest value of it from which neighbouring lanes are 32 bytes or more
// apart: from there on each lane has a sector of its own and the cost is
// the one predicted, so the finding holds for every large size. 0 when
// there is no such value (or several parameters were assumed).
func sectorApartFrom(p *analyzer.Prediction, names []string) int64 {
	if len(names) != 1 || p.Sectors < float64(activeLanes(p)) {
		return 0
	}
	apart := func(v int64) bool {
		c, ok := coefficientWith(p, symbolic.ThreadIdx(symbolic.X).ID(), map[symbolic.SymID]int64{symbolic.ParamID(names[0]): v})
		return ok && abs(c) >= 32
	}
	lo, hi := int64(1), int64(warp.AssumedValue)
	if !apart(hi) {
		return 0
	}
	for lo < hi { // the stride grows with the size: bisect
		mid := lo + (hi-lo)/2
		if apart(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// activeLanes counts the lanes of the first request's warp.
func activeLanes(p *analyzer.Prediction) int {
	n := 0
	for _, a := range p.Warp {
		if a >= 0 {
			n++
		}
	}
	return n
}

// readableIters writes loops' iteration symbols (iter@22:5) as i, j, k,
// in the order they print, and says which loop each is: "2*1 << i floats
// (i counts the iterations of the loop at line 22)".
type readableIters struct {
	names map[symbolic.SymID]string
	lines []string
}

// name is how symbol v prints: a loop's iteration by its letter.
func (r *readableIters) name(v *symbolic.Var) string {
	if v.Kind != symbolic.KindLoopIter {
		return v.Name
	}
	if n, ok := r.names[v.Key()]; ok {
		return n
	}
	if r.names == nil {
		r.names = map[symbolic.SymID]string{}
	}
	n := string(rune('i' + len(r.names)))
	r.names[v.Key()] = n
	r.lines = append(r.lines, fmt.Sprintf("%s counts the iterations of the loop at line %d", n, v.Site.Line))
	return n
}

// explain is s, which the letters were named for, saying which loop each is.
func (r *readableIters) explain(s string) string {
	if len(r.lines) == 0 {
		return s
	}
	return s + " (" + strings.Join(r.lines, "; ") + ")"
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// Trim writes a figure with at most two decimals and no trailing zeros:
// 4, 5.75, 3.92.
func Trim(x float64) string { return trim(x) }

func trim(x float64) string {
	s := fmt.Sprintf("%.2f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// LaneStep describes, in the kernel's own terms, how far the address moves
// from one lane to the next: "height floats", "33 floats", "12 bytes",
// "2*1 << i floats (i counts the iterations of the loop at line 22)".
func LaneStep(p *analyzer.Prediction) string {
	iters := &readableIters{}
	sym := symbolic.ThreadIdx(symbolic.X).ID()
	if p.Config.Block[0] == 1 {
		sym = symbolic.ThreadIdx(symbolic.Y).ID()
	}
	c, ok := symbolic.Coefficient(p.Access.Addr, sym)
	if !ok {
		return ""
	}
	elem := elemBytes(p.Access)
	unit := elemName(p.Access)
	if v, isConst := symbolic.IsConst(c); isConst {
		switch {
		case v == 0:
			return ""
		case v%elem == 0 && unit != "":
			return plural(v/elem, unit)
		}
		return plural(v, "byte")
	}
	per := symbolic.Binary(symbolic.OpDiv, c, symbolic.Const(elem))
	if symbolic.ClassOf(c) == symbolic.Data || unit == "" {
		return iters.explain(mathString(c, iters.name) + " bytes")
	}
	if back := symbolic.Mul(per, symbolic.Const(elem)); symbolic.Key(back) == symbolic.Key(c) && !strings.Contains(per.String(), "/") {
		return iters.explain(mathString(per, iters.name) + " " + unit + "s")
	}
	if q, ok := divide(c, elem); ok {
		return iters.explain(mathString(q, iters.name) + " " + unit + "s")
	}
	return iters.explain(mathString(c, iters.name) + " bytes")
}

// divide divides every coefficient of a polynomial by d, when it can.
func divide(e symbolic.Expr, d int64) (symbolic.Expr, bool) {
	p, ok := e.(*symbolic.Poly)
	if !ok || p.Const%d != 0 {
		return nil, false
	}
	out := symbolic.Const(p.Const / d)
	for _, t := range p.Terms {
		if t.Coeff%d != 0 {
			return nil, false
		}
		term := symbolic.Const(t.Coeff / d)
		for _, a := range t.Atoms {
			term = symbolic.Mul(term, atom(a))
		}
		out = symbolic.Add(out, term)
	}
	return out, true
}

func atom(a symbolic.Expr) symbolic.Expr {
	if v, ok := a.(*symbolic.Var); ok {
		return symbolic.NewSym(*v)
	}
	return symbolic.Subst(a, nil)
}

func elemName(a *analyzer.Access) string {
	t := a.Type
	if t == nil || t.Kind == ctype.TStruct || t.Kind == ctype.TUnknown {
		return ""
	}
	return t.Name
}

func plural(n int64, unit string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, unit)
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// computeFacts groups the predictions by kernel and marks, once, the
// vector components the compiler merges with a sibling.
func (r *Result) computeFacts() {
	r.kernel = map[*analyzer.Prediction][]*analyzer.Prediction{}
	r.merged = map[*analyzer.Prediction]bool{}
	for _, kernel := range byKernel(r.Analysis.Predictions) {
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

// mathString writes a stride as a reader writes math: a doubling stride
// k << i is k·2^i, and a power-of-two k folds into the exponent, so
// 2*(1 << i) reads 2^(i+1). Anything else prints as the model prints it.
func mathString(e symbolic.Expr, name func(*symbolic.Var) string) string {
	p, ok := e.(*symbolic.Poly)
	if !ok || p.Const != 0 || len(p.Terms) != 1 || len(p.Terms[0].Atoms) != 1 {
		return symbolic.Format(e, name)
	}
	t := p.Terms[0]
	op, ok := t.Atoms[0].(*symbolic.Op)
	if !ok || op.Kind != symbolic.OpShl {
		return symbolic.Format(e, name)
	}
	base, ok := symbolic.IsConst(op.X)
	if !ok || base <= 0 {
		return symbolic.Format(e, name)
	}
	coeff := t.Coeff * base
	exp := symbolic.Format(op.Y, name)
	if coeff > 0 && coeff&(coeff-1) == 0 { // a power of two: 2^(exp + log2 coeff)
		if k := bits.TrailingZeros64(uint64(coeff)); k > 0 {
			return fmt.Sprintf("2^(%s+%d)", exp, k)
		}
		return "2^" + parenthesize(exp)
	}
	return fmt.Sprintf("%d·2^%s", coeff, parenthesize(exp))
}

func parenthesize(s string) string {
	if strings.ContainsAny(s, " +-*/") {
		return "(" + s + ")"
	}
	return s
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
