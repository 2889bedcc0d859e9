package parser

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// maxExprDepth bounds expression nesting (parentheses, brackets, unary
// chains); deeper input is an error, never a stack overflow.
const maxExprDepth = 512

// exprReader reads expressions from participle's token stream.
type exprReader struct {
	lex   *lexer.PeekingLexer
	depth int
	// inTargs: reading template arguments, where '>' closes the list.
	inTargs bool
}

// Parse implements participle.Parseable.
func (g *gExpr) Parse(lex *lexer.PeekingLexer) error {
	if !startsExpr(lex.Peek()) {
		return participle.NextMatch
	}
	r := &exprReader{lex: lex}
	e, err := r.expr()
	if err != nil {
		return err
	}
	*g = *e
	return nil
}

func startsExpr(t *lexer.Token) bool {
	switch t.Type {
	case lexer.EOF:
		return false
	case ttPunct:
		switch t.Value {
		case "(", "{", "!", "~", "++", "--", "::", "[": // "[": a lambda
			return true
		}
		return false
	case ttBinOp:
		switch t.Value {
		case "-", "+", "*", "&":
			return true
		}
		return false
	case ttSpec:
		return false
	}
	return true
}

func (r *exprReader) errorf(t *lexer.Token, format string, args ...any) error {
	return participle.Errorf(t.Pos, format, args...)
}

func (r *exprReader) enter() error {
	r.depth++
	if r.depth > maxExprDepth {
		return r.errorf(r.lex.Peek(), "expression nested more than %d deep", maxExprDepth)
	}
	return nil
}

func (r *exprReader) is(value string) bool {
	t := r.lex.Peek()
	return t.Type != lexer.EOF && t.Value == value
}

func (r *exprReader) expect(value string) error {
	t := r.lex.Peek()
	if t.Type == lexer.EOF || t.Value != value {
		return r.errorf(t, "expected %q, found %s", value, describe(t))
	}
	r.lex.Next()
	return nil
}

func describe(t *lexer.Token) string {
	if t.Type == lexer.EOF {
		return "end of statement"
	}
	return fmt.Sprintf("%q", t.Value)
}

// expr reads unary (binary-operator unary)*; precedence is applied later.
func (r *exprReader) expr() (*gExpr, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer func() { r.depth-- }()
	e := &gExpr{Pos: r.lex.Peek().Pos}
	head, err := r.unary()
	if err != nil {
		return nil, err
	}
	e.Head = head
	for r.lex.Peek().Type == ttBinOp {
		if r.inTargs && (r.is(">") || r.is(">>")) {
			break
		}
		op := r.lex.Next()
		rhs, err := r.unary()
		if err != nil {
			return nil, err
		}
		e.Tail = append(e.Tail, &gOp{Pos: op.Pos, Op: op.Value, Rhs: rhs})
	}
	return e, nil
}

func (r *exprReader) comma() (*gComma, error) {
	c := &gComma{Pos: r.lex.Peek().Pos}
	for {
		e, err := r.expr()
		if err != nil {
			return nil, err
		}
		c.Exprs = append(c.Exprs, e)
		if !r.is(",") {
			return c, nil
		}
		r.lex.Next()
	}
}

func startsType(t *lexer.Token) bool {
	switch t.Type {
	case ttTypeKw, ttTypeName, ttQual, ttTag:
		return true
	}
	return false
}

// qualifiedCast reports whether the stream, just past a '(', holds a
// qualified name, a ')' and then an operand: (std::ptrdiff_t)stride, a
// C cast to a type of a namespace the file does not declare (a
// parenthesized expression is never followed by a name or a number).
// The stream is left where it was.
func (r *exprReader) qualifiedCast() bool {
	cp := r.lex.MakeCheckpoint()
	defer r.lex.LoadCheckpoint(cp)
	qualified := false
	for {
		if t := r.lex.Next(); t.Type != ttIdent && t.Type != ttTypeName {
			return false
		}
		if !r.is("::") {
			break
		}
		r.lex.Next()
		qualified = true
	}
	for r.is("*") || r.is("&") {
		r.lex.Next()
	}
	if !qualified || !r.is(")") {
		return false
	}
	r.lex.Next()
	n := r.lex.Peek()
	return n.Type == ttIdent || n.Type == ttTypeName || n.Type == ttNumber
}

