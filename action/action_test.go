// Package action holds the tests of the GitHub Action (action.yml at the
// repository root, its logic in run.sh): the script runs under a fake
// GITHUB_* environment on temporary repositories, actionlint checks a
// workflow that uses the action, and shellcheck the script.
package action

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cudalint/cudalint/internal/testtool"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const strided = `__global__ void k(float* a, float* b) {
    a[8 * threadIdx.x] = 0;
    b[4 * threadIdx.x] = 0;
}
`

// info: a data-dependent address only.
const indirect = "__global__ void g(const int* idx, float* a) { a[idx[threadIdx.x]] = 0; }\nvoid h(const int* i, float* a) { g<<<1, 32>>>(i, a); }\n"

// binDir holds the cudalint that every run of run.sh is given
// (CUDALINT_BIN): built once, not once per run.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cudalint-action-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var built struct {
	once      sync.Once
	bin, fail string
}

// cudalint builds the command on the first call; tests that never run
// the script (shellcheck, actionlint) do not wait for it.
func cudalint(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		bin, err := testtool.Build(binDir)
		built.bin = bin
		if err != nil {
			built.fail = err.Error()
		}
	})
	if built.fail != "" {
		t.Fatal(built.fail)
	}
	return built.bin
}

func checkout(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, files)
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

type result struct {
	code            int
	stdout, summary string
	outputs         map[string]string
	runnerTemp      string
}

// runAction runs run.sh as the runner would: GITHUB_* set, inputs as
// INPUT_*, in workspace/wd. It is given the cudalint built once; env
// CUDALINT_BIN= makes it build its own.
func runAction(t *testing.T, workspace, wd string, inputs map[string]string, env ...string) result {
	t.Helper()
	bin := ""
	if !builds(env) {
		bin = cudalint(t)
	}
	tmp := t.TempDir()
	out, sum := filepath.Join(tmp, "output"), filepath.Join(tmp, "summary")
	cmd := exec.Command("bash", filepath.Join(checkout(t), "action", "run.sh"), "run")
	cmd.Dir = filepath.Join(workspace, wd)
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=true", "GITHUB_WORKSPACE="+workspace, "GITHUB_OUTPUT="+out,
		"GITHUB_STEP_SUMMARY="+sum, "RUNNER_TEMP="+tmp, "GITHUB_EVENT_NAME=push", "GITHUB_ACTION_PATH="+checkout(t),
		"INPUT_FAIL_LEVEL=warning", "INPUT_SARIF_FILE=cudalint.sarif", "INPUT_CATEGORY=cudalint", "INPUT_PATHS=.",
		"CUDALINT_BIN="+bin)
	for k, v := range inputs {
		cmd.Env = append(cmd.Env, "INPUT_"+k+"="+v)
	}
	cmd.Env = append(cmd.Env, env...)
	stdout, err := cmd.Output()
	r := result{outputs: map[string]string{}, stdout: string(stdout), runnerTemp: tmp}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
		r.stdout += string(ee.Stderr)
	} else if err != nil {
		t.Fatal(err)
	}
	o, _ := os.ReadFile(out)
	for _, l := range strings.Split(string(o), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			r.outputs[k] = v
		}
	}
	s, _ := os.ReadFile(sum)
	r.summary = string(s)
	return r
}

// builds says whether env asks run.sh to build cudalint itself.
func builds(env []string) bool {
	for _, e := range env {
		if e == "CUDALINT_BIN=" {
			return true
		}
	}
	return false
}

// Given no binary, run.sh builds the action's checkout, as the real
// Action does.
func TestBuildsTheCheckout(t *testing.T) {
	t.Parallel()
	ws := repo(t, map[string]string{"s.cu": strided})
	r := runAction(t, ws, ".", nil, "CUDALINT_BIN=")
	if r.code != 1 || r.outputs["findings"] != "2" {
		t.Errorf("exit %d, findings %q:\n%s", r.code, r.outputs["findings"], r.stdout)
	}
	if _, err := os.Stat(filepath.Join(r.runnerTemp, "cudalint-action-bin", "cudalint")); err != nil {
		t.Errorf("run.sh did not build cudalint: %v", err)
	}
}

// The exit status follows fail-level; the outputs count the findings and
// name the SARIF log; annotations and the summary list them.
func TestFailLevelsAndOutputs(t *testing.T) {
	t.Parallel()
	files := map[string]string{"s.cu": strided, "i.cu": indirect}
	tests := []struct {
		level, paths string
		code         int
		findings     string
	}{
		{"warning", ".", 1, "3"},
		{"error", ".", 0, "3"},
		{"none", ".", 0, "3"},
		{"info", "i.cu", 1, "1"},
		{"warning", "i.cu", 0, "1"},
		{"warning", "missing.cu", 2, "0"},
	}
	for _, tt := range tests {
		t.Run(tt.level+"/"+tt.paths, func(t *testing.T) {
			t.Parallel()
			// A repository each: every run writes cudalint.sarif.
			r := runAction(t, repo(t, files), ".", map[string]string{"FAIL_LEVEL": tt.level, "PATHS": tt.paths})
			if r.code != tt.code {
				t.Errorf("exit %d, want %d:\n%s", r.code, tt.code, r.stdout)
			}
			if r.outputs["findings"] != tt.findings {
				t.Errorf("findings output %q, want %s (outputs %v)", r.outputs["findings"], tt.findings, r.outputs)
			}
			if tt.code < 2 {
				if r.outputs["sarif-file"] != "cudalint.sarif" {
					t.Errorf("sarif-file output %q", r.outputs["sarif-file"])
				}
				if !strings.Contains(r.summary, "## cudalint") || !strings.Contains(r.summary, tt.findings+" finding") {
					t.Errorf("summary:\n%s", r.summary)
				}
			}
		})
	}
	r := runAction(t, repo(t, files), ".", nil)
	for _, want := range []string{"::warning file=s.cu,line=2,col=5", "title=strided-access::", "::notice file=i.cu,line=1"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("annotations lack %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.summary, "| warning | `s.cu:2` | strided-access | `store a[8 * threadIdx.x]") {
		t.Errorf("summary lacks the finding's row:\n%s", r.summary)
	}
}

