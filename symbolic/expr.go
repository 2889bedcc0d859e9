// Package symbolic holds integer expressions over symbols that are uniform
// across a warp (block indices, parameters, loop iterations), vary from
// lane to lane (threadIdx and what derives from it), or depend on data
// loaded from memory. Expressions are kept in a canonical form: sums of
// monomials with integer coefficients, where a monomial is a product of
// atoms, and an atom is a symbol or an operator that is not polynomial
// (division, remainder, shifts right, bitwise operators, comparisons,
// selects). Construction simplifies; Compile evaluates exactly.
package symbolic

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// Class says how a value varies across the lanes of a warp. Classes are
// ordered: combining two values gives the larger class.
type Class uint8

const (
	Uniform Class = iota // the same for every lane of a warp
	Lane                 // varies from lane to lane in a way we can compute
	Data                 // depends on values loaded from memory
)

func (c Class) String() string { return [...]string{"uniform", "lane", "data"}[c] }

// Expr is a symbolic integer expression.
type Expr interface {
	String() string
	// class is the largest class of the symbols in the expression.
	class() Class
	// ident is the expression's identity: its printed form with each
	// symbol's key for its name. Equal expressions have equal identities.
	ident() string
	// plain reports whether every symbol's key is its name: the identity
	// is then the printed form, computed once for both.
	plain() bool
}

// Key returns e's identity: two expressions are the same when their keys are.
func Key(e Expr) string { return e.ident() }

// Var is a symbol. What it stands for is in Kind, Axis, Site, Of and
// Cause; its identity is Key. Name is for printing only.
type Var struct {
	Name  string
	Class Class
	Kind  SymKind
	Axis  Axis         // the builtins' axis
	Site  Site         // the loop, load or statement it comes from, when it has one
	Of    string       // the parameter, variable, function, type or expression it concerns
	Cause UnknownCause // for KindUnknown
	ID    int          // tells apart unknowns (each is distinct) and symbols of one site
	key   string
}

func (v *Var) String() string { return v.Name }
func (v *Var) class() Class   { return v.Class }
func (v *Var) ident() string  { return v.key }
func (v *Var) plain() bool    { return v.key == v.Name }

// OpKind names a non-polynomial operator.
type OpKind uint8

const (
	OpDiv OpKind = iota // C division, truncating toward zero
	OpRem               // C remainder, sign of the dividend
	OpShr               // arithmetic shift right
	OpShl               // shift left by a non-constant amount
	OpAnd
	OpOr
	OpXor
	OpLt
	OpLe
	OpEq
	OpNe
	OpLAnd
	OpLOr
	OpMin
	OpMax
)

var opText = [...]string{"/", "%", ">>", "<<", "&", "|", "^", "<", "<=", "==", "!=", "&&", "||", "min", "max"}

// Op is a binary operator that is not polynomial.
type Op struct {
	Kind    OpKind
	X, Y    Expr
	str     lazyString
	id      lazyString
	cls     Class
	size    int
	isPlain bool
}

// lazyString caches an expression's printed form. Expressions are shared
// between goroutines (kernels are analyzed concurrently), so the cache is
// set atomically; two goroutines racing to fill it compute the same text.
type lazyString struct{ p atomic.Pointer[string] }

func (l *lazyString) get(compute func() string) string {
	if s := l.p.Load(); s != nil {
		return *s
	}
	s := compute()
	l.p.Store(&s)
	return s
}

func (o *Op) String() string { return o.str.get(func() string { return o.format(text) }) }

func (o *Op) format(t textOf) string {
	if o.Kind == OpMin || o.Kind == OpMax {
		return opText[o.Kind] + "(" + t(o.X) + ", " + t(o.Y) + ")"
	}
	return paren(o.X, t) + " " + opText[o.Kind] + " " + paren(o.Y, t)
}

func (o *Op) ident() string {
	if o.isPlain {
		return o.String()
	}
	return o.id.get(func() string { return o.format(ident) })
}
func (o *Op) class() Class { return o.cls }
func (o *Op) plain() bool  { return o.isPlain }

// textOf is how a subexpression is written: printed (text) or as its
// identity (ident).
type textOf func(Expr) string

