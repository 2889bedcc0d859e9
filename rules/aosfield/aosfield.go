package aosfield

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
)

// Rule reports one field of an array of structs read per lane.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "aos-field", Title: "Array-of-structs field access", Severity: lint.Warning, Tags: []string{"performance", "coalescing", "layout"}, Precision: "high", Folds: lint.FoldStructFields},
	Name: "aosfield", Detect: Detect, Grade: Severity, Describe: describe})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: lanes step by a whole struct and use one field of it. A vector
// component loaded with its sibling is excluded by Uncoalesced: the
// compiler loads the whole vector once.
func Detect(res *accesses.Result, p *analyzer.Prediction) bool {
	a := p.Access
	return policy.Uncoalesced(res, p) && a.Struct != nil && accesses.LaneStrideBytes(p) == a.Struct.Size && a.Type.Size < a.Struct.Size
}

// Severity grades by cost.
func Severity(p *analyzer.Prediction) lint.Severity { return policy.CostSeverity(p) }

func describe(_ *accesses.Result, p *analyzer.Prediction) string {
	a := p.Access
	if a.Struct.Kind == ctype.TVector {
		return fmt.Sprintf("each lane uses %d of the %d bytes of its %s (component %s); load the whole %s once, or keep the components in separate arrays: %s",
			a.Type.Size, a.Struct.Size, a.Struct.Name, a.Field, a.Struct.Name, wording.Figures(p))
	}
	return fmt.Sprintf("each lane uses %d of the %d bytes of struct %s (field %s); use a structure of arrays, or a vector load when all fields are used: %s",
		a.Type.Size, a.Struct.Size, a.Struct.Name, a.Field, wording.Figures(p))
}
