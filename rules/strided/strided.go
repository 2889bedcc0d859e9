package strided

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
)

// Rule reports strided accesses.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "strided-access", Title: "Strided access", Severity: lint.Warning, Tags: []string{"performance", "coalescing"}, Precision: "high", Folds: lint.FoldSameStride | lint.FoldSameLine},
	Name: "strided", Detect: Detect, Grade: Severity, Describe: describe})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: neighbouring lanes are further apart than what each accesses.
// A struct copied whole (a 32-byte type, two 16-byte instructions) uses
// every byte between its lanes, though each instruction takes half of
// each sector: there is no wider instruction to use, nor a layout to fix.
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	return policy.Uncoalesced(res, p) && accesses.LaneStrideBytes(p) > usedBytes(p.Access)
}

// usedBytes is what a lane accesses: the whole type, when the access
// copies a struct in instructions that are already the widest there are
// (16 bytes), else the element of its instruction (a 12-byte struct of
// three 4-byte loads could be one aligned 16-byte load).
func usedBytes(a *analyzer.Access) int64 {
	if a.Type == nil || !a.Type.LayoutKnown() {
		return accesses.ElemBytes(a)
	}
	pieces := ctype.Pieces(a.Type)
	for _, pc := range pieces {
		if pc[1] < 16 {
			return accesses.ElemBytes(a)
		}
	}
	if len(pieces) > 1 {
		return a.Type.Size
	}
	return accesses.ElemBytes(a)
}

// Severity grades by cost.
func Severity(p *analyzer.Prediction) lint.Severity { return policy.CostSeverity(p) }

func describe(p *analyzer.Prediction) string {
	return fmt.Sprintf("neighbouring lanes are %d bytes apart, so %s; %s: %s",
		abs(*p.LaneStride), impact.Cost(p), advice(p), wording.Figures(p))
}

// advice says what to change, by how far apart lanes are: a few
// elements each is a vector per lane; more is a layout to interleave, or
// a tile to stage through shared memory. A store writes what a load reads.
func advice(p *analyzer.Prediction) string {
	stride, elem := abs(*p.LaneStride), accesses.ElemBytes(p.Access)
	verb, uses := "read", "uses"
	if p.Access.Op == interp.Store {
		verb, uses = "write", "writes"
	}
	if k := stride / elem; stride%elem == 0 && stride > 16 && stride <= 64 && stride%16 == 0 {
		return fmt.Sprintf("if each lane %s its %d neighbouring elements, %s them as %s, or interleave the layout so lanes %s neighbouring elements", uses, k, verb, vectors(p, stride/16, 16), verb)
	}
	if k := stride / elem; stride%elem == 0 && stride <= 16 && k&(k-1) == 0 {
		return fmt.Sprintf("if each lane %s its %d neighbouring elements, %s them as %s, or interleave the layout so lanes %s neighbouring elements", uses, k, verb, vectors(p, 1, stride), verb)
	}
	if p.Access.Op == interp.Store {
		return "interleave the layout so that the index neighbouring lanes differ in is the array's last (contiguous) one, or write a tile into shared memory and store it out coalesced"
	}
	return "interleave the layout so that the index neighbouring lanes differ in is the array's last (contiguous) one, or read a tile coalesced into shared memory and pick the elements there"
}

// vectors names n vectors of width bytes of the access's element type:
// "one 16-byte vector (float4)", "2 16-byte vectors (double2)".
func vectors(p *analyzer.Prediction, n, width int64) string {
	s := fmt.Sprintf("%d %d-byte vectors", n, width)
	if n == 1 {
		s = fmt.Sprintf("one %d-byte vector", width)
	}
	if p.Access.Type != nil {
		if name := wording.VectorType(p.Access.Type, width/accesses.ElemBytes(p.Access)); name != "" {
			s += " (" + name + ")"
		}
	}
	return s
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