func text(e Expr) string  { return e.String() }
func ident(e Expr) string { return e.ident() }

// Select is Cond ? Then : Else.
type Select struct {
	Cond, Then, Else Expr
	str              lazyString
	id               lazyString
	cls              Class
	size             int
	isPlain          bool
}

func (s *Select) String() string { return s.str.get(func() string { return s.format(text) }) }

func (s *Select) format(t textOf) string {
	return paren(s.Cond, t) + " ? " + paren(s.Then, t) + " : " + paren(s.Else, t)
}

func (s *Select) ident() string {
	if s.isPlain {
		return s.String()
	}
	return s.id.get(func() string { return s.format(ident) })
}
func (s *Select) class() Class { return s.cls }
func (s *Select) plain() bool  { return s.isPlain }

// Mono is Coeff times the product of Atoms (sorted by their identity;
// key is the identity of the product).
type Mono struct {
	Coeff int64
	Atoms []Expr
	key   string
}

// Poly is a sum of monomials plus a constant: the canonical form of every
// polynomial expression, constants and single symbols included.
type Poly struct {
	Const   int64
	Terms   []Mono // sorted by key, no zero coefficients
	str     lazyString
	id      lazyString
	cls     Class
	size    int
	isPlain bool
}

func (p *Poly) String() string { return p.str.get(func() string { return p.format(text) }) }
func (p *Poly) class() Class   { return p.cls }
func (p *Poly) plain() bool    { return p.isPlain }

func (p *Poly) ident() string {
	if p.isPlain {
		return p.String()
	}
	return p.id.get(func() string { return p.format(ident) })
}

// Size limits: a polynomial with more terms, or a monomial with more
// factors, is replaced by TooComplex. Index arithmetic never comes close;
// floating-point recurrences run through a loop (x = x*x - y*y ...) would
// otherwise grow exponentially.
const (
	MaxTerms  = 64
	MaxFactor = 8
	// MaxSize bounds an expression's size as a tree (shared parts counted
	// each time they appear): printing, comparing and evaluating are
	// linear in it, and selects built from many returns share a lot.
	MaxSize = 400
)

// sizeOf is the tree size of e.
func sizeOf(e Expr) int {
	switch x := e.(type) {
	case *Poly:
		return x.size
	case *Op:
		return x.size
	case *Select:
		return x.size
	}
	return 1
}

// TooComplexName names the symbol that replaces an expression over the limits.
const TooComplexName = "an expression too complex to model"

var tooComplexCount atomic.Int64

// TooComplex is a data-class value nothing can be computed from. Each is
// a distinct unknown: two of them must not cancel.
func TooComplex() Expr {
	id := int(tooComplexCount.Add(1))
	return NewSym(Var{Name: fmt.Sprintf("%s#%d", TooComplexName, id), Class: Data, Kind: KindUnknown, Cause: CauseTooComplex, ID: id})
}

// IsTooComplex reports whether e mentions a value over the size limits.
func IsTooComplex(e Expr) bool {
	found := false
	Symbols(e, func(v *Var) { found = found || v.Cause == CauseTooComplex })
	return found
}

// ClassOf returns the class of e.
func ClassOf(e Expr) Class { return e.class() }

// Const returns the constant c.
func Const(c int64) Expr {
	if c >= -smallConsts && c <= smallConsts {
		return smallConst[c+smallConsts]
	}
	if c > 0 && c&(c-1) == 0 {
		return pow2Const[bits.TrailingZeros64(uint64(c))] // strides, sizes, assumed extents
	}
	return &Poly{Const: c}
}

const smallConsts = 1024

// pow2Const holds the positive powers of two, shared like smallConst.
var pow2Const = func() (out [63]Expr) {
	for i := range out {
		out[i] = &Poly{Const: int64(1) << i}
	}
	return out
}()

// smallConst holds the constants -1024..1024: shared, since expressions
// are immutable (a run builds millions of them).
var smallConst = func() []Expr {
	out := make([]Expr, 2*smallConsts+1)
	for i := range out {
		out[i] = &Poly{Const: int64(i - smallConsts)}
	}
	return out
}()

// Sym returns a symbol of kind KindOther called name, of the given class.
func Sym(name string, c Class) Expr {
	return NewSym(Var{Name: name, Class: c})
}

