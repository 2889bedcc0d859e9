package parser

import "testing"

// Every operator reads back from its spelling: the converter sets Ops by
// spelling, and a missing or shared one would silently change a tree.
func TestOpSpellingsRoundTrip(t *testing.T) {
	seen := map[string]Op{}
	for op := Add; op < numOps; op++ {
		s := op.String()
		if s == "" || s == "?" {
			t.Errorf("Op %d has no spelling", op)
		}
		if prev, ok := seen[s]; ok {
			t.Errorf("%q is the spelling of both Op %d and Op %d", s, prev, op)
		}
		seen[s] = op
		if got := lookupOp(s); got != op {
			t.Errorf("lookupOp(%q) = %d, want %d", s, got, op)
		}
	}
}

func TestOpArithAndIsAssign(t *testing.T) {
	tests := []struct {
		op     Op
		arith  Op
		assign bool
	}{
		{Assign, NoOp, true},
		{AddAssign, Add, true},
		{ShlAssign, Shl, true},
		{ShrAssign, Shr, true},
		{XorAssign, Xor, true},
		{Inc, Add, false},
		{Dec, Sub, false},
		{Add, Add, false},
		{Eql, Eql, false},
		{LogAnd, LogAnd, false},
	}
	for _, tt := range tests {
		if got := tt.op.Arith(); got != tt.arith {
			t.Errorf("%s.Arith() = %s, want %s", tt.op, got, tt.arith)
		}
		if got := tt.op.IsAssign(); got != tt.assign {
			t.Errorf("%s.IsAssign() = %v, want %v", tt.op, got, tt.assign)
		}
	}
}

// The tree holds typed operators, set once by the converter.
func TestParsedOperatorsAreTyped(t *testing.T) {
	f := parse(t, "__device__ void h(int *p, int a) { a <<= -*p; if (a != 0 && !a) continue; }")
	h := funcNamed(f, "h")
	if h == nil || len(h.Body.Stmts) != 2 {
		t.Fatalf("not parsed; notes %v", f.Notes)
	}
	as := h.Body.Stmts[0].(*ExprStmt).X.(*Binary)
	neg := as.Y.(*Unary)
	if as.Op != ShlAssign || neg.Op != Sub || neg.X.(*Unary).Op != Deref {
		t.Errorf("a <<= -*p read as %s, %s, %s", as.Op, neg.Op, neg.X.(*Unary).Op)
	}
	cond := h.Body.Stmts[1].(*If).Cond.(*Binary)
	if cond.Op != LogAnd || cond.X.(*Binary).Op != Neq || cond.Y.(*Unary).Op != Not {
		t.Errorf("a != 0 && !a read as %s", Format(cond))
	}
	if j, ok := h.Body.Stmts[1].(*If).Then.(*Jump); !ok || j.Kind != Continue || j.Kind.String() != "continue" {
		t.Errorf("continue read as %v", h.Body.Stmts[1].(*If).Then)
	}
}
