// Package ctype is C layout: the size, alignment and member offsets of
// the types kernels read and write (scalars, pointers, arrays, structs and
// unions, CUDA's vector types with their own alignment), resolved from
// the names the analyzed files declare (Types), and how an access of a
// type splits into memory instructions (Pieces).
package ctype

import (
	"fmt"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/parser"
)

// TypeKind classifies a type.
type TypeKind uint8

const (
	TUnknown TypeKind = iota
	TVoid
	TInt
	TFloat
	TVector
	TStruct
	TPointer
	TArray
)

// Type is a C type with its layout.
type Type struct {
	Kind        TypeKind
	Name        string
	Size, Align int64
	Elem        *Type // pointer target, array element, vector component
	Len         int64 // array length (0 when unknown), vector width
	Fields      []FieldLayout
	Union       bool
	// Guessed is set when the layout rests on a type cudalint could not
	// resolve (a member of a class from an unread header): sizes and
	// offsets may be wrong, so findings must not depend on them.
	Guessed bool
	// Args are a class template instance's arguments (Instance).
	Args []TemplateArg
	// alias, for a builtin spelled two ways, is the name of the way it
	// is the same type as (Same): c10::Half for at::Half.
	alias string
}

// LayoutKnown reports whether t's size and layout are certain.
func (t *Type) LayoutKnown() bool {
	return t != nil && t.Kind != TUnknown && !t.Guessed
}

// FieldLayout is a struct member at its byte offset.
type FieldLayout struct {
	Name   string
	Offset int64
	Type   *Type
}

func (t *Type) String() string {
	if t == nil {
		return "?"
	}
	switch t.Kind {
	case TPointer:
		return t.Elem.String() + "*"
	case TArray:
		return fmt.Sprintf("%s[%d]", t.Elem, t.Len)
	}
	return t.Name
}

// Field returns the member called name, looking inside anonymous struct
// and union members (whose fields are the enclosing struct's).
func (t *Type) Field(name string) (FieldLayout, bool) {
	for _, f := range t.Fields {
		if f.Name == name {
			return f, true
		}
	}
	for _, f := range t.Fields {
		if f.Name == "" && f.Type != nil {
			if inner, ok := f.Type.Field(name); ok {
				inner.Offset += f.Offset
				return inner, true
			}
		}
	}
	return FieldLayout{}, false
}

// IsInteger reports whether values of t are modelled as integers.
func (t *Type) IsInteger() bool { return t != nil && t.Kind == TInt }

var (
	// UnknownType is the type of what the analysis cannot type.
	UnknownType = &Type{Kind: TUnknown, Name: "?", Size: 4, Align: 4}
	voidType    = &Type{Kind: TVoid, Name: "void", Size: 1, Align: 1}
)

func scalar(kind TypeKind, name string, size int64) *Type {
	return &Type{Kind: kind, Name: name, Size: size, Align: size}
}

// builtinScalars maps base-type spellings (words sorted and joined) to types.
var builtinScalars = map[string]*Type{}

// Builtin returns the built-in type called name (a scalar, a CUDA vector,
// dim3).
func Builtin(name string) (*Type, bool) {
	t, ok := builtinScalars[name]
	return t, ok
}

