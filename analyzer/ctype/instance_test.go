package ctype

import (
	"testing"

	"github.com/cudalint/cudalint/parser"
)

// TestInstance: a class template instance is laid out with its arguments
// bound; a specialization the arguments select gives its own layout, a
// tag type's specialization only for that tag; an argument whose layout
// is not known, or a specialization it cannot compare with, gives none.
func TestInstance(t *testing.T) {
	f := parser.Parse("a.cu", []byte(`struct tag4_t {};
template<typename T, int N> struct Array { T a[N]; };
template<int N> struct Array<tag4_t, N> { char a[N / 2]; };
template<int N> struct Array<char, N> { char a[N / 8]; };
template<typename T, int N> struct Odd { T a[N]; };
template<typename T> struct Odd<T*, 2> { T* p; };
template<typename T, int N> struct Aligned { using Element = T; Element buffer[N]; };
template<typename T> struct Chain { using E = T; using F = E; using P = F*; F a; P p; };
template<typename T> struct Loop { using A = B; using B = A; A a; T t; };
`), parser.Config{})
	ts := NewTypes()
	ts.Add(f)
	fl, _ := Builtin("float")
	ch, _ := Builtin("char")
	tag := ts.Resolve(&parser.TypeRef{Words: []string{"tag4_t"}})
	tests := []struct {
		name, class string
		args        []TemplateArg
		size        int64 // 0: no instance
	}{
		{"the template", "Array", []TemplateArg{{Type: fl}, {Value: 4}}, 16},
		{"a builtin type's specialization", "Array", []TemplateArg{{Type: ch}, {Value: 64}}, 8},
		{"a tag's specialization", "Array", []TemplateArg{{Type: tag}, {Value: 8}}, 4},
		{"an argument of unknown layout", "Array", []TemplateArg{{Type: UnknownType}, {Value: 4}}, 0},
		{"a specialization written T*: not compared, no instance", "Odd", []TemplateArg{{Type: fl}, {Value: 2}}, 0},
		{"no class template", "tag4_t", nil, 0},
		{"a member alias of a parameter", "Aligned", []TemplateArg{{Type: ch}, {Value: 8}}, 8},
		{"aliases of aliases, and a pointer to one", "Chain", []TemplateArg{{Type: ch}}, 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ts.Instance(tt.class, tt.args)
			switch {
			case tt.size > 0 && got != nil && !got.LayoutKnown():
				t.Errorf("instance of %d bytes with its layout guessed, want it known", got.Size)
			case tt.size == 0 && got != nil:
				t.Errorf("instance of %d bytes, want none", got.Size)
			case tt.size != 0 && (got == nil || got.Size != tt.size || len(got.Args) != len(tt.args)):
				t.Errorf("instance %+v, want %d bytes with its arguments", got, tt.size)
			}
		})
	}
}

// TestInstanceAliasLoop: member aliases naming each other end, and the
// instance's layout is not known, not sized from the loop.
func TestInstanceAliasLoop(t *testing.T) {
	f := parser.Parse("a.cu", []byte("template<typename T> struct Loop { using A = B; using B = A; A a; T t; };\n"), parser.Config{})
	ts := NewTypes()
	ts.Add(f)
	ch, _ := Builtin("char")
	if got := ts.Instance("Loop", []TemplateArg{{Type: ch}}); got != nil && got.LayoutKnown() {
		t.Errorf("instance of %d bytes with a known layout, want it not known", got.Size)
	}
}

// TestInstanceAlignas: alignas(sizeof(T) * N) is evaluated with the
// instance's arguments, so that a copy of the whole record is one
// 16-byte access, as nvcc emits it, and not one per element.
func TestInstanceAlignas(t *testing.T) {
	f := parser.Parse("a.cu", []byte(`template <typename T, int N> struct alignas(sizeof(T) * N) Vec { T a[N]; };
template <typename T, int N> struct alignas(M) Unknown { T a[N]; };
struct alignas(8) Pair { char a, b; };
`), parser.Config{})
	ts := NewTypes()
	ts.Add(f)
	ch, _ := Builtin("char")
	tests := []struct {
		name  string
		got   *Type
		align int64
	}{
		{"alignas of the arguments", ts.Instance("Vec", []TemplateArg{{Type: ch}, {Value: 16}}), 16},
		{"alignas over a pair of bytes: 4", ts.Instance("Vec", []TemplateArg{{Type: ch}, {Value: 4}}), 4},
		{"a literal alignas", ts.Resolve(&parser.TypeRef{Words: []string{"Pair"}}), 8},
	}
	for _, tt := range tests {
		if tt.got == nil || tt.got.Align != tt.align || tt.got.Size%tt.align != 0 {
			t.Errorf("%s: %+v, want alignment %d", tt.name, tt.got, tt.align)
		}
	}
	if p := Pieces(tests[0].got); len(p) != 1 || p[0][1] != 16 {
		t.Errorf("pieces of Vec<char, 16>: %v, want one of 16 bytes", p)
	}
	if u := ts.Instance("Unknown", []TemplateArg{{Type: ch}, {Value: 4}}); u != nil && u.LayoutKnown() {
		t.Errorf("alignas of a name no file gives: layout %+v known, want it guessed", u)
	}
}
