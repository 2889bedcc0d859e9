package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cudalint/cudalint/sources"
)

// A file named alone (what pre-commit and editors pass) is analyzed
// within its project: the other files under the root that launch its
// kernels or include it are loaded too, so that its kernels get their
// real block shapes, and its findings are reported as if its folder had
// been checked. Only the named files' findings are reported.

// namedFiles returns the files of the run that were named themselves
// rather than found in a folder named: those get a project context.
func namedFiles(paths, files []string) []string {
	var dirs []string
	for _, p := range paths {
		if p == "-" {
			continue
		}
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			dirs = append(dirs, filepath.Clean(p))
		}
	}
	var named []string
	for _, f := range files {
		walked := false
		for _, d := range dirs {
			if d == "." && !filepath.IsAbs(f) || strings.HasPrefix(filepath.Clean(f), d+string(filepath.Separator)) {
				walked = true
				break
			}
		}
		if !walked {
			named = append(named, f)
		}
	}
	return named
}

// contextFiles returns the CUDA files under root, other than those of
// the run already, that launch a kernel defined in a named file or
// include a named file (or, in turn, a file so included), as their
// tokens say (contextindex.go): read-only, it preprocesses and parses
// nothing. The files are spelled
// as the named files are (relative to the working folder, or absolute),
// so that an include resolves to the same name.
func contextFiles(root string, named, files []string, read func(string) ([]byte, error), cache *ContextCache) []string {
	if root == "" || len(named) == 0 {
		return nil
	}
	have := map[string]bool{}
	for _, f := range files {
		have[absPath(f)] = true
	}
	kernels := map[string]bool{}
	bases := map[string]bool{}
	for _, f := range named {
		src, err := read(f)
		if err != nil {
			continue
		}
		for _, k := range cache.named(f, src).kernels {
			kernels[k] = true
		}
		bases[filepath.Base(f)] = true
	}
	walkRoot := root
	if cwd, err := os.Getwd(); err == nil && !allAbs(named) {
		if rel, err := filepath.Rel(cwd, root); err == nil {
			walkRoot = rel
		}
	}
	all, _ := sources.Find([]string{walkRoot})
	facts := map[string]*contextFacts{}
	var candidates []string
	for _, f := range all {
		if have[absPath(f)] {
			continue
		}
		c, err := cache.facts(f, read)
		if err != nil {
			continue
		}
		facts[f] = c
		candidates = append(candidates, f)
	}
	var out []string
	taken := map[string]bool{}
	for {
		added := false
		for _, f := range candidates {
			if taken[f] || !(facts[f].launchesAnyOf(kernels) || facts[f].includesAnyOf(bases)) {
				continue
			}
			taken[f] = true
			out = append(out, f)
			bases[filepath.Base(f)] = true
			added = true
		}
		if !added {
			return out
		}
	}
}

// allAbs reports whether every file is spelled absolute, as an editor
// names them: the context is then walked absolute too, so that an
// includer's #include resolves to the named file's own name.
func allAbs(files []string) bool {
	for _, f := range files {
		if !filepath.IsAbs(f) {
			return false
		}
	}
	return true
}

// underRoot keeps the files that lie under root: a file outside it has
// no project there to give it context.
func underRoot(root string, files []string) []string {
	var out []string
	for _, f := range files {
		if rel, err := filepath.Rel(root, absPath(f)); root != "" && err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			out = append(out, f)
		}
	}
	return out
}

func absPath(f string) string {
	if abs, err := filepath.Abs(f); err == nil {
		return abs
	}
	return filepath.Clean(f)
}

// kernelNames returns the names of the __global__ functions defined or
// declared in src: the first identifier followed by '(' after each
// __global__, skipping attributes such as __launch_bounds__(...).
func kernelNames(src []byte) [][]byte {
	var names [][]byte
	const kw = "__global__"
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(kw))
		if j < 0 {
			return names
		}
		i += j + len(kw)
		for k := i; k < len(src) && k < i+512; {
			c := src[k]
			switch {
			case isIdent(c):
				s := k
				for k < len(src) && isIdent(src[k]) {
					k++
				}
				word := src[s:k]
				n := k
				for n < len(src) && (src[n] == ' ' || src[n] == '\t' || src[n] == '\n' || src[n] == '\r') {
					n++
				}
				if n < len(src) && src[n] == '(' {
					if bytes.HasPrefix(word, []byte("__")) {
						k = skipParens(src, n)
						continue
					}
					names = append(names, word)
					k = len(src) // done with this __global__
				}
			case c == ';' || c == '{':
				k = len(src)
			default:
				k++
			}
		}
	}
}

func skipParens(src []byte, i int) int {
	depth := 0
	for ; i < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return i
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// inNamed reports whether a finding's file is one of the named files.
func inNamed(named map[string]bool, file string) bool {
	return named[absPath(file)]
}

// ContextCache keeps the text of the project's files between runs, so
// that a server re-analysing a file after each edit walks the project but
// reads again only the files that changed on disk. Forget a file whose
// text the run's ReadFile serves from elsewhere (an editor's buffer) when
// that text changes. The zero of a nil cache reads every time.
type ContextCache struct {
	mu    sync.Mutex
	files map[string]cachedText
	// scanned holds each file's context facts (contextindex.go), and
	// buffers those of the named files' texts.
	scanned map[string]cachedScan[*contextFacts]
	buffers map[string]bufferFacts
	// hosts holds files' host facts (hostcpp.go).
	hosts map[string]cachedScan[*hostFacts]
	// words holds host files' call words (hostcpp.go).
	words map[string]cachedScan[callWords]
}

type cachedText struct {
	mod  time.Time
	size int64
	src  []byte
}

// NewContextCache makes an empty cache.
func NewContextCache() *ContextCache {
	return &ContextCache{files: map[string]cachedText{}, scanned: map[string]cachedScan[*contextFacts]{}, buffers: map[string]bufferFacts{}, hosts: map[string]cachedScan[*hostFacts]{}, words: map[string]cachedScan[callWords]{}}
}

// Forget drops what the cache holds for path.
func (c *ContextCache) Forget(path string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	delete(c.files, absPath(path))
	delete(c.scanned, absPath(path))
	delete(c.hosts, absPath(path))
	delete(c.words, absPath(path))
	c.mu.Unlock()
}

// text is path's text through read, from the cache while the file's
// modification time and size are unchanged.
func (c *ContextCache) text(path string, read func(string) ([]byte, error)) ([]byte, error) {
	if c == nil {
		return read(path)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	key := absPath(path)
	c.mu.Lock()
	e, ok := c.files[key]
	c.mu.Unlock()
	if ok && e.mod.Equal(info.ModTime()) && e.size == info.Size() {
		return e.src, nil
	}
	src, err := read(path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.files[key] = cachedText{info.ModTime(), info.Size(), src}
	c.mu.Unlock()
	return src, nil
}
