package parser

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Struct members other than data: static constexpr members, defaulted
// special members (read, not a reason to call the layout a guess),
// methods and constructors with their initializer lists, and the class
// template arguments of a qualified name.
func TestStructMembers(t *testing.T) {
	f := Parse("m.cu", []byte(`
template <class T> struct alignas(16) Packed {
    static constexpr int size = sizeof(int4) / sizeof(T);
    T v[size];
    Packed() = default;
    Packed(const Packed&) = delete;
    __device__ explicit Packed(int4 bits) { *reinterpret_cast<int4*>(v) = bits; }
    __device__ int4 bits() const { return *reinterpret_cast<const int4*>(v); }
    static __device__ int lanes() { return size; }
};
struct Loader {
    int stride, offset;
    __device__ Loader(int s, int o) : stride(s), offset{o} {}
    __device__ float load(const float* p, int i) const { return p[i * stride + offset]; }
};
__global__ void k(int* out) { out[0] = Packed<float>::size; }
`), Config{})
	if len(f.Notes) > 0 {
		t.Errorf("notes: %v", f.Notes)
	}
	if len(f.Structs) != 2 {
		t.Fatalf("%d structs", len(f.Structs))
	}
	p, l := f.Structs[0], f.Structs[1]
	if p.Incomplete || len(p.Fields) != 1 || len(p.Statics) != 1 || p.Statics[0].Name != "size" || len(p.Template) != 1 || p.Template[0].Name != "T" {
		t.Errorf("Packed: incomplete %v, fields %d, statics %d, template %v", p.Incomplete, len(p.Fields), len(p.Statics), p.Template)
	}
	var names []string
	for _, m := range p.Methods {
		names = append(names, m.Name)
		if m.Class != "Packed" {
			t.Errorf("%s: class %q", m.Name, m.Class)
		}
	}
	if len(names) != 3 || names[0] != "Packed" || !p.Methods[0].Ctor || names[1] != "bits" || names[2] != "lanes" || !p.Methods[2].Static {
		t.Errorf("Packed's methods: %v", names)
	}
	if len(l.Fields) != 2 || len(l.Methods) != 2 {
		t.Fatalf("Loader: %d fields, %d methods", len(l.Fields), len(l.Methods))
	}
	ctor := l.Methods[0]
	if !ctor.Ctor || len(ctor.Inits) != 2 || ctor.Inits[0].Name != "stride" || ctor.Inits[1].Name != "offset" || len(ctor.Inits[1].Args) != 1 {
		t.Errorf("Loader's constructor: ctor %v, inits %+v", ctor.Ctor, ctor.Inits)
	}
	if len(f.Funcs) != 1 {
		t.Fatalf("%d functions, want the kernel only", len(f.Funcs))
	}
	st := f.Funcs[0].Body.Stmts[0].(*ExprStmt).X.(*Binary)
	id, ok := st.Y.(*Ident)
	if !ok || id.Name != "Packed::size" || len(id.Scope) != 1 || id.Scope[0].Type == nil || id.Scope[0].Type.Words[0] != "float" {
		t.Errorf("Packed<float>::size read as %#v", st.Y)
	}
}

// A local lambda is a declaration whose value is the lambda; a function
// pointer template parameter is named by its declarator.
func TestLambdaAndFunctionTemplateParameter(t *testing.T) {
	f := Parse("m.cu", []byte(`
template <void (*F)(float*, int), int N> __global__ void k(const float* in, float* out) {
    auto get = [&](int j) { return in[j * 2]; };
    out[0] = get(1);
}
`), Config{})
	if len(f.Notes) > 0 {
		t.Errorf("notes: %v", f.Notes)
	}
	k := f.Funcs[0]
	if len(k.Template) != 2 || k.Template[0].Name != "F" || !k.Template[0].Func || k.Template[1].Name != "N" || k.Template[1].Func {
		t.Errorf("template parameters %+v", k.Template)
	}
	d, ok := k.Body.Stmts[0].(*DeclStmt)
	if !ok {
		t.Fatalf("%T", k.Body.Stmts[0])
	}
	l, ok := d.Decl.Declarators[0].Init.(*Lambda)
	if !ok || !l.ByRef || d.Decl.Declarators[0].Name != "get" || len(l.Fn.Params) != 1 || len(l.Fn.Body.Stmts) != 1 {
		t.Errorf("lambda read as %#v", d.Decl.Declarators[0].Init)
	}
}

// An explicit instantiation of a function template keeps its name and
// template arguments; a host function that calls a host template that
// launches kernels is kept, with that call.
func TestExplicitInstantiationAndTemplateCaller(t *testing.T) {
	f := Parse("m.cu", []byte(`
template <class T, int N> void run(T* d) { k<T, N><<<1, 32>>>(d); }
template void run<float, 4>(float*);
int main() {
    double* d;
    print("x");
    run<double, 2>(d);
}
`), Config{})
	if len(f.Instantiations) != 1 || f.Instantiations[0].Name != "run" || len(f.Instantiations[0].Targs) != 2 || f.Instantiations[0].Targs[0].Type == nil {
		t.Errorf("instantiations %#v", f.Instantiations)
	}
	if len(f.Funcs) != 2 || f.Funcs[1].Name != "main" || len(f.Funcs[1].Body.Stmts) != 3 {
		t.Fatalf("funcs %v: want run and main, main with its declaration and its two calls", f.Funcs)
	}
}

// An explicit instantiation that writes no template arguments has them
// deduced from its parameters, as the compiler does: T from T* and
// const T*, pointers taken off. One the parameters do not deduce (a
// value parameter, a type named nowhere as itself, two places that
// disagree) is not recorded.
func TestExplicitInstantiationDeducesArguments(t *testing.T) {
	tests := []struct {
		name, decl string
		want       []string // the deduced types' words and pointers; nil when none is recorded
	}{
		{"from pointers", "template void run(float* o, const float* in, int n);", []string{"float/0"}},
		{"a pointer to pointers", "template void run(half** o, const half* in, int n);", nil},
		{"from a value", "template void one(double x);", []string{"double/0"}},
		{"a value parameter", "template void val(float* o);", nil},
		{"two types", "template void two(int* a, float* b);", []string{"int/0", "float/0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("m.cu", []byte(`
template <typename T> void run(T* o, const T* in, int n) { k<<<1, 32>>>(o); }
template <typename T> void one(T x) {}
template <int N> void val(float* o) {}
template <typename A, typename B> void two(A* a, B* b) {}
`+tt.decl+"\n"), Config{})
			var got []string
			for _, id := range f.Instantiations {
				for _, a := range id.Targs {
					if a.Type == nil {
						t.Fatalf("%s: a template argument that is not a type", id.Name)
					}
					got = append(got, fmt.Sprintf("%s/%d", strings.Join(a.Type.Words, " "), a.Type.Ptr))
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("deduced %v, want %v", got, tt.want)
			}
		})
	}
}
