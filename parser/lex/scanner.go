package lex

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Scan splits src into preprocessing tokens. It never fails: bytes that
// start no C token become KInvalid tokens, and an unterminated literal or
// comment runs to the end of its line (or file) with a note.
func Scan(file string, src []byte, notes *Notes) []Token {
	return scanDirectives(file, src, notes, nil)
}

// scanDirectives is scan that also collects cudalint: comments.
func scanDirectives(file string, src []byte, notes *Notes, dirs *[]Directive) []Token {
	s := NewScanner(file, src, notes, dirs)
	toks := make([]Token, 0, len(src)/4+16) // C averages a token per 3 to 4 bytes
	for {
		t, ok := s.Next()
		if !ok {
			return toks
		}
		toks = append(toks, t)
	}
}

func NewScanner(file string, src []byte, notes *Notes, dirs *[]Directive) *Scanner {
	s := &Scanner{file: file, src: src, line: 1, col: 1, notes: notes, bol: true, dirs: dirs}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.off = 3 // byte-order mark
	}
	return s
}

type Scanner struct {
	file      string
	src       []byte
	off       int
	line, col int
	notes     *Notes
	dirs      *[]Directive
	bol       bool
	space     bool
}

func (s *Scanner) pos() Pos {
	return Pos{File: s.file, Line: int32(s.line), Col: int32(s.col), Offset: int32(s.off)}
}

