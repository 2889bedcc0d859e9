package parser

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Hand-written readers for the declarations and parameter lists kernels
// are made of (specifiers, a base type without template arguments,
// declarators with pointers, array dimensions and '=' initialisers).
// They build exactly the trees the participle grammar builds, positions
// included; on anything else they report false and the statement goes
// to participle, whose messages the notes keep. Participle's generic
// machinery was a fifth of parsing a file of kernels.

func peekIs(pl *lexer.PeekingLexer, types ...lexer.TokenType) bool {
	t := pl.Peek().Type
	for _, want := range types {
		if t == want {
			return true
		}
	}
	return false
}

func peekValue(pl *lexer.PeekingLexer, v string) bool {
	t := pl.Peek()
	return !t.EOF() && t.Value == v
}

// fastBaseType reads gBaseType without '::' or template arguments.
func fastBaseType(pl *lexer.PeekingLexer) (*gBaseType, bool) {
	g := &gBaseType{Pos: pl.Peek().Pos}
	for peekIs(pl, ttQual) {
		g.Quals = append(g.Quals, pl.Next().Value)
	}
	switch {
	case peekIs(pl, ttTypeKw):
		for peekIs(pl, ttTypeKw) {
			g.Words = append(g.Words, pl.Next().Value)
		}
	default:
		if peekIs(pl, ttTag) {
			pl.Next()
		}
		if !peekIs(pl, ttTypeName, ttIdent) {
			return nil, false
		}
		g.Words = append(g.Words, pl.Next().Value)
		if peekValue(pl, "::") {
			return nil, false
		}
	}
	if peekValue(pl, "<") {
		return nil, false
	}
	for peekIs(pl, ttQual, ttTypeKw) {
		g.More = append(g.More, pl.Next().Value)
	}
	return g, true
}

// fastPtrs reads @( '*' | '&' | '&&' | Qual )*.
func fastPtrs(pl *lexer.PeekingLexer) []string {
	var out []string
	for peekValue(pl, "*") || peekValue(pl, "&") || peekValue(pl, "&&") || peekIs(pl, ttQual) {
		out = append(out, pl.Next().Value)
	}
	return out
}

// fastExpr reads one gExpr, as the grammar's @@ does.
func fastExpr(pl *lexer.PeekingLexer) (*gExpr, bool) {
	e := &gExpr{}
	if err := e.Parse(pl); err != nil {
		return nil, false
	}
	return e, true
}

// fastDims reads gDim*.
func fastDims(pl *lexer.PeekingLexer) ([]*gDim, bool) {
	var out []*gDim
	for peekValue(pl, "[") {
		d := &gDim{Pos: pl.Next().Pos}
		if !peekValue(pl, "]") {
			x, ok := fastExpr(pl)
			if !ok {
				return nil, false
			}
			d.Size = x
		}
		if !peekValue(pl, "]") {
			return nil, false
		}
		pl.Next()
		out = append(out, d)
	}
	return out, true
}

func fastSpecs(pl *lexer.PeekingLexer) []string {
	var out []string
	for peekIs(pl, ttSpec) {
		out = append(out, pl.Next().Value)
	}
	return out
}

// fastDeclarator reads a gDeclarator without a constructor or brace
// initialiser.
func fastDeclarator(pl *lexer.PeekingLexer) (*gDeclarator, bool) {
	g := &gDeclarator{Pos: pl.Peek().Pos}
	g.Ptrs = fastPtrs(pl)
	if !peekIs(pl, ttIdent, ttTypeName) {
		return nil, false
	}
	g.Name = pl.Next().Value
	var ok bool
	if g.Dims, ok = fastDims(pl); !ok {
		return nil, false
	}
	switch {
	case peekValue(pl, "="):
		pl.Next()
		if g.Init, ok = fastExpr(pl); !ok {
			return nil, false
		}
	case peekValue(pl, "("), peekValue(pl, "{"):
		return nil, false
	}
	return g, true
}

// fastDecl reads a whole gDecl, to the end of input.
func fastDecl(pl *lexer.PeekingLexer) (*gDecl, bool) {
	g := &gDecl{Pos: pl.Peek().Pos}
	g.Specs = fastSpecs(pl)
	var ok bool
	if g.Type, ok = fastBaseType(pl); !ok {
		return nil, false
	}
	if g.Decls, ok = fastList(pl, fastDeclarator); !ok {
		return nil, false
	}
	return g, pl.Peek().EOF()
}

// fastList reads item ( ',' item )*.
func fastList[T any](pl *lexer.PeekingLexer, item func(*lexer.PeekingLexer) (T, bool)) ([]T, bool) {
	var out []T
	for {
		x, ok := item(pl)
		if !ok {
			return nil, false
		}
		out = append(out, x)
		if !peekValue(pl, ",") {
			return out, true
		}
		pl.Next()
	}
}

// fastParam reads one gParam.
func fastParam(pl *lexer.PeekingLexer) (*gParam, bool) {
	g := &gParam{Pos: pl.Peek().Pos}
	g.Specs = fastSpecs(pl)
	var ok bool
	if g.Type, ok = fastBaseType(pl); !ok {
		return nil, false
	}
	g.Ptrs = fastPtrs(pl)
	if peekValue(pl, "...") {
		pl.Next()
		g.Pack = true
	}
	if peekIs(pl, ttIdent, ttTypeName) {
		name := pl.Next().Value
		g.Name = &name
	}
	if g.Dims, ok = fastDims(pl); !ok {
		return nil, false
	}
	if peekValue(pl, "=") {
		pl.Next()
		if g.Default, ok = fastExpr(pl); !ok {
			return nil, false
		}
	}
	return g, true
}

// fastParamList reads a whole gParamList, to the end of input.
func fastParamList(pl *lexer.PeekingLexer) (*gParamList, bool) {
	g := &gParamList{Pos: pl.Peek().Pos}
	var ok bool
	if g.Params, ok = fastList(pl, fastParam); !ok {
		return nil, false
	}
	return g, pl.Peek().EOF()
}

// parseFast reads pl with a hand-written reader where p has one, falling
// back to p from where it started when the reader declines.
func parseFast[G any](p *participle.Parser[G], pl *lexer.PeekingLexer) (*G, error) {
	var g any
	ok := false
	cp := pl.MakeCheckpoint()
	switch any(p) {
	case any(exprParser):
		c, err := parseComma(pl)
		if err != nil {
			return nil, err
		}
		return any(c).(*G), nil
	case any(declParser):
		g, ok = fastDecl(pl)
	case any(paramsParser):
		g, ok = fastParamList(pl)
	case any(paramParser):
		g, ok = fastParam(pl)
		ok = ok && pl.Peek().EOF()
	}
	if ok {
		return g.(*G), nil
	}
	pl.LoadCheckpoint(cp)
	return p.ParseFromLexer(pl)
}
