package cpp

import (
	"bytes"
	"path/filepath"
	"slices"

	"sync"
	"sync/atomic"

	"github.com/cudalint/cudalint/parser/lex"
)

// HeaderCache memoizes the preprocessing of included files between the
// files of a run. Each file of a template-instance project includes the
// same large headers: preprocessed once per file, they cost ggml 42 MB of
// preprocessing for 1.9 MB of source. With the cache a header is scanned
// and expanded once per distinct macro state it can see, and every later
// include replays what that expansion produced.
//
// A recorded expansion is keyed by the header's path and contents and by
// its observed set: every macro name (and #pragma once file) it looked
// up before defining it itself, with the definition it had at entry. A
// later include reuses the recording only when each of those names has
// the same definition now, so a different incoming macro state is never
// confused with this one; names the header never looked at do not matter.
// Replaying then performs the header's net effect: its tokens, notes,
// cudalint: comments, includes, budget spending, and the final definitions
// of the macros it defined or undefined.
//
// A cache serves one Config (the same ReadFile and IncludeDirs): which
// files nested includes find is not part of the key.
type HeaderCache struct {
	mu      sync.Mutex
	entries map[string][]*headerEntry
	replays atomic.Int64 // for tests and benchmarks
}

// maxVariants bounds the recordings kept per header: one that is included
// under ever new macro states is preprocessed each time, as without a cache.
const maxVariants = 8

// NewHeaderCache returns an empty cache, safe for concurrent use.
func NewHeaderCache() *HeaderCache {
	return &HeaderCache{entries: map[string][]*headerEntry{}}
}

func (c *HeaderCache) variants(path string) []*headerEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[path]
}