// peek returns the byte at off+k after skipping backslash-newlines, and the
// raw length consumed up to and including it.
func (s *Scanner) peekAt(k int) byte {
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

func (s *Scanner) skipSplices(i int) int {
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
func (s *Scanner) advance() byte {
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

func (s *Scanner) atEOF() bool { return s.skipSplices(s.off) >= len(s.src) }

// Next returns the Next token. The common bytes (white space, comments,
// identifiers, numbers, operators) are read straight from src; a line
// splice (backslash-newline) anywhere near sends the scanner down the
// byte-at-a-time path that steps over splices, which is exact but slow.
func (s *Scanner) Next() (Token, bool) {
	s.space = false
	for s.off < len(s.src) {
		switch c := s.src[s.off]; c {
		case '\n':
			s.off++
			s.line++
			s.col = 1
			s.bol = true
			s.space = true
		case ' ', '\t', '\r', '\f', '\v':
			s.off++
			s.col++
			s.space = true
		case '\\':
			j := s.skipSplices(s.off)
			if j == s.off {
				return s.token(), true
			}
			s.moveTo(j) // a splice between tokens is not white space
		case '/':
			switch s.peekAt(1) {
			case '/':
				s.lineComment()
			case '*':
				s.blockComment()
			default:
				return s.token(), true
			}
		default:
			return s.token(), true
		}
	}
	return Token{}, false
}

// moveTo advances to offset j, counting the newlines on the way.
func (s *Scanner) moveTo(j int) {
	span := s.src[s.off:j]
	if n := bytes.Count(span, newline); n > 0 {
		s.line += n
		s.col = len(span) - bytes.LastIndexByte(span, '\n')
	} else {
		s.col += len(span)
	}
	s.off = j
}

var newline = []byte{'\n'}

// lineComment skips a // comment up to (not through) its newline; a
// backslash before the newline continues the comment on the next line.
func (s *Scanner) lineComment() {
	p, start := s.pos(), s.off
	j := s.off
	for {
		i := bytes.IndexByte(s.src[j:], '\n')
		if i < 0 {
			j = len(s.src)
			break
		}
		j += i
		k := j - 1
		if k >= start && s.src[k] == '\r' {
			k--
		}
		if k < start || s.src[k] != '\\' {
			break
		}
		j++ // a spliced newline: the comment goes on
	}
	s.moveTo(j)
	s.directive(p, s.src[start:j])
	s.space = true
}

// blockComment skips a /* */ comment.
func (s *Scanner) blockComment() {
	p, start := s.pos(), s.off
	body := s.src[s.off+2:]
	end := bytes.Index(body, []byte("*/"))
	if end >= 0 && !bytes.Contains(body[:end+1], []byte("\\\n")) && !bytes.Contains(body[:end+1], []byte("\\\r\n")) {
		s.moveTo(s.off + 2 + end + 2)
	} else if !s.blockCommentSlow() {
		s.notes.AddKind(NoteUnterminatedComment, p, "unterminated comment")
	}
	s.directive(p, s.src[start:s.off])
	s.space = true
}

// blockCommentSlow steps through a comment with line splices in it (where
// "*\<newline>/" closes it), reporting whether it was closed.
func (s *Scanner) blockCommentSlow() bool {
	s.advance()
	s.advance()
	for !s.atEOF() {
		if s.peekAt(0) == '*' && s.peekAt(1) == '/' {
			s.advance()
			s.advance()
			return true
		}
		s.advance()
	}
	return false
}

func (s *Scanner) token() Token {
	t := Token{Pos: s.pos(), BOL: s.bol, Space: s.space}
	s.bol = false
	start := s.off
	if t.Kind = s.tokenFast(); t.Kind == KEOF {
		t.Kind = s.tokenSlow(start)
	}
	t.Text = s.text(s.src[start:s.off])
	t.End = int32(s.off)
	if op, ok := alternativeTokens[t.Text]; ok && t.Kind == KIdent {
		t.Kind, t.Text = KPunct, op
	}
	return t
}

// alternativeTokens are C++'s spellings of operators as words: `if (M >=
// 128 and N >= 128)` is `&&`. They are operators, not identifiers, in
// every C++ translation unit (and so in every CUDA one).
var alternativeTokens = map[string]string{
	"and": "&&", "or": "||", "not": "!", "not_eq": "!=", "bitand": "&", "bitor": "|",
	"xor": "^", "compl": "~", "and_eq": "&=", "or_eq": "|=", "xor_eq": "^=",
}

// tokenFast reads an identifier, a number or an operator with no line
// splice in it, or returns KEOF, having read nothing, for anything else.
func (s *Scanner) tokenFast() Kind {
	src, i := s.src, s.off
	c := src[i]
	var k Kind
	switch {
	case isIdentStart(c):
		for i < len(src) && isIdentChar(src[i]) {
			i++
		}
		k = KIdent
	case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
		for i < len(src) {
			c := src[i]
			if !isIdentChar(c) && c != '.' && c != '\'' {
				break
			}
			i++
			if (c == 'e' || c == 'E' || c == 'p' || c == 'P') && i < len(src) && (src[i] == '+' || src[i] == '-') {
				i++
			}
		}
		k = KNumber
	default:
		n := punctLenBytes(src[i:min(i+3, len(src))])
		if n == 0 {
			return KEOF
		}
		i += n
		k = KPunct
	}
	if i < len(src) && (src[i] == '\\' || (k == KIdent && (src[i] == '"' || src[i] == '\''))) {
		return KEOF // a splice, or a literal's prefix (L"..."): the slow path knows
	}
	s.col += i - s.off
	s.off = i
	return k
}

// punctLenBytes is the length of the operator at the start of b, or 0
// when b starts with no operator or with a backslash.
func punctLenBytes(b []byte) int {
	if len(b) == 0 || !isPunctByte(b[0]) {
		return 0
	}
	if len(b) < 2 || !isPunctByte(b[1]) {
		return 1 // most operators: one byte before a name, a digit or a space
	}
	if len(b) >= 3 {
		for _, p := range puncts3 {
			if b[0] == p[0] && b[1] == p[1] && b[2] == p[2] {
				return 3
			}
		}
	}
	for _, p := range puncts2 {
		if b[0] == p[0] && b[1] == p[1] {
			return 2
		}
	}
	return 1
}

var punctBytes = func() (t [256]bool) {
	for _, c := range []byte("{}[]()<>;:,.?~!%^&*-+=|/#@$`") {
		t[c] = true
	}
	return t
}()

func isPunctByte(c byte) bool { return punctBytes[c] }

// tokenSlow reads the token at start byte by byte, stepping over splices.
func (s *Scanner) tokenSlow(start int) Kind {
	c := s.peekAt(0)
	switch {
	case isIdentStart(c):
		for isIdentChar(s.peekAt(0)) {
			s.advance()
		}
		// Raw strings, R"(..)" and u8R"d(..)d": their body may hold quotes,
		// backslashes and newlines that mean nothing.
		if s.peekAt(0) == '"' && isRawPrefix(s.text(s.src[start:s.off])) {
			s.raw()
			return KString
		}
		// String and char prefixes: L"..", u8"..".
		if q := s.peekAt(0); (q == '"' || q == '\'') && isLiteralPrefix(s.text(s.src[start:s.off])) {
			s.quoted(s.advance())
			if q == '\'' {
				return KChar
			}
			return KString
		}
		return KIdent
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
		return KNumber
	case c == '"' || c == '\'':
		s.quoted(s.advance())
		if c == '\'' {
			return KChar
		}
		return KString
	case c >= 0x80:
		// Non-ASCII outside literals: one invalid token per rune (or byte, when not UTF-8).
		_, size := utf8.DecodeRune(s.src[s.off:])
		for k := 0; k < size; k++ {
			s.advance()
		}
		return KInvalid
	}
	n := punctLen(s)
	for k := 0; k < n; k++ {
		s.advance()
	}
	if n == 1 && !strings.ContainsRune("{}[]()<>;:,.?~!%^&*-+=|/#@$`\\", rune(c)) {
		return KInvalid
	}
	return KPunct
}

// text returns a token's spelling: the raw bytes without line splices.
// A token without splices (nearly all) is a string over src itself, not
// a copy: a file's bytes are never written after they are read, and they
// live as long as the analysis that holds its tokens.
func (s *Scanner) text(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	if bytes.IndexByte(raw, '\\') >= 0 {
		return string(splices.ReplaceAll(raw, nil))
	}
	return unsafe.String(&raw[0], len(raw))
}

var splices = regexp.MustCompile(`\\\r?\n`)

func isLiteralPrefix(s string) bool {
	switch s {
	case "L", "u", "U", "u8":
		return true
	}
	return false
}

func isRawPrefix(s string) bool {
	switch s {
	case "R", "LR", "uR", "UR", "u8R":
		return true
	}
	return false
}

// raw consumes a raw string literal from its opening quote: the
// delimiter up to '(' (at most 16 characters, none of them space, '\\'
// or parentheses), then everything up to ')' delimiter '"'. A malformed
// delimiter is read as an ordinary string, as compilers recover.
func (s *Scanner) raw() {
	p := s.pos()
	s.advance() // the opening quote
	rest := s.src[s.off:]
	open := bytes.IndexByte(rest, '(')
	if open < 0 || open > 16 || bytes.ContainsAny(rest[:open], " )\\\t\v\f\n\"") {
		s.quoted('"')
		return
	}
	closing := append(append([]byte{')'}, rest[:open]...), '"')
	end := bytes.Index(rest[open+1:], closing)
	if end < 0 {
		s.moveTo(len(s.src))
		s.notes.AddKind(NoteUnterminatedString, p, "unterminated raw string literal")
		return
	}
	s.moveTo(s.off + open + 1 + end + len(closing))
}

// quoted consumes a string or character literal whose opening quote q was
// already consumed.
func (s *Scanner) quoted(q byte) {
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
	if q == '"' {
		s.notes.AddKind(NoteUnterminatedString, p, "unterminated string literal")
	} else {
		s.notes.AddKind(NoteUnterminatedChar, p, "unterminated character literal")
	}
}

var puncts3 = []string{"<<<", ">>>", "<<=", ">>=", "...", "->*"}
var puncts2 = []string{"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "::", ".*"}

func punctLen(s *Scanner) int {
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
func (s *Scanner) directive(p Pos, comment []byte) {
	if s.dirs == nil {
		return
	}
	text := string(comment)
	i := strings.Index(text, "cudalint:")
	if i < 0 {
		return
	}
	text = strings.TrimSuffix(strings.TrimSpace(text[i+len("cudalint:"):]), "*/")
	*s.dirs = append(*s.dirs, parseDirective(p, strings.TrimSpace(text)))
}

// CountKernelDefinitions counts __global__ function definitions in src by
// its raw tokens, before preprocessing: an independent check on how many
// kernels the parser should find. A __global__ followed by '{' before any
// ';' at parenthesis depth 0 is a definition.
func CountKernelDefinitions(src []byte) int {
	var notes Notes
	toks := Scan("", src, &notes)
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
