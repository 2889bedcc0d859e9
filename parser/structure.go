package parser

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/cudalint/cudalint/parser/cpp"
	"github.com/cudalint/cudalint/parser/lex"
)

// The structural scanner. It walks the preprocessed tokens by bracket
// matching alone, finds top-level items (functions, structs, typedefs,
// namespaces, declarations) and splits function bodies into statements.
// Only declarations and expressions go through the participle grammar, one
// statement at a time, so a construct the grammar does not know costs one
// BadStmt, never the file. A host function without a launch is not
// parsed at all; in one with a launch only the statements that can matter
// (launches, dim3 and integer declarations, assignments) are.

const maxNesting = 256 // statement nesting depth; deeper code becomes a BadStmt

type unit struct {
	toks  []Token
	match []int // index of the matching bracket for ( [ {, or -1
	types map[string]bool
	file  *File
	depth int
	// base is the index of the first token of the statement being
	// converted: parse trees hold positions relative to it.
	base  int
	cache map[string]cachedParse
	// keyBuf is reused to build cache keys; stack by matchBrackets.
	keyBuf []byte
	stack  []int
	// launchers are the host function templates of the file so far that
	// launch kernels (see callsLauncher); launchersSeen is how many of
	// file.Funcs they were taken from.
	launchers     map[string]bool
	launchersSeen int
	// host is set while the statements of host code are read.
	host bool
	// bodyUsings are the using-directives and -declarations of the
	// function body being read.
	bodyUsings []*Using
	// operator is set while a member operator[] or conversion operator
	// is read (members.go): funcDef then names it ("operator[]",
	// "operator T*") rather than dropping it.
	operator string
}

var builtinTypeNames = []string{
	"size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
	"uint32_t", "uint64_t", "intptr_t", "uintptr_t", "half", "__half", "__half2", "half2",
	"__nv_bfloat16", "__nv_bfloat162", "nv_bfloat16", "dim3", "uint", "ushort", "uchar", "ulong",
	"cudaStream_t", "cudaError_t", "cudaEvent_t", "longlong", "ulonglong",
}

func init() {
	for _, base := range []string{"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong", "float", "double"} {
		for n := 1; n <= 4; n++ {
			builtinTypeNames = append(builtinTypeNames, fmt.Sprintf("%s%d", base, n))
		}
	}
}

// itemBufs holds the arrays that items are read into, for the next file
// of a Parse without an ItemCache: an array grows to the largest item of
// a file, and ggml's 187 files, each growing its own, allocated 538 MB
// doing so. A pool, so that what it holds goes once files stop loading.
// A run with an ItemCache keeps its arrays there instead (see
// ItemCache.spare).
var itemBufs sync.Pool

// takeItemBuf lends an array to read a file's items into: one of the
// cache's spares, or, without a cache, the pool's.
func takeItemBuf(ic *ItemCache) []Token {
	if ic != nil {
		return ic.takeSpare()
	}
	if b, ok := itemBufs.Get().(*[]Token); ok {
		return *b
	}
	return nil
}

// giveItemBuf returns b, whose first used tokens were written, cleared:
// what it held must not keep other files' text alive. Only the written
// part is cleared: the rest is still zero, and clearing all of an array
// sized for the largest item of the run, once per file, was ggml's
// largest memory clear.
func giveItemBuf(ic *ItemCache, b []Token, used int) {
	clear(b[:min(used, cap(b))])
	b = b[:0]
	if ic != nil {
		ic.giveSpare(b)
		return
	}
	itemBufs.Put(&b)
}

// Parse preprocesses and parses one file, one top-level item at a time:
// an item's tokens are dropped once it is parsed, so memory follows the
// largest item, not the file. Token spellings share src's bytes (and
// those of included files): they must not be modified while the File is
// in use.
func Parse(path string, src []byte, cfg Config) *File {
	pp := cpp.NewPreprocessor(path, src, cfg.preprocessor())
	u := newUnit(path)
	c := chunker{read: pp.NextToken}
	c.buf = takeItemBuf(cfg.Items)
	defer func() { giveItemBuf(cfg.Items, c.buf, c.used) }()
	var kh *keyHasher
	if cfg.Items != nil {
		kh = newKeyHasher(cfg.Items)
		pp.OfferReplays(func(h cpp.Header) bool { return u.takeHeader(&c, cfg.Items, kh, h) })
	}
	for {
		toks, ns, more := c.item()
		c.reuse(toks)
		switch {
		case len(toks) == 0:
		case cfg.Items != nil && (cfg.Items.Own || toks[0].Pos.File != path):
			u.parseCached(cfg.Items, kh, toks, ns)
		default:
			u.parseItems(toks, ns)
		}
		if !more {
			break
		}
	}
	out := pp.Finish()
	f := u.file
	f.Notes = append(out.Notes, f.Notes...)
	f.Includes = out.Includes
	f.Directives = out.Directives
	f.Hidden = out.Hidden
	f.Sources = out.Sources
	f.Bytes = len(src)
	return f
}

