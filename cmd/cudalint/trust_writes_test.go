//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every file cudalint writes refuses a link committed under its name (it
// would overwrite the link's target outside the repository, as
// --sarif-output cudalint.sarif did) and leaves the target as it was; a
// plain path is written.
func TestOutputsNeverThroughALink(t *testing.T) {
	flags := []struct {
		flag  string
		extra []string
	}{
		{"--output", nil},
		{"--sarif-output", nil},
		{"--write-baseline", nil},
		{"--cpuprofile", nil},
		{"--memprofile", nil},
		{"--output", []string{"--accesses"}},
	}
	for _, tt := range flags {
		for _, link := range []bool{true, false} {
			name := tt.flag + strings.Join(tt.extra, "")
			if link {
				name += " through a link"
			}
			t.Run(name, func(t *testing.T) {
				dir := writeFiles(t, map[string]string{"repo/.git/HEAD": "x\n", "repo/k.cu": copyKernel, "outside/victim": "precious\n"})
				repo, victim := filepath.Join(dir, "repo"), filepath.Join(dir, "outside", "victim")
				out := filepath.Join(repo, "cudalint.out")
				if link {
					if err := os.Symlink(victim, out); err != nil {
						t.Skip("no symbolic links:", err)
					}
				}
				t.Chdir(repo)
				code, stdout, errs := runCLI(append(append([]string{"--exit-zero"}, tt.extra...), tt.flag, "cudalint.out", ".")...)
				if got, _ := os.ReadFile(victim); string(got) != "precious\n" {
					t.Fatalf("the link's target was overwritten: %d bytes", len(got))
				}
				info, err := os.Lstat(out)
				switch {
				case link && (code != exitError || !strings.Contains(errs, "symbolic link")):
					t.Errorf("exit %d, stderr %q: want the link refused", code, errs)
				case !link && (code != 0 || err != nil || !info.Mode().IsRegular() || info.Size() == 0):
					t.Errorf("exit %d, %v: not written\n%s%s", code, err, stdout, errs)
				}
			})
		}
	}
}

// A file named alone whose header spends a budget does not read clean:
// the summary says it was not analyzed whole, and JSON has the note at
// the file.
func TestSpentBudgetInAHeaderIsVisible(t *testing.T) {
	dir := writeFiles(t, map[string]string{".git/HEAD": "x\n", "h.cuh": "#include \"h.cuh\"\n#include \"h.cuh\"\n",
		"k.cu": "#include \"h.cuh\"\n__global__ void k(float* p) { p[threadIdx.x] = 0; }\n"})
	t.Chdir(dir)
	_, out, errs := runCLI("k.cu")
	if !strings.Contains(out, "1 file not analyzed whole (a budget spent)") {
		t.Errorf("summary:\n%s%s", out, errs)
	}
	_, out, _ = runCLI("--format", "json", "k.cu")
	if !strings.Contains(out, `"file": "k.cu"`) || !strings.Contains(out, "not analyzed whole") {
		t.Errorf("JSON notes:\n%s", out)
	}
}
