// Package cpp is the C preprocessor: #include, #define with function-like
// macros, # and ##, conditionals, #pragma once. Every token keeps where it
// was written and, when a macro produced it, where that macro was invoked
// (MacroOrigin). A translation unit is held to budgets (Limits: includes,
// included bytes, tokens); includes are read through Config.ReadFile
// (ReadSource by default, which refuses what is not a regular file or is
// too large), and a HeaderCache shares a header's preprocessed output
// between the files of a run, keyed by the macros it observes. It never
// fails: a problem is a note at its position.
package cpp

import (
	"errors"
	"github.com/cudalint/cudalint/parser/lex"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Limits bound the work the preprocessor does on hostile input. Each limit,
// when hit, is reported as a note and the rest of the file goes on.
const (
	maxIncludeDepth   = 64
	maxExpandedTokens = 1 << 20 // tokens produced by macro expansion, per file
)

// Limits are budgets for one translation unit: a file and everything it
// includes. The depth limit alone does not bound a unit: a header that
// includes itself twice expands 2^64 times. A budget that runs out is a
// note at the position where it did, and the unit ends there or includes
// nothing more; the rest of the run goes on.
type Limits struct {
	Includes      int   // #include directives expanded, repeats counted
	IncludedBytes int64 // bytes of the files those directives bring in
	Tokens        int   // tokens the unit produces after preprocessing
}

// DefaultLimits hold real code with ten times room or more: of the files
// of cuda-samples, ggml, gpu-app-collection and llm.c, the largest unit
// reads 397 includes (cub.cuh) and 7.7 MB of headers, and produces 304,000
// tokens (ggml's mmvq.cu).
var DefaultLimits = Limits{Includes: 4096, IncludedBytes: 128 << 20, Tokens: 4 << 20}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	if l.Includes <= 0 {
		l.Includes = DefaultLimits.Includes
	}
	if l.IncludedBytes <= 0 {
		l.IncludedBytes = DefaultLimits.IncludedBytes
	}
	if l.Tokens <= 0 {
		l.Tokens = DefaultLimits.Tokens
	}
	return l
}

// Config tells the preprocessor about the world outside the file.
type Config struct {
	// Defines are -D NAME=VALUE definitions; an empty value defines NAME as 1.
	Defines map[string]string
	// IncludeDirs are searched, after the including file's folder, for
	// #include "..." files; sources.Load also lets includes read them when
	// they lie outside Root.
	IncludeDirs []string
	// Root is the folder whose files includes may read (with IncludeDirs);
	// sources.Load's reader enforces it. Empty means the repository root
	// of the working directory, or the working directory outside one.
	Root string
	// ReadFile reads an included file; nil means ReadSource. An error of
	// type *RefusedError is noted at the #include with its reason.
	ReadFile func(path string) ([]byte, error)
	// Limits bound each translation unit; zero fields take DefaultLimits.
	Limits Limits
	// Headers, when set, shares the preprocessed output of included files
	// between the files of a run (see HeaderCache).
	Headers *HeaderCache
}

// Preprocessed is the output of Preprocess.
type Preprocessed struct {
	Tokens   []lex.Token
	Notes    lex.Notes
	Includes []string // files read through #include, in the order first read
	// Directives are the cudalint: comments of the file and its includes.
	Directives []lex.Directive
	// Hidden are the #defines of conditionals not taken whose enclosing
	// code was (one level: a define two false conditionals deep is not
	// what one -D gives).
	Hidden []lex.HiddenDefine
	// Sources holds the text of every file read, by path, so that nodes can
	// be mapped back to what the user wrote.
	Sources map[string][]byte
}

type macro struct {
	name     string
	params   []string
	variadic bool
	funcLike bool
	body     []lex.Token
	// origins[i] says where body token i was written, for the tokens an
	// expansion produces; made once per macro, not once per expansion,
	// under a sync.Once because a HeaderCache shares macros between the
	// files of a run.
	origins     []*lex.MacroOrigin
	originsOnce sync.Once
}

func (m *macro) origin(i int) *lex.MacroOrigin {
	m.originsOnce.Do(func() {
		m.origins = make([]*lex.MacroOrigin, len(m.body))
		for k, bt := range m.body {
			m.origins[k] = &lex.MacroOrigin{Name: m.name, Def: bt.Pos}
		}
	})
	return m.origins[i]
}

// span is a run of pending tokens, read from at on: an expansion is
// pushed back as the slice substitution made, not copied token by token.
type span struct {
	ts []ptok
	at int
	// arena is 1 + where ts starts in the Preprocessor's arena, or 0
	// when ts lies elsewhere.
	arena int
}

type ptok struct {
	lex.Token
	hs   *hideSet
	done bool // replayed from a HeaderCache: already expanded
}

// fileFrame is a file being read. Its tokens are scanned as they are
// needed, one ahead, so a file's tokens are never all held at once.
type fileFrame struct {
	path string
	sc   *lex.Scanner
	next lex.Token
	more bool // next holds a token
	// replay, when set, holds the finished tokens of a header taken from a
	// HeaderCache, in segments; seg and at index the next one. Such a
	// frame has no scanner.
	replay  [][]lex.Token
	seg, at int
}