// More than 10 annotations of a level: a notice says GitHub shows 10.
func TestAnnotationLimitNotice(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := 0; i < 12; i++ {
		b.WriteString(strings.ReplaceAll(strided, "void k(", "void k"+string(rune('a'+i))+"("))
	}
	ws := repo(t, map[string]string{"many.cu": b.String()})
	r := runAction(t, ws, ".", nil)
	if r.outputs["findings"] != "24" || !strings.Contains(r.stdout, "::notice title=cudalint::24 warnings: GitHub shows 10 per step") {
		t.Errorf("findings %q; no notice of the limit:\n%s", r.outputs["findings"], r.stdout)
	}
}

// sarifSchema is the official SARIF 2.1.0 schema, a copy committed under
// testdata so that the validation runs on every clone.
func sarifSchema(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the SARIF schema is missing: %v", err)
	}
	return p
}

// Run from a subfolder (working-directory), the SARIF log is valid, its
// URIs are relative to the repository, and it carries the category.
func TestSARIFFromSubfolder(t *testing.T) {
	t.Parallel()
	ws := repo(t, map[string]string{"src/gpu/s.cu": strided, "README": "x\n"})
	r := runAction(t, ws, "src", map[string]string{"SARIF_FILE": "out/log.sarif", "CATEGORY": "gpu/kernels"})
	// The output is read by steps that run in the workspace
	// (upload-sarif): relative to it, not to working-directory.
	if r.code != 1 || r.outputs["sarif-file"] != "src/out/log.sarif" {
		t.Fatalf("exit %d, outputs %v:\n%s", r.code, r.outputs, r.stdout)
	}
	if !strings.Contains(r.stdout, "::warning file=src/gpu/s.cu,line=2") {
		t.Errorf("annotation paths are not relative to the repository:\n%s", r.stdout)
	}
	data, err := os.ReadFile(filepath.Join(ws, "src", "out", "log.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	sch, err := jsonschema.NewCompiler().Compile(sarifSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("SARIF does not validate: %v", err)
	}
	var log struct {
		Runs []struct {
			AutomationDetails struct{ ID string } `json:"automationDetails"`
			Results           []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if run.AutomationDetails.ID != "gpu/kernels/" {
		t.Errorf("category %q", run.AutomationDetails.ID)
	}
	if len(run.Results) != 2 || run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != "src/gpu/s.cu" {
		t.Errorf("results %+v", run.Results)
	}
	if got := run.OriginalURIBaseIDs["%SRCROOT%"].URI; got != "file://"+filepath.ToSlash(ws)+"/" {
		t.Errorf("%%SRCROOT%% is %q, want the workspace", got)
	}
}

// The sarif-file output names the log as a step running in the
// workspace finds it, whatever working-directory and sarif-file are.
func TestSARIFFileOutput(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	tests := []struct {
		wd, sarif, want string
	}{
		{".", "cudalint.sarif", "cudalint.sarif"},
		{"src", "cudalint.sarif", "src/cudalint.sarif"},
		{"src", "../logs/c.sarif", "logs/c.sarif"},
		{"src/gpu", "./c.sarif", "src/gpu/c.sarif"},
		{"src", outside + "/c.sarif", ""}, // outside the workspace: absolute
	}
	for _, tt := range tests {
		t.Run(tt.wd+"/"+tt.sarif, func(t *testing.T) {
			t.Parallel()
			ws := repo(t, map[string]string{"src/gpu/s.cu": strided})
			r := runAction(t, ws, tt.wd, map[string]string{"SARIF_FILE": tt.sarif})
			got := r.outputs["sarif-file"]
			want := tt.want
			if want == "" {
				want, _ = filepath.EvalSymlinks(tt.sarif)
			}
			if r.code != 1 || got != want {
				t.Fatalf("exit %d, sarif-file %q, want %q:\n%s", r.code, got, want, r.stdout)
			}
			if !filepath.IsAbs(got) {
				got = filepath.Join(ws, got)
			}
			if _, err := os.Stat(got); err != nil {
				t.Errorf("the output names no file: %v", err)
			}
		})
	}
}

// only-new-issues on a pull request reports only what its merge commit
// changes against the base, with no token: actions/checkout's merge ref.
func TestOnlyNewOnPullRequest(t *testing.T) {
	t.Parallel()
	ws := repo(t, map[string]string{"old.cu": strided})
	git(t, ws, "checkout", "-q", "-b", "feature")
	write(t, ws, map[string]string{"new.cu": strings.ReplaceAll(strided, "void k(", "void k2(")})
	git(t, ws, "add", "-A")
	git(t, ws, "commit", "-q", "-m", "feature")
	git(t, ws, "checkout", "-q", "main")
	write(t, ws, map[string]string{"other.txt": "base moved on\n"})
	git(t, ws, "add", "-A")
	git(t, ws, "commit", "-q", "-m", "base")
	git(t, ws, "merge", "-q", "--no-ff", "-m", "Merge feature into main", "feature") // what refs/pull/N/merge is
	pr := []string{"GITHUB_EVENT_NAME=pull_request"}

	all := runAction(t, ws, ".", nil, pr...)
	if all.outputs["findings"] != "4" {
		t.Errorf("without only-new-issues: %q findings, want 4:\n%s", all.outputs["findings"], all.stdout)
	}
	r := runAction(t, ws, ".", map[string]string{"ONLY_NEW_ISSUES": "true"}, pr...)
	if r.code != 1 || r.outputs["findings"] != "2" || strings.Contains(r.stdout, "file=old.cu") || !strings.Contains(r.stdout, "file=new.cu") {
		t.Errorf("only new: exit %d, findings %q:\n%s", r.code, r.outputs["findings"], r.stdout)
	}
	// Not a merge commit: a clear error, not every finding.
	git(t, ws, "checkout", "-q", "feature")
	r = runAction(t, ws, ".", map[string]string{"ONLY_NEW_ISSUES": "true"}, pr...)
	if r.code != 2 || !strings.Contains(r.stdout, "fetch-depth: 2") {
		t.Errorf("no merge commit: exit %d:\n%s", r.code, r.stdout)
	}
}

// check-go asks for setup-go only when Go is missing or too old.
func TestCheckGo(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go")
	}
	fake := t.TempDir()
	write(t, fake, map[string]string{"go": "#!/bin/sh\necho go1.20.1\n"})
	if err := os.Chmod(filepath.Join(fake, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	tools := "/usr/bin:/bin"
	for _, tt := range []struct {
		name, path, want string
	}{
		{"installed", filepath.Dir(goBin) + ":" + tools, "setup=false"},
		{"too old", fake + ":" + tools, "setup=true"},
		{"missing", empty + ":" + tools, "setup=true"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "output")
			cmd := exec.Command("/bin/bash", filepath.Join(checkout(t), "action", "run.sh"), "check-go")
			cmd.Env = []string{"PATH=" + tt.path, "GITHUB_OUTPUT=" + out, "HOME=" + os.Getenv("HOME")}
			msg, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, msg)
			}
			got, _ := os.ReadFile(out)
			if strings.TrimSpace(string(got)) != tt.want {
				t.Errorf("output %q, want %q (%s)", got, tt.want, msg)
			}
		})
	}
}