// ParseTokens parses preprocessed tokens.
func ParseTokens(path string, toks []Token) *File {
	u := newUnit(path)
	u.parseItems(toks, "")
	return u.file
}

func newUnit(path string) *unit {
	u := &unit{types: map[string]bool{}, file: &File{Path: path}, cache: map[string]cachedParse{}}
	for _, n := range builtinTypeNames {
		u.types[n] = true
	}
	return u
}

// parseItems parses the top-level items in toks, declared in namespace ns.
func (u *unit) parseItems(toks []Token, ns string) {
	u.toks = joinChevrons(macroPragmas(toks))
	u.matchBrackets()
	u.items(0, len(u.toks), ns)
	u.toks = nil
}

func (u *unit) note(k lex.NoteKind, p Pos, format string, args ...any) {
	u.file.Notes.AddKind(k, p, format, args...)
}

// noteAbout adds a note about subject, which its kind's summary names.
func (u *unit) noteAbout(k lex.NoteKind, subject string, p Pos, format string, args ...any) {
	u.file.Notes.AddAbout(k, subject, p, format, args...)
}

// joinChevrons rejoins launch chevrons written with spaces, which nvcc
// accepts: "k << < g, b >> > (a)" is k<<<g, b>>>(a), and so is
// clang-format's "k < < < g, b >>> (a)" inside macros. A "<<" followed by
// "<", or three "<" (or "<" then "<<"), opens a launch; inside one, the first ">>" ">" (or ">" ">>", or
// three ">") closes it.
func joinChevrons(toks []Token) []Token {
	is := func(i int, s string) bool { return i < len(toks) && toks[i].Kind == lex.KPunct && toks[i].Text == s }
	spaced := false
	for i := range toks {
		if (is(i, "<<") && is(i+1, "<")) || (is(i, "<") && is(i+1, "<<")) || (is(i, "<") && is(i+1, "<") && is(i+2, "<")) || ((is(i, ">") || is(i, ">>")) && (is(i+1, ">") || is(i+1, ">>"))) || (is(i, ">>") && is(i+1, "<<<")) {
			spaced = true
			break
		}
	}
	if !spaced {
		return toks // the common case: nothing to join, nothing to copy
	}
	out := make([]Token, 0, len(toks))
	open := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case !open && is(i, "<<") && is(i+1, "<"), !open && is(i, "<") && is(i+1, "<<"):
			t.Text, t.End = "<<<", toks[i+1].End
			i++
		case !open && is(i, "<") && is(i+1, "<") && is(i+2, "<"):
			t.Text, t.End = "<<<", toks[i+2].End
			i += 2
		case open && is(i, ">>") && is(i+1, ">"), open && is(i, ">") && is(i+1, ">>"):
			t.Text, t.End = ">>>", toks[i+1].End
			i++
		case open && is(i, ">") && is(i+1, ">") && is(i+2, ">"):
			t.Text, t.End = ">>>", toks[i+2].End
			i += 2
		case !open && is(i, ">>") && is(i+1, "<<<"):
			// k<Tr<8>><<<g, b>>>: the >> closes two template argument
			// lists, as a shift never stands before a launch.
			first, second := t, t
			first.Text, first.End = ">", t.End-1
			second.Text, second.Pos.Col, second.Pos.Offset, second.Space, second.BOL = ">", t.Pos.Col+1, t.Pos.Offset+1, false, false
			out = append(out, first)
			t = second
		}
		switch t.Text {
		case "<<<":
			open = true
		case ">>>":
			open = false
		}
		out = append(out, t)
	}
	return out
}

// matchBrackets pairs ( ) [ ] { }. An unmatched closer is dropped from
// pairing with a note; an unmatched opener matches the end of input.
func (u *unit) matchBrackets() {
	if cap(u.match) >= len(u.toks) {
		u.match = u.match[:len(u.toks)] // the previous item's array, reused
	} else {
		u.match = make([]int, len(u.toks))
	}
	stack := u.stack[:0]
	for i, t := range u.toks {
		u.match[i] = -1
		if t.Kind != lex.KPunct || len(t.Text) != 1 {
			continue
		}
		switch c := t.Text[0]; c {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			// Pop to the nearest opener of the same kind; openers skipped on the way are unmatched.
			opener := openerOf(c)
			j := len(stack) - 1
			for j >= 0 && u.toks[stack[j]].Text != opener {
				j--
			}
			if j < 0 {
				u.note(lex.NoteUnmatched, t.Pos, "unmatched %q", t.Text)
				continue
			}
			for _, open := range stack[j+1:] {
				u.note(lex.NoteUnmatched, u.toks[open].Pos, "unmatched %q", u.toks[open].Text)
				u.match[open] = len(u.toks)
			}
			u.match[stack[j]] = i
			u.match[i] = stack[j]
			stack = stack[:j]
		}
	}
	for _, open := range stack {
		u.note(lex.NoteUnmatched, u.toks[open].Pos, "unmatched %q", u.toks[open].Text)
		u.match[open] = len(u.toks)
	}
	u.stack = stack
}

// openerOf returns the bracket that c closes.
func openerOf(c byte) string {
	switch c {
	case ')':
		return "("
	case ']':
		return "["
	}
	return "{"
}

