//go:build unix

package cpp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ReadSource reads regular files only, never blocks and never reads more
// than MaxFileSize, whatever stat says.
func TestReadSource(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "ok.cu")
	if err := os.WriteFile(regular, []byte("int x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.cu")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.cu") // sparse: no disk used
	if err := os.WriteFile(huge, nil, 0o644); err != nil || os.Truncate(huge, MaxFileSize+1) != nil {
		t.Fatal("cannot make a sparse file")
	}
	zeroLink := filepath.Join(dir, "zero.cuh")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path   string
		reason string // of the refusal; "" for a file read
	}{
		{regular, ""},
		{fifo, "a named pipe"},
		{"/dev/zero", "a device"},
		{zeroLink, "a device"},
		{huge, "more than the 256 MiB"},
		{dir, "a folder"},
		{"/proc/self/status", ""}, // stat says 0 bytes; the text is read all the same
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil {
				t.Skip(err)
			}
			src, err := readWithin(t, tt.path, 5*time.Second)
			var refused *RefusedError
			switch {
			case tt.reason == "" && (err != nil || len(src) == 0):
				t.Errorf("%d bytes, error %v; want the text", len(src), err)
			case tt.reason != "" && (!errors.As(err, &refused) || !strings.Contains(refused.Reason, tt.reason)):
				t.Errorf("error %v, want a refusal naming %q", err, tt.reason)
			}
		})
	}
}

// readWithin fails the test when ReadSource blocks.
func readWithin(t *testing.T, path string, d time.Duration) ([]byte, error) {
	type result struct {
		src []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		src, err := ReadSource(path)
		done <- result{src, err}
	}()
	select {
	case r := <-done:
		return r.src, r.err
	case <-time.After(d):
		t.Fatalf("ReadSource(%s) blocked", path)
		return nil, nil
	}
}
