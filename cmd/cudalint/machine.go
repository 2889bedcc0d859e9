package main

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"strings"

	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/rules/lint"
)

// findingJSON is one finding in --format json.
type findingJSON struct {
	File      string        `json:"file"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"endLine"`
	EndColumn int           `json:"endColumn"`
	Rule      string        `json:"rule"`
	Severity  string        `json:"severity"`
	Message   string        `json:"message"`
	Numbers   *lint.Figures `json:"numbers,omitempty"`
	Fixes     []fixJSON     `json:"fixes,omitempty"`
	Related   []relatedJSON `json:"related,omitempty"`
}

// relatedJSON is a place related to a finding: the launch that gave the
// block, another access with the same cause.
type relatedJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

type fixJSON struct {
	Message string     `json:"message"`
	Edits   []editJSON `json:"edits"`
}

type editJSON struct {
	File    string `json:"file"`
	Offset  int    `json:"offset"`
	End     int    `json:"end"`
	NewText string `json:"newText"`
}

func findingsJSON(rep *driver.Report) []findingJSON {
	out := []findingJSON{}
	for _, f := range rep.Findings {
		s, e := rep.Fset.Position(f.Pos), rep.Fset.Position(f.End)
		j := findingJSON{File: shownPath(rep, s.Filename), Line: s.Line, Column: s.Column, EndLine: e.Line, EndColumn: e.Column,
			Rule: f.Rule.ID, Severity: f.Severity.String(), Message: message(f.Message, quotedExpr(f)), Numbers: findingFigures(f)}
		for _, fx := range f.SuggestedFixes {
			fj := fixJSON{Message: message(fx.Message, quotedExpr(f))}
			for _, te := range fx.TextEdits {
				a, b := rep.Fset.Position(te.Pos), rep.Fset.Position(te.End)
				fj.Edits = append(fj.Edits, editJSON{File: shownPath(rep, a.Filename), Offset: a.Offset, End: b.Offset, NewText: string(te.NewText)})
			}
			j.Fixes = append(j.Fixes, fj)
		}
		for _, r := range f.Related {
			if p := rep.Fset.Position(r.Pos); p.IsValid() {
				j.Related = append(j.Related, relatedJSON{File: p.Filename, Line: p.Line, Column: p.Column, Message: message(r.Message)})
			}
		}
		out = append(out, j)
	}
	return out
}

func writeFindingsJSON(w io.Writer, rep *driver.Report) error {
	doc := struct {
		Findings []findingJSON `json:"findings"`
		Errors   []string      `json:"errors"`
		Notes    []noteJSON    `json:"notes"`
	}{Findings: findingsJSON(rep), Errors: []string{}, Notes: []noteJSON{}}
	for _, err := range rep.Errors {
		doc.Errors = append(doc.Errors, message(err.Error()))
	}
	for _, n := range rep.Notes {
		doc.Notes = append(doc.Notes, noteJSONOf(n))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // C++ is full of < and &: print them as written
	return enc.Encode(doc)
}

// writeGitHub prints GitHub Actions workflow commands, one a line: the
// only lines of any output that may start with "::". The message is
// already escaped (findingsJSON), so it holds no line break; the file
// name is escaped here, then both as the runner's rules say.
func writeGitHub(w io.Writer, rep *driver.Report) error {
	for _, f := range findingsJSON(rep) {
		level := map[string]string{"error": "error", "warning": "warning", "info": "notice"}[f.Severity]
		_, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n", level,
			ghProperty(escape(f.File)), f.Line, f.Column, f.EndLine, f.EndColumn, ghProperty(f.Rule), ghData(f.Message))
		if err != nil {
			return err
		}
	}
	return nil
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// shownPath is how a report prints a file: relative to the run's root
// when the file lies under it, whatever the working folder, else as the
// run spelled it.
func shownPath(rep *driver.Report, name string) string {
	if rep.Root == "" || name == "" || strings.HasPrefix(name, "<") { // <stdin>
		return name
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return name
	}
	rel, err := filepath.Rel(rep.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return name
	}
	return rel
}

// shownPosition is a position as text output prints it: file:line:col.
func shownPosition(rep *driver.Report, p token.Position) string {
	p.Filename = shownPath(rep, p.Filename)
	return p.String()
}

// findingFigures are a finding's figures for machine output, or nil when it has
// none (a finding about a comment).
func findingFigures(f *lint.Finding) *lint.Figures {
	if f.Figures.IsZero() {
		return nil
	}
	return &f.Figures
}
