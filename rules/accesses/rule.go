package accesses

import (
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
)

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

// EditsHelper names the helper of a's call chain whose body a fix would
// edit, or "": a helper's text is shared by every call of it, and a fix
// for one call's cost must change only the kernel's own code.
func (r *Result) EditsHelper(a *analyzer.Access, fixes []analysis.SuggestedFix) string {
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