func (p *Preprocessor) openFile(path string, src []byte) *fileFrame {
	f := &fileFrame{path: path, sc: lex.NewScanner(path, src, &p.out.Notes, &p.out.Directives)}
	f.next, f.more = f.sc.Next()
	return f
}

// replayed returns the next token of a replay frame.
func (f *fileFrame) replayed() (ptok, bool) {
	for f.seg < len(f.replay) {
		if s := f.replay[f.seg]; f.at < len(s) {
			f.at++
			return ptok{Token: s[f.at-1], done: true}, true
		}
		f.seg, f.at = f.seg+1, 0
	}
	return ptok{}, false
}

// take returns the frame's next token and scans the one after it.
func (f *fileFrame) take() lex.Token {
	t := f.next
	f.next, f.more = f.sc.Next()
	return t
}

type cond struct {
	active, taken, parentActive, sawElse bool
	pos                                  lex.Pos
	text                                 string // the directive as written (#ifdef GPU), for HiddenDefine
}

type Preprocessor struct {
	cfg      Config
	macros   map[string]*macro
	hides    *hideSets
	files    []*fileFrame
	conds    []cond
	once     map[string]bool
	seen     map[string]bool
	pushed   []span // pending runs of tokens, the last read first
	out      Preprocessed
	produced int
	limitHit bool
	budget   budget
	// expanding counts the macro invocations being read: a header that
	// starts or ends inside one mixes its tokens with its includer's.
	expanding int
	// argBufs[n] is the array the arguments of an invocation n deep are
	// read into (see collectArgs).
	argBufs [][]ptok
	// argExpansions[n] is the array the expanded arguments of a
	// substitution n deep are made in (see substitute).
	argExpansions [][]ptok
	// recs are the headers being recorded for the HeaderCache, outermost
	// first; their tokens and includes go to the logs while any is open.
	// arena holds the tokens of the expansions pushed back (arena.go).
	arena     expansionArena
	recs      []*recording
	logSegs   [][]lex.Token
	logSealed bool
	logEvents []includeEvent
	// unroll is the #pragma unroll read last, until the token after it
	// takes it (see read).
	unroll lex.Unroll
	// offer, when set, is offered each replayed header (OfferReplays).
	offer func(Header) bool
	// subs numbers the tokens each invocation site's expansions make from
	// macro bodies (lex.Pos.Sub), by the site: an argument's own macros
	// expand in the middle of its invocation's body, so one counter
	// would restart there.
	subs map[siteKey]int32
}

// siteKey is where an invocation stands.
type siteKey struct {
	file   string
	offset int32
}

// budget is what a unit has spent of its Limits.
type budget struct {
	includes    int
	bytes       int64
	tokens      int
	includesOut bool // the include budgets are spent: nothing more is included
	tokensOut   bool // the token budget is spent: the unit ends
	deepNoted   map[lex.Pos]bool
}

// Preprocess expands file (whose contents are src) into tokens. It never
// fails: problems become notes with positions.
func Preprocess(file string, src []byte, cfg Config) *Preprocessed {
	p := NewPreprocessor(file, src, cfg)
	for {
		t, ok := p.NextToken()
		if !ok {
			break
		}
		p.out.Tokens = append(p.out.Tokens, t)
	}
	return p.Finish()
}

func NewPreprocessor(file string, src []byte, cfg Config) *Preprocessor {
	if cfg.ReadFile == nil {
		cfg.ReadFile = ReadSource
	}
	cfg.Limits = cfg.Limits.withDefaults()
	p := &Preprocessor{cfg: cfg, hides: newHideSets(), macros: map[string]*macro{}, once: map[string]bool{}, seen: map[string]bool{}}
	p.out.Sources = map[string][]byte{file: src}
	p.predefine()
	p.files = []*fileFrame{p.openFile(file, src)}
	return p
}

// NextToken returns the next token of the preprocessed file, until the
// unit's token budget is spent.
func (p *Preprocessor) NextToken() (lex.Token, bool) {
	if p.budget.tokensOut {
		return lex.Token{}, false
	}
	t, ok := p.next()
	if !ok {
		return t.Token, false
	}
	if p.budget.tokens++; p.budget.tokens > p.cfg.Limits.Tokens {
		p.out.Notes.AddKind(lex.NoteTokenLimit, t.Pos, "this file and its includes produce more than %d tokens; the rest is not read", p.cfg.Limits.Tokens)
		p.budget.tokensOut = true
		return lex.Token{}, false
	}
	if len(p.recs) > 0 && !t.done { // a replayed header logged its tokens whole
		p.logToken(t.Token)
	}
	return t.Token, true
}

