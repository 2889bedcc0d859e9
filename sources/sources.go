// Package sources holds the set of CUDA files a run analyzes: it finds
// them under the paths given, reads and parses them concurrently, and
// reports each file it cannot use as an error naming that file, without
// stopping the others.
package sources

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/parser"
)

// MaxFileSize is the largest file read; a larger one is reported and skipped.
const MaxFileSize = 256 << 20

// Set is the parsed files of a run, in path order.
type Set struct {
	Files []*parser.File
	// Included are files that another file of the set includes: they are
	// analyzed as part of their includer, not again on their own.
	Included map[string]bool
}

// IsSource reports whether a file name is a CUDA source or header.
func IsSource(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".cu" || ext == ".cuh"
}

// Find lists the CUDA files under paths: directories are walked (hidden
// folders skipped, symbolic links not followed), files named directly are
// taken whatever their extension.
func Find(paths []string) ([]string, []error) {
	var files []string
	var errs []error
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			errs = append(errs, pathError(root, err))
			continue
		}
		if !info.IsDir() {
			add(root)
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, pathError(p, err))
				return nil
			}
			if d.IsDir() && p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && IsSource(d.Name()) {
				add(p)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, pathError(root, err))
		}
	}
	sort.Strings(files)
	return files, errs
}

func pathError(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %v", p, err)
}

// Load reads and parses files concurrently.
func Load(files []string, cfg parser.Config) (*Set, []error) {
	parsed := make([]*parser.File, len(files))
	errs := make([]error, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), max(len(files), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				parsed[i], errs[i] = loadOne(files[i], cfg)
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	set := &Set{Included: map[string]bool{}}
	var outErrs []error
	for i, f := range parsed {
		if errs[i] != nil {
			outErrs = append(outErrs, errs[i])
		}
		if f != nil {
			set.Files = append(set.Files, f)
			for _, inc := range f.Includes {
				set.Included[filepath.Clean(inc)] = true
			}
		}
	}
	return set, outErrs
}

func loadOne(path string, cfg parser.Config) (f *parser.File, err error) {
	defer func() {
		// The parser is built never to panic; if it does, one file is lost, not the run.
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("%s: internal error while parsing: %v", path, r)
		}
	}()
	info, err := os.Stat(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Errorf("%s: %d bytes is more than the %d MiB cudalint reads", path, info.Size(), MaxFileSize>>20)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	return parser.Parse(path, src, cfg), nil
}

// Analyzed returns the files to analyze on their own: those no other file
// of the set includes.
func (s *Set) Analyzed() []*parser.File {
	var out []*parser.File
	for _, f := range s.Files {
		if !s.Included[filepath.Clean(f.Path)] {
			out = append(out, f)
		}
	}
	return out
}