func (u *unit) text(i int) string {
	if i < 0 || i >= len(u.toks) {
		return ""
	}
	return u.toks[i].Text
}

func (u *unit) isPunct(i int, s string) bool {
	return i >= 0 && i < len(u.toks) && u.toks[i].Kind == lex.KPunct && u.toks[i].Text == s
}

// skipGroup returns the index after the bracket group opening at i.
func (u *unit) skipGroup(i, to int) int {
	if m := u.match[i]; m >= 0 {
		if m >= to {
			return to
		}
		return m + 1
	}
	return i + 1
}

// ---- top-level items ----

func (u *unit) items(from, to int, ns string) {
	i := from
	for i < to {
		i = u.item(i, to, ns)
	}
}

// item reads one top-level item starting at i and returns where the next starts.
func (u *unit) item(i, to int, ns string) int {
	start := i
	switch u.text(i) {
	case ";":
		return i + 1
	case "namespace":
		j := i + 1
		name := []string{}
		for j < to && !u.isPunct(j, "{") && !u.isPunct(j, ";") && !u.isPunct(j, "=") {
			if u.toks[j].Kind == lex.KIdent {
				name = append(name, u.toks[j].Text)
			}
			j++
		}
		if u.isPunct(j, "{") {
			inner := nestedNamespace(ns, name, u.toks[j].Pos)
			end := u.skipGroup(j, to)
			u.items(j+1, end-1, inner)
			return end
		}
		return u.skipStatement(i, to)
	case "extern":
		if u.toks[min(i+1, len(u.toks)-1)].Kind == lex.KString && u.isPunct(i+2, "{") {
			end := u.skipGroup(i+2, to)
			u.items(i+3, end-1, ns)
			return end
		}
	case "template":
		return u.templateItem(i, to, ns)
	case "typedef":
		return u.typedef(i, to)
	case "using":
		if us := u.usingOf(i, to); us != nil {
			us.Scope = ns
			u.file.Usings = append(u.file.Usings, us)
		}
		return u.using(i, to)
	case "static_assert":
		return u.skipStatement(i, to)
	}
	return u.declOrFunc(start, to, ns, nil)
}

func (u *unit) skipStatement(i, to int) int {
	for i < to {
		switch {
		case u.isPunct(i, ";"):
			return i + 1
		case u.isPunct(i, "(") || u.isPunct(i, "[") || u.isPunct(i, "{"):
			i = u.skipGroup(i, to)
		default:
			i++
		}
	}
	return to
}

// closeAngle returns the index of the '>' closing the '<' at open (a '>>'
// closes two), skipping bracketed groups; to when there is none.
func (u *unit) closeAngle(open, to int) int {
	depth := 0
	k := open
	for ; k < to; k++ {
		switch u.text(k) {
		case "<":
			depth++
		case ">":
			depth--
		case ">>":
			depth -= 2
		case "(", "[", "{":
			k = u.skipGroup(k, to) - 1
		}
		if depth <= 0 {
			break
		}
	}
	return k
}

// templateItem reads template<...> and the item it introduces; template
// type parameters become type names.
func (u *unit) templateItem(i, to int, ns string) int {
	j := i + 1
	if !u.isPunct(j, "<") {
		end := u.skipStatement(i, to)
		u.instantiation(j, end)
		return end
	}
	k := u.closeAngle(j, to)
	if k >= to {
		return to
	}
	params := u.templateParams(j+1, k)
	if u.text(k+1) == "using" {
		return u.aliasUsing(k+1, to, params)
	}
	return u.declOrFunc(k+1, to, ns, params)
}

func (u *unit) templateParams(from, to int) []TemplateParam {
	var out []TemplateParam
	for _, span := range u.splitList(from, to) {
		a, b := span[0], span[1]
		if a >= b {
			continue
		}
		eq := b
		for k := a; k < b; k++ {
			if u.isPunct(k, "=") {
				eq = k
				break
			}
		}
		var tp TemplateParam
		if eq < b {
			tp.Default = slices.Clone(u.toks[eq+1 : b]) // the item's tokens are reused
		}
		if name, ok := u.funcPointerName(a, eq); ok {
			tp.Name, tp.Func = name, true
			out = append(out, tp)
			continue
		}
		// The parameter's name is the last identifier before any default.
		for k := eq - 1; k >= a; k-- {
			if u.toks[k].Kind == lex.KIdent && !tagKeywords[u.toks[k].Text] {
				tp.Name = u.toks[k].Text
				if k > a {
					tp.IsType = tagKeywords[u.text(k-1)] || u.text(k-1) == ">"
					if !tp.IsType {
						tp.Type, _ = u.parseType(a, k)
					}
				}
				break
			}
		}
		if tp.Name == "" {
			continue
		}
		if tp.IsType {
			u.types[tp.Name] = true
		}
		out = append(out, tp)
	}
	return out
}

