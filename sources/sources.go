// Package sources holds the set of CUDA files a run analyzes: it finds
// them under the paths given, reads and parses them concurrently, and
// reports each file it cannot use as an error naming that file, without
// stopping the others.
package sources

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/cpp"
)

// MaxFileSize is the largest file read; a larger one is reported and skipped.
const MaxFileSize = cpp.MaxFileSize

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

// IsHostSource reports whether a file name is a C or C++ source, whose
// host code may call the CUDA files' host functions (driver/hostcpp.go).
func IsHostSource(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".cpp", ".cc", ".cxx", ".c":
		return true
	}
	return false
}

// FindHost lists the C and C++ sources under the folder root, walked as
// Find walks (hidden folders skipped, links below root not followed),
// regular files only.
func FindHost(root string) ([]string, []error) {
	var files []string
	errs := walkFor(root, func(d fs.DirEntry) bool { return d.Type().IsRegular() && IsHostSource(d.Name()) }, func(p string) { files = append(files, p) })
	sort.Strings(files)
	return files, errs
}

// Find lists the CUDA files under paths: directories are walked (hidden
// folders skipped, symbolic links below them not followed; a link named on
// the command line is), files named directly are taken whatever their
// extension. A named device, pipe or socket is an error; one met in a walk
// is listed, and Load notes it and reads nothing from it.
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
		switch {
		case err != nil:
			errs = append(errs, pathError(root, err))
		case info.IsDir():
			errs = append(errs, walk(root, add)...)
		case info.Mode().IsRegular():
			add(root)
		default:
			errs = append(errs, fmt.Errorf("%s: not a regular file (%s)", root, cpp.FileKind(info.Mode())))
		}
	}
	sort.Strings(files)
	return files, errs
}

// walk adds the CUDA files under the folder root. A root that is a
// symbolic link is walked where it points (WalkDir would stop at the
// link), with the paths spelled under the name the user gave.
func walk(root string, add func(string)) []error { return walkFor(root, listed, add) }

// walkFor adds the files under the folder root that keep accepts.
func walkFor(root string, keep func(fs.DirEntry) bool, add func(string)) []error {
	var errs []error
	start := root
	if li, err := os.Lstat(root); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		if start, err = filepath.EvalSymlinks(root); err != nil {
			return []error{pathError(root, err)}
		}
	}
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, pathError(p, err))
			return nil
		}
		if d.IsDir() && p != start && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if keep(d) {
			add(respell(root, start, p))
		}
		return nil
	})
	if err != nil {
		errs = append(errs, pathError(root, err))
	}
	return errs
}

// listed reports whether a walked entry is a CUDA file to list: a regular
// file, or a device, pipe or socket, which Load notes without reading it.
// Links are not followed: a walk reads nothing outside the folder named.
func listed(d fs.DirEntry) bool {
	special := d.Type()&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice) != 0
	return (d.Type().IsRegular() || special) && IsSource(d.Name())
}

// respell spells p, found under start, under root instead.
func respell(root, start, p string) string {
	if root == start {
		return p
	}
	rel, err := filepath.Rel(start, p)
	if err != nil {
		return p
	}
	return filepath.Join(root, rel)
}

func pathError(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %v", p, err)
}

// Load reads and parses files concurrently. Files are committed in path
// order, so the result does not depend on scheduling; a definition that
// comes from an included header is kept only in the first file that
// includes it (a header read by a hundred files is one copy in memory, and
// its kernels are analyzed once). At most a few files wait parsed but
// uncommitted, which bounds memory.
//
// The files given are read wherever they are (the user named them), but
// an #include reads only what the root and the include folders hold (see
// guard): a refused one is a note at the directive. Only regular files
// are read, each of at most MaxFileSize bytes.
func Load(files []string, cfg parser.Config) (*Set, []error) {
	return LoadScoped(files, cfg, nil)
}

// LoadScoped is Load where each file named (each translation unit) may
// have its own macro definitions: definesFor, when not nil, gives the
// whole set for a file (its folder's configuration and the command
// line's), in place of cfg.Defines.
func LoadScoped(files []string, cfg parser.Config, definesFor func(path string) map[string]string) (*Set, []error) {
	return LoadWithHost(files, nil, cfg, definesFor)
}