// castType reads a type with participle's type grammar, from where the
// stream stands; on failure the stream is left where it was.
func (r *exprReader) castType() (*gCastType, bool) {
	cp := r.lex.MakeCheckpoint()
	t, err := typeParser.ParseFromLexer(r.lex, participle.AllowTrailing(true))
	if err != nil {
		r.lex.LoadCheckpoint(cp)
		return nil, false
	}
	return t, true
}

func (r *exprReader) unary() (*gUnary, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer func() { r.depth-- }()
	u := &gUnary{Pos: r.lex.Peek().Pos}
	for {
		t := r.lex.Peek()
		if t.Value == "(" && t.Type == ttPunct {
			cp := r.lex.MakeCheckpoint()
			r.lex.Next()
			if startsType(r.lex.Peek()) || r.qualifiedCast() {
				if ct, ok := r.castType(); ok && r.is(")") {
					r.lex.Next()
					u.Pre = append(u.Pre, &gPrefix{Pos: t.Pos, Cast: ct})
					continue
				}
			}
			r.lex.LoadCheckpoint(cp)
			break
		}
		if isPrefixOp(t) {
			r.lex.Next()
			u.Pre = append(u.Pre, &gPrefix{Pos: t.Pos, Op: t.Value})
			if len(u.Pre) > maxExprDepth {
				return nil, r.errorf(t, "more than %d prefix operators", maxExprDepth)
			}
			continue
		}
		break
	}
	prim, err := r.primary()
	if err != nil {
		return nil, err
	}
	u.Prim = prim
	for {
		p, ok, err := r.postfix()
		if err != nil {
			return nil, err
		}
		if !ok {
			u.End = r.last()
			return u, nil
		}
		p.End = r.last()
		u.Post = append(u.Post, p)
	}
}

// last is the index of the last token consumed: token positions carry
// their index in the file's token array, and a statement's tokens are
// contiguous there.
func (r *exprReader) last() int { return r.lex.Peek().Pos.Offset - 1 }

func isPrefixOp(t *lexer.Token) bool {
	switch t.Value {
	case "-", "+", "!", "~", "*", "&", "++", "--":
		return t.Type == ttBinOp || t.Type == ttPunct
	}
	return false
}

