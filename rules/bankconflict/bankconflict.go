package bankconflict

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
	"github.com/cudalint/cudalint/symbolic"
)

// Rule reports shared-memory bank conflicts.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "shared-bank-conflict", Title: "Shared-memory bank conflict", Severity: lint.Warning, Tags: []string{"performance", "shared-memory"}, Precision: "high", Folds: lint.FoldSameStride},
	Name: "bankconflict", Detect: Detect, Grade: Severity, Describe: describe})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: a shared access that takes more wavefronts than it needs. Where
// nvcc merges the access with adjacent ones of its thread (warp's
// merge.go), the figures are the merged instruction's, and the finding is
// the one of the access Nsight attributes it to: an access merged into
// another's instruction has none of its own.
func Detect(_ *accesses.Result, p *analyzer.Prediction) bool {
	if m := p.Merged; m != nil && m.Into != nil {
		return false
	}
	return p.Access.Space == interp.Shared && p.Known && p.Sectors > p.Ideal
}

// Severity: a conflict of four ways or more is a warning.
func Severity(p *analyzer.Prediction) lint.Severity {
	// Bank conflicts depend on which lanes share a warp: under a guessed
	// block they are a hint, not a verdict (docs/severity.md).
	if p.Sectors >= 4*p.Ideal && !policy.OneBlock(p.Config) && !policy.GuessedBlock(p.Config) && !policy.UpperBound(p) && !policy.Tail(p) {
		return lint.Warning
	}
	return lint.Info
}

func describe(_ *accesses.Result, p *analyzer.Prediction) string {
	return fmt.Sprintf("lanes hit the same bank at different words; %s: %s%s",
		advice(p), wording.Figures(p), merged(p))
}

// merged says that the figures rest on a predicted merge: the instruction
// nvcc emits, not the access as written.
func merged(p *analyzer.Prediction) string {
	m := p.Merged
	if m == nil {
		return ""
	}
	op := "LDS"
	if p.Access.Op == interp.Store {
		op = "STS"
	}
	inst := fmt.Sprintf("%d-byte %s.%d instructions", m.Bytes, op, 8*m.Bytes)
	what := "the copies of the unrolled loop"
	if n := len(m.With); n > 0 {
		inst = fmt.Sprintf("one %d-byte %s.%d", m.Bytes, op, 8*m.Bytes)
		what = fmt.Sprintf("this access and %d adjacent one%s of its thread", n, plural(n))
	}
	return fmt.Sprintf("; the figures are predicted for the instruction nvcc makes of %s, %s", what, inst)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// advice is the cure for what makes the lanes collide, read from the
// address's step along threadIdx.x in 4-byte bank words and the block's
// width:
//   - lanes a whole number of bank rows apart (tile[threadIdx.x][...]
//     over rows of 32 words: a column walk): pad the rows by one element;
//   - lanes of one row colliding among themselves (tile[ty][tx * 4]:
//     every 8th lane on one bank): neighbouring lanes on neighbouring
//     words, which padding the rows cannot give;
//   - lanes of a row on distinct banks, but the warp spanning rows of a
//     block narrower than 32 whose starts share banks: rows that start
//     on different banks, or a block 32 wide.
//
// A 1D array (tree reductions, scans, sorting networks) with no such
// reading gets neighbouring words, or one word of padding every 32.
func advice(p *analyzer.Prediction) string {
	a := p.Access
	w, ok := laneWords(p, symbolic.X)
	if !ok || w == 0 {
		return fallbackAdvice(a)
	}
	row := min(p.Config.Block[0], 32)
	collide := row > 32/gcd(accesses.Abs(w), 32)
	switch {
	case collide && (p.Merged != nil || a.Type != nil && a.Type.Kind == ctype.TVector):
		return fallbackAdvice(a) // already a vector per lane: the step is not what collides
	case collide && a.Subscripts >= 2 && !withinRow(p, w):
		return "pad the array's rows by one element (as in [32][33])"
	case collide:
		every := "every " + wording.Ordinal(int(32/gcd(accesses.Abs(w), 32))) + " lane meets"
		if accesses.Abs(w)%32 == 0 {
			every = "all the lanes meet" // not "every 1st lane"
		}
		cure := "have neighbouring lanes use neighbouring words, or pad one word every 32 (index + index/32)"
		if accesses.Abs(w) <= 4 {
			cure = fmt.Sprintf("have neighbouring lanes use neighbouring words (a lane's %d adjacent words as one vector)", accesses.Abs(w))
		}
		if a.Subscripts >= 2 {
			return fmt.Sprintf("neighbouring lanes are %d words apart along a row, so %s on one bank, which padding the rows does not change: %s", accesses.Abs(w), every, cure)
		}
		return fmt.Sprintf("neighbouring lanes are %d words apart, so %s on one bank: %s", accesses.Abs(w), every, cure)
	case row < 32:
		return fmt.Sprintf("the lanes of each row of %d threads use distinct banks, but the warp's rows start on the same ones: make the rows start on different banks (pad them), or the block 32 threads wide", row)
	}
	return fallbackAdvice(a)
}

// withinRow: neighbouring lanes step w words inside one row of a 2D
// array, as the address's step along threadIdx.y (a row, for
// tile[threadIdx.y][threadIdx.x * 4]) shows: a step shorter than that.
// Without a step along y the row's length is not known, and a 2D
// array's lanes that collide are taken to walk its column.
func withinRow(p *analyzer.Prediction, w int64) bool {
	r, ok := laneWords(p, symbolic.Y)
	return ok && r != 0 && accesses.Abs(w) < accesses.Abs(r)
}

// fallbackAdvice is the usual cure where the lane step says nothing:
// padding for a 2D tile, neighbouring words or padding every 32 for a
// 1D array.
//
// An element of 8 or 16 bytes (a float2, a float4) is served a half or a
// quarter of the warp at a time, and a word of padding would break its
// alignment: the padding is one element every 16 or 8.
func fallbackAdvice(a *analyzer.Access) string {
	if a.Subscripts >= 2 {
		return "pad the array's rows by one element (as in [32][33])"
	}
	if w := a.Type; w != nil && (w.Size == 8 || w.Size == 16) {
		every := 128 / w.Size
		return fmt.Sprintf("have neighbouring lanes use neighbouring %d-byte elements, or pad one %d-byte element every %d (index + index/%d): a word of padding would break their alignment", w.Size, w.Size, every, every)
	}
	return "have neighbouring lanes use neighbouring words, or pad one word every 32 (index + index/32)"
}

// laneWords is the step of p's address from one thread to the next
// along axis, in 4-byte bank words, when it is a constant number of
// them.
func laneWords(p *analyzer.Prediction, axis symbolic.Axis) (int64, bool) {
	c, ok := symbolic.Coefficient(p.Access.Addr, symbolic.ThreadIdx(axis).ID())
	if !ok {
		return 0, false
	}
	v, isConst := symbolic.IsConst(c)
	if !isConst || v%4 != 0 {
		return 0, false
	}
	return v / 4, true
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