func atomPoly(a Expr) Expr {
	return finishPoly(&Poly{Terms: []Mono{{Coeff: 1, Atoms: []Expr{a}, key: monoKey([]Expr{a}, ident)}}})
}

// IsConst reports whether e is a constant, and its value.
func IsConst(e Expr) (int64, bool) {
	if p, ok := e.(*Poly); ok && len(p.Terms) == 0 {
		return p.Const, true
	}
	return 0, false
}

func asPoly(e Expr) *Poly {
	if p, ok := e.(*Poly); ok {
		return p
	}
	return atomPoly(e).(*Poly)
}

// asAtom returns the single atom e stands for, when e is exactly one atom.
func asAtom(e Expr) Expr {
	if p, ok := e.(*Poly); ok && p.Const == 0 && len(p.Terms) == 1 && p.Terms[0].Coeff == 1 && len(p.Terms[0].Atoms) == 1 {
		return p.Terms[0].Atoms[0]
	}
	if _, ok := e.(*Poly); ok {
		return nil
	}
	return e
}

func finishPoly(p *Poly) Expr {
	p.cls = Uniform
	p.size = 1
	p.isPlain = true
	for _, t := range p.Terms {
		p.size++
		for _, a := range t.Atoms {
			p.cls = max(p.cls, a.class())
			p.size += sizeOf(a)
			p.isPlain = p.isPlain && a.plain()
		}
	}
	if p.size > MaxSize {
		return TooComplex()
	}
	return p
}

// format prints the polynomial, its subexpressions written by t; String
// and ident cache it (printing every intermediate expression of a
// simplification would dominate its cost).
func (p *Poly) format(t textOf) string { return p.formatTerms(t, p.isPlain) }

// formatTerms is format; keyed says the terms' keys are their text (the
// polynomial is plain and t prints or identifies), which saves printing
// them again.
func (p *Poly) formatTerms(t textOf, keyed bool) string {
	var b strings.Builder
	for i, term := range p.Terms {
		c := term.Coeff
		switch {
		case i == 0 && c < 0:
			b.WriteString("-")
			c = -c
		case i > 0 && c < 0:
			b.WriteString(" - ")
			c = -c
		case i > 0:
			b.WriteString(" + ")
		}
		if c != 1 {
			b.WriteString(strconv.FormatInt(c, 10))
			b.WriteString("*")
		}
		if keyed {
			b.WriteString(term.key) // the identity is the printed form
		} else {
			b.WriteString(monoKey(term.Atoms, t))
		}
	}
	switch {
	case len(p.Terms) == 0:
		b.WriteString(strconv.FormatInt(p.Const, 10))
	case p.Const > 0:
		b.WriteString(" + " + strconv.FormatInt(p.Const, 10))
	case p.Const < 0:
		b.WriteString(" - " + strconv.FormatInt(-p.Const, 10))
	}
	return b.String()
}

// Format prints e as String does, each symbol written as name says:
// messages rename symbols (a loop's iteration as i) without parsing the
// printed form back. name is called in the order the symbols print.
func Format(e Expr, name func(*Var) string) string {
	var t textOf
	t = func(x Expr) string {
		switch x := x.(type) {
		case *Var:
			return name(x)
		case *Op:
			return x.format(t)
		case *Select:
			return x.format(t)
		case *Poly:
			return x.formatTerms(t, false)
		}
		return x.String()
	}
	return t(e)
}

