package parser

import (
	"strings"
	"testing"
)

// Lookup needs each function's namespace, an anonymous one told from its
// parent, and the using-directives and -declarations around it.
func TestNamespacesAndUsings(t *testing.T) {
	src := `namespace n { using namespace m::k; namespace {
__device__ void f() { using q::g; g(); } } }
using ::n::f;`
	f := Parse("u.cu", []byte(src), Config{})
	if len(f.Funcs) != 1 {
		t.Fatalf("%d functions, want 1", len(f.Funcs))
	}
	fn := f.Funcs[0]
	if !strings.HasPrefix(fn.Namespace, "n::"+anonymousMark) || VisibleNamespace(fn.Namespace) != "n" || !InAnonymousNamespace(fn.Namespace) {
		t.Errorf("namespace %q: want n's anonymous one, visible as n", fn.Namespace)
	}
	if len(fn.Usings) != 1 || fn.Usings[0].Name != "q::g" {
		t.Errorf("body usings %+v, want using q::g", fn.Usings)
	}
	if len(f.Usings) != 2 || f.Usings[0].Namespace != "m::k" || f.Usings[0].Scope != "n" || f.Usings[1].Name != "::n::f" || f.Usings[1].Scope != "" {
		t.Errorf("file usings %+v, want using namespace m::k in n, using ::n::f", f.Usings)
	}
}

// A namespace alias in a function body (llm.c's kernels open with
// namespace cg = cooperative_groups;) and a template's value built from
// braces (cg::plus<float>{}) are statements and expressions like any
// other: neither may leave a note or lose the statement.
func TestBodyNamespaceAliasAndBracedTemplateValue(t *testing.T) {
	src := `__global__ void k(float* out, float v) {
	namespace cg = cooperative_groups;
	float s = cg::reduce(w, v, cg::plus<float>{});
	out[0] = s;
}`
	f := Parse("u.cu", []byte(src), Config{})
	if len(f.Notes) != 0 {
		t.Fatalf("notes %v, want none", f.Notes)
	}
	body := f.Funcs[0].Body.Stmts
	if len(body) != 3 {
		t.Fatalf("%d statements, want 3 (the alias, the declaration, the store)", len(body))
	}
	if _, ok := body[0].(*Empty); !ok {
		t.Errorf("the alias is %T, want *Empty", body[0])
	}
	ds, ok := body[1].(*DeclStmt)
	if !ok || len(ds.Decl.Declarators) != 1 || ds.Decl.Declarators[0].Init == nil {
		t.Fatalf("statement 2 is %T, want the declaration of s", body[1])
	}
	if got := Format(ds.Decl.Declarators[0].Init); !strings.Contains(got, "cg::plus(") {
		t.Errorf("declaration formats as %q, want the braced value as a call of cg::plus", got)
	}
}