func init() {
	ints := map[int64][]string{
		1: {"char", "signed char", "unsigned char", "bool", "_Bool", "int8_t", "uint8_t", "uchar"},
		2: {"short", "short int", "unsigned short", "unsigned short int", "signed short", "int16_t", "uint16_t", "ushort"},
		4: {"int", "signed", "unsigned", "unsigned int", "signed int", "int32_t", "uint32_t", "uint", "cudaError_t"},
		8: {"long", "long int", "unsigned long", "unsigned long int", "long long", "long long int", "unsigned long long",
			"unsigned long long int", "signed long", "int64_t", "uint64_t", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t",
			"ulong", "longlong", "ulonglong"},
	}
	for size, names := range ints {
		for _, n := range names {
			builtinScalars[canonicalWords(strings.Fields(n))] = scalar(TInt, n, size)
		}
	}
	// PyTorch's 16-bit floats (c10/util/Half.h, BFloat16.h: a uint16_t
	// each), for the extensions that use them without the ATen headers.
	for _, n := range []string{"half", "__half", "__nv_bfloat16", "nv_bfloat16", "c10::Half", "at::Half", "c10::BFloat16", "at::BFloat16"} {
		builtinScalars[n] = scalar(TFloat, n, 2)
	}
	builtinScalars["float"] = scalar(TFloat, "float", 4)
	for alias, name := range aliasOf {
		builtinScalars[alias].alias = name
	}
	builtinScalars["double"] = scalar(TFloat, "double", 8)
	builtinScalars["long double"] = scalar(TFloat, "long double", 16)
	builtinScalars["void"] = voidType
	builtinScalars["auto"] = UnknownType
	for _, n := range []string{"half2", "__half2", "__nv_bfloat162", "nv_bfloat162"} {
		builtinScalars[n] = vector(n, builtinScalars["half"], 2, 4)
	}
	// FP8 (cuda_fp8.h): one byte each; the x2 and x4 forms are stored as
	// a short and an int, so they align as those do.
	for _, kind := range []string{"e4m3", "e5m2"} {
		one := scalar(TFloat, "__nv_fp8_"+kind, 1)
		builtinScalars[one.Name] = one
		builtinScalars["__nv_fp8x2_"+kind] = vector("__nv_fp8x2_"+kind, one, 2, 2)
		builtinScalars["__nv_fp8x4_"+kind] = vector("__nv_fp8x4_"+kind, one, 4, 4)
	}
	builtinScalars["__nv_fp8_storage_t"] = scalar(TInt, "__nv_fp8_storage_t", 1)
	// CUDA vector types with their alignments (vector_types.h).
	comps := []struct {
		base  string
		comp  *Type
		align [4]int64 // alignment of width 1..4
	}{
		{"char", scalar(TInt, "char", 1), [4]int64{1, 2, 1, 4}},
		{"uchar", scalar(TInt, "uchar", 1), [4]int64{1, 2, 1, 4}},
		{"short", scalar(TInt, "short", 2), [4]int64{2, 4, 2, 8}},
		{"ushort", scalar(TInt, "ushort", 2), [4]int64{2, 4, 2, 8}},
		{"int", scalar(TInt, "int", 4), [4]int64{4, 8, 4, 16}},
		{"uint", scalar(TInt, "uint", 4), [4]int64{4, 8, 4, 16}},
		{"long", scalar(TInt, "long", 8), [4]int64{8, 16, 8, 16}},
		{"ulong", scalar(TInt, "ulong", 8), [4]int64{8, 16, 8, 16}},
		{"longlong", scalar(TInt, "longlong", 8), [4]int64{8, 16, 8, 16}},
		{"ulonglong", scalar(TInt, "ulonglong", 8), [4]int64{8, 16, 8, 16}},
		{"float", scalar(TFloat, "float", 4), [4]int64{4, 8, 4, 16}},
		{"double", scalar(TFloat, "double", 8), [4]int64{8, 16, 8, 16}},
	}
	for _, c := range comps {
		for n := int64(1); n <= 4; n++ {
			name := fmt.Sprintf("%s%d", c.base, n)
			builtinScalars[name] = vector(name, c.comp, n, c.align[n-1])
		}
	}
	builtinScalars["dim3"] = vector("dim3", scalar(TInt, "uint", 4), 3, 4)
	// cuRAND's default generator state, curandStateXORWOW (curand_kernel.h),
	// for when that header is not read: unsigned int d, v[5]; int
	// boxmuller_flag, boxmuller_flag_double; float boxmuller_extra; double
	// boxmuller_extra_double: 48 bytes, aligned to 8. It sizes the
	// pointer arithmetic over an array of states, but is Guessed: the
	// header that defines it was not read, so no finding rests on it.
	u, i := builtinScalars["unsigned int"], builtinScalars["int"]
	xorwow := &Type{Kind: TStruct, Name: "curandStateXORWOW", Size: 48, Align: 8, Guessed: true, Fields: []FieldLayout{
		{Name: "d", Offset: 0, Type: u}, {Name: "v", Offset: 4, Type: ArrayOf(u, 5)},
		{Name: "boxmuller_flag", Offset: 24, Type: i}, {Name: "boxmuller_flag_double", Offset: 28, Type: i},
		{Name: "boxmuller_extra", Offset: 32, Type: builtinScalars["float"]},
		{Name: "boxmuller_extra_double", Offset: 40, Type: builtinScalars["double"]},
	}}
	for _, n := range []string{"curandState", "curandState_t", "curandStateXORWOW", "curandStateXORWOW_t"} {
		builtinScalars[n] = xorwow
	}
}

