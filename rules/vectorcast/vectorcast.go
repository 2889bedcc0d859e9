package vectorcast

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

// Rule reports vector accesses through misaligned pointers.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "unaligned-vector-cast", Title: "Unaligned vector access", Severity: lint.Error, Tags: []string{"correctness", "alignment"}, Precision: "high"},
	Name: "vectorcast", Detect: Detect, Grade: Severity, Describe: describe})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: some requests of a vector access are not aligned to its width.
func Detect(_ *accesses.Result, p *analyzer.Prediction) bool {
	return policy.GlobalKnown(p) && p.Misaligned > 0
}

// Severity: an unaligned vector access faults.
func Severity(*analyzer.Prediction) lint.Severity { return lint.Error }

func describe(p *analyzer.Prediction) string {
	width := ctype.Pieces(p.Access.Type)[0][1]
	return fmt.Sprintf("%d-byte %s access at an address that is not %d-byte aligned in %.0f%% of requests: the GPU raises a misaligned address error; offset the pointer by a multiple of %d bytes: %s",
		width, p.Access.Type.Name, width, 100*p.Misaligned, width, wording.Figures(p))
}