// Finish notes the conditionals left open at the end of input (not when a
// budget cut the input short: they were closed in the part not read).
func (p *Preprocessor) Finish() *Preprocessed {
	if p.budget.tokensOut {
		return &p.out
	}
	for _, c := range p.conds {
		p.out.Notes.AddKind(lex.NoteUnterminatedIf, c.pos, "unterminated #if")
	}
	return &p.out
}

func (p *Preprocessor) predefine() {
	// What nvcc and the CUDA headers (which are not read) would define: a
	// CUDA 13.0 device pass for sm_90.
	defs := map[string]string{"__CUDACC__": "1", "__NVCC__": "1", "__CUDA_ARCH__": "900", "__cplusplus": "201703L",
		"CUDART_VERSION": "13000", "CUDA_VERSION": "13000", "__CUDACC_VER_MAJOR__": "13", "__CUDACC_VER_MINOR__": "0",
		"__CUDACC_VER_BUILD__": "0", "__CUDA_API_VERSION": "13000"}
	for k, v := range p.cfg.Defines {
		if v == "" {
			v = "1"
		}
		defs[k] = v
	}
	for name, val := range defs {
		var notes lex.Notes
		body := lex.Scan("<command line>", []byte(val), &notes)
		for i := range body {
			body[i].BOL = false
		}
		p.macros[name] = &macro{name: name, body: body}
	}
}

// next returns the next fully expanded token.
func (p *Preprocessor) next() (ptok, bool) {
	for {
		t, ok := p.read()
		if !ok {
			return t, false
		}
		if t.Kind != lex.KIdent || p.limitHit || t.done {
			return t, true
		}
		m := p.lookup(t.Text)
		if m == nil || p.hides.has(t.hs, t.Text) {
			return t, true
		}
		if !p.expand(t, m) {
			return t, true
		}
	}
}

// read returns the next token before expansion: pushed-back tokens first,
// then the active text of the files, handling directives on the way.
func (p *Preprocessor) read() (ptok, bool) {
	if n := len(p.pushed); n > 0 {
		s := &p.pushed[n-1]
		t := s.ts[s.at]
		if s.at++; s.at == len(s.ts) {
			if s.arena > 0 {
				p.arena.release(s.arena - 1)
			}
			p.pushed[n-1] = span{} // a finished span is dropped at once: no pushed span is empty
			p.pushed = p.pushed[:n-1]
		}
		return t, true
	}
	for len(p.files) > 0 {
		f := p.files[len(p.files)-1]
		if f.replay != nil {
			if t, ok := f.replayed(); ok {
				return t, true
			}
			p.files = p.files[:len(p.files)-1]
			continue
		}
		if !f.more {
			p.popFile(f)
			continue
		}
		if t := f.next; t.BOL && t.Text == "#" && t.Kind == lex.KPunct {
			p.directive(f)
			continue
		}
		t := f.take()
		if !p.active() {
			continue
		}
		t.Unroll, p.unroll = p.unroll, lex.UnrollNone
		return ptok{Token: t}, true
	}
	return ptok{}, false
}

// unread pushes ts back, to be read next; ts is read, never written.
func (p *Preprocessor) unread(ts []ptok) {
	if len(ts) > 0 {
		p.pushed = append(p.pushed, span{ts: ts})
	}
}

func (p *Preprocessor) active() bool {
	return len(p.conds) == 0 || p.conds[len(p.conds)-1].active
}

// expand replaces the invocation that starts with t by the macro's
// expansion, pushed back to be read again. It reports false when t is a
// function-like macro's name without arguments.
func (p *Preprocessor) expand(t ptok, m *macro) bool {
	p.expanding++
	defer func() { p.expanding-- }()
	hs := p.hides.with(t.hs, m.name)
	var args [][]ptok
	if m.funcLike {
		la, ok := p.read()
		if !ok || la.Text != "(" {
			if ok {
				p.unread([]ptok{la})
			}
			return false
		}
		var rparen ptok
		args, rparen, ok = p.collectArgs(t)
		if !ok {
			return true // the note is written; the name and its broken arguments are dropped
		}
		hs = p.hides.with(p.hides.intersect(t.hs, rparen.hs), m.name)
	}
	body, start := p.substitute(m, args, hs, t)
	inArena := p.arena.keep(body, start)
	if p.limitHit {
		return true // the budget ran out during the substitution: nothing of it is kept
	}
	p.produced += len(body)
	p.unread(body)
	if inArena && len(body) > 0 {
		p.pushed[len(p.pushed)-1].arena = start + 1
	}
	return true
}

// overBudget reports whether an expansion at inv that would hold n more
// tokens than the expansions so far exceeds the file's expansion budget;
// the first time it does, it notes it at inv and stops all expansion,
// substitutions under way included.
func (p *Preprocessor) overBudget(inv ptok, n int) bool {
	if p.limitHit {
		return true
	}
	if p.produced+n <= maxExpandedTokens {
		return false
	}
	p.out.Notes.AddKind(lex.NoteExpansionLimit, inv.Pos, "macro expansion produced more than %d tokens; expansion stopped", maxExpandedTokens)
	p.limitHit = true
	return true
}

