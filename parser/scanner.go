package parser

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"
)

// scan splits src into preprocessing tokens. It never fails: bytes that
// start no C token become KInvalid tokens, and an unterminated literal or
// comment runs to the end of its line (or file) with a note.
func scan(file string, src []byte, notes *Notes) []Token {
	return scanDirectives(file, src, notes, nil)
}

// scanDirectives is scan that also collects cudalint: comments.
func scanDirectives(file string, src []byte, notes *Notes, dirs *[]Directive) []Token {
	s := scanner{file: file, src: src, line: 1, col: 1, notes: notes, bol: true, dirs: dirs, intern: map[string]string{}}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.off = 3 // byte-order mark
	}
	toks := make([]Token, 0, len(src)/3+16) // C averages a token per 3 to 4 bytes
	for {
		t, ok := s.next()
		if !ok {
			return toks
		}
		toks = append(toks, t)
	}
}

type scanner struct {
	file      string
	src       []byte
	off       int
	line, col int
	notes     *Notes
	dirs      *[]Directive
	bol       bool
	space     bool
	// intern maps token spellings to one shared string: a kernel file
	// repeats the same few hundred names and operators thousands of times.
	intern map[string]string
}

func (s *scanner) pos() Pos { return Pos{File: s.file, Line: s.line, Col: s.col, Offset: s.off} }

// peek returns the byte at off+k after skipping backslash-newlines, and the
// raw length consumed up to and including it.
func (s *scanner) peekAt(k int) byte {
	i := s.off
	for {
		i = s.skipSplices(i)
		if i >= len(s.src) {
			return 0
		}
		if k == 0 {
			return s.src[i]
		}
		k--
		i++
	}
}

func (s *scanner) skipSplices(i int) int {
	for i < len(s.src) && s.src[i] == '\\' {
		j := i + 1
		if j < len(s.src) && s.src[j] == '\r' {
			j++
		}
		if j < len(s.src) && s.src[j] == '\n' {
			i = j + 1
			continue
		}
		break
	}
	return i
}

// advance consumes one logical byte, keeping line and column exact.
func (s *scanner) advance() byte {
	j := s.skipSplices(s.off)
	for s.off < j { // step over line splices, counting their newlines
		if s.src[s.off] == '\n' {
			s.line++
			s.col = 1
		} else {
			s.col++
		}
		s.off++
	}
	if s.off >= len(s.src) {
		return 0
	}
	c := s.src[s.off]
	s.off++
	if c == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	return c
}

func (s *scanner) atEOF() bool { return s.skipSplices(s.off) >= len(s.src) }

func (s *scanner) next() (Token, bool) {
	s.space = false
	for !s.atEOF() {
		c := s.peekAt(0)
		switch {
		case c == '\n':
			s.advance()
			s.bol = true
			s.space = true
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.advance()
			s.space = true
		case c == '/' && s.peekAt(1) == '/':
			p, start := s.pos(), s.off
			for !s.atEOF() && s.peekAt(0) != '\n' {
				s.advance()
			}
			s.directive(p, s.src[start:s.off])
			s.space = true
		case c == '/' && s.peekAt(1) == '*':
			p, start := s.pos(), s.off
			s.advance()
			s.advance()
			closed := false
			defer func() { s.directive(p, s.src[start:min(s.off, len(s.src))]) }()
			for !s.atEOF() {
				if s.peekAt(0) == '*' && s.peekAt(1) == '/' {
					s.advance()
					s.advance()
					closed = true
					break
				}
				s.advance()
			}
			if !closed {
				s.notes.add(p, "unterminated comment")
			}
			s.space = true
		default:
			return s.token(), true
		}
	}
	return Token{}, false
}

