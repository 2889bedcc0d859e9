package parser

import (
	"encoding/binary"
	"github.com/cudalint/cudalint/parser/cpp"
	"github.com/cudalint/cudalint/parser/lex"
	"hash/maphash"
	"sync"
)

// itemKey is 128 bits of hash: two 64-bit maphash sums under different
// seeds (the cache lives for one run, so per-process seeds are fine).
type itemKey [2]uint64

// keyHasher hashes items into keys; one per Parse.
type keyHasher struct {
	h   [2]maphash.Hash
	buf []byte
}

func newKeyHasher(c *ItemCache) *keyHasher {
	k := &keyHasher{}
	k.h[0].SetSeed(c.seeds[0])
	k.h[1].SetSeed(c.seeds[1])
	return k
}

func (k *keyHasher) write(b []byte) {
	k.h[0].Write(b)
	k.h[1].Write(b)
}

// ItemCache shares parsed top-level items between the files of one run.
// A header included by many files yields the same tokens in each of them
// (when the macros it sees are the same), so its items are parsed once:
// a project of 150 template-instance files that each include the same
// large headers parses those headers once, not 150 times.
//
// An item is keyed by everything its parse depends on: the namespace it
// stands in, each token's kind, spelling, position (offset, line and
// column) and macro origin, and
// for each identifier whether it names a type at that point. Items of the
// file being parsed itself are not cached (no other file holds them)
// unless Own is set.
type ItemCache struct {
	// Own caches the items of the file being parsed too: an editor parses
	// one file again after each edit, and its unchanged items (those
	// before the edit, whose positions are unchanged) are then the very
	// items of the parse before, which an analysis keyed by them reuses.
	Own   bool
	seeds [2]maphash.Seed
	mu    sync.Mutex
	items map[itemKey]*parsedItem
	// pending are the keys whose parse is under way (claim).
	pending map[itemKey]chan struct{}
	// headers are the item lists of replayed headers (headeritems.go).
	headers map[cpp.Header]*headerMemo
	// spare are arrays that the run's files read their items into, lent
	// to the next files (takeItemBuf). Not a sync.Pool: every garbage
	// collection empties one, and ggml's files then grew their arrays
	// again from nothing, to 100,000 tokens, copying 58 MB a run.
	spare [][]Token
}

// maxSpareBufs bounds the arrays a cache keeps: about one per file
// loading at once.
const maxSpareBufs = 8

func (c *ItemCache) takeSpare() []Token {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.spare)
	if n == 0 {
		return nil
	}
	b := c.spare[n-1]
	c.spare[n-1] = nil
	c.spare = c.spare[:n-1]
	return b
}

func (c *ItemCache) giveSpare(b []Token) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.spare) < maxSpareBufs && cap(b) > 0 {
		c.spare = append(c.spare, b)
	}
}

// NewItemCache returns an empty cache, safe for concurrent use.
func NewItemCache() *ItemCache {
	return &ItemCache{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, items: map[itemKey]*parsedItem{}, pending: map[itemKey]chan struct{}{}, headers: map[cpp.Header]*headerMemo{}}
}

// claim returns the item cached for k or, when there is none, tells the
// caller to parse it (mine), and then to put it or abandon it. A parse
// of k under way in another file is waited for: every file of a run gets
// the one item of a key, whichever loads first. The analysis knows a
// function by its identity (a host function template and the
// instantiations its callers make of it); two files that parsed one
// header at once used to get two copies, and which copy a launch named
// then rested on timing (apex's softmax kernels lost their instances in
// one run of three).
func (c *ItemCache) claim(k itemKey) (it *parsedItem, mine bool) {
	for {
		c.mu.Lock()
		if it := c.items[k]; it != nil {
			c.mu.Unlock()
			return it, false
		}
		wait, busy := c.pending[k]
		if !busy {
			c.pending[k] = make(chan struct{})
			c.mu.Unlock()
			return nil, true
		}
		c.mu.Unlock()
		<-wait
	}
}

// put caches the item of a claimed key, releasing those who wait for it.
func (c *ItemCache) put(k itemKey, it *parsedItem) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = it
	c.release(k)
}

// abandon gives a claim up (its parse panicked): a file waiting for it
// parses the item itself.
func (c *ItemCache) abandon(k itemKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.release(k)
}

func (c *ItemCache) release(k itemKey) {
	if wait, ok := c.pending[k]; ok {
		close(wait)
		delete(c.pending, k)
	}
}

