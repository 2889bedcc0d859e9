//go:build unix

package sources

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cudalint/cudalint/parser"
)

// within fails the test when f has not returned after a few seconds: a
// FIFO read blocks for ever.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked")
	}
}

// Devices, FIFOs and sockets are never read: named, they are an error;
// walked, a note on the file; included, a note at the #include.
func TestSpecialFilesAreSkipped(t *testing.T) {
	const kernel = "__global__ void k(float* p) { p[threadIdx.x] = 0; }\n"
	dir := writeTree(t, map[string]string{
		"k/ok.cu":       kernel,
		"k/pipe_inc.cu": "#include \"pipe.cuh\"\n" + kernel,
		"k/zero_inc.cu": "#include \"zero\"\n" + kernel,
	})
	k := filepath.Join(dir, "k")
	if err := syscall.Mkfifo(filepath.Join(k, "pipe.cuh"), 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	if err := syscall.Mkfifo(filepath.Join(k, "lone.cu"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(k, "zero.cu")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(k, "zero")); err != nil {
		t.Fatal(err)
	}
	var found, loaded []string
	var findErrs, loadErrs []error
	var set *Set
	within(t, func() {
		found, findErrs = Find([]string{k, filepath.Join(k, "pipe.cuh"), filepath.Join(k, "zero.cu")})
		set, loadErrs = Load(found, parser.Config{Root: dir, IncludeDirs: []string{"/dev"}})
	})
	for _, want := range []string{"pipe.cuh: not a regular file (a named pipe)", "zero.cu: not a regular file (a device)"} {
		if !anyContains(findErrs, want) {
			t.Errorf("find errors %v, want %q", findErrs, want)
		}
	}
	if len(loadErrs) != 0 {
		t.Errorf("load errors %v", loadErrs)
	}
	notes := map[string]string{} // base name of the file: its notes
	for _, f := range set.Files {
		loaded = append(loaded, filepath.Base(f.Path))
		for _, n := range f.Notes {
			notes[filepath.Base(n.Pos.File)] += n.Msg + "; "
		}
	}
	for file, want := range map[string]string{
		"lone.cu":     "not a regular file (a named pipe); skipped", // walked
		"pipe_inc.cu": `"pipe.cuh" not read: not a regular file (a named pipe)`,
		"zero_inc.cu": `"zero" not read: not a regular file (a device)`, // through a link, -I /dev allowing it
	} {
		if !strings.Contains(notes[file], want) {
			t.Errorf("notes of %s: %q, want %q", file, notes[file], want)
		}
	}
	if strings.Join(loaded, " ") != "lone.cu ok.cu pipe_inc.cu zero_inc.cu" {
		t.Errorf("loaded %v", loaded)
	}
}

func anyContains(errs []error, s string) bool {
	for _, err := range errs {
		if strings.Contains(err.Error(), s) {
			return true
		}
	}
	return false
}

// A symbolic link to a folder, named on the command line, is walked, and
// its files keep the name the user gave; links met in a walk are not
// followed.
func TestNamedLinkToFolderIsWalked(t *testing.T) {
	dir := writeTree(t, map[string]string{"real/a.cu": "", "real/sub/b.cuh": "", "other/c.cu": ""})
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "real"), link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Symlink(filepath.Join(dir, "other"), filepath.Join(dir, "real", "inner")); err != nil {
		t.Fatal(err)
	}
	found, errs := Find([]string{link})
	want := []string{filepath.Join(link, "a.cu"), filepath.Join(link, "sub", "b.cuh")}
	if len(errs) != 0 || strings.Join(found, " ") != strings.Join(want, " ") {
		t.Errorf("found %v, errors %v; want %v", found, errs, want)
	}
}