func (p *Preprocessor) collectArgs(name ptok) ([][]ptok, ptok, bool) {
	// The arguments are read into one array and cut at the end: an
	// argument is a slice of it, capped so that nothing appends into the
	// next. The array is the one of this nesting level of expansion,
	// reused: arguments live until their substitution ends, which copies
	// them, and the next invocation at this level comes after that.
	// Invocations inside an argument are a level deeper.
	level := p.expanding
	for len(p.argBufs) <= level {
		p.argBufs = append(p.argBufs, nil)
	}
	all := p.argBufs[level][:0]
	defer func() { p.argBufs[level] = all[:0] }()
	var ends []int
	cut := func() [][]ptok {
		args := make([][]ptok, len(ends))
		start := 0
		for i, end := range ends {
			if end > start {
				args[i] = all[start:end:end]
			}
			start = end
		}
		return args
	}
	depth := 0
	for {
		t, ok := p.read()
		if !ok {
			p.out.Notes.AddKind(lex.NoteUnterminatedMacroArgs, name.Pos, "unterminated argument list invoking macro %q", name.Text)
			return nil, ptok{}, false
		}
		switch t.Text {
		case "(", "[", "{":
			if t.Kind == lex.KPunct {
				depth++
			}
		case ")", "]", "}":
			if t.Kind == lex.KPunct {
				if depth == 0 && t.Text == ")" {
					ends = append(ends, len(all))
					return cut(), t, true
				}
				depth--
			}
		case ",":
			if depth == 0 {
				ends = append(ends, len(all))
				continue
			}
		}
		all = append(all, t)
	}
}

// substitute produces the macro body with arguments in place: # and ##
// applied, arguments fully expanded except next to # and ##.
//
// The result is in room reserved in the arena at start, unless it
// outgrew it (see expansionArena.keep).
func (p *Preprocessor) substitute(m *macro, args [][]ptok, hs *hideSet, inv ptok) (result []ptok, start int) {
	argOf := func(name string) ([]ptok, bool) {
		for i, pn := range m.params {
			if pn == name {
				if i < len(args) {
					return args[i], true
				}
				return nil, true
			}
		}
		if m.variadic && name == "__VA_ARGS__" {
			var va []ptok
			for i := len(m.params); i < len(args); i++ {
				if i > len(m.params) {
					va = append(va, ptok{Token: lex.Token{Kind: lex.KPunct, Text: ",", Pos: inv.Pos}})
				}
				va = append(va, args[i]...)
			}
			return va, true
		}
		return nil, false
	}
	if len(args) == 1 && len(args[0]) == 0 && len(m.params) == 0 {
		args = nil
	}
	origin := inv.Macro
	// Room for the body and each argument once, the common case, so that
	// out is seldom grown and copied.
	room := len(m.body)
	for _, a := range args {
		room += len(a)
	}
	out, start := p.arena.reserve(room)
	// The arguments' expansions live until out holds them; they are made
	// in an array of this level of expansion, kept for the next
	// substitution at this level (those inside an argument are deeper).
	level := p.expanding
	for len(p.argExpansions) <= level {
		p.argExpansions = append(p.argExpansions, nil)
	}
	scratch := p.argExpansions[level][:0]
	defer func() { p.argExpansions[level] = scratch[:0] }()
	var expanded map[string][]ptok
	body := m.body
	for i := 0; i < len(body); i++ {
		bt := body[i]
		if bt.Text == "#" && m.funcLike && i+1 < len(body) {
			if a, ok := argOf(body[i+1].Text); ok {
				out = append(out, p.fromBody(stringize(a, inv.Pos), m, i, hs, inv, origin))
				i++
				continue
			}
		}
		if bt.Text == "##" && len(out) > 0 && i+1 < len(body) {
			rhs := []ptok{{Token: body[i+1]}}
			if a, ok := argOf(body[i+1].Text); ok {
				rhs = a
			} else {
				rhs[0] = p.fromBody(body[i+1], m, i+1, hs, inv, origin)
			}
			i++
			if len(rhs) == 0 {
				continue
			}
			last := &out[len(out)-1]
			pasted := pasteTokens(last.Token, rhs[0].Token)
			// A pasted token is the expansion's own, even where it keeps an
			// argument's place (NAME##_slow, NAME##_fast): numbered apart.
			pasted.Pos.Sub = p.nextSub(pasted.Pos)
			last.Token = pasted
			out = append(out, rhs[1:]...)
			continue
		}
		if a, ok := argOf(bt.Text); ok && bt.Kind == lex.KIdent {
			if i+1 < len(body) && body[i+1].Text == "##" {
				if p.overBudget(inv, len(out)+len(a)) {
					return nil, start
				}
				out = append(out, a...)
				continue
			}
			// An argument is expanded once however often the body uses it.
			x, done := expanded[bt.Text]
			if !done {
				var made bool
				x, made = p.expandArg(a, scratch[len(scratch):])
				if made {
					scratch = grownBy(scratch, x)
				}
				if expanded == nil {
					expanded = map[string][]ptok{}
				}
				expanded[bt.Text] = x
			}
			// The budget counts what substitution copies, not only what
			// expansions return: a body that uses an argument twice, nested,
			// doubles at every level before any expansion ends.
			if p.overBudget(inv, len(out)+len(x)) {
				return nil, start
			}
			out = append(out, x...)
			continue
		}
		out = append(out, p.fromBody(bt, m, i, hs, inv, origin))
	}
	if p.overBudget(inv, len(out)) {
		return nil, start
	}
	// Tokens mostly share a few hide sets (the body's, each argument's):
	// their unions are made once each.
	var lastIn, lastOut *hideSet
	for i := range out {
		in := out[i].hs
		if in != lastIn || lastOut == nil {
			lastIn, lastOut = in, p.hides.union(in, hs)
		}
		out[i].hs = lastOut
	}
	return out, start
}

