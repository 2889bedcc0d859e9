package parser

import (
	"strconv"
	"strings"

	"github.com/cudalint/cudalint/parser/lex"
)

// macroPragmas takes out of toks the pragmas that macros expand to, which
// the preprocessor passes on as tokens: `#define PRAGMA_UNROLL #pragma
// unroll` (FasterTransformer's and lmdeploy's spelling, which nvcc reads)
// and C99's `_Pragma("unroll 4")`. An unroll pragma becomes the Unroll of
// the token after it, as a #pragma unroll line does; any other pragma is
// dropped. toks is not changed: a copy is returned when there is one.
func macroPragmas(toks []Token) []Token {
	first := -1
	for i := range toks {
		if pragmaAt(toks, i) > i {
			first = i
			break
		}
	}
	if first < 0 {
		return toks // the common case: nothing to take out, nothing to copy
	}
	out := make([]Token, 0, len(toks))
	out = append(out, toks[:first]...)
	for i := first; i < len(toks); {
		end := pragmaAt(toks, i)
		if end <= i {
			out = append(out, toks[i])
			i++
			continue
		}
		words := pragmaWords(toks[i:end])
		i = end
		if len(words) > 0 && words[0] == "unroll" && i < len(toks) && toks[i].Unroll == lex.UnrollNone {
			t := toks[i]
			t.Unroll = unrollCount(words[1:])
			out = append(out, t)
			i++
		}
	}
	return out
}

// pragmaAt is the index after the pragma a macro expanded to at i (the
// tokens of # pragma ... that the same macro made, or _Pragma("...")),
// or i when there is none.
func pragmaAt(toks []Token, i int) int {
	t := toks[i]
	switch {
	case t.Kind == lex.KPunct && t.Text == "#" && t.Macro != nil && i+1 < len(toks) && toks[i+1].Text == "pragma" && sameMacro(toks[i+1], t):
		j := i + 2
		for j < len(toks) && sameMacro(toks[j], t) && toks[j].Pos.Line == t.Pos.Line {
			j++
		}
		return j
	case t.Kind == lex.KIdent && t.Text == "_Pragma" && i+3 < len(toks) && toks[i+1].Text == "(" && toks[i+2].Kind == lex.KString && toks[i+3].Text == ")":
		return i + 4
	}
	return i
}

func sameMacro(a, b Token) bool {
	return a.Macro != nil && b.Macro != nil && a.Macro.Name == b.Macro.Name
}

// pragmaWords are the words of a pragma's tokens, after # pragma, or
// inside _Pragma's string.
func pragmaWords(toks []Token) []string {
	if toks[0].Text == "_Pragma" {
		s, err := strconv.Unquote(toks[2].Text)
		if err != nil {
			return nil
		}
		return strings.Fields(s)
	}
	var w []string
	for _, t := range toks[2:] {
		w = append(w, t.Text)
	}
	return w
}

// unrollCount is the Unroll of #pragma unroll with args after it.
func unrollCount(args []string) lex.Unroll {
	if len(args) == 0 {
		return lex.UnrollFull
	}
	n, ok := lex.ParseInt(args[0])
	if len(args) != 1 || !ok || n <= 0 {
		return lex.UnrollOther
	}
	return lex.UnrollCount(n)
}
