package parser

import (
	"fmt"
	"slices"

	"github.com/cudalint/cudalint/parser/lex"
)

// Statements of function bodies. Control flow is recognised by keyword and
// bracket matching; simple statements (declarations and expressions) go to
// the participle grammar one at a time.

func (u *unit) block(open, close int, host bool) *Block {
	b := &Block{P: u.toks[open].Pos}
	u.depth++
	savedHost := u.host
	u.host = host // for the bodies of lambdas in its expressions
	defer func() { u.depth--; u.host = savedHost }()
	if u.depth > maxNesting {
		u.note(lex.NoteNestingLimit, u.toks[open].Pos, "blocks nested more than %d deep; skipped", maxNesting)
		return b
	}
	i := open + 1
	for i < close {
		s, next := u.stmt(i, close, host)
		if next <= i { // never loop without progress
			next = i + 1
		}
		if s != nil {
			b.Stmts = append(b.Stmts, s)
		}
		i = next
	}
	return b
}

// stmt parses the statement starting at i (before to) and returns it with
// the index after it.
func (u *unit) stmt(i, to int, host bool) (Stmt, int) {
	t := u.toks[i]
	if u.isPunct(i, "[") && u.isPunct(i+1, "[") { // [[attribute]] statement
		if j := u.skipGroup(i, to); j < to {
			return u.stmt(j, to, host)
		}
	}
	if t.Kind == lex.KPunct {
		switch t.Text {
		case "{":
			end := u.skipGroup(i, to)
			return u.block(i, end-1, host), end
		case ";":
			return &Empty{P: t.Pos}, i + 1
		}
	}
	if t.Kind == lex.KIdent {
		switch t.Text {
		case "if":
			return u.ifStmt(i, to, host)
		case "for":
			return u.forStmt(i, to, host)
		case "while":
			cond, after := u.parenCond(i+1, to, host)
			body, end := u.body(after, to, host)
			return &While{P: t.Pos, Cond: cond, Body: body, Unroll: t.Unroll}, end
		case "do":
			body, after := u.body(i+1, to, host)
			if u.text(after) != "while" {
				return u.bad(i, after, host, "do without while"), after
			}
			cond, end := u.parenCond(after+1, to, host)
			if u.isPunct(end, ";") {
				end++
			}
			return &While{P: t.Pos, Cond: cond, Body: body, Do: true, Unroll: t.Unroll}, end
		case "switch":
			tag, after := u.parenCond(i+1, to, host)
			body, end := u.body(after, to, host)
			return &Switch{P: t.Pos, Tag: tag, Body: body}, end
		case "case", "default":
			k := i + 1
			for k < to && !u.isPunct(k, ":") {
				if u.isPunct(k, "(") || u.isPunct(k, "[") {
					k = u.skipGroup(k, to)
					continue
				}
				k++
			}
			c := &Case{P: t.Pos}
			if t.Text == "case" && k > i+1 {
				c.Value = u.exprOrNote(i+1, k, host, lex.NoteCaseValue, "case value")
			}
			return c, k + 1
		case "return":
			end := u.skipStatement(i, to)
			r := &Return{P: t.Pos}
			if stop := u.stmtStop(end); stop > i+1 {
				x, err := u.parseExpr(i+1, stop)
				if err != nil {
					return u.bad(i, end, host, err.Error()), end
				}
				r.X = x
			}
			return r, end
		case "break", "continue", "goto":
			return &Jump{P: t.Pos, Kind: jumpKinds[t.Text]}, u.skipStatement(i, to)
		case "try":
			return u.tryStmt(i, to, host)
		case "static_assert":
			return &Empty{P: t.Pos}, u.skipStatement(i, to)
		case "namespace": // namespace cg = cooperative_groups;: names resolve by their last part
			return &Empty{P: t.Pos}, u.skipStatement(i, to)
		case "asm", "__asm__", "__asm":
			return u.asmStmt(i, to, host)
		case "typedef":
			return &Empty{P: t.Pos}, u.typedef(i, to)
		case "using":
			if us := u.usingOf(i, to); us != nil {
				u.bodyUsings = append(u.bodyUsings, us)
			}
			return &Empty{P: t.Pos}, u.using(i, to)
		case "struct", "union", "class", "enum":
			k := i + 1
			for k < to && !u.isPunct(k, "{") && !u.isPunct(k, ";") && !u.isPunct(k, "=") {
				k++
			}
			if u.isPunct(k, "{") {
				u.structBody(i, to)
				return &Empty{P: t.Pos}, u.skipStatement(i, to)
			}
		}
		if u.isPunct(i+1, ":") && !otherKeywords[t.Text] { // a label
			return &Empty{P: t.Pos}, i + 2
		}
		if s, end, ok := u.lambdaDecl(i, to, host); ok {
			return s, end
		}
	}
	return u.simple(i, to, host)
}

