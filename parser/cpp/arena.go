package cpp

// The tokens a substitution produces are pushed back as a span and read
// again (see expand); allocated one slice per expansion, they were most
// of what preprocessing a macro-heavy file allocated. They live in an
// arena instead, used as a stack: a span is read from the top of the
// pushed stack, and one pushed later is read (and dropped) first, so the
// spans of the arena are dropped in the reverse order of their
// allocation, and dropping one frees the arena down to its start.
//
// An expansion allocated while another one's substitution is under way
// (an argument being expanded) lies above the substitution's room, and
// is read and dropped before the substitution ends, all within
// expandArg.

// expansionArena is the arena of one Preprocessor. Indices are the
// arena's: when the array is full a larger one is made, and the regions
// of the old one stay where they are, read through their spans.
type expansionArena struct {
	buf []ptok
	top int // the first free index
}

// minArena is the size of the first array, in tokens.
const minArena = 256

// reserve returns room for n tokens at the top of the arena, and the
// region's start, to be given to keep or release.
func (a *expansionArena) reserve(n int) ([]ptok, int) {
	if a.top+n > len(a.buf) {
		a.buf = make([]ptok, max(2*len(a.buf), a.top+n, minArena))
	}
	start := a.top
	a.top += n
	return a.buf[start:start:a.top], start
}

// keep ends the substitution that reserved the region at start and
// produced out: it reports whether out is in the region (it is not
// when it outgrew it) and frees what out does not use. Nothing lies
// above the region by then.
func (a *expansionArena) keep(out []ptok, start int) bool {
	if len(out) == 0 || start+cap(out) != a.top || &out[:1][0] != &a.buf[start] {
		a.top = start
		return false
	}
	a.top = start + len(out)
	return true
}

// release frees the arena down to start: the span there was dropped.
func (a *expansionArena) release(start int) { a.top = start }