// Forget drops every recording that read path: its own, and those of
// the headers that include it, directly or through others (their
// recordings hold its tokens, and a replay checks the text of the header
// replayed, not of the headers it includes). The recordings of the other
// headers stay: an editor whose open header changed re-reads that header
// and what includes it, not every header of the program. Paths are
// compared cleaned and absolute, however an include spelled them.
func (c *HeaderCache) Forget(path string) {
	path = absClean(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	for p, vs := range c.entries {
		if absClean(p) == path {
			delete(c.entries, p)
			continue
		}
		kept := slices.DeleteFunc(vs, func(e *headerEntry) bool {
			return slices.ContainsFunc(e.events, func(ev includeEvent) bool { return absClean(ev.path) == path })
		})
		if len(kept) == 0 {
			delete(c.entries, p)
		} else {
			c.entries[p] = kept
		}
	}
}

// absClean is path absolute and clean, or clean where it cannot be made
// absolute.
func absClean(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// put keeps e unless the cache holds a recording of the same key: files
// loading in parallel can both record a header before either keeps it,
// and the second copy would be memory that no replay ever reads.
func (c *HeaderCache) put(e *headerEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	vs := c.entries[e.path]
	for _, v := range vs {
		if v.sameKey(e) {
			return
		}
	}
	if len(vs) < maxVariants {
		c.entries[e.path] = append(vs, e)
	}
}

// sameKey reports whether e and o recorded the same contents under the
// same observed definitions.
func (e *headerEntry) sameKey(o *headerEntry) bool {
	if len(e.observed) != len(o.observed) || !bytes.Equal(e.src, o.src) {
		return false
	}
	for name, m := range e.observed {
		om, ok := o.observed[name]
		if !ok || !sameMacro(m, om) {
			return false
		}
	}
	return true
}

// onceKey is the name under which a #pragma once file is observed and
// written: no macro name starts with a NUL byte.
func onceKey(path string) string { return "\x00" + path }

// onceMark stands for "this file was marked #pragma once" in the maps of
// names, whose values are otherwise macro definitions.
var onceMark = &macro{name: "\x00once"}

// nameState is what a recording knows about one name.
type nameState struct {
	observed bool   // looked up before the header wrote it
	entry    *macro // its definition then (nil: undefined)
	written  bool   // defined, undefined or marked once by the header
}

// includeEvent is one file an include brought in, for Includes and Sources.
type includeEvent struct {
	path string
	src  []byte
}

// recording follows the first expansion of a header in a file.
type recording struct {
	path       string
	src        []byte
	frame      *fileFrame
	names      map[string]nameState
	invalid    bool // the expansion depended on more than the key holds
	entryFiles int
	entryConds int
	maxFiles   int // the deepest the file stack went
	toks       int // where the header's tokens start in the log
	events     int
	notes      int
	directives int
	hidden     int
	budget     budget
	produced   int
}

// headerEntry is a recorded expansion: its key and its net effect.
type headerEntry struct {
	path       string
	src        []byte
	observed   map[string]*macro // definitions at entry of the names observed
	writes     map[string]*macro // final definitions of the names written
	toks       [][]lex.Token     // in segments, shared with the entries of nested headers
	ntoks      int
	events     []includeEvent
	notes      lex.Notes
	directives []lex.Directive
	hidden     []lex.HiddenDefine
	includes   int
	bytes      int64
	produced   int
	depth      int // frames the header adds at its deepest, itself included
}

// lookup returns the definition of name, noting it as observed by every
// recording that has not seen the name yet. A recording that has seen it
// is nested in those outside it, which have seen it too: the walk stops.
func (p *Preprocessor) lookup(name string) *macro {
	m := p.macros[name]
	for i := len(p.recs) - 1; i >= 0; i-- {
		r := p.recs[i]
		if _, ok := r.names[name]; ok {
			break
		}
		r.names[name] = nameState{observed: true, entry: m}
	}
	return m
}

// setMacro defines name as m (undefines it when m is nil), noting the
// write in every recording.
func (p *Preprocessor) setMacro(name string, m *macro) {
	if m == nil {
		delete(p.macros, name)
	} else {
		p.macros[name] = m
	}
	p.noteWrite(name)
}

func (p *Preprocessor) noteWrite(name string) {
	for i := len(p.recs) - 1; i >= 0; i-- {
		r := p.recs[i]
		s := r.names[name]
		if s.written {
			break
		}
		s.written = true
		r.names[name] = s
	}
}

// isOnce reports whether path was marked #pragma once, as an observation.
func (p *Preprocessor) isOnce(path string) bool {
	if len(p.recs) == 0 {
		return p.once[path]
	}
	return p.lookupOnce(path)
}

func (p *Preprocessor) lookupOnce(path string) bool {
	v := p.once[path]
	var m *macro
	if v {
		m = onceMark
	}
	key := onceKey(path)
	for i := len(p.recs) - 1; i >= 0; i-- {
		r := p.recs[i]
		if _, ok := r.names[key]; ok {
			break
		}
		r.names[key] = nameState{observed: true, entry: m}
	}
	return v
}

func (p *Preprocessor) setOnce(path string) {
	p.once[path] = true
	if len(p.recs) > 0 {
		p.noteWrite(onceKey(path))
	}
}

// clean reports whether the preprocessor stands between tokens: no macro
// invocation is being read and nothing is pushed back. Only there does a
// header's output not mix with its includer's.
func (p *Preprocessor) clean() bool {
	return p.expanding == 0 && len(p.pushed) == 0 && !p.limitHit
}

// enterHeader pushes the included file path: replayed from the cache when
// a recording matches, recorded when none does.
func (p *Preprocessor) enterHeader(path string, src []byte) {
	c := p.cfg.Headers
	if c == nil || !p.clean() {
		p.pushFile(p.openFile(path, src))
		return
	}
	vs := c.variants(path)
	for _, e := range vs {
		if p.matches(e, src) {
			c.replays.Add(1)
			p.replay(e)
			return
		}
	}
	var r *recording
	if len(vs) < maxVariants {
		r = p.startRecording(path, src)
	}
	// Opening scans the first token: its notes and comments belong to
	// the recording.
	f := p.openFile(path, src)
	if r != nil {
		r.frame = f
	}
	p.pushFile(f)
}

func (p *Preprocessor) pushFile(f *fileFrame) {
	p.files = append(p.files, f)
	for _, r := range p.recs {
		r.maxFiles = max(r.maxFiles, len(p.files))
	}
}

func (p *Preprocessor) startRecording(path string, src []byte) *recording {
	p.sealLog()
	r := &recording{
		path: path, src: src, names: map[string]nameState{},
		entryFiles: len(p.files), entryConds: len(p.conds), maxFiles: len(p.files),
		toks: len(p.logSegs), events: len(p.logEvents),
		notes: len(p.out.Notes), directives: len(p.out.Directives), hidden: len(p.out.Hidden),
		budget: p.budget, produced: p.produced,
	}
	p.recs = append(p.recs, r)
	return r
}

// touchCond is called before #elif, #else or #endif acts on the innermost
// conditional: one opened before a header was entered makes the header's
// effect depend on its includer.
func (p *Preprocessor) touchCond() {
	for _, r := range p.recs {
		if r.entryConds >= len(p.conds) {
			r.invalid = true
		}
	}
}

// invalidateAll marks every recording as not reusable.
func (p *Preprocessor) invalidateAll() {
	for _, r := range p.recs {
		r.invalid = true
	}
}

// popFile drops the finished frame f, ending its recording.
func (p *Preprocessor) popFile(f *fileFrame) {
	p.files = p.files[:len(p.files)-1]
	n := len(p.recs)
	if n == 0 || p.recs[n-1].frame != f {
		return
	}
	r := p.recs[n-1]
	p.recs = p.recs[:n-1]
	p.sealLog()
	if p.reusable(r) {
		p.cfg.Headers.put(p.entryOf(r))
	}
	if len(p.recs) == 0 {
		p.logSegs, p.logEvents = p.logSegs[:0], p.logEvents[:0]
	}
}

// A full log segment is followed by a new one rather than grown, so a
// header's log is never copied (growing one segment by doubling was a
// third of ggml's preprocessing time). Segments start small, as a
// recording sealed after a few tokens is common (small headers, nested
// includes), and double up to maxLogSegment, so that the room a sealed
// segment leaves unused stays under half of what it holds.
const (
	minLogSegment = 64
	maxLogSegment = 4096
)

// logToken appends a token the file produced to the log of the open
// recordings.
func (p *Preprocessor) logToken(t lex.Token) {
	n := len(p.logSegs)
	if n == 0 || p.logSealed || len(p.logSegs[n-1]) == cap(p.logSegs[n-1]) {
		size := minLogSegment
		if n > 0 && !p.logSealed {
			size = min(2*cap(p.logSegs[n-1]), maxLogSegment)
		}
		p.logSegs = append(p.logSegs, make([]lex.Token, 0, size))
		p.logSealed = false
		n++
	}
	p.logSegs[n-1] = append(p.logSegs[n-1], t)
}

// sealLog ends the log's last segment: entries share segments, so a
// segment is never appended to once a recording starts or ends at it.
func (p *Preprocessor) sealLog() { p.logSealed = true }

// reusable reports whether what r recorded depends on nothing but its key.
func (p *Preprocessor) reusable(r *recording) bool {
	b := p.budget
	return !r.invalid && p.clean() && len(p.conds) == r.entryConds &&
		!b.includesOut && !b.tokensOut
}

func (p *Preprocessor) entryOf(r *recording) *headerEntry {
	e := &headerEntry{
		path: r.path, src: r.src,
		observed:   map[string]*macro{},
		writes:     map[string]*macro{},
		toks:       slices.Clone(p.logSegs[r.toks:]),
		events:     slices.Clone(p.logEvents[r.events:]),
		notes:      slices.Clone(p.out.Notes[r.notes:]),
		directives: slices.Clone(p.out.Directives[r.directives:]),
		hidden:     slices.Clone(p.out.Hidden[r.hidden:]),
		includes:   p.budget.includes - r.budget.includes,
		bytes:      p.budget.bytes - r.budget.bytes,
		produced:   p.produced - r.produced,
		depth:      r.maxFiles - r.entryFiles,
	}
	for _, seg := range e.toks {
		e.ntoks += len(seg)
	}
	for name, s := range r.names {
		if s.observed {
			e.observed[name] = s.entry
		}
		if s.written {
			e.writes[name] = p.current(name)
		}
	}
	return e
}

// current is name's definition now, with onceMark for a #pragma once file.
func (p *Preprocessor) current(name string) *macro {
	if len(name) > 0 && name[0] == 0 {
		if p.once[name[1:]] {
			return onceMark
		}
		return nil
	}
	return p.macros[name]
}

// matches reports whether replaying e here gives what expanding the
// header would: same contents, same observed definitions, and budgets
// that pay for all of it (a budget that ran out mid-header would cut it).
func (p *Preprocessor) matches(e *headerEntry, src []byte) bool {
	b, lim := p.budget, p.cfg.Limits
	switch {
	case !bytes.Equal(e.src, src),
		b.includes+e.includes > lim.Includes,
		b.bytes+e.bytes > lim.IncludedBytes,
		b.tokens+e.ntoks > lim.Tokens,
		p.produced+e.produced > maxExpandedTokens,
		len(p.files)+e.depth > maxIncludeDepth:
		return false
	}
	for name, m := range e.observed {
		if !sameMacro(p.current(name), m) {
			return false
		}
	}
	return true
}

// sameMacro reports whether a and b expand alike, down to the positions
// their tokens carry.
func sameMacro(a, b *macro) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.name == b.name && a.funcLike == b.funcLike && a.variadic == b.variadic &&
		slices.Equal(a.params, b.params) && slices.Equal(a.body, b.body)
}

// replay performs e's effect: observations and writes (so that enclosing
// recordings see them as if the header had been read), includes, notes,
// comments, budgets, and a frame of the finished tokens.
func (p *Preprocessor) replay(e *headerEntry) {
	for name := range e.observed {
		if len(name) > 0 && name[0] == 0 {
			p.lookupOnce(name[1:])
		} else {
			p.lookup(name)
		}
	}
	for _, ev := range e.events {
		p.noteInclude(ev.path, ev.src)
	}
	p.out.Notes = append(p.out.Notes, e.notes...)
	p.out.Directives = append(p.out.Directives, e.directives...)
	p.out.Hidden = append(p.out.Hidden, e.hidden...)
	for name, m := range e.writes {
		if len(name) > 0 && name[0] == 0 {
			p.setOnce(name[1:])
		} else {
			p.setMacro(name, m)
		}
	}
	p.budget.includes += e.includes
	p.budget.bytes += e.bytes
	p.produced += e.produced
	for _, r := range p.recs {
		r.maxFiles = max(r.maxFiles, len(p.files)+e.depth)
	}
	if e.ntoks > 0 {
		if len(p.recs) > 0 {
			p.sealLog()
			p.logSegs = append(p.logSegs, e.toks...)
		}
		if p.offer != nil && p.offer(Header{e}) {
			p.budget.tokens += e.ntoks // what reading them one by one would spend (matches checked it fits)
			return
		}
		p.files = append(p.files, &fileFrame{path: e.path, replay: e.toks})
	}
}

// Header is a recorded header about to be replayed (see OfferReplays).
// Headers compare equal when they are the same recording: the same
// tokens, positions and macro origins.
type Header struct{ e *headerEntry }

// Segments are the header's finished tokens, in order, in segments that
// must not be modified.
func (h Header) Segments() [][]lex.Token { return h.e.toks }

// OfferReplays has take offered each header replayed from the cache,
// before its tokens are read: when take reports true it has consumed
// them itself, and NextToken goes on with what follows the header (the
// header's other effects, macros, notes and includes, are performed
// either way). A parser that has the header's items already parsed
// skips re-reading its tokens one by one (ggml's files each replay the
// same large headers).
func (p *Preprocessor) OfferReplays(take func(Header) bool) { p.offer = take }

// noteInclude records a file read through #include in the output, and in
// the log of the recordings.
func (p *Preprocessor) noteInclude(path string, src []byte) {
	if !p.seen[path] {
		p.seen[path] = true
		p.out.Sources[path] = src
		p.out.Includes = append(p.out.Includes, path)
	}
	if len(p.recs) > 0 {
		p.logEvents = append(p.logEvents, includeEvent{path, src})
	}
}