// splitTop splits [from,to) at top-level occurrences of sep.
func (u *unit) splitTop(from, to int, sep string) [][2]int {
	var out [][2]int
	a := from
	for k := from; k < to; k++ {
		switch {
		case u.isPunct(k, "(") || u.isPunct(k, "[") || u.isPunct(k, "{"):
			k = u.skipGroup(k, to) - 1
		case u.isPunct(k, sep):
			out = append(out, [2]int{a, k})
			a = k + 1
		}
	}
	if a < to || len(out) > 0 {
		out = append(out, [2]int{a, to})
	}
	return out
}

// splitList splits a parameter list [from,to) at its top-level commas,
// a comma inside a template's argument list (Array<T, N>& dst) being
// none: a '<' after a name opens one, its '>' closes it. Where the angles
// do not pair up (a comparison in a default argument), it is splitTop.
func (u *unit) splitList(from, to int) [][2]int {
	var out [][2]int
	a, depth := from, 0
	for k := from; k < to; k++ {
		switch {
		case u.isPunct(k, "(") || u.isPunct(k, "[") || u.isPunct(k, "{"):
			k = u.skipGroup(k, to) - 1
		case u.isPunct(k, "<") && k > from && u.toks[k-1].Kind == lex.KIdent:
			depth++
		case depth > 0 && u.isPunct(k, ">"):
			depth--
		case depth > 0 && u.isPunct(k, ">>"):
			depth -= 2
		case depth == 0 && u.isPunct(k, ","):
			out = append(out, [2]int{a, k})
			a = k + 1
		}
		if depth < 0 {
			return u.splitTop(from, to, ",")
		}
	}
	if depth != 0 {
		return u.splitTop(from, to, ",")
	}
	if a < to || len(out) > 0 {
		out = append(out, [2]int{a, to})
	}
	return out
}

// opensBody reports whether the tokens from k, after a tag keyword, are
// an optional attribute (__align__(16), alignas(16), __attribute__((...)))
// and an optional tag name before a '{': typedef struct __align__(16) {
// ... } Name; defines its struct there.
func (u *unit) opensBody(k, to int) bool {
	for k < to {
		switch {
		case u.isPunct(k, "{"):
			return true
		case u.text(k) == "__align__" || u.text(k) == "alignas" || u.text(k) == "__attribute__" || u.text(k) == "__declspec":
			if !u.isPunct(k+1, "(") {
				return false
			}
			k = u.skipGroup(k+1, to)
		case u.toks[k].Kind == lex.KIdent:
			k++
		default:
			return false
		}
	}
	return false
}

func (u *unit) typedef(i, to int) int {
	end := u.skipStatement(i, to)
	last := end - 1
	if u.isPunct(last, ";") {
		last--
	}
	// typedef struct [Tag] { ... } Name;
	j := i + 1
	for j < last && u.text(j) != "{" && !tagKeywords[u.text(j)] {
		if u.toks[j].Kind != lex.KIdent || !qualKeywords[u.text(j)] {
			break
		}
		j++
	}
	if tagKeywords[u.text(j)] && u.opensBody(j+1, last) {
		s := u.structBody(j, to)
		// The statement ends after the body: skipStatement alone would
		// take __align__(16) { ... } for a function and stop at its '}'.
		brace := j
		for brace < to && !u.isPunct(brace, "{") {
			brace++
		}
		end = u.skipStatement(u.skipGroup(brace, to), to)
		name := u.lastIdentBefore(end - 1)
		if name >= 0 && s != nil {
			if s.Name == "" {
				s.Name = u.toks[name].Text
			} else {
				u.file.Typedefs = append(u.file.Typedefs, &Typedef{P: u.toks[name].Pos, Name: u.toks[name].Text, Type: &TypeRef{Words: []string{s.Name}}})
			}
			u.types[u.toks[name].Text] = true
		}
		return end
	}
	// typedef T name[dims];
	if d, err := u.parseDecl(i+1, end-1); err == nil && len(d.Declarators) > 0 {
		for _, dc := range d.Declarators {
			u.file.Typedefs = append(u.file.Typedefs, &Typedef{P: dc.P, Name: dc.Name, Type: dc.Type, Dims: dc.Dims})
			u.types[dc.Name] = true
		}
		return end
	}
	if name := u.lastIdentBefore(end - 1); name >= 0 {
		u.types[u.toks[name].Text] = true // a function-pointer typedef or other: the name is still a type
	}
	return end
}

func (u *unit) lastIdentBefore(k int) int {
	for ; k >= 0; k-- {
		if u.toks[k].Kind == lex.KIdent {
			return k
		}
		if !u.isPunct(k, ";") && !u.isPunct(k, "]") && !u.isPunct(k, "[") && u.toks[k].Kind != lex.KNumber {
			return -1
		}
	}
	return -1
}

func (u *unit) using(i, to int) int { return u.aliasUsing(i, to, nil) }

