package symbolic

import (
	"strings"
	"testing"
)

// The typed constructors make symbols whose kind, axis and parameter are
// fields, print as CUDA spells them, and are identified by what the
// matching ID constructor gives.
func TestTypedSymbols(t *testing.T) {
	tests := []struct {
		name  string
		sym   Expr
		id    SymID
		print string
		kind  SymKind
		axis  Axis
		of    string
		class Class
	}{
		{"threadIdx.y", ThreadIdx(Y).Sym(), ThreadIdx(Y).ID(), "threadIdx.y", KindThreadIdx, Y, "", Lane},
		{"blockIdx.x", BlockIdx(X).Sym(), BlockIdx(X).ID(), "blockIdx.x", KindBlockIdx, X, "", Uniform},
		{"blockDim.z", BlockDim(Z).Sym(), BlockDim(Z).ID(), "blockDim.z", KindBlockDim, Z, "", Uniform},
		{"gridDim.y", GridDim(Y).Sym(), GridDim(Y).ID(), "gridDim.y", KindGridDim, Y, "", Uniform},
		{"a parameter", ParamSym("n"), ParamID("n"), "n", KindParam, X, "n", Uniform},
		{"a base", BaseSym("p"), BaseID("p"), "base(p)", KindBase, X, "p", Uniform},
		{"a null test", NonNullSym("p"), NonNullID("p"), "nonnull(p)", KindNonNull, X, "p", Uniform},
		{"a loop-entry placeholder", EntrySym("k"), EntryID("k"), "entry:k", KindEntry, X, "k", Uniform},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := AsVar(tt.sym)
			if !ok {
				t.Fatalf("%s is not a symbol", tt.sym)
			}
			if id, _ := IDOf(tt.sym); id != tt.id || v.Key() != tt.id {
				t.Errorf("identity %v, want the ID constructor's %v", id, tt.id)
			}
			if v.String() != tt.print || v.Kind != tt.kind || v.Axis != tt.axis || v.Of != tt.of || v.Class != tt.class {
				t.Errorf("got %q %v axis %v of %q %v, want %q %v axis %v of %q %v",
					v, v.Kind, v.Axis, v.Of, v.Class, tt.print, tt.kind, tt.axis, tt.of, tt.class)
			}
		})
	}
}

// Builtins of one kind along different axes, or of different kinds along
// one axis, are different symbols, and so are a builtin and a test symbol
// that prints like it.
func TestBuiltinIdentities(t *testing.T) {
	seen := map[SymID]Builtin{}
	for _, k := range BuiltinKinds {
		for _, a := range Axes {
			b := Builtin{k, a}
			if other, dup := seen[b.ID()]; dup {
				t.Errorf("%s and %s share an identity", b, other)
			}
			seen[b.ID()] = b
			if b.String() != b.Sym().String() {
				t.Errorf("%s prints as %s", b, b.Sym())
			}
		}
	}
	if !Mentions(Add(ThreadIdx(X).Sym(), BlockIdx(Y).Sym()), BlockIdx(Y).ID()) || Mentions(ThreadIdx(X).Sym(), ThreadIdx(Y).ID()) {
		t.Error("Mentions goes by the builtin's kind and axis")
	}
	if lookalike := Sym("threadIdx.x", Lane); Mentions(lookalike, ThreadIdx(X).ID()) || idOf(lookalike) == ThreadIdx(X).ID() {
		t.Error("a symbol named threadIdx.x is not threadIdx.x")
	}
}

// Format prints as String does, with the names the callback gives, called
// in printed order: messages rename loop iterations i, j, k by walking
// the symbols, not by matching the printed text.
func TestFormat(t *testing.T) {
	loop := func(line int32) Expr {
		return NewSym(Var{Name: "iter@" + string(rune('0'+line)) + ":5", Kind: KindLoopIter, Site: Site{Line: line, Col: 5}, ID: 1})
	}
	i1, i2, n := loop(2), loop(7), ParamSym("n")
	tests := []struct {
		name string
		e    Expr
	}{
		{"a sum", Add(Mul(i2, n), i1)},
		{"a shift", Binary(OpShl, Const(2), Add(i1, Const(1)))},
		{"a select", Cond(Binary(OpLt, i1, n), Mul(i2, Const(4)), n)},
		{"a product", Mul(Mul(i1, i2), n)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var order []string
			got := Format(tt.e, func(v *Var) string {
				if v.Kind != KindLoopIter {
					return v.Name
				}
				order = append(order, v.Name)
				return strings.ToUpper(v.Name)
			})
			if want := strings.ReplaceAll(tt.e.String(), "iter@", "ITER@"); got != want {
				t.Errorf("Format = %q, want %q", got, want)
			}
			if !inOrder(tt.e.String(), order) {
				t.Errorf("names asked in order %v, not as printed in %s", order, tt.e)
			}
		})
	}
}

// inOrder reports whether names occur in s in that order.
func inOrder(s string, names []string) bool {
	for _, n := range names {
		i := strings.Index(s, n)
		if i < 0 {
			return false
		}
		s = s[i+len(n):]
	}
	return true
}
