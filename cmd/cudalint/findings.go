package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"sort"
	"text/tabwriter"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/docs"
	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/internal/report"
	"github.com/cudalint/cudalint/rules"
	"github.com/cudalint/cudalint/rules/lint"
)

func (o *options) driverOptions() driver.Options {
	d := driver.Options{Paths: o.paths, ConfigPath: o.config, Settings: o.settings, Enable: o.enable, Disable: o.disable, Root: o.root, NoHostCpp: o.noHostCpp}
	// The page shows every access of a kernel, not only the findings'.
	d.Stream = o.format != "html"
	if o.severity != "" {
		s, _ := lint.ParseSeverity(o.severity)
		d.MinSeverity = &s
	}
	return d
}

// shapeString writes a block shape as the user would: 32x8, not 32x8x1
// (the driver quotes it in warnings).
func shapeString(d analyzer.Dim3) string {
	switch {
	case d[1] == 1 && d[2] == 1:
		return fmt.Sprint(d[0])
	case d[2] == 1:
		return fmt.Sprintf("%dx%d", d[0], d[1])
	}
	return fmt.Sprintf("%dx%dx%d", d[0], d[1], d[2])
}

// findings runs the rules over the inputs and reports; with --fix it
// applies the fixes first and reports what remains; with --diff it prints
// the fixes as a diff instead.
func (o *options) findings(out, stderr io.Writer, in *inputs, color bool) int {
	opts := o.driverOptions()
	opts.Found, opts.FindErrors, opts.ReadFile = in.files, in.errs, in.readFile
	rep := driver.Run(opts)
	if o.sortBy == "impact" {
		sortByImpact(rep.Findings)
	}
	// A file --fix could not write is an error (exit 2), but the other
	// files are still fixed and what remains is still reported.
	var fixErrs []error
	if o.fix || o.diff {
		fr := o.applyFixes(out, stderr, rep)
		if o.diff {
			return o.diffStatus(stderr, rep, fr)
		}
		fixErrs = fr.Errors
		if len(fr.Changed()) > 0 {
			rep = driver.Run(opts)
		}
	}
	for _, err := range rep.Errors {
		reportError(stderr, err)
	}
	printWarnings(stderr, rep.Warnings)
	// An internal error fails the run even where only new findings are
	// reported: it is about the tool, not the change.
	internalError := hasInternalError(rep)
	recorded := len(rep.Findings) // what --write-baseline writes
	fps, err := o.onlyNew(rep, stderr)
	if err != nil {
		reportError(stderr, err)
		return exitError
	}
	inv := o.invocation(rep, in, fixErrs, internalError, recorded)
	switch o.format {
	case "json":
		err = writeFindingsJSON(out, rep)
	case "sarif":
		err = writeSARIFWith(out, rep, fps, inv)
	case "github":
		err = writeGitHub(out, rep)
	case "html":
		err = writeHTML(out, rep, inv)
	default:
		err = writeFindingsText(out, rep, textStyle{color: color, snippets: !o.noSnippet}, inv)
	}
	if err == nil && o.sarifOutput != "" {
		err = writeSARIFFile(o.sarifOutput, o.fixRoot(), rep, fps, inv)
	}
	if err != nil {
		reportError(stderr, err)
		return exitError
	}
	switch {
	case inv.failed():
		return exitError
	case !o.exitZero && o.fails(rep.Findings):
		return exitFindings
	}
	return exitOK
}

// fails reports whether the findings make the run fail (exit 1): any
// finding reported, or with --fail-level one at or above that severity,
// or never with --fail-level none.
func (o *options) fails(fs []*lint.Finding) bool {
	switch o.failLevel {
	case "":
		return len(fs) > 0
	case "none":
		return false
	}
	min, _ := lint.ParseSeverity(o.failLevel)
	for _, f := range fs {
		if f.Severity >= min {
			return true
		}
	}
	return false
}