// aliasUsing reads using Name = Type; at i (the "using"), of an alias
// template when params are its parameters. An alias template is kept
// even when its type is not read: the name is then the file's own, and
// not another file's alias of the same name (oneflow's PackType<bool,
// pack_size> is not the ulonglong2 PackType another .cu declares).
func (u *unit) aliasUsing(i, to int, params []TemplateParam) int {
	end := u.skipStatement(i, to)
	if u.toks[min(i+1, len(u.toks)-1)].Kind == lex.KIdent && u.isPunct(i+2, "=") {
		name := u.toks[i+1]
		u.types[name.Text] = true
		t, err := u.parseType(i+3, end-1)
		if err == nil || params != nil {
			if err != nil {
				t = nil
			}
			u.file.Typedefs = append(u.file.Typedefs, &Typedef{P: name.Pos, Name: name.Text, Type: t, Params: params})
		}
	}
	return end
}

// memberTypedef reads a member alias of s at i (using size_type = int;
// typedef T value_type;) into s.Typedefs: names of the class's scope,
// never of the file's. A typedef of a struct body, and using Base::f, are
// skipped as before.
func (u *unit) memberTypedef(s *Struct, i, to int) int {
	end := u.skipMember(i, to)
	for k := i; k < end; k++ {
		if u.isPunct(k, "{") {
			return end
		}
	}
	was := map[string]bool{}
	for k := i; k < end; k++ {
		if u.toks[k].Kind == lex.KIdent {
			was[u.toks[k].Text] = u.types[u.toks[k].Text]
		}
	}
	n := len(u.file.Typedefs)
	if u.text(i) == "using" {
		u.using(i, end)
	} else {
		u.typedef(i, end)
	}
	for _, td := range u.file.Typedefs[n:] {
		if !was[td.Name] {
			delete(u.types, td.Name) // a class's alias is no type name of the file's code
		}
	}
	s.Typedefs = append(s.Typedefs, u.file.Typedefs[n:]...)
	u.file.Typedefs = u.file.Typedefs[:n]
	return end
}

// usingOf reads "using namespace N;" or "using N::f;" at i; nil for a
// type alias or anything else.
func (u *unit) usingOf(i, to int) *Using {
	end := u.skipStatement(i, to)
	from, directive := i+1, u.text(i+1) == "namespace"
	if directive {
		from++
	}
	var name strings.Builder
	for k := from; k < end && !u.isPunct(k, ";"); k++ {
		t := u.toks[k]
		if t.Kind != lex.KIdent && !u.isPunct(k, "::") {
			return nil // using T = ...; using typename ...
		}
		name.WriteString(t.Text)
	}
	us := &Using{P: u.toks[i].Pos}
	switch {
	case directive && name.Len() > 0:
		us.Namespace = name.String()
	case !directive && strings.Contains(strings.TrimPrefix(name.String(), "::"), "::"):
		us.Name = name.String()
	default:
		return nil
	}
	return us
}

// declOrFunc reads a function definition, a struct/class definition or a
// file-scope declaration.
func (u *unit) declOrFunc(i, to int, ns string, tparams []TemplateParam) int {
	// Find the first top-level '{' or ';'.
	k := i
	sawParen, sawEq := -1, false
	for k < to {
		t := u.toks[k]
		if t.Kind == lex.KPunct {
			if t.Text == ";" {
				break
			}
			if t.Text == "{" {
				break
			}
			if t.Text == "=" {
				sawEq = true
			}
			if t.Text == "(" {
				if sawParen < 0 || u.isFuncNameAt(k-1) {
					sawParen = k
				}
				k = u.skipGroup(k, to)
				continue
			}
			if t.Text == "[" {
				k = u.skipGroup(k, to)
				continue
			}
		}
		k++
	}
	if k >= to {
		if k > i {
			u.note(lex.NoteDeclarationEnd, u.toks[i].Pos, "unexpected end of input in declaration")
		}
		return to
	}
	if u.isPunct(k, ";") {
		u.globalDecl(i, k)
		return k + 1
	}
	// '{' at k
	if tag := u.tagBefore(i, k); tag >= 0 && (sawParen < 0 || sawParen > tag) && !sawEq {
		s := u.structBody(tag, to)
		if s != nil {
			s.Template = tparams
		}
		end := u.skipGroup(k, to)
		if s != nil && u.isPunct(end, ";") {
			return end + 1
		}
		return u.skipStatement(end, to)
	}
	if sawParen >= 0 && !sawEq {
		body := k
		end := u.skipGroup(body, to)
		u.function(i, sawParen, body, end, ns, tparams)
		return end
	}
	// Something else with braces (an initializer, an enum, a lambda): skip it whole.
	return u.skipStatement(i, to)
}

func (u *unit) isFuncNameAt(k int) bool {
	if k < 0 || u.toks[k].Kind != lex.KIdent {
		return false
	}
	switch u.toks[k].Text {
	case "__launch_bounds__", "__align__", "__attribute__", "alignas", "__declspec", "decltype", "__maxnreg__":
		return false
	}
	return true
}

// tagBefore returns the index of struct/union/class/enum in [i,k) when the
// item is an aggregate definition.
func (u *unit) tagBefore(i, k int) int {
	for j := i; j < k; j++ {
		if tagKeywords[u.text(j)] && u.text(j) != "typename" {
			return j
		}
	}
	return -1
}

