package action

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// actionYML is the part of action.yml a composite action's runner reads.
type actionYML struct {
	Inputs map[string]struct {
		Default string
	}
	Runs struct {
		Using string
		Steps []struct {
			ID               string
			If               string
			Uses             string
			Run              string
			Shell            string
			Env              map[string]string
			WorkingDirectory string `yaml:"working-directory"`
		}
	}
}

var expr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// composite runs action.yml's steps as the runner would: expressions
// filled in from the inputs, github.* and earlier steps' outputs, each
// if evaluated, run steps run, uses steps recorded but not run (the
// tests have no actions/cache or setup-go). It returns the steps taken
// (run steps by id, uses steps by action) and the run step's outputs.
func composite(t *testing.T, ws string, inputs, github map[string]string, env ...string) ([]string, map[string]string, int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(checkout(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionYML
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q", a.Runs.Using)
	}
	steps := map[string]map[string]string{}
	value := func(name string) string {
		parts := strings.Split(name, ".")
		switch {
		case len(parts) == 2 && parts[0] == "inputs":
			in, ok := a.Inputs[parts[1]]
			if !ok {
				t.Fatalf("action.yml reads inputs.%s, which it does not declare", parts[1])
			}
			if v, ok := inputs[parts[1]]; ok {
				return v
			}
			return in.Default
		case len(parts) == 2 && parts[0] == "github":
			v, ok := github[parts[1]]
			if !ok {
				t.Fatalf("the test gives no %s", name)
			}
			return v
		case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
			return steps[parts[1]][parts[3]] // a step skipped has no outputs: ''
		}
		t.Fatalf("the test cannot evaluate %q", name)
		return ""
	}
	fill := func(s string) string {
		return expr.ReplaceAllStringFunc(s, func(m string) string { return value(expr.FindStringSubmatch(m)[1]) })
	}
	cond := regexp.MustCompile(`^([\w.-]+) (==|!=) '([^']*)'$`)
	holds := func(s string) bool {
		for _, c := range strings.Split(s, " && ") {
			m := cond.FindStringSubmatch(strings.TrimSpace(c))
			if m == nil {
				t.Fatalf("the test cannot evaluate if: %q", s)
			}
			if (value(m[1]) == m[3]) != (m[2] == "==") {
				return false
			}
		}
		return true
	}
	var taken []string
	code := 0
	for _, st := range a.Runs.Steps {
		if st.If != "" && !holds(st.If) {
			continue
		}
		if st.Uses != "" {
			taken = append(taken, st.Uses)
			continue
		}
		if st.Shell != "bash" {
			t.Fatalf("step %s: shell %q", st.ID, st.Shell)
		}
		out := filepath.Join(t.TempDir(), "output")
		cmd := exec.Command("bash", "-c", fill(st.Run))
		cmd.Dir = filepath.Join(ws, fill(st.WorkingDirectory))
		cmd.Env = append(os.Environ(), "GITHUB_ACTION_PATH="+checkout(t), "GITHUB_OUTPUT="+out, "GITHUB_WORKSPACE="+ws,
			"GITHUB_EVENT_NAME=push", "GITHUB_STEP_SUMMARY="+filepath.Join(t.TempDir(), "summary"))
		cmd.Env = append(cmd.Env, env...)
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+fill(v))
		}
		msg, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		outputs := map[string]string{}
		o, _ := os.ReadFile(out)
		for _, l := range strings.Split(string(o), "\n") {
			if k, v, ok := strings.Cut(l, "="); ok {
				outputs[k] = v
			}
		}
		steps[st.ID] = outputs
		taken = append(taken, st.ID)
		if code != 0 {
			t.Logf("step %s exited %d:\n%s", st.ID, code, msg)
			break
		}
	}
	return taken, steps["run"], code
}

// action.yml as a whole: with the action's tag a release, it restores
// the cache, fetches the binary, saves the cache, neither checks Go nor
// sets it up, and runs the released binary; on a branch with no release
// it checks Go and builds the checkout.
func TestCompositeAction(t *testing.T) {
	t.Parallel()
	osName := map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS]
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	if osName == "" || arch == "" {
		t.Skipf("no release is built for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	exe, err := os.ReadFile(cudalint(t))
	if err != nil {
		t.Fatal(err)
	}
	rel := newFakeRelease(t)
	rel.publish(t, "download/v1.2.3", exe, runtime.GOOS+"_"+runtime.GOARCH)
	tests := []struct {
		ref   string
		steps string
	}{
		{"v1.2.3", "resolve actions/cache/restore@v4 fetch actions/cache/save@v4 run"},
		{"main", "resolve fetch go run"},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			t.Parallel()
			ws := repo(t, map[string]string{"src/s.cu": strided})
			tmp := t.TempDir()
			github := map[string]string{"action_ref": tt.ref, "action_path": checkout(t)}
			taken, out, code := composite(t, ws, map[string]string{"working-directory": "src"}, github,
				"CUDALINT_RELEASES="+rel.url(), "RUNNER_TEMP="+tmp, "RUNNER_TOOL_CACHE="+tmp, "RUNNER_OS="+osName, "RUNNER_ARCH="+arch)
			if got := strings.Join(taken, " "); got != tt.steps {
				t.Errorf("steps %q, want %q", got, tt.steps)
			}
			if code != 1 || out["findings"] != "2" || out["sarif-file"] != "src/cudalint.sarif" {
				t.Errorf("exit %d, outputs %v", code, out)
			}
			_, err := os.Stat(filepath.Join(tmp, "cudalint-action-bin", "cudalint"))
			if built := err == nil; built != (tt.ref == "main") {
				t.Errorf("built cudalint: %v, want %v", built, tt.ref == "main")
			}
		})
	}
}
