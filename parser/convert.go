package parser

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/cudalint/cudalint/parser/lex"
)

// parseSpan runs a participle parser over toks[from:to] and sets u.base to
// from. Token positions carry their index relative to from in Offset, so
// nodes map back to exact source positions (macro expansions included)
// through u.base, and a parse tree does not depend on where its statement
// stands: statements with the same tokens share one parse, cached per file
// (kernels repeat int i = blockIdx.x * blockDim.x + threadIdx.x; and the
// like over and over).
func parseSpan[G any](u *unit, p *participle.Parser[G], from, to int) (*G, error) {
	u.base = from
	if from >= to {
		return nil, fmt.Errorf("nothing to parse")
	}
	// The key first: most statements are met before, and a hit needs
	// neither lexer tokens nor a string (the map lookup does not allocate).
	key := u.keyBuf[:0]
	key = append(key, parserTag(p))
	for i := from; i < to; i++ {
		key = append(key, byte(-u.classify(u.toks[i])))
		key = append(key, u.toks[i].Text...)
	}
	u.keyBuf = key
	if c, ok := u.cache[string(key)]; ok {
		if c.err != nil {
			return nil, c.err
		}
		return c.tree.(*G), nil
	}
	k := string(key)
	pl, err := u.lexSpan(from, to)
	if err != nil {
		return nil, err
	}
	g, err := parseFast(p, pl)
	if perr, ok := err.(participle.Error); ok {
		// Keep the message, not participle's position: a note has its own,
		// and a cached error must not carry its first occurrence's line.
		err = errors.New(perr.Message())
	}
	if len(u.cache) < maxCachedParses {
		u.cache[k] = cachedParse{g, err}
	}
	return g, err
}

// parserTag tells apart, in parse-cache keys, the parsers that may read
// the same tokens.
func parserTag(p any) byte {
	switch p {
	case any(exprParser):
		return 'e'
	case any(declParser):
		return 'd'
	case any(paramParser):
		return 'p'
	case any(paramsParser):
		return 'P'
	case any(typeParser):
		return 't'
	}
	return '?'
}

// lexSpan makes toks[from:to] a participle lexer. Token offsets are
// relative to from (see parseSpan). The tokens are converted as
// Upgrade reads them, into its array only.
func (u *unit) lexSpan(from, to int) (*lexer.PeekingLexer, error) {
	return lexer.Upgrade(&spanLexer{u: u, from: from, at: from, to: to})
}

// spanLexer reads u.toks[from:to] as participle tokens, then EOF.
type spanLexer struct {
	u            *unit
	from, at, to int
}

func (l *spanLexer) Next() (lexer.Token, error) {
	if l.at >= l.to {
		return lexer.Token{Type: lexer.EOF, Pos: lexer.Position{Offset: l.to - l.from, Line: -1}}, nil
	}
	t := l.u.toks[l.at]
	l.at++
	return lexer.Token{Type: l.u.classify(t), Value: t.Text, Pos: lexer.Position{Offset: l.at - 1 - l.from, Line: int(t.Pos.Line), Column: int(t.Pos.Col)}}, nil
}

// maxCachedParses bounds the per-file parse cache.
const maxCachedParses = 1 << 14

type cachedParse struct {
	tree any
	err  error
}

func (u *unit) classify(t Token) lexer.TokenType {
	switch t.Kind {
	case lex.KNumber:
		return ttNumber
	case lex.KString:
		return ttString
	case lex.KChar:
		return ttChar
	case lex.KIdent:
		switch w := t.Text; {
		case typeKeywords[w]:
			return ttTypeKw
		case qualKeywords[w]:
			return ttQual
		case specKeywords[w]:
			return ttSpec
		case tagKeywords[w]:
			return ttTag
		case otherKeywords[w]:
			return ttKeyword
		case u.types[w]:
			return ttTypeName
		}
		return ttIdent
	}
	if _, ok := binaryPrec[t.Text]; ok || t.Text == ":" {
		return ttBinOp
	}
	return ttPunct
}

// pos maps a participle position back to the token's source position.
func (u *unit) pos(p lexer.Position) Pos {
	if i := u.base + p.Offset; i >= 0 && i < len(u.toks) {
		return u.toks[i].Pos
	}
	if len(u.toks) > 0 {
		return u.toks[len(u.toks)-1].Pos
	}
	return Pos{}
}