// macroBlock reports whether the tokens at i are NAME(...) { ... }, a
// macro that opens a loop or a scope (DeepSpeed's CUDA_1D_KERNEL_LOOP(j,
// N) { ... } with its header not found), and where the block ends: the
// statement is that much, not everything up to the next ';', which would
// swallow the declaration after the block too.
func (u *unit) macroBlock(i, to int) (int, bool) {
	if i+1 >= to || u.toks[i].Kind != lex.KIdent || !u.isPunct(i+1, "(") || otherKeywords[u.toks[i].Text] {
		return 0, false
	}
	g := u.skipGroup(i+1, to)
	if g >= to || !u.isPunct(g, "{") {
		return 0, false
	}
	return u.skipGroup(g, to), true
}

// stmtStop is the end of a statement's tokens, without its ';'.
func (u *unit) stmtStop(end int) int {
	if u.isPunct(end-1, ";") {
		return end - 1
	}
	return end
}

func (u *unit) body(i, to int, host bool) (Stmt, int) {
	if i >= to {
		return &Empty{P: u.toks[min(i, len(u.toks)-1)].Pos}, to
	}
	return u.stmt(i, to, host)
}

// parenCond parses ( expr ) at i; it returns the expression (nil when it
// cannot be read) and the index after ')'.
func (u *unit) parenCond(i, to int, host bool) (Expr, int) {
	if !u.isPunct(i, "(") {
		return nil, i
	}
	end := u.skipGroup(i, to)
	x, err := u.parseExpr(i+1, end-1)
	if err != nil {
		if d, derr := u.parseDecl(i+1, end-1); derr == nil && len(d.Declarators) == 1 && d.Declarators[0].Init != nil {
			return d.Declarators[0].Init, end // if (int x = ...): the value decides
		}
		if !host {
			u.note(lex.NoteCondition, u.toks[i].Pos, "condition not understood: %v", err)
		}
	}
	return x, end
}

func (u *unit) ifStmt(i, to int, host bool) (Stmt, int) {
	j := i + 1
	if u.text(j) == "constexpr" {
		j++
	}
	cond, after := u.parenCond(j, to, host)
	then, next := u.body(after, to, host)
	s := &If{P: u.toks[i].Pos, Cond: cond, Then: then, Arch: u.archIn(j, after)}
	if u.text(next) == "else" {
		s.Else, next = u.body(next+1, to, host)
	}
	return s, next
}

func (u *unit) forStmt(i, to int, host bool) (Stmt, int) {
	s := &For{P: u.toks[i].Pos, Unroll: u.toks[i].Unroll}
	if !u.isPunct(i+1, "(") {
		end := u.skipStatement(i, to)
		return u.bad(i, end, host, "for without '('"), end
	}
	close := u.skipGroup(i+1, to) - 1
	parts := u.splitTop(i+2, close, ";")
	body, end := u.body(close+1, to, host)
	s.Body = body
	if len(parts) != 3 {
		// A range-based for, or something stranger: keep the body, lose the
		// header, but not the names it declares (they are not a kernel's
		// parameters to assume values for).
		s.RangeVars = u.rangeVars(i+2, close)
		if !host {
			u.note(lex.NoteForHeader, u.toks[i].Pos, "for header not understood; loop variables are unknown")
		}
		return s, end
	}
	if a, b := parts[0][0], parts[0][1]; a < b {
		if u.isDeclStart(a) {
			d, err := u.parseDecl(a, b)
			if err == nil {
				s.Init = &DeclStmt{Decl: d}
			}
		} else if x, err := u.parseExpr(a, b); err == nil {
			s.Init = &ExprStmt{X: x}
		}
		if s.Init == nil && !host {
			u.note(lex.NoteForInit, u.toks[a].Pos, "for initialiser not understood")
		}
	}
	if a, b := parts[1][0], parts[1][1]; a < b {
		s.Cond = u.exprOrNote(a, b, host, lex.NoteForCondition, "for condition")
	}
	if a, b := parts[2][0], parts[2][1]; a < b {
		s.Post = u.exprOrNote(a, b, host, lex.NoteForStep, "for step")
	}
	return s, end
}