// fromBody makes a token of the macro body stand at the invocation, so that
// diagnostics point at the text the user wrote.
// fromBody makes t, produced by body token i of m, a token of the
// expansion at inv.
func (p *Preprocessor) fromBody(t lex.Token, m *macro, i int, hs *hideSet, inv ptok, origin *lex.MacroOrigin) ptok {
	t.Pos = inv.Pos
	t.Pos.Sub = p.nextSub(inv.Pos)
	t.BOL = false
	if origin != nil {
		t.Macro = origin
	} else {
		t.Macro = m.origin(i)
	}
	return ptok{Token: t, hs: hs}
}

// nextSub is the next number of a token made at the invocation at pos
// (lex.Pos.Sub): tokens of expansions inside expansions stand at the
// outermost invocation and count on from its.
func (p *Preprocessor) nextSub(pos lex.Pos) int32 {
	if p.subs == nil {
		p.subs = map[siteKey]int32{}
	}
	k := siteKey{pos.File, pos.Offset}
	p.subs[k]++
	return p.subs[k]
}

// expandArg fully expands a macro argument on its own. The expansion is
// appended to into (which may be nil) and made reports true, unless
// nothing in a expands: a is then its own expansion, and is returned.
func (p *Preprocessor) expandArg(a, into []ptok) (x []ptok, made bool) {
	if len(a) == 0 || !p.expandable(a) {
		return a, false // read, never written
	}
	saved := p.pushed
	savedFiles := p.files
	// The argument is read from a stack of its own, above the one saved
	// (whose spans it leaves as they are), in the same array.
	p.pushed = saved[len(saved):]
	p.files = nil
	p.unread(a)
	out := into
	for {
		t, ok := p.next()
		if !ok {
			break
		}
		out = append(out, t)
	}
	p.pushed = saved
	p.files = savedFiles
	return out, true
}

// expandable reports whether reading a through next would expand a macro,
// looking its names up as next would (a header being recorded observes
// them).
func (p *Preprocessor) expandable(a []ptok) bool {
	if p.limitHit {
		return false
	}
	for _, t := range a {
		if t.Kind != lex.KIdent || t.done {
			continue
		}
		if m := p.lookup(t.Text); m != nil && !p.hides.has(t.hs, t.Text) {
			return true
		}
	}
	return false
}

// grownBy is scratch after expandArg appended x to its end: x is in its
// array, unless x outgrew it (then the next expansions go after x, in
// x's array; those before stay where they are in the old one).
func grownBy(scratch, x []ptok) []ptok {
	if cap(x) > cap(scratch)-len(scratch) {
		return x
	}
	return scratch[:len(scratch)+len(x)]
}

// stringQuoter escapes a token's spelling inside a # string; made once,
// not per token (building it was a sixth of a macro-heavy file's memory).
var stringQuoter = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

func stringize(a []ptok, pos lex.Pos) lex.Token {
	var b strings.Builder
	b.WriteByte('"')
	for i, t := range a {
		if i > 0 && t.Space {
			b.WriteByte(' ')
		}
		b.WriteString(stringQuoter.Replace(t.Text))
	}
	b.WriteByte('"')
	return lex.Token{Kind: lex.KString, Text: b.String(), Pos: pos}
}

func pasteTokens(a, b lex.Token) lex.Token {
	text := a.Text + b.Text
	var notes lex.Notes
	ts := lex.Scan(a.Pos.File, []byte(text), &notes)
	t := a
	t.Text = text
	if len(ts) == 1 {
		t.Kind = ts[0].Kind
	}
	return t
}

// ---- directives ----

// directiveLine reads the directive that starts at f's next token (the
// '#'), returning the '#' and the tokens after it on its line.
func directiveLine(f *fileFrame) (lex.Token, []lex.Token) {
	hash := f.take()
	var line []lex.Token
	for f.more && !f.next.BOL {
		line = append(line, f.take())
	}
	return hash, line
}

