package lsp

import (
	"sort"
	"unicode/utf8"
)

// Position encodings (LSP 3.17 general.positionEncodings): what a
// Position's character counts. UTF-16 code units is the protocol's
// default and what every client understands.
const (
	encUTF8  = "utf-8"
	encUTF16 = "utf-16"
	encUTF32 = "utf-32"
)

// chooseEncoding picks from what the client offers: UTF-8 when offered
// (cudalint's own columns are bytes, so nothing is converted), else
// UTF-32, else the default, UTF-16.
func chooseEncoding(offered []string) string {
	for _, want := range []string{encUTF8, encUTF32} {
		for _, e := range offered {
			if e == want {
				return want
			}
		}
	}
	return encUTF16
}

// text is a document's content with its line table.
type text struct {
	src   []byte
	lines []int // byte offset of each line's start
}

func newText(src []byte) *text {
	t := &text{src: src, lines: []int{0}}
	for i, b := range src {
		if b == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// units counts s in the encoding's code units.
func units(s []byte, enc string) int {
	switch enc {
	case encUTF8:
		return len(s)
	case encUTF32:
		return utf8.RuneCount(s)
	}
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// position converts a byte offset to a Position.
func (t *text) position(off int, enc string) Position {
	off = max(0, min(off, len(t.src)))
	line := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	return Position{Line: line, Character: units(t.src[t.lines[line]:off], enc)}
}

// offset converts a Position to a byte offset, clamped to the line (a
// character past its end is its end, as the protocol says) and the text.
func (t *text) offset(p Position, enc string) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(t.lines) {
		return len(t.src)
	}
	start := t.lines[p.Line]
	end := len(t.src)
	if p.Line+1 < len(t.lines) {
		end = t.lines[p.Line+1] - 1 // the '\n'
		if end > start && t.src[end-1] == '\r' {
			end--
		}
	}
	off, n := start, 0
	for off < end && n < p.Character {
		r, size := utf8.DecodeRune(t.src[off:end])
		switch {
		case enc == encUTF8:
			n += size
		case enc == encUTF16 && r >= 0x10000:
			n += 2
		default:
			n++
		}
		off += size
	}
	return off
}

func (t *text) rangeOf(start, end int, enc string) Range {
	return Range{Start: t.position(start, enc), End: t.position(end, enc)}
}

// lineText returns line i without its end of line.
func (t *text) lineText(i int) []byte {
	if i < 0 || i >= len(t.lines) {
		return nil
	}
	end := len(t.src)
	if i+1 < len(t.lines) {
		end = t.lines[i+1] - 1
	}
	s := t.src[t.lines[i]:end]
	if n := len(s); n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	return s
}

// applyChange applies one content change to src.
func applyChange(src []byte, c TextDocumentContentChangeEvent, enc string) []byte {
	if c.Range == nil {
		return []byte(c.Text)
	}
	t := newText(src)
	a, b := t.offset(c.Range.Start, enc), t.offset(c.Range.End, enc)
	if b < a {
		a, b = b, a
	}
	out := make([]byte, 0, len(src)-(b-a)+len(c.Text))
	out = append(out, src[:a]...)
	out = append(out, c.Text...)
	return append(out, src[b:]...)
}
