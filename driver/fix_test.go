package driver

import (
	"errors"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/rules"
	"github.com/cudalint/cudalint/rules/lint"
)

// fixCase builds a report over files in a temporary root whose findings
// carry the given fixes. An edit is {file, start, end, text}.
type fe struct {
	file       string
	start, end int
	text       string
}

func fixReport(t *testing.T, root string, files map[string]string, fixes [][]fe) *Report {
	t.Helper()
	write(t, root, files)
	fset := token.NewFileSet()
	tfs := map[string]*token.File{}
	for _, name := range sortedKeys(files) {
		tfs[name] = fset.AddFile(filepath.Join(root, name), -1, len(files[name]))
	}
	rep := &Report{Fset: fset}
	for i, fx := range fixes {
		f := &lint.Finding{Rule: rules.ByID("swapped-axes")}
		var edits []analysis.TextEdit
		for _, e := range fx {
			tf := tfs[e.file]
			f.Pos = tf.Pos(0)
			// Offsets past the end are built by hand: tf.Pos would panic.
			edits = append(edits, analysis.TextEdit{Pos: token.Pos(tf.Base() + e.start), End: token.Pos(tf.Base() + e.end), NewText: []byte(e.text)})
		}
		f.SuggestedFixes = []analysis.SuggestedFix{{Message: "fix " + string(rune('A'+i)), TextEdits: edits}}
		rep.Findings = append(rep.Findings, f)
	}
	return rep
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Fixes are validated as x/tools' checker does: whole or not at all,
// identical edits once, overlapping fixes after the first skipped with a
// note.
func TestFixValidation(t *testing.T) {
	files := map[string]string{"a.cu": "abcdef", "b.cu": "uvwxyz"}
	tests := []struct {
		name  string
		fixes [][]fe
		want  map[string]string // file contents after
		notes []string          // substrings, one note each
	}{
		{"one fix", [][]fe{{{"a.cu", 1, 2, "X"}, {"a.cu", 4, 5, "Y"}}},
			map[string]string{"a.cu": "aXcdYf", "b.cu": "uvwxyz"}, nil},
		{"the same fix from two findings applies once", [][]fe{{{"a.cu", 1, 2, "X"}}, {{"a.cu", 1, 2, "X"}}},
			map[string]string{"a.cu": "aXcdef"}, nil},
		{"a later overlapping fix is skipped whole", [][]fe{{{"a.cu", 1, 3, "X"}}, {{"b.cu", 0, 1, "U"}, {"a.cu", 2, 4, "Z"}}},
			map[string]string{"a.cu": "aXdef", "b.cu": "uvwxyz"}, []string{`fix "fix B" [swapped-axes] not applied: it overlaps an earlier fix in`}},
		{"two insertions at one point conflict", [][]fe{{{"a.cu", 2, 2, "X"}}, {{"a.cu", 2, 2, "Y"}}},
			map[string]string{"a.cu": "abXcdef"}, []string{"overlaps an earlier fix"}},
		{"an insertion at the end of a replacement does not", [][]fe{{{"a.cu", 1, 3, "X"}}, {{"a.cu", 3, 3, "Y"}}},
			map[string]string{"a.cu": "aXYdef"}, nil},
		{"edits of one fix overlapping each other", [][]fe{{{"a.cu", 1, 3, "X"}, {"a.cu", 2, 4, "Y"}}},
			map[string]string{"a.cu": "abcdef"}, []string{"its edits overlap each other"}},
		{"an edit past the end of its file", [][]fe{{{"b.cu", 5, 9, "X"}}},
			map[string]string{"b.cu": "uvwxyz"}, []string{"an edit falls outside its file"}},
		{"a reversed edit", [][]fe{{{"a.cu", 3, 1, "X"}}},
			map[string]string{"a.cu": "abcdef"}, []string{"an edit falls outside its file"}},
		{"fixes in two files", [][]fe{{{"a.cu", 0, 1, "A"}}, {{"b.cu", 0, 1, "U"}}},
			map[string]string{"a.cu": "Abcdef", "b.cu": "Uvwxyz"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			fr := ApplyFixes(fixReport(t, root, files, tt.fixes), FixOptions{Root: root})
			for name, want := range tt.want {
				if got, _ := os.ReadFile(filepath.Join(root, name)); string(got) != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
			if len(fr.Notes) != len(tt.notes) {
				t.Fatalf("notes %q, want %d", fr.Notes, len(tt.notes))
			}
			for i, n := range tt.notes {
				if !strings.Contains(fr.Notes[i], n) {
					t.Errorf("note %q lacks %q", fr.Notes[i], n)
				}
			}
			if len(fr.Errors) > 0 {
				t.Errorf("errors: %v", fr.Errors)
			}
		})
	}
}

// Only regular files inside the root are written, never through a link.
func TestFixConfinement(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	write(t, base, map[string]string{"root/in.cu": "abc", "outside/k.cuh": "abc", "outside/via.cuh": "abc"})
	mustLink := func(target, link string) {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	mustLink(filepath.Join(base, "outside/k.cuh"), filepath.Join(root, "link.cuh"))
	mustLink(filepath.Join(base, "outside"), filepath.Join(root, "shared"))
	mustLink(filepath.Join(root, "in.cu"), filepath.Join(root, "alias.cu"))
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustLink(filepath.Join(root, "sub"), filepath.Join(root, "subdir"))
	write(t, root, map[string]string{"sub/ok.cu": "abc"})
	tests := []struct {
		name string // relative to root
		why  string // "" when it may be written
		rel  string
	}{
		{"in.cu", "", "in.cu"},
		{"subdir/ok.cu", "", "sub/ok.cu"}, // a linked folder that stays inside
		{"../outside/k.cuh", "outside the root", ""},
		{"link.cuh", "symbolic link", ""},
		{"alias.cu", "symbolic link", ""}, // even to a file inside
		{"shared/via.cuh", "outside the root", ""},
		{"sub", "not a regular file", ""},
	}
	realRoot, _ := resolveRoot(root)
	for _, tt := range tests {
		_, rel, err := confine(realRoot, filepath.Join(root, tt.name))
		var refusal refusedError
		switch {
		case tt.why == "" && (err != nil || rel != tt.rel):
			t.Errorf("%s: %v, rel %q", tt.name, err, rel)
		case tt.why != "" && (!errors.As(err, &refusal) || !strings.Contains(err.Error(), tt.why)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.why)
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.cu")
	if err := os.WriteFile(path, []byte("old text"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o751); err != nil { // WriteFile's mode is masked by umask
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	if got, _ := os.ReadFile(path); string(got) != "new" || info.Mode().Perm() != 0o751 {
		t.Errorf("after a write: %q, mode %v", got, info.Mode())
	}
	// A full disk: half the bytes go out, then the write fails.
	saved := syncTemp
	defer func() { syncTemp = saved }()
	syncTemp = func(f *os.File, data []byte) error {
		f.Write(data[:len(data)/2])
		return errors.New("no space left on device")
	}
	if err := WriteFileAtomic(path, []byte("a much longer replacement")); err == nil || !strings.Contains(err.Error(), "no space") {
		t.Errorf("error %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("a failed write left %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// A file that cannot be written is an error; the others are written.
func TestFixWriteErrorSparesOtherFiles(t *testing.T) {
	root := t.TempDir()
	rep := fixReport(t, root, map[string]string{"a.cu": "abc", "b.cu": "abc", "c.cu": "abc"},
		[][]fe{{{"a.cu", 0, 1, "A"}}, {{"b.cu", 0, 1, "B"}}, {{"c.cu", 0, 1, "C"}}})
	write := func(path string, data []byte) error {
		if strings.HasSuffix(path, "b.cu") {
			return errors.New("read-only file system")
		}
		return WriteFileAtomic(path, data)
	}
	fr := ApplyFixes(rep, FixOptions{Root: root, Write: write})
	if len(fr.Errors) != 1 || !strings.Contains(fr.Errors[0].Error(), "b.cu: read-only file system") {
		t.Errorf("errors %v", fr.Errors)
	}
	for name, want := range map[string]string{"a.cu": "Abc", "b.cu": "abc", "c.cu": "Cbc"} {
		if got, _ := os.ReadFile(filepath.Join(root, name)); string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if got := fr.Changed(); len(got) != 2 {
		t.Errorf("changed %v", got)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	root := t.TempDir()
	rep := fixReport(t, root, map[string]string{"k.cu": "a\nb\nc\n"}, [][]fe{{{"k.cu", 2, 3, "B"}}})
	fr := ApplyFixes(rep, FixOptions{Root: root, DryRun: true})
	var b strings.Builder
	if err := fr.Diff(&b); err != nil {
		t.Fatal(err)
	}
	if want := "--- a/k.cu\n+++ b/k.cu\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"; b.String() != want {
		t.Errorf("diff:\n%s\nwant:\n%s", b.String(), want)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "k.cu")); string(got) != "a\nb\nc\n" || len(fr.Changed()) != 0 {
		t.Errorf("a dry run wrote %q", got)
	}
}
