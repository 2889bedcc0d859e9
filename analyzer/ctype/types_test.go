package ctype

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser"
)

func TestPieces(t *testing.T) {
	ts := NewTypes()
	tests := []struct {
		words []string
		want  string
	}{
		{[]string{"float4"}, "[[0 16]]"},
		{[]string{"float3"}, "[[0 4] [4 4] [8 4]]"},
		{[]string{"double2"}, "[[0 16]]"},
		{[]string{"char"}, "[[0 1]]"},
		{[]string{"float2"}, "[[0 8]]"},
		{[]string{"__half2"}, "[[0 4]]"},
		{[]string{"__nv_bfloat16"}, "[[0 2]]"},
		{[]string{"at::Half"}, "[[0 2]]"},
		{[]string{"c10::BFloat16"}, "[[0 2]]"},
		{[]string{"__nv_fp8_e4m3"}, "[[0 1]]"},
		{[]string{"__nv_fp8x2_e5m2"}, "[[0 2]]"},
		{[]string{"__nv_fp8x4_e4m3"}, "[[0 4]]"},
	}
	for _, tt := range tests {
		got := Pieces(ts.Resolve(&parser.TypeRef{Words: tt.words}))
		if s := fmtPieces(got); s != tt.want {
			t.Errorf("%v: %s, want %s", tt.words, s, tt.want)
		}
	}
}

func fmtPieces(p [][2]int64) string {
	var b strings.Builder
	b.WriteString("[")
	for i, x := range p {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("[" + itoa(x[0]) + " " + itoa(x[1]) + "]")
	}
	return b.String() + "]"
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }

// A translation unit's types resolve its own names first and the
// program's where it declares none; a struct of the unit lays out its
// members with the unit's names.
func TestUnitTypes(t *testing.T) {
	prog := NewTypes()
	prog.Add(parser.Parse("a.cu", []byte("typedef float floatX;\ntypedef double wide;\nstruct Pair { wide a; int b; };\n"), parser.Config{}))
	unit := NewUnitTypes(prog)
	f := parser.Parse("b.cu", []byte("typedef __nv_bfloat16 floatX;\nstruct Row { floatX x; floatX y; wide w; };\n"), parser.Config{})
	unit.Declare(f.Structs, f.Typedefs)
	tests := []struct {
		ts   *Types
		name string
		want int64
	}{
		{unit, "floatX", 2},
		{prog, "floatX", 4},
		{unit, "wide", 8},
		{unit, "Pair", 16},
		{unit, "Row", 16},
		{prog, "Row", 4}, // unknown to the program: no layout
	}
	for _, tt := range tests {
		if got := tt.ts.Resolve(&parser.TypeRef{Words: []string{tt.name}}); got.Size != tt.want {
			t.Errorf("%s: %d bytes, want %d", tt.name, got.Size, tt.want)
		}
	}
	if unit.Struct("Pair") == nil || unit.Typedef("wide") == nil || unit.Typedef("floatX").Type.Words[0] != "__nv_bfloat16" {
		t.Error("Struct and Typedef do not fall back to the program, or prefer it to the unit")
	}
}

// An alias template is the unit's own name: what it names depends on its
// arguments, which a bare name does not give, so it is unknown, and never
// another file's non-template alias of the same name (oneflow's
// PackType<bool, 4> came out as another .cu's 16-byte ulonglong2, and a
// false misaligned-vector error with it).
func TestAliasTemplateIsTheUnits(t *testing.T) {
	prog := NewTypes()
	prog.Add(parser.Parse("other.cu", []byte("namespace { using PackType = ulonglong2; }\n"), parser.Config{}))
	unit := NewUnitTypes(prog)
	f := parser.Parse("own.cu", []byte("template <typename T, int n> using PackType = typename GetPackType<T, n>::type;\n"), parser.Config{})
	unit.Declare(f.Structs, f.Typedefs)
	if got := unit.Resolve(&parser.TypeRef{Words: []string{"PackType"}}); got.Kind != TUnknown {
		t.Errorf("PackType in own.cu: %s (%d bytes), want unknown", got.Name, got.Size)
	}
	if got := prog.Resolve(&parser.TypeRef{Words: []string{"PackType"}}); got.Size != 16 {
		t.Errorf("PackType in other.cu: %d bytes, want 16", got.Size)
	}
}

// A derived struct's layout starts with its bases' members, each base
// at its alignment, an empty base taking no room; a base cudalint cannot
// see makes the layout a guess. (mamba's SSMParamsBwd inherits its
// pointers from SSMParamsBase: the accesses through them vanished.)
func TestBaseClassLayout(t *testing.T) {
	ts := NewTypes()
	ts.Add(parser.Parse("a.cu", []byte(`struct Base { float* A; int stride; };
struct Empty {};
struct Bwd : public Base, private Empty { float* B; char c; };
namespace ns { struct Inner { double d; }; }
struct Q : ns::Inner { int i; };
template <int N> struct Tmpl { int v[N]; };
struct Lost : Missing { int i; };
`), parser.Config{}))
	tests := []struct {
		name    string
		size    int64
		fields  string // name@offset, in order
		guessed bool
	}{
		{"Bwd", 32, "A@0 stride@8 B@16 c@24", false},
		{"Q", 16, "d@0 i@8", false},
		{"Lost", 4, "i@0", true},
	}
	for _, tt := range tests {
		got := ts.Resolve(&parser.TypeRef{Words: []string{tt.name}})
		var fields []string
		for _, f := range got.Fields {
			fields = append(fields, fmt.Sprintf("%s@%d", f.Name, f.Offset))
		}
		if got.Size != tt.size || strings.Join(fields, " ") != tt.fields || got.Guessed != tt.guessed {
			t.Errorf("%s: %d bytes, fields %v, guessed %v; want %d, %s, %v", tt.name, got.Size, fields, got.Guessed, tt.size, tt.fields, tt.guessed)
		}
	}
}
