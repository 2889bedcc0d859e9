package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/driver"
	"github.com/cudalint/cudalint/rules"
)

// A kernel cudalint failed on is an error finding in every format,
// counted in the summary, and exit status 2 even with --exit-zero: an
// internal error must never read as clean code. (The model's known
// panics are fixed, so the failure is injected into a real run's result.)
func TestInternalErrorIsReportedEverywhere(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cu": copyKernel})
	rep := driver.Run(driver.Options{Paths: []string{filepath.Join(dir, "k.cu")}})
	if len(rep.Result.Analysis.Kernels) != 1 {
		t.Fatalf("want one kernel, got %d", len(rep.Result.Analysis.Kernels))
	}
	k := rep.Result.Analysis.Kernels[0]
	rep.Result.Analysis.InternalErrors = []analyzer.InternalError{{Kernel: "copy", Pos: k.Func.P, Panic: "index out of range [6] with length 6"}}
	rep.Findings = append(rep.Findings, driver.InternalErrorFindings(rep.Result)...)

	writers := map[string]func(io.Writer) error{
		"text":   func(w io.Writer) error { return writeFindingsText(w, rep, textStyle{snippets: true}, nil) },
		"json":   func(w io.Writer) error { return writeFindingsJSON(w, rep) },
		"sarif":  func(w io.Writer) error { return writeSARIF(w, rep) },
		"github": func(w io.Writer) error { return writeGitHub(w, rep) },
		"html":   func(w io.Writer) error { return writeHTML(w, rep, nil) },
	}
	for name, write := range writers {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := b.String()
		if !strings.Contains(out, rules.InternalError.ID) || !strings.Contains(out, "index out of range") {
			t.Errorf("%s output does not report the internal error:\n%s", name, out)
		}
	}
	var text bytes.Buffer
	writeFindingsText(&text, rep, textStyle{snippets: true}, nil)
	if !strings.Contains(text.String(), "k.cu:1:17: error:") {
		t.Errorf("text output does not put the error at the kernel:\n%s", text.String())
	}
	if s := summary(rep); !strings.Contains(s, "1 error") || !strings.Contains(s, "1 internal error") {
		t.Errorf("summary %q does not count the internal error", s)
	}
	if !hasInternalError(rep) {
		t.Error("hasInternalError is false; the exit status would not be 2")
	}
}

// The same run without the injected failure has no internal error: the
// check above is not satisfied by something else in the output.
func TestNoInternalErrorOnCleanKernel(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cu": copyKernel})
	code, out, _ := runCLI("--exit-zero", filepath.Join(dir, "k.cu"))
	if code != exitOK || strings.Contains(out, rules.InternalError.ID) {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

// No only-new filter hides an internal error: a patch that touches no
// line of the kernel drops every finding but the kernel cudalint failed
// on.
func TestOnlyNewKeepsInternalErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cu": copyKernel, "other.patch": "--- a/other.cu\n+++ b/other.cu\n@@ -1 +1 @@\n-x\n+y\n"})
	rep := driver.Run(driver.Options{Paths: []string{filepath.Join(dir, "k.cu")}})
	k := rep.Result.Analysis.Kernels[0]
	rep.Result.Analysis.InternalErrors = []analyzer.InternalError{{Kernel: "copy", Pos: k.Func.P, Panic: "boom"}}
	rep.Findings = append(rep.Findings, driver.InternalErrorFindings(rep.Result)...)
	if len(rep.Findings) < 2 {
		t.Fatalf("want the copy's finding and the internal error, got %d", len(rep.Findings))
	}
	o := &options{newFromPatch: filepath.Join(dir, "other.patch")}
	if _, err := o.onlyNew(rep, io.Discard); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Rule != rules.InternalError {
		t.Errorf("after a patch of another file: %d findings, want only the internal error", len(rep.Findings))
	}
}
