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
