package parser

import (
	"slices"
	"sync"

	"github.com/cudalint/cudalint/parser/cpp"
	"github.com/cudalint/cudalint/parser/lex"
)

// A header replayed from the HeaderCache yields the same tokens in every
// file that includes it, and so the same items: the ItemCache already
// parses each item once, but every file still read the header token by
// token, cut it into items and hashed each item to find it in the cache.
// takeHeader does that once per header and context instead, and replays
// the list of items it found.
//
// The items a header's tokens give, and their parses, depend on the
// namespaces open where it is included, on which of its identifiers
// name types there (an item's parse depends on those of its own
// identifiers, and the types the header's items declare follow from the
// ones before), and on the tokens themselves, which a recording fixes.
// Those are the key; the chunker must stand between items with nothing
// read ahead, so that the header's first token starts an item.

// headerParse is what a header's tokens gave in one context.
type headerParse struct {
	items  []*parsedItem // in order, each as the ItemCache holds it
	scopes []string      // the chunker's namespaces after the header
	tail   []Token       // an unfinished last item, which the includer's tokens go on
	files  []string      // the files the items start in
}

// headerMemo holds the parses of one recorded header.
type headerMemo struct {
	once   sync.Once
	idents []string // the header's distinct identifiers, in a fixed order
	mu     sync.Mutex
	parses map[string]*headerParse
}

// maxHeaderParses bounds the contexts kept per header.
const maxHeaderParses = 16

func (c *ItemCache) headerMemo(h cpp.Header) *headerMemo {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.headers[h]
	if m == nil {
		m = &headerMemo{parses: map[string]*headerParse{}}
		c.headers[h] = m
	}
	return m
}

// key is the context of an include of h: the open namespaces and, for
// each identifier of h, whether it names a type.
func (m *headerMemo) key(h cpp.Header, scopes []string, types map[string]bool) string {
	m.once.Do(func() { m.idents = identsOf(h.Segments()) })
	var b []byte
	for _, s := range scopes {
		b = append(b, s...)
		b = append(b, 0)
	}
	b = append(b, 1)
	var bits byte
	for i, id := range m.idents {
		if types[id] {
			bits |= 1 << (i % 8)
		}
		if i%8 == 7 {
			b = append(b, bits)
			bits = 0
		}
	}
	return string(append(b, bits))
}

func identsOf(segs [][]Token) []string {
	seen := map[string]bool{}
	var ids []string
	for _, seg := range segs {
		for _, t := range seg {
			if t.Kind == lex.KIdent && !seen[t.Text] {
				seen[t.Text] = true
				ids = append(ids, t.Text)
			}
		}
	}
	return ids
}

func (m *headerMemo) get(key string) *headerParse {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.parses[key]
}

func (m *headerMemo) put(key string, hp *headerParse) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.parses) < maxHeaderParses {
		m.parses[key] = hp
	}
}

// takeHeader is offered each header the preprocessor replays; it takes
// the header's tokens as items when the chunker c stands between items,
// and reports whether it did.
func (u *unit) takeHeader(c *chunker, ic *ItemCache, kh *keyHasher, h cpp.Header) bool {
	if !c.boundary {
		return false
	}
	m := ic.headerMemo(h)
	key := m.key(h, c.scopes, u.types)
	if hp := m.get(key); hp != nil && (ic.Own || !slices.Contains(hp.files, u.file.Path)) {
		for _, it := range hp.items {
			u.replay(it)
		}
		c.scopes = append(c.scopes[:0], hp.scopes...)
		c.unget(hp.tail...)
		return true
	}
	if hp, whole := u.parseHeader(c, ic, kh, h); whole {
		m.put(key, hp)
	}
	return true
}

// parseHeader cuts h's tokens into items and parses them as Parse would
// have, leaving c as reading them would have; whole is false when an
// item was parsed outside the ItemCache (one of the file's own, which
// another file must not share).
func (u *unit) parseHeader(c *chunker, ic *ItemCache, kh *keyHasher, h cpp.Header) (hp *headerParse, whole bool) {
	// c stands between items: its array is free, and sub reads into it.
	sub := chunker{read: segmentReader(h.Segments()), scopes: slices.Clone(c.scopes), buf: c.buf, used: c.used}
	defer func() { c.buf, c.used = sub.buf, sub.used }()
	hp, whole = &headerParse{}, true
	for {
		toks, ns, more := sub.item()
		sub.reuse(toks)
		if sub.cut {
			hp.tail = slices.Clone(toks)
			break
		}
		switch {
		case len(toks) == 0:
		case ic.Own || toks[0].Pos.File != u.file.Path:
			hp.items = append(hp.items, u.parseCached(ic, kh, toks, ns))
			if f := toks[0].Pos.File; !slices.Contains(hp.files, f) {
				hp.files = append(hp.files, f)
			}
		default:
			u.parseItems(toks, ns)
			whole = false
		}
		if !more {
			break
		}
	}
	hp.scopes = slices.Clone(sub.scopes)
	c.scopes = append(c.scopes[:0], sub.scopes...)
	c.unget(hp.tail...)
	return hp, whole
}

// segmentReader reads the tokens of segs in order.
func segmentReader(segs [][]Token) func() (Token, bool) {
	seg, at := 0, 0
	return func() (Token, bool) {
		for seg < len(segs) {
			if s := segs[seg]; at < len(s) {
				at++
				return s[at-1], true
			}
			seg, at = seg+1, 0
		}
		return Token{}, false
	}
}
