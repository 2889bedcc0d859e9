package lsp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cudalint/cudalint/internal/testtool"
)

var cli struct {
	once sync.Once
	bin  string
	err  error
	dir  string
}

// cliBinary builds the cudalint command once for the package's tests.
func cliBinary(t *testing.T) string {
	t.Helper()
	cli.once.Do(func() {
		cli.dir, cli.err = os.MkdirTemp("", "cudalint-lsp-cli")
		if cli.err == nil {
			cli.bin, cli.err = testtool.Build(cli.dir)
		}
	})
	if cli.err != nil {
		t.Fatal(cli.err)
	}
	return cli.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if cli.dir != "" {
		os.RemoveAll(cli.dir)
	}
	os.Exit(code)
}

// cliFinding is what `cudalint --format json FILE` says of a finding.
type cliFinding struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Rule      string `json:"rule"`
	Message   string `json:"message"`
	Severity  string `json:"severity"`
}

// cliFindings runs the command as a user would, in dir, on the file.
func cliFindings(t *testing.T, dir, file string) []cliFinding {
	t.Helper()
	cmd := exec.Command(cliBinary(t), "--format", "json", file)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil && cmd.ProcessState.ExitCode() != 1 { // 1: findings
		t.Fatalf("cudalint %s: %v\n%s", file, err, out)
	}
	var rep struct {
		Findings []cliFinding `json:"findings"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("cudalint --format json: %v\n%s", err, out)
	}
	return rep.Findings
}

// sameAsCLI compares a publication with the command's findings for the
// same file: rule, place, severity and message, one for one.
func sameAsCLI(t *testing.T, what string, p PublishDiagnosticsParams, want []cliFinding) {
	t.Helper()
	sev := map[string]int{"error": SeverityError, "warning": SeverityWarning, "info": SeverityInformation}
	if len(p.Diagnostics) != len(want) {
		t.Fatalf("%s: %d diagnostics, the command finds %d:\n%+v\n%+v", what, len(p.Diagnostics), len(want), p.Diagnostics, want)
	}
	for i, d := range p.Diagnostics {
		w := want[i]
		got := cliFinding{File: w.File, Line: d.Range.Start.Line + 1, Column: d.Range.Start.Character + 1,
			EndLine: d.Range.End.Line + 1, EndColumn: d.Range.End.Character + 1, Rule: d.Code, Message: d.Message, Severity: w.Severity}
		if sev[w.Severity] != d.Severity {
			got.Severity = "severity " + string(rune('0'+d.Severity))
		}
		if got != w {
			t.Errorf("%s: diagnostic %d\n got %+v\nwant %+v", what, i, got, w)
		}
	}
}

// TestHeaderInProjectContext: a header's kernel, open in the editor, is
// analyzed under the launches of the files that include it, as
// `cudalint HEADER` analyzes it: the same findings, and a hover that
// names the includer's launch, not a default block.
func TestHeaderInProjectContext(t *testing.T) {
	kernel := "#pragma once\n__global__ void colstore(float* out) {\n    int r = blockIdx.x * blockDim.y + threadIdx.y;\n" +
		"    int c = threadIdx.x;\n    out[r * 1024 + c] = 1.0f;\n}\n"
	launcher := func(include, block string) string {
		return "#include \"" + include + "\"\nvoid run(float* out, int n) {\n    dim3 block(" + block + ");\n    colstore<<<n / 256, block>>>(out);\n}\n"
	}
	for _, tc := range []struct {
		name, header, main, include string
	}{
		{"same folder", "kern.cuh", "main.cu", "kern.cuh"},
		{"include folder", "include/kern.cuh", "src/main.cu", "../include/kern.cuh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, ".git"), 0o755)
			for _, f := range []string{tc.header, tc.main} {
				os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
			}
			hdr := writeFile(t, dir, tc.header, kernel)
			mainSrc := launcher(tc.include, "1, 256")
			mainPath := writeFile(t, dir, tc.main, mainSrc)
			want := cliFindings(t, dir, tc.header)
			if len(want) != 1 || want[0].Rule != "strided-access" || !strings.Contains(want[0].Message, "32 sectors/request") {
				t.Fatalf("the command's findings for %s: %+v, want the 32-sector store", tc.header, want)
			}

			c := newClient(t)
			c.initialize(nil)
			uri := c.open(hdr, kernel)
			sameAsCLI(t, "the header open", c.diagnostics(uri), want)
			var h Hover
			c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{4, 6}}, &h)
			for _, s := range []string{"block 1x256 from launch at main.cu:4", "sectors/request: **32.00**"} {
				if !strings.Contains(h.Contents.Value, s) {
					t.Errorf("hover lacks %q:\n%s", s, h.Contents.Value)
				}
			}
			if strings.Contains(h.Contents.Value, "by default") {
				t.Errorf("hover shows a default block:\n%s", h.Contents.Value)
			}

			// An edit of the header keeps its context.
			edited := strings.Replace(kernel, "= 1.0f", "= 2.0f", 1)
			c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
				"contentChanges": []any{map[string]any{"text": edited}}})
			writeFile(t, dir, tc.header, edited)
			sameAsCLI(t, "the header edited", c.diagnostics(uri), cliFindings(t, dir, tc.header))

			// The includer's launch changes in its buffer: the header is
			// analyzed again under the new block, coalesced now.
			muri := c.open(mainPath, mainSrc)
			c.diagnostics(muri)
			mainSrc = launcher(tc.include, "256, 1")
			c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": muri, "version": 2},
				"contentChanges": []any{map[string]any{"text": mainSrc}}})
			writeFile(t, dir, tc.main, mainSrc)
			again := cliFindings(t, dir, tc.header)
			if len(again) != 0 {
				t.Fatalf("the command's findings under 256x1: %+v, want none", again)
			}
			sameAsCLI(t, "after the includer's edit", c.diagnostics(uri), again)
			c.shutdown()
		})
	}
}