func explain(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "cudalint: usage: cudalint explain RULE (cudalint rules lists them)")
		return exitError
	}
	if args[0] == "picture" {
		fmt.Fprint(stdout, pictureLegend)
		return exitOK
	}
	page := docs.Rule(args[0])
	if page == "" {
		reportError(stderr, fmt.Errorf("unknown rule %q%s (cudalint rules lists them)", args[0], driver.DidYouMean(args[0], ruleIDs())))
		return exitError
	}
	fmt.Fprint(stdout, page)
	return exitOK
}

// ruleIDs are the IDs users may write.
func ruleIDs() []string {
	var ids []string
	for _, r := range rules.All {
		ids = append(ids, r.ID)
	}
	return ids
}

// ruleJSON is one rule in cudalint rules --format json.
type ruleJSON struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Severity  string   `json:"severity"`
	Tags      []string `json:"tags"`
	Precision string   `json:"precision"`
	Summary   string   `json:"summary"`
	URL       string   `json:"url"`
}

// listRules is cudalint rules [--format text|json].
func listRules(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "text or json")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || (*format != "text" && *format != "json") {
		fmt.Fprintln(stderr, "cudalint: usage: cudalint rules [--format text|json]")
		return exitError
	}
	if *format == "json" {
		out := []ruleJSON{}
		for _, r := range rules.All {
			out = append(out, ruleJSON{r.ID, r.Title, r.Severity.String(), r.Tags, r.Precision, r.Summary(), r.URL()})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return exitError
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintln(tw, "RULE\tSEVERITY\tSUMMARY")
	for _, r := range rules.All {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Severity, r.Summary())
	}
	return exitOK
}

// useColor is --color: auto colours a terminal only.
func (o *options) useColor(w io.Writer) bool {
	switch o.color {
	case "always":
		return true
	case "never":
		return false
	}
	return terminal(w)
}

// terminal: auto colour is for a terminal, never when NO_COLOR is set.
func terminal(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
	ansiGreen = "\x1b[32m"
)

var severityColor = map[lint.Severity]string{lint.Error: "\x1b[1;31m", lint.Warning: "\x1b[1;33m", lint.Info: "\x1b[1;36m"}

// writeFindingsText prints clang-style diagnostics: the position, the
// severity, the message and the rule; the source line with the access
// underlined; and a picture of the first warp's sectors. A summary line
// ends it.
// textStyle is how text output looks: colour, and whether each finding
// shows its source snippet, warp picture, fix and notes.
type textStyle struct{ color, snippets bool }

func writeFindingsText(w io.Writer, rep *driver.Report, style textStyle, inv *invocation) error {
	paint := func(code, s string) string {
		if !style.color {
			return s
		}
		return code + s + ansiReset
	}
	for _, f := range rep.Findings {
		start, end := rep.Fset.Position(f.Pos), rep.Fset.Position(f.End)
		fmt.Fprintf(w, "%s: %s %s %s\n", paint(ansiBold, lineStart(shownPosition(rep, start))), paint(severityColor[f.Severity], f.Severity.String()+":"),
			message(f.Message, quotedExpr(f)), paint(ansiDim, "["+f.Rule.ID+"]"))
		if !style.snippets {
			continue
		}
		if line := sourceLine(rep, f.Pos); line != nil {
			to := start.Offset // one character when the span leaves the line
			if end.Line == start.Line {
				to = end.Offset
			}
			lineOffset := start.Offset - (start.Column - 1)
			text, caret := snippet(line, start.Offset-lineOffset, to-lineOffset)
			fmt.Fprintf(w, "    %s\n    %s\n", text, paint(ansiGreen, caret))
		}
		if pic := report.WarpPicture(f.Prediction); pic != "" {
			fmt.Fprintf(w, "    %s\n", pic)
		}
		if len(f.SuggestedFixes) > 0 {
			fmt.Fprintf(w, "    fix: %s (cudalint --fix applies it)\n", message(f.SuggestedFixes[0].Message, quotedExpr(f)))
		}
		for _, r := range foldedRelated(rep, f) {
			fmt.Fprintf(w, "    %s %s: %s\n", paint(ansiDim, "note:"), lineStart(rep.Fset.Position(r.Pos).String()), message(r.Message))
		}
	}
	_, err := fmt.Fprintln(w, inv.summary(rep))
	return err
}

