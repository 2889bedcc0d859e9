// Package ptx decodes the PTX template of a CUDA inline-assembly
// statement into the instructions the model follows: the memory
// instructions of the wrappers modern kernels use (ld/st.global and
// .shared, cp.async, ldmatrix, stmatrix, red and atom), the predicates
// that guard them, and the register and synchronisation instructions
// that touch no memory. Anything else is an instruction with a cause.
//
// Operands are kept as written: %N and %[name] refer to the asm's
// operand list (outputs first), immediates are numbers, and an address
// [%N+off] is an operand index and a byte offset.
package ptx

import (
	"fmt"
	"strconv"
	"strings"
)

// Class is what an instruction does, as far as the model is concerned.
type Class uint8

const (
	// Unmodelled is an instruction the model does not follow; Instr.Why says why.
	Unmodelled Class = iota
	// Directive is a declaration inside the asm (.reg .pred p): no effect.
	Directive
	// Compute reads and writes registers only (mma, mov, cvt, shfl, ...)
	// or synchronises (bar, fence, cp.async.wait_group): its outputs are data.
	Compute
	Load         // ld, ldu: Operands[0] the destination, Operands[1] the address
	Store        // st: Operands[0] the address, Operands[1] the value
	Atomic       // atom, red: the address is the first Addr operand
	AsyncCopy    // cp.async: [shared dst], [global src], cp-size
	LoadMatrix   // ldmatrix: each of Matrices*8 lanes reads a 16-byte row
	StoreMatrix  // stmatrix: each of Matrices*8 lanes writes a 16-byte row
	SetPredicate // setp: Operands[0] the predicate, [1] and [2] compared by Cmp
	LaneID       // mov %r, %laneid: Operands[0] is the lane's index in its warp
	// Move copies Operands[1], an asm operand, into Operands[0]: a
	// 64-bit mov, or cvta converting a generic address to a global one
	// (cvta.to.global.u64 %0, %1), which is the same address.
	Move
)

// OperandKind says what an operand is.
type OperandKind uint8

const (
	Ref  OperandKind = iota // %N or %[name]: Index is the asm operand
	Imm                     // an integer: Value
	Reg                     // a register the asm declares, or a special register (%laneid): Name
	Vec                     // {a, b, ...}: Elems
	Addr                    // [base+offset]: Index the asm operand (-1: Name, a register), Value the offset
)

// Operand is one operand of an instruction.
type Operand struct {
	Kind  OperandKind
	Index int
	Value int64
	Name  string
	Elems []Operand
}

// Instr is one instruction of a template.
type Instr struct {
	Text    string // as written, trimmed
	Opcode  string // ld.global.nc.v4.f32
	Pred    string // the guarding predicate register, "" when none
	PredNot bool   // @!p
	Class   Class
	// Space is the state space of a memory instruction: "global",
	// "shared", or "" for a generic address (the pointer decides).
	Space string
	// Width is the bytes one lane moves (a vector's whole width); for
	// cp.async it is 0 and Operands[2] gives it.
	Width int64
	// Type is the PTX type of the elements moved (f32, b16, ...), "" when
	// the opcode names none (cp.async).
	Type string
	// Matrices is ldmatrix/stmatrix's .x1, .x2 or .x4.
	Matrices int
	// Cmp is setp's comparison: eq, ne, lt, le, gt, ge (lo, ls, hi, hs as lt, le, gt, ge).
	Cmp      string
	Operands []Operand
	Why      string // for Unmodelled
}

// Addr is the instruction's first address operand, or false.
func (in Instr) Addr() (Operand, bool) {
	for _, o := range in.Operands {
		if o.Kind == Addr {
			return o, true
		}
	}
	return Operand{}, false
}

