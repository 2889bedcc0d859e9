package accesses

import (
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/docs"
)

// DocsURL is where a rule's page is published.
func DocsURL(id string) string {
	return "https://github.com/cudalint/cudalint/blob/main/docs/rules/" + id + ".md"
}

// Detect is a rule's own predicate: does the prediction show the problem
// the rule is about? It says nothing of other rules: when several detect
// one access, the registry's precedence list picks the one reported.
type Detect func(res *Result, p *analyzer.Prediction) bool

// Describe writes a rule's message for one prediction.
type Describe func(p *analyzer.Prediction) string

// Fix proposes edits for one prediction, or none and why not: a reason
// is appended to the finding's message ("not fixed: ..."), so that a user
// who expected --fix to act learns what stopped it.
type Fix func(res *Result, p *analyzer.Prediction) (fixes []analysis.SuggestedFix, whyNot string)

// Spec is what a rule whose findings come from predictions defines.
type Spec struct {
	ID, Name string
	Detect   Detect
	Describe Describe
	Fix      Fix // nil when the rule has none
}

// NewAnalyzer builds the analyzer of a rule whose findings come from
// predictions: it reports, through pass.Report, every prediction the
// rule detects.
func NewAnalyzer(s Spec) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     s.Name,
		Doc:      docs.Summary(s.ID),
		URL:      DocsURL(s.ID),
		Requires: []*analysis.Analyzer{Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[Analyzer].(*Result)
			for _, p := range res.Analysis.Predictions {
				if s.Detect(res, p) {
					pass.Report(s.diagnostic(res, p))
				}
			}
			return nil, nil
		},
	}
}

func (s Spec) diagnostic(res *Result, p *analyzer.Prediction) analysis.Diagnostic {
	start, end := res.Range(p.Access)
	d := analysis.Diagnostic{Pos: start, End: end, Category: s.ID, Message: s.Describe(p), URL: DocsURL(s.ID)}
	if rel, ok := res.ConfigRelated(p); ok {
		d.Related = []analysis.RelatedInformation{rel}
	}
	if s.Fix != nil {
		var why string
		d.SuggestedFixes, why = s.Fix(res, p)
		if len(d.SuggestedFixes) == 0 && why != "" {
			d.Message += "; not fixed: " + why
		}
	}
	return d
}

// ConfigRelated points at where p's block shape comes from (the launch or
// the annotation), when it comes from a place in the code: the same
// access under two launches is two diagnostics, told apart by it.
func (r *Result) ConfigRelated(p *analyzer.Prediction) (analysis.RelatedInformation, bool) {
	c := p.Config
	at := r.Pos(c.At)
	if !c.At.IsValid() || at == token.NoPos {
		return analysis.RelatedInformation{}, false
	}
	msg := "block " + c.Block.String() + " from this launch"
	switch c.BlockSource {
	case launch.FromAnnotation:
		msg = "block " + c.Block.String() + " from this annotation"
	case launch.FromBounds:
		msg = "block " + c.Block.String() + " from this kernel's __launch_bounds__"
	case launch.FromConfig:
		msg = "this launch, with block " + c.Block.String() + " from configuration"
	case launch.FromUnresolved:
		msg = "this launch, whose block is not a constant; block " + c.Block.String() + " assumed"
	}
	return analysis.RelatedInformation{Pos: at, End: at, Message: msg}, true
}

// Subject is how a message names the access: "load in[i * 2]".
func Subject(p *analyzer.Prediction) string {
	return p.Access.Op.String() + " " + p.Access.Expr
}