func vector(name string, comp *Type, n, align int64) *Type {
	t := &Type{Kind: TVector, Name: name, Elem: comp, Len: n, Align: align}
	t.Size = roundUp(comp.Size*n, align)
	for i := int64(0); i < n; i++ {
		t.Fields = append(t.Fields, FieldLayout{Name: string("xyzw"[i]), Offset: i * comp.Size, Type: comp})
	}
	return t
}

func roundUp(x, a int64) int64 {
	if a <= 1 {
		return x
	}
	return (x + a - 1) / a * a
}

func canonicalWords(words []string) string {
	// "unsigned int" and "int unsigned" are the same type; keep the usual order.
	var sign, rest []string
	for _, w := range words {
		if w == "unsigned" || w == "signed" {
			sign = append(sign, w)
		} else {
			rest = append(rest, w)
		}
	}
	return strings.Join(append(sign, rest...), " ")
}

// Types resolves type names of the analyzed files to layouts.
type Types struct {
	// mu guards done and busy: layouts are computed lazily, by
	// concurrent kernels. structs and typedefs are only read once
	// declared.
	mu       sync.Mutex
	structs  map[string]*parser.Struct
	typedefs map[string]*parser.Typedef
	// specs are the specializations of each class template (instance.go).
	specs map[string][]*parser.Struct
	done  map[string]*Type
	busy  map[string]bool
	// parent resolves the names these types do not declare: a
	// translation unit's types fall back on the whole program's (a
	// header analyzed alone uses what its includer declared). Locks are
	// taken child first, never the other way.
	parent *Types
	// Consts evaluates array dimensions, resolving the types they name
	// (sizeof(T)) with resolve: while a layout is computed under mu, the
	// resolution in progress, which a second Resolve would wait for
	// forever. Set by the program once its constants can be evaluated.
	Consts func(e parser.Expr, resolve func(*parser.TypeRef) *Type) (int64, bool)
}

// NewTypes returns an empty set of types.
func NewTypes() *Types {
	return &Types{structs: map[string]*parser.Struct{}, typedefs: map[string]*parser.Typedef{}, specs: map[string][]*parser.Struct{}, done: map[string]*Type{}, busy: map[string]bool{}}
}

// NewUnitTypes returns an empty set of types that resolves the names it
// does not declare through parent.
func NewUnitTypes(parent *Types) *Types {
	ts := NewTypes()
	ts.parent = parent
	return ts
}

// Add makes the structs and typedefs of f known.
func (ts *Types) Add(f *parser.File) { ts.Declare(f.Structs, f.Typedefs) }

// Declare makes structs and typedefs known: a struct's definition with
// members wins over a declaration; the last typedef of a name wins.
func (ts *Types) Declare(structs []*parser.Struct, typedefs []*parser.Typedef) {
	for _, s := range structs {
		if s.Name != "" && s.Specialized {
			ts.specs[s.Name] = append(ts.specs[s.Name], s)
		}
		if s.Name != "" {
			old, dup := ts.structs[s.Name]
			switch {
			case !dup:
				ts.structs[s.Name] = s
			case s.Specialized && !old.Specialized && len(old.Fields) > 0:
				// A specialization's layout is not the template's
				// (Array<uint4_t, N> packs its elements).
			case len(s.Fields) > 0 || old.Specialized && !s.Specialized:
				ts.structs[s.Name] = s
			}
		}
	}
	for _, td := range typedefs {
		ts.typedefs[td.Name] = td
	}
}

// owns reports whether name is declared here rather than left to the
// parent.
func (ts *Types) owns(name string) bool {
	_, td := ts.typedefs[name]
	_, s := ts.structs[name]
	return td || s
}

// declaresStruct reports whether name is a struct here or in a parent.
func (ts *Types) declaresStruct(name string) bool {
	if _, ok := ts.structs[name]; ok || ts.parent == nil {
		return ok
	}
	return ts.parent.Struct(name) != nil
}

// Resolve returns the layout of a written type.
func (ts *Types) Resolve(ref *parser.TypeRef) *Type {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.resolve(ref)
}