// Decode splits template into instructions and classifies each. names
// are the asm operands' symbolic names ("" for none), in operand order:
// they resolve %[name]. An error is a template it cannot read (an
// operand reference past the list, an unbalanced bracket).
func Decode(template string, names []string) ([]Instr, error) {
	var out []Instr
	preds := map[string]bool{}
	for _, text := range statements(stripComments(template)) {
		in, err := decodeOne(text, names)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", text, err)
		}
		if in.Class == Directive {
			continue
		}
		if in.Pred != "" && !preds[in.Pred] && in.Class != Unmodelled {
			in.Class, in.Why = Unmodelled, "its predicate "+in.Pred+" is not set by a setp the asm holds"
		}
		if in.Class == SetPredicate {
			preds[in.Operands[0].Name] = true
		}
		if in.Class == Unmodelled {
			in.Space, in.Width, in.Matrices, in.Type = "", 0, 0, ""
		}
		out = append(out, in)
	}
	return out, nil
}

// FirstUnmodelled is the first instruction the model does not follow, or false.
func FirstUnmodelled(ins []Instr) (Instr, bool) {
	for _, in := range ins {
		if in.Class == Unmodelled {
			return in, true
		}
	}
	return Instr{}, false
}

func stripComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
			b.WriteByte(' ')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// statements splits a template at ';', and at the braces that open and
