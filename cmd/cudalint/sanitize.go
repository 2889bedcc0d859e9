package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cudalint/cudalint/internal/report"
)

// Text quoted from the analyzed source (expressions, file names, parser
// notes) reaches terminals and CI logs. A comment inside an index
// expression can hold newlines, escape sequences or a GitHub workflow
// command, and one expression can be a megabyte long. Everything printed
// from the source therefore goes through escape, and is cut short.
const (
	maxExcerpt = 120  // characters of one quoted piece of source
	maxMessage = 1000 // characters of one message or note
)

// escape makes s printable on one line: control characters (C0, DEL,
// C1), Unicode line and paragraph separators, bidirectional controls
// and bytes that are not UTF-8 are written as Go-style escapes, and the
// GitHub runner's old command prefix "##[" (obeyed anywhere in a line)
// is broken up.
func escape(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '[' && strings.HasSuffix(b.String(), "##") {
			b.WriteString(`\x5b`)
		} else {
			b.WriteString(escapeRune(r, s[i:i+size]))
		}
		i += size
	}
	return b.String()
}

// isPlain: the common case of printable ASCII with no "##[" costs no copy.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return !strings.Contains(s, "##[")
}

// escapeRune returns how one rune (raw, its bytes in s) is printed.
func escapeRune(r rune, raw string) string {
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		return fmt.Sprintf(`\x%02x`, raw[0])
	case r == '\a':
		return `\a`
	case r == '\t':
		return `\t`
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r)
	case report.HidesText(r):
		return fmt.Sprintf(`\u%04x`, r)
	}
	return raw
}

// cut shortens s to at most n characters, ending it with … when cut.
func cut(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i < len(s) && count < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return s[:i] + "…"
}

// excerpt is a piece of source as printed: cut, then escaped.
func excerpt(s string) string { return escape(cut(s, maxExcerpt)) }

// message is a finding's message or a note as printed. quotes are the
// pieces of source the message is known to quote (the access's
// expression): each is shortened where it appears, so a long expression
// does not push out the numbers after it. The whole is then escaped and
// bounded, which also covers source quoted that quotes does not name.
func message(msg string, quotes ...string) string {
	for _, q := range quotes {
		if len(q) > maxExcerpt && strings.Contains(msg, q) {
			msg = strings.ReplaceAll(msg, q, cut(q, maxExcerpt))
		}
	}
	return escape(cut(msg, maxMessage))
}

// lineStart escapes text that begins a line of text output (a file name,
// a kernel name). The GitHub runner obeys a line whose first non-blank
// characters are "::", so such a name is printed as ./NAME, which still
// names the same file.
func lineStart(s string) string {
	s = escape(s)
	if strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "::") {
		return "./" + s
	}
	return s
}
