package decomposed

import (
	"fmt"
	"strings"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
	"github.com/cudalint/cudalint/symbolic"
)

// Rule reports accesses whose lanes reach their elements through a
// division or remainder of their index.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "decomposed-index", Title: "Lanes scattered by / and % of their index", Severity: lint.Warning,
		Tags: []string{"performance", "coalescing"}, Precision: "high", Folds: lint.FoldSameLine | lint.FoldSameStride},
	Name: "decomposed", Detect: Detect, Grade: Severity, Describe: describe, Cause: cause})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: a wasteful global access whose lane step is not one constant
// because the lanes' index is split with / or % (or >> and &) before it
// indexes the array, and the part that changes between neighbouring
// lanes moves the address further than an element.
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	if !policy.Uncoalesced(res, p) || p.LaneStride != nil {
		return false
	}
	_, ok := culprit(p)
	return ok
}

// culpritKey is a finding's cause: the part of the index that scatters
// the lanes, and how far it takes them, by identity.
type culpritKey struct{ op, step string }

// cause folds the kernel's findings on one array that one decomposition
// scatters (the loads of a thread's row in several loops): one fix, one
// finding.
func cause(p *analyzer.Prediction) any {
	c, ok := culprit(p)
	if !ok {
		return nil
	}
	return culpritKey{symbolic.Key(c.Op), symbolic.Key(c.Step)}
}

// Severity grades by cost, as the other coalescing rules do; a step
// resting only on assumed parameters named as strides (sx0, nb01) may
// well be one element, a contiguous tensor's, so it is information.
func Severity(p *analyzer.Prediction) lint.Severity {
	if c, ok := culprit(p); ok && policy.StrideNamesOnly(p, accesses.AssumedIn(p, c.Step)) {
		return lint.Info
	}
	return policy.CostSeverity(p)
}

func describe(res *accesses.Result, p *analyzer.Prediction) string {
	c, _ := culprit(p)
	return fmt.Sprintf("%s, so %s; %s: %s%s",
		c.describe(p), impact.Cost(res, p), advice(p), wording.Figures(p), assumed(p, c))
}

// assumed says which sizes the step was evaluated at, when no launch
// gave them, and what a stride of one element would mean.
func assumed(p *analyzer.Prediction, c part) string {
	names := accesses.AssumedIn(p, c.Step)
	if len(names) == 0 {
		return ""
	}
	s := fmt.Sprintf("; assuming %s large, as no launch gives %s (give the values with --param NAME=VALUE or params in .cudalint.yaml)",
		strings.Join(names, ", "), map[bool]string{true: "it", false: "them"}[len(names) == 1])
	if policy.StrideNamesOnly(p, names) {
		s += fmt.Sprintf("; if %s is 1, a contiguous innermost dimension, the access is coalesced", names[0])
	}
	return s
}

// advice says what to change. Where the innermost, contiguous index is
// one each thread walks in a loop, every thread reads its own row: a short
// row is a few vectors per lane; a long one the lanes should share.
// Otherwise the index should be split the other way round.
func advice(p *analyzer.Prediction) string {
	loop, ok := accesses.OwnRow(p)
	if !ok {
		return "split the index so that its part that changes fastest from lane to lane (index % extent) indexes the array's innermost, contiguous dimension; for a permutation, read a tile coalesced into shared memory and write it out permuted"
	}
	verb := map[bool]string{true: "write", false: "read"}[p.Access.Op == interp.Store]
	trip := tripOf(p, loop)
	if run := trip * accesses.ElemBytes(p.Access); trip > 1 && run <= 64 && run%16 == 0 {
		vector := wording.VectorType(p.Access.Type, 16/accesses.ElemBytes(p.Access))
		if vector == "" {
			vector = "16-byte vector"
		}
		return fmt.Sprintf("each thread's row is %d bytes: %s it as %s, or let the lanes of a warp share the rows", run, verb, plural(run/16, vector))
	}
	return "let the lanes of a warp share each row instead (lane k takes elements k, k + 32, ... and the warp combines them), or stage the rows through shared memory"
}

