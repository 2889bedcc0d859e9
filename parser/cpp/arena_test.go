package cpp

import (
	"strings"
	"testing"
)

// Expansions share the arena and the per-level arrays of argument
// expansions: each case makes one expansion's tokens outlive, or be
// overwritten by, another's if the arrays were freed or reused too
// early.
func TestExpansionMemoryReuse(t *testing.T) {
	long := strings.Repeat("x ", 300) // more than the arena's first array
	tests := []struct{ name, src, want string }{
		{"argument used twice, nested",
			"#define G(x) x x\n#define F(a) [a]\nF(G(G(1)))", "[ 1 1 1 1 ]"},
		{"two arguments expanded at one level",
			"#define H(y) <y>\n#define F(a, b) a b a b\nF(H(1), H(2))", "< 1 > < 2 > < 1 > < 2 >"},
		{"an argument that expands and one that does not",
			"#define H(y) <y>\n#define F(a, b, c) c a b c\nF(H(1), 2, H(3))", "< 3 > < 1 > 2 < 3 >"},
		{"arguments read past the end of an expansion",
			"#define APPLY(f) f\n#define G(a, b) a-b\nAPPLY(G)(1, 2) APPLY(G)(3, 4)", "1 - 2 3 - 4"},
		{"an invocation whose name ends one expansion and whose arguments end another",
			"#define OPEN G(\n#define ONE 1,\n#define G(a, b) {a b}\nOPEN ONE 2) OPEN ONE 3)", "{ 1 , 2 } { 1 , 3 }"},
		{"expansion to nothing between others",
			"#define E()\n#define F(a) (a)\nF(E() 1 E()) E() F(2)", "( 1 ) ( 2 )"},
		{"output outgrows its room",
			"#define T(a) a a a a\n#define F(a) T(a) T(a)\nF(F(1 2))", strings.TrimSpace(strings.Repeat("1 2 ", 64))},
		{"expansions larger than the arena's array",
			"#define L " + long + "\n#define F(a) a | a\nF(F(L))", strings.TrimSpace(strings.Repeat(strings.Repeat("x ", 300)+"| ", 4)[:len(strings.Repeat(strings.Repeat("x ", 300)+"| ", 4))-2])},
		{"arguments that are their own expansion, then one that expands, at one level",
			"#define Z 1 2 3\n#define F(a, b) a b\nF(7 7 7, 8) F(Z, 4 5 6)", "7 7 7 8 1 2 3 4 5 6"},
		{"variadic arguments expanded",
			"#define H(y) <y>\n#define V(f, ...) f(__VA_ARGS__) f(__VA_ARGS__)\n#define P(a, b) a+b\nV(P, H(1), H(2))", "< 1 > + < 2 > < 1 > + < 2 >"},
		{"pasting next to expanded arguments",
			"#define CAT(a, b) a ## b\n#define X(a, b) CAT(a, b) a b\n#define N 7\nX(N, N) X(v, N)", "77 7 7 v7 v 7"},
		{"a conditional expanded between expansions",
			"#define ONE 1\n#define F(a) a a\nF(ONE)\n#if ONE\nyes\n#endif\nF(ONE)", "1 1 yes 1 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pp := Preprocess("t.cu", []byte(tt.src), Config{})
			if got := texts(pp.Tokens); got != tt.want {
				t.Errorf("got  %q\nwant %q\nnotes %v", got, tt.want, pp.Notes)
			}
		})
	}
}

// The arena frees what a substitution leaves unused, and down to a
// dropped span's start; a result that outgrew its room is not the
// arena's.
func TestExpansionArena(t *testing.T) {
	var a expansionArena
	out, start := a.reserve(4)
	out = append(out, ptok{}, ptok{})
	if !a.keep(out, start) || a.top != 2 {
		t.Fatalf("a result within its room: kept %v, top %d, want kept and top 2", a.keep(out, start), a.top)
	}
	inner, at := a.reserve(3)
	inner = append(inner, ptok{}, ptok{}, ptok{}, ptok{}) // outgrows its room
	if a.keep(inner, at) || a.top != 2 {
		t.Errorf("a result that outgrew its room: top %d, want it not kept and top 2", a.top)
	}
	empty, at := a.reserve(5)
	if a.keep(empty, at) || a.top != 2 {
		t.Errorf("an empty result: top %d, want it not kept and top 2", a.top)
	}
	a.release(start)
	if a.top != 0 {
		t.Errorf("after the first span is dropped, top %d, want 0", a.top)
	}
	old := a.buf
	big, at := a.reserve(minArena + 1)
	big = append(big, ptok{})
	if &a.buf[0] == &old[0] || !a.keep(big, at) {
		t.Errorf("a region larger than the array: want a new array, the region in it")
	}
}
