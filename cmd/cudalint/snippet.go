package main

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A source line is shown cut to a window around the caret: a one-line
// file of a megabyte once printed the whole line under every finding in
// it.
const (
	snippetWidth   = 160 // columns of source shown at most
	snippetContext = 60  // columns kept left of the caret when the line is cut
)

// snippet renders a finding's source line and the caret line under it.
// line is the line's bytes; from and to are the byte offsets in it of
// the underlined span (to <= from underlines one character). Each
// character is drawn as escape draws it (a tab as one space, so columns
// keep their place), so the caret lands under the character it means
// even after escapes, multi-byte characters or a cut.
func snippet(line []byte, from, to int) (text, caret string) {
	from = min(max(from, 0), len(line))
	to = min(max(to, from), len(line))
	// At most four bytes a character: no more than this is ever shown.
	lo, hi := runeStart(line, from-4*snippetWidth), runeStart(line, from+4*snippetWidth)
	cells, at := render(line[lo:hi], from-lo, to-lo)
	first, last := window(cells, at.from)
	leftCut, rightCut := lo > 0 || first > 0, hi < len(line) || last < len(cells)
	guardCells(cells[first:last])
	var b strings.Builder
	col := 0
	if leftCut {
		b.WriteString("…")
		col = 1
	}
	start, width := col, 0
	for i := first; i < last; i++ {
		switch {
		case i < at.from:
			start += runeLen(cells[i])
		case i < at.to || i == at.from:
			width += runeLen(cells[i])
		}
		b.WriteString(cells[i])
	}
	if rightCut {
		b.WriteString("…")
	}
	return b.String(), strings.Repeat(" ", start) + "^" + strings.Repeat("~", max(width, 1)-1)
}

// span is the underlined cells, from inclusive, to exclusive.
type span struct{ from, to int }

// render splits src into cells, one for each character as printed, and
// finds the cells of the bytes from and to.
func render(src []byte, from, to int) ([]string, span) {
	var cells []string
	at := span{-1, -1}
	for i := 0; i < len(src); {
		if at.from < 0 && i >= from {
			at.from = len(cells)
		}
		if at.to < 0 && i >= to {
			at.to = len(cells)
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == '\t' {
			cells = append(cells, " ")
		} else {
			cells = append(cells, escapeRune(r, string(src[i:i+size])))
		}
		i += size
	}
	if at.from < 0 {
		at.from = len(cells)
	}
	if at.to < 0 {
		at.to = len(cells)
	}
	return cells, at
}

// window picks the cells shown: all when they fit, otherwise up to
// snippetWidth columns starting snippetContext columns left of the caret
// (or fewer when the line ends first).
func window(cells []string, caret int) (first, last int) {
	if total(cells) <= snippetWidth {
		return 0, len(cells)
	}
	first, used := caret, 0
	for first > 0 && used+runeLen(cells[first-1]) <= snippetContext {
		first--
		used += runeLen(cells[first])
	}
	last = caret
	for last < len(cells) && used+runeLen(cells[last]) <= snippetWidth {
		used += runeLen(cells[last])
		last++
	}
	for first > 0 && used+runeLen(cells[first-1]) <= snippetWidth {
		first--
		used += runeLen(cells[first])
	}
	return first, last
}

// guardCells keeps a shown source line from being a GitHub workflow
// command: "::" as its first non-blank characters, or "##[" anywhere,
// have a character escaped.
func guardCells(cells []string) {
	for i, c := range cells {
		if c == " " || (len(c) > 0 && unicode.IsSpace([]rune(c)[0])) {
			continue
		}
		if c == ":" && i+1 < len(cells) && cells[i+1] == ":" {
			cells[i] = `\x3a`
		}
		break
	}
	for i := 2; i < len(cells); i++ {
		if cells[i] == "[" && cells[i-1] == "#" && cells[i-2] == "#" {
			cells[i] = `\x5b`
		}
	}
}

func total(cells []string) int {
	n := 0
	for _, c := range cells {
		n += runeLen(c)
	}
	return n
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// runeStart clamps i to src and moves it back to the start of a character.
func runeStart(src []byte, i int) int {
	i = min(max(i, 0), len(src))
	for i > 0 && i < len(src) && !utf8.RuneStart(src[i]) {
		i--
	}
	return i
}
