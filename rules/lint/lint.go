// Package lint is what cudalint's rules produce and what the driver, the
// printers and the editor server read: a rule's description (Rule: its
// ID, title, tags, precision, highest severity, and the policies the
// driver applies to its findings), severities, and the Finding, a
// diagnostic with the prediction and the typed figures behind it.
//
// It knows nothing of how a rule decides; that is the rule's package
// (see rules/spec.Spec). Code outside a rule's package asks the Rule
// what it is (its Kind, its Folds), never its ID.
package lint

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/docs"
)

// Severity orders findings.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string { return [...]string{"info", "warning", "error"}[s] }

// ParseSeverity reads "info", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	for v := Info; v <= Error; v++ {
		if v.String() == s {
			return v, nil
		}
	}
	return Info, fmt.Errorf("unknown severity %q (want info, warning or error)", s)
}

// Kind says where a rule's findings come from, which decides what the
// driver and the editor may do with them.
type Kind uint8

const (
	// FromPredictions: a rule's analyzer reports predictions of the
	// model; its findings can be suppressed, disabled and filtered.
	FromPredictions Kind = iota
	// AboutSuppression: the driver's finding about a suppression comment
	// (the editor offers to remove the comment).
	AboutSuppression
	// ToolFailure: the driver's finding that cudalint failed on a kernel;
	// it cannot be suppressed, disabled, filtered out by severity or
	// fixed, so a failure never looks clean.
	ToolFailure
)

// Folds are the ways a rule's findings that share a root cause are
// folded into one (driver/group.go). Every rule's findings of one access
// under several launches, and of one helper's accesses that calls reach
// at one cost, are folded; these are the folds a rule opts into.
type Folds uint8

const (
	// FoldStructFields: the fields of one array of structs that a kernel
	// reads one by one are one finding.
	FoldStructFields Folds = 1 << iota
	// FoldSameStride: one array walked with the same lane stride by
	// several accesses of a kernel (a per-thread layout) is one finding.
	FoldSameStride
	// FoldSameLine: arrays indexed alike on one line are one finding:
	// one index mapping is the cause, and one change fixes them all.
	FoldSameLine
)

// Has reports whether f includes every fold of g.
func (f Folds) Has(g Folds) bool { return f&g == g }

// Rule describes a rule. A rule's package defines it (with its analyzer,
// when the rule reads predictions) and rules.All lists it.
type Rule struct {
	ID        string
	Title     string
	Severity  Severity // the highest it reports
	Tags      []string
	Precision string // SARIF: very-high, high, medium, low
	Kind      Kind
	Folds     Folds
	// Fault is set for a rule whose findings are crashes, not costs: what
	// fixing one is worth is not a speedup, so the share of its kernel's
	// memory time neither grades it nor ends its message.
	Fault bool
	// Analyzer reports the rule's findings; nil for the driver's own.
	Analyzer *analysis.Analyzer
}

// Doc is the rule's page.
func (r *Rule) Doc() string { return docs.Rule(r.ID) }

// Summary is the first paragraph of the page.
func (r *Rule) Summary() string { return docs.Summary(r.ID) }

// URL is where the page is published.
func (r *Rule) URL() string { return DocsURL(r.ID) }

// DocsURL is where a rule's page is published.
func DocsURL(id string) string {
	return "https://github.com/cudalint/cudalint/blob/main/docs/rules/" + id + ".md"
}
