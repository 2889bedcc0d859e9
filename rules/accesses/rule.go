package accesses

import (
	"fmt"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/docs"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/rules/lint"
)

// Detect is a rule's own predicate: does the prediction show the problem
// the rule is about? It says nothing of other rules: when several detect
// one access, the registry's precedence list picks the one reported.
type Detect func(res *Result, p *analyzer.Prediction) bool

// Grade is a rule's severity policy for one prediction it detects.
type Grade func(p *analyzer.Prediction) lint.Severity

// Describe writes a rule's part of the message for one prediction: what
// follows the access it names ("load in[i * 2]: ...").
type Describe func(p *analyzer.Prediction) string

// Fix proposes edits for one prediction, or none and why not: a reason
// is appended to the finding's message ("not fixed: ..."), so that a user
// who expected --fix to act learns what stopped it.
type Fix func(res *Result, p *analyzer.Prediction) (fixes []analysis.SuggestedFix, whyNot string)

// Spec is a rule whose findings come from predictions: its description
// and its logic, in the rule's own package. NewRule makes it a rule.
type Spec struct {
	lint.Rule
	Name     string // the analyzer's name
	Detect   Detect
	Grade    Grade
	Describe Describe
	Fix      Fix // nil when the rule has none
}

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
		Requires:   []*analysis.Analyzer{Analyzer},
		ResultType: reflect.TypeOf(Findings(nil)),
		Run:        r.run,
	}
	return r
}

func (s *Spec) run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[Analyzer].(*Result)
	out := Findings{}
	for _, p := range res.Analysis.Predictions {
		if s.Detect(res, p) {
			f := s.finding(res, p)
			pass.Report(f.Diagnostic)
			out = append(out, f)
		}
	}
	return out, nil
}

// finding is the rule's finding about p: the diagnostic marked at the
// access's site, its severity by the rule's policy, and its figures.
func (s *Spec) finding(res *Result, p *analyzer.Prediction) *lint.Finding {
	start, end := res.SiteRange(p.Access)
	f := &lint.Finding{Rule: &s.Rule, Severity: s.Grade(p), Prediction: p, Detail: s.Describe(p), Figures: FiguresOf(p)}
	if imp, ok := res.ImpactOf(p); ok {
		f.Figures.Impact = &imp
	}
	f.Diagnostic = analysis.Diagnostic{Pos: start, End: end, Category: s.ID, URL: lint.DocsURL(s.ID), Related: res.Related(p)}
	if s.Fix != nil {
		var why string
		f.SuggestedFixes, why = s.Fix(res, p)
		if len(f.SuggestedFixes) > 0 {
			if helper := res.editsHelper(p.Access, f.SuggestedFixes); helper != "" {
				f.SuggestedFixes, why = nil, "the fix would edit "+helper+", which is not the kernel's code: every call of it would change"
			}
		}
		if len(f.SuggestedFixes) == 0 && why != "" {
			f.Detail += "; not fixed: " + why
		}
	}
	f.Message = Subject(p) + ": " + f.Detail
	return f
}

// Related are the related locations of a diagnostic about p: where its
// block shape comes from, then for an access in a helper the calls that
// lead to it and the access.
func (r *Result) Related(p *analyzer.Prediction) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	if rel, ok := r.ConfigRelated(p); ok {
		out = append(out, rel)
	}
	return append(out, r.ChainRelated(p.Access)...)
}

// SiteRange is where a finding about access a is marked: the access, or
// the call in the kernel's body that reaches the helper holding it (the
// line the user changes for this call alone).
func (r *Result) SiteRange(a *analyzer.Access) (token.Pos, token.Pos) {
	pos, end := a.Site()
	start, stop := r.Pos(pos), r.Pos(end)
	if start == token.NoPos {
		return r.Range(a)
	}
	if stop == token.NoPos || stop < start {
		stop = start
	}
	return start, stop
}

// ChainRelated points, for an access in a helper, at the calls inside the
// helpers that lead to it and at the access itself, innermost last.
func (r *Result) ChainRelated(a *analyzer.Access) []analysis.RelatedInformation {
	s := a.SiteIndex()
	if s >= len(a.Via) {
		return nil
	}
	var out []analysis.RelatedInformation
	for j := s + 1; j < len(a.Via); j++ {
		c := a.Via[j]
		if pos := r.Pos(c.Pos); pos != token.NoPos {
			out = append(out, analysis.RelatedInformation{Pos: pos, End: r.Pos(c.End),
				Message: a.Via[j-1].Name() + " calls " + c.Name() + " here"})
		}
	}
	if start, end := r.Range(a); start != token.NoPos {
		out = append(out, analysis.RelatedInformation{Pos: start, End: end,
			Message: "the " + a.Op.String() + " " + a.Expr + " is here, in " + a.Via[len(a.Via)-1].Name()})
	}
	return out
}

// editsHelper names the helper of a's call chain whose body a fix would
// edit, or "": a helper's text is shared by every call of it, and a fix
// for one call's cost must change only the kernel's own code.
func (r *Result) editsHelper(a *analyzer.Access, fixes []analysis.SuggestedFix) string {
	for j := a.SiteIndex(); j < len(a.Via); j++ {
		f := a.Via[j].Func
		if a.Via[j].Local || f == nil || f.Body == nil {
			continue
		}
		from, to, ok := r.bodySpan(f)
		if !ok {
			return a.Via[j].Name() // a body we cannot delimit: refuse rather than guess
		}
		for _, fix := range fixes {
			for _, e := range fix.TextEdits {
				if e.Pos < to && (e.End > from || e.Pos >= from) {
					return a.Via[j].Name()
				}
			}
		}
	}
	return ""
}

// bodySpan is the text of f's body, braces included, in the pass's file
// set.
func (r *Result) bodySpan(f *parser.Func) (token.Pos, token.Pos, bool) {
	file := f.Body.P.File
	src := r.Analysis.Program.Source(file)
	toks, ok := lex.BlockTokens(file, src, int(f.Body.P.Offset))
	if !ok || len(toks) == 0 {
		return token.NoPos, token.NoPos, false
	}
	last := toks[len(toks)-1].Pos
	from, to := r.Pos(f.Body.P), r.Pos(parser.Pos{File: file, Offset: last.Offset + 1})
	if from == token.NoPos || to == token.NoPos {
		return token.NoPos, token.NoPos, false
	}
	return from, to, true
}

// Where says, for an access in a helper, where it is written: " in get()
// at helpers.cuh:12", and through which helpers the kernel's call
// reaches it (" through get2()"); "" for an access of the kernel's body.
func Where(a *analyzer.Access) string {
	s := a.SiteIndex()
	if s >= len(a.Via) {
		return ""
	}
	inner := a.Via[len(a.Via)-1]
	out := fmt.Sprintf(" in %s at %s:%d", inner.Name(), filepath.Base(a.Pos.File), a.Pos.Line)
	var through []string
	for j := s; j < len(a.Via)-1; j++ {
		through = append(through, a.Via[j].Name())
	}
	if len(through) > 0 {
		out += " through " + strings.Join(through, ", ")
	}
	return out
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

// Subject is how a message names the access: "load in[i * 2]", or for an
// access in a helper, "load a[i] in get() at helpers.cuh:12".
func Subject(p *analyzer.Prediction) string { return SubjectAs(p, p.Access.Op.String()) }

// SubjectAs names the access with another verb: "load and store x[i]"
// for a statement that reads and writes it.
func SubjectAs(p *analyzer.Prediction, verb string) string {
	return verb + " " + p.Access.Expr + Where(p.Access)
}
