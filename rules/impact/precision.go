package impact

import (
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
)

// What an operation costs depends on the type it computes in. The H200
// runs double arithmetic at half the float rate, and its math functions
// are sequences whose length depends on the precision: exp in double is
// 39 issue slots, expf 10 (testdata/truth/ops: each operation run 1024
// times a thread over 32768 warps, timed with CUDA events and counted
// with Nsight Compute). A pair loop of exp and twenty multiply-adds in
// double takes 2.8x its float twin for the same instructions (pairs.cu's
// pairloop, 2.22 ms against 0.78). So the issue term counts each
// operation in the slots its type's pipe takes.

// precision is the kind of arithmetic an operation computes in.
type precision uint8

const (
	integer precision = iota // integers, pointers, and what cudalint cannot type
	single                   // float, half
	double
)

// Issue slots an operation takes, as measured (testdata/truth/ops,
// ops_time.csv: the time over its no-operation twin, at IssueRate), the
// add or negation each probe wraps its argument in taken off.
const (
	doubleOpCost    = 2  // fma64: 2.23 slots an operation
	singleDivCost   = 12 // 1.0f / x: 12.5
	doubleDivCost   = 16 // 1.0 / x: 17.6
	unmeasuredFloat = 10 // a float math function no probe timed: as expf
	unmeasuredDbl   = 39 // a double one: as exp
)

// mathCosts are the math functions' slots by precision, as measured; a
// name with an f suffix (expf) is the single-precision one.
var mathCosts = map[string][2]float64{ // single, double
	"exp": {10, 39}, "__expf": {8, 8}, "exp2": {8, 39},
	"log": {30, 101}, "__logf": {8, 8},
	"sqrt": {11, 28}, "rsqrt": {8, 28},
	"pow": {79, 250}, "__powf": {16, 16},
	"sin": {27, 59}, "cos": {27, 59}, "__sinf": {8, 8}, "__cosf": {8, 8},
}

// mathCost is the slots of a call of the math function name computing
// in p, and whether name is one.
func mathCost(name string, p precision) (float64, bool) {
	base := strings.TrimPrefix(name, "std::")
	if c, ok := mathCosts[base]; ok {
		return pick(c, p), true
	}
	if trimmed, isF := strings.CutSuffix(base, "f"); isF && transcendental[base] {
		if c, ok := mathCosts[trimmed]; ok {
			return c[0], true
		}
		return unmeasuredFloat, true
	}
	if transcendental[base] {
		return pick([2]float64{unmeasuredFloat, unmeasuredDbl}, p), true
	}
	return 0, false
}

func pick(c [2]float64, p precision) float64 {
	if p == double {
		return c[1]
	}
	return c[0]
}

// typer tells the precision of a function's expressions from the types
// its parameters and locals are declared with.
type typer struct {
	types *ctype.Types
	vars  map[string]*ctype.Type
}

// typerOf reads fn's parameters and declarations (one name one type: a
// shadowing declaration of another type is rare in kernels).
func typerOf(fn *parser.Func, types *ctype.Types) *typer {
	t := &typer{types: types, vars: map[string]*ctype.Type{}}
	if types == nil || fn == nil {
		return t
	}
	for _, p := range fn.Params {
		if p.Name != "" && p.Type != nil {
			t.vars[p.Name] = types.Resolve(p.Type)
		}
	}
	if fn.Body != nil {
		parser.Inspect(fn.Body, func(n parser.Node) bool {
			if ds, ok := n.(*parser.DeclStmt); ok && ds.Decl != nil {
				for _, d := range ds.Decl.Declarators {
					if d.Name != "" && d.Type != nil {
						t.vars[d.Name] = arrayed(types.Resolve(d.Type), len(d.Dims))
					}
				}
			}
			return true
		})
	}
	return t
}

// arrayed is t as an array of dims dimensions (lengths do not matter here).
func arrayed(t *ctype.Type, dims int) *ctype.Type {
	for range dims {
		t = ctype.ArrayOf(t, 0)
	}
	return t
}

// precisionOf is the arithmetic values of type t compute in.
func precisionOf(t *ctype.Type) precision {
	for t != nil && t.Kind == ctype.TVector {
		t = t.Elem
	}
	if t == nil || t.Kind != ctype.TFloat {
		return integer
	}
	if t.Size >= 8 {
		return double
	}
	return single
}

// typeOf is the type of e where its declarations say it, else nil.
func (t *typer) typeOf(e parser.Expr) *ctype.Type {
	switch x := e.(type) {
	case *parser.Ident:
		return t.vars[x.Name]
	case *parser.Index:
		return elem(t.typeOf(x.X))
	case *parser.Unary:
		if x.Op == parser.Mul {
			return elem(t.typeOf(x.X))
		}
		return t.typeOf(x.X)
	case *parser.Member:
		s := t.typeOf(x.X)
		if x.Arrow {
			s = elem(s)
		}
		if s == nil {
			return nil
		}
		if f, ok := s.Field(x.Name); ok {
			return f.Type
		}
	case *parser.Cast:
		if t.types != nil && x.Type != nil {
			return t.types.Resolve(x.Type)
		}
	}
	return nil
}

func elem(t *ctype.Type) *ctype.Type {
	if t != nil && (t.Kind == ctype.TPointer || t.Kind == ctype.TArray) {
		return t.Elem
	}
	return nil
}

// precision is the arithmetic e computes in, by C's conversions: the
// wider of an operation's operands; a literal without an f suffix is a
// double (2.0 * x is double arithmetic for a float x, as nvcc compiles
// it); an assignment computes in its target's type.
func (t *typer) precision(e parser.Expr) precision {
	switch x := e.(type) {
	case *parser.FloatLit:
		if strings.HasSuffix(x.Text, "f") || strings.HasSuffix(x.Text, "F") {
			return single
		}
		return double
	case *parser.IntLit:
		return integer
	case *parser.Binary:
		if x.Op.IsAssign() {
			return max(t.precision(x.X), t.precisionOfAssigned(x))
		}
		return max(t.precision(x.X), t.precision(x.Y))
	case *parser.Ternary:
		return max(t.precision(x.Then), t.precision(x.Else))
	case *parser.Postfix:
		return t.precision(x.X)
	case *parser.Unary:
		if x.Op != parser.Mul && x.Op != parser.And {
			return t.precision(x.X)
		}
	case *parser.Call:
		return t.callPrecision(x)
	}
	return precisionOf(t.typeOf(e))
}

// precisionOfAssigned: a compound assignment (+=) computes in the wider
// of its target and its value; a plain one converts its value.
func (t *typer) precisionOfAssigned(x *parser.Binary) precision {
	if x.Op == parser.Assign {
		return integer
	}
	return t.precision(x.Y)
}

// callPrecision: a math function computes in its name's precision (expf)
// or its arguments' (exp, which C++ overloads for float); a cast written
// as a call (float(x)) in its type's.
func (t *typer) callPrecision(x *parser.Call) precision {
	id, ok := x.Fun.(*parser.Ident)
	if !ok {
		return integer
	}
	if bt, ok := ctype.Builtin(id.Name); ok {
		return precisionOf(bt)
	}
	name := strings.TrimPrefix(id.Name, "std::")
	if _, isMath := mathCosts[name]; !isMath && !transcendental[name] {
		return integer
	}
	if strings.HasSuffix(name, "f") || strings.HasPrefix(name, "__") {
		return single
	}
	p := integer
	for _, a := range x.Args {
		p = max(p, t.precision(a))
	}
	if p == integer {
		p = double // exp(2): the double overload
	}
	return p
}