func (ts *Types) resolve(ref *parser.TypeRef) *Type {
	if ref == nil {
		return UnknownType
	}
	t := ts.named(ref.Words)
	for i := 0; i < ref.Ptr; i++ {
		t = PointerTo(t)
	}
	return t
}

// PointerTo is the type of a pointer to t.
func PointerTo(t *Type) *Type {
	return &Type{Kind: TPointer, Name: t.Name + "*", Size: 8, Align: 8, Elem: t}
}

// ArrayOf is the type of an array of n t.
func ArrayOf(t *Type, n int64) *Type {
	return &Type{Kind: TArray, Name: fmt.Sprintf("%s[%d]", t.Name, n), Size: t.Size * n, Align: t.Align, Elem: t, Len: n}
}

func (ts *Types) named(words []string) *Type {
	if len(words) == 0 {
		return scalar(TInt, "int", 4) // "unsigned" alone and friends: handled below; no words means int
	}
	key := canonicalWords(words)
	if t, ok := builtinScalars[key]; ok {
		return t
	}
	if len(words) > 1 { // "unsigned long" spelled some other way: size by the widest word
		for _, w := range []string{"long", "short", "char"} {
			for _, x := range words {
				if x == w {
					return builtinScalars[canonicalWords([]string{"unsigned", w})]
				}
			}
		}
	}
	name := key
	if i := strings.LastIndex(name, "::"); i >= 0 {
		if !ts.declaresStruct(name) {
			name = name[i+2:]
		}
	}
	if t, ok := ts.done[name]; ok {
		return t
	}
	if ts.parent != nil && !ts.owns(name) {
		t := ts.parent.Resolve(&parser.TypeRef{Words: []string{name}})
		ts.done[name] = t
		return t
	}
	if ts.busy[name] {
		return UnknownType // a recursive type through a non-pointer: impossible in C; stay safe
	}
	ts.busy[name] = true
	defer delete(ts.busy, name)
	var t *Type
	if s, ok := ts.structs[name]; ok {
		t = ts.layout(s)
	} else if td, ok := ts.typedefs[name]; ok && (len(td.Params) > 0 || td.Type == nil) {
		// An alias template names a type of its arguments, which a bare
		// name does not give: unknown, and never another file's alias.
		t = &Type{Kind: TUnknown, Name: name, Size: 4, Align: 4}
	} else if ok {
		t = ts.resolve(td.Type)
		for i := len(td.Dims) - 1; i >= 0; i-- {
			t = ArrayOf(t, ts.dim(td.Dims[i], ts.resolve))
		}
	} else if b, ok := builtinScalars[name]; ok {
		t = b
	} else {
		t = &Type{Kind: TUnknown, Name: name, Size: 4, Align: 4}
	}
	ts.done[name] = t
	return t
}

// Dim is the value of array dimension e, or 0 when it is not a positive
// constant.
func (ts *Types) Dim(e parser.Expr) int64 { return ts.dim(e, ts.Resolve) }

// DimWith is Dim with the types e names resolved by resolve: the
// resolution in progress, when e is evaluated for one (see Consts).
func (ts *Types) DimWith(e parser.Expr, resolve func(*parser.TypeRef) *Type) int64 {
	return ts.dim(e, resolve)
}

// dim is Dim with the types e names resolved by resolve: ts.resolve
// while ts.mu is held (typedef float row[sizeof(double)]; a type whose
// size needs its own is then unknown, not a deadlock).
func (ts *Types) dim(e parser.Expr, resolve func(*parser.TypeRef) *Type) int64 {
	if e == nil || ts.Consts == nil {
		return 0
	}
	if v, ok := ts.Consts(e, resolve); ok && v > 0 {
		return v
	}
	return 0
}

// layout computes C layout: each member at the next multiple of its
// alignment, the size a multiple of the largest alignment.
func (ts *Types) layout(s *parser.Struct) *Type {
	return ts.layoutWith(s, ts.resolve, func(e parser.Expr) int64 { return ts.dim(e, ts.resolve) })
}

