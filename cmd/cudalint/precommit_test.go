package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The pre-commit hooks of .pre-commit-hooks.yaml, run by the real
// pre-commit (Debian's; CI installs it) with try-repo on a temporary
// repository: language golang builds cudalint from this checkout.
func TestPreCommitHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cudalint through pre-commit")
	}
	if _, err := exec.LookPath("pre-commit"); err != nil {
		t.Skip("pre-commit is not installed (apt-get install pre-commit; CI installs it)")
	}
	self, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(self, ".pre-commit-hooks.yaml")); err != nil {
		t.Fatal(err)
	}
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir() // one environment for every case: built once
	env := append(os.Environ(), "PRE_COMMIT_HOME="+home, "GOMODCACHE="+strings.TrimSpace(string(modcache)),
		"GOFLAGS=-mod=mod", "NO_COLOR=1", "PRE_COMMIT_COLOR=never")

	tests := []struct {
		name      string
		hook      string
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
			dir := gitRepo(t, tt.committed)
			write := func(files map[string]string) {
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
			write(tt.staged)
			for name := range tt.staged {
				git(t, dir, "add", name)
			}
			write(tt.unstaged)
			cmd := exec.Command("pre-commit", "try-repo", self, tt.hook)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code {
				t.Errorf("pre-commit exit %d, want %d:\n%s", code, tt.code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(string(out), w) {
					t.Errorf("output holds %q:\n%s", w, out)
				}
			}
		})
	}
}