func (r *exprReader) primary() (*gPrimary, error) {
	t := r.lex.Peek()
	p := &gPrimary{Pos: t.Pos}
	switch {
	case t.Type == lexer.EOF:
		return nil, r.errorf(t, "expected an expression, found end of statement")
	case t.Type == ttKeyword && (t.Value == "static_cast" || t.Value == "reinterpret_cast" || t.Value == "const_cast" || t.Value == "dynamic_cast"):
		r.lex.Next()
		c := &gCppCast{Pos: t.Pos, Kind: t.Value}
		if err := r.expect("<"); err != nil {
			return nil, err
		}
		ct, ok := r.castType()
		if !ok {
			return nil, r.errorf(r.lex.Peek(), "expected a type in %s", t.Value)
		}
		c.Type = ct
		if err := r.expect(">"); err != nil {
			return nil, err
		}
		if err := r.expect("("); err != nil {
			return nil, err
		}
		x, err := r.comma()
		if err != nil {
			return nil, err
		}
		c.X = x
		p.CppCast = c
		return p, r.expect(")")
	case t.Type == ttKeyword && t.Value == "sizeof":
		r.lex.Next()
		s := &gSizeof{Pos: t.Pos}
		if r.is("...") { // sizeof...(args): how many the pack holds
			r.lex.Next()
			if err := r.expect("("); err != nil {
				return nil, err
			}
			n := r.lex.Next()
			if n.Type != ttIdent && n.Type != ttTypeName {
				return nil, r.errorf(n, "expected a pack's name in sizeof..., found %s", describe(n))
			}
			s.Pack = n.Value
			p.Sizeof = s
			return p, r.expect(")")
		}
		if r.is("(") {
			cp := r.lex.MakeCheckpoint()
			r.lex.Next()
			if startsType(r.lex.Peek()) {
				if ct, ok := r.castType(); ok && r.is(")") {
					r.lex.Next()
					s.Type = ct
					p.Sizeof = s
					return p, nil
				}
			}
			r.lex.LoadCheckpoint(cp)
		}
		x, err := r.unary()
		if err != nil {
			return nil, err
		}
		s.X = x
		p.Sizeof = s
		return p, nil
	case (t.Type == ttTypeKw || t.Type == ttTypeName) && r.nextIs("{"):
		r.lex.Next()
		l, err := r.initList()
		if err != nil {
			return nil, err
		}
		args := &gArgList{Pos: l.Pos}
		for _, el := range l.Elems {
			args.Args = append(args.Args, el.X)
		}
		p.Ctor = &gCtor{Pos: t.Pos, Type: []string{t.Value}, Args: args}
		return p, nil
	case (t.Type == ttTypeKw || t.Type == ttTypeName) && r.nextIs("("):
		r.lex.Next()
		r.lex.Next()
		args, err := r.argList(")")
		if err != nil {
			return nil, err
		}
		p.Ctor = &gCtor{Pos: t.Pos, Type: []string{t.Value}, Args: args}
		return p, nil
	case t.Value == "(" && t.Type == ttPunct && r.nextIs("..."):
		// (..., f(args)), (... + xs): a left fold; its value depends on
		// the pack's elements, read as the expansion of its pattern.
		r.lex.Next()
		r.lex.Next()
		if op := r.lex.Next(); op.Type == ttIdent || op.Type == ttNumber || op.Type == ttString || op.Value == ")" {
			return nil, r.errorf(op, "expected the operator of a fold expression, found %s", describe(op))
		}
		saved := r.inTargs
		r.inTargs = false
		x, err := r.comma()
		r.inTargs = saved
		if err != nil {
			return nil, err
		}
		p.Fold = x
		return p, r.expect(")")
	case t.Value == "(" && t.Type == ttPunct:
		r.lex.Next()
		saved := r.inTargs
		r.inTargs = false // a > inside parentheses is a comparison again
		x, err := r.comma()
		r.inTargs = saved
		if err != nil {
			return nil, err
		}
		p.Paren = x
		return p, r.expect(")")
	case t.Value == "{" && t.Type == ttPunct:
		l, err := r.initList()
		p.Init = l
		return p, err
	case t.Value == "[" && t.Type == ttPunct:
		l, err := r.lambda()
		p.Lambda = l
		return p, err
	case t.Type == ttNumber:
		r.lex.Next()
		v := t.Value
		p.Number = &v
		return p, nil
	case t.Type == ttString:
		for r.lex.Peek().Type == ttString {
			p.Str = append(p.Str, r.lex.Next().Value)
		}
		return p, nil
	case t.Type == ttChar:
		r.lex.Next()
		v := t.Value
		p.Char = &v
		return p, nil
	case t.Value == "::" && t.Type == ttPunct && r.nextIsName():
		// ::f, the global namespace's f: its name starts with "::".
		r.lex.Next()
		p, err := r.primary()
		if err == nil && len(p.Name) > 0 {
			p.Name = append([]string{""}, p.Name...)
		}
		return p, err
	case t.Type == ttIdent || t.Type == ttTypeName:
		r.lex.Next()
		p.Name = []string{t.Value}
		isTemplate := false
		for r.is("::") {
			r.lex.Next()
			isTemplate = r.skipTemplateKeyword() // T::template f<U>()
			n := r.lex.Peek()
			if n.Type != ttIdent && n.Type != ttTypeName {
				return nil, r.errorf(n, "expected a name after '::', found %s", describe(n))
			}
			p.Name = append(p.Name, r.lex.Next().Value)
		}
		if r.is("<") && (isTemplate || r.launchFollows() || r.templateCallFollows()) {
			targs, err := r.templateArgs()
			if err != nil {
				return nil, err
			}
			p.Targs = targs
			if r.is("{") { // cg::plus<float>{}: a value of the instance, built from braces
				return r.bracedCtor(p)
			}
		}
		// Cls<A, B>::member: the arguments were the class's; the name goes on.
		for len(p.Targs) > 0 && r.is("::") {
			r.lex.Next()
			n := r.lex.Peek()
			if n.Type != ttIdent && n.Type != ttTypeName {
				return nil, r.errorf(n, "expected a name after '::', found %s", describe(n))
			}
			p.Name = append(p.Name, r.lex.Next().Value)
			p.Scope, p.Targs = p.Targs, nil
		}
		return p, nil
	}
	return nil, r.errorf(t, "unexpected %s", describe(t))
}

