package main

import (
	"bytes"
	"fmt"
	"go/token"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/docs"
	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/rules"
	"github.com/cudalint/cudalint/rules/accesses"
)

func (o *options) driverOptions() driver.Options {
	d := driver.Options{Paths: o.paths, ConfigPath: o.config, Defines: o.defines, Blocks: map[string]string{},
		Params: map[string]string{}, Enable: o.enable, Disable: o.disable, Root: o.root, IncludeDirs: o.includes}
	for k, v := range o.blocks {
		d.Blocks[k] = shapeString(v)
	}
	for k, v := range o.params {
		d.Params[k] = fmt.Sprint(v)
	}
	if o.severity != "" {
		s, _ := accesses.ParseSeverity(o.severity)
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
	// A file --fix could not write is an error (exit 2), but the other
	// files are still fixed and what remains is still reported.
	fixFailed := false
	if o.fix || o.diff {
		fr := o.applyFixes(out, stderr, rep)
		if o.diff {
			return o.diffStatus(stderr, rep, fr)
		}
		fixFailed = len(fr.Errors) > 0
		if len(fr.Changed()) > 0 {
			rep = driver.Run(opts)
		}
	}
	for _, err := range rep.Errors {
		reportError(stderr, err)
	}
	printWarnings(stderr, rep.Warnings)
	var err error
	switch o.format {
	case "json":
		err = writeFindingsJSON(out, rep)
	case "sarif":
		err = writeSARIF(out, rep)
	case "github":
		err = writeGitHub(out, rep)
	default:
		err = writeFindingsText(out, rep, color)
	}
	if err != nil {
		reportError(stderr, err)
		return exitError
	}
	switch {
	case len(rep.Errors) > 0 || fixFailed || hasInternalError(rep):
		return exitError
	case len(rep.Findings) > 0 && !o.exitZero:
		return exitFindings
	}
	return exitOK
}

func explain(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "cudalint: usage: cudalint explain RULE (cudalint rules lists them)")
		return exitError
	}
	page := docs.Rule(args[0])
	if page == "" {
		reportError(stderr, fmt.Errorf("unknown rule %q (cudalint rules lists them)", args[0]))
		return exitError
	}
	fmt.Fprint(stdout, page)
	return exitOK
}

func listRules(stdout io.Writer) int {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintln(tw, "RULE\tSEVERITY\tSUMMARY")
	for _, r := range rules.All {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Severity, r.Summary())
	}
	return exitOK
}

// useColor: colour only on a terminal, and never when NO_COLOR is set.
func useColor(w io.Writer) bool {
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

var severityColor = map[accesses.Severity]string{accesses.Error: "\x1b[1;31m", accesses.Warning: "\x1b[1;33m", accesses.Info: "\x1b[1;36m"}

// writeFindingsText prints clang-style diagnostics: the position, the
// severity, the message and the rule; the source line with the access
// underlined; and a picture of the first warp's sectors. A summary line
// ends it.
func writeFindingsText(w io.Writer, rep *driver.Report, color bool) error {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
	for _, f := range rep.Findings {
		start, end := rep.Fset.Position(f.Pos), rep.Fset.Position(f.End)
		fmt.Fprintf(w, "%s: %s %s %s\n", paint(ansiBold, lineStart(start.String())), paint(severityColor[f.Severity], f.Severity.String()+":"),
			message(f.Message, quotedExpr(f)), paint(ansiDim, "["+f.Rule+"]"))
		if line := sourceLine(rep, f.Pos); line != nil {
			to := start.Offset // one character when the span leaves the line
			if end.Line == start.Line {
				to = end.Offset
			}
			lineOffset := start.Offset - (start.Column - 1)
			text, caret := snippet(line, start.Offset-lineOffset, to-lineOffset)
			fmt.Fprintf(w, "    %s\n    %s\n", text, paint(ansiGreen, caret))
		}
		if pic := warpPicture(f.Prediction); pic != "" {
			fmt.Fprintf(w, "    %s\n", pic)
		}
		if len(f.SuggestedFixes) > 0 {
			fmt.Fprintf(w, "    fix: %s (cudalint --fix applies it)\n", message(f.SuggestedFixes[0].Message, quotedExpr(f)))
		}
	}
	_, err := fmt.Fprintln(w, summary(rep))
	return err
}

// quotedExpr is the source text a finding's message quotes: its access.
func quotedExpr(f *accesses.Finding) string {
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

// warpPicture draws the sectors the first warp touches, one character
// each by how much of it the lanes use (█ all, ▆ ¾, ▄ ½, ▂ ¼, ▁ less),
// with · where the touched sectors are not adjacent.
func warpPicture(p *analyzer.Prediction) string {
	if p == nil || !p.Known || p.Warp == nil || p.Access.Space != interp.Global {
		return ""
	}
	pc := ctype.Pieces(p.Access.Type)[0]
	used := map[int64]int64{} // sector -> bytes used
	seen := map[int64]bool{}
	for _, a := range p.Warp {
		if a < 0 {
			continue
		}
		for b := a + pc[0]; b < a+pc[0]+pc[1]; b++ {
			if !seen[b] {
				seen[b] = true
				used[b>>5]++
			}
		}
	}
	var secs []int64
	for s := range used {
		secs = append(secs, s)
	}
	sortInts(secs)
	var b strings.Builder
	total := int64(0)
	for i, s := range secs {
		if i > 0 && s != secs[i-1]+1 {
			b.WriteString("·")
		}
		if i == 48 {
			b.WriteString("…")
			break
		}
		u := used[s]
		total += u
		switch {
		case u >= 32:
			b.WriteString("█")
		case u >= 24:
			b.WriteString("▆")
		case u >= 16:
			b.WriteString("▄")
		case u >= 8:
			b.WriteString("▂")
		default:
			b.WriteString("▁")
		}
	}
	for _, s := range secs[min(len(secs), 48):] {
		total += used[s]
	}
	return fmt.Sprintf("first warp: %s  %d sectors, %d of %d bytes used", b.String(), len(secs), total, int64(len(secs))*32)
}

func sortInts(s []int64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// printWarnings says which settings took no effect; they do not change
// the exit status.
func printWarnings(stderr io.Writer, ws []driver.Warning) {
	for _, w := range ws {
		fmt.Fprintf(stderr, "cudalint: %s\n", w)
	}
}

// hasInternalError: cudalint failed on some kernel. That is exit 2 even
// with --exit-zero, which is about findings in the code, not the tool.
func hasInternalError(rep *driver.Report) bool { return countRule(rep, rules.InternalError) > 0 }
