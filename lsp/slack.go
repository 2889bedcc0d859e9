package lsp

import "bytes"

// An edit that changes a line's length moves every item after it: their
// tokens are the same, but at other offsets, so the parser's item cache
// misses them, and the memo keyed by those items interprets again every
// kernel and host function after the edit. The server keeps them where
// they were instead: what it analyzes is the buffer with the edit's
// change of length taken back at the end of a later line, from the
// slack there (the blanks after a statement's ';', or the tail of a line
// comment), or given to it as blanks. Every token keeps its spelling,
// line and column — only offsets after that line differ from the
// buffer's, and the analysis's offsets are mapped back (result.shifts).
//
// The analyzed text differs from the buffer only at the ends of lines
// that hold no token there, so its tokens, directives and macros are the
// buffer's: a cut holds no character that can open or close a comment, a
// string or a line splice, and the blanks added follow no '\'.

// patch says that the buffer's bytes [at, at+cut), which end a line, are
// pad blanks in the analyzed text. Offsets are the buffer's.
type patch struct{ at, cut, pad int }

// slackLines is how far past an edit the server looks for slack.
const slackLines = 400

// analyzedText is what the server analyzes for d (see above).
func (d *document) analyzedText() []byte {
	if d.ana != nil {
		return d.ana
	}
	return d.src
}

// retarget updates d's analyzed text after its buffer changed from old
// to d.src: the buffer's edit is made to the analyzed text too, and its
// change of length taken back at a later line's end where one has the
// slack. An edit that touches a patch makes the analyzed text the
// buffer itself again.
func (d *document) retarget(old []byte) {
	patches, ok := movePatches(old, d.src, d.patches)
	if ok {
		d.ana, d.patches = render(d.src, patches), patches
		return
	}
	d.ana, d.patches = nil, nil
}

// movePatches returns the patches that keep the offsets after an edit
// of old into new where they were.
func movePatches(old, new []byte, patches []patch) ([]patch, bool) {
	p, qo, qn := diffRegion(old, new)
	if p == qo && p == qn {
		return patches, true
	}
	if bytes.Contains(new, []byte(`R"`)) || bytes.IndexByte(new, '\r') >= 0 {
		return nil, false // raw strings and CR line ends: not scanned here
	}
	delta := (qn - p) - (qo - p)
	var out []patch
	for _, pt := range patches {
		switch {
		case pt.at+pt.cut < p:
			out = append(out, pt)
		case pt.at > qo:
			pt.at += delta
			out = append(out, pt)
		default:
			return nil, false // the edit touches a patch: start again from the buffer
		}
	}
	if delta == 0 || bytes.Count(old[p:qo], []byte("\n")) != bytes.Count(new[p:qn], []byte("\n")) {
		// A line added or removed moves every line after it: no slack
		// keeps their tokens where they were.
		return out, true
	}
	if kept, ok := compensate(new, out, qn+1, delta); ok {
		return kept, true
	}
	return out, true // no slack: the offsets after the edit move
}

// diffRegion is where old and new differ: old[p:qo] became new[p:qn].
func diffRegion(old, new []byte) (p, qo, qn int) {
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	return p, len(old) - s, len(new) - s
}

// compensate takes delta bytes back (or, negative, gives them) at the
// end of the first line ending after from that can take it.
func compensate(src []byte, patches []patch, from, delta int) ([]patch, bool) {
	sc := newLineScanner(src)
	for n := 0; n < slackLines; {
		ln, ok := sc.next()
		if !ok {
			return nil, false
		}
		if ln.end < from {
			continue
		}
		n++
		i, pt := patchAt(patches, ln.end)
		if pt, ok := absorb(src, ln, pt, from, delta); ok {
			return withPatch(patches, i, pt), true
		}
	}
	return nil, false
}

// patchAt finds the patch ending at a line's end, or where one would go.
func patchAt(patches []patch, end int) (int, patch) {
	for i, pt := range patches {
		if pt.at+pt.cut == end {
			return i, pt
		}
		if pt.at > end {
			return i, patch{at: end}
		}
	}
	return len(patches), patch{at: end}
}

// withPatch is patches with pt at i (replacing the one ending there).
func withPatch(patches []patch, i int, pt patch) []patch {
	out := append([]patch(nil), patches[:i]...)
	if pt.cut > 0 || pt.pad > 0 {
		out = append(out, pt)
	}
	rest := patches[i:]
	if len(rest) > 0 && rest[0].at+rest[0].cut == pt.at+pt.cut {
		rest = rest[1:]
	}
	return append(out, rest...)
}

// absorb is pt, the patch of line ln, changed to take delta bytes back
// from its pad and then from the line's slack (never before from), or
// to give -delta blanks more.
func absorb(src []byte, ln lineInfo, pt patch, from, delta int) (patch, bool) {
	if !ln.eligible {
		return pt, false
	}
	end := pt.at + pt.cut
	if delta < 0 {
		pt.pad -= delta
	} else {
		take := min(pt.pad, delta)
		pt.pad -= take
		pt.cut += delta - take
		pt.at = end - pt.cut
	}
	if pt.at < max(ln.slack, from) || pt.at > 0 && !cuttable(src[pt.at:end], src[pt.at-1]) {
		return patch{}, false
	}
	return pt, true
}