// skipParens steps over a parenthesised group, saying whether it closed.
func (r *exprReader) skipParens() bool {
	depth := 0
	for t := r.lex.Next(); !t.EOF(); t = r.lex.Next() {
		switch t.Value {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return true
			}
		}
	}
	return false
}

// skipTemplateKeyword steps over the template disambiguator of a
// dependent name (x.template f<T>, T::template f<U>) and says whether
// there was one: the '<' after the name then opens template arguments.
func (r *exprReader) skipTemplateKeyword() bool {
	if t := r.lex.Peek(); t.Value == "template" && t.Type != ttString {
		r.lex.Next()
		return true
	}
	return false
}

// lambda skips a lambda, [captures](params) specifiers { body } (the
// parameters may be left out), and returns its span.
func (r *exprReader) lambda() (*gLambda, error) {
	l := &gLambda{From: r.lex.Peek().Pos.Offset}
	if err := r.skipBalanced("[", "]"); err != nil {
		return nil, err
	}
	if r.is("<") { // [&]<typename T>(...) { }: a C++20 lambda template
		for depth := 0; ; {
			t := r.lex.Next()
			if t.Type == lexer.EOF || t.Value == "{" || t.Value == ";" {
				return nil, r.errorf(t, "unbalanced < in a lambda's template parameters")
			}
			depth += map[string]int{"<": 1, ">": -1, ">>": -2}[t.Value]
			if depth <= 0 {
				break
			}
		}
	}
	if r.is("(") {
		if err := r.skipBalanced("(", ")"); err != nil {
			return nil, err
		}
	}
	// mutable, noexcept, __device__, -> result type: up to the body.
	for !r.is("{") {
		t := r.lex.Peek()
		if t.Type == lexer.EOF || t.Value == ";" || t.Value == ")" || t.Value == "," {
			return nil, r.errorf(t, "expected the body of a lambda, found %s", describe(t))
		}
		r.lex.Next()
	}
	if err := r.skipBalanced("{", "}"); err != nil {
		return nil, err
	}
	l.To = r.lex.Peek().Pos.Offset
	return l, nil
}

// skipBalanced skips from the open bracket at the cursor past its close.
func (r *exprReader) skipBalanced(open, close string) error {
	depth := 0
	for {
		t := r.lex.Next()
		switch {
		case t.Type == lexer.EOF:
			return r.errorf(t, "unbalanced %s", open)
		case t.Type != ttPunct:
		case t.Value == open:
			depth++
		case t.Value == close:
			depth--
			if depth == 0 {
				return nil
			}
		}
	}
}

