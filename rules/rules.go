// Package rules lists cudalint's rules: one go/analysis Analyzer each, in
// the sub-packages, all requiring the accesses analyzer.
package rules

import (
	"golang.org/x/tools/go/analysis"

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

// Rule is a rule's metadata: its stable ID and its analyzer.
type Rule struct {
	ID        string
	Title     string
	Severity  accesses.Severity // the highest it reports
	Tags      []string
	Precision string // SARIF: very-high, high, medium, low
	Analyzer  *analysis.Analyzer
}

// Doc is the rule's page.
func (r *Rule) Doc() string { return docs.Rule(r.ID) }

// Summary is the first paragraph of the page.
func (r *Rule) Summary() string { return docs.Summary(r.ID) }

// URL is where the page is published.
func (r *Rule) URL() string { return accesses.DocsURL(r.ID) }

// All lists the rules in a stable order.
var All = []*Rule{
	{accesses.SwappedAxes, "Swapped 2D axes", accesses.Warning, []string{"performance", "coalescing"}, "high", swappedaxes.Analyzer},
	{accesses.StridedAccess, "Strided access", accesses.Warning, []string{"performance", "coalescing"}, "high", strided.Analyzer},
	{accesses.AoSField, "Array-of-structs field access", accesses.Warning, []string{"performance", "coalescing", "layout"}, "high", aosfield.Analyzer},
	{accesses.MisalignedAccess, "Misaligned access", accesses.Warning, []string{"performance", "alignment"}, "high", misaligned.Analyzer},
	{accesses.IndirectAccess, "Data-dependent access", accesses.Info, []string{"performance", "gather"}, "medium", indirect.Analyzer},
	{accesses.UncoalescedTranspose, "Uncoalesced transpose", accesses.Warning, []string{"performance", "coalescing", "transpose"}, "high", transpose.Analyzer},
	{accesses.UnalignedVectorCast, "Unaligned vector access", accesses.Error, []string{"correctness", "alignment"}, "high", vectorcast.Analyzer},
	{accesses.SharedBankConflict, "Shared-memory bank conflict", accesses.Warning, []string{"performance", "shared-memory"}, "high", bankconflict.Analyzer},
	{UnusedIgnore, "Unused suppression", accesses.Warning, []string{"maintenance"}, "very-high", nil},
	{InternalError, "Internal error", accesses.Error, []string{"tool"}, "very-high", nil},
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
