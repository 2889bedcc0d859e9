package parser

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cudalint/cudalint/parser/lex"
)

// chunker cuts the preprocessed token stream into top-level items as it
// reads it, so that Parse never holds a whole file's tokens. It enters
// namespace and extern "C" blocks itself (their items are top-level items
// too) and otherwise ends an item at a ';' or, for a function body, a '}'
// outside all brackets. A cut in the wrong place costs nothing but memory:
// the unit parses every item in a chunk, so a chunk holding two items, or
// a declaration and the stray ';' after it, parses as before.
type chunker struct {
	read   func() (Token, bool)
	back   []Token  // tokens read ahead, to be read again (last first)
	scopes []string // namespaces of the open namespace and extern blocks
	buf    []Token  // an array to read the next item into
	used   int      // the most of buf an item has filled (see giveItemBuf)
	open   []byte   // the unclosed brackets of the item being read
	// boundary is set while the next token read starts an item and
	// nothing is read ahead: only there can a header be taken whole
	// (takeHeader).
	boundary bool
	// cut is set when an item ended at the end of input, not at its ';'
	// or '}'.
	cut bool
}

func (c *chunker) get() (Token, bool) {
	if n := len(c.back); n > 0 {
		t := c.back[n-1]
		c.back = c.back[:n-1]
		return t, true
	}
	t, ok := c.read()
	if len(c.back) > 0 {
		// Reading took a header whole and gave back its unfinished last
		// item, which comes before t.
		if ok {
			c.back = slices.Insert(c.back, 0, t)
		}
		return c.get()
	}
	return t, ok
}

// reuse has the next item read into the array of toks, an item just
// parsed, which nothing keeps: it is buf, or buf grown to hold it.
func (c *chunker) reuse(toks []Token) {
	if cap(toks) >= cap(c.buf) {
		c.buf = toks[:0]
	}
	c.used = max(c.used, len(toks))
}

func (c *chunker) unget(ts ...Token) {
	for i := len(ts) - 1; i >= 0; i-- {
		c.back = append(c.back, ts[i])
	}
}

func (c *chunker) ns() string {
	if len(c.scopes) == 0 {
		return ""
	}
	return c.scopes[len(c.scopes)-1]
}

// item returns the tokens of the next top-level item and its namespace;
// more is false at the end of input.
func (c *chunker) item() (toks []Token, ns string, more bool) {
	for {
		c.boundary = len(c.back) == 0
		t, ok := c.get()
		c.boundary = false
		if !ok {
			return nil, "", false
		}
		switch {
		case t.Kind == lex.KPunct && t.Text == ";":
			continue
		case t.Kind == lex.KPunct && t.Text == "}" && len(c.scopes) > 0:
			c.scopes = c.scopes[:len(c.scopes)-1]
			continue
		case t.Kind == lex.KIdent && t.Text == "namespace":
			if c.namespace() {
				continue
			}
			return c.rest(append(c.buf[:0], t)), c.ns(), true
		case t.Kind == lex.KIdent && t.Text == "extern":
			if c.externBlock() {
				continue
			}
		}
		return c.rest(append(c.buf[:0], t)), c.ns(), true
	}
}

// namespace reads "namespace a::b {" after its keyword and enters the
// block; it reports false (having read nothing) for anything else.
func (c *chunker) namespace() bool {
	var read []Token
	var names []string
	at := Pos{}
	for {
		t, ok := c.get()
		if !ok {
			c.unget(read...)
			return false
		}
		read = append(read, t)
		if len(read) == 1 {
			at = t.Pos
		}
		if t.Kind == lex.KPunct && (t.Text == "{" || t.Text == ";" || t.Text == "=") {
			if t.Text != "{" {
				c.unget(read...)
				return false
			}
			break
		}
		if t.Kind == lex.KIdent {
			names = append(names, t.Text)
		}
	}
	c.scopes = append(c.scopes, nestedNamespace(c.ns(), names, at))
	return true
}

// anonymousMark begins the name of an anonymous namespace (see
// nestedNamespace).
const anonymousMark = "(anonymous "