func (s *scanner) token() Token {
	t := Token{Pos: s.pos(), BOL: s.bol, Space: s.space}
	s.bol = false
	start := s.off
	c := s.peekAt(0)
	switch {
	case isIdentStart(c):
		for isIdentChar(s.peekAt(0)) {
			s.advance()
		}
		t.Kind = KIdent
		// String and char prefixes: L"..", u8"..".
		if q := s.peekAt(0); (q == '"' || q == '\'') && isLiteralPrefix(string(s.src[start:s.off])) {
			s.quoted(s.advance())
			t.Kind = KString
			if q == '\'' {
				t.Kind = KChar
			}
		}
	case isDigit(c) || (c == '.' && isDigit(s.peekAt(1))):
		for {
			c := s.peekAt(0)
			if isIdentChar(c) || c == '.' || c == '\'' {
				s.advance()
				if (c == 'e' || c == 'E' || c == 'p' || c == 'P') && (s.peekAt(0) == '+' || s.peekAt(0) == '-') {
					s.advance()
				}
				continue
			}
			break
		}
		t.Kind = KNumber
	case c == '"' || c == '\'':
		s.quoted(s.advance())
		t.Kind = KString
		if c == '\'' {
			t.Kind = KChar
		}
	case c >= 0x80:
		// Non-ASCII outside literals: one invalid token per rune (or byte, when not UTF-8).
		_, size := utf8.DecodeRune(s.src[s.off:])
		for k := 0; k < size; k++ {
			s.advance()
		}
		t.Kind = KInvalid
	default:
		n := punctLen(s)
		for k := 0; k < n; k++ {
			s.advance()
		}
		t.Kind = KPunct
		if n == 1 && !strings.ContainsRune("{}[]()<>;:,.?~!%^&*-+=|/#@$`\\", rune(c)) {
			t.Kind = KInvalid
		}
	}
	t.Text = s.text(s.src[start:s.off])
	t.End = s.off
	return t
}

// text returns a token's spelling: the raw bytes without line splices,
// interned.
func (s *scanner) text(raw []byte) string {
	if bytes.IndexByte(raw, '\\') >= 0 {
		raw = splices.ReplaceAll(raw, nil)
	}
	if t, ok := s.intern[string(raw)]; ok {
		return t
	}
	t := string(raw)
	s.intern[t] = t
	return t
}

var splices = regexp.MustCompile(`\\\r?\n`)

func isLiteralPrefix(s string) bool {
	switch s {
	case "L", "u", "U", "u8":
		return true
	}
	return false
}

// quoted consumes a string or character literal whose opening quote q was
// already consumed.
func (s *scanner) quoted(q byte) {
	p := s.pos()
	for !s.atEOF() {
		c := s.peekAt(0)
		if c == '\n' {
			break
		}
		s.advance()
		if c == '\\' && !s.atEOF() && s.peekAt(0) != '\n' {
			s.advance()
			continue
		}
		if c == q {
			return
		}
	}
	s.notes.add(p, "unterminated %s literal", map[byte]string{'"': "string", '\'': "character"}[q])
}

var puncts3 = []string{"<<<", ">>>", "<<=", ">>=", "...", "->*"}
var puncts2 = []string{"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "::", ".*"}

func punctLen(s *scanner) int {
	a, b, c := s.peekAt(0), s.peekAt(1), s.peekAt(2)
	for _, p := range puncts3 {
		if a == p[0] && b == p[1] && c == p[2] {
			return 3
		}
	}
	for _, p := range puncts2 {
		if a == p[0] && b == p[1] {
			return 2
		}
	}
	return 1
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }
func isDigit(c byte) bool     { return c >= '0' && c <= '9' }

// directive records a comment that holds "cudalint:".
func (s *scanner) directive(p Pos, comment []byte) {
	if s.dirs == nil {
		return
	}
	text := string(comment)
	i := strings.Index(text, "cudalint:")
	if i < 0 {
		return
	}
	text = strings.TrimSuffix(strings.TrimSpace(text[i+len("cudalint:"):]), "*/")
	*s.dirs = append(*s.dirs, Directive{Pos: p, Text: strings.TrimSpace(text)})
}

// CountKernelDefinitions counts __global__ function definitions in src by
// its raw tokens, before preprocessing: an independent check on how many
// kernels the parser should find. A __global__ followed by '{' before any
// ';' at parenthesis depth 0 is a definition.
func CountKernelDefinitions(src []byte) int {
	var notes Notes
	toks := scan("", src, &notes)
	n := 0
	for i, t := range toks {
		if t.Text != "__global__" || t.Kind != KIdent {
			continue
		}
		depth := 0
	scanTo:
		for _, u := range toks[i+1:] {
			switch u.Text {
			case "(":
				depth++
			case ")":
				depth--
			case ";":
				if depth <= 0 {
					break scanTo
				}
			case "{":
				if depth <= 0 {
					n++
					break scanTo
				}
			}
		}
	}
	return n
}
