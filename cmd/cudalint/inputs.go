package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cudalint/cudalint/sources"
)

// stdinDefaultName names standard input when --stdin-filename does not.
const stdinDefaultName = "<stdin>"

// inputs are the files a run analyzes.
type inputs struct {
	files     []string
	errs      []error // paths that could not be searched
	stdinName string  // set when a PATH is -
	stdin     []byte
}

// gatherInputs searches the paths on disk, warns on stderr about folders
// that hold no CUDA file, and reads standard input when a PATH is -.
func (o *options) gatherInputs(stdin io.Reader, stderr io.Writer) (*inputs, error) {
	var disk []string
	for _, p := range o.paths {
		if p != "-" {
			disk = append(disk, p)
		}
	}
	in := &inputs{}
	if len(disk) > 0 {
		in.files, in.errs = sources.Find(disk)
		for _, p := range emptyFolders(disk, in.files) {
			fmt.Fprintf(stderr, "cudalint: warning: %s holds no .cu or .cuh file\n", escape(p))
		}
	}
	if len(disk) == len(o.paths) {
		return in, nil
	}
	data, err := readStdin(stdin)
	if err != nil {
		return nil, err
	}
	in.stdin, in.stdinName = data, o.stdinName
	if in.stdinName == "" {
		in.stdinName = stdinDefaultName
	}
	// A file on disk under the same name is the one standard input edits.
	if !slices.ContainsFunc(in.files, in.isStdin) {
		in.files = append(in.files, in.stdinName)
		sort.Strings(in.files)
	}
	return in, nil
}

// readStdin reads all of standard input, up to the size cudalint reads
// of any file.
func readStdin(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, sources.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %v", err)
	}
	if len(data) > sources.MaxFileSize {
		return nil, fmt.Errorf("standard input: more than the %d MiB cudalint reads", sources.MaxFileSize>>20)
	}
	return data, nil
}

func (in *inputs) isStdin(path string) bool {
	return in.stdinName != "" && filepath.Clean(path) == filepath.Clean(in.stdinName)
}

// readFile reads a file of the run: standard input under its name, any
// other from disk.
func (in *inputs) readFile(path string) ([]byte, error) {
	if in.isStdin(path) {
		return in.stdin, nil
	}
	return sources.ReadFile(path)
}

// size is the bytes the run reads, for the memory policy.
func (in *inputs) size() int64 {
	var disk []string
	for _, f := range in.files {
		if !in.isStdin(f) {
			disk = append(disk, f)
		}
	}
	return sources.Size(disk) + int64(len(in.stdin))
}

// emptyFolders returns the folders among paths under which no file was
// found. files is sorted, so each folder is one binary search.
func emptyFolders(paths, files []string) []string {
	var empty []string
	for _, p := range paths {
		if !isDir(p) {
			continue
		}
		if !holdsAny(filepath.Clean(p), files) {
			empty = append(empty, p)
		}
	}
	return empty
}

// holdsAny reports whether a file of the sorted list lies under dir.
func holdsAny(dir string, files []string) bool {
	if dir == "." {
		return slices.ContainsFunc(files, func(f string) bool {
			f = filepath.Clean(f)
			return !filepath.IsAbs(f) && f != ".." && !strings.HasPrefix(f, ".."+string(filepath.Separator))
		})
	}
	prefix := dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	i := sort.SearchStrings(files, prefix)
	return i < len(files) && strings.HasPrefix(files[i], prefix)
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
