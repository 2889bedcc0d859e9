//go:build unix

package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A .cudalint.yaml that links outside the project is not read (nor
// quoted back), one that is a FIFO does not hang the run, and a relative
// --config still applies its exclusions.
func TestConfigFilesThatAreNotConfigs(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, map[string]string{"secret": "enable: [ghp_0123456789abcdefSECRETSECRETSECRET0123456789]\n"})
	dir := t.TempDir()
	write(t, dir, map[string]string{".git/HEAD": "x\n", "a/k.cu": strided, "b/k.cu": strided, "c/k.cu": strided, "c/vendor/x.cu": strided,
		"c.yaml": "exclude: [\"c/vendor/**\"]\n"})
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "a", ConfigName)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "b", ConfigName), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	done := make(chan *Report, 1)
	go func() { done <- Run(Options{Paths: []string{"a", "b"}}) }()
	select {
	case rep := <-done:
		text := fmt.Sprint(rep.Errors)
		if strings.Contains(text, "SECRET") || !strings.Contains(text, "outside the project") || !strings.Contains(text, "not a regular file") {
			t.Errorf("errors: %s", text)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a FIFO configuration blocked the run")
	}
	rep := Run(Options{Paths: []string{"c"}, ConfigPath: "c.yaml"})
	for _, f := range rep.Findings {
		if strings.Contains(rep.Fset.Position(f.Pos).Filename, "vendor") {
			t.Errorf("relative --config: excluded file reported: %s", f.Message)
		}
	}
}
