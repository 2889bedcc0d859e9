package lsp

import (
	"testing"
	"time"
)

// The debounce follows the file's analysis cost unless the options fix
// it: a cheap analysis runs after each keystroke, a dear one waits.
func TestDelay(t *testing.T) {
	for _, tc := range []struct {
		fixed, cost, want time.Duration
	}{
		{0, 0, 0},
		{0, 8 * time.Millisecond, 8 * time.Millisecond},
		{0, 120 * time.Millisecond, 120 * time.Millisecond},
		{0, 2 * time.Second, maxDebounce},
		{20 * time.Millisecond, 2 * time.Second, 20 * time.Millisecond},
		{20 * time.Millisecond, time.Millisecond, 20 * time.Millisecond},
	} {
		s := &Server{debounce: tc.fixed}
		if got := s.delay(&document{cost: tc.cost}); got != tc.want {
			t.Errorf("fixed %v, cost %v: delay %v, want %v", tc.fixed, tc.cost, got, tc.want)
		}
	}
}

// Which edits change only a comment, and so reuse the analysis before.
func TestCommentEdit(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		ok             bool
		delta          int
	}{
		{"line comment", "int a; // one\nint b;\n", "int a; // one two\nint b;\n", true, 4},
		{"line comment shortened", "int a; // one two\nint b;\n", "int a; // one\nint b;\n", true, -4},
		{"block comment ending its line", "int a; /* one */\nint b;\n", "int a; /* one! */\nint b;\n", true, 1},
		{"block comment before code", "int a = /* one */ 1;\n", "int a = /* ones */ 1;\n", false, 0},
		{"code", "int a = 1; // x\n", "int a = 2; // x\n", false, 0},
		{"comment and code", "int a = 1; // x\n", "int a = 1; /* x */\n", false, 0},
		{"a newline typed", "int a; // one\nint b;\n", "int a; // o\nne\nint b;\n", false, 0},
		{"a line splice", "int a; // one\nint b;\n", "int a; // one\\\nint b;\n", false, 0},
		{"a directive", "int a; // one\n", "int a; // cudalint:ignore strided-access\n", false, 0},
		{"a directive edited", "// cudalint:ignore strided-access\n", "// cudalint:ignore strided-acces\n", false, 0},
		{"in a string", "const char* s = \"// one\";\n", "const char* s = \"// ones\";\n", false, 0},
		{"the comment opened", "int a; / one\n", "int a; // one\n", false, 0},
		{"the comment closed early", "int a; /* one two */\n", "int a; /* one */ two */\n", false, 0},
		{"unchanged", "int a; // one\n", "int a; // one\n", false, 0},
		{"a raw string", "auto s = R\"(x)\"; // one\n", "auto s = R\"(x)\"; // two\n", false, 0},
	} {
		sh, _, ok := commentEdit([]byte(tc.old), []byte(tc.new))
		if ok != tc.ok || ok && sh.delta != tc.delta {
			t.Errorf("%s: ok %v delta %d, want %v %d", tc.name, ok, sh.delta, tc.ok, tc.delta)
		}
	}
}
