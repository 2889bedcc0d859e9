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

func describe(p *analyzer.Prediction) string {
	return fmt.Sprintf("lanes hit the same bank at different words; %s: %s%s",
		advice(p.Access), wording.Figures(p), merged(p))
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

// advice is the usual cure: padding for a 2D tile read down its columns;
// for a 1D array (tree reductions, scans, sorting networks) neighbouring
// words for neighbouring lanes, or one word of padding every 32.
func advice(a *analyzer.Access) string {
	if a.Subscripts >= 2 {
		return "pad the array's rows by one element (as in [32][33])"
	}
	return "have neighbouring lanes use neighbouring words, or pad one word every 32 (index + index/32)"
}