// exprOrNote parses toks[from:to] as the expression a statement needs
// (what names it), or notes at from why it could not: a lost loop
// condition or case value changes what the analysis predicts, and must
// not go unsaid. In host code the note is left out, as in bad.
func (u *unit) exprOrNote(from, to int, host bool, kind lex.NoteKind, what string) Expr {
	x, err := u.parseExpr(from, to)
	if err != nil && !host {
		u.note(kind, u.toks[from].Pos, "%s not understood: %v", what, err)
	}
	return x
}

// isDeclStart reports whether the statement at i is a declaration.
func (u *unit) isDeclStart(i int) bool {
	switch u.classify(u.toks[i]) {
	case ttSpec, ttQual, ttTypeKw, ttTag:
		return true
	case ttIdent:
		switch u.toks[i].Text {
		case "__align__", "alignas", "__attribute__": // __align__(16) half2 tmp[8];
			if u.isPunct(i+1, "(") {
				if j := u.skipGroup(i+1, len(u.toks)); j < len(u.toks) {
					return u.isDeclStart(j)
				}
			}
		}
		// ns::Type name, Type<args> name: a name that can only be a type.
		if u.typeThenName(i) {
			return true
		}
		// Two plain names in a row are a declaration in C and C++ alike:
		// the first is a type whose definition was not seen (it stands in
		// a header that was not found, say). It is a type from here on.
		if i+1 < len(u.toks) && u.classify(u.toks[i+1]) == ttIdent && !otherKeywords[u.toks[i+1].Text] {
			u.types[u.toks[i].Text] = true
			return true
		}
		return false
	case ttTypeName:
		next := i + 1
		if u.isPunct(next, "::") {
			return true
		}
		if u.isPunct(next, "<") {
			return u.typeThenName(i)
		}
		if next >= len(u.toks) {
			return false
		}
		switch u.classify(u.toks[next]) {
		case ttIdent, ttTypeName, ttQual:
			return true
		}
		return u.isPunct(next, "*") || u.isPunct(next, "&") || u.isPunct(next, "&&") || u.isPunct(next, "<")
	}
	return false
}

// typeThenName reports whether the tokens at i read as a qualified or
// template type name followed by a declared name: a::b c, a<b, 4> c,
// a::b<c> *d.
func (u *unit) typeThenName(i int) bool {
	k := i + 1
	qualified := false
	for u.isPunct(k, "::") && k+1 < len(u.toks) && u.toks[k+1].Kind == lex.KIdent {
		k += 2
		qualified = true
	}
	if u.isPunct(k, "<") {
		end, ok := u.typeArgsEnd(k)
		if !ok {
			return false
		}
		k = end + 1
	} else if !qualified {
		return false
	}
	for u.isPunct(k, "*") || u.isPunct(k, "&") || (k < len(u.toks) && qualKeywords[u.toks[k].Text]) {
		k++
	}
	return k < len(u.toks) && u.toks[k].Kind == lex.KIdent && !otherKeywords[u.toks[k].Text]
}

// typeArgsEnd finds the '>' closing the '<' at k when everything between
// can only be template arguments of a type: names, numbers, type words,
// '::', ',' and '*'. Comparisons never qualify (they have operands such
// as && or parentheses around expressions).
func (u *unit) typeArgsEnd(k int) (int, bool) {
	depth := 0
	for j := k; j < len(u.toks) && j < k+64; j++ {
		t := u.toks[j]
		switch {
		case t.Kind == lex.KPunct && t.Text == "<":
			depth++
		case t.Kind == lex.KPunct && t.Text == ">":
			depth--
			if depth == 0 {
				return j, true
			}
		case t.Kind == lex.KPunct && t.Text == ">>":
			depth -= 2
			if depth <= 0 {
				return j, depth == 0
			}
		case t.Kind == lex.KIdent, t.Kind == lex.KNumber:
		case t.Kind == lex.KPunct && (t.Text == "::" || t.Text == "," || t.Text == "*"):
		default:
			return 0, false
		}
	}
	return 0, false
}

