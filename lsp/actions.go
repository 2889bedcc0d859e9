package lsp

import (
	"bytes"
	"context"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/rules/lint"
)

// codeAction offers, for each finding on the lines asked about: its
// rule's fix (a preferred quickfix), "ignore RULE on this line" and
// "ignore RULE in this file", or for an unused ignore its removal; and
// for the whole file, source.fixAll.cudalint.
func (s *Server) codeAction(ctx context.Context, p *CodeActionParams) ([]CodeAction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	actions := []CodeAction{}
	d := s.fresh(ctx, p.TextDocument.URI)
	if d == nil {
		return actions, nil
	}
	res := d.res
	want := func(kind string) bool {
		if len(p.Context.Only) == 0 {
			return kind != KindFixAll // fix-all is asked for by kind
		}
		for _, k := range p.Context.Only {
			if kind == k || strings.HasPrefix(kind, k+".") {
				return true
			}
		}
		return false
	}
	for i, f := range res.findings {
		diag := res.diags[i]
		if f == nil || diag.Range.Start.Line > p.Range.End.Line || diag.Range.End.Line < p.Range.Start.Line || !want(KindQuickFix) {
			continue
		}
		diags := []Diagnostic{diag}
		for j, fx := range f.SuggestedFixes {
			if edit, ok := s.workspaceEdit(res, fx.TextEdits); ok {
				actions = append(actions, CodeAction{Title: fx.Message, Kind: KindQuickFix, Diagnostics: diags, IsPreferred: j == 0, Edit: edit})
			}
		}
		switch f.Rule.Kind {
		case lint.AboutSuppression:
			if e, ok := removeComment(res.text, res.off(res.rep.Fset.Position(f.Pos).Offset), s.enc); ok {
				actions = append(actions, CodeAction{Title: "Remove the unused cudalint comment", Kind: KindQuickFix, Diagnostics: diags,
					IsPreferred: true, Edit: &WorkspaceEdit{Changes: map[string][]TextEdit{d.uri: {e}}}})
			}
		case lint.ToolFailure:
		default:
			line := diag.Range.Start.Line
			indent := leadingSpace(res.text.lineText(line))
			actions = append(actions,
				CodeAction{Title: "Ignore " + f.Rule.ID + " on this line", Kind: KindQuickFix, Diagnostics: diags,
					Edit: &WorkspaceEdit{Changes: map[string][]TextEdit{d.uri: {{
						Range:   Range{Start: Position{Line: line}, End: Position{Line: line}},
						NewText: indent + "// cudalint:ignore " + f.Rule.ID + "\n"}}}}},
				CodeAction{Title: "Ignore " + f.Rule.ID + " in this file", Kind: KindQuickFix, Diagnostics: diags,
					Edit: &WorkspaceEdit{Changes: map[string][]TextEdit{d.uri: {{
						NewText: "// cudalint:file-ignore " + f.Rule.ID + "\n"}}}}})
		}
	}
	if want(KindFixAll) {
		if a, ok := s.fixAll(d); ok {
			actions = append(actions, a)
		}
	}
	return actions, nil
}

// fixAll gathers every finding's first fix in d, dropping any that
// overlaps one already taken.
func (s *Server) fixAll(d *document) (CodeAction, bool) {
	res := d.res
	var edits []analysis.TextEdit
	var diags []Diagnostic
	taken := func(e analysis.TextEdit) bool {
		for _, o := range edits {
			if e.Pos < o.End && o.Pos < e.End || e.Pos == o.Pos {
				return true
			}
		}
		return false
	}
next:
	for i, f := range res.findings {
		if f == nil || len(f.SuggestedFixes) == 0 {
			continue
		}
		fx := f.SuggestedFixes[0]
		for _, e := range fx.TextEdits {
			if taken(e) {
				continue next
			}
		}
		edits = append(edits, fx.TextEdits...)
		diags = append(diags, res.diags[i])
	}
	if len(edits) == 0 {
		return CodeAction{}, false
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Pos < edits[j].Pos })
	edit, ok := s.workspaceEdit(res, edits)
	return CodeAction{Title: "Apply every cudalint fix in this file", Kind: KindFixAll, Diagnostics: diags, Edit: edit}, ok
}

// workspaceEdit converts a fix's edits, which lie in the report's file set.
func (s *Server) workspaceEdit(res *result, edits []analysis.TextEdit) (*WorkspaceEdit, bool) {
	w := &WorkspaceEdit{Changes: map[string][]TextEdit{}}
	for _, e := range edits {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		loc, ok := s.location(res, e.Pos, end)
		if !ok {
			return nil, false
		}
		w.Changes[loc.URI] = append(w.Changes[loc.URI], TextEdit{Range: loc.Range, NewText: string(e.NewText)})
	}
	return w, len(w.Changes) > 0
}

// removeComment deletes the comment starting at off: its whole line when
// nothing else is on it, else the comment and the blanks before it.
func removeComment(t *text, off int, enc string) (TextEdit, bool) {
	pos := t.position(off, enc)
	line := t.lineText(pos.Line)
	start := t.lines[pos.Line]
	col := off - start
	if col < 0 || col > len(line) || !bytes.HasPrefix(line[col:], []byte("/")) {
		return TextEdit{}, false
	}
	end := len(line)
	if bytes.HasPrefix(line[col:], []byte("/*")) {
		if i := bytes.Index(line[col:], []byte("*/")); i >= 0 {
			end = col + i + 2
		}
	}
	before := bytes.TrimRight(line[:col], " \t")
	if len(before) == 0 && len(bytes.TrimSpace(line[end:])) == 0 {
		// the whole line, with its end of line
		return TextEdit{Range: Range{Start: Position{Line: pos.Line}, End: Position{Line: pos.Line + 1}}}, true
	}
	return TextEdit{Range: t.rangeOf(start+len(before), start+end, enc)}, true
}

func leadingSpace(line []byte) string {
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}
