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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ts.Instance(tt.class, tt.args)
			switch {
			case tt.size == 0 && got != nil:
				t.Errorf("instance of %d bytes, want none", got.Size)
			case tt.size != 0 && (got == nil || got.Size != tt.size || len(got.Args) != len(tt.args)):
				t.Errorf("instance %+v, want %d bytes with its arguments", got, tt.size)
			}
		})
	}
}
