package strided

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules/accesses"
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

// Detect: neighbouring lanes are further apart than an element.
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	return policy.Uncoalesced(res, p) && accesses.LaneStrideBytes(p) > accesses.ElemBytes(p.Access)
}

// Severity grades by cost.
func Severity(p *analyzer.Prediction) lint.Severity { return policy.CostSeverity(p) }

func describe(p *analyzer.Prediction) string {
	return fmt.Sprintf("neighbouring lanes are %d bytes apart, so each request moves %.1fx the bytes it uses; %s: %s",
		abs(*p.LaneStride), p.Sectors/p.Ideal, advice(p), wording.Figures(p))
}

// advice says what to change, by how far apart lanes are: a few
// elements each is a vector per lane; more is a layout to interleave, or
// a tile to stage through shared memory.
func advice(p *analyzer.Prediction) string {
	stride, elem := abs(*p.LaneStride), accesses.ElemBytes(p.Access)
	if k := stride / elem; stride%elem == 0 && stride > 16 && stride <= 64 && stride%16 == 0 {
		return fmt.Sprintf("if each lane uses its %d neighbouring elements, read them as %d 16-byte vectors (float4), or interleave the layout so lanes read neighbouring elements", k, stride/16)
	}
	if k := stride / elem; stride%elem == 0 && stride <= 16 && k&(k-1) == 0 {
		vector := fmt.Sprintf("one %d-byte vector", stride)
		if p.Access.Type != nil && p.Access.Type.Name == "float" {
			vector += fmt.Sprintf(" (float%d)", k)
		}
		return fmt.Sprintf("if each lane uses its %d neighbouring elements, read them as %s, or interleave the layout so lanes read neighbouring elements", k, vector)
	}
	return "interleave the layout so neighbouring lanes read neighbouring elements (index [j * n + i] rather than [i * K + j]), or read a tile coalesced into shared memory and pick the elements there"
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
