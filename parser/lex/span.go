package lex

// BlockTokens returns the raw tokens, before preprocessing, of the block
// whose '{' is at byte offset open of src, through its matching '}'. A fix
// that rewrites a function body needs the text as written: directives
// (and the branches they leave out) and macro invocations are visible
// here and not in the tree. ok is false when src has no '{' at open or
// the block does not close; braces inside comments and literals do not
// count. Line and column numbers in the tokens are not meaningful (the
// scan starts mid-file); offsets are.
func BlockTokens(file string, src []byte, open int) (toks []Token, ok bool) {
	if open < 0 || open >= len(src) || src[open] != '{' {
		return nil, false
	}
	var notes Notes
	s := NewScanner(file, src, &notes, nil)
	s.off = open
	depth := 0
	for {
		t, more := s.Next()
		if !more {
			return nil, false
		}
		toks = append(toks, t)
		switch t.Text {
		case "{":
			depth++
		case "}":
			depth--
			if depth == 0 {
				return toks, true
			}
		}
	}
}
