package driver

import (
	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
)

// checkStreamed is checkRules part by part of the model: the rules run
// over each part (accesses.LoadEach) and only their findings are kept.
// Once a part's findings are made, its kernels' bodies are dropped too
// (dropBodies), so that what a run holds shrinks as it goes.
func (c *passRunner) checkStreamed(all []*analysis.Analyzer, byAnalyzer map[*analysis.Analyzer]*lint.Rule, keep func(id, file string) bool) (*accesses.Result, []*lint.Finding, []error) {
	var kept []*lint.Finding
	var errs []error
	var later *bodyReaders
	pass := &analysis.Pass{Analyzer: accesses.Analyzer, Fset: c.fset, OtherFiles: c.files, ReadFile: c.readFile,
		ResultOf: map[*analysis.Analyzer]any{}, Report: func(analysis.Diagnostic) {}}
	res, err := accesses.LoadEach(pass, c.model, func(part *accesses.Result) {
		c.part = part
		defer func() { c.part = nil }()
		found, partErrs := c.kept(c.run(all)[1:], byAnalyzer, keep)
		kept = append(kept, winners(found)...) // precedence is per access: one part's
		errs = append(errs, partErrs...)
		if later == nil {
			later = &bodyReaders{helpers: indexHelpers(part.Analysis)}
		}
		for _, k := range part.Analysis.Kernels {
			if !later.need(k.Func) {
				k.Func.Body = nil
			}
		}
	})
	if err != nil {
		return nil, nil, []error{err}
	}
	return res, kept, errs
}

// bodyReaders are what reads a kernel's body once its part's findings
// are made: the demotions of a warning by its kernel (applyRuntimeCalls,
// applyComputeLoops, which find nothing in a kernel without an allocator
// call or a compute loop) and the summary's count of kernels partly
// analyzed (a statement the parser skipped). A kernel's body is kept
// only for those that would find something in it, so that dropping the
// others changes no output. The model, the rules and the host phase are
// done with a kernel's body when its part is handed over: no other
// kernel's analysis reads it (a launch is not a call).
type bodyReaders struct {
	helpers *helpers
}

func (r *bodyReaders) need(fn *parser.Func) bool {
	return fn.Body != nil && (allocatorCall(fn) != "" || r.helpers.computeLoop(fn) != nil || skipsStatements(fn.Body))
}

// skipsStatements: the parser skipped a statement of b.
func skipsStatements(b *parser.Block) bool {
	found := false
	parser.EachStmt(b, func(s parser.Stmt) {
		_, bad := s.(*parser.BadStmt)
		found = found || bad
	})
	return found
}
