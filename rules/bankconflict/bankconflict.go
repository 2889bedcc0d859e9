package bankconflict

import (
	"fmt"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/policy"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/wording"
)

// Rule reports shared-memory bank conflicts.
var Rule = spec.NewRule(spec.Spec{
	Rule: lint.Rule{ID: "shared-bank-conflict", Title: "Shared-memory bank conflict", Severity: lint.Warning, Tags: []string{"performance", "shared-memory"}, Precision: "high", Folds: lint.FoldSameStride},
	Name: "bankconflict", Detect: Detect, Grade: Severity, Describe: describe})

// Analyzer is the rule's analyzer, for go/analysis drivers and tests.
var Analyzer = Rule.Analyzer

// Detect: a shared access that takes more wavefronts than it needs.
func Detect(_ *accesses.Result, p *analyzer.Prediction) bool {
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

func describe(p *analyzer.Prediction) string {
	return fmt.Sprintf("lanes hit the same bank at different words; %s: %s",
		advice(p.Access), wording.Figures(p))
}

// advice is the usual cure: padding for a 2D tile read down its columns;
// for a 1D array (tree reductions, scans, sorting networks) neighbouring
// words for neighbouring lanes, or one word of padding every 32.
func advice(a *analyzer.Access) string {
	if a.Subscripts >= 2 {
		return "pad the array's rows by one element (as in [32][33])"
	}
	return "have neighbouring lanes use neighbouring words, or pad one word every 32 (index + index/32)"
}
