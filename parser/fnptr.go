package parser

import "github.com/cudalint/cudalint/parser/lex"

// fnPtrDecl reads a function-pointer declaration in host code,
// `R (*name)(params) [= init];`, which the declaration grammar does not:
// a launch through the pointer (name<<<g, b>>>) starts the kernels it is
// given. The declarator's type is a pointer to R; the parameter list is
// left out.
func (u *unit) fnPtrDecl(i, stop int) (*DeclStmt, bool) {
	j := i
	var words []string
	for j < stop && u.toks[j].Kind == lex.KIdent {
		words = append(words, u.text(j))
		j++
	}
	if len(words) == 0 || !u.isPunct(j, "(") || !u.isPunct(j+1, "*") || j+2 >= stop || u.toks[j+2].Kind != lex.KIdent || !u.isPunct(j+3, ")") || !u.isPunct(j+4, "(") {
		return nil, false
	}
	name := u.toks[j+2]
	after := u.skipGroup(j+4, stop)
	dc := &Declarator{P: name.Pos, Name: name.Text, Type: &TypeRef{P: u.toks[i].Pos, Words: words, Ptr: 1}}
	switch {
	case after == stop:
	case u.isPunct(after, "=") && after+1 < stop:
		x, err := u.parseExpr(after+1, stop)
		if err != nil {
			return nil, false
		}
		dc.Init = x
	default:
		return nil, false
	}
	return &DeclStmt{Decl: &Decl{P: u.toks[i].Pos, Declarators: []*Declarator{dc}}}, true
}

// maxHostHelperTokens bounds the host functions without a launch the
// parser keeps: a size helper (iDivUp), a launcher that calls the one
// that launches, a main that calls it with the sizes it sets. Larger
// host code that launches nothing is skipped unread.
const maxHostHelperTokens = 8000
