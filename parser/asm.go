package parser

import (
	"strconv"
	"strings"

	"github.com/cudalint/cudalint/parser/lex"
	"github.com/cudalint/cudalint/parser/ptx"
)

// asmStmt reads asm [volatile] ( "template" : outputs : inputs : clobbers );
// in a kernel or device function. An asm whose template package ptx
// follows whole is an Asm; any other is a BadStmt whose note names the
// first instruction not modelled. Host code keeps every asm skipped.
func (u *unit) asmStmt(i, to int, host bool) (Stmt, int) {
	end := u.skipStatement(i, to)
	if host {
		return u.bad(i, end, host, "inline assembly is not modelled"), end
	}
	s, why := u.asm(i, end)
	if s == nil {
		bad := u.bad(i, end, host, "inline assembly: "+why).(*BadStmt)
		bad.MovesMemory = ptx.MovesMemory(u.asmTemplateText(i, end))
		return bad, end
	}
	return s, end
}

// asmTemplateText is the template of the asm at i as far as it is string
// literals, "" when there is none to read.
func (u *unit) asmTemplateText(i, end int) string {
	var b strings.Builder
	for j := i + 1; j < end; j++ {
		t := u.toks[j]
		if u.isPunct(j, ":") || u.isPunct(j, "::") {
			break
		}
		if t.Kind == lex.KString {
			if s, err := strconv.Unquote(t.Text); err == nil {
				b.WriteString(s)
			} else {
				b.WriteString(t.Text)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// asm reads the asm at i, ending before end; nil and why when the model
// does not follow it.
func (u *unit) asm(i, end int) (*Asm, string) {
	j := i + 1
	for j < end && (u.text(j) == "volatile" || u.text(j) == "__volatile__" || u.text(j) == "__volatile" || u.text(j) == "inline") {
		j++
	}
	if u.text(j) == "goto" {
		return nil, "asm goto is not modelled"
	}
	if !u.isPunct(j, "(") {
		return nil, "no ( after asm"
	}
	close := u.skipGroup(j, end) - 1
	if !u.isPunct(close, ")") {
		return nil, "unterminated asm"
	}
	sections := u.asmSections(j+1, close)
	if len(sections) > 4 {
		return nil, "asm goto labels are not modelled"
	}
	tmpl, ok := u.stringLiterals(sections[0][0], sections[0][1])
	if !ok {
		return nil, "the template is not a string literal"
	}
	a := &Asm{P: u.toks[i].Pos, Template: tmpl}
	for k := 1; k <= 2 && k < len(sections); k++ {
		ops, why := u.asmOperands(sections[k][0], sections[k][1])
		if why != "" {
			return nil, why
		}
		a.Operands = append(a.Operands, ops...)
		if k == 1 {
			a.Outputs = len(ops)
		}
	}
	names := make([]string, len(a.Operands))
	for k, o := range a.Operands {
		names[k] = o.Name
	}
	ins, err := ptx.Decode(tmpl, names)
	if err != nil {
		return nil, "template not understood: " + err.Error()
	}
	if bad, ok := ptx.FirstUnmodelled(ins); ok {
		return nil, bad.Why
	}
	for _, in := range ins {
		for _, o := range in.Operands {
			if o.Kind == ptx.Addr && (o.Index < a.Outputs || strings.ContainsAny(a.Operands[o.Index].Constraint, "m")) {
				return nil, in.Opcode + ": its address is not an input operand held in a register"
			}
		}
	}
	a.Instrs = ins
	return a, ""
}

// asmSections splits [from, to) at its top-level colons ("::" is two).
func (u *unit) asmSections(from, to int) [][2]int {
	var out [][2]int
	start := from
	for k := from; k < to; {
		switch {
		case u.isPunct(k, "(") || u.isPunct(k, "[") || u.isPunct(k, "{"):
			k = u.skipGroup(k, to)
			continue
		case u.isPunct(k, ":"):
			out = append(out, [2]int{start, k})
			start = k + 1
		case u.isPunct(k, "::"):
			out = append(out, [2]int{start, k}, [2]int{k, k})
			start = k + 1
		}
		k++
	}
	return append(out, [2]int{start, to})
}

// stringLiterals joins the string literals [from, to) (adjacent literals
// concatenate), unescaped; false when anything else is there.
func (u *unit) stringLiterals(from, to int) (string, bool) {
	if from >= to {
		return "", false
	}
	var b strings.Builder
	for k := from; k < to; k++ {
		t := u.toks[k]
		if t.Kind != lex.KString || !strings.HasPrefix(t.Text, `"`) {
			return "", false
		}
		s, ok := unescape(t.Text)
		if !ok {
			return "", false
		}
		b.WriteString(s)
	}
	return b.String(), true
}

// unescape is a C string literal's value.
func unescape(lit string) (string, bool) {
	if len(lit) < 2 || lit[len(lit)-1] != '"' {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	var b strings.Builder
	for k := 0; k < len(body); k++ {
		c := body[k]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		k++
		if k >= len(body) {
			return "", false
		}
		switch c := body[k]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a', 'b', 'f', 'v':
			b.WriteByte(' ')
		case 'x':
			n := k + 1
			for n < len(body) && strings.IndexByte("0123456789abcdefABCDEF", body[n]) >= 0 {
				n++
			}
			v, err := strconv.ParseUint(body[k+1:n], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteByte(byte(v))
			k = n - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n := k
			for n < len(body) && n < k+3 && body[n] >= '0' && body[n] <= '7' {
				n++
			}
			v, _ := strconv.ParseUint(body[k:n], 8, 8)
			b.WriteByte(byte(v))
			k = n - 1
		default: // \\ \" \' \?
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// asmOperands reads [name] "constraint" (expr), ... in [from, to).
func (u *unit) asmOperands(from, to int) ([]AsmOperand, string) {
	var out []AsmOperand
	k := from
	for k < to {
		var o AsmOperand
		if u.isPunct(k, "[") {
			if k+2 >= to || u.toks[k+1].Kind != lex.KIdent || !u.isPunct(k+2, "]") {
				return nil, "asm operand name not understood"
			}
			o.Name = u.toks[k+1].Text
			k += 3
		}
		c := k
		for c < to && u.toks[c].Kind == lex.KString {
			c++
		}
		cons, ok := u.stringLiterals(k, c)
		if !ok {
			return nil, "asm operand constraint not understood"
		}
		o.Constraint = cons
		if !u.isPunct(c, "(") {
			return nil, "asm operand without ( expression )"
		}
		e := u.skipGroup(c, to)
		x, err := u.parseExpr(c+1, e-1)
		if err != nil {
			return nil, "asm operand not understood: " + err.Error()
		}
		o.X = x
		out = append(out, o)
		k = e
		if k < to {
			if !u.isPunct(k, ",") {
				return nil, "asm operand list not understood"
			}
			k++
		}
	}
	return out, ""
}
