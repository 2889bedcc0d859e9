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
	"github.com/cudalint/cudalint/docs"
	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/rules"
	"github.com/cudalint/cudalint/rules/accesses"
)

// openOutput opens --output (truncating it) or returns stdout.
func (o *options) openOutput(stdout io.Writer) (io.Writer, func(), error) {
	if o.output == "" {
		return stdout, func() {}, nil
	}
	f, err := os.Create(o.output)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

func (o *options) driverOptions() driver.Options {
	d := driver.Options{Paths: o.paths, ConfigPath: o.config, Defines: o.defines, Blocks: map[string]string{},
		Params: map[string]string{}, Enable: o.enable, Disable: o.disable, Root: o.root, IncludeDirs: o.includes}
	for k, v := range o.blocks {
		d.Blocks[k] = fmt.Sprintf("%dx%dx%d", v[0], v[1], v[2])
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

// findings runs the rules and reports; with --fix it applies the fixes
// first and reports what remains.
// findings runs the rules over files, the search's result for o.paths.
func (o *options) findings(out, stderr io.Writer, files []string, findErrs []error) int {
	opts := o.driverOptions()
	opts.Found, opts.FindErrors = files, findErrs
	rep := driver.Run(opts)
	if o.fix {
		changed, err := driver.ApplyFixes(rep.Fset, rep.Findings)
		if err != nil {
			fmt.Fprintf(stderr, "cudalint: %v\n", err)
			return exitError
		}
		for _, f := range changed {
			fmt.Fprintf(stderr, "cudalint: fixed %s\n", f)
		}
		if len(changed) > 0 {
			rep = driver.Run(opts)
		}
	}
	for _, err := range rep.Errors {
		fmt.Fprintf(stderr, "cudalint: %v\n", err)
	}
	var err error
	switch o.format {
	case "json":
		err = writeFindingsJSON(out, rep)
	case "sarif":
		err = writeSARIF(out, rep)
	case "github":
		err = writeGitHub(out, rep)
	default:
		err = writeFindingsText(out, rep, useColor(out))
	}
	if err != nil {
		fmt.Fprintf(stderr, "cudalint: %v\n", err)
		return exitError
	}
	switch {
	case len(rep.Errors) > 0:
		return exitError
	case len(rep.Findings) > 0 && !o.exitZero:
		return exitFindings
	}
	return exitOK
}

func explain(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: cudalint explain RULE (cudalint rules lists them)")
		return exitError
	}
	page := docs.Rule(args[0])
	if page == "" {
		fmt.Fprintf(stderr, "cudalint: unknown rule %q (cudalint rules lists them)\n", args[0])
		return exitError
	}
	fmt.Fprint(stdout, page)
	return exitOK
}

func listRules(stdout io.Writer) int {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tSUMMARY")
	for _, r := range rules.All {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Severity, r.Summary())
	}
	tw.Flush()
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
// underlined; and a picture of the first warp's sectors.
func writeFindingsText(w io.Writer, rep *driver.Report, color bool) error {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
	for _, f := range rep.Findings {
		start, end := rep.Fset.Position(f.Pos), rep.Fset.Position(f.End)
		fmt.Fprintf(w, "%s: %s %s %s\n", paint(ansiBold, start.String()), paint(severityColor[f.Severity], f.Severity.String()+":"),
			f.Message, paint(ansiDim, "["+f.Rule+"]"))
		line := sourceLine(rep, f.Pos)
		if line == "" {
			continue
		}
		fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(line, "\t", " "))
		width := 1
		if end.Line == start.Line && end.Column > start.Column {
			width = end.Column - start.Column
		}
		caret := "^" + strings.Repeat("~", width-1)
		fmt.Fprintf(w, "    %s%s\n", strings.Repeat(" ", max(start.Column-1, 0)), paint(ansiGreen, caret))
		if pic := warpPicture(f.Prediction); pic != "" {
			fmt.Fprintf(w, "    %s\n", pic)
		}
		if len(f.SuggestedFixes) > 0 {
			fmt.Fprintf(w, "    fix: %s (cudalint --fix applies it)\n", f.SuggestedFixes[0].Message)
		}
	}
	if len(rep.Findings) > 0 {
		fmt.Fprintf(w, "%d finding%s\n", len(rep.Findings), plural(len(rep.Findings)))
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// sourceLine returns the line holding pos, without its end-of-line
// characters. It finds the line through the file set's line table, not by
// splitting the file: a report may quote thousands of lines of one file.
func sourceLine(rep *driver.Report, pos token.Pos) string {
	tf := rep.Fset.File(pos)
	if rep.Result == nil || tf == nil {
		return ""
	}
	src := rep.Result.Analysis.Program.Source(tf.Name())
	if len(src) != tf.Size() {
		return ""
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	end := len(src)
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i
	}
	return strings.TrimRight(string(src[start:end]), "\r")
}

// warpPicture draws the sectors the first warp touches, one character
// each by how much of it the lanes use (█ all, ▆ ¾, ▄ ½, ▂ ¼, ▁ less),
// with · where the touched sectors are not adjacent.
func warpPicture(p *analyzer.Prediction) string {
	if p == nil || !p.Known || p.Warp == nil || p.Access.Space != analyzer.Global {
		return ""
	}
	pc := analyzer.Pieces(p.Access.Type)[0]
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