// parsedItem is what parsing an item added to its file and unit.
type parsedItem struct {
	funcs    []*Func
	structs  []*Struct
	typedefs []*Typedef
	globals  []*Decl
	notes    Notes
	insts    []*Ident
	usings   []*Using
	types    []string // names that became type names
}

// itemKey hashes what the parse of toks in namespace ns depends on.
func (u *unit) itemKey(k *keyHasher, toks []Token, ns string) itemKey {
	k.h[0].Reset()
	k.h[1].Reset()
	buf := k.buf[:0]
	str := func(s string) {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	str(ns)
	file := "\x00" // no file name: the first token writes its own
	for _, t := range toks {
		buf = append(buf, byte(t.Kind))
		if t.Kind == lex.KIdent && u.types[t.Text] {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
		str(t.Text)
		if t.Pos.File != file { // tokens mostly share their neighbour's file
			file = t.Pos.File
			buf = append(buf, 1)
			str(file)
		} else {
			buf = append(buf, 0)
		}
		// The line and column too: the same offset is another line after
		// a blank made a line break before it.
		buf = binary.AppendUvarint(buf, uint64(t.Pos.Offset))
		buf = binary.AppendUvarint(buf, uint64(t.Pos.Line))
		buf = binary.AppendUvarint(buf, uint64(t.Pos.Col))
		if m := t.Macro; m != nil {
			str(m.Name)
			str(m.Def.File)
			buf = binary.AppendUvarint(buf, uint64(m.Def.Offset)+1)
		} else {
			buf = append(buf, 0)
		}
		if len(buf) > 4096 {
			k.write(buf)
			buf = buf[:0]
		}
	}
	k.write(buf)
	k.buf = buf
	return itemKey{k.h[0].Sum64(), k.h[1].Sum64()}
}

// mark is where a file's lists stood before an item was parsed.
type mark struct{ funcs, structs, typedefs, globals, notes, insts, usings int }

func (u *unit) mark() mark {
	f := u.file
	return mark{len(f.Funcs), len(f.Structs), len(f.Typedefs), len(f.Globals), len(f.Notes), len(f.Instantiations), len(f.Usings)}
}

// since returns what was parsed after m, and the identifiers of toks that
// were not type names before (wasType) and are now.
func (u *unit) since(m mark, toks []Token, wasType map[string]bool) *parsedItem {
	f := u.file
	it := &parsedItem{
		funcs:    append([]*Func(nil), f.Funcs[m.funcs:]...),
		structs:  append([]*Struct(nil), f.Structs[m.structs:]...),
		typedefs: append([]*Typedef(nil), f.Typedefs[m.typedefs:]...),
		globals:  append([]*Decl(nil), f.Globals[m.globals:]...),
		notes:    append(Notes(nil), f.Notes[m.notes:]...),
		insts:    append([]*Ident(nil), f.Instantiations[m.insts:]...),
		usings:   append([]*Using(nil), f.Usings[m.usings:]...),
	}
	for _, t := range toks {
		if t.Kind == lex.KIdent && u.types[t.Text] && !wasType[t.Text] {
			it.types = append(it.types, t.Text)
			wasType[t.Text] = true
		}
	}
	return it
}

// replay adds a cached item to the file being parsed.
func (u *unit) replay(it *parsedItem) {
	f := u.file
	f.Funcs = append(f.Funcs, it.funcs...)
	f.Structs = append(f.Structs, it.structs...)
	f.Typedefs = append(f.Typedefs, it.typedefs...)
	f.Globals = append(f.Globals, it.globals...)
	f.Notes = append(f.Notes, it.notes...)
	f.Instantiations = append(f.Instantiations, it.insts...)
	f.Usings = append(f.Usings, it.usings...)
	for _, name := range it.types {
		u.types[name] = true
	}
}

// parseCached parses an item of an included file through the cache, and
// returns what it added.
func (u *unit) parseCached(c *ItemCache, kh *keyHasher, toks []Token, ns string) *parsedItem {
	k := u.itemKey(kh, toks, ns)
	it, mine := c.claim(k)
	if !mine {
		u.replay(it)
		return it
	}
	put := false
	defer func() {
		if !put {
			c.abandon(k)
		}
	}()
	wasType := map[string]bool{}
	for _, t := range toks {
		if t.Kind == lex.KIdent && u.types[t.Text] {
			wasType[t.Text] = true
		}
	}
	m := u.mark()
	u.parseItems(toks, ns)
	it = u.since(m, toks, wasType)
	c.put(k, it)
	put = true
	return it
}
