package parser

// Op is an operator of the syntax tree: of a Unary, Postfix or Binary.
// Code compares it with the constants below, never with spellings; its
// String is the C spelling, so printing an Op prints what was written.
// A prefix operator shares the constant of its binary spelling, as
// go/token does: -x is Sub, *p is Mul (alias Deref), &v is And (alias
// AddrOf).
type Op uint8

const (
	NoOp Op = iota // the zero value: no operator

	Add // +
	Sub // -
	Mul // *
	Quo // /
	Rem // %

	And // &
	Or  // |
	Xor // ^
	Shl // <<
	Shr // >>

	AddAssign // +=
	SubAssign // -=
	MulAssign // *=
	QuoAssign // /=
	RemAssign // %=
	AndAssign // &=
	OrAssign  // |=
	XorAssign // ^=
	ShlAssign // <<=
	ShrAssign // >>=

	LogAnd // &&
	LogOr  // ||
	Inc    // ++
	Dec    // --

	Eql // ==
	Lss // <
	Gtr // >
	Neq // !=
	Leq // <=
	Geq // >=

	Assign // =
	Not    // !
	Tilde  // ~
	Comma  // ,

	numOps
)

// Prefix spellings of the shared constants, for readability where the
// operator can only be a prefix one.
const (
	Deref  = Mul // *p
	AddrOf = And // &v
)

// opInfo is each operator's spelling and, for a binary operator, its
// precedence (higher binds tighter; 0 for the comma and prefix-only
// operators, which format treats as lowest).
var opInfo = [numOps]struct {
	text string
	prec int
}{
	NoOp:      {"", 0},
	Add:       {"+", 11},
	Sub:       {"-", 11},
	Mul:       {"*", 12},
	Quo:       {"/", 12},
	Rem:       {"%", 12},
	And:       {"&", 7},
	Or:        {"|", 5},
	Xor:       {"^", 6},
	Shl:       {"<<", 10},
	Shr:       {">>", 10},
	AddAssign: {"+=", precAssign},
	SubAssign: {"-=", precAssign},
	MulAssign: {"*=", precAssign},
	QuoAssign: {"/=", precAssign},
	RemAssign: {"%=", precAssign},
	AndAssign: {"&=", precAssign},
	OrAssign:  {"|=", precAssign},
	XorAssign: {"^=", precAssign},
	ShlAssign: {"<<=", precAssign},
	ShrAssign: {">>=", precAssign},
	LogAnd:    {"&&", 4},
	LogOr:     {"||", 3},
	Inc:       {"++", 0},
	Dec:       {"--", 0},
	Eql:       {"==", 8},
	Lss:       {"<", 9},
	Gtr:       {">", 9},
	Neq:       {"!=", 8},
	Leq:       {"<=", 9},
	Geq:       {">=", 9},
	Assign:    {"=", precAssign},
	Not:       {"!", 0},
	Tilde:     {"~", 0},
	Comma:     {",", 0},
}

// String returns the operator's C spelling.
func (op Op) String() string {
	if op < numOps {
		return opInfo[op].text
	}
	return "?"
}

// precedence is a binary operator's binding strength (see opInfo).
func (op Op) precedence() int {
	if op < numOps {
		return opInfo[op].prec
	}
	return 0
}

// IsAssign reports whether op stores into its left operand: = and the
// compound assignments.
func (op Op) IsAssign() bool { return op == Assign || op >= AddAssign && op <= ShrAssign }

// Arith is the operator an assignment or a step applies to the old
// value: Add for AddAssign and Inc, Sub for SubAssign and Dec; NoOp for
// Assign, which keeps none of it. Any other operator is its own.
func (op Op) Arith() Op {
	switch {
	case op >= AddAssign && op <= ShrAssign:
		return op - AddAssign + Add
	case op == Inc:
		return Add
	case op == Dec:
		return Sub
	case op == Assign:
		return NoOp
	}
	return op
}

// opBySpelling maps a spelling to its operator.
var opBySpelling = func() map[string]Op {
	m := make(map[string]Op, numOps)
	for op := Add; op < numOps; op++ {
		m[opInfo[op].text] = op
	}
	return m
}()

// lookupOp is the operator spelled s; the expression reader passes only
// operator tokens, so NoOp means a spelling the tree has no Op for.
func lookupOp(s string) Op { return opBySpelling[s] }

// JumpKind says which jump a Jump statement is.
type JumpKind uint8

const (
	Break JumpKind = iota + 1
	Continue
	Goto
)

var jumpWords = [...]string{Break: "break", Continue: "continue", Goto: "goto"}

// String returns the jump's keyword.
func (k JumpKind) String() string {
	if int(k) < len(jumpWords) && k > 0 {
		return jumpWords[k]
	}
	return "?"
}

// jumpKinds maps a jump keyword to its kind.
var jumpKinds = map[string]JumpKind{"break": Break, "continue": Continue, "goto": Goto}