// close scopes (a brace where a statement starts), keeping a vector
// operand's braces inside its statement.
func statements(s string) []string {
	var out []string
	start := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if start < 0 {
			switch {
			case c == '{' || c == '}' || c == ';' || isSpace(c):
				continue
			}
			start = i
		}
		if c == ';' {
			out = append(out, strings.TrimSpace(s[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		if t := strings.TrimSpace(s[start:]); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func decodeOne(text string, names []string) (Instr, error) {
	in := Instr{Text: text}
	rest := text
	if k := labelEnd(rest); k > 0 {
		rest = strings.TrimSpace(rest[k:])
		if rest == "" {
			return Instr{Text: text, Class: Unmodelled, Why: "a label (the asm branches)"}, nil
		}
	}
	if strings.HasPrefix(rest, ".") {
		in.Class = Directive
		return in, nil
	}
	if strings.HasPrefix(rest, "@") {
		rest = rest[1:]
		if strings.HasPrefix(rest, "!") {
			in.PredNot = true
			rest = rest[1:]
		}
		k := strings.IndexFunc(rest, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
		if k < 0 {
			return in, fmt.Errorf("a predicate with no instruction")
		}
		in.Pred, rest = rest[:k], strings.TrimSpace(rest[k:])
	}
	k := strings.IndexFunc(rest, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	if k < 0 {
		in.Opcode = rest
		rest = ""
	} else {
		in.Opcode, rest = rest[:k], strings.TrimSpace(rest[k:])
	}
	ops, err := operands(rest, names)
	if err != nil {
		return in, err
	}
	in.Operands = ops
	classify(&in)
	return in, nil
}

// labelEnd is the length of a leading "name:", or 0.
func labelEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' && i > 0 && (i+1 == len(s) || s[i+1] != ':') {
			return i + 1
		}
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return 0
		}
	}
	return 0
}

// operands splits an operand list at its top-level commas and reads each.
func operands(s string, names []string) ([]Operand, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced %c", s[i])
			}
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced brackets")
	}
	parts = append(parts, s[start:])
	out := make([]Operand, 0, len(parts))
	for _, p := range parts {
		o, err := operand(strings.TrimSpace(p), names)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func operand(s string, names []string) (Operand, error) {
	switch {
	case s == "":
		return Operand{}, fmt.Errorf("an empty operand")
	case s[0] == '{' && s[len(s)-1] == '}':
		elems, err := operands(s[1:len(s)-1], names)
		return Operand{Kind: Vec, Elems: elems}, err
	case s[0] == '[' && s[len(s)-1] == ']':
		return address(strings.TrimSpace(s[1:len(s)-1]), names)
	case strings.HasPrefix(s, "%%"): // %% is a literal %: a special register
		return Operand{Kind: Reg, Name: s[1:]}, nil
	case s[0] == '%':
		if idx, ok, err := reference(s, names); ok || err != nil {
			return Operand{Kind: Ref, Index: idx}, err
		}
		return Operand{Kind: Reg, Name: s}, nil
	}
	if v, ok := immediate(s); ok {
		return Operand{Kind: Imm, Value: v}, nil
	}
	return Operand{Kind: Reg, Name: s}, nil
}

// reference reads %N or %[name]; ok is false for a special register (%laneid).
func reference(s string, names []string) (int, bool, error) {
	if strings.HasPrefix(s, "%[") && strings.HasSuffix(s, "]") {
		name := s[2 : len(s)-1]
		for i, n := range names {
			if n == name && n != "" {
				return i, true, nil
			}
		}
		return 0, true, fmt.Errorf("no operand named %s", name)
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil {
		return 0, false, nil
	}
	if n < 0 || n >= len(names) {
		return 0, true, fmt.Errorf("%s: the asm has %d operands", s, len(names))
	}
	return n, true, nil
}

func immediate(s string) (int64, bool) {
	s = strings.TrimRight(s, "uU")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// address reads base, base+off or base-off.
func address(s string, names []string) (Operand, error) {
	base, off := s, int64(0)
	if k := strings.LastIndexAny(s, "+-"); k > 0 {
		v, ok := immediate(strings.TrimSpace(strings.ReplaceAll(s[k+1:], " ", "")))
		if !ok {
			return Operand{}, fmt.Errorf("address offset %q is not a number", s[k+1:])
		}
		if s[k] == '-' {
			v = -v
		}
		base, off = strings.TrimSpace(s[:k]), v
		base = strings.TrimSuffix(base, "+") // [%0+-4]
		base = strings.TrimSpace(base)
	}
	if strings.HasPrefix(base, "%") {
		idx, ok, err := reference(base, names)
		if err != nil {
			return Operand{}, err
		}
		if ok {
			return Operand{Kind: Addr, Index: idx, Value: off}, nil
		}
	}
	return Operand{Kind: Addr, Index: -1, Name: base, Value: off}, nil
}

// memoryHeads are the opcodes (their first part) of the instructions that
// read or write memory, whether the model follows them or not.
var memoryHeads = map[string]bool{
	"ld": true, "ldu": true, "st": true, "atom": true, "red": true, "cp": true, "ldmatrix": true, "stmatrix": true,
	"tex": true, "tld4": true, "suld": true, "sust": true, "sured": true, "prefetch": true, "prefetchu": true,
	"multimem": true,
}

// memoryOps are the instructions of the tensor-core families that read or
// write memory: wgmma's and tcgen05's matrix operations read their
// operands from shared memory (a fence or a commit moves nothing).
var memoryOps = map[string]bool{
	"wgmma.mma_async": true, "tcgen05.mma": true, "tcgen05.ld": true, "tcgen05.st": true, "tcgen05.cp": true,
}

// MovesMemory reports whether template has an instruction that reads or
// writes memory (a load, a store, an atomic, an asynchronous or matrix
// copy, a texture or surface access, a prefetch), read from its opcodes
// alone, so that it answers for templates Decode refuses too.
func MovesMemory(template string) bool {
	for _, text := range statements(stripComments(template)) {
		rest := text
		if k := labelEnd(rest); k > 0 {
			rest = strings.TrimSpace(rest[k:])
		}
		if strings.HasPrefix(rest, "@") {
			if k := strings.IndexFunc(rest, isSpaceRune); k > 0 {
				rest = strings.TrimSpace(rest[k:])
			}
		}
		if k := strings.IndexFunc(rest, isSpaceRune); k >= 0 {
			rest = rest[:k]
		}
		parts := strings.SplitN(rest, ".", 3)
		if memoryHeads[parts[0]] || len(parts) > 1 && memoryOps[parts[0]+"."+parts[1]] {
			return true
		}
	}
	return false
}

func isSpaceRune(r rune) bool { return r < 128 && isSpace(byte(r)) }