// launchFollows looks past a '<' for its matching '>' and reports whether
// '<<<' comes right after: kernel<256, float><<<grid, block>>>(...).
func (r *exprReader) launchFollows() bool {
	cp := r.lex.MakeCheckpoint()
	defer r.lex.LoadCheckpoint(cp)
	depth, parens := 0, 0
	for {
		t := r.lex.Next()
		switch {
		case t.Type == lexer.EOF || t.Value == ";" || t.Value == "<<<" && depth > 0 && parens == 0:
			return false
		case t.Value == "(":
			parens++
		case t.Value == ")":
			parens--
		case parens > 0:
		case t.Value == "<":
			depth++
		case t.Value == ">":
			depth--
		case t.Value == ">>":
			depth -= 2
		}
		if depth <= 0 && parens == 0 {
			return depth == 0 && r.is("<<<")
		}
	}
}

// templateCallFollows looks past a '<' for its matching '>' followed by
// '(' or '::' with only type-list tokens between: tex2D<unsigned char>(...),
// SharedMemory<T>(), Kernel<8, 8>::run(...). Anything else (i < n && j >
// (k)) is a comparison.
func (r *exprReader) templateCallFollows() bool {
	cp := r.lex.MakeCheckpoint()
	defer r.lex.LoadCheckpoint(cp)
	depth := 0
	for n := 0; n < 64; n++ {
		t := r.lex.Next()
		switch {
		case t.Value == "<":
			depth++
		case t.Value == ">":
			depth--
		case (t.Value == "decltype" || t.Value == "sizeof") && r.is("("): // F<decltype(functor)>, Impl<T, sizeof(T)>
			if !r.skipParens() {
				return false
			}
		case t.Value == "-" && r.lex.Peek().Type == ttNumber: // IndexToOffset<int64_t, int, -1>
		case t.Type == ttIdent || t.Type == ttTypeName || t.Type == ttTypeKw || t.Type == ttQual || t.Type == ttNumber:
		case t.Value == "::" || t.Value == "," || t.Value == "*" || t.Value == "...":
		default:
			return false
		}
		if depth == 0 {
			// After a comparison's '>' comes an operand; after a template's,
			// a call, a member, or the end of the expression (return f<T>;).
			return r.is("(") || r.is("{") || r.is("::") || r.is(";") || r.is(")") || r.is(",") || r.lex.Peek().EOF()
		}
	}
	return false
}

// bracedCtor reads the braces after a template's name and arguments as
// the construction of a value of that type: cg::plus<float>{}, the
// operator cg::reduce takes.
func (r *exprReader) bracedCtor(p *gPrimary) (*gPrimary, error) {
	l, err := r.initList()
	if err != nil {
		return nil, err
	}
	args := &gArgList{Pos: l.Pos}
	for _, el := range l.Elems {
		args.Args = append(args.Args, el.X)
	}
	p.Ctor = &gCtor{Pos: p.Pos, Type: []string{strings.Join(p.Name, "::")}, Args: args}
	p.Name, p.Targs = nil, nil
	return p, nil
}

func (r *exprReader) templateArgs() ([]*gTemplateArg, error) {
	r.lex.Next() // '<'
	saved := r.inTargs
	r.inTargs = true
	defer func() { r.inTargs = saved }()
	var out []*gTemplateArg
	for !r.is(">") {
		a := &gTemplateArg{}
		if startsType(r.lex.Peek()) {
			if ct, ok := r.castType(); ok && (r.is(",") || r.is(">") || r.is("...")) {
				a.Type = ct
			}
		}
		if a.Type == nil {
			x, err := r.expr()
			if err != nil {
				return nil, err
			}
			a.X = x
		}
		if r.is("...") { // F<IN...>
			r.lex.Next()
			a.Pack = true
		}
		out = append(out, a)
		if !r.is(",") {
			break
		}
		r.lex.Next()
	}
	return out, r.expect(">")
}

// nextIsName reports whether the token after the next is a plain name
// (not a type's).
func (r *exprReader) nextIsName() bool {
	cp := r.lex.MakeCheckpoint()
	r.lex.Next()
	ok := r.lex.Peek().Type == ttIdent
	r.lex.LoadCheckpoint(cp)
	return ok
}