// cuttable reports whether the bytes cut, which end a line after before,
// can go without a token changing, were the scanner wrong about the line
// and they lay in a block comment: they hold no '*', so no comment's end
// goes with them, and what stays does not end with '\' (a splice).
func cuttable(cut []byte, before byte) bool {
	if before == '\\' || bytes.IndexByte(cut, '*') >= 0 {
		return false
	}
	return len(cut) == 0 || cut[0] != '/' || before != '*'
}

// render is src with patches made.
func render(src []byte, patches []patch) []byte {
	if len(patches) == 0 {
		return nil
	}
	var out []byte
	last := 0
	for _, pt := range patches {
		out = append(out, src[last:pt.at]...)
		out = append(out, bytes.Repeat([]byte{' '}, pt.pad)...)
		last = pt.at + pt.cut
	}
	return append(out, src[last:]...)
}

// shiftsOf maps the analyzed text's offsets to the buffer's: a patch's
// line end and what follows move by what it cut less what it padded.
// The shifts apply in turn (result.off), the last line's first.
func shiftsOf(patches []patch) []shift {
	out := make([]shift, len(patches))
	moved := 0
	for i, pt := range patches {
		moved += pt.cut - pt.pad
		out[len(patches)-1-i] = shift{at: pt.at + pt.cut - moved, delta: pt.cut - pt.pad}
	}
	return out
}

// lineInfo is what the slack scanner found of one line.
type lineInfo struct {
	start, end int // end: its '\n' (or the text's end)
	// eligible: the line may give or take slack at its end: it begins
	// and ends outside comments and brackets, holds no quote, is no
	// directive nor a directive's continuation, its code ends with ';'
	// (or it has none, and the code before it ended a statement or a
	// directive: no expression spans it), and a comment ending it names
	// no cudalint.
	eligible bool
	// slack is where the bytes it can give begin: after its code's ';'
	// or after the '//' of its comment.
	slack int
}

// lineScanner reads a text line by line, keeping whether a block
// comment is open and how deep brackets are.
type lineScanner struct {
	src     []byte
	i       int
	inBlock bool
	depth   int
	spliced bool // the line before ended with '\'
	// boundary: the code so far ends a statement, a block or a directive.
	boundary bool
}

func newLineScanner(src []byte) *lineScanner { return &lineScanner{src: src, boundary: true} }

func (s *lineScanner) next() (lineInfo, bool) {
	if s.i > len(s.src) || s.i == len(s.src) && s.i > 0 {
		return lineInfo{}, false
	}
	start := s.i
	end := bytes.IndexByte(s.src[start:], '\n')
	if end < 0 {
		end = len(s.src)
	} else {
		end += start
	}
	line := s.src[start:end]
	ln := lineInfo{start: start, end: end}
	startsClean := !s.inBlock && !s.spliced && s.depth == 0
	comment, lastCode, quoted := -1, byte(0), false
	codeEnd := start
	for j := 0; j < len(line); j++ {
		c := line[j]
		if s.inBlock {
			if c == '*' && j+1 < len(line) && line[j+1] == '/' {
				s.inBlock = false
				j++
			}
			continue
		}
		switch {
		case c == '/' && j+1 < len(line) && line[j+1] == '/':
			comment = start + j
			j = len(line)
		case c == '/' && j+1 < len(line) && line[j+1] == '*':
			s.inBlock = true
			j++
		case c == '"' || c == '\'':
			quoted = true
			j = skipQuoted(line, j) - 1
		case c == '(' || c == '[':
			s.depth++
		case c == ')' || c == ']':
			s.depth--
		}
		if comment < 0 && c != ' ' && c != '\t' {
			lastCode, codeEnd = c, start+j+1
		}
	}
	trimmed := bytes.TrimLeft(line, " \t")
	directive := len(trimmed) > 0 && trimmed[0] == '#'
	ln.eligible = startsClean && !s.inBlock && s.depth == 0 && !quoted && !directive &&
		(lastCode == 0 && s.boundary || lastCode == ';')
	if lastCode != 0 || directive {
		s.boundary = directive || lastCode == ';' || lastCode == '{' || lastCode == '}'
	}
	if comment >= 0 {
		ln.slack = comment + 2
		ln.eligible = ln.eligible && !bytes.Contains(s.src[comment:end], []byte("cudalint"))
	} else {
		ln.slack = codeEnd
	}
	s.spliced = len(line) > 0 && line[len(line)-1] == '\\'
	ln.eligible = ln.eligible && !s.spliced
	s.i = end + 1
	return ln, true
}

// fixTouchesPatch reports whether a fix of d's latest analysis edits a
// line of d that the analyzed text patched.
func fixTouchesPatch(d *document) bool {
	if len(d.patches) == 0 || d.res.rep.Result == nil {
		return false
	}
	ana := d.analyzedText()
	var lines [][2]int // the patched lines, in the analyzed text
	for _, sh := range shiftsOf(d.patches) {
		lines = append(lines, [2]int{bytes.LastIndexByte(ana[:sh.at], '\n') + 1, sh.at})
	}
	fset := d.res.rep.Fset
	for _, f := range d.res.findings {
		if f == nil {
			continue
		}
		for _, fx := range f.SuggestedFixes {
			for _, e := range fx.TextEdits {
				a := fset.Position(e.Pos)
				b := a
				if e.End.IsValid() {
					b = fset.Position(e.End)
				}
				if absPath(a.Filename) != d.path {
					continue
				}
				for _, l := range lines {
					if a.Offset <= l[1] && b.Offset >= l[0] {
						return true
					}
				}
			}
		}
	}
	return false
}
