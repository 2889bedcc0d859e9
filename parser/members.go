package parser

import (
	"slices"
	"strings"

	"github.com/cudalint/cudalint/parser/lex"
)

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
	op := "" // the name of an operator[] or conversion operator
	for k := i; k < end; k++ {
		if u.text(k) == "operator" {
			op = u.operatorName(k)
			// operator=(...), operator()(...), operator[](...): the
			// parameters open at the first '(' after the operator's name.
			j := k + 1
			if u.isPunct(j, "(") && u.isPunct(j+1, ")") {
				j += 2
			}
			for j < end && !u.isPunct(j, "(") {
				j++
			}
			lparen = j
			break
		}
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
	if lparen < 0 || lparen >= end {
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
	u.operator = op
	f := u.funcDef(i, lparen, body, bodyEnd, "", nil)
	u.operator = ""
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
			end, pack := arg[1], u.isPunct(arg[1]-1, "...") // data_(std::forward<Args>(args)...)
			if pack {
				end--
			}
			x, err := u.parseExpr(arg[0], end)
			if pack && err == nil {
				x = &PackExpansion{P: x.Start(), X: x}
			}
			if err != nil {
				mi.Args = nil
				u.noteAbout(lex.NoteMemberInitializer, mi.Name, u.toks[a].Pos, "initializer of member %s not understood: %v", mi.Name, err)
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

// funcPointerName returns NAME when [from, to) declares a pointer to a
// function, R (*NAME)(params).
func (u *unit) funcPointerName(from, to int) (string, bool) {
	for k := from; k+4 < to; k++ {
		if u.isPunct(k, "(") && u.isPunct(k+1, "*") && u.toks[k+2].Kind == lex.KIdent && u.isPunct(k+3, ")") && u.isPunct(k+4, "(") {
			return u.toks[k+2].Text, true
		}
	}
	return "", false
}

// lambdaDecl reads [const] auto name = [captures](params) specifiers
// { body }; at i: a local lambda, whose calls the interpreter follows.
func (u *unit) lambdaDecl(i, to int, host bool) (Stmt, int, bool) {
	k := i
	if u.text(k) == "const" {
		k++
	}
	if u.text(k) != "auto" || k+3 >= to || u.toks[k+1].Kind != lex.KIdent || !u.isPunct(k+2, "=") || !u.isPunct(k+3, "[") {
		return nil, 0, false
	}
	name := k + 1
	capEnd := u.skipGroup(k+3, to)
	byRef := false
	for j := k + 4; j < capEnd-1; j++ {
		byRef = byRef || u.isPunct(j, "&") // [&], [&x]: what the body assigns is the caller's
	}
	tmpl, capEnd := u.lambdaTemplate(capEnd, to)
	// Specifiers may come first ([&] __device__ (int n) { ... }), and the
	// parameters may be left out: auto launch = [&] { k<<<g, b>>>(a); };
	for capEnd < to && u.toks[capEnd].Kind == lex.KIdent {
		capEnd++
	}
	rparen := capEnd - 1
	if u.isPunct(capEnd, "(") {
		rparen = u.skipGroup(capEnd, to) - 1
	}
	open := rparen + 1
	for open < to && !u.isPunct(open, "{") && !u.isPunct(open, ";") {
		open++
	}
	if !u.isPunct(open, "{") {
		return nil, 0, false
	}
	closeAt := u.skipGroup(open, to) - 1
	end := closeAt + 1
	if !u.isPunct(end, ";") {
		return nil, 0, false
	}
	f := &Func{P: u.toks[name].Pos, Name: u.toks[name].Text, Device: true, Template: tmpl}
	if rparen > capEnd {
		f.Params = u.params(f, capEnd+1, rparen)
	}
	f.Body = u.block(open, closeAt, host)
	lam := &Lambda{P: u.toks[k+3].Pos, Fn: f, ByRef: byRef}
	d := &Decl{P: u.toks[i].Pos, Declarators: []*Declarator{{P: u.toks[name].Pos, Name: f.Name, Type: &TypeRef{P: u.toks[k].Pos, Words: []string{"auto"}}, Init: lam}}}
	return &DeclStmt{Decl: d}, end + 1, true
}

// lambdaExpr reads the lambda written in an expression at tokens [i, end):
// [captures](params) specifiers { body }. Its function has no name. The
// statement being converted keeps its base: the body's statements are
// parsed with their own.
func (u *unit) lambdaExpr(i, end int) *Lambda {
	if i < 0 || end > len(u.toks) || !u.isPunct(i, "[") {
		return nil
	}
	saved := u.base
	defer func() { u.base = saved }()
	capEnd := u.skipGroup(i, end)
	byRef := false
	for j := i + 1; j < capEnd-1; j++ {
		byRef = byRef || u.isPunct(j, "&")
	}
	f := &Func{P: u.toks[i].Pos, Device: true}
	f.Template, capEnd = u.lambdaTemplate(capEnd, end)
	open := capEnd
	if u.isPunct(capEnd, "(") {
		rparen := u.skipGroup(capEnd, end) - 1
		f.Params = u.params(f, capEnd+1, rparen)
		open = rparen + 1
	}
	for open < end && !u.isPunct(open, "{") {
		open++
	}
	if open >= end {
		return nil
	}
	closeAt := u.skipGroup(open, end) - 1
	f.Body = u.block(open, closeAt, u.host)
	return &Lambda{P: u.toks[i].Pos, Fn: f, ByRef: byRef}
}

// templateMember reads template <params> member at i: a member function
// template becomes a method with those template parameters.
func (u *unit) templateMember(s *Struct, i, to int) int {
	end := u.skipMember(i, to)
	if !u.isPunct(i+1, "<") {
		return end
	}
	k := u.closeAngle(i+1, end)
	if k >= end {
		return end
	}
	params := u.templateParams(i+2, k)
	n := len(s.Methods)
	if k+1 < end && u.text(k+1) == "static" {
		u.method(s, k+2, end, true)
	} else {
		u.method(s, k+1, end, false)
	}
	if len(s.Methods) > n {
		s.Methods[n].Template = params
	}
	return end
}

// instantiation reads an explicit instantiation of a function template,
// template R name<args>(params); in [from, to), into File.Instantiations.
func (u *unit) instantiation(from, to int) {
	for k := from; k+1 < to; k++ {
		if u.isPunct(k, "(") {
			u.deducedInstantiation(k, to) // no template arguments written
			return
		}
		if u.toks[k].Kind != lex.KIdent || !u.isPunct(k+1, "<") {
			continue
		}
		depth, close := 0, -1
		for j := k + 1; j < to && close < 0; j++ {
			switch u.text(j) {
			case "<":
				depth++
			case ">":
				depth--
			case ">>":
				depth -= 2
			}
			if depth <= 0 {
				close = j
			}
		}
		if close < 0 {
			return
		}
		id := &Ident{P: u.toks[k].Pos, Name: u.toks[k].Text}
		for _, sp := range u.splitTop(k+2, close, ",") {
			if t, err := u.parseType(sp[0], sp[1]); err == nil {
				id.Targs = append(id.Targs, TemplateArg{Type: t})
			} else if x, err := u.parseExpr(sp[0], sp[1]); err == nil {
				id.Targs = append(id.Targs, TemplateArg{Value: x})
			} else {
				return
			}
		}
		u.file.Instantiations = append(u.file.Instantiations, id)
		return
	}
}

// deducedInstantiation reads template R name(params); with the
// parenthesis at open: the template arguments are deduced from the
// parameters, as the compiler does (FasterTransformer writes its 308
// instantiations template void invokeX(float* out, ...);). A template
// parameter is deduced from a function parameter of the template written
// as it alone, with pointers (T* out, const T* in), against the written
// parameter in its place. The template is one of the file's functions
// defined so far; an instantiation nothing deduces is not recorded.
func (u *unit) deducedInstantiation(open, to int) {
	if open == 0 || u.toks[open-1].Kind != lex.KIdent {
		return
	}
	name := u.toks[open-1].Text
	close := u.skipGroup(open, to) - 1
	if close <= open || !u.isPunct(close, ")") {
		return
	}
	params, err := u.parseParams(open+1, close)
	if err != nil {
		return
	}
	for i := len(u.file.Funcs) - 1; i >= 0; i-- {
		f := u.file.Funcs[i]
		if f.Name != name || len(f.Template) == 0 || f.Specialized || len(f.Params) != len(params) {
			continue
		}
		if targs, ok := deduceTemplateArgs(f, params); ok {
			u.file.Instantiations = append(u.file.Instantiations, &Ident{P: u.toks[open-1].Pos, Name: name, Targs: targs})
		}
		return
	}
}

// deduceTemplateArgs deduces every template parameter of f, a type,
// from the parameters given; false when one is not a type or not
// deduced, or two places deduce it differently.
func deduceTemplateArgs(f *Func, given []*Param) ([]TemplateArg, bool) {
	var targs []TemplateArg
	for _, tp := range f.Template {
		if !tp.IsType {
			return nil, false
		}
		var got *TypeRef
		for i, p := range f.Params {
			t, g := p.Type, given[i].Type
			if t == nil || g == nil || len(t.Words) != 1 || t.Words[0] != tp.Name || len(t.Targs) > 0 || g.Ptr < t.Ptr {
				continue
			}
			d := &TypeRef{P: g.P, Words: g.Words, Ptr: g.Ptr - t.Ptr, Targs: g.Targs}
			if got != nil && (!slices.Equal(got.Words, d.Words) || got.Ptr != d.Ptr) {
				return nil, false
			}
			got = d
		}
		if got == nil {
			return nil, false
		}
		targs = append(targs, TemplateArg{Type: got})
	}
	return targs, true
}

// callsLauncher reports whether [from, to) calls a host function template
// defined earlier that launches kernels: the caller instantiates it, and
// its launches depend on the types the call gives.
func (u *unit) callsLauncher(from, to int) bool {
	for ; u.launchersSeen < len(u.file.Funcs); u.launchersSeen++ {
		f := u.file.Funcs[u.launchersSeen]
		if f.Host && !f.Device && len(f.Template) > 0 {
			if u.launchers == nil {
				u.launchers = map[string]bool{}
			}
			u.launchers[f.Name] = true
		}
	}
	if len(u.launchers) == 0 {
		return false
	}
	for k := from; k+1 < to; k++ {
		if u.toks[k].Kind == lex.KIdent && u.launchers[u.toks[k].Text] && (u.isPunct(k+1, "(") || u.isPunct(k+1, "<")) {
			return true
		}
	}
	return false
}

// operatorName is the name a member operator at k is kept under:
// "operator[]" for operator[](...), "operator()" for a function object's
// call operator, "operator T*" for a conversion to a
// pointer type (operator T *(), SharedMemory's in cuda-samples), "" for
// any other operator, which is not kept.
func (u *unit) operatorName(k int) string {
	if u.isPunct(k+1, "[") && u.isPunct(k+2, "]") && u.isPunct(k+3, "(") {
		return "operator[]"
	}
	if u.isPunct(k+1, "(") && u.isPunct(k+2, ")") && u.isPunct(k+3, "(") {
		return "operator()"
	}
	j := k + 1
	words := []string{}
	for ; j < len(u.toks) && !u.isPunct(j, "("); j++ {
		if u.toks[j].Kind != lex.KIdent && !u.isPunct(j, "*") && !u.isPunct(j, "::") {
			return ""
		}
		words = append(words, u.text(j))
	}
	if len(words) < 2 || words[len(words)-1] != "*" || !u.isPunct(j+1, ")") {
		return ""
	}
	return "operator " + strings.Join(words, " ")
}

// lambdaTemplate reads a C++20 lambda's template parameters,
// [&]<typename T>(...), at j after the captures: the parameters and the
// index after their '>', or none and j.
func (u *unit) lambdaTemplate(j, to int) ([]TemplateParam, int) {
	if !u.isPunct(j, "<") {
		return nil, j
	}
	k := u.skipAngles(j, to)
	if k > to || !u.isPunct(k-1, ">") {
		return nil, j
	}
	return u.templateParams(j+1, k-1), k
}
