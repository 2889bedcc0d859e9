package lsp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The disk cache serves a file read twice while a stat finds it
// unchanged, and reads it again once its size or modification time moves.
func TestDiskCache(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.cuh")
	reads := 0
	saved := readDisk
	defer func() { readDisk = saved }()
	readDisk = func(p string) ([]byte, error) {
		reads++
		return saved(p)
	}
	write := func(text string, mod time.Time) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := newDiskCache()
	for _, step := range []struct {
		name  string
		write func()
		want  string
		reads int
	}{
		{"first read", func() { write("int a;", t0) }, "int a;", 1},
		{"read again: kept", func() {}, "int a;", 2},
		{"unchanged", func() {}, "int a;", 2},
		{"longer", func() { write("int ab;", t0) }, "int ab;", 3},
		{"longer, read again", func() {}, "int ab;", 4},
		{"same size, later", func() { write("int cd;", t0.Add(time.Second)) }, "int cd;", 5},
		{"same size, later, read again", func() {}, "int cd;", 6},
		{"unchanged again", func() {}, "int cd;", 6},
	} {
		step.write()
		src, err := c.read(path)
		if err != nil || string(src) != step.want || reads != step.reads {
			t.Errorf("%s: %q, %v after %d reads; want %q after %d", step.name, src, err, reads, step.want, step.reads)
		}
	}
	// What cannot be read is an error each time, never a cached text.
	if _, err := c.read(dir); err == nil {
		t.Errorf("reading a folder: no error")
	}
	if _, err := c.read(filepath.Join(dir, "missing.cuh")); err == nil {
		t.Errorf("reading a missing file: no error")
	}
}
