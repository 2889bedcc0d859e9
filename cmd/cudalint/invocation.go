package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/cudalint/cudalint/driver"
)

// invocation is how a run went beside its findings: the errors that fail
// it (exit 2) and the baseline it wrote. A failed run must never look
// clean, so the text summary says it failed and the SARIF log marks the
// invocation unsuccessful; a successful run's output is as it always was.
type invocation struct {
	errors   []error // configuration, paths, fixes; stderr has them too
	internal bool    // a kernel cudalint failed on (an internal-error finding)
	baseline string  // --write-baseline's file
	recorded int     // the findings written to it
}

// failed: the run exits 2.
func (inv *invocation) failed() bool {
	return inv != nil && (len(inv.errors) > 0 || inv.internal)
}

// summary is text output's last line. A failed run says so first, and a
// run that wrote a baseline says what it wrote: its report is empty by
// design, and "no findings" would read as clean code.
func (inv *invocation) summary(rep *driver.Report) string {
	switch {
	case inv.failed():
		return "cudalint failed: " + inv.failure(rep)
	case inv != nil && inv.baseline != "":
		files := countFiles(rep.Fset, rep.Reported)
		return fmt.Sprintf("wrote %d finding%s to the baseline %s, from %d file%s", inv.recorded, plural(inv.recorded),
			escape(inv.baseline), files, plural(files)) + summaryGaps(rep)
	}
	return summary(rep)
}

// failure is "1 error; no files analyzed", or the errors and the usual
// summary of what was analyzed all the same.
func (inv *invocation) failure(rep *driver.Report) string {
	var parts []string
	if n := len(inv.errors); n > 0 {
		parts = append(parts, fmt.Sprintf("%d error%s", n, plural(n)))
	}
	if countFiles(rep.Fset, rep.Reported) == 0 && len(rep.Findings) == 0 {
		parts = append(parts, "no files analyzed")
	} else {
		parts = append(parts, summary(rep))
	}
	return strings.Join(parts, "; ")
}

// sarif is the run's invocations: none for a run that succeeded, whose
// log stays as it was; for a failed one, executionSuccessful false, the
// exit status, and each error as a notification, placed in its file when
// it has a position (a configuration mistake).
func (inv *invocation) sarif(base string) []*sarif.Invocation {
	if !inv.failed() {
		return nil
	}
	ok, code := false, exitError
	i := &sarif.Invocation{ExecutionSuccessful: &ok, ExitCode: &code}
	for _, err := range inv.errors {
		i.ToolExecutionNotifications = append(i.ToolExecutionNotifications, &sarif.Notification{
			Level: "error", Message: &sarif.Message{Text: str(message(err.Error()))}, Locations: errorLocations(err, base)})
	}
	if inv.internal {
		i.ToolExecutionNotifications = append(i.ToolExecutionNotifications, &sarif.Notification{
			Level: "error", Message: &sarif.Message{Text: str("cudalint failed on a kernel: see the internal-error results")}})
	}
	return []*sarif.Invocation{i}
}

// errorLocations is where a configuration error was made, when known.
func errorLocations(err error, base string) []*sarif.Location {
	var ce *driver.ConfigError
	if !errors.As(err, &ce) || ce.File == "" {
		return nil
	}
	loc := &sarif.PhysicalLocation{ArtifactLocation: &sarif.ArtifactLocation{URI: str(relURI(base, ce.File)), URIBaseId: str(srcRoot)}}
	if ce.Line > 0 {
		line := ce.Line
		loc.Region = &sarif.Region{StartLine: &line}
		if ce.Col > 0 {
			col := ce.Col
			loc.Region.StartColumn = &col
		}
	}
	return []*sarif.Location{{PhysicalLocation: loc}}
}

// errNothingToAnalyze fails a run that found no CUDA file to read.
var errNothingToAnalyze = errors.New("nothing to analyze: no .cu or .cuh file among the paths given")

// invocation gathers how the run went: the errors stderr reports (the
// report's, the fixes', none analyzed), the internal errors, and the
// baseline written with the recorded count of findings.
func (o *options) invocation(rep *driver.Report, in *inputs, fixErrs []error, internal bool, recorded int) *invocation {
	inv := &invocation{errors: append(append([]error(nil), rep.Errors...), fixErrs...), internal: internal}
	if len(in.files) == 0 {
		inv.errors = append(inv.errors, errNothingToAnalyze)
	}
	if o.writeBaseline != "" {
		inv.baseline, inv.recorded = o.writeBaseline, recorded
	}
	return inv
}
