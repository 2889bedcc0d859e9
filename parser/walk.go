package parser

// Inspect walks the tree under n in source order, as go/ast.Inspect does:
// it calls f(n); when f returns true it inspects each child of n, then
// calls f(nil). Returning false prunes n's children. It reaches every
// statement and expression of a function body, a lambda's body included
// (it is code of the function it is written in), and a declaration's
// initialisers; types, template arguments and array dimensions are not
// walked.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	if e, ok := n.(Expr); ok {
		inspectExpr(e, f)
	} else {
		inspectStmt(n, f)
	}
	f(nil)
}

// inspectExpr inspects the children of an expression.
func inspectExpr(e Expr, f func(Node) bool) {
	switch e := e.(type) {
	case *Unary:
		Inspect(e.X, f)
	case *Postfix:
		Inspect(e.X, f)
	case *Binary:
		Inspect(e.X, f)
		Inspect(e.Y, f)
	case *Ternary:
		Inspect(e.Cond, f)
		Inspect(e.Then, f)
		Inspect(e.Else, f)
	case *Call:
		Inspect(e.Fun, f)
		inspectList(e.Args, f)
	case *Launch:
		Inspect(e.Kernel, f)
		inspectList(e.Config, f)
		inspectList(e.Args, f)
	case *Index:
		Inspect(e.X, f)
		Inspect(e.Index, f)
	case *Member:
		Inspect(e.X, f)
	case *Cast:
		Inspect(e.X, f)
	case *SizeofExpr:
		Inspect(e.X, f)
	case *PackExpansion:
		Inspect(e.X, f)
	case *InitList:
		inspectList(e.Elems, f)
	case *Lambda:
		if e.Fn != nil && e.Fn.Body != nil {
			Inspect(e.Fn.Body, f)
		}
	}
}

// inspectStmt inspects the children of a statement.
func inspectStmt(n Node, f func(Node) bool) {
	switch s := n.(type) {
	case *Block:
		for _, x := range s.Stmts {
			Inspect(x, f)
		}
	case *DeclStmt:
		for _, d := range s.Decl.Declarators {
			Inspect(d.Init, f)
			inspectList(d.Ctor, f)
		}
	case *ExprStmt:
		Inspect(s.X, f)
	case *If:
		Inspect(s.Cond, f)
		Inspect(s.Then, f)
		Inspect(s.Else, f)
	case *For:
		Inspect(s.Init, f)
		Inspect(s.Cond, f)
		Inspect(s.Post, f)
		Inspect(s.Body, f)
	case *While:
		Inspect(s.Cond, f)
		Inspect(s.Body, f)
	case *Switch:
		Inspect(s.Tag, f)
		Inspect(s.Body, f)
	case *Return:
		Inspect(s.X, f)
	case *Case:
		Inspect(s.Value, f)
	case *Asm:
		for _, o := range s.Operands {
			Inspect(o.X, f)
		}
	}
}

func inspectList(es []Expr, f func(Node) bool) {
	for _, e := range es {
		Inspect(e, f)
	}
}

// WalkExpr calls f for e and every expression inside it, outermost first.
func WalkExpr(e Expr, f func(Expr)) { Inspect(e, eachExpr(f)) }

// WalkStmt calls f for every expression in s, in source order.
func WalkStmt(s Stmt, f func(Expr)) { Inspect(s, eachExpr(f)) }

// eachExpr is an Inspect callback that hands every expression to f and
// descends everywhere.
func eachExpr(f func(Expr)) func(Node) bool {
	return func(n Node) bool {
		if e, ok := n.(Expr); ok {
			f(e)
		}
		return true
	}
}

// EachStmt calls f for s and every statement nested in it (blocks,
// branches, loop and switch bodies), outermost first. It does not enter
// expressions, so the statements of a lambda's body are not its, nor
// does it count a for loop's initialiser as a nested statement.
func EachStmt(s Stmt, f func(Stmt)) {
	Inspect(s, func(n Node) bool {
		st, ok := n.(Stmt)
		if !ok {
			return false // an expression, or the end of a node
		}
		f(st)
		if loop, ok := st.(*For); ok {
			EachStmt(loop.Body, f)
			return false
		}
		return true
	})
}
