// Package testtool holds what the integration tests share: finding the
// real programs they drive (pre-commit, shellcheck) and building the
// cudalint command once for a test package.
package testtool

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Need returns the path of the program name. A missing program skips the
// test on a contributor's machine, but fails it in CI (CI=true): .ci/run
// installs every program the tests drive, so a skip there would hide a
// test that never ran.
func Need(t testing.TB, name, install string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed, and CI=true: .ci/run installs it (%s)", name, install)
	}
	t.Skipf("%s is not installed (%s)", name, install)
	return ""
}

// Build builds the cudalint command into dir and returns its path. It is
// built as the Action builds it (-trimpath), so that the compiled
// packages are shared with every other build of the checkout.
func Build(dir string) (string, error) {
	bin := filepath.Join(dir, "cudalint")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "github.com/cudalint/cudalint/cmd/cudalint")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}
