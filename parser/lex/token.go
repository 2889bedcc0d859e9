// Package lex holds what the preprocessor and the parser share: tokens
// and their positions (Pos, Token, MacroOrigin), the notes and cudalint:
// directives met while reading, and the scanner that turns raw bytes into
// tokens, splicing lines and skipping comments without losing a byte
// offset. BlockTokens rescans a block as written, for fixes.
package lex

import (
	"fmt"
	"strconv"
	"strings"
)

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// bytes, as compilers do.
type Pos struct {
	File string
	// Line, Col and Offset are 32-bit: tokens carry a Pos each, and files
	// are far below 2 GB (the limits on input sizes see to it).
	Line   int32
	Col    int32
	Offset int32 // byte offset in the file
	// Sub tells apart the tokens one macro invocation produces, which
	// all stand at the invocation: the n-th token its expansions made
	// from macro bodies has Sub n (1-based), a token as written 0. Two
	// accesses, or two kernels, written in one macro's body are then two
	// places, not one, though they print alike. (It fills what would be
	// padding: a Pos stays 32 bytes.)
	Sub int32
}

func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// IsValid reports whether the position points somewhere.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Before reports whether p comes before q: by file name, then line, then
// column.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Kind classifies a token.
type Kind uint8

const (
	KEOF Kind = iota
	KIdent
	KNumber
	KString
	KChar
	KPunct
	KInvalid // a byte that starts no C token
)

var kindNames = [...]string{"EOF", "Ident", "Number", "String", "Char", "Punct", "Invalid"}

func (k Kind) String() string { return kindNames[k] }

// Token is one preprocessing token.
type Token struct {
	Text string
	Pos  Pos
	// Macro is the position of the outermost macro invocation this token
	// came from, when it was produced by macro expansion (the token's Pos
	// is then that of the invocation, so diagnostics point at user text;
	// for macro arguments Pos stays the argument's own position).
	Macro *MacroOrigin
	// End is the byte offset just after the token in its file.
	End  int32
	Kind Kind
	// BOL is set for the first token on a line; Space when white space
	// precedes the token. The preprocessor needs both.
	BOL, Space bool
	// Unroll is set on the first token after a #pragma unroll: what the
	// pragma asks of the loop that token starts.
	Unroll Unroll
}

// Unroll is what a #pragma unroll asks of the loop it stands before: a
// count of copies of the body (1 to MaxUnrollCount; #pragma unroll 1 keeps
// the loop rolled), every iteration (UnrollFull, a bare #pragma unroll),
// or a count the preprocessor cannot read (UnrollOther: a name, an
// expression). The zero value is no pragma. It fits in a byte so that
// tokens keep their size.
type Unroll uint8

const (
	UnrollNone     Unroll = 0
	MaxUnrollCount        = 253 // larger counts are read as this one
	UnrollOther    Unroll = 254
	UnrollFull     Unroll = 255
)

// UnrollCount is the Unroll for #pragma unroll n, n > 0.
func UnrollCount(n int64) Unroll {
	return Unroll(min(max(n, 1), MaxUnrollCount))
}

// Count is the count of copies the pragma gives, and whether it gives one.
func (u Unroll) Count() (int64, bool) {
	if u == UnrollNone || u >= UnrollOther {
		return 0, false
	}
	return int64(u), true
}

// EndPos is the position just after the token.
func (t Token) EndPos() Pos {
	return Pos{File: t.Pos.File, Line: t.Pos.Line, Col: t.Pos.Col + (t.End - t.Pos.Offset), Offset: t.End}
}

// MacroOrigin records where a token produced by macro expansion was written.
type MacroOrigin struct {
	Name string
	Def  Pos // where the token stands in the macro's definition
}

func (t Token) String() string { return t.Text }

// Note is a positioned message: an error the user should fix, or a remark
// about something the parser skipped.
type Note struct {
	Pos  Pos
	Msg  string
	Kind NoteKind
	// Subject is what the note is about where its kind's summary names it:
	// the function whose parameter or call, the struct, the directive.
	Subject string
}

func (n Note) Error() string { return n.Pos.String() + ": " + n.Msg }

// HiddenDefine is a #define the preprocessor skipped because the
// conditional around it was false (#ifdef GPU / #define BLOCK 512 /
// #endif without -D GPU): Cond is that directive as written. A name left
// undefined that such a define would have given can be explained by it.
type HiddenDefine struct {
	Name string
	Pos  Pos
	Cond string
}

// Directive is a comment that speaks to cudalint ("cudalint:block 16x16",
// "cudalint:ignore ..."): its position, the text after "cudalint:", and
// what that text asks, read once when the comment is scanned (see
// parseDirective).
type Directive struct {
	Pos  Pos
	Text string
	Verb DirectiveVerb
	// Rules are the rules an ignore or file-ignore names.
	Rules []string
	// Shape is a block directive's shape as written: "16x16".
	Shape string
}

// Notes is a list of notes, in the order they were found.
type Notes []Note

// AddKind adds a note of kind k.
func (ns *Notes) AddKind(k NoteKind, p Pos, format string, args ...any) {
	*ns = append(*ns, Note{Pos: p, Msg: fmt.Sprintf(format, args...), Kind: k})
}

// AddAbout adds a note of kind k about subject.
func (ns *Notes) AddAbout(k NoteKind, subject string, p Pos, format string, args ...any) {
	*ns = append(*ns, Note{Pos: p, Msg: fmt.Sprintf(format, args...), Kind: k, Subject: subject})
}

// ParseInt parses a C integer literal (decimal, hex, octal, binary; with
// u/l suffixes and ' separators).
func ParseInt(s string) (int64, bool) {
	s = strings.ReplaceAll(s, "'", "")
	s = strings.TrimRight(s, "uUlL")
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	u, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, false
	}
	return int64(u), true
}
