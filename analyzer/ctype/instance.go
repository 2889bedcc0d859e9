package ctype

import (
	"fmt"
	"strings"

	"github.com/cudalint/cudalint/parser"
	"github.com/cudalint/cudalint/parser/lex"
)

// TemplateArg is one argument of a class template instance: a type, or
// the value of a value parameter.
type TemplateArg struct {
	Type  *Type
	Value int64
}

// Instance is the layout of class template name with its parameters
// bound to args, in order (Array<float, 4>: T __a[N] is 16 bytes). It
// is nil when name is no class template here, a parameter has no
// argument or a type argument's layout is not known: the caller then
// resolves the name as written, without its arguments. The instance
// keeps the class's name, so that its members and methods are the
// class's, and its arguments (Type.Args).
func (ts *Types) Instance(name string, args []TemplateArg) *Type {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.instance(name, args)
}

func (ts *Types) instance(name string, args []TemplateArg) *Type {
	if i := strings.LastIndex(name, "::"); i >= 0 && !ts.declaresStruct(name) {
		name = name[i+2:]
	}
	if ts.parent != nil && !ts.owns(name) {
		return ts.parent.Instance(name, args)
	}
	s := ts.structs[name]
	if s == nil || s.Specialized || len(s.Template) == 0 || len(args) != len(s.Template) {
		return nil
	}
	var key strings.Builder
	key.WriteString(name + "<")
	for i, p := range s.Template {
		a := args[i]
		if p.IsType {
			if a.Type == nil || !a.Type.LayoutKnown() && !ts.emptyStruct(a.Type.Name) {
				return nil // a tag (struct uint4_t {};) selects, whatever its layout
			}
			fmt.Fprintf(&key, "%s/%d/%d,", a.Type.Name, a.Type.Size, a.Type.Align)
		} else {
			fmt.Fprintf(&key, "%d,", a.Value)
		}
	}
	k := key.String() + ">"
	if t, ok := ts.done[k]; ok {
		return t
	}
	if ts.busy[k] {
		return nil
	}
	ts.busy[k] = true
	defer delete(ts.busy, k)
	b := binding{types: map[string]*Type{}, values: map[string]int64{}}
	for i, p := range s.Template {
		if p.IsType {
			b.types[p.Name] = args[i].Type
		} else {
			b.values[p.Name] = args[i].Value
		}
	}
	for _, sp := range ts.specs[name] {
		sb, match, sure := ts.specMatch(sp, args)
		if !sure {
			return nil // it may be a specialization's layout, not the template's
		}
		if match {
			s, b = sp, sb
			break
		}
	}
	var resolve func(ref *parser.TypeRef) *Type
	aliasDepth := 0 // aliases of aliases, bounded: using A = B; using B = A;
	resolve = func(ref *parser.TypeRef) *Type {
		if ref != nil && len(ref.Words) == 1 && len(ref.Targs) == 0 {
			t, ok := b.types[ref.Words[0]]
			if !ok {
				// A member alias of a parameter (using Element = T;
				// Element buffer[N];) is the parameter's type, not
				// the program-wide guess for a name it cannot size.
				if td := memberAlias(s, ref.Words[0]); td != nil && aliasDepth < 8 {
					aliasDepth++
					t, ok = resolve(td.Type), true
					aliasDepth--
				}
			}
			if ok {
				for range ref.Ptr {
					t = PointerTo(t)
				}
				return t
			}
		}
		return ts.resolve(ref)
	}
	guessed := false
	t := ts.layoutWith(s, resolve, func(e parser.Expr) int64 {
		v, ok := b.eval(e, resolve)
		if !ok {
			v = ts.dim(e, resolve)
		}
		if v <= 0 {
			guessed = true // a dimension not known: the size is not either
			return 0
		}
		return v
	})
	t.Guessed = t.Guessed || guessed
	t.Args = args
	ts.done[k] = t
	return t
}

// memberAlias is the class's own alias called name (using Element = T;),
// when it names a plain type (no array dimensions, not itself), or nil.
func memberAlias(s *parser.Struct, name string) *parser.Typedef {
	for _, td := range s.Typedefs {
		if td.Name == name && len(td.Dims) == 0 && td.Type != nil {
			return td
		}
	}
	return nil
}

// binding is what a class template's parameters are bound to in one
// instance.
type binding struct {
	types  map[string]*Type
	values map[string]int64
}

// eval is the value of an array dimension written with the template's
// value parameters (N, N / 8, sizeof(T) * N); ok is false for anything
// else, which the program's constants then evaluate.
func (b binding) eval(e parser.Expr, resolve func(*parser.TypeRef) *Type) (int64, bool) {
	switch x := e.(type) {
	case *parser.IntLit:
		return x.Value, true
	case *parser.Ident:
		v, ok := b.values[x.Name]
		return v, ok
	case *parser.SizeofType:
		t := resolve(x.Type)
		return t.Size, t.LayoutKnown()
	case *parser.Binary:
		l, ok1 := b.eval(x.X, resolve)
		r, ok2 := b.eval(x.Y, resolve)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch x.Op {
		case parser.Add:
			return l + r, true
		case parser.Sub:
			return l - r, true
		case parser.Mul:
			return l * r, true
		case parser.Quo:
			if r != 0 {
				return l / r, true
			}
		case parser.Rem:
			if r != 0 {
				return l % r, true
			}
		case parser.Shl:
			if r >= 0 && r < 63 {
				return l << r, true
			}
		case parser.Shr:
			if r >= 0 && r < 63 {
				return l >> r, true
			}
		}
	}
	return 0, false
}

// specMatch reports whether specialization sp is the one args select,
// with its own parameters bound, and whether that is sure: an argument
// of sp written other than as a parameter of its own, a number or a type
// name makes it unsure.
func (ts *Types) specMatch(sp *parser.Struct, args []TemplateArg) (b binding, match, sure bool) {
	if len(sp.SpecArgs) != len(args) {
		return b, false, false
	}
	b = binding{types: map[string]*Type{}, values: map[string]int64{}}
	match = true
	for i, text := range sp.SpecArgs {
		a := args[i]
		own := -1
		for j, p := range sp.Template {
			if p.Name == text {
				own = j
			}
		}
		switch {
		case own >= 0 && sp.Template[own].IsType == (a.Type != nil):
			if a.Type != nil {
				b.types[text] = a.Type
			} else {
				b.values[text] = a.Value
			}
		case own >= 0:
			return b, false, false
		case a.Type == nil:
			n, ok := lex.ParseInt(text)
			if !ok {
				return b, false, false
			}
			match = match && n == a.Value
		default:
			for _, w := range strings.Fields(text) {
				if !isWord(w) {
					return b, false, false
				}
			}
			t := ts.named(strings.Fields(text))
			if t.Kind == TUnknown {
				if ts.Struct(text) == nil {
					return b, false, false
				}
				// A class declared without members (struct uint4_t {};, a
				// tag): a type of its own, which only itself matches.
				match = match && a.Type.Name == text
				continue
			}
			match = match && t.Name == a.Type.Name && t.Size == a.Type.Size
		}
	}
	return b, match, true
}

// isWord reports whether w is an identifier, qualified or not.
func isWord(w string) bool {
	for _, r := range w {
		if !(r == '_' || r == ':' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return w != ""
}
