package lex

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/internal/gen"
)

// The scanner reads plain text on a fast path and anything with a line
// splice byte by byte. Splicing a file after every byte must change no
// token's kind or spelling: the two paths agree.
func TestScanSplicesEverywhere(t *testing.T) {
	inputs := []string{
		"__global__ void k(float* a) { a[threadIdx.x] = 1.5e+3f; } // c\n/* d */ x",
		"#define F(x) ((x) << 2)\nint y = F(3) >>= 1; p->q ... u8\"s\" L'c' 0x1p-3 .5",
		"a <<< b, c >>> (d); e ## f; g::h; i->*j; k++ --l; m && n || !o",
		"s = \"str\\\"ing\"; c = '\\''; // line comment \\\n continued\nz",
		gen.KernelDense(2000),
	}
	for i, src := range inputs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			var notes Notes
			want := Scan("a.cu", []byte(src), &notes)
			var b strings.Builder
			for _, c := range []byte(src) {
				b.WriteByte(c)
				if c != '\n' && c != '\\' {
					b.WriteString("\\\n")
				}
			}
			got := Scan("b.cu", []byte(b.String()), &notes)
			if len(got) != len(want) {
				t.Fatalf("%d tokens with splices, %d without", len(got), len(want))
			}
			for j := range want {
				if got[j].Kind != want[j].Kind || got[j].Text != want[j].Text || got[j].BOL != want[j].BOL {
					t.Fatalf("token %d: %v %q BOL=%v with splices, %v %q BOL=%v without",
						j, got[j].Kind, got[j].Text, got[j].BOL, want[j].Kind, want[j].Text, want[j].BOL)
				}
			}
		})
	}
}

// Positions are exact on both paths: line and column of every token.
func TestScanPositions(t *testing.T) {
	src := "a /* x\ny */ b\n// c\n  cc\t d\\\ne \"s\"\r\nf"
	var notes Notes
	var got []string
	for _, tok := range Scan("p.cu", []byte(src), &notes) {
		got = append(got, fmt.Sprintf("%s@%d:%d", tok.Text, tok.Pos.Line, tok.Pos.Col))
	}
	want := "a@1:1 b@2:6 cc@4:3 de@4:7 \"s\"@5:3 f@6:1"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
}

// C++'s alternative tokens are the operators they spell, wherever they
// are written; words that only begin like one stay names.
func TestScanAlternativeTokens(t *testing.T) {
	src := "if (M >= 128 and N or not x) y and_eq z; a not_eq b bitand c bitor d xor e compl f or_eq g xor_eq h; android oracle"
	var notes Notes
	var got []string
	for _, tok := range Scan("p.cu", []byte(src), &notes) {
		if tok.Kind == KPunct {
			got = append(got, tok.Text)
		} else {
			got = append(got, "_")
		}
	}
	want := "_ ( _ >= _ && _ || ! _ ) _ &= _ ; _ != _ & _ | _ ^ _ ~ _ |= _ ^= _ ; _ _"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
}

// Raw string literals are one token whatever their body holds (quotes,
// backslashes, newlines, a '#' at a line's start); the tokens after them
// keep their lines. Prefixed literals are one token too.
func TestScanRawAndPrefixedStrings(t *testing.T) {
	tests := []struct {
		src, want string
		notes     int
	}{
		{`a = R"(x "y" \n)"; b`, `a@1:1 =@1:3 R"(x "y" \n)"@1:5 ;@1:18 b@1:20`, 0},
		{"s(R\"(\n#include \"q.h\"\n  \" )\"); t", "s@1:1 (@1:2 R\"(\n#include \"q.h\"\n  \" )\"@1:3 )@3:7 ;@3:8 t@3:10", 0},
		{`R"d(a)" )d"x`, `R"d(a)" )d"@1:1 x@1:12`, 0},
		{`u8R"(a)" LR"(b)" uR"(c)" UR"(d)"`, `u8R"(a)"@1:1 LR"(b)"@1:10 uR"(c)"@1:18 UR"(d)"@1:26`, 0},
		{`u8"a" L"b" u"c" U"d" L'e' R`, `u8"a"@1:1 L"b"@1:7 u"c"@1:12 U"d"@1:17 L'e'@1:22 R@1:27`, 0},
		{"R\"(never closed\nx", "R\"(never closed\nx@1:1", 1},
		{`R"a b(x)a b"`, `R"a b(x)a b"@1:1`, 0}, // a space in the delimiter: an ordinary string
	}
	for _, tt := range tests {
		var notes Notes
		var got []string
		for _, tok := range Scan("p.cu", []byte(tt.src), &notes) {
			got = append(got, fmt.Sprintf("%s@%d:%d", tok.Text, tok.Pos.Line, tok.Pos.Col))
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%q:\ngot  %s\nwant %s", tt.src, g, tt.want)
		}
		if n := len(notes); n != tt.notes {
			t.Errorf("%q: %d notes, want %d", tt.src, n, tt.notes)
		}
	}
}
