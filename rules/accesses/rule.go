package accesses

import (
	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/docs"
)

// DocsURL is where a rule's page is published.
func DocsURL(id string) string {
	return "https://github.com/cudalint/cudalint/blob/main/docs/rules/" + id + ".md"
}

// Describe writes a rule's message for one prediction.
type Describe func(p *analyzer.Prediction) string

// Fix proposes edits for one prediction, or none and why not: a reason
// is appended to the finding's message ("not fixed: ..."), so that a user
// who expected --fix to act learns what stopped it.
type Fix func(res *Result, p *analyzer.Prediction) (fixes []analysis.SuggestedFix, whyNot string)

// NewAnalyzer builds the analyzer of a rule whose findings come from
// predictions: it reports every prediction that Classify assigns to the
// rule, with the rule's message and the standard figures.
func NewAnalyzer(id, name string, describe Describe, fix Fix) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      docs.Summary(id),
		URL:      DocsURL(id),
		Requires: []*analysis.Analyzer{Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[Analyzer].(*Result)
			for _, kernel := range byKernel(res.Analysis.Predictions) {
				for _, p := range kernel {
					if Classify(p, kernel) != id {
						continue
					}
					start, end := res.Range(p.Access)
					f := &Finding{Rule: id, Severity: SeverityOf(id, p), Prediction: p, Numbers: Numbers(p)}
					f.Pos, f.End, f.Message = start, end, describe(p)
					if fix != nil {
						var why string
						f.SuggestedFixes, why = fix(res, p)
						if len(f.SuggestedFixes) == 0 && why != "" {
							f.Message += "; not fixed: " + why
						}
					}
					res.Report(pass, f)
				}
			}
			return nil, nil
		},
	}
}

// byKernel groups predictions by kernel, in order.
func byKernel(ps []*analyzer.Prediction) [][]*analyzer.Prediction {
	var out [][]*analyzer.Prediction
	index := map[any]int{}
	for _, p := range ps {
		i, ok := index[p.Access.Kernel]
		if !ok {
			i = len(out)
			index[p.Access.Kernel] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], p)
	}
	return out
}

// Subject is how a message names the access: "load in[i * 2]".
func Subject(p *analyzer.Prediction) string {
	return p.Access.Op.String() + " " + p.Access.Expr
}