// exampleWorkflow is the README's workflow, using the action as a local
// one so that actionlint checks its inputs against action.yml.
const exampleWorkflow = `name: cudalint
on:
  pull_request:
  push:
    branches: [main]
permissions:
  contents: read
jobs:
  cudalint:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      security-events: write
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 2
      - id: cudalint
        uses: ./
        with:
          paths: src kernels
          fail-level: warning
          only-new-issues: ${{ github.event_name == 'pull_request' }}
          sarif-file: cudalint.sarif
          category: cudalint
          working-directory: .
          args: --severity warning
      - if: always()
        uses: github/codeql-action/upload-sarif@v3
        with:
          sarif_file: ${{ steps.cudalint.outputs.sarif-file }}
          category: cudalint
      - if: always()
        run: echo "cudalint found ${{ steps.cudalint.outputs.findings }} findings"
`

// actionlint (the real one, at a pinned version) accepts a workflow that
// uses the action, and rejects one that misspells an input: proof that it
// read action.yml.
func TestActionlint(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("downloads actionlint")
	}
	action, err := os.ReadFile(filepath.Join(checkout(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	lint := func(workflow string) (string, error) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"action.yml": string(action), ".github/workflows/cudalint.yml": workflow})
		git(t, dir, "init", "-q")
		cmd := exec.Command("go", "run", "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12", "-no-color", ".github/workflows/cudalint.yml")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := lint(exampleWorkflow); err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}
	bad := strings.Replace(exampleWorkflow, "fail-level:", "fail_level:", 1)
	if out, err := lint(bad); err == nil || !strings.Contains(out, "fail_level") {
		t.Errorf("actionlint accepted a misspelt input (%v):\n%s", err, out)
	}
}

