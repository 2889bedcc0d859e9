package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/internal/testtool"
)

// The pre-commit hooks of .pre-commit-hooks.yaml, run by the real
// pre-commit (Debian's; CI installs it) on temporary repositories. The
// hooks come from a snapshot of this checkout, and language golang builds
// cudalint from it once: every case then runs on that one environment.
// (try-repo would build it again for each case, in a fresh store.)
func TestPreCommitHooks(t *testing.T) {
	t.Parallel()
	preCommit := testtool.Need(t, "pre-commit", "apt-get install pre-commit")
	if testing.Short() {
		t.Skip("builds cudalint through pre-commit")
	}
	hooks := installHooks(t, preCommit)

	tests := []struct {
		name      string
		hook      string
		args      string            // the hook's args: in the configuration, if any
		committed map[string]string // the first commit
		staged    map[string]string // written and staged
		unstaged  map[string]string // written, not staged
		code      int
		want      []string
		notWant   []string
	}{
		{name: "a staged bad file fails with its finding", hook: "cudalint",
			committed: map[string]string{"ok.cu": "// nothing\n"},
			staged:    map[string]string{"bad.cu": twoStrided},
			code:      1, want: []string{"cudalint", "Failed", "bad.cu:2:5: warning", "[strided-access]"}},
		{name: "an unstaged bad file is not reported", hook: "cudalint",
			committed: map[string]string{"later.cu": "// nothing yet\n"},
			staged:    map[string]string{"ok.cu": "// clean\n"},
			unstaged:  map[string]string{"later.cu": twoStrided, "untracked.cu": twoStrided},
			code:      0, want: []string{"Passed"}, notWant: []string{"later.cu:", "untracked.cu:"}},
		{name: "an info finding alone passes (--fail-level warning)", hook: "cudalint",
			committed: map[string]string{"README": "x\n"},
			staged:    map[string]string{"i.cu": indirectKernel},
			code:      0, want: []string{"Passed", "i.cu:1:47: info", "[indirect-access]"}},
		{name: "an info finding fails with args: [--fail-level, info]", hook: "cudalint", args: "[--fail-level, info]",
			committed: map[string]string{"README": "x\n"},
			staged:    map[string]string{"i.cu": indirectKernel},
			code:      1, want: []string{"Failed", "i.cu:1:47: info"}},
		{name: "a clean commit passes", hook: "cudalint",
			committed: map[string]string{"README": "x\n"},
			staged:    map[string]string{"good.cu": "__global__ void k(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n"},
			code:      0, want: []string{"Passed"}},
		{name: "a staged header alone gets its block from the .cu that launches it", hook: "cudalint",
			committed: map[string]string{"main.cu": project["main.cu"], "kern.cuh": "// empty\n"},
			staged:    map[string]string{"kern.cuh": project["kern.cuh"]},
			code:      1, want: []string{"kern.cuh:4:5: warning", "block 32x8 from launch at main.cu:3"}, notWant: []string{"16x16", "main.cu:1"}},
		{name: "cudalint-all checks the whole repository", hook: "cudalint-all",
			committed: map[string]string{"old/bad.cu": twoStrided},
			staged:    map[string]string{"note.txt": "x\n"},
			code:      1, want: []string{"old/bad.cu:2:5: warning"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := gitRepo(t, tt.committed)
			writeTree(t, dir, tt.staged)
			for name := range tt.staged {
				git(t, dir, "add", name)
			}
			writeTree(t, dir, tt.unstaged)
			// --verbose shows a passing hook's output too.
			code, out := runPreCommit(t, preCommit, dir, hooks.env, "run", "--verbose", "-c", hooks.config(t, tt.args), tt.hook)
			if code != tt.code {
				t.Errorf("pre-commit exit %d, want %d:\n%s", code, tt.code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output holds %q:\n%s", w, out)
				}
			}
		})
	}
}

// indirectKernel has an info finding only: a data-dependent address.
const indirectKernel = "__global__ void g(const int* idx, float* a) { a[idx[threadIdx.x]] = 0; }\nvoid h(const int* i, float* a) { g<<<1, 32>>>(i, a); }\n"

// hooksRepo is a snapshot of this checkout as a hooks repository, and the
// environment for pre-commit, whose store (PRE_COMMIT_HOME) already holds
// the hooks' golang environment.
type hooksRepo struct {
	repo, rev string
	env       []string
}

// config writes a configuration that uses both hooks of the snapshot,
// with args, when not empty, as their args: (a YAML list).
func (h *hooksRepo) config(t *testing.T, args string) string {
	t.Helper()
	text := fmt.Sprintf("repos:\n  - repo: %q\n    rev: %q\n    hooks:\n", h.repo, h.rev)
	for _, id := range []string{"cudalint", "cudalint-all"} {
		text += "      - id: " + id + "\n"
		if args != "" {
			text += "        args: " + args + "\n"
		}
	}
	path := filepath.Join(t.TempDir(), "pre-commit-config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// installHooks snapshots the checkout and installs its hooks' environment
// (language golang: go install) once, for every case.
func installHooks(t *testing.T, preCommit string) *hooksRepo {
	t.Helper()
	h := &hooksRepo{}
	h.repo, h.rev = snapshot(t)
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	// language golang sets GOPATH to the environment: the module cache is
	// named so that nothing is downloaded. -trimpath keeps the compiled
	// packages independent of the store's fresh path, so a second run of
	// the test finds them in the build cache.
	h.env = append(os.Environ(), "PRE_COMMIT_HOME="+filepath.Join(t.TempDir(), "store"), "GOMODCACHE="+strings.TrimSpace(string(modcache)),
		"GOFLAGS=-mod=mod -trimpath", "NO_COLOR=1", "PRE_COMMIT_COLOR=never")
	if code, out := runPreCommit(t, preCommit, gitRepo(t, map[string]string{"README": "x\n"}), h.env, "install-hooks", "-c", h.config(t, "")); code != 0 {
		t.Fatalf("pre-commit install-hooks: exit %d\n%s", code, out)
	}
	return h
}

// snapshot returns a clone of this checkout whose HEAD commit holds its
// working tree, changes not yet committed included (as try-repo makes
// one), and that commit.
func snapshot(t *testing.T) (dir, rev string) {
	t.Helper()
	self, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(self, ".pre-commit-hooks.yaml")); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(t.TempDir(), "hooks")
	git(t, self, "clone", "-q", "--no-checkout", self, dir)
	git(t, dir, "checkout", "-q", "--detach", git(t, self, "rev-parse", "HEAD"))
	// The checkout's files are added to the clone's index and objects,
	// leaving the checkout's own untouched.
	add := exec.Command("git", "-C", self, "add", "-A")
	add.Env = append(os.Environ(), "GIT_INDEX_FILE="+filepath.Join(dir, ".git", "index"), "GIT_OBJECT_DIRECTORY="+filepath.Join(dir, ".git", "objects"))
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("git add: %v\n%s", err, out)
	}
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "the checkout's working tree")
	return dir, git(t, dir, "rev-parse", "HEAD")
}

// writeTree writes files (name to text) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
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

// runPreCommit runs pre-commit in dir and returns its exit status and
// output.
func runPreCommit(t *testing.T, preCommit, dir string, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(preCommit, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}
