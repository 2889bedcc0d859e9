package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	// heads are the byte spans the kernels' names are read from: each
	// __global__ to the token after the last one kernelNameAfter reads.
	heads []byteSpan
}

// byteSpan is the bytes [from, to) of a file.
type byteSpan struct{ from, to int }

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
			name, last, ok := kernelNameAfter(toks, i+1)
			if ok {
				c.kernels = append(c.kernels, name)
			}
			to := len(src)
			if last+1 < len(toks) {
				to = int(toks[last+1].End)
			}
			c.heads = append(c.heads, byteSpan{int(t.Pos.Offset), to})
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
// attribute whose parentheses are skipped. last is the index of the
// last token it read.
func kernelNameAfter(toks []lex.Token, i int) (name string, last int, ok bool) {
	end := min(len(toks), i+512)
	for ; i < end; i++ {
		t := toks[i]
		if t.Kind == lex.KPunct && (t.Text == ";" || t.Text == "{") {
			return "", i, false
		}
		if t.Kind != lex.KIdent || i+1 >= len(toks) || toks[i+1].Text != "(" {
			continue
		}
		if !strings.HasPrefix(t.Text, "__") {
			return t.Text, i + 1, true
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
	return "", max(i, end), false
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
	var f *contextFacts
	if ok {
		f = kernelsAfterEdit(e.src, e.facts, src)
	}
	if f == nil {
		f = kernelsOnly(src)
	}
	c.mu.Lock()
	c.buffers[key] = bufferFacts{src, f}
	c.mu.Unlock()
	return f
}

// kernelsAfterEdit is the kernels of new, an edit of old whose kernels
// (read by kernelsOnly) were facts, without lexing new: nil unless the
// edit cannot change them. That is so when the bytes the edit replaced
// and the bytes it wrote, widened to the identifiers they touch, are all
// identifier characters, blanks or operators that open no comment,
// string, character, directive or line splice, beside bytes that cannot
// join them into one, on a line with no '#' (so every token outside
// them lexes as before), lie clear of every kernel's head (so the tokens
// each name is read from are the same), and write no __global__. An
// editor's keystroke in a kernel's body is such an edit; the file is
// lexed again for any other.
func kernelsAfterEdit(old []byte, facts *contextFacts, new []byte) *contextFacts {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	a := p
	for a > 0 && isIdentByte(old[a-1]) {
		a--
	}
	b0, b1 := len(old)-s, len(new)-s
	for b0 < len(old) && isIdentByte(old[b0]) {
		b0++
		b1++
	}
	var before, after byte = ' ', ' '
	if a > 0 {
		before = old[a-1]
	}
	if b0 < len(old) {
		after = old[b0]
	}
	if !allInert(old[a:b0]) || !allInert(new[a:b1]) || bytes.Contains(new[a:b1], []byte("__global__")) ||
		!inertNeighbours(before, after) {
		return nil
	}
	// Nor may it make a line a directive or not one: no '#' on its line.
	ls := bytes.LastIndexByte(old[:a], '\n') + 1
	le0, le1 := len(old), len(new)
	if i := bytes.IndexByte(old[b0:], '\n'); i >= 0 {
		le0, le1 = b0+i, b1+i
	}
	if bytes.IndexByte(old[ls:le0], '#') >= 0 || bytes.IndexByte(new[ls:le1], '#') >= 0 {
		return nil
	}
	out := &contextFacts{kernels: facts.kernels}
	shift := b1 - b0
	for _, h := range facts.heads {
		switch {
		case h.to+2 <= a:
			out.heads = append(out.heads, h)
		case h.from >= b0+2:
			out.heads = append(out.heads, byteSpan{h.from + shift, h.to + shift})
		default:
			return nil // the edit touches a kernel's head
		}
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// inertNeighbours reports whether the bytes before and after an edit
// cannot make, with what it wrote or with each other once it deleted
// what stood between them, a comment's opening or end (/ and * on both
// sides), a splice, a directive, a string or a character (after a digit
// ' is a separator), nor carry a number written across the edit's end
// into the tokens after it (a number takes in '.', and '+' or '-' after
// an exponent's e).
func inertNeighbours(before, after byte) bool {
	const comment, never = "/*", "\\#\"'"
	return !strings.ContainsRune(never, rune(before)) && !strings.ContainsRune(never, rune(after)) &&
		!strings.ContainsRune(".+-", rune(after)) &&
		!(strings.ContainsRune(comment, rune(before)) && strings.ContainsRune(comment, rune(after)))
}

// allInert reports whether b holds only bytes that cannot change how
// the tokens around them lex, nor which tokens a kernel's name is read
// from: identifier characters, blanks, and operators other than the
// comment's, the brackets and ';' (no newline, quote, '#' or '\').
func allInert(b []byte) bool {
	for _, c := range b {
		if !isIdentByte(c) && !strings.ContainsRune(" \t+-=!&|^%~?:.,[]<>", rune(c)) {
			return false
		}
	}
	return true
}

type bufferFacts struct {
	src   []byte
	facts *contextFacts
}

// cachedScan is what a scan of a file found, with the modification time
// and size it was read at.
type cachedScan[T any] struct {
	mod   time.Time
	size  int64
	facts T
}

// facts are path's context facts, read through read, from the cache
// while the file's modification time and size are unchanged: the index
// of a root that a server keeps between runs, each file scanned again
// only when it changed. A nil cache reads and scans every time.
func (c *ContextCache) facts(path string, read func(string) ([]byte, error)) (*contextFacts, error) {
	if c == nil {
		return scanned(nil, nil, path, read, scanContext)
	}
	return scanned(&c.mu, c.scanned, path, read, scanContext)
}

// scanned is scan of path's text, from cache (under mu) while the file's
// modification time and size are those it was scanned at; a nil cache
// reads and scans every time.
func scanned[T any](mu *sync.Mutex, cache map[string]cachedScan[T], path string, read func(string) ([]byte, error), scan func([]byte) T) (T, error) {
	var zero T
	if cache == nil {
		src, err := read(path)
		if err != nil {
			return zero, err
		}
		return scan(src), nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return zero, err
	}
	key := absPath(path)
	mu.Lock()
	e, ok := cache[key]
	mu.Unlock()
	if ok && e.mod.Equal(info.ModTime()) && e.size == info.Size() {
		return e.facts, nil
	}
	src, err := read(path)
	if err != nil {
		return zero, err
	}
	f := scan(src)
	mu.Lock()
	cache[key] = cachedScan[T]{info.ModTime(), info.Size(), f}
	mu.Unlock()
	return f, nil
}