func TestShellcheck(t *testing.T) {
	t.Parallel()
	shellcheck := testtool.Need(t, "shellcheck", "apt-get install shellcheck")
	out, err := exec.Command(shellcheck, filepath.Join(checkout(t), "action", "run.sh")).CombinedOutput()
	if err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}

// The job summary shows what sources and file names say as text: each
// file and message is one code span, so HTML, Markdown and links in them
// do not render (a file named <img src=x> or [login](https:evil.example)).
func TestSummaryEscapesMarkdownAndHTML(t *testing.T) {
	t.Parallel()
	names := []string{"<img src=x onerror=alert(1)>.cu", "[login](https:evil.example).cu", "a`b|c.cu"}
	files := map[string]string{}
	for _, n := range names {
		files[n] = strided
	}
	r := runAction(t, repo(t, files), ".", nil)
	rows := 0
	for _, line := range strings.Split(r.summary, "\n") {
		if !strings.HasPrefix(line, "| warning |") {
			continue
		}
		rows++
		// | level | file | rule | message |, pipes inside cells escaped.
		cells := strings.Split(strings.ReplaceAll(line, `\|`, "¦"), " | ")
		if len(cells) != 4 {
			t.Errorf("row %q has %d cells", line, len(cells))
			continue
		}
		for _, c := range []string{cells[1], strings.TrimSuffix(cells[3], " |")} {
			if !strings.HasPrefix(c, "`") || !strings.HasSuffix(c, "`") {
				t.Errorf("cell %q of %q is not one code span", c, line)
			}
		}
	}
	if rows != 2*len(names) {
		t.Errorf("%d rows, want %d:\n%s", rows, 2*len(names), r.summary)
	}
	if !strings.Contains(r.summary, "``a`b\\|c.cu:2``") {
		t.Errorf("a backtick in a name is not kept in its span:\n%s", r.summary)
	}
}
