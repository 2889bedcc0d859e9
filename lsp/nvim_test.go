package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNeovim runs a real editor: Neovim's built-in LSP client, headless,
// against the cudalint binary (lsp/testdata/nvim/fix.lua says what it
// does). Without nvim the test skips, except in CI (CI=true), where it
// fails: CI installs Neovim to run it.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nvim is not installed, and CI=true: .ci/run installs it (apt-get install neovim)")
		}
		t.Skip("nvim is not installed (apt-get install neovim)")
	}
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "cudalint")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/cudalint").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	file := writeFile(t, dir, "matmul.cu", matmul(t))
	script, err := filepath.Abs("testdata/nvim/fix.lua")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CUDALINT_BIN="+bin, "CUDALINT_FILE="+file, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: swapped-axes fixed") {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
