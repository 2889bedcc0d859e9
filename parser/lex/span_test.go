package lex

import "testing"

func TestBlockTokens(t *testing.T) {
	tests := []struct {
		name, src string
		open      int
		last      string // text of the last token, "" when !ok
	}{
		{"nested", "void f() { if (a) { b; } c; } int x;", 9, "}"},
		{"braces in comments and literals", "{ s = \"}\"; c = '}'; // }\n /* } */ d; }", 0, "}"},
		{"unclosed", "{ a; { b; }", 0, ""},
		{"not a brace", "void f() {}", 2, ""},
		{"out of range", "{}", 5, ""},
	}
	for _, tt := range tests {
		toks, ok := BlockTokens("f.cu", []byte(tt.src), tt.open)
		if ok != (tt.last != "") {
			t.Errorf("%s: ok = %v", tt.name, ok)
			continue
		}
		if ok && (toks[len(toks)-1].Text != tt.last || int(toks[len(toks)-1].End) > len(tt.src)) {
			t.Errorf("%s: ends with %q", tt.name, toks[len(toks)-1].Text)
		}
	}
	toks, _ := BlockTokens("f.cu", []byte("void f() { if (a) { b; } c; } int x;"), 9)
	if got := toks[len(toks)-1].Pos.Offset; got != 28 {
		t.Errorf("closing brace at %d, want 28", got)
	}
}
