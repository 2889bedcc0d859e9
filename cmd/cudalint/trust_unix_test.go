//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Devices, FIFOs and sockets are never read, whether named, walked,
// included or reached through a link: the run neither blocks nor fills
// memory, and the other files are analyzed.
func TestSpecialFilesNeverBlock(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"repo/.git/HEAD":         "ref",
		"repo/k/ok.cu":           copyKernel,
		"repo/k/fifo_inc.cu":     "#include \"pipe.cuh\"\n" + strings.ReplaceAll(copyKernel, "copy", "after_fifo"),
		"repo/k/zero_inc.cu":     "#include \"" + strings.Repeat("../", 40) + "dev/zero\"\n" + strings.ReplaceAll(copyKernel, "copy", "after_zero"),
		"repo/k/zerolink_inc.cu": "#include \"zero.cuh\"\n" + strings.ReplaceAll(copyKernel, "copy", "after_zerolink"),
	})
	repo, k := filepath.Join(dir, "repo"), filepath.Join(dir, "repo", "k")
	for _, name := range []string{"pipe.cuh", "walked.cu", "named.cu"} {
		if err := syscall.Mkfifo(filepath.Join(k, name), 0o644); err != nil {
			t.Skip("no FIFOs:", err)
		}
	}
	for _, link := range []string{"zero.cuh", "zerolink.cu"} {
		if err := os.Symlink("/dev/zero", filepath.Join(k, link)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(repo)
	for _, args := range [][]string{
		{"--accesses", "--format", "json", "k", "k/named.cu", "k/zerolink.cu"},
		{"--format", "json", "k", "k/named.cu"},
		{"--stats", "k", "k/named.cu"},
	} {
		var code int
		var out, errs string
		inTime(t, func() { code, out, errs = runCLI(args...) })
		if code != exitError || !strings.Contains(errs, "named.cu: not a regular file (a named pipe)") {
			t.Errorf("cudalint %v: exit %d, stderr %q; want the named FIFO an error", args, code, errs)
		}
		if args[0] == "--stats" {
			continue
		}
		for _, want := range []string{
			`walked.cu"`, "not a regular file (a named pipe); skipped",
			`#include \"pipe.cuh\" not read: not a regular file (a named pipe)`,
			`dev/zero\" not read: outside the root`,
			`#include \"zero.cuh\" not read: outside the root`,
			"after_fifo", "after_zero", "after_zerolink",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("cudalint %v: output lacks %s:\n%s", args, want, out)
			}
		}
	}
}

// --baseline and --new-from-patch are read as sources are: a link to
// /dev/zero or a FIFO is refused at once, never read without end.
func TestBaselineAndPatchReadsAreBounded(t *testing.T) {
	dir := writeFiles(t, map[string]string{"k.cu": copyKernel})
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, flag := range []string{"--baseline", "--new-from-patch"} {
		for _, path := range []string{zero, fifo} {
			done := make(chan int, 1)
			var errs string
			go func() {
				var code int
				code, _, errs = runCLI("--root", dir, flag, path, dir)
				done <- code
			}()
			select {
			case code := <-done:
				if code != exitError || !strings.Contains(errs, flag) {
					t.Errorf("%s %s: exit %d, stderr %s", flag, path, code, errs)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%s %s: still reading after 20 s", flag, path)
			}
		}
	}
}