// ---- expressions ----

const (
	precAssign  = 1
	precTernary = 2
)

// binaryPrec is the precedence of each binary operator token, the
// operators' own (opInfo) and '?', which opens a ternary.
var binaryPrec = func() map[string]int {
	m := map[string]int{"?": precTernary}
	for op := Add; op < numOps; op++ {
		if p := op.precedence(); p > 0 {
			m[op.String()] = p
		}
	}
	return m
}()

func (u *unit) comma(g *gComma) Expr {
	x := u.expr(g.Exprs[0])
	for _, e := range g.Exprs[1:] {
		x = &Binary{P: x.Start(), Op: Comma, X: x, Y: u.expr(e)}
	}
	return x
}

// expr re-associates the flat operator list by precedence climbing.
func (u *unit) expr(g *gExpr) Expr {
	c := climber{u: u, g: g}
	x := c.climb(u.unary(g.Head), 0)
	if c.k < len(g.Tail) && c.err == nil {
		c.err = fmt.Errorf("unexpected %q", g.Tail[c.k].Op)
	}
	if c.err != nil {
		panic(parseError{pos: u.pos(g.Pos), err: c.err})
	}
	return x
}

type climber struct {
	u   *unit
	g   *gExpr
	k   int // next operator in g.Tail
	err error
}

func (c *climber) climb(lhs Expr, minPrec int) Expr {
	for c.k < len(c.g.Tail) && c.err == nil {
		op := c.g.Tail[c.k].Op
		prec, ok := binaryPrec[op]
		if !ok || prec < minPrec { // ':' has no precedence: it ends the middle of a '?'
			return lhs
		}
		rhs := c.u.unary(c.g.Tail[c.k].Rhs)
		c.k++
		if op == "?" {
			mid := c.climb(rhs, precAssign)
			if c.k >= len(c.g.Tail) || c.g.Tail[c.k].Op != ":" {
				c.err = fmt.Errorf("'?' without ':'")
				return lhs
			}
			elseOperand := c.u.unary(c.g.Tail[c.k].Rhs)
			c.k++
			els := c.climb(elseOperand, precTernary)
			lhs = &Ternary{P: lhs.Start(), Cond: lhs, Then: mid, Else: els}
			continue
		}
		next := prec + 1
		if prec == precAssign {
			next = prec // right-associative
		}
		rhs = c.climb(rhs, next)
		lhs = &Binary{P: lhs.Start(), Op: lookupOp(op), X: lhs, Y: rhs}
	}
	return lhs
}

// endOf is the position just after token i (relative to u.base).
func (u *unit) endOf(i int) Pos {
	if i += u.base; i >= 0 && i < len(u.toks) {
		return u.toks[i].EndPos()
	}
	return Pos{}
}

func (u *unit) unary(g *gUnary) Expr {
	x := u.primary(g.Prim)
	// A postfix expression starts where its primary is written: at the
	// parenthesis of (in + 1)[i], which has no node of its own.
	start := x.Start()
	if g.Prim.Paren != nil {
		start = u.pos(g.Prim.Pos)
	}
	for _, p := range g.Post {
		pos := start
		end := u.endOf(p.End)
		switch {
		case p.Index != nil:
			x = &Index{P: pos, X: x, Index: u.comma(p.Index), E: end}
		case p.Call != nil:
			x = &Call{P: pos, Fun: x, Args: u.args(p.Call), E: end}
		case p.Launch != nil:
			l := &Launch{P: pos, Kernel: x, Args: u.args(p.Launch.Args)}
			for _, c := range p.Launch.Config {
				l.Config = append(l.Config, u.expr(c))
			}
			x = l
		case p.Member != nil:
			x = &Member{P: pos, X: x, Name: *p.Member, E: end}
		case p.Arrow != nil:
			x = &Member{P: pos, X: x, Name: *p.Arrow, Arrow: true, E: end}
		case p.Op != nil:
			x = &Postfix{P: pos, Op: lookupOp(*p.Op), X: x, E: end}
		}
	}
	end := u.endOf(g.End)
	for i := len(g.Pre) - 1; i >= 0; i-- {
		p := g.Pre[i]
		if p.Cast != nil {
			x = &Cast{P: u.pos(p.Pos), Type: u.castType(p.Cast), X: x}
		} else {
			x = &Unary{P: u.pos(p.Pos), Op: lookupOp(p.Op), X: x, E: end}
		}
	}
	return x
}

