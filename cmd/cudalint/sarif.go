package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/rules"
	"github.com/cudalint/cudalint/rules/lint"
)

const srcRoot = "%SRCROOT%"

// sarifSchemaURI is the log's $schema: the SARIF 2.1.0 schema as OASIS
// publishes it (its own id), which editors and validators fetch.
const sarifSchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// writeSARIF writes a SARIF 2.1.0 log. go-sarif v2.3.3's helpers have
// traps (WriteFile does not truncate, a rule without a description
// marshals a null, a result for an unregistered rule gets index 2^64-1,
// PropertyBag.Add panics), so every object is filled in field by field
// and written with Write.
func writeSARIF(w io.Writer, rep *driver.Report) error {
	return writeSARIFWith(w, rep, fingerprints(rep), nil)
}

// sarifBase is the folder SARIF URIs are relative to: the run's root.
func sarifBase(rep *driver.Report) string {
	if rep.Root != "" {
		return rep.Root
	}
	cwd, _ := os.Getwd()
	return cwd
}

// writeSARIFWith writes the log with the fingerprints given, one a
// finding: those of the run before --baseline or --new-from-rev dropped
// some, so that a finding keeps its fingerprint whatever is dropped. A
// failed run's log says so in its invocation (inv, nil when none).
func writeSARIFWith(w io.Writer, rep *driver.Report, fps []string, inv *invocation) error {
	report, err := sarif.New(sarif.Version210, false)
	if err != nil {
		return err
	}
	report.Schema = sarifSchemaURI
	run := sarif.NewRunWithInformationURI("cudalint", "https://github.com/cudalint/cudalint")
	run.Tool.Driver.Version = str(version)
	run.Tool.Driver.SemanticVersion = str(version)
	// go/token columns count bytes; the log declares UTF-16 code units
	// (SARIF's default, what code scanning reads) and converts to them.
	run.ColumnKind = "utf16CodeUnits"
	run.AutomationDetails = &sarif.RunAutomationDetails{ID: str("cudalint/")}
	// Every URI is relative to the run's root (--root, else the
	// repository), whatever the working folder: code scanning resolves
	// them against the repository's checkout.
	base := sarifBase(rep)
	run.OriginalUriBaseIDs = map[string]*sarif.ArtifactLocation{
		srcRoot: {URI: str("file://" + filepath.ToSlash(base) + "/")},
	}
	index := map[*lint.Rule]uint{}
	for i, r := range rules.All {
		index[r] = uint(i)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, ruleDescriptor(r))
	}
	for n, f := range rep.Findings {
		i, ok := index[f.Rule]
		if !ok {
			return fmt.Errorf("finding for unregistered rule %q", f.Rule.ID)
		}
		res := &sarif.Result{RuleID: str(f.Rule.ID), RuleIndex: &i, Level: str(level(f.Severity)),
			Message: sarif.Message{Text: str(message(f.Message, quotedExpr(f)))}}
		s, e := rep.Fset.Position(f.Pos), rep.Fset.Position(f.End)
		uri := relURI(base, s.Filename)
		res.Locations = []*sarif.Location{{PhysicalLocation: &sarif.PhysicalLocation{
			ArtifactLocation: &sarif.ArtifactLocation{URI: str(uri), URIBaseId: str(srcRoot)},
			Region:           region(s.Line, utf16Column(rep, f.Pos, s.Column), e.Line, utf16Column(rep, f.End, e.Column)),
		}}}
		res.PartialFingerprints = map[string]interface{}{"cudalint/v1": fps[n]}
		if fig := findingFigures(f); fig != nil {
			res.Properties = properties(fig)
		}
		for _, fx := range f.SuggestedFixes {
			fix := &sarif.Fix{Description: &sarif.Message{Text: str(message(fx.Message, quotedExpr(f)))}}
			change := &sarif.ArtifactChange{ArtifactLocation: sarif.ArtifactLocation{URI: str(uri), URIBaseId: str(srcRoot)}}
			for _, te := range fx.TextEdits {
				a, b := rep.Fset.Position(te.Pos), rep.Fset.Position(te.End)
				change.Replacements = append(change.Replacements, &sarif.Replacement{
					DeletedRegion:   *region(a.Line, utf16Column(rep, te.Pos, a.Column), b.Line, utf16Column(rep, te.End, b.Column)),
					InsertedContent: &sarif.ArtifactContent{Text: str(string(te.NewText))},
				})
			}
			fix.ArtifactChanges = []*sarif.ArtifactChange{change}
			res.Fixes = append(res.Fixes, fix)
		}
		res.RelatedLocations = relatedLocations(rep, f, base)
		run.Results = append(run.Results, res)
	}
	if run.Results == nil {
		run.Results = []*sarif.Result{}
	}
	run.Invocations = inv.sarif(base)
	report.AddRun(run)
	return report.Write(w)
}

