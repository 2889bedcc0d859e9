package driver

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cudalint/cudalint/internal/udiff"
	"github.com/cudalint/cudalint/rules/lint"
	"github.com/cudalint/cudalint/sources"
)

// FixOptions say where ApplyFixes may write and how.
type FixOptions struct {
	// Root confines writes: a file is written only when it is a regular
	// file, not a symbolic link, whose path with every link resolved is
	// inside Root. An include such as "../shared/k.cuh" can name any
	// file on the machine; the fix must not follow it there.
	Root string
	// DryRun computes the fixed files (for --diff) and writes nothing.
	DryRun bool
	// Write replaces a file's content; nil means WriteFileAtomic.
	Write func(path string, data []byte) error
}

// FileFix is one file's text before and after the fixes.
type FileFix struct {
	Name     string // as the analysis named it
	Path     string // with links resolved: where it is written
	Rel      string // relative to the root, slash-separated, for diffs
	Old, New []byte
	Written  bool
}

// FixReport is what ApplyFixes did.
type FixReport struct {
	Files []*FileFix // the files the fixes change, by name
	// Notes say which fixes were not applied and why: a conflict with an
	// earlier fix, a file outside the root, a file changed since.
	Notes []string
	// Errors are files that could not be read or written; every other
	// file is still fixed.
	Errors []error
}

// Changed returns the names of the files written.
func (r *FixReport) Changed() []string {
	var out []string
	for _, f := range r.Files {
		if f.Written {
			out = append(out, f.Name)
		}
	}
	return out
}

// Diff writes the unified diff of every file the fixes change, with
// paths relative to the root ("--- a/src/k.cu"), as patch -p1 reads it.
func (r *FixReport) Diff(w io.Writer) error {
	for _, f := range r.Files {
		if _, err := io.WriteString(w, udiff.Unified("a/"+f.Rel, "b/"+f.Rel, f.Old, f.New)); err != nil {
			return err
		}
	}
	return nil
}

type edit struct {
	start, end int
	text       string
}

// target is a file some fix edits.
type target struct {
	fix     *FileFix
	edits   []edit    // accepted, sorted, non-overlapping
	blocked bool      // refused or unreadable: no fix touching it applies
	state   fileState // as read: checked again just before the rename
}

type fixer struct {
	rep     *Report
	opts    FixOptions
	root    string // resolved
	out     *FixReport
	targets map[string]*target
}

// ApplyFixes applies the first suggested fix of every finding, the way
// golang.org/x/tools' checker does: a fix applies whole or not at all;
// its edits must lie within their files and not overlap one another;
// edits identical to ones already taken (several findings offering the
// same fix) are applied once; a fix that overlaps a fix already taken is
// skipped with a note. Files are written atomically (WriteFileAtomic). A
// file that cannot be written is reported in Errors and the others are
// still written. Running it again on fixed code changes nothing, since
// fixed code has no finding.
func ApplyFixes(rep *Report, opts FixOptions) *FixReport {
	x := &fixer{rep: rep, opts: opts, out: &FixReport{}, targets: map[string]*target{}}
	root, err := resolveRoot(opts.Root)
	if err != nil {
		x.out.Errors = append(x.out.Errors, fmt.Errorf("fix root: %v", err))
		return x.out
	}
	x.root = root
	for _, f := range rep.Findings {
		if len(f.SuggestedFixes) > 0 {
			x.take(f)
		}
	}
	x.finish()
	return x.out
}