func (r *exprReader) nextIs(value string) bool {
	cp := r.lex.MakeCheckpoint()
	r.lex.Next()
	ok := r.is(value)
	r.lex.LoadCheckpoint(cp)
	return ok
}

// argList reads expressions separated by commas up to close, which it consumes.
func (r *exprReader) argList(close string) (*gArgList, error) {
	l := &gArgList{Pos: r.lex.Peek().Pos}
	if r.is(close) {
		r.lex.Next()
		return l, nil
	}
	for {
		e, err := r.expr()
		if err != nil {
			return nil, err
		}
		l.Args = append(l.Args, e)
		if r.is("...") { // f(args...), f(g(args)...)
			r.lex.Next()
			if l.Packs == nil {
				l.Packs = make([]bool, len(l.Args)-1, len(l.Args))
			}
			l.Packs = append(l.Packs, true)
		} else if l.Packs != nil {
			l.Packs = append(l.Packs, false)
		}
		if r.is(",") {
			r.lex.Next()
			continue
		}
		return l, r.expect(close)
	}
}

func (r *exprReader) initList() (*gInitList, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	defer func() { r.depth-- }()
	l := &gInitList{Pos: r.lex.Next().Pos}
	for !r.is("}") {
		el := &gInitElem{Pos: r.lex.Peek().Pos}
		if r.is(".") {
			r.lex.Next()
			name := r.lex.Next().Value
			el.Field = &name
			if err := r.expect("="); err != nil {
				return nil, err
			}
		}
		x, err := r.expr()
		if err != nil {
			return nil, err
		}
		el.X = x
		if r.is("...") { // {static_cast<T>(dims)...}
			r.lex.Next()
			el.Pack = true
		}
		l.Elems = append(l.Elems, el)
		if !r.is(",") {
			break
		}
		r.lex.Next()
	}
	return l, r.expect("}")
}

func (r *exprReader) postfix() (*gPostfix, bool, error) {
	t := r.lex.Peek()
	if t.Type == lexer.EOF {
		return nil, false, nil
	}
	p := &gPostfix{Pos: t.Pos}
	switch t.Value {
	case "[":
		r.lex.Next()
		x, err := r.comma()
		if err != nil {
			return nil, false, err
		}
		p.Index = x
		return p, true, r.expect("]")
	case "(":
		r.lex.Next()
		args, err := r.argList(")")
		p.Call = args
		return p, true, err
	case "<<<":
		r.lex.Next()
		l := &gLaunch{Pos: t.Pos}
		cfg, err := r.argList(">>>")
		if err != nil {
			return nil, false, err
		}
		l.Config = cfg.Args
		if err := r.expect("("); err != nil {
			return nil, false, err
		}
		if l.Args, err = r.argList(")"); err != nil {
			return nil, false, err
		}
		p.Launch = l
		return p, true, nil
	case ".", "->":
		r.lex.Next()
		// x.template f<T>(): the keyword says f is a template in a
		// dependent object (oneflow's load.template load<pack_size>()).
		isTemplate := r.skipTemplateKeyword()
		n := r.lex.Peek()
		if n.Type != ttIdent && n.Type != ttTypeName {
			return nil, false, r.errorf(n, "expected a member name after %q, found %s", t.Value, describe(n))
		}
		name := r.lex.Next().Value
		if t.Value == "." {
			p.Member = &name
		} else {
			p.Arrow = &name
		}
		// x.f<T>(...), a member template's call (torch's
		// Q.data_ptr<float>()): the arguments name the member's
		// instance, which the call of an unknown object does not need.
		if r.is("<") && (isTemplate || r.templateCallFollows()) {
			if _, err := r.templateArgs(); err != nil {
				return nil, false, err
			}
		}
		return p, true, nil
	case "++", "--":
		r.lex.Next()
		op := t.Value
		p.Op = &op
		return p, true, nil
	}
	return nil, false, nil
}