// LoadWithHost is LoadScoped with host files too: C or C++ sources read
// only for the host code that calls the CUDA files' functions
// (driver/hostcpp.go). Each is a translation unit of its own, after the
// CUDA files, so that a header they share keeps its definitions in the
// CUDA file that includes it; a host file never makes a CUDA file part
// of its unit (the CUDA file stays a root however the host file includes
// it).
func LoadWithHost(files, host []string, cfg parser.Config, definesFor func(path string) map[string]string) (*Set, []error) {
	cache := &readCache{read: cfg.ReadFile, files: map[string]cached{}}
	if cache.read == nil {
		cache.read = cpp.ReadSource
	}
	g, err := newGuard(cfg, files)
	if err != nil {
		return &Set{Included: map[string]bool{}}, []error{err}
	}
	cfg.ReadFile = func(path string) ([]byte, error) {
		real, err := g.check(path)
		if err != nil {
			return nil, err
		}
		return cache.get(real)
	}
	if cfg.Items == nil {
		cfg.Items = parser.NewItemCache()
	}
	if cfg.Headers == nil {
		cfg.Headers = cpp.NewHeaderCache()
	}
	set := &Set{Included: includedFiles(files, cfg, cache)}
	var roots []string
	for _, f := range files {
		if !set.Included[filepath.Clean(f)] {
			roots = append(roots, f)
		}
	}
	files = append(roots, host...)
	type result struct {
		f   *parser.File
		err error
	}
	workers := min(runtime.GOMAXPROCS(0), max(len(files), 1))
	results := make([]chan result, len(files))
	for i := range results {
		results[i] = make(chan result, 1)
	}
	window := make(chan struct{}, 2*workers)
	jobs := make(chan int)
	go func() {
		for i := range files {
			window <- struct{}{}
			jobs <- i
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				unit := cfg
				if definesFor != nil {
					unit.Defines = definesFor(files[i])
				}
				f, err := loadOne(files[i], unit, cache.get)
				results[i] <- result{f, err}
			}
		}()
	}
	seen := map[definitionAt]bool{} // positions of header definitions already kept
	var errs []error
	for i := range files {
		r := <-results[i]
		<-window
		if r.err != nil {
			errs = append(errs, r.err)
		}
		if r.f == nil {
			continue
		}
		dropSeenHeaderDefinitions(r.f, seen)
		set.Files = append(set.Files, r.f)
	}
	wg.Wait()
	return set, errs
}

// quotedIncludes returns the names in the #include "name" and #include
// <name> lines of src (a <name> counts only when the file is in the set).
// It looks only at lines whose first non-blank byte is '#', found with
// IndexByte: a regular expression took a tenth of a run on large files.
func quotedIncludes(src []byte) []string {
	var names []string
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '#')
		if j < 0 {
			break
		}
		hash := i + j
		i = hash + 1
		k := hash - 1
		for k >= 0 && (src[k] == ' ' || src[k] == '\t') {
			k--
		}
		if k >= 0 && src[k] != '\n' {
			continue // not the first thing on its line
		}
		rest := bytes.TrimLeft(src[i:], " \t")
		if !bytes.HasPrefix(rest, []byte("include")) {
			continue
		}
		rest = bytes.TrimLeft(rest[len("include"):], " \t")
		if len(rest) == 0 || (rest[0] != '"' && rest[0] != '<') {
			continue
		}
		closer := byte('"')
		if rest[0] == '<' {
			closer = '>'
		}
		end := bytes.IndexAny(rest[1:], string([]byte{closer, '\n'}))
		if end < 0 || rest[1+end] != closer || end == 0 {
			continue
		}
		names = append(names, string(rest[1:1+end]))
	}
	return names
}

// includedFiles finds, by a quick look at their #include "..." lines,
// which of files another of them includes: those are analyzed as part of
// their includers, in their context, and not on their own.
func includedFiles(files []string, cfg parser.Config, cache *readCache) map[string]bool {
	inSet := map[string]bool{}
	for _, f := range files {
		inSet[filepath.Clean(f)] = true
	}
	included := map[string]bool{}
	for _, f := range files {
		src, err := cache.get(f)
		if err != nil {
			continue
		}
		for _, name := range quotedIncludes(src) {
			for _, dir := range append([]string{filepath.Dir(f)}, cfg.IncludeDirs...) {
				p := filepath.Clean(filepath.Join(dir, name))
				if inSet[p] && p != filepath.Clean(f) {
					included[p] = true
					break
				}
			}
		}
	}
	return included
}

// definitionAt is where a header definition stands: its file and byte
// offset (a note's offset is stored as -1-offset, apart from them). A
// struct, not a formatted string: ggml's files format 70,000 of them.
type definitionAt struct {
	file   string
	offset int32
}