func resolveRoot(root string) (string, error) {
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// take accepts f's first fix if it is valid and conflicts with nothing
// taken before.
func (x *fixer) take(f *lint.Finding) {
	fix := f.SuggestedFixes[0]
	skip := func(why string) {
		x.out.Notes = append(x.out.Notes, fmt.Sprintf("%s: fix %q [%s] not applied: %s", x.rep.Fset.Position(f.Pos), fix.Message, f.Rule.ID, why))
	}
	byFile, why := x.resolve(f)
	if why != "" {
		skip(why)
		return
	}
	var names []string
	for name := range byFile {
		names = append(names, name)
		if t := x.target(name); t.blocked {
			return // the file's own note says why
		}
	}
	sort.Strings(names)
	fresh := map[string][]edit{}
	for _, name := range names {
		t := x.targets[name]
		for _, e := range byFile[name] {
			dup, conflict := t.against(e)
			if conflict {
				skip("it overlaps an earlier fix in " + name)
				return
			}
			if !dup {
				fresh[name] = append(fresh[name], e)
			}
		}
	}
	for name, es := range fresh {
		t := x.targets[name]
		t.edits = append(t.edits, es...)
		sort.Slice(t.edits, func(i, j int) bool { return t.edits[i].start < t.edits[j].start })
	}
}

// resolve maps the fix's edits to files and offsets, or says why they
// are unusable: outside their file, reversed, or overlapping each other.
func (x *fixer) resolve(f *lint.Finding) (map[string][]edit, string) {
	byFile := map[string][]edit{}
	for _, te := range f.SuggestedFixes[0].TextEdits {
		tf := x.rep.Fset.File(te.Pos)
		end := te.End
		if end == token.NoPos {
			end = te.Pos
		}
		if tf == nil || end < te.Pos || int(end) > tf.Base()+tf.Size() {
			return nil, "an edit falls outside its file"
		}
		byFile[tf.Name()] = append(byFile[tf.Name()], edit{tf.Offset(te.Pos), tf.Offset(end), string(te.NewText)})
	}
	for _, es := range byFile {
		sort.Slice(es, func(i, j int) bool { return es[i].start < es[j].start })
		for i := 1; i < len(es); i++ {
			if es[i] != es[i-1] && overlap(es[i-1], es[i]) {
				return nil, "its edits overlap each other"
			}
		}
	}
	return byFile, ""
}

// overlap reports whether two different edits cannot both apply: their
// ranges intersect, or they start at one offset (two insertions there
// have no order).
func overlap(a, b edit) bool {
	return a.start == b.start || (a.start < b.end && b.start < a.end)
}

// against compares e with the accepted edits: the same edit again, or
// one it overlaps. Accepted edits do not overlap, so their ends are
// sorted too and only e's neighbours need checking.
func (t *target) against(e edit) (dup, conflict bool) {
	i := sort.Search(len(t.edits), func(i int) bool { return t.edits[i].start >= e.start })
	for _, j := range []int{i - 1, i} {
		if j < 0 || j >= len(t.edits) {
			continue
		}
		if t.edits[j] == e {
			return true, false
		}
		if overlap(t.edits[j], e) {
			return false, true
		}
	}
	return false, false
}

// target returns the file's state, checking on first use that it may be
// written and still holds the text that was analyzed.
func (x *fixer) target(name string) *target {
	if t, ok := x.targets[name]; ok {
		return t
	}
	t := &target{}
	x.targets[name] = t
	path, rel, err := confine(x.root, name)
	var src []byte
	var info fs.FileInfo
	if err == nil {
		info, err = os.Lstat(path)
	}
	if err == nil {
		src, err = sources.ReadFile(path) // regular, bounded
	}
	var refusal refusedError
	switch {
	case errors.As(err, &refusal):
		x.out.Notes = append(x.out.Notes, fmt.Sprintf("not fixing %s: %v", name, err))
	case err != nil:
		x.out.Errors = append(x.out.Errors, fmt.Errorf("not fixing %s: %v", name, err))
	case x.rep.Result != nil && !bytes.Equal(src, x.rep.Result.Analysis.Program.Source(name)):
		x.out.Notes = append(x.out.Notes, fmt.Sprintf("not fixing %s: it changed since it was analyzed", name))
	default:
		t.fix = &FileFix{Name: name, Path: path, Rel: rel, Old: src}
		t.state = stateOf(info, src)
		return t
	}
	t.blocked = true
	return t
}

// finish applies the accepted edits and writes the files, in name order.
func (x *fixer) finish() {
	var names []string
	for name, t := range x.targets {
		if !t.blocked && len(t.edits) > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		t := x.targets[name]
		write := x.opts.Write
		if write == nil {
			// What an editor saved while the run went on is kept: the
			// file is checked against what was read just before the
			// rename.
			write = func(path string, data []byte) error {
				return writeFix(path, data, func() error { return unchanged(path, t.state) })
			}
		}
		t.fix.New = applyEdits(t.fix.Old, t.edits)
		if bytes.Equal(t.fix.New, t.fix.Old) {
			continue
		}
		x.out.Files = append(x.out.Files, t.fix)
		if x.opts.DryRun {
			continue
		}
		if err := write(t.fix.Path, t.fix.New); errors.Is(err, errChanged) {
			x.out.Notes = append(x.out.Notes, fmt.Sprintf("not fixing %s: %v", name, err))
			continue
		} else if err != nil {
			x.out.Errors = append(x.out.Errors, fmt.Errorf("not fixed: %s: %v", name, err))
			continue
		}
		t.fix.Written = true
	}
}

// applyEdits applies sorted, non-overlapping edits.
func applyEdits(src []byte, edits []edit) []byte {
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(src[last:])
	return out.Bytes()
}

// refusedError is a file --fix will not write by policy, as opposed to
// one it failed to read or write.
type refusedError struct{ why string }

func (e refusedError) Error() string { return e.why }

// confine returns where name really is and its path relative to root,
// or why it must not be written: a symbolic link (writing through it
// edits a file elsewhere), not a regular file, or outside the root once
// every link on the way is resolved.
func confine(root, name string) (path, rel string, err error) {
	info, err := os.Lstat(name)
	if err != nil {
		return "", "", err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		return "", "", refusedError{"it is a symbolic link"}
	}
	if !info.Mode().IsRegular() {
		return "", "", refusedError{"it is not a regular file"}
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", "", err
	}
	if path, err = filepath.EvalSymlinks(abs); err != nil {
		return "", "", err
	}
	rel, err = filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", "", refusedError{"it is outside the root " + root}
	}
	return path, filepath.ToSlash(rel), nil
}

// syncTemp writes data to the temporary file and flushes it to disk; a
// variable so that tests can make it fail as a full disk does.
var syncTemp = func(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Sync()
}

// WriteFileAtomic replaces path's content with data so that a reader (or
// a crash, or a full disk) sees the old file or the new one, never a
// truncated mix: it writes a temporary file in the same folder, flushes
// it, gives it the original's mode and renames it over the original
// (CreateOutput's rule). On any error the temporary file is removed and
// the original is left as it was. path must be a regular file: a link is
// never written through.
func WriteFileAtomic(path string, data []byte) error { return writeFix(path, data, nil) }

// writeFix is WriteFileAtomic with check run just before the rename.
func writeFix(path string, data []byte, check func() error) error {
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	o, err := CreateOutput(path, "")
	if err != nil {
		return err
	}
	if err := syncTemp(o.File, data); err != nil {
		o.Abort()
		return err
	}
	return o.commit(check)
}

// syncDir makes a rename durable; a folder that cannot be synced (some
// file systems refuse) still holds the new file.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
