// Package rules lists cudalint's rules: one go/analysis Analyzer each, in
// the sub-packages, all requiring the accesses analyzer.
package rules

import (
	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/docs"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/aosfield"
	"github.com/cudalint/cudalint/rules/bankconflict"
	"github.com/cudalint/cudalint/rules/indirect"
	"github.com/cudalint/cudalint/rules/misaligned"
	"github.com/cudalint/cudalint/rules/strided"
	"github.com/cudalint/cudalint/rules/swappedaxes"
	"github.com/cudalint/cudalint/rules/transpose"
	"github.com/cudalint/cudalint/rules/vectorcast"
)

// Findings the driver reports itself, not a rule's analyzer.
const (
	// UnusedIgnore: a suppression comment that suppresses nothing.
	UnusedIgnore = "unused-ignore"
	// InternalError: cudalint failed on a kernel; it cannot be
	// suppressed, disabled or filtered out by severity.
	InternalError = "internal-error"
)

// Rule is a rule's metadata: its stable ID, its analyzer, and the
// policies the driver applies to what the analyzer reports.
type Rule struct {
	ID        string
	Title     string
	Severity  accesses.Severity // the highest it reports
	Tags      []string
	Precision string // SARIF: very-high, high, medium, low
	Analyzer  *analysis.Analyzer
	// Detect is the analyzer's predicate; Grade its severity policy for
	// one prediction. Both are nil for the driver's own findings.
	Detect accesses.Detect
	Grade  func(p *analyzer.Prediction) accesses.Severity
}

// Doc is the rule's page.
func (r *Rule) Doc() string { return docs.Rule(r.ID) }

// Summary is the first paragraph of the page.
func (r *Rule) Summary() string { return docs.Summary(r.ID) }

// URL is where the page is published.
func (r *Rule) URL() string { return accesses.DocsURL(r.ID) }

var perf = []string{"performance", "coalescing"}

// All lists the rules in a stable order.
var All = []*Rule{
	{ID: accesses.SwappedAxes, Title: "Swapped 2D axes", Severity: accesses.Warning, Tags: perf, Precision: "high",
		Analyzer: swappedaxes.Analyzer, Detect: swappedaxes.Detect, Grade: swappedaxes.Severity},
	{ID: accesses.StridedAccess, Title: "Strided access", Severity: accesses.Warning, Tags: perf, Precision: "high",
		Analyzer: strided.Analyzer, Detect: strided.Detect, Grade: strided.Severity},
	{ID: accesses.AoSField, Title: "Array-of-structs field access", Severity: accesses.Warning, Tags: []string{"performance", "coalescing", "layout"}, Precision: "high",
		Analyzer: aosfield.Analyzer, Detect: aosfield.Detect, Grade: aosfield.Severity},
	{ID: accesses.MisalignedAccess, Title: "Misaligned access", Severity: accesses.Warning, Tags: []string{"performance", "alignment"}, Precision: "high",
		Analyzer: misaligned.Analyzer, Detect: misaligned.Detect, Grade: misaligned.Severity},
	{ID: accesses.IndirectAccess, Title: "Data-dependent access", Severity: accesses.Info, Tags: []string{"performance", "gather"}, Precision: "medium",
		Analyzer: indirect.Analyzer, Detect: indirect.Detect, Grade: indirect.Severity},
	{ID: accesses.UncoalescedTranspose, Title: "Uncoalesced transpose", Severity: accesses.Warning, Tags: []string{"performance", "coalescing", "transpose"}, Precision: "high",
		Analyzer: transpose.Analyzer, Detect: transpose.Detect, Grade: transpose.Severity},
	{ID: accesses.UnalignedVectorCast, Title: "Unaligned vector access", Severity: accesses.Error, Tags: []string{"correctness", "alignment"}, Precision: "high",
		Analyzer: vectorcast.Analyzer, Detect: vectorcast.Detect, Grade: vectorcast.Severity},
	{ID: accesses.SharedBankConflict, Title: "Shared-memory bank conflict", Severity: accesses.Warning, Tags: []string{"performance", "shared-memory"}, Precision: "high",
		Analyzer: bankconflict.Analyzer, Detect: bankconflict.Detect, Grade: bankconflict.Severity},
	{ID: UnusedIgnore, Title: "Unused suppression", Severity: accesses.Warning, Tags: []string{"maintenance"}, Precision: "very-high"},
	{ID: InternalError, Title: "Internal error", Severity: accesses.Error, Tags: []string{"tool"}, Precision: "very-high"},
}

// Precedence lists the prediction rules from most to least specific. One
// access gets one finding: when several rules report the same access
// (under the same launch), only the earliest rule here is kept. A fault
// outranks a cost; a diagnosis that names the cure (a transpose, swapped
// axes, an AoS field) outranks the symptom it explains (a stride, a
// misalignment).
var Precedence = []string{
	accesses.SharedBankConflict,
	accesses.IndirectAccess,
	accesses.UnalignedVectorCast,
	accesses.UncoalescedTranspose,
	accesses.SwappedAxes,
	accesses.AoSField,
	accesses.StridedAccess,
	accesses.MisalignedAccess,
}

// Rank is a rule's place in Precedence; rules not listed rank after all.
func Rank(id string) int {
	for i, r := range Precedence {
		if r == id {
			return i
		}
	}
	return len(Precedence)
}

// Winner is the rule that reports p when every rule runs: the earliest
// in Precedence whose Detect holds, or "".
func Winner(res *accesses.Result, p *analyzer.Prediction) string {
	for _, id := range Precedence {
		if r := ByID(id); r != nil && r.Detect != nil && r.Detect(res, p) {
			return id
		}
	}
	return ""
}

// ByID finds a rule.
func ByID(id string) *Rule {
	for _, r := range All {
		if r.ID == id {
			return r
		}
	}
	return nil
}