// layoutWith is layout with the members' types resolved by resolve and
// their array dimensions evaluated by dim: a class template instance's
// (instance.go).
func (ts *Types) layoutWith(s *parser.Struct, resolve func(*parser.TypeRef) *Type, dim func(parser.Expr) int64) *Type {
	t := &Type{Kind: TStruct, Name: s.Name, Align: 1, Union: s.Union}
	off := ts.baseLayout(t, s)
	for _, f := range s.Fields {
		ft := resolve(f.Type)
		for i := len(f.Dims) - 1; i >= 0; i-- {
			ft = ArrayOf(ft, dim(f.Dims[i]))
		}
		if s.Union {
			t.Fields = append(t.Fields, FieldLayout{Name: f.Name, Offset: 0, Type: ft})
			off = max(off, ft.Size)
		} else {
			off = roundUp(off, ft.Align)
			t.Fields = append(t.Fields, FieldLayout{Name: f.Name, Offset: off, Type: ft})
			off += ft.Size
		}
		t.Align = max(t.Align, ft.Align)
		t.Guessed = t.Guessed || !ft.LayoutKnown()
	}
	if s.Align > t.Align {
		t.Align = s.Align
	}
	if s.AlignExpr != nil {
		if a := dim(s.AlignExpr); a > t.Align && a&(a-1) == 0 {
			t.Align = a
		}
	}
	t.Size = roundUp(max(off, 1), t.Align)
	if len(s.Fields) == 0 && len(t.Fields) == 0 {
		t.Kind = TUnknown // a class we did not read: no layout
	}
	t.Guessed = t.Guessed || s.Incomplete
	return t
}

// baseLayout lays out s's base classes at the start of t, in order (as
// the Itanium ABI does for non-virtual bases with data members; an empty
// base takes no room), and returns the offset after them. A base cudalint
// cannot resolve makes the layout a guess.
func (ts *Types) baseLayout(t *Type, s *parser.Struct) int64 {
	var off int64
	for _, name := range s.Bases {
		bt := ts.named([]string{name})
		if bt.Kind != TStruct {
			if !ts.emptyStruct(name) {
				t.Guessed = true
			}
			continue
		}
		off = roundUp(off, bt.Align)
		for _, f := range bt.Fields {
			t.Fields = append(t.Fields, FieldLayout{Name: f.Name, Offset: off + f.Offset, Type: f.Type})
		}
		off += bt.Size
		t.Align = max(t.Align, bt.Align)
		t.Guessed = t.Guessed || bt.Guessed
	}
	return off
}

// emptyStruct reports whether name is a struct read whole with no data
// member (a tag type, a base of methods only).
func (ts *Types) emptyStruct(name string) bool {
	if i := strings.LastIndex(name, "::"); i >= 0 && !ts.declaresStruct(name) {
		name = name[i+2:]
	}
	s := ts.Struct(name)
	return s != nil && len(s.Fields) == 0 && len(s.Bases) == 0 && !s.Incomplete
}

// Pieces splits an access of type t into the memory instructions the
// compiler emits for it: one per naturally aligned chunk of at most 16
// bytes, at the type's alignment. A float4 (16-byte aligned) is one
// 16-byte access; a struct of three floats is three 4-byte accesses.
func Pieces(t *Type) [][2]int64 {
	if t == nil || t.Size <= 0 {
		return [][2]int64{{0, 4}}
	}
	width := min(t.Align, 16)
	if t.Size <= width {
		return [][2]int64{{0, t.Size}}
	}
	var out [][2]int64
	for off := int64(0); off < t.Size; off += width {
		out = append(out, [2]int64{off, min(width, t.Size-off)})
	}
	return out
}

// aliasOf names, for each builtin spelled two ways, the way it is the
// same type as: PyTorch's at:: names are c10's (using c10::Half in
// namespace at), CUDA's half is __half, nv_bfloat16 __nv_bfloat16.
var aliasOf = map[string]string{"at::Half": "c10::Half", "at::BFloat16": "c10::BFloat16", "half": "__half", "nv_bfloat16": "__nv_bfloat16"}

// Same reports whether a and b are one type: alike in kind, size and
// name, a builtin's aliases its name (at::Half is c10::Half), pointers
// alike in what they point to.
func Same(a, b *Type) bool {
	for a != nil && b != nil && a.Kind == TPointer && b.Kind == TPointer {
		a, b = a.Elem, b.Elem
	}
	if a == nil || b == nil {
		return a == b
	}
	return a.Kind == b.Kind && a.Size == b.Size && a.canonical() == b.canonical()
}

func (t *Type) canonical() string {
	if t.alias != "" {
		return t.alias
	}
	return t.Name
}
