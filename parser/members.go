package parser

import "github.com/cudalint/cudalint/parser/lex"

// Members of a struct or class other than its data members: static data
// members with an initializer, member functions with a body (constructors
// and their member initializer lists included), and defaulted or deleted
// special members, which have nothing to read.

// staticMember reads the static member starting at i (the "static"
// keyword): a static member function becomes a method, a static data
// member with an initializer one of s.Statics. It returns where the next
// member starts.
func (u *unit) staticMember(s *Struct, i, to int) int {
	end := u.skipMember(i, to)
	stmtEnd := end
	if u.isPunct(end-1, ";") {
		stmtEnd = end - 1
	}
	if u.method(s, i, end, true) {
		return end
	}
	if u.hasTopLevel(i+1, stmtEnd, "=") {
		if d, err := u.parseDecl(i+1, stmtEnd); err == nil {
			for _, dc := range d.Declarators {
				if dc.Init != nil {
					s.Statics = append(s.Statics, dc)
				}
			}
		}
	}
	return end
}

// method reads the member function in [i, end) when there is one: a
// definition with a body becomes one of s.Methods; a defaulted or deleted
// special member (Packed() = default;) or a pure virtual one is read and
// dropped. It reports whether [i, end) was a member function.
func (u *unit) method(s *Struct, i, end int, static bool) bool {
	lparen := -1
	for k := i; k < end; k++ {
		if u.isPunct(k, "=") || u.isPunct(k, ";") || u.isPunct(k, "{") {
			break
		}
		if u.isPunct(k, "(") {
			if u.isFuncNameAt(k - 1) {
				lparen = k
				break
			}
			k = u.skipGroup(k, end) - 1
		}
	}
	if lparen < 0 {
		return false
	}
	rparen := u.skipGroup(lparen, end) - 1
	if !u.isPunct(rparen, ")") {
		return false
	}
	// After the parameters: qualifiers, "= default", "= delete", "= 0", a
	// member initializer list, then the body or ';'.
	body := -1
	inits := -1
	for k := rparen + 1; k < end; k++ {
		switch {
		case u.isPunct(k, "="):
			return true // defaulted, deleted or pure: no body to read
		case u.isPunct(k, ";"):
			return true // a declaration only
		case u.isPunct(k, ":") && inits < 0:
			inits = k
		case u.isPunct(k, "("), u.isPunct(k, "["):
			k = u.skipGroup(k, end) - 1
		case u.isPunct(k, "{"):
			if inits >= 0 && u.toks[k-1].Kind == lex.KIdent && !u.isPunct(k-1, ":") {
				// name{args} inside the initializer list
				k = u.skipGroup(k, end) - 1
				continue
			}
			body = k
		}
		if body >= 0 {
			break
		}
	}
	if body < 0 {
		return true
	}
	bodyEnd := u.skipGroup(body, end)
	f := u.funcDef(i, lparen, body, bodyEnd, "", nil)
	if f == nil {
		return true
	}
	f.Class, f.Static = s.Name, static
	f.Ctor = f.Name == s.Name
	if f.Ctor {
		f.Result = nil
	}
	if inits >= 0 {
		f.Inits = u.memberInits(inits+1, body)
	}
	s.Methods = append(s.Methods, f)
	return true
}

// memberInits reads a constructor's member initializer list in [from, to):
// name(args) or name{args}, separated by commas.
func (u *unit) memberInits(from, to int) []MemberInit {
	var out []MemberInit
	for _, sp := range u.splitTop(from, to, ",") {
		a, b := sp[0], sp[1]
		if a+1 >= b || u.toks[a].Kind != lex.KIdent || !(u.isPunct(a+1, "(") || u.isPunct(a+1, "{")) {
			continue
		}
		close := u.skipGroup(a+1, b) - 1
		mi := MemberInit{P: u.toks[a].Pos, Name: u.toks[a].Text}
		for _, arg := range u.splitTop(a+2, close, ",") {
			if arg[0] >= arg[1] {
				continue
			}
			x, err := u.parseExpr(arg[0], arg[1])
			if err != nil {
				mi.Args = nil
				u.note(u.toks[a].Pos, "initializer of member %s not understood: %v", mi.Name, err)
				break
			}
			mi.Args = append(mi.Args, x)
		}
		out = append(out, mi)
	}
	return out
}

// braceInit reports whether the '{' at k is a member's brace initializer
// in a constructor's initializer list (Ctor(int o) : offset{o} {}), not
// the constructor's body.
func (u *unit) braceInit(i, k int) bool {
	if k == 0 || u.toks[k-1].Kind != lex.KIdent {
		return false
	}
	for j := i; j < k; j++ {
		if u.isPunct(j, "(") {
			j = u.skipGroup(j, k) - 1
			if u.isPunct(j+1, ":") || u.text(j+1) == "const" && u.isPunct(j+2, ":") {
				return true
			}
		}
	}
	return false
}
