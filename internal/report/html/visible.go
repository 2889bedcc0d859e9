package html

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cudalint/cudalint/internal/report"
)

// visible writes what would move or hide text as Go-style escapes:
// control characters but the tab (C0, DEL, C1; a line break too, so
// that no line of the page starts with text from the source: a page
// printed to a CI log must not issue the runner's "::" commands), line
// and paragraph separators, bidirectional controls (the "Trojan Source"
// attack, which a browser obeys as a terminal does) and bytes that are
// not UTF-8; and it breaks up the runner's old command prefix "##[",
// obeyed anywhere in a line. The rest, < and & included, is left to
// html/template, which escapes it for where it lands.
func visible(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '[' && strings.HasSuffix(b.String(), "##"):
			b.WriteString(`\x5b`)
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case report.HidesText(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// plain: printable ASCII and tabs, without "##[", need no copy.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return !strings.Contains(s, "##[")
}