// quotedExpr is the source text a finding's message quotes: its access.
func quotedExpr(f *lint.Finding) string {
	if f.Prediction == nil {
		return ""
	}
	return f.Prediction.Access.Expr
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// sourceLine returns the line holding pos, without its end-of-line
// characters, or nil. It finds the line through the file set's line
// table, not by splitting the file: a report may quote thousands of lines
// of one file. The bytes are the file's own, not a copy: a line can be a
// megabyte long.
func sourceLine(rep *driver.Report, pos token.Pos) []byte {
	tf := rep.Fset.File(pos)
	if rep.Result == nil || tf == nil {
		return nil
	}
	src := rep.Result.Analysis.Program.Source(tf.Name())
	if len(src) != tf.Size() {
		return nil
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	end := len(src)
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i
	}
	return bytes.TrimRight(src[start:end], "\r")
}

// printWarnings says which settings took no effect; they do not change
// the exit status.
func printWarnings(stderr io.Writer, ws []driver.Warning) {
	for _, w := range ws {
		fmt.Fprintf(stderr, "cudalint: %s\n", escape(w.String()))
	}
}

// hasInternalError: cudalint failed on some kernel. That is exit 2 even
// with --exit-zero, which is about findings in the code, not the tool.
func hasInternalError(rep *driver.Report) bool { return countKind(rep, lint.ToolFailure) > 0 }

// foldedRelated are the related places text output shows as notes: the
// accesses folded into the finding. The launch that gave the block is
// left out, as the message names it already.
func foldedRelated(rep *driver.Report, f *lint.Finding) []analysis.RelatedInformation {
	var launch token.Pos
	if f.Prediction != nil && rep.Result != nil {
		launch = rep.Result.Pos(f.Prediction.Config.At)
	}
	var out []analysis.RelatedInformation
	for _, r := range f.Related {
		if r.Pos.IsValid() && r.Pos != launch {
			out = append(out, r)
		}
	}
	return out
}

// sortByImpact orders findings by the memory time their fix saves per
// launch, as the time model estimates it (a shared-memory conflict is
// weighed against global bytes, not counted as bytes), largest first:
// those counted at the code's own sizes, then those at assumed sizes;
// findings without an impact keep their order, after the others.
func sortByImpact(fs []*lint.Finding) {
	rank := func(f *lint.Finding) int {
		switch imp := f.Figures.Impact; {
		case imp == nil:
			return 2
		case imp.Assumed:
			return 1
		}
		return 0
	}
	sort.SliceStable(fs, func(i, j int) bool {
		ri, rj := rank(fs[i]), rank(fs[j])
		if ri != rj || ri == 2 {
			return ri < rj
		}
		return fs[i].Figures.Impact.SavedSeconds > fs[j].Figures.Impact.SavedSeconds
	})
}

// writeSARIFFile writes the findings as SARIF to path, beside the report
// in another format: one analysis, two reports. A file that cannot be
// written whole is an error.
func writeSARIFFile(path, root string, rep *driver.Report, fps []string, inv *invocation) error {
	f, err := driver.CreateOutput(path, root)
	if err != nil {
		return fmt.Errorf("--sarif-output: %w", err)
	}
	defer f.Abort()
	w := bufio.NewWriter(f)
	err = writeSARIFWith(w, rep, fps, inv)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err == nil {
		err = f.Commit()
	}
	if err != nil {
		return fmt.Errorf("--sarif-output: %w", err)
	}
	return nil
}
