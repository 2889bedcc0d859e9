// Package policy holds the preconditions rules share and the severity
// policy of the rules that grade by cost (docs/severity.md): what makes a
// prediction a finding at all, and how much it matters.
package policy

import (
	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/analyzer/warp"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/accesses"
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
// merge with a sibling component or replace by an earlier load's value
// (then it costs nothing of its own).
func Uncoalesced(res *accesses.Result, p *analyzer.Prediction) bool {
	return GlobalKnown(p) && !Broadcast(p) && Wasteful(p) && !res.MergedWithSibling(p) && res.Reused(p) == nil
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
	case restsOnUnknownStride(p), RestsOnLargeStride(p):
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
	return StrideNamesOnly(p, accesses.AssumedStride(p))
}

// RestsOnLargeStride: the waste goes with the assumed parameters that
// may well be 1 (strides, increments) at 1 and none of them is compared
// against as a size: darknet's col2im, whose lane step at stride 1
// cancels the one its other assumed sizes make (4.87 sectors a request
// there, 32 with stride 4096).
func RestsOnLargeStride(p *analyzer.Prediction) bool {
	u := p.AtUnitStride
	if u == nil || !u.Known || u.Sectors > 2*u.Ideal+0.01 {
		return false
	}
	compared := comparedNames(p.Access.Kernel)
	for _, n := range u.Names {
		if compared[n] {
			return false
		}
	}
	return true
}

// StrideNamesOnly: names, the assumed parameters a cost rests on, are
// all named as strides (stride_x, nb01, s00) and none is compared
// against as a size: each may well be 1, a tensor's innermost stride.
func StrideNamesOnly(p *analyzer.Prediction, names []string) bool {
	if len(names) == 0 {
		return false
	}
	compared := comparedNames(p.Access.Kernel)
	for _, n := range names {
		if compared[n] || !accesses.StrideName(n) {
			return false
		}
	}
	return true
}

// comparedNames are the names a kernel compares against in its body (loop
// bounds, guards): what it treats as sizes. A name inside a subscript is
// an address, not a size compared: darknet's X[i*INCX]*X[i*INCX] < ALPHA
// compares data with ALPHA, and says nothing of INCX.
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
			parser.Inspect(side, func(n parser.Node) bool {
				switch x := n.(type) {
				case *parser.Index:
					return false
				case *parser.Ident:
					out[x.Name] = true
				}
				return true
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
	c, ok := accesses.Coefficient(p, symbolic.ThreadIdx(symbolic.X).ID())
	return !ok || accesses.Abs(c) < 32
}
