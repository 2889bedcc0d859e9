package parser

import (
	"strings"
)

// Format prints an expression as C source, with minimal spacing and the
// parentheses its structure needs.
func Format(e Expr) string {
	var b strings.Builder
	format(&b, e, 0)
	return b.String()
}

// FormatType prints a type reference.
func FormatType(t *TypeRef) string {
	if t == nil {
		return "?"
	}
	s := strings.Join(t.Words, " ")
	if t.Const {
		s = "const " + s
	}
	s += strings.Repeat("*", t.Ptr)
	if t.Ref {
		s += "&"
	}
	return s
}

func format(b *strings.Builder, e Expr, outer int) {
	switch x := e.(type) {
	case nil:
		b.WriteString("?")
	case *Ident:
		b.WriteString(x.Name)
	case *IntLit:
		b.WriteString(x.Text)
	case *FloatLit:
		b.WriteString(x.Text)
	case *StringLit:
		b.WriteString(x.Text)
	case *Unary:
		b.WriteString(x.Op.String())
		format(b, x.X, 100)
	case *Postfix:
		format(b, x.X, 100)
		b.WriteString(x.Op.String())
	case *Binary:
		prec := x.Op.precedence() // the comma's is 0: it never binds tighter
		if prec < outer {
			b.WriteByte('(')
		}
		left, right := prec, prec+1
		if prec == precAssign { // right-associative
			left, right = prec+1, prec
		}
		format(b, x.X, left)
		if x.Op == Comma {
			b.WriteString(", ")
		} else {
			b.WriteString(" " + x.Op.String() + " ")
		}
		format(b, x.Y, right)
		if prec < outer {
			b.WriteByte(')')
		}
	case *Ternary:
		if precTernary < outer {
			b.WriteByte('(')
		}
		format(b, x.Cond, precTernary+1)
		b.WriteString(" ? ")
		format(b, x.Then, precTernary)
		b.WriteString(" : ")
		format(b, x.Else, precTernary)
		if precTernary < outer {
			b.WriteByte(')')
		}
	case *Call:
		format(b, x.Fun, 100)
		b.WriteByte('(')
		formatList(b, x.Args)
		b.WriteByte(')')
	case *Launch:
		format(b, x.Kernel, 100)
		b.WriteString("<<<")
		formatList(b, x.Config)
		b.WriteString(">>>(")
		formatList(b, x.Args)
		b.WriteByte(')')
	case *Index:
		format(b, x.X, 100)
		b.WriteByte('[')
		format(b, x.Index, 0)
		b.WriteByte(']')
	case *Member:
		format(b, x.X, 100)
		if x.Arrow {
			b.WriteString("->")
		} else {
			b.WriteByte('.')
		}
		b.WriteString(x.Name)
	case *Cast:
		b.WriteString("(" + FormatType(x.Type) + ")")
		format(b, x.X, 100)
	case *SizeofType:
		b.WriteString("sizeof(" + FormatType(x.Type) + ")")
	case *SizeofExpr:
		b.WriteString("sizeof ")
		format(b, x.X, 100)
	case *InitList:
		b.WriteByte('{')
		formatList(b, x.Elems)
		b.WriteByte('}')
	case *Lambda:
		b.WriteString("[](...) {...}")
	}
}

func formatList(b *strings.Builder, es []Expr) {
	for i, a := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		format(b, a, precAssign)
	}
}
