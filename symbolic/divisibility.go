package symbolic

import "math/bits"

// Divisibility: the largest power of two that divides an integer
// expression for every value of its symbols, in the spirit of Triton's
// AxisInfo. A rule that asks whether a byte address is aligned to a
// vector's width reads it: an address that is a multiple of 16 for every
// lane, block and value of the kernel's parameters may be read as a
// float4.

// MaxDivisor is the largest divisor Divisor reports: what divides zero,
// and more than any alignment an access needs.
const MaxDivisor = int64(1) << maxDivisorLog

const maxDivisorLog = 20

// Divisor is the largest power of two, at most MaxDivisor, that divides
// e whatever the values of its symbols. of gives, per symbol, a power of
// two known to divide every value it takes: 1 for a symbol nothing is
// known of (a thread index, a parameter no launch gives), MaxDivisor for
// one known to be zero, the value's own for one known to be a value
// (DivisorOf).
func Divisor(e Expr, of func(*Var) int64) int64 {
	return int64(1) << divisorLog(e, of)
}

// DivisorOf is the largest power of two, at most MaxDivisor, that divides
// c: MaxDivisor for zero, which every power of two divides.
func DivisorOf(c int64) int64 { return int64(1) << constLog(c) }

// divisorLog is Divisor's exponent: adding exponents where Divisor
// multiplies keeps products of large divisors from overflowing.
func divisorLog(e Expr, of func(*Var) int64) int {
	switch x := e.(type) {
	case *Poly:
		return polyLog(x, of)
	case *Var:
		return varLog(x, of)
	case *Op:
		return opLog(x, of)
	case *Select: // either branch's value
		return min(divisorLog(x.Then, of), divisorLog(x.Else, of))
	}
	return 0
}

// polyLog: a sum is divisible by what divides every term; a term, by
// the product of what divides its coefficient and each factor.
func polyLog(p *Poly, of func(*Var) int64) int {
	out := maxDivisorLog // the empty sum is zero
	if p.Const != 0 {
		out = constLog(p.Const)
	}
	for _, t := range p.Terms {
		term := constLog(t.Coeff)
		for _, a := range t.Atoms {
			term = min(maxDivisorLog, term+divisorLog(a, of))
		}
		out = min(out, term)
	}
	return out
}

func varLog(v *Var, of func(*Var) int64) int {
	d := of(v)
	if d <= 0 {
		return 0 // no fact: a symbol may be odd
	}
	return constLog(d) // the largest power of two of what the caller gave
}

// opLog bounds the operators that keep low zero bits: a remainder and a
// mask keep what both (or either) sides share, a shift left keeps the
// shifted value's; a quotient or a shift right may make any value odd.
func opLog(o *Op, of func(*Var) int64) int {
	x, y := func() int { return divisorLog(o.X, of) }, func() int { return divisorLog(o.Y, of) }
	switch o.Kind {
	case OpAnd: // a mask clears bits: the low zeros of either side stay
		return max(x(), y())
	case OpOr, OpXor, OpMin, OpMax:
		return min(x(), y())
	case OpRem: // x % y is x - (x / y) * y
		return min(x(), y())
	case OpShl: // by a non-negative amount: at least x's zeros
		return x()
	}
	return 0 // quotients, shifts right, comparisons (0 or 1)
}

// constLog is the number of low zero bits of c, at most maxDivisorLog.
func constLog(c int64) int {
	if c == 0 {
		return maxDivisorLog
	}
	return min(maxDivisorLog, bits.TrailingZeros64(uint64(c)))
}
