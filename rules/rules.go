// Package rules lists cudalint's rules: one go/analysis Analyzer each, in
// the sub-packages, all requiring the accesses analyzer.
package rules

import (
	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/aosfield"
	"github.com/cudalint/cudalint/rules/bankconflict"
	"github.com/cudalint/cudalint/rules/decomposed"
	"github.com/cudalint/cudalint/rules/indirect"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/misaligned"
	"github.com/cudalint/cudalint/rules/spec"
	"github.com/cudalint/cudalint/rules/strided"
	"github.com/cudalint/cudalint/rules/swappedaxes"
	"github.com/cudalint/cudalint/rules/transpose"
	"github.com/cudalint/cudalint/rules/vectorcast"
	"github.com/cudalint/cudalint/rules/vectorizable"
)

// The driver's own rules: findings it reports itself, not a rule's
// analyzer.
var (
	// UnusedIgnore: a suppression comment that suppresses nothing.
	UnusedIgnore = &lint.Rule{ID: "unused-ignore", Title: "Unused suppression", Severity: lint.Warning, Tags: []string{"maintenance"},
		Precision: "very-high", Kind: lint.AboutSuppression}
	// InternalError: cudalint failed on a kernel; it cannot be
	// suppressed, disabled or filtered out by severity.
	InternalError = &lint.Rule{ID: "internal-error", Title: "Internal error", Severity: lint.Error, Tags: []string{"tool"},
		Precision: "very-high", Kind: lint.ToolFailure}
)

// Precedence lists the prediction rules from most to least specific. One
// access gets one finding: when several rules report the same access
// (under the same launch), only the earliest rule here is kept. A fault
// outranks a cost; a diagnosis that names the cure (a transpose, swapped
// axes, an AoS field, a vector) outranks the symptom it explains (a stride, a
// misalignment).
var Precedence = []*spec.Spec{
	bankconflict.Rule,
	indirect.Rule,
	vectorcast.Rule,
	transpose.Rule,
	swappedaxes.Rule,
	aosfield.Rule,
	vectorizable.Rule,
	strided.Rule,
	decomposed.Rule,
	misaligned.Rule,
}

// All lists the rules in a stable order: the prediction rules in the
// order users meet them, then the driver's own.
var All = []*lint.Rule{
	&swappedaxes.Rule.Rule,
	&strided.Rule.Rule,
	&aosfield.Rule.Rule,
	&misaligned.Rule.Rule,
	&indirect.Rule.Rule,
	&transpose.Rule.Rule,
	&vectorcast.Rule.Rule,
	&bankconflict.Rule.Rule,
	UnusedIgnore,
	InternalError,
	// Rules added since are appended: a SARIF result names its rule by
	// its index in this list, which must not move under existing results.
	&vectorizable.Rule.Rule,
	&decomposed.Rule.Rule,
}

// Rank is a rule's place in Precedence; rules not listed rank after all.
func Rank(r *lint.Rule) int {
	for i, s := range Precedence {
		if &s.Rule == r {
			return i
		}
	}
	return len(Precedence)
}

// Winner is the rule that reports p when every rule runs: the earliest
// in Precedence whose Detect holds, or nil.
func Winner(res *accesses.Result, p *analyzer.Prediction) *lint.Rule {
	for _, s := range Precedence {
		if s.Detect(res, p) {
			return &s.Rule
		}
	}
	return nil
}

// ByID finds a rule by the ID users write (in comments, configuration
// and flags).
func ByID(id string) *lint.Rule {
	for _, r := range All {
		if r.ID == id {
			return r
		}
	}
	return nil
}
