package symbolic

import (
	"math/rand/v2"
	"testing"
)

// TestVecMatchesCompile checks that each lane of a vector evaluation is
// what the compiled expression gives with the lane symbols at that lane's
// values: over requests that change the other symbols (some of them
// unknown, some divisors zero) and lane keys that come back, so that
// kept parts are read again.
func TestVecMatchesCompile(t *testing.T) {
	it := Sym("iter", Uniform)
	n := Sym("n", Uniform)
	huge := Const(1 << 62)
	tests := []struct {
		name string
		e    Expr
	}{
		{"lane only", Binary(OpRem, Add(tx, Mul(c(32), ty)), c(32))},
		{"lane symbol", ty},
		{"uniform only", Add(Mul(c(128), it), bx)},
		{"affine mix", Add(Add(Mul(c(4), tx), Mul(c(201028), bx)), Mul(c(128), it))},
		{"warp id and lane id", Add(Mul(c(4), Binary(OpRem, tx, c(32))), Mul(c(804112), Add(Binary(OpDiv, tx, c(32)), Mul(c(4), bx))))},
		{"loop bound", Binary(OpLt, Add(Binary(OpRem, tx, c(32)), Mul(c(32), it)), n)},
		{"bound on a warp's row", Binary(OpLe, Add(Binary(OpRem, tx, c(32)), Mul(c(32), it)), Binary(OpRem, Add(Binary(OpDiv, tx, c(32)), Mul(c(8), bx)), c(1024)))},
		{"mixed product", Mul(Add(tx, c(1)), Add(Mul(it, w), Mul(tx, it)))},
		{"product of lane and uniform atoms", Mul(Mul(Binary(OpDiv, tx, c(3)), Binary(OpDiv, it, c(5))), Binary(OpRem, Add(tx, bx), c(7)))},
		{"division by a uniform that may be zero", Binary(OpDiv, Add(tx, c(100)), Sub(it, c(2)))},
		{"remainder by a lane value that may be zero", Binary(OpRem, Add(it, c(9)), Sub(tx, c(3)))},
		{"logic with an unknown side", Binary(OpLAnd, Binary(OpLt, tx, n), Binary(OpLt, w, Add(tx, c(3))))},
		{"logic or", Binary(OpLOr, Binary(OpEq, Binary(OpRem, tx, c(4)), c(0)), Binary(OpLt, n, it))},
		{"select", Cond(Binary(OpLt, tx, it), Add(tx, w), Mul(bx, c(3)))},
		{"select on an unknown", Cond(Binary(OpLt, tx, w), ty, it)},
		{"comparisons", Add(Add(Binary(OpNe, tx, it), Binary(OpEq, ty, n)), Binary(OpLe, Add(tx, ty), bx))},
		{"min and max of mixed", Add(Binary(OpMin, Add(Mul(c(256), it), tx), Sub(n, c(1))), Binary(OpMax, tx, w))},
		{"bit operations", Add(Add(Binary(OpAnd, Add(tx, it), c(12)), Binary(OpOr, tx, w)), Binary(OpXor, ty, n))},
		{"shifts by lane", Add(Binary(OpShr, Add(w, c(1<<20)), Binary(OpRem, tx, c(8))), Binary(OpShl, it, Sub(tx, c(2))))},
		{"wrapping arithmetic", Mul(Mul(Add(tx, huge), Add(it, huge)), Add(bx, c(3)))},
		{"data operand", Add(tx, d)},
		{"constant", c(7)},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range tests {
		env := NewEnv()
		plain := Compile(tt.e, env)
		ve := NewVecEnv(env, []SymID{idOf(tx), idOf(ty)})
		vec := ve.Compile(tt.e)
		slot := func(e Expr) int { return env.Slot(idOf(e)) }
		for _, e := range []Expr{it, n, w, bx, tx, ty} {
			slot(e)
		}
		vals := env.NewValues()
		lanesOf := func(key int64) []Vec {
			in := make([]Vec, 2)
			for i := range Lanes {
				tid := key*Lanes + int64(i)
				in[0].V[i], in[1].V[i] = tid%48, tid/48
			}
			in[0].OK, in[1].OK = allLanes, allLanes
			return in
		}
		for req := 0; req < 60; req++ {
			for _, e := range []Expr{it, n, w, bx} {
				if rng.IntN(6) == 0 {
					vals.Unset(slot(e))
				} else {
					vals.Set(slot(e), rng.Int64N(64)-8)
				}
			}
			key := rng.Int64N(4)
			in := lanesOf(key)
			ve.SetLanes(key, in)
			vals.Set(slot(tx), -999) // the vector evaluation reads lanes from in alone
			got := vec(vals)
			for i := range Lanes {
				vals.Set(slot(tx), in[0].V[i])
				vals.Set(slot(ty), in[1].V[i])
				want, wantOK := plain(vals)
				gotOK := got.OK>>i&1 != 0
				if gotOK != wantOK || wantOK && got.V[i] != want {
					t.Fatalf("%s: request %d lane %d: vector %d,%v, compiled %d,%v", tt.name, req, i, got.V[i], gotOK, want, wantOK)
				}
			}
		}
	}
}

// TestVecPastKeptKeys checks lane keys past those kept, evaluated at
// every request.
func TestVecPastKeptKeys(t *testing.T) {
	e := Binary(OpRem, tx, c(5))
	env := NewEnv()
	ve := NewVecEnv(env, []SymID{idOf(tx)})
	vec := ve.Compile(e)
	for _, key := range []int64{maxVecKeys + 3, 2, -1, maxVecKeys + 3} {
		in := []Vec{{OK: allLanes}}
		for i := range Lanes {
			in[0].V[i] = key + int64(i)
		}
		ve.SetLanes(key, in)
		got := vec(env.NewValues())
		for i := range Lanes {
			if want := (key + int64(i)) % 5; got.V[i] != want {
				t.Fatalf("key %d lane %d: %d, want %d", key, i, got.V[i], want)
			}
		}
	}
}
