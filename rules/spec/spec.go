// Package spec makes a rule from its description and its logic: a
// rule's package defines a Spec (the lint.Rule it is, with its Detect
// predicate, Grade severity policy, Describe message and Fix) and New
// gives it the analyzer that reports its findings.
package spec

import (
	"go/token"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/docs"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/rules/wording"
)

// Detect is a rule's own predicate: does the prediction show the problem
// the rule is about? It says nothing of other rules: when several detect
// one access, the registry's precedence list picks the one reported.
type Detect func(res *accesses.Result, p *analyzer.Prediction) bool

// Grade is a rule's severity policy for one prediction it detects.
type Grade func(p *analyzer.Prediction) lint.Severity

// Describe writes a rule's part of the message for one prediction: what
// follows the access it names ("load in[i * 2]: ...").
type Describe func(res *accesses.Result, p *analyzer.Prediction) string

// Fix proposes edits for one prediction, or none and why not: a reason
// is appended to the finding's message ("--fix leaves it: ..."), so that a user
// who expected --fix to act learns what stopped it.
type Fix func(res *accesses.Result, p *analyzer.Prediction) (fixes []analysis.SuggestedFix, whyNot string)

// Spec is a rule whose findings come from predictions: its description
// and its logic, in the rule's own package. NewRule makes it a rule.
type Spec struct {
	lint.Rule
	Name     string // the analyzer's name
	Detect   Detect
	Grade    Grade
	Describe Describe
	Fix      Fix // nil when the rule has none
	// Covers, when set, are the other accesses a finding about p stands
	// for (a vector's other lanes): named as related locations, and
	// counted as the finding's by precedence.
	Covers Covers
	// Cause, when set, gives a finding's Cause: what folds it with the
	// kernel's other findings on the same array.
	Cause func(p *analyzer.Prediction) any
}

// Covers lists the other predictions one finding is about.
type Covers func(res *accesses.Result, p *analyzer.Prediction) []*analyzer.Prediction

// Findings is the result of a rule's analyzer: what it reported, each
// with the prediction behind it, its severity and figures.
type Findings []*lint.Finding

// NewRule completes s with its analyzer, which reports, through
// pass.Report, every prediction the rule detects and returns them as
// Findings.
func NewRule(s Spec) *Spec {
	r := &s
	r.Kind = lint.FromPredictions
	r.Analyzer = &analysis.Analyzer{
		Name:       s.Name,
		Doc:        docs.Summary(s.ID),
		URL:        lint.DocsURL(s.ID),
		Requires:   []*analysis.Analyzer{accesses.Analyzer, impact.Analyzer},
		ResultType: reflect.TypeOf(Findings(nil)),
		Run:        r.run,
	}
	return r
}

func (s *Spec) run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[accesses.Analyzer].(*accesses.Result)
	costs := pass.ResultOf[impact.Analyzer].(*impact.Costs)
	out := Findings{}
	for _, p := range res.Analysis.Predictions {
		if s.Detect(res, p) {
			f := s.finding(res, costs, p)
			pass.Report(f.Diagnostic)
			out = append(out, f)
		}
	}
	return out, nil
}

// finding is the rule's finding about p: the diagnostic marked at the
// access's site, its severity by the rule's policy, and its figures, with
// what fixing it is worth to its kernel (costs: the pass's kernels').
func (s *Spec) finding(res *accesses.Result, costs *impact.Costs, p *analyzer.Prediction) *lint.Finding {
	start, end := res.SiteRange(p.Access)
	f := &lint.Finding{Rule: &s.Rule, Severity: s.Grade(p), Prediction: p, Detail: s.Describe(res, p), Figures: accesses.FiguresOf(p)}
	f.Diagnostic = analysis.Diagnostic{Pos: start, End: end, Category: s.ID, URL: lint.DocsURL(s.ID), Related: res.Related(p)}
	if s.Cause != nil {
		f.Cause = s.Cause(p)
	}
	if s.Covers != nil {
		f.Covers = s.Covers(res, p)
		f.Related = append(f.Related, coveredRelated(res, f.Covers)...)
	}
	if imp, ok := costs.Impact(p, f.Covers...); ok { // one fix for the accesses it covers
		f.Figures.Impact = &imp
	}
	if s.Fix != nil {
		var why string
		f.SuggestedFixes, why = s.Fix(res, p)
		if len(f.SuggestedFixes) > 0 {
			if helper := res.EditsHelper(p.Access, f.SuggestedFixes); helper != "" {
				f.SuggestedFixes, why = nil, "the fix would edit "+helper+", which is not the kernel's code: every call of it would change"
			}
		}
		if len(f.SuggestedFixes) == 0 && why != "" {
			f.Detail += "; --fix leaves it: " + why
		}
	}
	f.Subject = wording.Subject(p)
	f.Compose()
	return f
}

// coveredRelated points at the other accesses a finding stands for.
func coveredRelated(res *accesses.Result, qs []*analyzer.Prediction) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for _, q := range qs {
		if start, end := res.SiteRange(q.Access); start != token.NoPos {
			out = append(out, analysis.RelatedInformation{Pos: start, End: end, Message: wording.Subject(q) + " is part of the same finding"})
		}
	}
	return out
}