func (p *Preprocessor) directive(f *fileFrame) {
	hash, line := directiveLine(f)
	if len(line) == 0 {
		return // null directive
	}
	name, rest := line[0].Text, line[1:]
	switch name {
	case "if", "ifdef", "ifndef":
		parent := p.active()
		v := false
		if parent {
			switch name {
			case "ifdef", "ifndef":
				v = len(rest) > 0 && p.lookup(rest[0].Text) != nil
				if name == "ifndef" {
					v = !v
				}
			default:
				v = p.evalCond(rest, line[0].Pos)
			}
		}
		p.conds = append(p.conds, cond{active: parent && v, taken: v, parentActive: parent, pos: hash.Pos, text: "#" + name + " " + joinTokens(rest)})
		return
	case "elif", "else", "endif":
		p.touchCond()
		if len(p.conds) == 0 {
			p.out.Notes.AddAbout(lex.NoteWithoutIf, name, hash.Pos, "#%s without #if", name)
			return
		}
		c := &p.conds[len(p.conds)-1]
		switch name {
		case "endif":
			p.conds = p.conds[:len(p.conds)-1]
		case "else":
			if c.sawElse {
				p.out.Notes.AddKind(lex.NoteElseAfterElse, hash.Pos, "#else after #else")
			}
			c.sawElse = true
			c.active = c.parentActive && !c.taken
			c.taken = true
			c.text = "#else of " + c.text
		case "elif":
			if c.taken || !c.parentActive {
				c.active = false
				return
			}
			v := p.evalCond(rest, line[0].Pos)
			c.active, c.taken = v, v
			c.text = "#elif " + joinTokens(rest)
		}
		return
	}
	if !p.active() {
		// Not a name defined already, nor one an #ifndef leaves out: a
		// header read twice skips its whole body under its include
		// guard, and no -D is missing there.
		if c := p.conds[len(p.conds)-1]; name == "define" && len(rest) > 0 && c.parentActive &&
			!strings.HasPrefix(c.text, "#ifndef") && p.lookup(rest[0].Text) == nil {
			p.out.Hidden = append(p.out.Hidden, lex.HiddenDefine{Name: rest[0].Text, Pos: rest[0].Pos, Cond: c.text})
		}
		return
	}
	switch name {
	case "define":
		p.define(rest, line[0].Pos)
	case "undef":
		if len(rest) > 0 {
			p.setMacro(rest[0].Text, nil)
		}
	case "include":
		p.include(f, rest, line[0].Pos)
	case "pragma":
		if len(rest) > 0 && rest[0].Text == "once" {
			p.setOnce(f.path)
		}
		if len(rest) > 0 && rest[0].Text == "unroll" {
			p.unroll = p.unrollOf(rest[1:])
		}
	case "error":
		p.out.Notes.AddKind(lex.NoteErrorDirective, hash.Pos, "#error %s", joinTokens(rest))
	}
}

// unrollOf reads the count of a #pragma unroll: none, a number, or an
// object-like macro that is one number (#pragma unroll UNROLL_N).
func (p *Preprocessor) unrollOf(args []lex.Token) lex.Unroll {
	if len(args) == 0 {
		return lex.UnrollFull
	}
	if len(args) == 1 && args[0].Kind == lex.KIdent {
		if m := p.lookup(args[0].Text); m != nil && !m.funcLike && len(m.body) == 1 {
			args = m.body
		}
	}
	if len(args) != 1 || args[0].Kind != lex.KNumber {
		return lex.UnrollOther
	}
	n, err := strconv.ParseInt(strings.TrimRight(args[0].Text, "uUlL"), 0, 64)
	if err != nil || n <= 0 {
		return lex.UnrollOther
	}
	return lex.UnrollCount(n)
}

