package interp

import (
	"math"
	"strconv"
	"strings"

	"github.com/cudalint/cudalint/analyzer/ctype"
	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/symbolic"
)

// Floating-point values are not followed as symbols: they stand for an
// unknown the same in every lane (or for data). But host code computes
// launch sizes through them, `const int Tc = ceil((float) N / Bc);` in
// llm.c's flash attention, `int blocks = ceil(n / 256.0);` in many more,
// and a number computed from constants alone is known exactly, with C's
// rounding to float or double at every step. value.num carries it.

// knownNumber is v's number when the model knows it: a floating value
// computed from constants, or an integer constant.
func knownNumber(v value) (float64, bool) {
	if v.num != nil {
		return *v.num, true
	}
	if v.kind != vInt || isFloat(v.typ) || v.x == nil {
		return 0, false
	}
	c, ok := symbolic.IsConst(v.x)
	return float64(c), ok
}

// withNumber is floating value v knowing that its number is x, rounded
// to v's type as C stores it.
func withNumber(v value, x float64) value {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return v
	}
	x = roundTo(v.typ, x)
	v.num = &x
	return v
}

// roundTo rounds x to floating type t: float keeps 24 bits.
func roundTo(t *ctype.Type, x float64) float64 {
	if t != nil && t.Kind == ctype.TFloat && t.Size == 4 {
		return float64(float32(x))
	}
	return x
}

// floatLiteral is the number a floating literal writes (1.5f, 2e3, 0x1p4).
func floatLiteral(text string) (float64, bool) {
	t := strings.TrimRight(text, "fFlL")
	x, err := strconv.ParseFloat(t, 64)
	return x, err == nil
}

// floatArith is op applied to the known numbers of a and b, in the type
// C computes it in (the wider floating type of the two), when both are
// known and op is arithmetic.
func floatArith(op parser.Op, a, b value) (float64, *ctype.Type, bool) {
	x, ok1 := knownNumber(a)
	y, ok2 := knownNumber(b)
	if !ok1 || !ok2 {
		return 0, nil, false
	}
	t := widerFloat(a.typ, b.typ)
	x, y = roundTo(t, x), roundTo(t, y)
	switch op {
	case parser.Add:
		return roundTo(t, x+y), t, true
	case parser.Sub:
		return roundTo(t, x-y), t, true
	case parser.Mul:
		return roundTo(t, x*y), t, true
	case parser.Quo:
		if y == 0 {
			return 0, nil, false
		}
		return roundTo(t, x/y), t, true
	}
	return 0, nil, false
}

// widerFloat is the floating type an operation on a and b computes in.
func widerFloat(a, b *ctype.Type) *ctype.Type {
	switch {
	case !isFloat(a):
		return b
	case !isFloat(b):
		return a
	case b.Size > a.Size:
		return b
	}
	return a
}

// truncated is floating value v converted to an integer, as C truncates
// it, when its number is known and fits.
func truncated(v value) (int64, bool) {
	if v.num == nil || !isFloat(v.typ) {
		return 0, false
	}
	x := math.Trunc(*v.num)
	if math.Abs(x) > 1<<62 {
		return 0, false
	}
	return int64(x), true
}

// mathOfKnown is the math library's function name of arguments whose
// numbers are known (ceil, floor, sqrt, fmin, ...), as a floating value:
// ceilf and the other f-suffixed ones in float, the rest in double (or,
// for std:: overloads, in the argument's type).
func mathOfKnown(name string, args []value, result value) (value, bool) {
	xs := make([]float64, len(args))
	for i, a := range args {
		x, ok := knownNumber(a)
		if !ok {
			return value{}, false
		}
		xs[i] = x
	}
	base := strings.TrimPrefix(name, "std::")
	t, _ := ctype.Builtin("double")
	if f, cut := strings.CutSuffix(base, "f"); cut && mathFuncs[f] != nil && base == name {
		t, _ = ctype.Builtin("float") // ceilf: the float variant
		base = f
	} else if base != name && len(args) > 0 && isFloat(args[0].typ) {
		t = args[0].typ // std::ceil(x): x's type
	}
	fn := mathFuncs[base]
	if fn == nil {
		return value{}, false
	}
	y, ok := fn(xs)
	if !ok {
		return value{}, false
	}
	result.typ = t
	return withNumber(result, y), true
}

// mathFuncs evaluate the functions whose value sizes code computes, for
// the arguments they are defined at.
var mathFuncs = map[string]func(xs []float64) (float64, bool){
	"ceil":  unary(math.Ceil, nil),
	"floor": unary(math.Floor, nil),
	"round": unary(math.Round, nil),
	"trunc": unary(math.Trunc, nil),
	"sqrt":  unary(math.Sqrt, func(x float64) bool { return x >= 0 }),
	"log2":  unary(math.Log2, func(x float64) bool { return x > 0 }),
	"fabs":  unary(math.Abs, nil),
	"fmin":  binary(math.Min),
	"fmax":  binary(math.Max),
	"pow":   binary(math.Pow),
}

func unary(f func(float64) float64, defined func(float64) bool) func([]float64) (float64, bool) {
	return func(xs []float64) (float64, bool) {
		if len(xs) != 1 || defined != nil && !defined(xs[0]) {
			return 0, false
		}
		return f(xs[0]), true
	}
}

func binary(f func(x, y float64) float64) func([]float64) (float64, bool) {
	return func(xs []float64) (float64, bool) {
		if len(xs) != 2 {
			return 0, false
		}
		return f(xs[0], xs[1]), true
	}
}
