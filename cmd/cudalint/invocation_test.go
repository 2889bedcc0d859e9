package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// failingRuns are runs that exit 2, each in a repository of its own.
var failingRuns = []struct {
	name  string
	files map[string]string
	paths []string
	want  []string // the errors, in order, as the notifications say them
	at    *sarifAt // where the first error was made
	text  string   // the text summary
}{
	{name: "a configuration typo",
		files: map[string]string{"k.cu": copyKernel, ".cudalint.yaml": "min-severity: info\nblokcs: {copy: 32}\n"},
		paths: []string{"."},
		want:  []string{`.cudalint.yaml:2:1: unknown key "blokcs" (did you mean blocks?)`},
		at:    &sarifAt{".cudalint.yaml", 2, 1},
		text:  "cudalint failed: 1 error; no files analyzed"},
	{name: "a missing path beside a good one",
		files: map[string]string{"k.cu": stridedKernel},
		paths: []string{"missing.cu", "k.cu"},
		want:  []string{"missing.cu: no such file or directory"},
		text:  "cudalint failed: 1 error; 1 finding (1 warning) in 1 file"},
	{name: "no CUDA file",
		files: map[string]string{"readme.txt": "x\n"},
		paths: []string{"."},
		want:  []string{"nothing to analyze: no .cu or .cuh file among the paths given"},
		text:  "cudalint failed: 1 error; no files analyzed"},
}

type sarifAt struct {
	uri       string
	line, col int
}

// sarifInvocations is the part of a SARIF log that says how the run went.
type sarifInvocations struct {
	Runs []struct {
		Invocations []struct {
			ExecutionSuccessful *bool `json:"executionSuccessful"`
			ExitCode            int   `json:"exitCode"`
			Notifications       []struct {
				Level     string `json:"level"`
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
	} `json:"runs"`
}

// A failed run's SARIF log, printed or written beside the report, is
// valid, says the execution did not succeed, and holds the errors, a
// configuration mistake at its place. A successful run's log has no
// invocation, as before.
func TestFailedRunInSARIF(t *testing.T) {
	sch, err := jsonschema.NewCompiler().Compile(sarifSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range failingRuns {
		dir := writeFiles(t, tt.files)
		t.Chdir(dir)
		os.Mkdir(".git", 0o755) // the run's root
		_, printed, _ := runCLI(append([]string{"--format", "sarif"}, tt.paths...)...)
		code, _, errs := runCLI(append([]string{"--sarif-output", "beside.sarif"}, tt.paths...)...)
		if code != exitError {
			t.Errorf("%s: exit %d, want %d: %s", tt.name, code, exitError, errs)
		}
		beside, _ := os.ReadFile("beside.sarif")
		for how, log := range map[string]string{"--format sarif": printed, "--sarif-output": string(beside)} {
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(log))
			if err != nil {
				t.Fatalf("%s, %s: %v", tt.name, how, err)
			}
			if err := sch.Validate(doc); err != nil {
				t.Errorf("%s, %s: SARIF does not validate: %v", tt.name, how, err)
			}
			checkFailedInvocation(t, tt.name+", "+how, log, tt.want, tt.at)
		}
	}
	dir := writeFiles(t, map[string]string{"k.cu": stridedKernel})
	if code, out, _ := runCLI("--format", "sarif", filepath.Join(dir, "k.cu")); code != exitFindings || strings.Contains(out, "invocations") {
		t.Errorf("a successful run: exit %d, and its log has invocations:\n%s", code, out)
	}
}

func checkFailedInvocation(t *testing.T, name, log string, want []string, at *sarifAt) {
	t.Helper()
	var doc sarifInvocations
	if err := json.Unmarshal([]byte(log), &doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(doc.Runs) != 1 || len(doc.Runs[0].Invocations) != 1 {
		t.Fatalf("%s: want one run with one invocation:\n%s", name, log)
	}
	inv := doc.Runs[0].Invocations[0]
	if inv.ExecutionSuccessful == nil || *inv.ExecutionSuccessful || inv.ExitCode != exitError {
		t.Errorf("%s: executionSuccessful %v, exitCode %d", name, inv.ExecutionSuccessful, inv.ExitCode)
	}
	if len(inv.Notifications) != len(want) {
		t.Fatalf("%s: %d notifications, want %d:\n%s", name, len(inv.Notifications), len(want), log)
	}
	for i, n := range inv.Notifications {
		if n.Level != "error" || !strings.HasSuffix(n.Message.Text, want[i]) {
			t.Errorf("%s: notification %d is %s %q, want error %q", name, i, n.Level, n.Message.Text, want[i])
		}
	}
	first := inv.Notifications[0].Locations
	switch {
	case at == nil && len(first) > 0:
		t.Errorf("%s: the error has a location %+v", name, first)
	case at != nil && len(first) != 1:
		t.Errorf("%s: the error has %d locations, want it at %v", name, len(first), *at)
	case at != nil:
		p := first[0].PhysicalLocation
		if got := (sarifAt{p.ArtifactLocation.URI, p.Region.StartLine, p.Region.StartColumn}); got != *at {
			t.Errorf("%s: the error is at %v, want %v", name, got, *at)
		}
	}
}

// A failed run's text summary says it failed, never "no findings"; a
// run that writes a baseline says what it wrote.
func TestFailedRunSummary(t *testing.T) {
	for _, tt := range failingRuns {
		t.Chdir(writeFiles(t, tt.files))
		os.Mkdir(".git", 0o755)
		code, out, _ := runCLI(tt.paths...)
		if last := lastLine(out); code != exitError || !strings.HasPrefix(last, tt.text) {
			t.Errorf("%s: exit %d, summary %q, want %q", tt.name, code, last, tt.text)
		}
	}
	t.Chdir(writeFiles(t, map[string]string{".git/HEAD": "", "a.cu": twoStrided}))
	code, out, _ := runCLI("--write-baseline", "baseline.json", ".")
	if last := lastLine(out); code != exitOK || last != "wrote 2 findings to the baseline baseline.json, from 1 file" {
		t.Errorf("--write-baseline: exit %d, summary %q", code, last)
	}
}

func lastLine(out string) string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	return lines[len(lines)-1]
}
