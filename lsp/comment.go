package lsp

import "bytes"

// An edit inside one comment changes nothing the analysis reads: the
// file's tokens, their lines and the columns of every token are those
// of the text before, and only the offsets after the comment move. Such
// an edit reuses the latest analysis, its offsets shifted, rather than
// running it again. A comment that is, or becomes, a cudalint:
// directive, one that a line splice could extend, and one with code
// after it on its line (whose columns would move) are analyzed again.

// shift is an edit's effect on offsets: those at or after at (in the
// text before the edit) move by delta.
type shift struct{ at, delta int }

// commentEdit reports whether new differs from old only inside one
// comment that ends its line, and how offsets move; the comment's span
// in old is the third result.
func commentEdit(old, new []byte) (shift, span, bool) {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	qo, qn := len(old)-s, len(new)-s
	if p == len(old) && p == len(new) {
		return shift{}, span{}, false // the same text: nothing to shift, and nothing to reuse it for
	}
	for _, region := range [][]byte{old[p:qo], new[p:qn]} {
		if bytes.ContainsAny(region, "\n\r\\") {
			return shift{}, span{}, false
		}
	}
	co, ok := commentAround(old, p, qo)
	if !ok {
		return shift{}, span{}, false
	}
	cn, ok := commentAround(new, p, qn)
	if !ok || cn.start != co.start {
		return shift{}, span{}, false
	}
	for _, c := range []struct {
		src  []byte
		span span
	}{{old, co}, {new, cn}} {
		if bytes.Contains(c.src[c.span.start:c.span.end], []byte("cudalint")) || !restOfLineBlank(c.src, c.span.end) {
			return shift{}, span{}, false
		}
	}
	return shift{at: qo, delta: qn - qo}, co, true
}

type span struct{ start, end int }

// commentAround finds the comment holding the bytes [p, q) of src, its
// delimiters excluded: [start, end) is the whole comment.
func commentAround(src []byte, p, q int) (span, bool) {
	if bytes.Contains(src, []byte(`R"`)) {
		return span{}, false // raw strings: not scanned here
	}
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"' || c == '\'':
			i = skipQuoted(src, i)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			end := i + 2
			for end < len(src) && src[end] != '\n' {
				end++
			}
			if i+2 <= p && q <= end {
				return span{i, end}, true
			}
			if i >= q {
				return span{}, false
			}
			i = end
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return span{}, false
			}
			end := i + 2 + j + 2
			if i+2 <= p && q <= end-2 {
				return span{i, end}, true
			}
			if i >= q {
				return span{}, false
			}
			i = end
		default:
			if i >= q {
				return span{}, false
			}
			i++
		}
	}
	return span{}, false
}

// skipQuoted returns the offset after the string or character literal
// opening at i (or the line's end, for one left open).
func skipQuoted(src []byte, i int) int {
	quote := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case quote:
			return i + 1
		case '\n':
			return i
		}
	}
	return i
}

func restOfLineBlank(src []byte, i int) bool {
	for ; i < len(src) && src[i] != '\n'; i++ {
		if src[i] != ' ' && src[i] != '\t' && src[i] != '\r' {
			return false
		}
	}
	return true
}

// off maps an offset of the analyzed text of the document's own file to
// the document's current text.
func (r *result) off(o int) int {
	for _, s := range r.shifts {
		if o >= s.at {
			o += s.delta
		}
	}
	return o
}
