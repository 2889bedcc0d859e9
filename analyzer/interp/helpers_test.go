package interp

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Every builtin symbol the tests build goes through builtin, in this
// one place: symbolic's typed constructors.
func builtin(kind symbolic.SymKind, axis int) symbolic.Expr {
	return symbolic.Builtin{Kind: kind, Axis: symbolic.Axis(axis)}.Sym()
}

func tid(axis int) symbolic.Expr  { return builtin(symbolic.KindThreadIdx, axis) }
func bid(axis int) symbolic.Expr  { return builtin(symbolic.KindBlockIdx, axis) }
func bdim(axis int) symbolic.Expr { return builtin(symbolic.KindBlockDim, axis) }
func gdim(axis int) symbolic.Expr { return builtin(symbolic.KindGridDim, axis) }

// param is an integer kernel parameter; base the byte offset at which
// pointer parameter p points into its allocation.
func param(name string) symbolic.Expr {
	return symbolic.NewSym(symbolic.Var{Name: name, Class: symbolic.Uniform, Kind: symbolic.KindParam, Of: name})
}
func base(p string) symbolic.Expr {
	return symbolic.NewSym(symbolic.Var{Name: "base(" + p + ")", Class: symbolic.Uniform, Kind: symbolic.KindBase, Of: p})
}

// iter(k) stands for the iteration of the access's k-th loop (outermost
// first): the interpreter's iteration symbols carry their source site,
// so canon replaces them by these before comparing.
func iter(k int) symbolic.Expr {
	return symbolic.NewSym(symbolic.Var{Name: "iter" + "0123456789"[k:k+1], Class: symbolic.Uniform})
}

// Short arithmetic for expected expressions.
func c(v int64) symbolic.Expr { return symbolic.Const(v) }
func sum(es ...symbolic.Expr) symbolic.Expr {
	out := c(0)
	for _, e := range es {
		out = symbolic.Add(out, e)
	}
	return out
}
func mul(es ...symbolic.Expr) symbolic.Expr {
	out := c(1)
	for _, e := range es {
		out = symbolic.Mul(out, e)
	}
	return out
}

// globalX is blockIdx.x * blockDim.x + threadIdx.x, the usual 1D index.
func globalX() symbolic.Expr { return sum(mul(bid(0), bdim(0)), tid(0)) }

// runKernel parses src and interprets its only kernel.
func runKernel(t *testing.T, src string) Run {
	t.Helper()
	f := parser.Parse("k.cu", []byte(src), parser.Config{})
	p := NewProgram([]*parser.File{f})
	if len(p.Kernels) != 1 {
		t.Fatalf("want one kernel, got %d", len(p.Kernels))
	}
	return p.RunKernel(f, p.Kernels[0], nil)
}

// accessOf is the one access written expr with operation op.
func accessOf(t *testing.T, run Run, expr string, op Op) *Access {
	t.Helper()
	var found []*Access
	var all []string
	for _, a := range run.Accesses {
		all = append(all, a.Op.String()+" "+a.Expr)
		if a.Expr == expr && a.Op == op {
			found = append(found, a)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one %v of %q, got %d; accesses: %s", op, expr, len(found), strings.Join(all, "; "))
	}
	return found[0]
}

// canon is e with the access's loop iterations renamed iter(0), iter(1), ...
func canon(a *Access, e symbolic.Expr) symbolic.Expr {
	if e == nil {
		return nil
	}
	m := map[symbolic.SymID]symbolic.Expr{}
	for k, l := range a.Loops {
		m[l.Iter] = iter(k)
	}
	return symbolic.Subst(e, m)
}

// sameExpr reports whether got, canonicalised for a, is want.
func sameExpr(t *testing.T, what string, a *Access, got, want symbolic.Expr) {
	t.Helper()
	if g := canon(a, got); g == nil || symbolic.Key(g) != symbolic.Key(want) {
		t.Errorf("%s = %v, want %v", what, g, want)
	}
}

// agrees checks that condition got, canonicalised for a, has the truth
// value of want at every point: conditions are compared by what they
// decide, not by how the interpreter spells them. points bind the
// symbols by key.
func agrees(t *testing.T, what string, a *Access, got symbolic.Expr, want func(map[symbolic.SymID]int64) bool, points []map[symbolic.SymID]int64) {
	t.Helper()
	g := canon(a, got)
	for _, pt := range points {
		v, ok := symbolic.Eval(g, pt)
		if !ok {
			t.Errorf("%s = %v cannot be evaluated at %v", what, g, pt)
			return
		}
		if (v != 0) != want(pt) {
			t.Errorf("%s = %v is %d at %v, want %v", what, g, v, pt, want(pt))
		}
	}
}

// key is the key of a builtin or placeholder symbol, for evaluation points.
func key(e symbolic.Expr) symbolic.SymID {
	v, _ := symbolic.AsVar(e)
	return v.Key()
}

// unknownsIn are the unknown symbols of e.
func unknownsIn(e symbolic.Expr) []*symbolic.Var {
	var out []*symbolic.Var
	symbolic.Symbols(e, func(v *symbolic.Var) {
		if v.Kind == symbolic.KindUnknown {
			out = append(out, v)
		}
	})
	return out
}