func (u *unit) args(g *gArgList) []Expr {
	out := make([]Expr, 0, len(g.Args))
	for i, a := range g.Args {
		x := u.expr(a)
		if i < len(g.Packs) && g.Packs[i] {
			x = &PackExpansion{P: x.Start(), X: x}
		}
		out = append(out, x)
	}
	return out
}

func (u *unit) primary(g *gPrimary) Expr {
	pos := u.pos(g.Pos)
	switch {
	case g.CppCast != nil:
		return &Cast{P: pos, Type: u.castType(g.CppCast.Type), X: u.comma(g.CppCast.X)}
	case g.Sizeof != nil:
		if g.Sizeof.Pack != "" {
			return &SizeofPack{P: pos, Pack: g.Sizeof.Pack}
		}
		if g.Sizeof.Type != nil {
			return &SizeofType{P: pos, Type: u.castType(g.Sizeof.Type)}
		}
		return &SizeofExpr{P: pos, X: u.unary(g.Sizeof.X)}
	case g.Ctor != nil:
		return &Call{P: pos, Fun: &Ident{P: pos, Name: strings.Join(g.Ctor.Type, " ")}, Args: u.args(g.Ctor.Args)}
	case g.Fold != nil:
		return &PackExpansion{P: pos, X: u.comma(g.Fold), Fold: true}
	case g.Paren != nil:
		return u.comma(g.Paren)
	case g.Init != nil:
		return u.initList(g.Init)
	case g.Lambda != nil:
		if l := u.lambdaExpr(u.base+g.Lambda.From, u.base+g.Lambda.To); l != nil {
			return l
		}
		return &Ident{P: pos, Name: "lambda"}
	case g.Number != nil:
		return numberLit(pos, *g.Number)
	case g.Str != nil:
		return &StringLit{P: pos, Text: strings.Join(g.Str, "")}
	case g.Char != nil:
		return &StringLit{P: pos, Text: *g.Char}
	}
	id := &Ident{P: pos, Name: strings.Join(g.Name, "::"), Targs: u.templateArgs(g.Targs), Scope: u.templateArgs(g.Scope)}
	return id
}

func (u *unit) templateArgs(targs []*gTemplateArg) []TemplateArg {
	var out []TemplateArg
	for _, a := range targs {
		if a.Type != nil {
			out = append(out, TemplateArg{Type: u.castType(a.Type)})
		} else {
			out = append(out, TemplateArg{Value: u.expr(a.X)})
		}
	}
	return out
}

func (u *unit) initList(g *gInitList) *InitList {
	l := &InitList{P: u.pos(g.Pos)}
	for _, e := range g.Elems {
		x := u.expr(e.X)
		if e.Pack {
			x = &PackExpansion{P: x.Start(), X: x}
		}
		l.Elems = append(l.Elems, x)
	}
	return l
}

func numberLit(pos Pos, text string) Expr {
	lower := strings.ToLower(text)
	isHex := strings.HasPrefix(lower, "0x")
	if strings.ContainsAny(lower, ".") || (!isHex && strings.ContainsAny(lower, "ef")) || (isHex && strings.Contains(lower, "p")) {
		return &FloatLit{P: pos, Text: text}
	}
	v, ok := lex.ParseInt(text)
	if !ok {
		return &FloatLit{P: pos, Text: text}
	}
	return &IntLit{P: pos, Value: v, Text: text}
}

// ---- types and declarations ----

