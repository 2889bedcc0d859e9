package symbolic

import "testing"

func TestDivisor(t *testing.T) {
	tid, n, blk := Sym("tid", Lane), Sym("n", Uniform), Sym("blk", Uniform)
	base := Sym("base", Uniform)
	// What the caller knows: n is a multiple of 8 (a launch gives 24),
	// base is zero (the pointer passed as allocated), the rest nothing.
	of := func(v *Var) int64 {
		switch v.Name {
		case "n":
			return DivisorOf(24)
		case "base":
			return MaxDivisor
		}
		return 1
	}
	tests := []struct {
		name string
		e    Expr
		want int64
	}{
		{"zero", Const(0), MaxDivisor},
		{"odd constant", Const(12 + 1), 1},
		{"constant", Const(48), 16},
		{"negative constant", Const(-8), 8},
		{"an unknown symbol", tid, 1},
		{"a float4 per lane", Mul(Const(16), tid), 16},
		{"its second float", Add(Mul(Const(16), tid), Const(4)), 4},
		{"a zero base adds nothing", Add(base, Mul(Const(16), tid)), 16},
		{"a known parameter's factor", Mul(Const(4), n), 32},
		{"rows of n floats, capped by the lane's term", Add(Mul(Mul(Const(4), n), blk), Mul(Const(16), tid)), 16},
		{"an offset of any parameter", Add(Mul(Const(16), tid), Mul(Const(4), Sym("off", Uniform))), 4},
		{"a product of symbols", Mul(Mul(Const(2), tid), blk), 2},
		{"a shift left keeps the shifted value's zeros", Binary(OpShl, Mul(Const(16), tid), blk), 16},
		{"a mask clearing low bits", Binary(OpAnd, tid, Const(-16)), 16},
		{"a mask of either side", Binary(OpAnd, Mul(Const(4), tid), Sym("m", Uniform)), 4},
		{"or keeps what both share", Binary(OpOr, Mul(Const(8), tid), Const(4)), 4},
		{"a remainder by a multiple of 32", Binary(OpRem, Mul(Const(16), tid), Mul(Const(32), blk)), 16},
		{"a quotient may be odd", Binary(OpDiv, Mul(Const(16), tid), Const(2)), 1},
		{"a shift right may be odd", Binary(OpShr, Mul(Const(16), tid), Const(3)), 1},
		{"a select: either branch", Cond(Binary(OpLt, tid, n), Mul(Const(16), tid), Mul(Const(8), tid)), 8},
		{"min of two multiples", Binary(OpMin, Mul(Const(32), tid), Mul(Const(64), blk)), 32},
		{"a comparison is 0 or 1", Binary(OpLt, tid, n), 1},
		{"large products stay capped", Mul(Mul(Const(1<<30), tid), Const(1<<30)), MaxDivisor},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Divisor(tt.e, of); got != tt.want {
				t.Errorf("Divisor(%s) = %d, want %d", tt.e, got, tt.want)
			}
		})
	}
}

func TestDivisorOf(t *testing.T) {
	for _, tt := range []struct{ c, want int64 }{{0, MaxDivisor}, {1, 1}, {6, 2}, {-16, 16}, {1 << 40, MaxDivisor}} {
		if got := DivisorOf(tt.c); got != tt.want {
			t.Errorf("DivisorOf(%d) = %d, want %d", tt.c, got, tt.want)
		}
	}
}