// simple parses a declaration or expression statement. In host functions
// only statements that can bear on a launch are parsed: declarations,
// assignments and anything with <<<.
func (u *unit) simple(i, to int, host bool) (Stmt, int) {
	if end, ok := u.macroBlock(i, to); ok {
		return u.bad(i, end, host, fmt.Sprintf("unexpected token \"{\" after %s(...): a macro whose definition was not read", u.toks[i].Text)), end
	}
	end := u.skipStatement(i, to)
	stop := u.stmtStop(end)
	if host && !u.hostRelevant(i, stop) {
		if !u.hostMaybeRelevant(i, stop) {
			return nil, end
		}
		// A call or a compound assignment: a host helper that launches,
		// a count stepped in a loop. What cannot be read stays skipped.
		if x, err := u.parseExpr(i, stop); err == nil {
			return &ExprStmt{X: x}, end
		}
		return nil, end
	}
	if host {
		if d, ok := u.fnPtrDecl(i, stop); ok {
			return d, end
		}
	}
	if u.isDeclStart(i) {
		d, err := u.parseDecl(i, stop)
		if err != nil {
			return u.bad(i, end, host, err.Error()), end
		}
		return &DeclStmt{Decl: d}, end
	}
	x, err := u.parseExpr(i, stop)
	if err != nil {
		return u.bad(i, end, host, err.Error()), end
	}
	return &ExprStmt{X: x}, end
}

// launchedIn names the kernel a statement's tokens launch: the name
// before its <<<.
func (u *unit) launchedIn(from, to int) (string, bool) {
	for k := from + 1; k < to && k < len(u.toks); k++ {
		if u.text(k) == "<<<" && u.toks[k-1].Kind == lex.KIdent {
			return u.text(k - 1), true
		}
	}
	return "", false
}

func (u *unit) hostRelevant(from, to int) bool {
	if u.isDeclStart(from) || u.callsLauncher(from, to) {
		return true
	}
	for k := from; k < to; k++ {
		switch u.text(k) {
		case "<<<", "=":
			return true
		}
	}
	return false
}

// bad records a statement the grammar could not read. In host code the
// note is left out, host C++ being skipped by design, not by accident,
// unless the statement launches a kernel: that launch is lost, and its
// kernel would read "no launch found".
func (u *unit) bad(i, end int, host bool, why string) Stmt {
	p := u.toks[i].Pos
	if !host {
		u.note(lex.NoteStatement, p, "statement not understood (%s); skipped", why)
	}
	if host {
		if k, ok := u.launchedIn(i, end); ok {
			u.noteAbout(lex.NoteLaunchNotUnderstood, k, p, "launch of %s not understood (%s); %s is analyzed without it", k, why, k)
		}
	}
	return &BadStmt{P: p, Note: why, Idents: u.idents(i, end), Declares: u.declaredNames(i, end)}
}

// idents lists the distinct identifiers among tokens [from, to), member
// names (after . or ->) left out: qrm.x does not mention a variable x.
func (u *unit) idents(from, to int) []string {
	var out []string
	seen := map[string]bool{}
	for k := from; k < to && k < len(u.toks); k++ {
		if k > from && (u.isPunct(k-1, ".") || u.isPunct(k-1, "->")) {
			continue
		}
		if t := u.toks[k]; t.Kind == lex.KIdent && !seen[t.Text] {
			seen[t.Text] = true
			out = append(out, t.Text)
		}
	}
	return out
}

// declaredNames are the names a statement the parser cannot read seems
// to declare (BadStmt.Declares).
func (u *unit) declaredNames(from, to int) []string {
	var out []string
	for k := from + 1; k+1 < to && k+1 < len(u.toks); k++ {
		if u.toks[k].Kind != lex.KIdent || notAfterType[u.toks[k-1].Text] {
			continue
		}
		prev := u.toks[k-1]
		typeEnd := prev.Kind == lex.KIdent || u.isPunct(k-1, "*") || u.isPunct(k-1, "&") || u.isPunct(k-1, ">") || u.isPunct(k-1, ">>")
		next := u.toks[k+1].Text
		if typeEnd && u.toks[k+1].Kind == lex.KPunct && (next == "=" || next == ";" || next == "," || next == "[" || next == "(" || next == "{") && !slices.Contains(out, u.toks[k].Text) {
			out = append(out, u.toks[k].Text)
		}
	}
	return out
}

