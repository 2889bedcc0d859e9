package parser

// WalkExpr calls f for e and every expression inside it, outermost first.
func WalkExpr(e Expr, f func(Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch e := e.(type) {
	case *Unary:
		WalkExpr(e.X, f)
	case *Postfix:
		WalkExpr(e.X, f)
	case *Binary:
		WalkExpr(e.X, f)
		WalkExpr(e.Y, f)
	case *Ternary:
		WalkExpr(e.Cond, f)
		WalkExpr(e.Then, f)
		WalkExpr(e.Else, f)
	case *Call:
		WalkExpr(e.Fun, f)
		for _, a := range e.Args {
			WalkExpr(a, f)
		}
	case *Launch:
		for _, a := range append(append([]Expr{}, e.Config...), e.Args...) {
			WalkExpr(a, f)
		}
	case *Index:
		WalkExpr(e.X, f)
		WalkExpr(e.Index, f)
	case *Member:
		WalkExpr(e.X, f)
	case *Cast:
		WalkExpr(e.X, f)
	case *SizeofExpr:
		WalkExpr(e.X, f)
	case *InitList:
		for _, a := range e.Elems {
			WalkExpr(a, f)
		}
	case *Lambda:
		// A lambda's body is code of the function it is written in.
		if e.Fn != nil && e.Fn.Body != nil {
			WalkStmt(e.Fn.Body, f)
		}
	}
}

// WalkStmt calls f for every expression in s, in source order.
func WalkStmt(s Stmt, f func(Expr)) {
	switch s := s.(type) {
	case *Block:
		for _, x := range s.Stmts {
			WalkStmt(x, f)
		}
	case *DeclStmt:
		for _, d := range s.Decl.Declarators {
			WalkExpr(d.Init, f)
			for _, a := range d.Ctor {
				WalkExpr(a, f)
			}
		}
	case *ExprStmt:
		WalkExpr(s.X, f)
	case *If:
		WalkExpr(s.Cond, f)
		WalkStmt(s.Then, f)
		if s.Else != nil {
			WalkStmt(s.Else, f)
		}
	case *For:
		if s.Init != nil {
			WalkStmt(s.Init, f)
		}
		WalkExpr(s.Cond, f)
		WalkExpr(s.Post, f)
		WalkStmt(s.Body, f)
	case *While:
		WalkExpr(s.Cond, f)
		WalkStmt(s.Body, f)
	case *Switch:
		WalkExpr(s.Tag, f)
		WalkStmt(s.Body, f)
	case *Return:
		WalkExpr(s.X, f)
	case *Case:
		WalkExpr(s.Value, f)
	}
}

// EachStmt calls f for s and every statement nested in it (blocks,
// branches, loop and switch bodies), outermost first.
func EachStmt(s Stmt, f func(Stmt)) {
	if s == nil {
		return
	}
	f(s)
	switch s := s.(type) {
	case *Block:
		for _, x := range s.Stmts {
			EachStmt(x, f)
		}
	case *If:
		EachStmt(s.Then, f)
		if s.Else != nil {
			EachStmt(s.Else, f)
		}
	case *For:
		EachStmt(s.Body, f)
	case *While:
		EachStmt(s.Body, f)
	case *Switch:
		EachStmt(s.Body, f)
	}
}
