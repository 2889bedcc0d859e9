package cpp

import (
	"slices"
	"unsafe"
)

// hideSet is the set of macro names a token must not be expanded by again
// (Prosser's algorithm). Sets are interned by their hideSets: one value per
// distinct set, immutable, so equal sets are the same pointer, and the sets
// made from one by adding a name, or by union or intersection with
// another, are each made once and then looked up. Macro libraries that
// iterate by recursion (a FOR_EACH_N calling FOR_EACH_N-1, a SEQ_SIZE
// counter) give tokens hide sets of hundreds of names that are united at
// every level: as lists, each union cost the product of the sizes.
type hideSet struct {
	names []nameID // sorted, no repeats
	id    int32    // order of interning: pairs of sets are keyed by it
	plus  map[nameID]*hideSet
}

// nameID is a macro name interned by a hideSets.
type nameID int32

func (h *hideSet) contains(n nameID) bool {
	if h == nil {
		return false
	}
	_, found := slices.BinarySearch(h.names, n)
	return found
}

// hidePair keys a binary operation on two interned sets.
type hidePair struct{ a, b int32 }

// hideSets interns the hide sets of one Preprocessor (the nil *hideSet is
// the empty set). It lives as long as its unit, and is not safe for
// concurrent use, like the Preprocessor.
type hideSets struct {
	ids    map[string]nameID
	sets   map[string]*hideSet // by the bytes of names
	unions map[hidePair]*hideSet
	meets  map[hidePair]*hideSet
}

func newHideSets() *hideSets {
	return &hideSets{ids: map[string]nameID{}, sets: map[string]*hideSet{},
		unions: map[hidePair]*hideSet{}, meets: map[hidePair]*hideSet{}}
}

// has reports whether name is in h.
func (s *hideSets) has(h *hideSet, name string) bool {
	if h == nil {
		return false
	}
	n, known := s.ids[name]
	return known && h.contains(n)
}

func (s *hideSets) nameID(name string) nameID {
	n, ok := s.ids[name]
	if !ok {
		n = nameID(len(s.ids))
		s.ids[name] = n
	}
	return n
}

// with returns h with name added.
func (s *hideSets) with(h *hideSet, name string) *hideSet {
	n := s.nameID(name)
	if h.contains(n) {
		return h
	}
	if h != nil {
		if r := h.plus[n]; r != nil {
			return r
		}
	}
	var names []nameID
	if h == nil {
		names = []nameID{n}
	} else {
		at, _ := slices.BinarySearch(h.names, n)
		names = make([]nameID, 0, len(h.names)+1)
		names = append(append(append(names, h.names[:at]...), n), h.names[at:]...)
	}
	r := s.intern(names)
	if h != nil {
		if h.plus == nil {
			h.plus = map[nameID]*hideSet{}
		}
		h.plus[n] = r
	}
	return r
}

// union returns a ∪ b.
func (s *hideSets) union(a, b *hideSet) *hideSet {
	switch {
	case a == nil || a == b:
		return b
	case b == nil:
		return a
	}
	key := orderedPair(a, b)
	if r, ok := s.unions[key]; ok {
		return r
	}
	r := s.merge(a, b, true)
	s.unions[key] = r
	return r
}

// intersect returns a ∩ b.
func (s *hideSets) intersect(a, b *hideSet) *hideSet {
	switch {
	case a == nil || b == nil:
		return nil
	case a == b:
		return a
	}
	key := orderedPair(a, b)
	if r, ok := s.meets[key]; ok {
		return r
	}
	r := s.merge(a, b, false)
	s.meets[key] = r
	return r
}

// orderedPair keys a commutative operation on a and b.
func orderedPair(a, b *hideSet) hidePair {
	if a.id > b.id {
		a, b = b, a
	}
	return hidePair{a.id, b.id}
}

// merge walks the sorted names of a and b together, keeping the names of
// either (union) or of both, and interns the result.
func (s *hideSets) merge(a, b *hideSet, union bool) *hideSet {
	x, y := a.names, b.names
	var out []nameID
	if union {
		out = make([]nameID, 0, len(x)+len(y))
	}
	for len(x) > 0 && len(y) > 0 {
		switch {
		case x[0] == y[0]:
			out = append(out, x[0])
			x, y = x[1:], y[1:]
		case x[0] < y[0]:
			if union {
				out = append(out, x[0])
			}
			x = x[1:]
		default:
			if union {
				out = append(out, y[0])
			}
			y = y[1:]
		}
	}
	if union {
		out = append(append(out, x...), y...)
	}
	if len(out) == 0 {
		return nil
	}
	return s.intern(out)
}

// intern returns the one set with these sorted names, made the first
// time; names is kept by the new set, never changed after.
func (s *hideSets) intern(names []nameID) *hideSet {
	key := unsafe.String((*byte)(unsafe.Pointer(&names[0])), len(names)*int(unsafe.Sizeof(names[0])))
	if h, ok := s.sets[key]; ok {
		return h
	}
	h := &hideSet{names: names, id: int32(len(s.sets))}
	s.sets[key] = h
	return h
}
