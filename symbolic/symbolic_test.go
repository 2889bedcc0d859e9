package symbolic

import "testing"

var (
	tx  = ThreadIdx(X).Sym()
	ty  = ThreadIdx(Y).Sym()
	bx  = BlockIdx(X).Sym()
	w   = Sym("w", Uniform)
	wID = idOf(w)
	d   = Sym("loaded", Data)
	c   = Const
)

func TestSimplify(t *testing.T) {
	tests := []struct {
		name string
		got  Expr
		want string
	}{
		{"constants fold", Add(c(2), Mul(c(3), c(4))), "14"},
		{"like terms merge", Add(tx, tx), "2*threadIdx.x"},
		{"terms cancel", Sub(Add(tx, w), tx), "w"},
		{"distributes", Mul(Add(ty, c(1)), w), "threadIdx.y*w + w"},
		{"canonical order", Add(Mul(w, ty), tx), Add(tx, Mul(ty, w)).String()},
		{"shift left by constant is a product", Binary(OpShl, tx, c(3)), "8*threadIdx.x"},
		{"divide by one", Binary(OpDiv, tx, c(1)), "threadIdx.x"},
		{"remainder by one", Binary(OpRem, tx, c(1)), "0"},
		{"division stays exact", Binary(OpDiv, tx, c(2)), "threadIdx.x / 2"},
		{"constant division truncates", Binary(OpDiv, c(-7), c(2)), "-3"},
		{"constant remainder keeps sign", Binary(OpRem, c(-7), c(2)), "-1"},
		{"select on constant", Cond(c(0), tx, w), "w"},
		{"select of equal arms", Cond(tx, w, w), "w"},
		{"not", Not(c(0)), "1"},
	}
	for _, tt := range tests {
		if got := tt.got.String(); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestClass(t *testing.T) {
	tests := []struct {
		e    Expr
		want Class
	}{
		{c(3), Uniform},
		{Add(bx, w), Uniform},
		{Add(Mul(bx, c(256)), tx), Lane},
		{Binary(OpDiv, tx, c(32)), Lane},
		{Add(tx, d), Data},
		{Cond(d, tx, bx), Data},
	}
	for _, tt := range tests {
		if got := ClassOf(tt.e); got != tt.want {
			t.Errorf("%s: class %v, want %v", tt.e, got, tt.want)
		}
	}
}

func TestEval(t *testing.T) {
	bind := map[SymID]int64{ThreadIdx(X).ID(): 37, ThreadIdx(Y).ID(): 3, BlockIdx(X).ID(): 2, wID: 1001}
	tests := []struct {
		e      Expr
		want   int64
		wantOK bool
	}{
		{Add(Mul(bx, c(256)), tx), 549, true},
		{Add(Mul(Binary(OpRem, tx, c(8)), w), Binary(OpDiv, tx, c(8))), 5*1001 + 4, true},
		{Binary(OpShr, c(-9), c(1)), -5, true}, // arithmetic shift floors
		{Binary(OpAnd, tx, c(31)), 5, true},
		{Binary(OpLt, Binary(OpRem, tx, c(32)), c(16)), 1, true},
		{Binary(OpMin, tx, ty), 3, true},
		{Cond(Binary(OpLt, tx, c(10)), c(1), c(2)), 2, true},
		{Binary(OpDiv, tx, Sub(ty, c(3))), 0, false}, // division by zero
		{Add(tx, d), 0, false},                       // unbound
		{Binary(OpLAnd, c(0), d), 0, true},           // short-circuits past the unknown
		{Binary(OpLOr, c(1), d), 1, true},
	}
	for _, tt := range tests {
		got, ok := Eval(tt.e, bind)
		if ok != tt.wantOK || (ok && got != tt.want) {
			t.Errorf("%s = %d, %v; want %d, %v", tt.e, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestCoefficientAndSubst(t *testing.T) {
	addr := Mul(Add(Mul(ty, w), tx), c(4)) // (y*w + x) * 4 bytes
	tests := []struct {
		sym    Builtin
		want   string
		affine bool
	}{
		{ThreadIdx(X), "4", true},
		{ThreadIdx(Y), "4*w", true},
		{BlockIdx(X), "0", true},
	}
	for _, tt := range tests {
		got, ok := Coefficient(addr, tt.sym.ID())
		if ok != tt.affine || (ok && got.String() != tt.want) {
			t.Errorf("coefficient of %s in %s = %v, %v; want %s", tt.sym, addr, got, ok, tt.want)
		}
	}
	if _, ok := Coefficient(Binary(OpDiv, tx, c(2)), ThreadIdx(X).ID()); ok {
		t.Error("tx/2 is not affine in tx")
	}
	if _, ok := Coefficient(Mul(tx, tx), ThreadIdx(X).ID()); ok {
		t.Error("tx*tx is not affine in tx")
	}
	got := Subst(addr, map[SymID]Expr{wID: c(1024)})
	if want := "4*threadIdx.x + 4096*threadIdx.y"; got.String() != want {
		t.Errorf("subst = %s, want %s", got, want)
	}
	if !Mentions(addr, wID) || Mentions(got, wID) {
		t.Error("Mentions")
	}
}

func TestCompileMatchesEval(t *testing.T) {
	e := Add(Mul(Binary(OpRem, tx, c(8)), w), Cond(Binary(OpLt, tx, c(16)), bx, Neg(bx)))
	env := NewEnv()
	f := Compile(e, env)
	for x := int64(0); x < 32; x++ {
		vals := env.NewValues()
		bind := map[SymID]int64{ThreadIdx(X).ID(): x, wID: 100, BlockIdx(X).ID(): 7}
		for id, v := range bind {
			vals.Set(env.Slot(id), v)
		}
		got, ok := f(vals)
		want, wok := Eval(e, bind)
		if got != want || ok != wok {
			t.Fatalf("x=%d: compiled %d,%v; eval %d,%v", x, got, ok, want, wok)
		}
	}
}

// Repeated squaring would double the degree each step; the limits turn it
// into TooComplex after a few steps instead.
func TestSizeLimits(t *testing.T) {
	x, y := Sym("x", Uniform), Sym("y", Uniform)
	for i := 0; i < 40; i++ {
		x, y = Add(Sub(Mul(x, x), Mul(y, y)), c(1)), Add(Mul(Mul(x, y), c(2)), c(3))
	}
	if ClassOf(x) != Data || !IsTooComplex(x) {
		t.Errorf("x = %.80s..., want TooComplex", x)
	}
	sum := Const(0)
	for i := 0; i < 200; i++ {
		sum = Add(sum, Sym(string(rune('a'+i%26))+string(rune('a'+i/26)), Uniform))
	}
	if !IsTooComplex(sum) {
		t.Errorf("a sum of 200 symbols should be too complex")
	}
}

// Selects nested through shared parts would print exponentially; the size
// bound stops them.
func TestSharedSelectsStayBounded(t *testing.T) {
	v := Sym("v", Uniform)
	for i := 0; i < 60; i++ {
		v = Cond(Binary(OpLt, v, c(int64(i))), Add(v, c(1)), Sub(v, c(1)))
	}
	if !IsTooComplex(v) || len(v.String()) > 10000 {
		t.Errorf("size not bounded: %d bytes", len(v.String()))
	}
}

// && and || are canonicalised with their operands sorted, so their value
// must not depend on which operand comes first: a known operand that
// decides the result decides it even when the other is unknown (Kleene's
// three-valued logic). tx is 37 here, d unbound.
func TestShortCircuitEitherOrder(t *testing.T) {
	bind := map[SymID]int64{ThreadIdx(X).ID(): 37}
	small := Binary(OpLt, tx, c(10)) // false
	big := Binary(OpLt, c(10), tx)   // true
	tests := []struct {
		name   string
		e      Expr
		want   int64
		wantOK bool
	}{
		{"unknown && false", Binary(OpLAnd, d, small), 0, true},
		{"false && unknown", Binary(OpLAnd, small, d), 0, true},
		{"unknown && true", Binary(OpLAnd, d, big), 0, false},
		{"unknown || true", Binary(OpLOr, d, big), 1, true},
		{"true || unknown", Binary(OpLOr, big, d), 1, true},
		{"unknown || false", Binary(OpLOr, d, small), 0, false},
		{"undefined && false", Binary(OpLAnd, Binary(OpLt, c(3), Binary(OpDiv, w, Sub(tx, c(37)))), small), 0, true},
		{"true && true", Binary(OpLAnd, big, Binary(OpLt, tx, c(40))), 1, true},
	}
	for _, tt := range tests {
		got, ok := Eval(tt.e, bind)
		if ok != tt.wantOK || (ok && got != tt.want) {
			t.Errorf("%s: %s = %d, %v; want %d, %v", tt.name, tt.e, got, ok, tt.want, tt.wantOK)
		}
	}
}

// Values made before later compilations added slots must grow to cover
// them rather than be indexed past their end.
func TestValuesGrow(t *testing.T) {
	env := NewEnv()
	f := Compile(tx, env)
	vals := env.NewValues()
	vals.Set(env.Slot(ThreadIdx(X).ID()), 5)
	g := Compile(Add(tx, w), env) // adds a slot for w
	vals.Grow(env)
	if got, ok := g(vals); ok {
		t.Errorf("tx + w with w unset = %d, want unknown", got)
	}
	vals.Set(env.Slot(wID), 100)
	if got, ok := g(vals); !ok || got != 105 {
		t.Errorf("tx + w = %d, %v; want 105", got, ok)
	}
	if got, ok := f(vals); !ok || got != 5 {
		t.Errorf("tx after growing = %d, %v; want 5", got, ok)
	}
}

// A symbol's identity is its kind, site and ID, not its name: two loops
// printed alike are different symbols; the same site and ID are one.
func TestSymbolIdentity(t *testing.T) {
	loop := func(file string, id int) Expr {
		return NewSym(Var{Name: "iter@3:16", Kind: KindLoopIter, Site: Site{File: file, Line: 3, Col: 16}, ID: id})
	}
	tests := []struct {
		name string
		a, b Expr
		same bool
	}{
		{"same site", loop("m.cu", 1), loop("m.cu", 1), true},
		{"same line and column, other file", loop("m.cu", 1), loop("h.cuh", 1), false},
		{"same site, other loop (a macro's two loops)", loop("m.cu", 1), loop("m.cu", 2), false},
		{"a parameter is its name", NewSym(Var{Name: "n", Kind: KindParam}), NewSym(Var{Name: "n", Kind: KindParam}), true},
		{"unknowns with one name, other IDs", NewSym(Var{Name: "v", Kind: KindUnknown, ID: 1}), NewSym(Var{Name: "v", Kind: KindUnknown, ID: 2}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Sub(tt.a, tt.b)
			_, zero := IsConst(d)
			if zero != tt.same || (Key(tt.a) == Key(tt.b)) != tt.same {
				t.Errorf("a - b = %s (keys %q, %q): same %v, want %v", d, Key(tt.a), Key(tt.b), zero, tt.same)
			}
			if tt.a.String() != tt.b.String() {
				t.Errorf("printed %q and %q: the name alone is printed", tt.a, tt.b)
			}
		})
	}
	// Substitution and evaluation go by identity too.
	a, b := loop("m.cu", 1), loop("h.cuh", 1)
	va, _ := AsVar(a)
	if got := Subst(Add(a, b), map[SymID]Expr{va.Key(): Const(5)}); got.String() != "iter@3:16 + 5" {
		t.Errorf("subst: %s", got)
	}
}