// nestedNamespace is the full name of namespace names (none: an
// anonymous one, whose body opens at p) opened inside namespace outer.
// An anonymous namespace is named by where it opens, so that its
// functions are told from its parent's and from another file's anonymous
// namespace, yet a header's is named alike in each file including it.
func nestedNamespace(outer string, names []string, p Pos) string {
	inner := strings.Join(names, "::")
	if inner == "" {
		inner = fmt.Sprintf("%s%s:%d)", anonymousMark, p.File, p.Offset)
	}
	if outer == "" {
		return inner
	}
	return outer + "::" + inner
}

// VisibleNamespace is namespace ns as name lookup sees it: without its
// anonymous namespaces, whose names are visible in the enclosing one.
func VisibleNamespace(ns string) string {
	if !strings.Contains(ns, anonymousMark) {
		return ns
	}
	var kept []string
	for _, part := range strings.Split(ns, "::") {
		if !strings.HasPrefix(part, anonymousMark) {
			kept = append(kept, part)
		}
	}
	return strings.Join(kept, "::")
}

// InAnonymousNamespace reports whether namespace ns is or is inside an
// anonymous namespace: its names are its translation unit's alone.
func InAnonymousNamespace(ns string) bool { return strings.Contains(ns, anonymousMark) }

// externBlock enters extern "C" { ... }; it reports false (having read
// nothing more) when extern starts a declaration instead.
func (c *chunker) externBlock() bool {
	lit, ok := c.get()
	if !ok {
		return false
	}
	if lit.Kind != lex.KString {
		c.unget(lit)
		return false
	}
	brace, ok := c.get()
	if !ok || brace.Kind != lex.KPunct || brace.Text != "{" {
		if ok {
			c.unget(lit, brace)
		} else {
			c.unget(lit)
		}
		return false
	}
	c.scopes = append(c.scopes, c.ns())
	return true
}

// rest reads the item that starts with toks up to its end: a ';' outside
// brackets, or the '}' closing a function body.
func (c *chunker) rest(toks []Token) []Token {
	open := c.open[:0]
	needSemi := false // a struct, typedef or initializer: its '}' does not end it
	sawParen := false
	prev := ""
	step := func(t Token) bool {
		defer func() { prev = t.Text }()
		if t.Kind != lex.KPunct {
			if len(open) == 0 && (t.Text == "typedef" || (tagKeywords[t.Text] && t.Text != "typename")) {
				needSemi, sawParen = true, false
			}
			return false
		}
		switch t.Text {
		case "(", "[", "{":
			if t.Text == "(" && len(open) == 0 && needSemi && !attributeWords[prev] {
				sawParen = true // struct S f() { ... }: a function after all
			}
			open = append(open, t.Text[0])
		case ")", "]", "}":
			opener := byte('(')
			switch t.Text {
			case "]":
				opener = '['
			case "}":
				opener = '{'
			}
			j := len(open) - 1
			for j >= 0 && open[j] != opener {
				j--
			}
			if j < 0 {
				return false // unmatched: the unit notes it
			}
			open = open[:j]
			return len(open) == 0 && t.Text == "}" && (!needSemi || sawParen)
		case ";":
			return len(open) == 0
		case "=":
			if len(open) == 0 {
				needSemi, sawParen = true, false
			}
		}
		return false
	}
	defer func() { c.open = open }()
	if step(toks[0]) {
		return toks
	}
	for {
		t, ok := c.get()
		if !ok {
			c.cut = true
			return toks
		}
		toks = append(growItem(toks), t)
		if step(t) {
			return toks
		}
	}
}

// growItem makes room in a full item array by doubling it: append
// grows a large slice by a quarter at a time, and reading ggml's largest
// items (55,000 tokens) so allocated five times their size.
func growItem(toks []Token) []Token {
	if len(toks) < cap(toks) {
		return toks
	}
	return slices.Grow(toks, max(len(toks), 256))
}

// attributeWords take a parenthesised argument that is not a parameter
// list: struct __align__(16) { ... } is a struct, not a function.
var attributeWords = map[string]bool{"__align__": true, "alignas": true, "__attribute__": true, "__declspec": true}
