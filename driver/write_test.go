//go:build unix

package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An edit saved between --fix reading a file and renaming the fixed text
// over it is kept, and the fix says it was not written; a file that only
// looks the same (same bytes written back) is fixed.
func TestFixKeepsAnEditSavedDuringTheRun(t *testing.T) {
	tests := []struct {
		name    string
		change  func(path string) // just before the rename
		want    string            // the file afterwards
		written bool
	}{
		{"untouched", func(string) {}, "Abc", true},
		{"new content", func(p string) { os.WriteFile(p, []byte("saved by the editor"), 0o644) }, "saved by the editor", false},
		{"same size, other bytes", func(p string) {
			info, _ := os.Stat(p)
			os.WriteFile(p, []byte("xyz"), 0o644)
			os.Chtimes(p, info.ModTime(), info.ModTime()) // only the hash tells
		}, "xyz", false},
		{"touched only", func(p string) {
			later := time.Now().Add(time.Hour)
			os.Chtimes(p, later, later)
		}, "abc", false},
		{"replaced by a link", func(p string) {
			other := p + ".other"
			os.WriteFile(other, []byte("abc"), 0o644)
			os.Remove(p)
			os.Symlink(other, p)
		}, "abc", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			rep := fixReport(t, root, map[string]string{"k.cu": "abc"}, [][]fe{{{"k.cu", 0, 1, "A"}}})
			saved := beforeRename
			defer func() { beforeRename = saved }()
			beforeRename = tt.change
			fr := ApplyFixes(rep, FixOptions{Root: root})
			path := filepath.Join(root, "k.cu")
			if got, _ := os.ReadFile(path); string(got) != tt.want {
				t.Errorf("k.cu = %q, want %q", got, tt.want)
			}
			if written := len(fr.Changed()) == 1; written != tt.written {
				t.Errorf("written %v, want %v (notes %v, errors %v)", written, tt.written, fr.Notes, fr.Errors)
			}
			said := strings.Contains(strings.Join(fr.Notes, "\n"), "changed while cudalint ran")
			if said == tt.written {
				t.Errorf("notes %v: want the refusal said exactly when not written", fr.Notes)
			}
			if entries, _ := os.ReadDir(root); len(entries) > 2 {
				t.Errorf("temporary files left: %v", entries)
			}
		})
	}
}

// Outputs are never written through a link, nor out of the root through
// a folder that is a link; a path named outside the root is written
// there; every write replaces the file whole.
func TestOutputRule(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, root, outside string) string // the path named
		refuse string                                          // what the error says, "" to write
	}{
		{"new file", func(t *testing.T, root, _ string) string { return filepath.Join(root, "out.sarif") }, ""},
		{"existing file", func(t *testing.T, root, _ string) string {
			p := filepath.Join(root, "out.sarif")
			os.WriteFile(p, []byte(strings.Repeat("old ", 100)), 0o600)
			return p
		}, ""},
		{"committed link to a file outside", func(t *testing.T, root, outside string) string {
			p := filepath.Join(root, "cudalint.sarif")
			os.Symlink(filepath.Join(outside, "victim"), p)
			return p
		}, "symbolic link"},
		{"dangling link", func(t *testing.T, root, outside string) string {
			p := filepath.Join(root, "cudalint.sarif")
			os.Symlink(filepath.Join(outside, "new-victim"), p)
			return p
		}, "symbolic link"},
		{"folder that links outside", func(t *testing.T, root, outside string) string {
			os.Symlink(outside, filepath.Join(root, "reports"))
			return filepath.Join(root, "reports", "victim")
		}, "outside the root"},
		{"named outside the root", func(t *testing.T, _, outside string) string { return filepath.Join(outside, "mine.json") }, ""},
		{"a folder", func(t *testing.T, root, _ string) string {
			os.Mkdir(filepath.Join(root, "dir"), 0o755)
			return filepath.Join(root, "dir")
		}, "not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			victim := filepath.Join(outside, "victim")
			os.WriteFile(victim, []byte("precious"), 0o644)
			path := tt.setup(t, root, outside)
			err := WriteOutput(path, root, []byte("report"))
			if got, _ := os.ReadFile(victim); string(got) != "precious" {
				t.Errorf("the file outside became %q", got)
			}
			if _, err := os.Lstat(filepath.Join(outside, "new-victim")); err == nil {
				t.Errorf("a dangling link's target was created")
			}
			switch {
			case tt.refuse == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.refuse != "" && (err == nil || !strings.Contains(err.Error(), tt.refuse)):
				t.Fatalf("error %v, want %q", err, tt.refuse)
			case tt.refuse == "":
				if got, _ := os.ReadFile(path); string(got) != "report" {
					t.Errorf("%s = %q", path, got)
				}
			}
			for _, dir := range []string{root, outside} {
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					if strings.Contains(e.Name(), ".cudalint-") {
						t.Errorf("temporary file left: %s", e.Name())
					}
				}
			}
		})
	}
}