// notAfterType are the words after which a name is not declared.
var notAfterType = map[string]bool{"return": true, "case": true, "goto": true, "else": true, "do": true, "sizeof": true, "throw": true, "delete": true, "new": true}

// hostMaybeRelevant reports whether a host statement the parser would
// skip may still bear on a launch: it steps or compound-assigns a
// variable (count++, blocks += 512) or calls a function, which may be a
// host helper that launches a kernel.
func (u *unit) hostMaybeRelevant(from, to int) bool {
	// f(...), ns::f(...) (3D Gaussian splatting's FORWARD::render(grid,
	// block, ...), which launches with the block it is given); the
	// standard library's std::sort(..., lambda) launches nothing.
	k := from
	for k+2 < to && u.toks[k].Kind == lex.KIdent && u.toks[k].Text != "std" && u.isPunct(k+1, "::") {
		k += 2
	}
	if k < to && u.toks[k].Kind == lex.KIdent && u.isPunct(k+1, "(") {
		return true
	}
	// [&] { launch(); }(): a lambda called where it is written, which
	// may call a local lambda that launches (BOOL_SWITCH(c, C, launch)).
	if from < to && u.isPunct(from, "[") && !u.isPunct(from+1, "[") {
		return true
	}
	// f<T>(...): a call of a template, cudaLaunchKernel<F>(f, grid, ...).
	if k < to && u.toks[k].Kind == lex.KIdent && u.isPunct(k+1, "<") {
		if end, ok := u.typeArgsEnd(k + 1); ok && u.isPunct(end+1, "(") {
			return true
		}
	}
	for k := from; k < to; k++ {
		switch u.text(k) {
		case "++", "--", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=":
			return true
		}
	}
	return false
}

// archIn is the text __CUDA_ARCH__ expanded to in [from,to), or "".
func (u *unit) archIn(from, to int) string {
	for k := from; k < to; k++ {
		if m := u.toks[k].Macro; m != nil && m.Name == "__CUDA_ARCH__" {
			return u.text(k)
		}
	}
	return ""
}

// rangeVars are the names the declaration before a range-based for's
// top-level ':' declares: the last identifier (auto& x), or those of a
// structured binding (auto [k, v]); nil when there is no such ':'.
func (u *unit) rangeVars(from, to int) []string {
	colon := -1
	depth := 0
	for k := from; k < to; k++ {
		switch {
		case u.isPunct(k, "(") || u.isPunct(k, "[") || u.isPunct(k, "{"):
			depth++
		case u.isPunct(k, ")") || u.isPunct(k, "]") || u.isPunct(k, "}"):
			depth--
		case depth == 0 && u.isPunct(k, ":"):
			colon = k
		}
		if colon >= 0 {
			break
		}
	}
	if colon <= from {
		return nil
	}
	if u.isPunct(colon-1, "]") {
		var names []string
		for k := colon - 2; k > from && !u.isPunct(k, "["); k-- {
			if u.isIdent(k) {
				names = append([]string{u.text(k)}, names...)
			}
		}
		return names
	}
	if u.isIdent(colon - 1) {
		return []string{u.text(colon - 1)}
	}
	return nil
}

func (u *unit) isIdent(i int) bool {
	return i >= 0 && i < len(u.toks) && u.toks[i].Kind == lex.KIdent
}

// tryStmt parses try { ... } catch (...) { ... } ...: the try block, which
// a run without exceptions executes whole (host code's launches often sit
// in main's try, as tiny-cuda-nn's samples do). The handlers run only
// when something throws, which the model does not follow, as it does not
// follow the error arm of a CUDA call's check: they are parsed, so that
// their tokens are consumed, and left out.
func (u *unit) tryStmt(i, to int, host bool) (Stmt, int) {
	if !u.isPunct(i+1, "{") {
		return u.bad(i, u.skipStatement(i, to), host, "try without a block"), u.skipStatement(i, to)
	}
	end := u.skipGroup(i+1, to)
	body := u.block(i+1, end-1, host)
	for end < to && u.text(end) == "catch" {
		if !u.isPunct(end+1, "(") {
			return u.bad(i, end, host, "catch without its declaration"), end
		}
		after := u.skipGroup(end+1, to)
		if !u.isPunct(after, "{") {
			return u.bad(i, after, host, "catch without a block"), after
		}
		end = u.skipGroup(after, to)
	}
	return body, end
}