func (u *unit) baseType(g *gBaseType) *TypeRef {
	t := &TypeRef{P: u.pos(g.Pos)}
	for _, q := range append(append([]string{}, g.Quals...), g.More...) {
		if q == "const" {
			t.Const = true
		} else if typeKeywords[q] {
			t.Words = append(t.Words, q)
		}
	}
	words := append(append([]string{}, g.Words...), g.Nested...)
	t.Words = append(words, t.Words...)
	if len(words) > 1 && !typeKeywords[words[0]] {
		t.Words = []string{strings.Join(words, "::")}
	}
	if len(g.Nested) == 0 {
		for _, a := range g.Targs {
			switch {
			case a.Type != nil:
				t.Targs = append(t.Targs, TemplateArg{Type: u.castType(a.Type)})
			case a.Num != nil:
				t.Targs = append(t.Targs, TemplateArg{Value: numberLit(t.P, *a.Num)})
			}
		}
	}
	return t
}

func (u *unit) castType(g *gCastType) *TypeRef {
	t := u.baseType(g.Base)
	applyStars(t, g.Stars)
	return t
}

func applyStars(t *TypeRef, stars []string) {
	for _, s := range stars {
		switch s {
		case "*":
			t.Ptr++
		case "&", "&&":
			t.Ref = true
		case "__restrict__", "__restrict", "restrict":
			t.Restrict = true
		}
	}
}

func (u *unit) decl(g *gDecl) *Decl {
	d := &Decl{P: u.pos(g.Pos), Specs: g.Specs}
	base := u.baseType(g.Type)
	for _, gd := range g.Decls {
		t := *base
		applyStars(&t, gd.Ptrs)
		dc := &Declarator{P: u.pos(gd.Pos), Name: gd.Name, Type: &t}
		for _, dim := range gd.Dims {
			if dim.Size == nil {
				dc.Dims = append(dc.Dims, nil)
			} else {
				dc.Dims = append(dc.Dims, u.expr(dim.Size))
			}
		}
		switch {
		case gd.Init != nil:
			dc.Init = u.expr(gd.Init)
		case gd.Ctor != nil:
			dc.Ctor, dc.IsCtr = u.args(gd.Ctor), true
		case gd.Brace != nil:
			dc.Ctor, dc.IsCtr = u.initList(gd.Brace).Elems, true
		}
		d.Declarators = append(d.Declarators, dc)
	}
	return d
}

// parseError carries a conversion failure out of the recursive converter;
// catch turns it back into an error at the statement boundary.
type parseError struct {
	pos Pos
	err error
}

func catch(err *error) {
	if r := recover(); r != nil {
		pe, ok := r.(parseError)
		if !ok {
			panic(r)
		}
		*err = fmt.Errorf("%s", pe.err)
	}
}

// parseExpr parses toks[from:to] as an expression (commas allowed).
func (u *unit) parseExpr(from, to int) (x Expr, err error) {
	defer catch(&err)
	if from >= to {
		return nil, fmt.Errorf("expected an expression")
	}
	u.castTypes(from, to)
	g, err := parseSpan(u, exprParser, from, to)
	if err != nil {
		return nil, err
	}
	return u.comma(g), nil
}

// parseDecl parses toks[from:to] as a declaration.
func (u *unit) parseDecl(from, to int) (d *Decl, err error) {
	defer catch(&err)
	from = u.dropAttributes(from, to)
	u.specsFirst(from, to)
	u.castTypes(from, to)
	g, err := parseSpan(u, declParser, from, to)
	if err != nil {
		return nil, err
	}
	return u.decl(g), nil
}

// castTypes makes a type name of every plain name that can only be the
// type of a cast in [from, to): "(block_q4_0 *) p" whatever header the
// type's definition was in ("x *)" is no expression).
func (u *unit) castTypes(from, to int) {
	for k := from; k+3 < to; k++ {
		if !u.isPunct(k, "(") {
			continue
		}
		name := k + 1
		for name < to && u.classify(u.toks[name]) == ttQual {
			name++
		}
		if name >= to || u.classify(u.toks[name]) != ttIdent {
			continue
		}
		m, stars := name+1, 0
		for m < to && (u.isPunct(m, "*") || u.classify(u.toks[m]) == ttQual) {
			if u.isPunct(m, "*") {
				stars++
			}
			m++
		}
		// "(T *) x" is a cast whatever follows; "(T) x" and "(T) 4" too,
		// since a parenthesised name followed by a name or a number is no
		// expression ("(f)(x)" and "(a) - b" stay ambiguous, and are left).
		if u.isPunct(m, ")") && (stars > 0 || (m+1 < to && (u.toks[m+1].Kind == lex.KIdent && !otherKeywords[u.toks[m+1].Text] || u.toks[m+1].Kind == lex.KNumber))) {
			u.types[u.toks[name].Text] = true
		}
	}
}

