package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cudalint/cudalint/parser/lex"
)

// What a file says of the others, for the context of a file named alone
// (contextFiles), is read from its tokens as written: comments are not
// code, so a kernel's name in a comment or a string pulls no file in,
// and neither does an #include inside a comment. Nothing is
// preprocessed: a launch or include under an #if counts, as a run of the
// whole folder would read it under some configuration.

// contextFacts are what one file's tokens say for context.
type contextFacts struct {
	// kernels are the __global__ functions it defines or declares: the
	// first identifier followed by '(' after each __global__, skipping
	// attributes such as __launch_bounds__(...).
	kernels []string
	// launched are the identifiers of the statement of each launch,
	// before its <<< (the kernel's name, qualified or chosen by a
	// condition).
	launched map[string]bool
	// includes are the base names of the files it #includes.
	includes map[string]bool
}

// kernelsOnly reads src's kernels alone: none, unread, where the text
// holds no __global__ that a line splice could not hide either.
func kernelsOnly(src []byte) *contextFacts {
	if !bytes.Contains(src, []byte("__global__")) && !bytes.Contains(src, []byte("\\\n")) && !bytes.Contains(src, []byte("\\\r\n")) {
		return &contextFacts{}
	}
	return scanContext(src)
}

// scanContext reads src's facts.
func scanContext(src []byte) *contextFacts {
	var notes lex.Notes
	toks := lex.Scan("", src, &notes)
	c := &contextFacts{launched: map[string]bool{}, includes: map[string]bool{}}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.Kind == lex.KIdent && t.Text == "__global__":
			if name, ok := kernelNameAfter(toks, i+1); ok {
				c.kernels = append(c.kernels, name)
			}
		case t.Kind == lex.KPunct && t.Text == "<<<":
			for j := i - 1; j >= 0; j-- {
				u := toks[j]
				if u.Kind == lex.KPunct && (u.Text == ";" || u.Text == "{" || u.Text == "}") {
					break
				}
				if u.Kind == lex.KIdent {
					c.launched[u.Text] = true
				}
			}
		case t.BOL && t.Kind == lex.KPunct && t.Text == "#" && i+2 < len(toks) && toks[i+1].Text == "include" && toks[i+1].Pos.Line == t.Pos.Line:
			if name, ok := includeName(toks, i+2, t.Pos.Line); ok {
				c.includes[filepath.Base(name)] = true
			}
		}
	}
	return c
}

// kernelNameAfter is the kernel name of a __global__ whose next token is
// toks[i]: the first identifier followed by '(', before a ';' or '{'
// (512 tokens at most), an identifier starting with __ being an
// attribute whose parentheses are skipped.
func kernelNameAfter(toks []lex.Token, i int) (string, bool) {
	for end := min(len(toks), i+512); i < end; i++ {
		t := toks[i]
		if t.Kind == lex.KPunct && (t.Text == ";" || t.Text == "{") {
			return "", false
		}
		if t.Kind != lex.KIdent || i+1 >= len(toks) || toks[i+1].Text != "(" {
			continue
		}
		if !strings.HasPrefix(t.Text, "__") {
			return t.Text, true
		}
		depth := 0
		for i++; i < len(toks); i++ {
			switch toks[i].Text {
			case "(":
				depth++
			case ")":
				depth--
			}
			if depth == 0 {
				break
			}
		}
	}
	return "", false
}

// includeName is the name an #include's tokens from toks[i] spell on
// line: "name" or <name>.
func includeName(toks []lex.Token, i int, line int32) (string, bool) {
	t := toks[i]
	if t.Pos.Line != line {
		return "", false
	}
	if t.Kind == lex.KString && len(t.Text) >= 2 && t.Text[0] == '"' {
		return t.Text[1 : len(t.Text)-1], true
	}
	if t.Text != "<" {
		return "", false
	}
	var b strings.Builder
	for i++; i < len(toks) && toks[i].Pos.Line == line; i++ {
		if toks[i].Text == ">" {
			return b.String(), b.Len() > 0
		}
		b.WriteString(toks[i].Text)
	}
	return "", false
}

// IncludesBase reports whether src #includes a file of the base name
// given, as its tokens say (a name in a comment or string is none).
func IncludesBase(src []byte, base string) bool {
	return scanContext(src).includes[base]
}

// launchesAnyOf reports whether the file launches one of kernels.
func (c *contextFacts) launchesAnyOf(kernels map[string]bool) bool {
	for k := range kernels {
		if c.launched[k] {
			return true
		}
	}
	return false
}

// includesAnyOf reports whether the file includes one of the base names.
func (c *contextFacts) includesAnyOf(bases map[string]bool) bool {
	for b := range c.includes {
		if bases[b] {
			return true
		}
	}
	return false
}

// named are the kernels of a named file, whose text the run's ReadFile
// serves (an editor's buffer): kept while the text is the same.
func (c *ContextCache) named(path string, src []byte) *contextFacts {
	if c == nil {
		return kernelsOnly(src)
	}
	key := absPath(path)
	c.mu.Lock()
	e, ok := c.buffers[key]
	c.mu.Unlock()
	if ok && bytes.Equal(e.src, src) {
		return e.facts
	}
	f := kernelsOnly(src)
	c.mu.Lock()
	c.buffers[key] = bufferFacts{src, f}
	c.mu.Unlock()
	return f
}

type bufferFacts struct {
	src   []byte
	facts *contextFacts
}

type cachedFacts struct {
	mod   time.Time
	size  int64
	facts *contextFacts
}

// facts are path's context facts, read through read, from the cache
// while the file's modification time and size are unchanged: the index
// of a root that a server keeps between runs, each file scanned again
// only when it changed. A nil cache reads and scans every time.
func (c *ContextCache) facts(path string, read func(string) ([]byte, error)) (*contextFacts, error) {
	if c == nil {
		src, err := read(path)
		if err != nil {
			return nil, err
		}
		return scanContext(src), nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	key := absPath(path)
	c.mu.Lock()
	e, ok := c.scanned[key]
	c.mu.Unlock()
	if ok && e.mod.Equal(info.ModTime()) && e.size == info.Size() {
		return e.facts, nil
	}
	src, err := read(path)
	if err != nil {
		return nil, err
	}
	f := scanContext(src)
	c.mu.Lock()
	c.scanned[key] = cachedFacts{info.ModTime(), info.Size(), f}
	c.mu.Unlock()
	return f, nil
}
