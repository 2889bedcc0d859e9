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