// structBody parses struct/union/class Name { fields } starting at the tag keyword.
func (u *unit) structBody(tag, to int) *Struct {
	kw := u.text(tag)
	j := tag + 1
	s := &Struct{P: u.toks[tag].Pos, Union: kw == "union"}
	for j < to && !u.isPunct(j, "{") {
		switch {
		case u.text(j) == "__align__" || u.text(j) == "alignas":
			if u.isPunct(j+1, "(") {
				end := u.skipGroup(j+1, to)
				if v, ok := lex.ParseInt(u.text(j + 2)); ok && j+3 == end-1 {
					s.Align = v
				} else if x, err := u.parseExpr(j+2, end-1); err == nil {
					s.AlignExpr = x
				}
				j = end
				continue
			}
		case u.isPunct(j, ":"): // base classes
			j = u.bases(s, j+1, to)
			continue
		case u.toks[j].Kind == lex.KIdent && s.Name == "" && !specKeywords[u.text(j)]:
			s.Name = u.toks[j].Text
			s.P = u.toks[j].Pos
		case s.Name != "" && u.isPunct(j, "<"): // struct Array<uint4_t, N>: a specialization
			s.Specialized = true
			end := u.skipAngles(j, to)
			for _, sp := range u.splitList(j+1, end-1) {
				var w []string
				for k := sp[0]; k < sp[1]; k++ {
					w = append(w, u.text(k))
				}
				s.SpecArgs = append(s.SpecArgs, strings.Join(w, " "))
			}
			j = end
			continue
		}
		j++
	}
	if j >= to {
		return nil
	}
	if s.Name != "" {
		u.types[s.Name] = true
	}
	if kw == "enum" {
		return nil
	}
	end := u.skipGroup(j, to)
	u.fields(s, j+1, end-1)
	u.file.Structs = append(u.file.Structs, s)
	return s
}

// bases reads the base classes of s from j, up to its body's brace: each
// a name, qualified or not, after any access specifier or virtual; a
// base's template arguments are skipped (its layout is then the class
// template's, as for any use of it).
func (u *unit) bases(s *Struct, j, to int) int {
	name := ""
	flush := func() {
		if name != "" {
			s.Bases = append(s.Bases, name)
		}
		name = ""
	}
	for j < to && !u.isPunct(j, "{") {
		switch t := u.text(j); {
		case u.isPunct(j, ","):
			flush()
		case u.isPunct(j, "<"):
			j = u.skipAngles(j, to)
			continue
		case u.isPunct(j, "::"):
			name += "::"
		case u.toks[j].Kind == lex.KIdent && t != "public" && t != "private" && t != "protected" && t != "virtual":
			name += t
		}
		j++
	}
	flush()
	return j
}

// skipAngles is the index after the > that closes the < at j (nested
// lists counted; >> closes two), or to.
func (u *unit) skipAngles(j, to int) int {
	depth := 0
	for ; j < to && !u.isPunct(j, "{"); j++ {
		switch {
		case u.isPunct(j, "<"):
			depth++
		case u.isPunct(j, ">"):
			depth--
		case u.isPunct(j, ">>"):
			depth -= 2
		}
		if depth <= 0 {
			return j + 1
		}
	}
	return j
}

func (u *unit) fields(s *Struct, from, to int) {
	i := from
	for i < to {
		if u.text(i) == "__extension__" {
			i++
			continue
		}
		switch u.text(i) {
		case "public", "private", "protected":
			if u.isPunct(i+1, ":") {
				i += 2
				continue
			}
		case "template":
			i = u.templateMember(s, i, to)
			continue
		case "using", "typedef":
			i = u.memberTypedef(s, i, to)
			continue
		case "friend", "static_assert":
			i = u.skipMember(i, to)
			continue
		case "static":
			i = u.staticMember(s, i, to)
			continue
		}
		if tagKeywords[u.text(i)] && u.text(i) != "typename" {
			// A nested aggregate: struct { ... } name; is a field of an anonymous type.
			k := i
			for k < to && !u.isPunct(k, "{") && !u.isPunct(k, ";") {
				k++
			}
			if u.isPunct(k, "{") {
				inner := u.structBody(i, to)
				end := u.skipGroup(k, to)
				stop := u.skipStatement(end, to)
				if inner != nil {
					if inner.Name == "" {
						inner.Name = fmt.Sprintf("%s::<anonymous@%s:%d>", s.Name, u.toks[k].Pos.File, u.toks[k].Pos.Offset)
					}
					named := false
					for _, sp := range u.splitTop(end, stop-1, ",") {
						if name := u.lastIdentBefore(sp[1] - 1); name >= sp[0] && name >= 0 {
							s.Fields = append(s.Fields, &Field{P: u.toks[name].Pos, Name: u.toks[name].Text, Type: &TypeRef{Words: []string{inner.Name}}})
							named = true
						}
					}
					if !named { // an anonymous member (C11): its storage is the struct's, its members too
						s.Fields = append(s.Fields, &Field{P: inner.P, Type: &TypeRef{Words: []string{inner.Name}}})
					}
				}
				i = stop
				continue
			}
		}
		end := u.skipMember(i, to)
		stmtEnd := end
		if u.isPunct(end-1, ";") {
			stmtEnd = end - 1
		}
		if u.method(s, i, end, false) || u.hasTopLevel(i, stmtEnd, "(") && !u.hasTopLevel(i, stmtEnd, "=") {
			i = end // a member function
			continue
		}
		// Bit-field widths are ignored: cut at a top-level ':'.
		cut := stmtEnd
		for k := i; k < stmtEnd; k++ {
			if u.isPunct(k, ":") {
				cut = k
				break
			}
		}
		if d, err := u.parseDecl(i, cut); err == nil {
			for _, dc := range d.Declarators {
				s.Fields = append(s.Fields, &Field{P: dc.P, Name: dc.Name, Type: dc.Type, Dims: dc.Dims})
			}
		} else if i < cut {
			s.Incomplete = true
			u.noteAbout(lex.NoteStructMember, s.Name, u.toks[i].Pos, "struct %s: member not understood (%v); its layout is not used for findings", s.Name, err)
		}
		i = end
	}
}