func ruleDescriptor(r *lint.Rule) *sarif.ReportingDescriptor {
	d := &sarif.ReportingDescriptor{
		ID:                   r.ID,
		Name:                 str(ruleName(r.ID)),
		ShortDescription:     &sarif.MultiformatMessageString{Text: str(r.Title)},
		FullDescription:      &sarif.MultiformatMessageString{Text: str(r.Summary())},
		Help:                 &sarif.MultiformatMessageString{Text: str(r.Summary() + " See " + r.URL()), Markdown: str(r.Doc())},
		HelpURI:              str(r.URL()),
		DefaultConfiguration: &sarif.ReportingConfiguration{Level: level(r.Severity)},
		Properties:           sarif.Properties{"tags": r.Tags, "precision": r.Precision},
	}
	return d
}

// ruleName is the rule ID in PascalCase, as SARIF viewers show names.
func ruleName(id string) string {
	var b strings.Builder
	for _, part := range strings.Split(id, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func level(s lint.Severity) string {
	return map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "note"}[s]
}

func region(line, col, endLine, endCol int) *sarif.Region {
	r := &sarif.Region{StartLine: &line, StartColumn: &col}
	if endLine > 0 && (endLine > line || endCol > col) {
		r.EndLine, r.EndColumn = &endLine, &endCol
	}
	return r
}

// utf16Column converts the byte column col of pos to UTF-16 code units,
// counted on the source line; it stays as it is when the line is not to
// be had.
func utf16Column(rep *driver.Report, pos token.Pos, col int) int {
	if !pos.IsValid() {
		return col
	}
	line := sourceLine(rep, pos)
	if line == nil || col-1 > len(line) {
		return col
	}
	n := 0
	for _, r := range string(line[:col-1]) {
		n += len(utf16.Encode([]rune{r}))
	}
	return n + 1
}

func relURI(cwd, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	if rel, err := filepath.Rel(cwd, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

func str(s string) *string { return &s }

// relatedLocations are a finding's related places: the launch that gave
// the block, the other accesses of a cause folded into it.
func relatedLocations(rep *driver.Report, f *lint.Finding, base string) []*sarif.Location {
	var out []*sarif.Location
	for i, r := range f.Related {
		s, e := rep.Fset.Position(r.Pos), rep.Fset.Position(r.End)
		if !s.IsValid() {
			continue
		}
		if !e.IsValid() {
			e = s
		}
		id := uint(i)
		out = append(out, &sarif.Location{Id: &id, Message: &sarif.Message{Text: str(message(r.Message))},
			PhysicalLocation: &sarif.PhysicalLocation{
				ArtifactLocation: &sarif.ArtifactLocation{URI: str(relURI(base, s.Filename)), URIBaseId: str(srcRoot)},
				Region:           region(s.Line, utf16Column(rep, r.Pos, s.Column), e.Line, utf16Column(rep, r.End, e.Column)),
			}})
	}
	return out
}

// properties are a finding's figures as a SARIF property bag, whose
// names and values are those of the JSON output: the bag is a JSON
// object, and the figures' JSON encoding is its one definition.
func properties(fig *lint.Figures) sarif.Properties {
	data, err := json.Marshal(fig)
	if err != nil {
		panic(err) // a struct of numbers and strings always encodes
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // integers stay exact
	var bag sarif.Properties
	if err := dec.Decode(&bag); err != nil {
		panic(err)
	}
	return bag
}
