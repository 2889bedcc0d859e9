package warp

import (
	"math"
	"testing"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/analyzer/launch"
	"github.com/cudalint/cudalint/parser/lex"
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

// param is a size the user can give (a kernel parameter).
func param(name string) symbolic.Expr {
	return symbolic.NewSym(symbolic.Var{Name: name, Class: symbolic.Uniform, Kind: symbolic.KindParam, Of: name})
}

// loopIter is the iteration symbol of a loop; its key is what Loop.Iter holds.
func loopIter(name string) symbolic.Expr {
	return symbolic.NewSym(symbolic.Var{Name: name, Class: symbolic.Uniform, Kind: symbolic.KindLoopIter, Site: symbolic.Site{Line: 1, Col: 1}})
}

// loaded is a value read from memory by expression of: data (per lane)
// or uniform (the same in every lane, as boxes[blockIdx.x].offset).
func loaded(of string, class symbolic.Class) symbolic.Expr {
	return symbolic.NewSym(symbolic.Var{Name: of, Class: class, Kind: symbolic.KindUnknown, Cause: symbolic.CauseLoadedValue, Of: of, Site: symbolic.Site{Line: 7, Col: 3}, ID: 1})
}

func keyOf(e symbolic.Expr) symbolic.SymID {
	v, _ := symbolic.AsVar(e)
	return v.Key()
}

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
func lt(a, b symbolic.Expr) symbolic.Expr { return symbolic.Binary(symbolic.OpLt, a, b) }

// globalX is blockIdx.x * blockDim.x + threadIdx.x.
func globalX() symbolic.Expr { return sum(mul(bid(0), bdim(0)), tid(0)) }

func typ(t *testing.T, name string) *ctype.Type {
	t.Helper()
	ty, ok := ctype.Builtin(name)
	if !ok {
		t.Fatalf("no builtin type %s", name)
	}
	return ty
}

// access is a global load of type ty at addr, lanes passing guards.
func access(ty *ctype.Type, addr symbolic.Expr, guards ...symbolic.Expr) *interp.Access {
	return &interp.Access{Op: interp.Load, Space: interp.Global, Base: interp.Alloc{Kind: interp.AllocParam, Name: "in"}, Addr: addr, Type: ty, Guards: guards}
}

// shared is access in shared memory.
func shared(ty *ctype.Type, addr symbolic.Expr) *interp.Access {
	a := access(ty, addr)
	a.Space = interp.Shared
	return a
}

// inLoop puts a inside a loop of iteration iter running while cond holds,
// with the given constant trip count (0: none) and pragma.
func inLoop(a *interp.Access, iter symbolic.Expr, cond symbolic.Expr, trip int64, unroll lex.Unroll) *interp.Access {
	a.Loops = append(a.Loops, &interp.Loop{Iter: keyOf(iter), Cond: cond, Trip: trip, Unroll: unroll, Accesses: 1})
	return a
}

// config is a launch of grid x block with every grid dimension known
// and the given integer parameters.
func config(grid, block launch.Dim3, params map[string]int64) *launch.Config {
	return &launch.Config{Block: block, Grid: grid, GridKnown: [3]bool{true, true, true}, BlockKnown: [3]bool{true, true, true}, Params: params, Bases: map[string]int64{}}
}

func dim(x, y int64) launch.Dim3 { return launch.Dim3{x, y, 1} }

// near compares averages of sector counts.
func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// hasAssumption reports whether p rests on an assumption of kind k about name.
func hasAssumption(p *Prediction, k AssumptionKind, name string) (Assumption, bool) {
	for _, a := range p.Assumptions {
		if a.Kind == k && a.Name == name {
			return a, true
		}
	}
	return Assumption{}, false
}