// skipMember skips one member declaration or member function definition.
func (u *unit) skipMember(i, to int) int {
	for k := i; k < to; k++ {
		switch {
		case u.isPunct(k, ";"):
			return k + 1
		case u.isPunct(k, "{"):
			end := u.skipGroup(k, to)
			if u.isPunct(end, ";") {
				return end + 1
			}
			if u.isPunct(k-1, "=") || !u.hasTopLevel(i, k, "(") || u.braceInit(i, k) {
				k = end - 1
				continue
			}
			return end
		case u.isPunct(k, "(") || u.isPunct(k, "["):
			k = u.skipGroup(k, to) - 1
		}
	}
	return to
}

func (u *unit) hasTopLevel(from, to int, s string) bool {
	for k := from; k < to; k++ {
		if u.isPunct(k, s) {
			return true
		}
		if u.isPunct(k, "(") || u.isPunct(k, "[") || u.isPunct(k, "{") {
			if s == "(" && u.isPunct(k, "(") {
				return true
			}
			k = u.skipGroup(k, to) - 1
		}
	}
	return false
}

// hasLaunch reports whether [from,to) holds a launch's "<<<".
func (u *unit) hasLaunch(from, to int) bool {
	for k := from; k < to; k++ {
		if u.toks[k].Kind == lex.KPunct && u.toks[k].Text == "<<<" {
			return true
		}
	}
	return false
}

func (u *unit) globalDecl(from, to int) {
	if from >= to {
		return
	}
	// Forward declarations of functions and structs carry nothing we model.
	if u.hasTopLevel(from, to, "(") && !u.hasTopLevel(from, to, "=") {
		return
	}
	if tag := u.tagBefore(from, to); tag >= 0 && tag+2 >= to {
		if u.toks[tag+1].Kind == lex.KIdent {
			u.types[u.toks[tag+1].Text] = true
		}
		return
	}
	d, err := u.parseDecl(from, to)
	if err != nil {
		return // file-scope C++ we do not model; nothing in it is a kernel
	}
	u.file.Globals = append(u.file.Globals, d)
}

// specializedName reads an explicit specialization's name, name<args>
// with last the token before the parameter list ('>' or '>>'): the
// index of name and the arguments, or -1 when last ends no such list
// (template <> void copy_vector<half, 4>(half* d, const half* s)).
func (u *unit) specializedName(from, last int) (int, []TemplateArg) {
	if last <= from || !u.isPunct(last, ">") && !u.isPunct(last, ">>") {
		return -1, nil
	}
	for k := last - 1; k > from; k-- {
		if !u.isPunct(k, "<") || u.toks[k-1].Kind != lex.KIdent {
			continue
		}
		if end := u.skipAngles(k, last+1); end != last+1 {
			continue
		}
		var args []TemplateArg
		for _, sp := range u.splitTop(k+1, last, ",") {
			if t, err := u.parseType(sp[0], sp[1]); err == nil {
				args = append(args, TemplateArg{Type: t})
			} else if x, err := u.parseExpr(sp[0], sp[1]); err == nil {
				args = append(args, TemplateArg{Value: x})
			} else {
				return -1, nil
			}
		}
		return k - 1, args
	}
	return -1, nil
}

// function parses a function definition whose parameter list opens at
// lparen and whose body opens at body.
func (u *unit) function(from, lparen, body, end int, ns string, tparams []TemplateParam) {
	if f := u.funcDef(from, lparen, body, end, ns, tparams); f != nil {
		u.file.Funcs = append(u.file.Funcs, f)
	}
}