func joinTokens(ts []lex.Token) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 && t.Space {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

func (p *Preprocessor) define(rest []lex.Token, pos lex.Pos) {
	if len(rest) == 0 || rest[0].Kind != lex.KIdent {
		p.out.Notes.AddKind(lex.NoteDefineWithoutName, pos, "#define needs a macro name")
		return
	}
	m := &macro{name: rest[0].Text}
	body := rest[1:]
	if len(body) > 0 && body[0].Text == "(" && !body[0].Space {
		m.funcLike = true
		i := 1
		for ; i < len(body) && body[i].Text != ")"; i++ {
			switch t := body[i]; {
			case t.Text == ",":
			case t.Text == "...":
				m.variadic = true
			case t.Kind == lex.KIdent:
				m.params = append(m.params, t.Text)
			default:
				p.out.Notes.AddKind(lex.NoteBadMacroParam, t.Pos, "unexpected %q in macro parameters", t.Text)
			}
		}
		if i >= len(body) {
			p.out.Notes.AddKind(lex.NoteUnterminatedMacroParams, pos, "unterminated macro parameter list")
			return
		}
		body = body[i+1:]
	}
	m.body = body
	p.setMacro(m.name, m)
}

func (p *Preprocessor) include(f *fileFrame, rest []lex.Token, pos lex.Pos) {
	if len(rest) == 0 {
		return
	}
	name, angled, ok := includeName(rest)
	if !ok {
		return // a computed include
	}
	path, src, err := p.findInclude(filepath.Dir(f.path), name, angled)
	var refused *RefusedError
	switch {
	case errors.As(err, &refused):
		kind := lex.NoteIncludeRefused
		if refused.OutsideRoot {
			kind = lex.NoteIncludeOutsideRoot
		}
		p.out.Notes.AddKind(kind, rest[0].Pos, "#include %q not read: %s", name, refused.Reason)
		return
	case err != nil && !angled:
		p.out.Notes.AddAbout(lex.NoteIncludeNotFound, name, rest[0].Pos, "cannot open include file %q", name)
		return
	case err != nil:
		// <name> the project does not have (projects build with -I.:
		// Rodinia's #include <srad_kernel.cu>): a system header, skipped.
		return
	}
	if p.isOnce(path) {
		return
	}
	if len(p.files) >= maxIncludeDepth {
		p.noteTooDeep(rest[0].Pos, path)
		return
	}
	if !p.spend(rest[0].Pos, len(src)) {
		return
	}
	p.noteInclude(path, src)
	p.enterHeader(path, src)
}

// sizeText writes a byte count the way a budget is set: in MiB when whole.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// includeName spells the name of #include "name" or #include <name>.
func includeName(rest []lex.Token) (name string, angled, ok bool) {
	switch {
	case rest[0].Kind == lex.KString:
		return strings.Trim(rest[0].Text, `"`), false, true
	case rest[0].Text == "<":
		name, ok := angleName(rest)
		return name, true, ok
	}
	return "", false, false
}

// noteTooDeep notes an include past the depth limit once per directive: a
// cycle reaches the same directive again and again.
func (p *Preprocessor) noteTooDeep(at lex.Pos, path string) {
	p.invalidateAll() // the note depends on the includer's depth
	if p.budget.deepNoted[at] {
		return
	}
	if p.budget.deepNoted == nil {
		p.budget.deepNoted = map[lex.Pos]bool{}
	}
	p.budget.deepNoted[at] = true
	p.out.Notes.AddKind(lex.NoteIncludeDepth, at, "#include nested more than %d deep (an include cycle?); %q skipped", maxIncludeDepth, filepath.Base(path))
}

// spend charges one include of n bytes to the unit's budget; it reports
// false, with one note for the unit, when the budget cannot pay.
func (p *Preprocessor) spend(at lex.Pos, n int) bool {
	if p.budget.includesOut {
		return false
	}
	b, lim := &p.budget, p.cfg.Limits
	b.includes++
	b.bytes += int64(n)
	switch {
	case b.includes > lim.Includes:
		p.out.Notes.AddKind(lex.NoteIncludeCount, at, "this file expands more than %d includes; no more are read", lim.Includes)
	case b.bytes > lim.IncludedBytes:
		p.out.Notes.AddKind(lex.NoteIncludeBytes, at, "this file includes more than %s; no more is read", sizeText(lim.IncludedBytes))
	default:
		return true
	}
	b.includesOut = true
	return false
}

// angleName spells the file name of #include <a/b.h> from its tokens.
func angleName(rest []lex.Token) (string, bool) {
	var b strings.Builder
	for _, t := range rest[1:] {
		if t.Text == ">" {
			return b.String(), b.Len() > 0
		}
		b.WriteString(t.Text)
	}
	return "", false
}

// findInclude reads name from the first of dir and the include folders
// that has it, and then, for #include "..." only, of dir's ancestors up
// to the root (see ancestorDirs). A refused file ends the search, as the
// compiler would stop at the first file found: reading another one
// instead would analyze code the build does not use.
func (p *Preprocessor) findInclude(dir, name string, angled bool) (string, []byte, error) {
	dirs := append([]string{dir}, p.cfg.IncludeDirs...)
	path, src, err := p.readFirst(dirs, name)
	if err == nil || angled || isRefused(err) {
		return path, src, err
	}
	if up := p.ancestorDirs(dir); len(up) > 0 {
		return p.readFirst(up, name)
	}
	return path, src, err
}

func isRefused(err error) bool {
	var refused *RefusedError
	return errors.As(err, &refused)
}

// ancestorDirs are the folders above dir, nearest first, up to and
// including the root, or none when dir is not below the root. Projects
// build with -I of such folders (oneflow includes
// "oneflow/core/ep/cuda/cuda_stream.h" from oneflow/user/kernels/, with
// -I of its root; pytorch3d "utils/float_math.cuh" from csrc/x/, with -I
// csrc), as clangd guesses for a file without a compile command. The
// paths keep dir's spelling (relative stays relative); the walk stops
// at the root, so no include reads outside it this way.
func (p *Preprocessor) ancestorDirs(dir string) []string {
	if p.cfg.Root == "" {
		return nil
	}
	root, err1 := filepath.Abs(p.cfg.Root)
	abs, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil || !isBelow(root, abs) {
		return nil
	}
	var up []string
	for abs != root {
		abs, dir = filepath.Dir(abs), filepath.Dir(dir)
		up = append(up, dir)
	}
	return up
}

// isBelow reports whether path, absolute and clean, is dir or inside it.
func isBelow(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// readFirst reads name from the first of dirs that has it; a refused
// file ends the search.
func (p *Preprocessor) readFirst(dirs []string, name string) (string, []byte, error) {
	var err error
	for _, d := range dirs {
		path := filepath.Join(d, name)
		var src []byte
		if src, err = p.cfg.ReadFile(path); err == nil {
			return filepath.Clean(path), src, nil
		}
		var refused *RefusedError
		if errors.As(err, &refused) {
			return "", nil, err
		}
	}
	return "", nil, err
}

// evalCond evaluates a #if expression: defined() first, then macro
// expansion, then integer arithmetic where unknown names are 0.
func (p *Preprocessor) evalCond(ts []lex.Token, pos lex.Pos) bool {
	var pre []ptok
	for i := 0; i < len(ts); i++ {
		if ts[i].Text == "defined" {
			j := i + 1
			paren := j < len(ts) && ts[j].Text == "("
			if paren {
				j++
			}
			v := "0"
			if j < len(ts) && p.lookup(ts[j].Text) != nil {
				v = "1"
			}
			if paren {
				j++
			}
			pre = append(pre, ptok{Token: lex.Token{Kind: lex.KNumber, Text: v, Pos: ts[i].Pos}})
			i = j // at the name, or at ')' when parenthesised; the loop steps past it
			continue
		}
		pre = append(pre, ptok{Token: ts[i]})
	}
	expanded, _ := p.expandArg(pre, nil)
	toks := make([]lex.Token, len(expanded))
	for i, t := range expanded {
		toks[i] = t.Token
	}
	e := condEval{toks: toks}
	v, ok := e.parse(0)
	if !ok || e.i < len(e.toks) {
		p.out.Notes.AddKind(lex.NoteIfNotEvaluable, pos, "cannot evaluate #if expression %q; taken as false", joinTokens(ts))
		return false
	}
	return v != 0
}

// condEval evaluates preprocessor integer expressions by precedence climbing.
type condEval struct {
	toks []lex.Token
	i    int
}

var condPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

func (e *condEval) parse(minPrec int) (int64, bool) {
	lhs, ok := e.unary()
	if !ok {
		return 0, false
	}
	for e.i < len(e.toks) {
		op := e.toks[e.i].Text
		if op == "?" && minPrec == 0 {
			e.i++
			a, ok1 := e.parse(0)
			if e.i >= len(e.toks) || e.toks[e.i].Text != ":" {
				return 0, false
			}
			e.i++
			b, ok2 := e.parse(0)
			if !ok1 || !ok2 {
				return 0, false
			}
			if lhs != 0 {
				lhs = a
			} else {
				lhs = b
			}
			continue
		}
		prec, isOp := condPrec[op]
		if !isOp || prec <= minPrec {
			break
		}
		e.i++
		rhs, ok := e.parse(prec)
		if !ok {
			return 0, false
		}
		lhs, ok = applyCondOp(op, lhs, rhs)
		if !ok {
			return 0, false
		}
	}
	return lhs, true
}

func applyCondOp(op string, a, b int64) (int64, bool) {
	bool2int := func(c bool) int64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case "||":
		return bool2int(a != 0 || b != 0), true
	case "&&":
		return bool2int(a != 0 && b != 0), true
	case "|":
		return a | b, true
	case "^":
		return a ^ b, true
	case "&":
		return a & b, true
	case "==":
		return bool2int(a == b), true
	case "!=":
		return bool2int(a != b), true
	case "<":
		return bool2int(a < b), true
	case ">":
		return bool2int(a > b), true
	case "<=":
		return bool2int(a <= b), true
	case ">=":
		return bool2int(a >= b), true
	case "<<":
		return a << uint(b&63), true
	case ">>":
		return a >> uint(b&63), true
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "/", "%":
		if b == 0 {
			return 0, false
		}
		if op == "/" {
			return a / b, true
		}
		return a % b, true
	}
	return 0, false
}

func (e *condEval) unary() (int64, bool) {
	if e.i >= len(e.toks) {
		return 0, false
	}
	t := e.toks[e.i]
	e.i++
	switch t.Text {
	case "!":
		v, ok := e.unary()
		if v == 0 {
			return 1, ok
		}
		return 0, ok
	case "-":
		v, ok := e.unary()
		return -v, ok
	case "+":
		return e.unary()
	case "~":
		v, ok := e.unary()
		return ^v, ok
	case "(":
		v, ok := e.parse(0)
		if !ok || e.i >= len(e.toks) || e.toks[e.i].Text != ")" {
			return 0, false
		}
		e.i++
		return v, true
	}
	switch t.Kind {
	case lex.KNumber:
		v, ok := lex.ParseInt(t.Text)
		return v, ok
	case lex.KChar:
		if len(t.Text) >= 3 {
			return int64(t.Text[1]), true
		}
	case lex.KIdent:
		if t.Text == "true" {
			return 1, true
		}
		return 0, true // undefined names are 0
	}
	return 0, false
}
