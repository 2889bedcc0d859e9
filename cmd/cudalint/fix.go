package main

import (
	"fmt"
	"io"

	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/sources"
)

// writeFixed writes a fixed file; tests replace it to fail as a full disk
// or a read-only folder does. nil is the driver's own, which checks just
// before the rename that the file is still what was read.
var writeFixed func(path string, data []byte) error

// fixRoot is the folder --fix and --diff may write in: the root the
// run reads from (--root, else the repository holding the working
// directory, or the working directory).
func (o *options) fixRoot() string {
	if o.root != "" {
		return o.root
	}
	root, err := sources.DefaultRoot()
	if err != nil {
		return "."
	}
	return root
}

// applyFixes runs --fix, or --diff, which prints the diff to out and
// writes nothing. What was not fixed, and why, goes to stderr.
func (o *options) applyFixes(out, stderr io.Writer, rep *driver.Report) *driver.FixReport {
	fr := driver.ApplyFixes(rep, driver.FixOptions{Root: o.fixRoot(), DryRun: o.diff, Write: writeFixed})
	for _, n := range fr.Notes {
		fmt.Fprintf(stderr, "cudalint: %s\n", escape(n))
	}
	if o.diff {
		if err := fr.Diff(out); err != nil {
			fr.Errors = append(fr.Errors, err)
		}
	}
	for _, err := range fr.Errors {
		reportError(stderr, err)
	}
	for _, f := range fr.Changed() {
		fmt.Fprintf(stderr, "cudalint: fixed %s\n", escape(f))
	}
	return fr
}

// diffStatus is --diff's exit status: 2 when something could not be read,
// 1 when the diff is not empty (there is something to fix), else 0.
func (o *options) diffStatus(stderr io.Writer, rep *driver.Report, fr *driver.FixReport) int {
	for _, err := range rep.Errors {
		reportError(stderr, err)
	}
	printWarnings(stderr, rep.Warnings)
	for _, f := range rep.Findings {
		if f.Rule.Kind == lint.ToolFailure {
			reportError(stderr, fmt.Errorf("%s: %s", rep.Fset.Position(f.Pos), f.Message))
		}
	}
	switch {
	case len(rep.Errors) > 0 || len(fr.Errors) > 0 || hasInternalError(rep):
		return exitError
	case len(fr.Files) > 0 && !o.exitZero:
		return exitFindings
	}
	return exitOK
}