// specsFirst moves storage specifiers ahead of the cv-qualifiers and
// type keywords they are mixed with at the start of a declaration
// ("volatile __shared__ int", "extern double __shared__ s[]"), the order
// the grammar reads; the tokens keep their positions.
func (u *unit) specsFirst(from, to int) {
	end := from
	for end < to {
		switch u.classify(u.toks[end]) {
		case ttSpec, ttQual, ttTypeKw:
			end++
			continue
		}
		break
	}
	run := u.toks[from:end]
	slices.SortStableFunc(run, func(a, b Token) int {
		ra, rb := u.classify(a) != ttSpec, u.classify(b) != ttSpec
		switch {
		case ra == rb:
			return 0
		case !ra:
			return -1
		}
		return 1
	})
}

// dropAttributes removes __align__(n), alignas(n) and __attribute__((...))
// from a declaration's specifiers (before its first '[', '=' or '('
// outside them), shifting what comes before them right so the
// declaration stays contiguous; it returns where the declaration now
// starts. The alignment they give a variable is not modelled.
func (u *unit) dropAttributes(from, to int) int {
	keep := to
	for k := to - 1; k >= from; k-- {
		if u.isPunct(k, "[") || u.isPunct(k, "=") {
			keep = k
		}
	}
	found := false
	for k := from; k < keep && !found; k++ {
		switch u.text(k) {
		case "__align__", "alignas", "__attribute__":
			found = true
		}
	}
	if !found {
		return from
	}
	w := keep // tokens before keep are compacted towards it
	for k := keep - 1; k >= from; k-- {
		if u.isPunct(k, ")") {
			open := u.match[k]
			if open > from && open < k {
				switch u.text(open - 1) {
				case "__align__", "alignas", "__attribute__":
					k = open - 1 // drop the name and its group
					continue
				}
			}
		}
		w--
		u.toks[w] = u.toks[k]
	}
	return w
}

func (u *unit) parseParam(from, to int) (p *Param, err error) {
	defer catch(&err)
	g, err := parseSpan(u, paramParser, from, to)
	if err != nil {
		return nil, err
	}
	return u.param(g), nil
}

// parseParams parses a whole parameter list in one go.
func (u *unit) parseParams(from, to int) (ps []*Param, err error) {
	defer catch(&err)
	g, err := parseSpan(u, paramsParser, from, to)
	if err != nil {
		return nil, err
	}
	for _, gp := range g.Params {
		ps = append(ps, u.param(gp))
	}
	return ps, nil
}

func (u *unit) param(g *gParam) *Param {
	t := u.baseType(g.Type)
	applyStars(t, g.Ptrs)
	t.Ptr += len(g.Dims) // T a[] decays to a pointer
	p := &Param{P: u.pos(g.Pos), Type: t, Pack: g.Pack}
	if g.Name != nil {
		p.Name = *g.Name
	}
	return p
}

func (u *unit) parseType(from, to int) (t *TypeRef, err error) {
	defer catch(&err)
	g, err := parseSpan(u, typeParser, from, to)
	if err != nil {
		return nil, err
	}
	return u.castType(g), nil
}

// parseComma reads what gComma's grammar reads (expressions separated by
// top-level commas, to the end of input) without participle's machinery,
// and fails with the messages participle gives.
func parseComma(pl *lexer.PeekingLexer) (*gComma, error) {
	g := &gComma{Pos: pl.Peek().Pos}
	for {
		e := &gExpr{}
		if err := e.Parse(pl); err != nil {
			if err == participle.NextMatch {
				return nil, &participle.UnexpectedTokenError{Unexpected: *pl.Peek(), Expect: "gExpr"}
			}
			return nil, err
		}
		g.Exprs = append(g.Exprs, e)
		if t := pl.Peek(); t.EOF() || t.Value != "," {
			break
		}
		pl.Next()
	}
	if t := pl.Peek(); !t.EOF() {
		return nil, &participle.UnexpectedTokenError{Unexpected: *t}
	}
	return g, nil
}