// monoKey writes a product of atoms, each written by t: a lone atom as
// it is, the factors of a product in parentheses unless symbols.
func monoKey(atoms []Expr, t textOf) string {
	if len(atoms) == 1 {
		return t(atoms[0])
	}
	parts := make([]string, len(atoms))
	for i, a := range atoms {
		s := t(a)
		if _, ok := a.(*Var); !ok {
			s = "(" + s + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, "*")
}

// Add returns a + b.
func Add(a, b Expr) Expr {
	pa, pb := asPoly(a), asPoly(b)
	if len(pa.Terms)+len(pb.Terms) > 2*MaxTerms {
		return TooComplex()
	}
	// Adding a constant keeps the other side's terms; term lists are
	// never changed in place, so they can be shared.
	if len(pb.Terms) == 0 {
		if pb.Const == 0 {
			return a
		}
		return finishPoly(&Poly{Const: pa.Const + pb.Const, Terms: pa.Terms})
	}
	if len(pa.Terms) == 0 {
		if pa.Const == 0 {
			return b
		}
		return finishPoly(&Poly{Const: pa.Const + pb.Const, Terms: pb.Terms})
	}
	out := &Poly{Const: pa.Const + pb.Const, Terms: make([]Mono, 0, len(pa.Terms)+len(pb.Terms))}
	i, j := 0, 0
	for i < len(pa.Terms) || j < len(pb.Terms) {
		switch {
		case j >= len(pb.Terms) || (i < len(pa.Terms) && pa.Terms[i].key < pb.Terms[j].key):
			out.Terms = append(out.Terms, pa.Terms[i])
			i++
		case i >= len(pa.Terms) || pb.Terms[j].key < pa.Terms[i].key:
			out.Terms = append(out.Terms, pb.Terms[j])
			j++
		default:
			if c := pa.Terms[i].Coeff + pb.Terms[j].Coeff; c != 0 {
				t := pa.Terms[i]
				t.Coeff = c
				out.Terms = append(out.Terms, t)
			}
			i++
			j++
		}
	}
	if len(out.Terms) > MaxTerms {
		return TooComplex()
	}
	return finishPoly(out)
}

// Neg returns -a.
func Neg(a Expr) Expr { return Mul(Const(-1), a) }

// Sub returns a - b.
func Sub(a, b Expr) Expr { return Add(a, Neg(b)) }

// Mul returns a * b, distributing over sums.
func Mul(a, b Expr) Expr {
	pa, pb := asPoly(a), asPoly(b)
	if len(pa.Terms)*len(pb.Terms) > MaxTerms {
		return TooComplex()
	}
	n := len(pa.Terms) * len(pb.Terms)
	if pb.Const != 0 {
		n += len(pa.Terms)
	}
	if pa.Const != 0 {
		n += len(pb.Terms)
	}
	terms := make([]Mono, 0, n)
	if pb.Const != 0 {
		for _, t := range pa.Terms {
			t.Coeff *= pb.Const
			terms = append(terms, t)
		}
	}
	if pa.Const != 0 {
		for _, t := range pb.Terms {
			t.Coeff *= pa.Const
			terms = append(terms, t)
		}
	}
	for _, ta := range pa.Terms {
		for _, tb := range pb.Terms {
			if len(ta.Atoms)+len(tb.Atoms) > MaxFactor {
				return TooComplex()
			}
			atoms := make([]Expr, 0, len(ta.Atoms)+len(tb.Atoms))
			atoms = append(append(atoms, ta.Atoms...), tb.Atoms...)
			slices.SortStableFunc(atoms, func(x, y Expr) int { return strings.Compare(x.ident(), y.ident()) })
			terms = append(terms, Mono{Coeff: ta.Coeff * tb.Coeff, Atoms: atoms, key: monoKey(atoms, ident)})
		}
	}
	return sumTerms(pa.Const*pb.Const, terms)
}

// sumTerms returns c plus the sum of terms (which it reorders): like
// terms merged, zero terms dropped, in key order. Building a product
// this way sorts once, where adding its terms one by one re-merged the
// growing sum at every step.
func sumTerms(c int64, terms []Mono) Expr {
	slices.SortStableFunc(terms, func(x, y Mono) int { return strings.Compare(x.key, y.key) })
	out := terms[:0]
	for _, t := range terms {
		if n := len(out); n > 0 && out[n-1].key == t.key {
			out[n-1].Coeff += t.Coeff
			continue
		}
		out = append(out, t)
	}
	kept := out[:0]
	for _, t := range out {
		if t.Coeff != 0 {
			kept = append(kept, t)
		}
	}
	if len(kept) > MaxTerms {
		return TooComplex()
	}
	if len(kept) == 0 {
		return Const(c)
	}
	return finishPoly(&Poly{Const: c, Terms: kept})
}

// Binary builds a non-polynomial operator, folding constants and the
// identities that matter for index arithmetic.
func Binary(k OpKind, x, y Expr) Expr {
	cx, okx := IsConst(x)
	cy, oky := IsConst(y)
	if okx && oky {
		if v, ok := apply(k, cx, cy); ok {
			return Const(v)
		}
	}
	switch {
	case oky && cy == 1 && k == OpDiv:
		return x
	case oky && cy == 1 && k == OpRem:
		return Const(0)
	case oky && cy == 0 && (k == OpShr || k == OpShl || k == OpOr || k == OpXor):
		return x
	case oky && k == OpShl && cy >= 0 && cy < 63:
		return Mul(x, Const(1<<cy))
	case oky && cy == 0 && k == OpAnd:
		return Const(0)
	}
	if k == OpShr || k == OpShl || k == OpDiv || k == OpRem || k == OpLt || k == OpLe {
		// not commutative
	} else if x.ident() > y.ident() {
		x, y = y, x
	}
	size := 1 + sizeOf(x) + sizeOf(y)
	if size > MaxSize {
		return TooComplex()
	}
	return atomPoly(&Op{Kind: k, X: x, Y: y, cls: max(x.class(), y.class()), size: size, isPlain: x.plain() && y.plain()})
}

func paren(e Expr, t textOf) string {
	if p, ok := e.(*Poly); ok && (len(p.Terms) > 1 || (len(p.Terms) == 1 && (p.Const != 0 || p.Terms[0].Coeff != 1 || len(p.Terms[0].Atoms) > 1))) {
		return "(" + t(e) + ")"
	}
	if a := asAtom(e); a != nil {
		if _, ok := a.(*Var); !ok {
			return "(" + t(e) + ")"
		}
	}
	return t(e)
}

// Cond builds c ? a : b.
func Cond(c, a, b Expr) Expr {
	if v, ok := IsConst(c); ok {
		if v != 0 {
			return a
		}
		return b
	}
	size := 1 + sizeOf(c) + sizeOf(a) + sizeOf(b)
	if size > MaxSize {
		return TooComplex()
	}
	if sizeOf(a) == sizeOf(b) && a.ident() == b.ident() {
		return a
	}
	return atomPoly(&Select{Cond: c, Then: a, Else: b, cls: max(c.class(), a.class(), b.class()), size: size,
		isPlain: c.plain() && a.plain() && b.plain()})
}

// Not returns !a.
func Not(a Expr) Expr { return Binary(OpEq, a, Const(0)) }

func b2i(c bool) int64 {
	if c {
		return 1
	}
	return 0
}

// shift is x << y or x >> y without C's undefined cases: a negative
// amount has no value, and bits shifted past 64 saturate instead of
// wrapping, so that s >> iter and s << iter stay monotonic in iter (loop
// trip counts are found by bisection on such conditions).
func shift(k OpKind, x, y int64) (int64, bool) {
	if y < 0 {
		return 0, false
	}
	if k == OpShr {
		if y >= 63 {
			return x >> 63, true // 0 or -1
		}
		return x >> uint64(y), true
	}
	switch {
	case x == 0:
		return 0, true
	case y >= 63 || (x > 0 && x > math.MaxInt64>>uint64(y)):
		if x > 0 {
			return math.MaxInt64, true
		}
		return math.MinInt64, true
	case x < 0 && x < math.MinInt64>>uint64(y):
		return math.MinInt64, true
	}
	return x << uint64(y), true
}

func apply(k OpKind, x, y int64) (int64, bool) {
	switch k {
	case OpDiv:
		if y == 0 {
			return 0, false
		}
		return x / y, true
	case OpRem:
		if y == 0 {
			return 0, false
		}
		return x % y, true
	case OpShr, OpShl:
		return shift(k, x, y)
	case OpAnd:
		return x & y, true
	case OpOr:
		return x | y, true
	case OpXor:
		return x ^ y, true
	case OpLt:
		return b2i(x < y), true
	case OpLe:
		return b2i(x <= y), true
	case OpEq:
		return b2i(x == y), true
	case OpNe:
		return b2i(x != y), true
	case OpLAnd:
		return b2i(x != 0 && y != 0), true
	case OpLOr:
		return b2i(x != 0 || y != 0), true
	case OpMin:
		return min(x, y), true
	case OpMax:
		return max(x, y), true
	}
	return 0, false
}