// dropSeenHeaderDefinitions removes from f the functions, types and
// globals that stand in an included file and were already kept from an
// earlier file, and registers the rest; f.Unit keeps the whole.
func dropSeenHeaderDefinitions(f *parser.File, seen map[definitionAt]bool) {
	keep := func(p parser.Pos) bool {
		if p.File == f.Path {
			return true
		}
		key := definitionAt{p.File, p.Offset}
		if seen[key] {
			return false
		}
		seen[key] = true
		return true
	}
	whole := parser.Decls{Funcs: slices.Clone(f.Funcs), Structs: slices.Clone(f.Structs), Typedefs: slices.Clone(f.Typedefs), Globals: slices.Clone(f.Globals), Usings: f.Usings}
	f.Funcs = slices.DeleteFunc(f.Funcs, func(fn *parser.Func) bool { return !keep(fn.P) })
	f.Structs = slices.DeleteFunc(f.Structs, func(s *parser.Struct) bool { return !keep(s.P) })
	f.Typedefs = slices.DeleteFunc(f.Typedefs, func(t *parser.Typedef) bool { return !keep(t.P) })
	f.Globals = slices.DeleteFunc(f.Globals, func(d *parser.Decl) bool { return !keep(d.P) })
	// The file's translation unit still holds what it gave up: its
	// kernels and types resolve names within it (a header's typedef
	// floatX as this file's macros chose it).
	if len(f.Funcs) < len(whole.Funcs) || len(f.Structs) < len(whole.Structs) || len(f.Typedefs) < len(whole.Typedefs) || len(f.Globals) < len(whole.Globals) {
		f.Unit = &whole
	}
	f.Notes = slices.DeleteFunc(f.Notes, func(n parser.Note) bool {
		return n.Pos.File != f.Path && !keep(parser.Pos{File: n.Pos.File, Offset: -1 - n.Pos.Offset})
	})
}

// Size is the total size of files, as the file system reports it.
func Size(files []string) int64 {
	var n int64
	for _, f := range files {
		if info, err := os.Stat(f); err == nil {
			n += info.Size()
		}
	}
	return n
}

// ReadFile reads a file the user named (a source, --baseline,
// --new-from-patch, --config) by Read's rule: a regular file of at most
// MaxFileSize bytes, without blocking on a FIFO or reading a device
// without end, wherever it is. A caller's parser.Config.ReadFile (one
// that serves standard input, say) takes over these checks.
func ReadFile(path string) ([]byte, error) { return Read(path, "", true) }

// readCache reads each included file once per run; its contents are
// shared, read-only, by every file that includes it.
type readCache struct {
	read  func(string) ([]byte, error)
	mu    sync.Mutex
	files map[string]cached
}

type cached struct {
	src []byte
	err error
}

func (c *readCache) get(path string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.files[path]; ok {
		return r.src, r.err
	}
	src, err := c.read(path)
	c.files[path] = cached{src, err}
	return src, err
}

// loadOne parses a file of the run, read with read (not through the
// include guard: the user named it). A device, pipe or socket met in a
// walk yields a file with only a note saying it was skipped.
func loadOne(path string, cfg parser.Config, read func(string) ([]byte, error)) (f *parser.File, err error) {
	defer func() {
		// The parser is built never to panic; if it does, one file is lost, not the run.
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("%s: internal error while parsing: %v", path, r)
		}
	}()
	// A walked special file is a note; a name that is not on disk at all
	// may still be served by the caller's ReadFile (standard input).
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return skipped(path, "not a regular file ("+cpp.FileKind(info.Mode())+")"), nil
	}
	src, err := read(path)
	var refused *cpp.RefusedError
	switch {
	case errors.As(err, &refused):
		return nil, err // it names the file
	case err != nil:
		return nil, pathError(path, err)
	}
	return parser.Parse(path, src, cfg), nil
}

// skipped is a file that was not read: no code, one note at its start.
func skipped(path, reason string) *parser.File {
	at := parser.Pos{File: path, Line: 1, Col: 1}
	return &parser.File{Path: path, Sources: map[string][]byte{path: nil},
		Notes: parser.Notes{{Pos: at, Msg: reason + "; skipped"}}}
}

// Analyzed returns the files to analyze: those no other file of the set
// includes (the others were parsed inside them).
func (s *Set) Analyzed() []*parser.File { return s.Files }
