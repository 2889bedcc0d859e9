package driver

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/cudalint/cudalint/sources"
)

// The one rule for every file cudalint writes (--output, --sarif-output,
// --write-baseline, --cpuprofile, --memprofile, --fix): never through a
// symbolic link (a link committed in the tree under the output's name
// would have the report overwrite its target elsewhere), never outside
// the root unless the path named on the command line is itself outside
// it (a folder inside the root that is a link leading out is refused),
// and atomically: a temporary file in the same folder, flushed, renamed
// over the name, so that a reader or a crash sees the old file or the new
// one.

// Output is a file being written by that rule: write to it, then Commit
// (or Abort, which leaves the old file, if any, as it was).
type Output struct {
	*os.File
	path string      // where the rename lands: the real folder, the name as given
	mode fs.FileMode // the old file's mode, or 0644
	done bool
}

// CreateOutput starts writing path under root's rule (see above).
func CreateOutput(path, root string) (*Output, error) {
	target, mode, err := writable(path, root)
	if err != nil {
		return nil, err
	}
	dir, base := filepath.Split(target)
	f, err := os.CreateTemp(dir, "."+base+".cudalint-*")
	if err != nil {
		return nil, err
	}
	return &Output{File: f, path: target, mode: mode}, nil
}

// Commit flushes the file and renames it over the name; on an error the
// temporary file is removed and the old file left as it was.
func (o *Output) Commit() error { return o.commit(nil) }

// commit is Commit with check run just before the rename: an error from
// it keeps the old file.
func (o *Output) commit(check func() error) (err error) {
	if o.done {
		return errors.New("already written")
	}
	o.done = true
	tmp := o.File.Name()
	defer func() {
		if err != nil {
			o.File.Close()
			os.Remove(tmp)
		}
	}()
	if err = o.File.Sync(); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; keep the original's mode.
	if err = o.File.Chmod(o.mode); err != nil {
		return err
	}
	if err = o.File.Close(); err != nil {
		return err
	}
	beforeRename(o.path)
	if check != nil {
		if err = check(); err != nil {
			return err
		}
	}
	if err = os.Rename(tmp, o.path); err != nil {
		return err
	}
	syncDir(filepath.Dir(o.path))
	return nil
}

// Abort removes the temporary file; after Commit it does nothing.
func (o *Output) Abort() {
	if !o.done {
		o.done = true
		o.File.Close()
		os.Remove(o.File.Name())
	}
}

// beforeRename runs just before an output's rename: tests change the file
// there, as an editor saving during a run does.
var beforeRename = func(path string) {}

// WriteOutput writes data to path by the rule for outputs.
func WriteOutput(path, root string, data []byte) error {
	o, err := CreateOutput(path, root)
	if err != nil {
		return err
	}
	if err := syncTemp(o.File, data); err != nil {
		o.Abort()
		return err
	}
	return o.Commit()
}

// writable returns where path is written (its folder's links resolved,
// its own name kept) and the mode to give it, or why it must not be.
func writable(path, root string) (string, fs.FileMode, error) {
	mode := fs.FileMode(0o644)
	if info, err := os.Lstat(path); err == nil {
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			return "", 0, fmt.Errorf("%s is a symbolic link; not written through", path)
		case !info.Mode().IsRegular():
			return "", 0, fmt.Errorf("%s is not a regular file; not written", path)
		}
		mode = info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", 0, err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", 0, err
	}
	if root != "" {
		rootAbs, err := filepath.Abs(root)
		if err != nil {
			return "", 0, err
		}
		realRoot := rootAbs
		if r, err := filepath.EvalSymlinks(rootAbs); err == nil {
			realRoot = r
		}
		named := within(abs, rootAbs) || within(abs, realRoot)
		if named && !within(dir, realRoot) {
			return "", 0, fmt.Errorf("%s: its folder leads outside the root %s through a link; not written", path, root)
		}
	}
	return filepath.Join(dir, filepath.Base(abs)), mode, nil
}

// fileState is what --fix saw of a file when it read it.
type fileState struct {
	size  int64
	mtime time.Time
	sum   [sha256.Size]byte
}

func stateOf(info fs.FileInfo, src []byte) fileState {
	return fileState{size: info.Size(), mtime: info.ModTime(), sum: sha256.Sum256(src)}
}

// errChanged is a file that changed between --fix reading it and
// renaming the fixed text over it.
var errChanged = errors.New("it changed while cudalint ran (saved after it was read); not written, run again")

// unchanged checks, just before the rename, that path is still the file
// that was read: same size, same modification time, same content.
func unchanged(path string, was fileState) error {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() != was.size || !info.ModTime().Equal(was.mtime) {
		return errChanged
	}
	src, err := sources.ReadFile(path) // regular, bounded
	if err != nil || sha256.Sum256(src) != was.sum {
		return errChanged
	}
	return nil
}