func plural(n int64, unit string) string {
	if n == 1 {
		return "one " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// tripOf is a loop's iteration count: a constant of its condition, or
// the one the launch gives it where the compiler unrolls it (r < TN, TN
// a template argument); 0 when neither says.
func tripOf(p *analyzer.Prediction, l *interp.Loop) int64 {
	if l.Trip > 0 || p.Unrolled == nil {
		return l.Trip
	}
	for _, u := range p.Unrolled.Loops {
		if u.Line == int(l.Pos.Line) {
			return u.Trip
		}
	}
	return 0
}

// part is one term of an address that depends on the lane through a
// division or remainder: the address moves by Step bytes per unit of Op,
// which changes every Every lanes (1 for a remainder of the lane index, D
// for a division by D; 0 when D is not a constant).
type part struct {
	Op    *symbolic.Op
	Step  symbolic.Expr
	Every int64
	sign  int64 // +1 or -1: how op's operand moves from lane to lane
}

func (c part) describe(p *analyzer.Prediction) string {
	a := p.Access
	what := indexText(c.Op, p.Config.Block)
	step := wording.Distance(a, c.Step)
	switch {
	case c.Every == 1:
		return fmt.Sprintf("neighbouring lanes differ in %s, which takes them %s apart", what, step)
	case c.Every > 1:
		return fmt.Sprintf("%s changes every %d lanes, taking each group of lanes %s from the last", what, c.Every, step)
	}
	return fmt.Sprintf("%s changes every %s lanes, taking each group of lanes %s from the last", what, wording.Expr(c.Op.Y), step)
}

// indexText writes a decomposition of the lane index as code writes it,
// the usual flat indices in CUDA's own terms, never a name of ours that
// could clash with the kernel's: "(blockIdx.x * blockDim.x + threadIdx.x)
// % NH", "threadIdx.x / 32" for the rank in a one-dimensional block.
func indexText(op *symbolic.Op, block [3]int64) string {
	var write func(e symbolic.Expr) string
	write = func(e symbolic.Expr) string {
		o, isOp := e.(*symbolic.Op)
		if !isOp {
			return flatIndexText(e, block)
		}
		x, y := write(o.X), wording.Expr(o.Y)
		if _, inner := o.X.(*symbolic.Op); inner || strings.Contains(x, " ") {
			x = "(" + x + ")"
		}
		if strings.ContainsAny(y, " +-*/") {
			y = "(" + y + ")"
		}
		return x + " " + opText[o.Kind] + " " + y
	}
	return write(op)
}

var opText = map[symbolic.OpKind]string{symbolic.OpDiv: "/", symbolic.OpRem: "%", symbolic.OpShr: ">>", symbolic.OpAnd: "&"}

// flatIndexText writes the grid-wide index along x and the thread's rank
// in its block as code writes them; anything else as the model prints it.
func flatIndexText(e symbolic.Expr, block [3]int64) string {
	tx, ty, tz := symbolic.ThreadIdx(symbolic.X).Sym(), symbolic.ThreadIdx(symbolic.Y).Sym(), symbolic.ThreadIdx(symbolic.Z).Sym()
	bx, by := symbolic.BlockDim(symbolic.X).Sym(), symbolic.BlockDim(symbolic.Y).Sym()
	global := symbolic.Add(symbolic.Mul(symbolic.BlockIdx(symbolic.X).Sym(), bx), tx)
	rank := symbolic.Add(tx, symbolic.Add(symbolic.Mul(bx, ty), symbolic.Mul(symbolic.Mul(bx, by), tz)))
	switch symbolic.Key(e) {
	case symbolic.Key(global):
		return "blockIdx.x * blockDim.x + threadIdx.x"
	case symbolic.Key(rank):
		if block[1] == 1 && block[2] == 1 {
			return "threadIdx.x"
		}
		return "the thread's rank in its block"
	}
	return wording.Expr(e)
}

// culprit is the part of the address that scatters the lanes of a warp:
// of the lane-dependent divisions and remainders that change within a
// warp and take neighbouring lanes a sector or more apart, the one that
// changes most often. A part that changes every lane moves the address
// by its own step plus the step the lane index adds directly.
func culprit(p *analyzer.Prediction) (part, bool) {
	poly, ok := p.Access.Addr.(*symbolic.Poly)
	if !ok {
		return part{}, false
	}
	direct := directLaneStep(poly)
	var best part
	found := false
	for _, t := range poly.Terms {
		c, ok := laneTerm(t)
		if !ok || c.Every >= warpSize {
			continue
		}
		if c.Every == 1 {
			c.Step = symbolic.Add(symbolic.Mul(c.Step, symbolic.Const(c.sign)), direct)
		}
		if !apart(c.Step) {
			continue
		}
		if !found || sooner(c.Every, best.Every) {
			best, found = c, true
		}
	}
	return best, found
}

// warpSize: a part that changes only every 32 lanes or more is the same
// for the whole of an aligned warp; it does not scatter its lanes.
const warpSize = 32

// directLaneStep is what the lane index adds to the address outside any
// division or remainder: the sum of the terms threadIdx.x * uniform.
func directLaneStep(poly *symbolic.Poly) symbolic.Expr {
	tid := symbolic.ThreadIdx(symbolic.X).ID()
	step := symbolic.Const(0)
	for _, t := range poly.Terms {
		c := symbolic.Const(t.Coeff)
		lane := false
		for _, a := range t.Atoms {
			if v, ok := symbolic.AsVar(a); ok && v.Key() == tid && !lane {
				lane = true
				continue
			}
			if symbolic.ClassOf(a) != symbolic.Uniform {
				lane = false
				break
			}
			c = symbolic.Mul(c, a)
		}
		if lane {
			step = symbolic.Add(step, c)
		}
	}
	return step
}

// apart: a step of a sector or more, or one that grows with a size.
// Smaller constant steps are a per-thread vector (x[4*lane + k]), which
// nvcc merges into one wide load when it can.
func apart(step symbolic.Expr) bool {
	k, isConst := symbolic.IsConst(step)
	return !isConst || accesses.Abs(k) >= 32
}

// laneTerm splits a monomial Coeff * op * uniform... into its one
// lane-dependent division or remainder and the step it is multiplied by.
func laneTerm(t symbolic.Mono) (part, bool) {
	var op *symbolic.Op
	step := symbolic.Const(t.Coeff)
	for _, a := range t.Atoms {
		o, isOp := a.(*symbolic.Op)
		switch {
		case isOp && symbolic.ClassOf(a) == symbolic.Lane && op == nil:
			op = o
		case symbolic.ClassOf(a) == symbolic.Uniform:
			step = symbolic.Mul(step, a)
		default:
			return part{}, false
		}
	}
	if op == nil {
		return part{}, false
	}
	every, ok := changesEvery(op)
	return part{Op: op, Step: step, Every: every, sign: laneSign(op)}, ok
}

// changesEvery is how many neighbouring lanes share a value of op: 1 for
// x % d and x & m of an index that steps by one per lane, d for x / d
// (x >> s: 2^s), 0 when d is not a constant; false for operators that do
// not decompose an index.
func changesEvery(op *symbolic.Op) (int64, bool) {
	inner := int64(1)
	if x, ok := op.X.(*symbolic.Op); ok && symbolic.ClassOf(x) == symbolic.Lane {
		n, ok := changesEvery(x)
		if !ok {
			return 0, false
		}
		inner = n
	} else if !unitLaneStep(op.X) {
		return 0, false
	}
	switch op.Kind {
	case symbolic.OpRem, symbolic.OpAnd:
		return inner, true
	case symbolic.OpDiv, symbolic.OpShr:
		d, ok := symbolic.IsConst(op.Y)
		if !ok || inner == 0 {
			return 0, true
		}
		if op.Kind == symbolic.OpShr {
			d = 1 << d
		}
		return inner * d, true
	}
	return 0, false
}

// unitLaneStep: x moves by one per lane along x (an index built as
// blockIdx.x * blockDim.x + threadIdx.x, or threadIdx.x itself).
func unitLaneStep(x symbolic.Expr) bool {
	c, ok := symbolic.Coefficient(x, symbolic.ThreadIdx(symbolic.X).ID())
	k, isConst := symbolic.IsConst(c)
	return ok && isConst && accesses.Abs(k) == 1
}

// laneSign is the direction in which the innermost operand of op moves
// from one lane to the next.
func laneSign(op *symbolic.Op) int64 {
	if x, ok := op.X.(*symbolic.Op); ok && symbolic.ClassOf(x) == symbolic.Lane {
		return laneSign(x)
	}
	c, _ := symbolic.Coefficient(op.X, symbolic.ThreadIdx(symbolic.X).ID())
	if k, _ := symbolic.IsConst(c); k < 0 {
		return -1
	}
	return 1
}

// sooner orders how often parts change: every lane first, an unknown
// period (a division by a size) last.
func sooner(a, b int64) bool {
	if b == 0 {
		return a != 0
	}
	return a != 0 && a < b
}