// funcDef reads a function definition (see function); nil when it holds
// nothing to model.
func (u *unit) funcDef(from, lparen, body, end int, ns string, tparams []TemplateParam) *Func {
	name := lparen - 1
	for k := from; k < lparen; k++ {
		if u.text(k) == "operator" {
			if u.operator == "" {
				return nil // operator overloads are host C++, never kernels
			}
			name = k // a member operator[] or conversion: see members.go
		}
	}
	spec, specArgs := u.specializedName(from, name)
	if spec >= 0 {
		name = spec
	}
	if name < from || u.toks[name].Kind != lex.KIdent {
		u.note(lex.NoteNamelessFunction, u.toks[from].Pos, "function definition without a name; skipped")
		return nil
	}
	f := &Func{P: u.toks[name].Pos, Name: u.toks[name].Text, Template: tparams, Namespace: ns, Specialized: spec >= 0, SpecArgs: specArgs}
	if u.operator != "" {
		f.Name = u.operator
	}
	if name-2 >= from && u.isPunct(name-1, "::") && u.toks[name-2].Kind == lex.KIdent {
		f.Class = u.toks[name-2].Text // R Cls::name(...) { ... }, defined out of its class
		f.Ctor = f.Class == f.Name
	}
	for k := from; k < name; k++ {
		switch u.text(k) {
		case "__launch_bounds__":
			f.LaunchBounds = u.launchBounds(k+1, name)
		case "__global__":
			f.Global = true
		case "__device__":
			f.Device = true
		case "__host__":
			f.Host = true
		}
	}
	if !f.Global && !f.Device {
		f.Host = true
		if !u.hasLaunch(body, end) && !u.callsLauncher(body, end) && end-body > maxHostHelperTokens {
			return nil // host code that launches nothing holds nothing to model
		}
	}
	if strings.HasPrefix(u.operator, "operator ") {
		f.Result, _ = u.parseType(name+1, lparen) // operator T*(): its result is T*
	}
	if f.Global || f.Device || f.Host {
		// static, inline and friends before the type: the first start
		// that reads as a type is the result.
		for k := from; k < name && f.Result == nil; k++ {
			if t, err := u.parseType(k, name); err == nil {
				f.Result = t
			}
		}
	}
	rparen := u.skipGroup(lparen, end) - 1
	f.Params = u.params(f, lparen+1, rparen)
	bodyEnd := u.match[body]
	if bodyEnd < 0 || bodyEnd > end {
		bodyEnd = end
	}
	u.depth = 0
	u.bodyUsings = nil
	f.Body = u.block(body, bodyEnd, f.Host && !f.Device)
	f.Usings, u.bodyUsings = u.bodyUsings, nil
	return f
}

// launchBounds reads the first argument of __launch_bounds__( at open.
func (u *unit) launchBounds(open, to int) Expr {
	if !u.isPunct(open, "(") {
		return nil
	}
	end := u.skipGroup(open, to) - 1
	args := u.splitTop(open+1, end, ",")
	if len(args) == 0 || args[0][0] >= args[0][1] {
		return nil
	}
	x, err := u.parseExpr(args[0][0], args[0][1])
	if err != nil {
		return nil
	}
	return x
}

// params parses a parameter list: in one participle call, or parameter
// by parameter when that fails, so that one odd parameter costs only
// itself.
// arrayRefParam reads T (&name)[N] (or (*name)[N], &&): a reference or
// pointer to an array, as CUB and apex pass a thread's items
// (T (&items)[ITEMS]). It is indexed as a pointer to T would be.
func (u *unit) arrayRefParam(from, to int) (*Param, bool) {
	for j := from + 1; j+4 < to; j++ {
		if !u.isPunct(j, "(") || !(u.isPunct(j+1, "&") || u.isPunct(j+1, "*") || u.isPunct(j+1, "&&")) ||
			u.toks[j+2].Kind != lex.KIdent || !u.isPunct(j+3, ")") || !u.isPunct(j+4, "[") {
			continue
		}
		t, err := u.parseType(from, j)
		if err != nil {
			return nil, false
		}
		t.Ptr++
		p := &Param{P: u.toks[from].Pos, Name: u.toks[j+2].Text, Type: t}
		if end := u.skipGroup(j+4, to) - 1; end > j+5 && u.isPunct(end, "]") {
			if n, err := u.parseExpr(j+5, end); err == nil {
				p.ArrayLen = n
			}
		}
		return p, true
	}
	return nil, false
}

func (u *unit) params(f *Func, from, to int) []*Param {
	spans := u.splitList(from, to)
	if len(spans) == 1 && (spans[0][0] >= spans[0][1] || (spans[0][1]-spans[0][0] == 1 && u.text(spans[0][0]) == "void")) {
		return nil
	}
	if ps, err := u.parseParams(from, to); err == nil && len(ps) == len(spans) {
		return ps
	}
	var out []*Param
	for _, sp := range spans {
		if sp[0] >= sp[1] || (sp[1]-sp[0] == 1 && u.text(sp[0]) == "void") {
			continue
		}
		p, err := u.parseParam(sp[0], sp[1])
		if err != nil {
			if q, ok := u.arrayRefParam(sp[0], sp[1]); ok {
				out = append(out, q)
				continue
			}
			if f.Global || f.Device {
				u.noteAbout(lex.NoteParameter, f.Name, u.toks[sp[0]].Pos, "parameter of %s not understood: %v", f.Name, err)
			}
			p = &Param{P: u.toks[sp[0]].Pos, Name: u.text(u.lastIdentBefore(sp[1] - 1))}
		}
		out = append(out, p)
	}
	return out
}
